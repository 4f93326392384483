// SPDX-License-Identifier: GPL-2.0
/*
 * kma-perf-records.c - the records of a perf.data's data section, one at a
 * time. Each starts with struct perf_event_header (u32 type, u16 misc, u16
 * size); size covers the whole record and is at least 8. Two kinds carry
 * more than that:
 *
 *   PERF_RECORD_AUXTRACE: a payload of its u64 size field's bytes follows
 *   the record (skipped);
 *   PERF_RECORD_HEADER_TRACING_DATA (pipe mode): the event formats, its u32
 *   size field's bytes, follow the record (skipped: read at open);
 *   PERF_RECORD_COMPRESSED (perf record -z): the bytes after the header are
 *   a piece of one zstd stream that runs through the file; inflated, they are
 *   records again, and the last of them may continue in the next compressed
 *   record (perf's session.c keeps the rest, and so do we).
 *   PERF_RECORD_COMPRESSED2 (newer perf) is the same with a u64 data_size
 *   after the header and padding to 8 bytes after the data.
 *
 * A record that runs past the data section, a size below 8, or a stream
 * zstd refuses are errors naming the offset. A stream that ends inside a
 * record is not: perf record compresses with a flush whose rest it does not
 * wait for, so its last records can stop short, and perf's reader drops the
 * partial one; so do we, and the caller says so.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

#include "kma-perfdata.h"

#define BUF_SIZE	(1u << 20)
#define HDR		8
#define INFLATE_MAX	(256u << 20)	/* one compressed record never inflates to more */

void kma_pin_init(struct kma_pin *in, const struct kma_pd *pd)
{
	memset(in, 0, sizeof(*in));
	in->fd = pd->fd;
	in->pos = pd->data_off;
	in->end = pd->data_off + pd->data_size;
	/* perf inflates one record into its mmap length (plus what was left) */
	in->max_inflate = INFLATE_MAX;
}

void kma_pin_release(struct kma_pin *in)
{
	if (in->zd)
		ZSTD_freeDStream(in->zd);
	free(in->buf);
	free(in->d);
	in->zd = NULL;
	in->buf = in->d = NULL;
}

static uint16_t rec_size(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p + 6, 2);
	return v;
}

static uint32_t rec_type(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* @len bytes at file offset @off into the buffer: the pointer, or NULL. */
static const unsigned char *file_bytes(struct kma_pin *in, uint64_t off, size_t len)
{
	ssize_t got;

	if (off >= in->boff && off - in->boff + len <= in->blen)
		return in->buf + (off - in->boff);
	if (!in->buf) {
		in->buf = malloc(BUF_SIZE);
		if (!in->buf)
			return NULL;
		in->cap = BUF_SIZE;
	}
	in->boff = off;
	got = pread(in->fd, in->buf, in->end - off < in->cap ? in->end - off : in->cap,
		    (off_t)off);
	in->blen = got > 0 ? (size_t)got : 0;
	return len <= in->blen ? in->buf : NULL;
}

/* Room for @more inflated bytes after dlen, the unread ones moved to the start. */
static int d_room(struct kma_pin *in, size_t more)
{
	unsigned char *n;
	size_t want;

	if (in->dhead) {
		memmove(in->d, in->d + in->dhead, in->dlen - in->dhead);
		in->dlen -= in->dhead;
		in->dhead = 0;
	}
	if (in->dcap - in->dlen >= more)
		return 0;
	want = in->dcap ? in->dcap * 2 : BUF_SIZE;
	while (want - in->dlen < more)
		want *= 2;
	n = realloc(in->d, want);
	if (!n)
		return -1;
	in->d = n;
	in->dcap = want;
	return 0;
}

static int inflate(struct kma_pin *in, const unsigned char *src, size_t n, uint64_t off,
		   struct kma_err *err)
{
	ZSTD_inBuffer ib = { src, n, 0 };
	size_t start, ret;

	if (!in->zd) {
		in->zd = ZSTD_createDStream();
		if (!in->zd || ZSTD_isError(ZSTD_initDStream(in->zd)))
			return kma_err_nomem(err);
	}
	if (d_room(in, 0))
		return kma_err_nomem(err);
	start = in->dlen;
	/*
	 * Until the input is used up and zstd stopped short of the room it
	 * had: when it fills the room exactly, the rest of a block may still
	 * be in its own buffer, input or no input (perf compresses up to a
	 * ring buffer's worth at a time, and a block inflates to 128 KB).
	 */
	for (;;) {
		ZSTD_outBuffer ob;

		if (in->dlen - start >= in->max_inflate)
			return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: the compressed "
					   "record at %" PRIu64 " inflates to more than %" PRIu64
					   " bytes", off, in->max_inflate);
		if (d_room(in, 64 << 10))
			return kma_err_nomem(err);
		ob.dst = in->d;
		ob.size = in->dcap;
		ob.pos = in->dlen;
		ret = ZSTD_decompressStream(in->zd, &ob, &ib);
		if (ZSTD_isError(ret))
			return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: the compressed "
					   "record at %" PRIu64 " does not inflate (zstd: %s)", off,
					   ZSTD_getErrorName(ret));
		in->dlen = ob.pos;
		if (ib.pos == ib.size && ob.pos < ob.size)
			break;
	}
	in->comp_off = off;
	in->compressed++;
	return 0;
}

