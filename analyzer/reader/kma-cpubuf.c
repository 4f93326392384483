// SPDX-License-Identifier: GPL-2.0
/*
 * kma-cpubuf.c - one CPU's event data cut into records, a block at a time.
 *
 * libtracecmd 1.3.1 reads compressed CPU data through a list of inflated
 * chunks that it walks on every record free: quadratic in the file. Its
 * lower layers are linear, so they are used directly: the chunk index
 * (tracecmd_load_chunks_info) and the codec (tracecmd_uncompress_block,
 * whose buffer read says how many bytes a chunk inflated to),
 * each CPU on a file descriptor and codec context of its own so that CPUs
 * can be read on threads; libtraceevent's kbuffer then walks each page as
 * libtracecmd's tracecmd_peek_data() does, so the records, their
 * timestamps (time extends, absolute stamps) and the missed-events counts
 * are the same. Every page's commit word is checked before kbuffer trusts it.
 *
 * Damage that a page's commit word does not show is counted, never read as
 * events: an all-zero page (no timestamp, no records), and a page whose time
 * is out of line with its CPU's, which the merge would otherwise deliver out
 * of place (its allocations paired with the wrong frees). A CPU's time never
 * goes backwards, so a page is out of line when its first record is earlier
 * than the last record of the CPU's previous page, or when it runs past the
 * start of the next page while that next page follows on from the previous
 * one: then this page alone jumped ahead. The next page's timestamp is known
 * for every page (plain data: read ahead in the file; compressed: the next
 * chunk is inflated ahead).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "kma-cpubuf.h"
#include "kma-grow.h"
#include "kma-huge.h"
#include "kma-tracedat.h"
#include "kma-tracecmd.h"

#define PLAIN_PAGES	64		/* pages per block of plain data */
#define MAX_CHUNK	(1u << 28)	/* an inflated chunk larger than this is corrupt */
#define COMMIT_MASK	((1u << 27) - 1)
#define MISSED_EVENTS	(1ull << 31)
#define MISSED_STORED	(1ull << 30)

struct kma_cpubuf {
	const struct kma_cpubuf_file *f;
	struct kma_td_cpu	c;
	uint32_t		page_size;
	int			compressed;
	int			fd;
	struct kbuffer		*kbuf;
	/* plain: the next page's offset in the file */
	uint64_t		next;
	/* compressed */
	struct tracecmd_compression *comp;
	struct tracecmd_compress_chunk *chunks;
	int			nr_chunks;	/* -1: not loaded yet */
	int			next_chunk;
	uint64_t		vbase;		/* inflated bytes before the next chunk */
	char			*ahead;		/* the chunk inflated ahead of the block */
	uint64_t		ahead_cap;
	int			have_ahead;
	/* the time check: the last record of the CPU's last page read */
	uint64_t		prev_last;
	int			have_prev;
	struct kma_damage	damage;
	char			err[256];
};

static int fail(struct kma_cpubuf *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct kma_cpubuf *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, sizeof(p->err), fmt, ap);
	va_end(ap);
	return -1;
}

const char *kma_cpubuf_error(const struct kma_cpubuf *p)
{
	return p->err;
}

const struct kma_damage *kma_cpubuf_damage(const struct kma_cpubuf *p)
{
	return &p->damage;
}

uint64_t kma_cpubuf_size(const struct kma_cpubuf *p)
{
	return p->c.size;
}