/* The next inflated record: 1, or 0 when none is whole (the rest stays for the next). */
static int next_inflated(struct kma_pin *in, const unsigned char **rec, struct kma_err *err)
{
	size_t left = in->dlen - in->dhead;
	const unsigned char *p;
	uint32_t type;

	if (left < HDR)		/* also before anything was inflated: d is NULL */
		return 0;
	p = in->d + in->dhead;
	if (left < rec_size(p))
		return 0;
	type = rec_type(p);
	if (rec_size(p) < HDR || type == KMA_PR_COMPRESSED || type == KMA_PR_COMPRESSED2 ||
	    type == KMA_PR_AUXTRACE)
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: a record of type "
				   "%u, size %u inside the compressed record at %" PRIu64,
				   type, rec_size(p), in->comp_off);
	in->dhead += rec_size(p);
	*rec = p;
	return 1;
}

/* A compressed record's data: into the inflated bytes. */
static int compressed(struct kma_pin *in, const unsigned char *p, uint64_t off,
		      struct kma_err *err)
{
	uint16_t size = rec_size(p);
	uint64_t dsize = size - HDR;
	size_t skip = HDR;

	if (rec_type(p) == KMA_PR_COMPRESSED2) {
		if (size < HDR + 8)
			return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: the "
					   "compressed record at %" PRIu64 " is too short", off);
		memcpy(&dsize, p + HDR, 8);
		skip += 8;
		if (dsize > (uint64_t)size - skip)
			return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: the compressed "
					   "record at %" PRIu64 " claims more data than it has", off);
	}
	return inflate(in, p + skip, (size_t)dsize, off, err);
}

int kma_pin_next(struct kma_pin *in, const unsigned char **rec, uint64_t *off,
		 struct kma_err *err)
{
	const unsigned char *p;
	uint64_t extra;
	uint16_t size;
	int ret;

	for (;;) {
		ret = next_inflated(in, rec, err);
		if (ret) {
			in->in_comp = 1;
			*off = in->comp_off;
			return ret;
		}
		in->in_comp = 0;
		if (in->pos >= in->end) {
			in->cut_have = in->dlen - in->dhead;
			if (in->cut_have >= HDR)
				in->cut_size = rec_size(in->d + in->dhead);
			return 0;
		}
		if (in->end - in->pos < HDR || !(p = file_bytes(in, in->pos, HDR)))
			return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data: a record "
					   "header at %" PRIu64 " runs past the data's end at %" PRIu64,
					   in->pos, in->end);
		size = rec_size(p);
		if (size < HDR)
			return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: the record at "
					   "%" PRIu64 " has size %u", in->pos, size);
		if (in->end - in->pos < size || !(p = file_bytes(in, in->pos, size)))
			return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data: the record "
					   "at %" PRIu64 " (%u bytes) runs past the data's end at %"
					   PRIu64, in->pos, size, in->end);
		*off = in->pos;
		in->pos += size;
		if (rec_type(p) == KMA_PR_AUXTRACE && size >= HDR + 8) {
			memcpy(&extra, p + HDR, 8);
			if (extra > in->end - in->pos)
				return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data: the "
						   "AUXTRACE data at %" PRIu64 " runs past the data's end",
						   in->pos);
			in->pos += extra;
		}
		if (rec_type(p) == KMA_PR_TRACING_DATA && size >= HDR + 4) {
			uint32_t tsize;

			memcpy(&tsize, p + HDR, 4);
			if (tsize > in->end - in->pos)
				return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data: the "
						   "tracing data at %" PRIu64 " runs past the data's end",
						   in->pos);
			in->pos += tsize;
		}
		if (rec_type(p) == KMA_PR_COMPRESSED || rec_type(p) == KMA_PR_COMPRESSED2) {
			if (compressed(in, p, *off, err))
				return -1;
			continue;
		}
		*rec = p;
		return 1;
	}
}