struct kma_cpubuf *kma_cpubuf_alloc(const struct kma_cpubuf_file *f,
				    const struct kma_td_buf *b,
				    const struct kma_td_cpu *c)
{
	struct kma_cpubuf *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->f = f;
	p->c = *c;
	p->page_size = b->page_size;
	p->compressed = b->compressed && c->size;
	p->next = c->off;
	p->nr_chunks = -1;
	p->fd = -1;
	p->kbuf = kbuffer_alloc(f->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				f->big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (!p->kbuf) {
		free(p);
		return NULL;
	}
	if (f->old_format)
		kbuffer_set_old_format(p->kbuf);
	return p;
}

void kma_cpubuf_free(struct kma_cpubuf *p)
{
	if (!p)
		return;
	if (p->comp)
		tracecmd_compress_destroy(p->comp);
	free(p->chunks);
	free(p->ahead);
	if (p->fd >= 0)
		close(p->fd);
	kbuffer_free(p->kbuf);
	free(p);
}

void kma_pblock_free(struct kma_pblock *blk)
{
	if (!blk)
		return;
	free(blk->bytes);
	free(blk->recs);
	free(blk);
}

static int reserve(struct kma_cpubuf *p, struct kma_pblock *blk, uint64_t bytes)
{
	char *b;

	if (blk->cap_bytes >= bytes)
		return 0;
	/* a block gathers chunk after chunk: doubling keeps the copies linear */
	if (bytes < 2 * blk->cap_bytes)
		bytes = 2 * blk->cap_bytes;
	b = realloc(blk->bytes, bytes);
	if (!b)
		return fail(p, "out of memory");
	blk->bytes = b;
	blk->cap_bytes = bytes;
	kma_huge_advise(b, bytes);
	return 0;
}

static int push_rec(struct kma_cpubuf *p, struct kma_pblock *blk, struct kma_prec **out)
{
	/* per record: the call only when the array is full */
	if (blk->nr >= blk->cap &&
	    kma_grow(&blk->recs, &blk->cap, blk->nr, sizeof(*blk->recs), 4096))
		return fail(p, "out of memory");
	*out = &blk->recs[blk->nr++];
	return 0;
}

static int all_zero(const char *b, uint64_t len)
{
	return !b[0] && !memcmp(b, b + 1, len - 1);
}

/* A page's timestamp (0: none, as in an all-zero page). */
static uint64_t page_ts(const struct kma_cpubuf *p, const char *page)
{
	return kma_td_decode(page, 8, p->f->big_endian);
}

/*
 * Whether a page with records from @first to @last is out of line with its
 * CPU's time (see the top of the file); @next: the next page's timestamp,
 * 0 when unknown (the CPU's last page, or a zero page next).
 */
static int time_jump(const struct kma_cpubuf *p, uint64_t first, uint64_t last, uint64_t next)
{
	if (p->have_prev && first < p->prev_last)
		return 1;
	return next && next < last && (!p->have_prev || next >= p->prev_last);
}

/*
 * The records of the page at @at in the block, as tracecmd_peek_data()
 * reads them. The commit word must fit the page (and the missed-events
 * count stored after the data): kbuffer trusts it. @next: the next page's
 * timestamp (0: unknown).
 */
/*
 * Whether a record is a kernel_stack: counted per block so that the
 * decoder's peek after each kmem event stops at once on blocks without
 * stacks (most traces have none, though every trace has the format).
 */
static inline int is_stack(const struct kma_cpubuf *p, const void *data, uint32_t size)
{
	uint16_t id;

	if (p->f->stack_id < 0 || size < 2)
		return 0;
	memcpy(&id, data, 2);
	return id == (uint16_t)p->f->stack_id;
}

static int cut_page(struct kma_cpubuf *p, struct kma_pblock *blk, uint64_t at, uint64_t next)
{
	char *page = blk->bytes + at;
	int ls = p->f->long_size == 8 ? 8 : 4;
	uint64_t commit = kma_td_decode(page + 8, ls, p->f->big_endian);
	uint64_t size = (uint32_t)commit & COMMIT_MASK, room = p->page_size - 8 - ls;
	uint32_t first = blk->nr;
	unsigned long long ts;
	struct kma_prec *r = NULL;
	void *data;

	if (size > room || ((commit & MISSED_EVENTS) && (commit & MISSED_STORED) &&
			    size + ls > room))
		return fail(p, "corrupt trace.dat: CPU %" PRIu32 "'s ring-buffer page at %" PRIu64
			    "%s does not fit (corrupt event data)", p->c.cpu, blk->base + at,
			    p->compressed ? " of its inflated data" : "");
	if (!commit && !page_ts(p, page)) {
		/* no records either way: only a page written as zeros is damage */
		p->damage.zero_pages += all_zero(page, p->page_size);
		return 0;
	}
	kbuffer_load_subbuffer(p->kbuf, page);
	/*
	 * Three kbuffer calls per record, not six: kbuffer_next_event() hands
	 * back the next record's data and time as kbuffer_read_event() would,
	 * and the payload's size and the missed count follow from the
	 * record's offset and size (kbuffer's event size is its next minus
	 * its index, the payload's offset from the data start; only a record
	 * at the data start, offset 8 + long size, can carry missed events).
	 */
	for (data = kbuffer_read_event(p->kbuf, &ts); data;
	     data = kbuffer_next_event(p->kbuf, &ts)) {
		uint32_t off = (uint32_t)kbuffer_curr_offset(p->kbuf);
		uint32_t rsize = (uint32_t)kbuffer_curr_size(p->kbuf);

		/*
		 * Every record takes a header's 4 bytes at least: a record at
		 * or before the last one is kbuffer going round a corrupt
		 * page, which it would hand back without end.
		 */
		if (blk->nr > first && (uint64_t)at + off <= r->at)
			return fail(p, "corrupt trace.dat: CPU %" PRIu32 "'s ring-buffer page at %"
				    PRIu64 "%s has a record that does not move on (corrupt event "
				    "data)", p->c.cpu, blk->base + at,
				    p->compressed ? " of its inflated data" : "");
		if (push_rec(p, blk, &r))
			return -1;
		r->ts = ts;
		r->at = (uint32_t)at + off;
		r->data = (uint32_t)((char *)data - blk->bytes);
		r->size = off + rsize - (uint32_t)((char *)data - page);
		r->rsize = rsize;
		r->missed = off == (uint32_t)(8 + ls) ? kbuffer_missed_events(p->kbuf) : 0;
		blk->nstack += is_stack(p, data, r->size);
	}
	if (blk->nr == first)
		return 0;	/* no time to check, none to go by */
	if (time_jump(p, blk->recs[first].ts, blk->recs[blk->nr - 1].ts, next)) {
		if (!p->damage.jump_pages++) {
			p->damage.jump_offset = p->compressed ? blk->base + at
							      : p->c.off + blk->base + at;
			p->damage.jump_inflated = p->compressed;
		}
		p->damage.jump_records += blk->nr - first;
		blk->nr = first;
		return 0;
	}
	p->prev_last = blk->recs[blk->nr - 1].ts;
	p->have_prev = 1;
	return 0;
}

/* The pages of a block; @next: the timestamp of the page after them (0: unknown). */
static int cut_pages(struct kma_cpubuf *p, struct kma_pblock *blk, uint64_t len, uint64_t next)
{
	uint64_t at;

	blk->nr = 0;
	blk->nstack = 0;
	for (at = 0; at < len; at += p->page_size)
		if (cut_page(p, blk, at, at + p->page_size < len ?
				 page_ts(p, blk->bytes + at + p->page_size) : next))
			return -1;
	return 0;
}

/* Plain pages: as libtracecmd, a partial last page is read as a whole page. */
static int next_plain(struct kma_cpubuf *p, struct kma_pblock *blk)
{
	uint64_t end = p->c.off + p->c.size, want, have, next = 0;
	unsigned char ts[8];
	ssize_t n;

	if (p->next >= end)
		return 0;
	want = (uint64_t)PLAIN_PAGES * p->page_size;
	if (want > end - p->next)
		want = (end - p->next + p->page_size - 1) / p->page_size * p->page_size;
	if (reserve(p, blk, want))
		return -1;
	have = want;
	if (p->next + have > p->f->file_size)
		have = p->f->file_size > p->next ? p->f->file_size - p->next : 0;
	n = pread(p->fd, blk->bytes, have, (off_t)p->next);
	if (n < 0 || (uint64_t)n != have)
		return fail(p, "cannot read CPU %" PRIu32 "'s event data at %" PRIu64 ": %s",
			    p->c.cpu, p->next, n < 0 ? strerror(errno) : "file cut short");
	memset(blk->bytes + have, 0, want - have);
	blk->base = p->next - p->c.off;
	p->next += want;
	blk->done = p->next - p->c.off < p->c.size ? p->next - p->c.off : p->c.size;
	/* the next block's first page's time, for this block's last page */
	if (p->next < end && pread(p->fd, ts, sizeof(ts), (off_t)p->next) == (ssize_t)sizeof(ts))
		next = page_ts(p, (const char *)ts);
	return cut_pages(p, blk, want, next) ? -1 : 1;
}

/* The chunk index, its every entry inside the CPU's data. */
static int load_chunks(struct kma_cpubuf *p)
{
	uint64_t end = p->c.off + 4 + p->c.size;
	int i;

	p->comp = tracecmd_compress_alloc(p->f->cname, p->f->cver, p->fd, p->f->tep, NULL);
	if (!p->comp)
		return fail(p, "cannot inflate CPU %" PRIu32 "'s event data (codec '%s')",
			    p->c.cpu, p->f->cname);
	if (lseek(p->fd, (off_t)p->c.off, SEEK_SET) == (off_t)-1)
		return fail(p, "cannot read CPU %" PRIu32 "'s event data: %s", p->c.cpu,
			    strerror(errno));
	p->nr_chunks = tracecmd_load_chunks_info(p->comp, &p->chunks);
	if (p->nr_chunks < 0)
		goto bad;
	for (i = 0; i < p->nr_chunks; i++) {
		struct tracecmd_compress_chunk *k = &p->chunks[i];

		if ((uint64_t)k->zoffset + 8 + k->zsize > end || k->size % p->page_size ||
		    k->size > MAX_CHUNK)
			goto bad;
	}
	return 0;
bad:
	return fail(p, "corrupt trace.dat: CPU %" PRIu32 "'s compressed event data at %" PRIu64
		    " does not fit (corrupt chunk index)", p->c.cpu, p->c.off);
}

/*
 * Chunk @k inflated into @dst, which must be exactly k->size bytes: the
 * codec is run through tracecmd_uncompress_block(), whose buffer read says
 * how many bytes it produced (tracecmd_uncompress_chunk() does not), and a
 * chunk that inflates to fewer bytes than its header claims would leave the
 * rest of the block's stale bytes to be cut into records.
 */
static int inflate_chunk(struct kma_cpubuf *p, const struct tracecmd_compress_chunk *k,
			 char *dst)
{
	int64_t got = -1;
	char extra;

	if (lseek(p->fd, k->zoffset, SEEK_SET) != (off_t)-1 &&
	    !tracecmd_uncompress_block(p->comp)) {
		got = tracecmd_compress_buffer_read(p->comp, dst, k->size);
		if (got == k->size && tracecmd_compress_buffer_read(p->comp, &extra, 1) > 0)
			got++;
	}
	if (got == k->size)
		return 0;
	kma_td_chunk_msg(p->err, sizeof(p->err), p->c.cpu, (uint64_t)k->zoffset, got, k->size);
	return -1;
}

/* Chunk @k inflated at @dst (room for its size, at least 1 byte), its size checked. */
static int inflate(struct kma_cpubuf *p, struct tracecmd_compress_chunk *k, char *dst)
{
	return inflate_chunk(p, k, dst);
}

/* Chunk @k into the block at @len: the one inflated ahead, or inflated now. */
static int take_chunk(struct kma_cpubuf *p, struct kma_pblock *blk, uint64_t len)
{
	struct tracecmd_compress_chunk *k = &p->chunks[p->next_chunk];

	if (reserve(p, blk, len + (k->size ? k->size : 1)))
		return -1;
	if (p->have_ahead)
		memcpy(blk->bytes + len, p->ahead, k->size);
	else if (inflate(p, k, blk->bytes + len))
		return -1;
	p->have_ahead = 0;
	p->next_chunk++;
	p->vbase += k->size;
	blk->done = (uint64_t)k->zoffset + 8 + k->zsize - p->c.off - 4;
	return 0;
}

/* The next chunk inflated ahead: its first page's timestamp, 0 when none. */
static int inflate_ahead(struct kma_cpubuf *p, uint64_t *next)
{
	struct tracecmd_compress_chunk *k = &p->chunks[p->next_chunk];
	char *b;

	*next = 0;
	if (p->next_chunk >= p->nr_chunks)
		return 0;
	if (p->ahead_cap < k->size + 1) {
		b = realloc(p->ahead, k->size + 1);
		if (!b)
			return fail(p, "out of memory");
		p->ahead = b;
		p->ahead_cap = k->size + 1;
	}
	if (inflate(p, k, p->ahead))
		return -1;
	p->have_ahead = 1;
	if (k->size >= 8)
		*next = page_ts(p, p->ahead);
	return 0;
}


/*
 * Inflated chunks, as many as make a block of PLAIN_PAGES pages (trace-cmd
 * writes chunks of 10 pages: one block per chunk would hand the merge a
 * block, with a wake-up, every few hundred records), and the chunk after
 * them inflated ahead, for the time check of the block's last page.
 */
static int next_chunk(struct kma_cpubuf *p, struct kma_pblock *blk)
{
	uint64_t want = (uint64_t)PLAIN_PAGES * p->page_size, len = 0, next;

	if (p->nr_chunks < 0 && load_chunks(p))
		return -1;
	if (p->next_chunk >= p->nr_chunks)
		return 0;
	blk->base = p->vbase;
	while (p->next_chunk < p->nr_chunks &&
	       (!len || len + p->chunks[p->next_chunk].size <= want)) {
		if (take_chunk(p, blk, len))
			return -1;
		len += p->chunks[p->next_chunk - 1].size;
	}
	if (inflate_ahead(p, &next))
		return -1;
	return cut_pages(p, blk, len, next) ? -1 : 1;
}

int kma_cpubuf_next(struct kma_cpubuf *p, struct kma_pblock *blk)
{
	if (p->err[0])
		return -1;
	blk->nr = 0;
	if (!p->c.size)
		return 0;
	if (p->fd < 0) {
		/* its own descriptor: the codec reads with read() at the fd's offset */
		p->fd = open(p->f->path, O_RDONLY | O_CLOEXEC);
		if (p->fd < 0)
			return fail(p, "cannot open it again: %s", strerror(errno));
	}
	return p->compressed ? next_chunk(p, blk) : next_plain(p, blk);
}
