// SPDX-License-Identifier: GPL-2.0
/*
 * kma-perfdata.c - the structure of a perf.data file (PERFILE2), as perf's
 * tools/perf/util/header.c writes it:
 *
 *   struct perf_file_header (104 bytes): magic, size, attr_size, then the
 *     attrs, data and event_types sections (u64 offset, u64 size each) and a
 *     256-bit bitmap of the features present;
 *   attrs: attr_size bytes each, a struct perf_event_attr followed by the
 *     section of its sample ids (u64s);
 *   data: the records (kma-perf-records.c);
 *   at data offset + size: one section (offset, size) per feature bit set,
 *     in bit order; kma reads TRACING_DATA, BUILD_ID, OSRELEASE, NRCPUS,
 *     CMDLINE, EVENT_DESC and COMPRESSED.
 *
 * A pipe-mode file (perf record -o -) has a 16-byte header and the same
 * things as records in its stream (read_pipe()).
 *
 * Every offset and size is checked against the file before it is used.
 * Only files in the host's byte order are read (perf writes its own).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kma-perfdata.h"

#define MAX_ATTRS	4096
#define MAX_IDS		(1u << 20)
#define MAX_FEAT_SIZE	(64u << 20)	/* a feature section kma reads whole */
#define ATTR_MIN	64		/* PERF_ATTR_SIZE_VER0 */
#define MISC_CPUMODE	7u
#define MISC_KERNEL	1u
#define MISC_GUEST_KERNEL 4u
#define MISC_BUILD_ID_SIZE (1u << 15)

int kma_pd_magic(const void *b, size_t n)
{
	uint64_t size;

	if (n < KMA_PD_MAGIC_LEN || memcmp(b, KMA_PD_MAGIC, KMA_PD_MAGIC_LEN))
		return 0;
	if (n < 16)
		return 1;
	memcpy(&size, (const char *)b + 8, 8);
	return size == KMA_PD_PIPE_SIZE ? 2 : 1;
}

static int pd_pread(const struct kma_pd *pd, uint64_t off, void *buf, size_t len)
{
	if (off > pd->size || len > pd->size - off ||
	    pread(pd->fd, buf, len, (off_t)off) != (ssize_t)len)
		return -1;
	return 0;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* A section (offset, size) that must lie in the file. */
static int section(const struct kma_pd *pd, const unsigned char *p, uint64_t *off,
		   uint64_t *size)
{
	*off = get64(p);
	*size = get64(p + 8);
	return *off > pd->size || *size > pd->size - *off ? -1 : 0;
}

/* The u64 index of a sample's id from its start, or -1 (perf's evsel__calc_id_pos). */
static int id_pos(uint64_t st)
{
	int pos = 0;

	if (st & KMA_PS_IDENTIFIER)
		return 0;
	if (!(st & KMA_PS_ID))
		return -1;
	pos += !!(st & KMA_PS_IP) + !!(st & KMA_PS_TID) + !!(st & KMA_PS_TIME) +
	       !!(st & KMA_PS_ADDR);
	return pos;
}

/* The same from a non-sample record's end, when sample_id_all. */
static int id_pos_end(uint64_t st)
{
	if (st & KMA_PS_IDENTIFIER)
		return 1;
	if (!(st & KMA_PS_ID))
		return -1;
	return 1 + !!(st & KMA_PS_CPU) + !!(st & KMA_PS_STREAM_ID);
}

static int read_ids(struct kma_pd *pd, size_t idx, uint64_t off, uint64_t size,
		    struct kma_err *err)
{
	unsigned char b[8];
	uint64_t i;

	if (size % 8 || size / 8 > MAX_IDS - pd->nr_ids)
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: event %zu's "
				   "id section has %" PRIu64 " bytes", idx, size);
	for (i = 0; i < size / 8; i++) {
		if (pd_pread(pd, off + i * 8, b, 8))
			return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data: "
					   "event %zu's ids", idx);
		if (kma_map_put(&pd->id_map, get64(b), (uint32_t)idx))
			return kma_err_nomem(err);
	}
	pd->nr_ids += size / 8;
	return 0;
}

static int attrs_agree(struct kma_pd *pd, struct kma_err *err);

/* One attribute from the @b (ATTR_MIN bytes) of a perf_event_attr. */
static void attr_fields(struct kma_pd_attr *a, const unsigned char *b)
{
	a->type = get32(b);
	a->config = get64(b + 8);
	a->sample_type = get64(b + 24);
	a->read_format = get64(b + 32);
	a->sample_id_all = (get64(b + 40) >> 18) & 1;
}

static int read_attrs(struct kma_pd *pd, uint64_t attr_size, uint64_t off, uint64_t size,
		      struct kma_err *err)
{
	unsigned char b[ATTR_MIN], s[16];
	uint64_t ioff, isize;
	size_t i;

	if (attr_size < ATTR_MIN + 16 || attr_size > 4096 || size % attr_size ||
	    size / attr_size > MAX_ATTRS || !size)
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: bad event "
				   "attribute section (%" PRIu64 " bytes of %" PRIu64 ")",
				   size, attr_size);
	pd->nr_attrs = size / attr_size;
	pd->attrs = calloc(pd->nr_attrs, sizeof(*pd->attrs));
	if (!pd->attrs)
		return kma_err_nomem(err);
	for (i = 0; i < pd->nr_attrs; i++) {
		struct kma_pd_attr *a = &pd->attrs[i];
		uint64_t at = off + i * attr_size;

		if (pd_pread(pd, at, b, sizeof(b)) ||
		    pd_pread(pd, at + attr_size - 16, s, sizeof(s)))
			return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data: "
					   "event attributes");
		attr_fields(a, b);
		if (section(pd, s, &ioff, &isize))
			return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data: event "
					   "%zu's ids lie beyond the end of the file", i);
		if (read_ids(pd, i, ioff, isize, err))
			return -1;
	}
	return attrs_agree(pd, err);
}

/* perf refuses files whose events put the id in different places, and so do we */
static int attrs_agree(struct kma_pd *pd, struct kma_err *err)
{
	size_t i;

	pd->id_pos = id_pos(pd->attrs[0].sample_type);
	pd->id_pos_end = pd->attrs[0].sample_id_all ? id_pos_end(pd->attrs[0].sample_type) : -1;
	for (i = 1; i < pd->nr_attrs; i++)
		if (id_pos(pd->attrs[i].sample_type) != pd->id_pos ||
		    pd->attrs[i].sample_id_all != pd->attrs[0].sample_id_all)
			return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: its events' "
					   "samples do not agree where the sample id is");
	if (pd->nr_attrs > 1 && pd->id_pos < 0)
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: %zu events and "
				   "no sample ids to tell them apart", pd->nr_attrs);
	return 0;
}

const struct kma_pd_attr *kma_pd_attr_of(const struct kma_pd *pd, uint64_t id)
{
	uint32_t *i;

	if (pd->nr_attrs == 1)
		return &pd->attrs[0];
	i = kma_map_find(&pd->id_map, id);
	return i ? &pd->attrs[*i] : NULL;
}

/* A feature section read whole (NUL after it), or NULL with @err. */
static unsigned char *feat_data(struct kma_pd *pd, uint64_t off, uint64_t size,
				const char *what, struct kma_err *err)
{
	unsigned char *buf;

	if (size > MAX_FEAT_SIZE) {
		kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: its %s section claims "
			    "%" PRIu64 " bytes", what, size);
		return NULL;
	}
	buf = malloc(size + 1);
	if (!buf) {
		kma_err_nomem(err);
		return NULL;
	}
	if (pd_pread(pd, off, buf, size)) {
		free(buf);
		kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data: its %s section", what);
		return NULL;
	}
	buf[size] = '\0';
	return buf;
}

/* perf's do_read_string(): u32 length (NUL padded), the bytes. */
static char *feat_string(const unsigned char *b, uint64_t size, uint64_t *pos)
{
	uint32_t len;
	char *s;

	if (size - *pos < 4)
		return NULL;
	len = get32(b + *pos);
	*pos += 4;
	if (len > size - *pos || !memchr(b + *pos, '\0', len))
		return NULL;
	s = strdup((const char *)b + *pos);
	*pos += len;
	return s;
}

static int feat_build_ids(struct kma_pd *pd, const unsigned char *b, uint64_t size,
			  struct kma_err *err)
{
	uint64_t pos = 0;

	while (size - pos >= 8) {
		uint16_t misc, len;
		struct kma_build_id *id, *n;

		memcpy(&misc, b + pos + 4, 2);
		memcpy(&len, b + pos + 6, 2);
		/* header, pid, build_id[24], a NUL-terminated file name */
		if (len < 8 + 4 + 24 + 1 || len > size - pos ||
		    !memchr(b + pos + 36, '\0', len - 36))
			return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: a build id "
					   "entry does not fit its section");
		n = realloc(pd->build_ids, (pd->nr_build_ids + 1) * sizeof(*n));
		if (!n)
			return kma_err_nomem(err);
		pd->build_ids = n;
		id = &n[pd->nr_build_ids];
		memset(id, 0, sizeof(*id));
		memcpy(id->id, b + pos + 12, 20);
		id->size = (misc & MISC_BUILD_ID_SIZE) && b[pos + 32] <= 20 ? b[pos + 32] : 20;
		id->kernel = (misc & MISC_CPUMODE) == MISC_KERNEL ||
			     (misc & MISC_CPUMODE) == MISC_GUEST_KERNEL;
		id->name = strdup((const char *)b + pos + 36);
		if (!id->name)
			return kma_err_nomem(err);
		pd->nr_build_ids++;
		pos += len;
	}
	return 0;
}

/* EVENT_DESC: u32 events, u32 attr size; each: attr, u32 nr ids, name, u64 ids. */
static int feat_event_desc(struct kma_pd *pd, const unsigned char *b, uint64_t size)
{
	uint64_t pos = 8, n, sz, i, nr, j;
	uint32_t *idx;
	char *name;

	if (size < 8)
		return -1;
	n = get32(b);
	sz = get32(b + 4);
	if (sz < ATTR_MIN || n > MAX_ATTRS)
		return -1;
	for (i = 0; i < n; i++) {
		if (sz > size - pos || size - pos - sz < 4)
			return -1;
		pos += sz;
		nr = get32(b + pos);
		pos += 4;
		name = feat_string(b, size, &pos);
		if (!name || nr > (size - pos) / 8) {
			free(name);
			return -1;
		}
		idx = NULL;
		for (j = 0; j < nr && !idx; j++)
			idx = kma_map_find(&pd->id_map, get64(b + pos + j * 8));
		pos += nr * 8;
		if (idx && !pd->attrs[*idx].name)
			pd->attrs[*idx].name = name;
		else if (!idx && pd->nr_attrs == 1 && !pd->attrs[0].name)
			pd->attrs[0].name = name;
		else
			free(name);
	}
	return 0;
}

static int feature(struct kma_pd *pd, int bit, uint64_t off, uint64_t size, struct kma_err *err)
{
	static const char * const names[] = {
		[KMA_PF_BUILD_ID] = "build id", [KMA_PF_OSRELEASE] = "os release",
		[KMA_PF_NRCPUS] = "CPU count", [KMA_PF_CMDLINE] = "command line",
		[KMA_PF_EVENT_DESC] = "event description", [KMA_PF_COMPRESSED] = "compression",
	};
	unsigned char *b;
	uint64_t pos = 0;
	int ret = 0;

	if (bit == KMA_PF_TRACING_DATA) {	/* read by kma_pd_formats() */
		pd->trace_off = off;
		pd->trace_size = size;
		return 0;
	}
	if (bit >= (int)(sizeof(names) / sizeof(names[0])) || !names[bit])
		return 0;
	b = feat_data(pd, off, size, names[bit], err);
	if (!b)
		return -1;
	switch (bit) {
	case KMA_PF_BUILD_ID:
		ret = feat_build_ids(pd, b, size, err);
		break;
	case KMA_PF_OSRELEASE:
		pd->osrelease = feat_string(b, size, &pos);
		ret = pd->osrelease ? 0 : -1;
		break;
	case KMA_PF_NRCPUS:
		ret = size < 8 ? -1 : 0;
		if (!ret) {
			pd->nr_cpus = (int)get32(b);
			pd->nr_online = (int)get32(b + 4);
		}
		break;
	case KMA_PF_CMDLINE: {
		uint32_t n = size >= 4 ? get32(b) : 0, i;
		size_t len = 0;

		for (pos = 4, i = 0; i < n && !ret; i++) {
			char *s = feat_string(b, size, &pos), *c;

			c = s ? realloc(pd->cmdline, len + strlen(s) + 2) : NULL;
			if (c) {
				pd->cmdline = c;
				len += sprintf(c + len, "%s%s", len ? " " : "", s);
			}
			ret = c ? 0 : -1;
			free(s);
		}
		break;
	}
	case KMA_PF_EVENT_DESC:
		ret = feat_event_desc(pd, b, size);
		break;
	case KMA_PF_COMPRESSED:	/* version, type, level, ratio, mmap_len */
		ret = size < 20 ? -1 : 0;
		if (!ret) {
			pd->comp_type = get32(b + 4);
			pd->comp_mmap_len = get32(b + 16);
		}
		break;
	}
	free(b);
	if (ret && err->kind == KMA_ERR_NONE)
		kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: its %s section",
			    names[bit]);
	return ret;
}

static int read_features(struct kma_pd *pd, struct kma_err *err)
{
	unsigned char s[16];
	uint64_t off, size, at = pd->feat_off;
	int bit;

	for (bit = 0; bit < KMA_PF_BITS; bit++) {
		if (!kma_pd_has(pd, bit))
			continue;
		if (pd_pread(pd, at, s, sizeof(s)))
			return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data: the "
					   "feature sections' table ends beyond the file");
		if (section(pd, s, &off, &size))
			return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data: feature "
					   "%d's section (%" PRIu64 " bytes at %" PRIu64 ") ends "
					   "beyond the file (%" PRIu64 " bytes)", bit, get64(s + 8),
					   get64(s), pd->size);
		at += 16;
		kma_err_clear(err);
		if (feature(pd, bit, off, size, err))
			return -1;
	}
	return 0;
}

/* A pipe-mode HEADER_ATTR record at @off: a perf_event_attr (its own size), the ids. */
static int pipe_attr(struct kma_pd *pd, uint64_t off, uint16_t size, struct kma_err *err)
{
	unsigned char b[ATTR_MIN];
	struct kma_pd_attr *n;
	uint32_t asize;

	if (size < 8 + ATTR_MIN || pd_pread(pd, off + 8, b, sizeof(b)))
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: the event attribute "
				   "record at %" PRIu64 " is too short", off);
	asize = get32(b + 4);
	if (asize < ATTR_MIN || asize > size - 8u || (size - 8u - asize) % 8 ||
	    pd->nr_attrs >= MAX_ATTRS)
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: the event attribute "
				   "record at %" PRIu64 " does not hold an attribute of %" PRIu32
				   " bytes and its ids", off, asize);
	n = realloc(pd->attrs, (pd->nr_attrs + 1) * sizeof(*n));
	if (!n)
		return kma_err_nomem(err);
	pd->attrs = n;
	memset(&n[pd->nr_attrs], 0, sizeof(*n));
	attr_fields(&n[pd->nr_attrs], b);
	pd->nr_attrs++;
	return read_ids(pd, pd->nr_attrs - 1, off + 8 + asize, size - 8u - asize, err);
}

/*
 * A pipe-mode file (perf record -o -): after its 16-byte header, the records
 * perf's session.c reads as "user events" before the samples: HEADER_ATTR
 * (the attributes and ids), HEADER_FEATURE (u64 feature bit, then what the
 * feature section holds) and HEADER_TRACING_DATA, whose u32 size counts the
 * event formats that follow the record (8-byte aligned). The data are every
 * record from the header on; the record reader skips what it does not use.
 */
static int read_pipe(struct kma_pd *pd, struct kma_err *err)
{
	unsigned char h[16];
	uint64_t off = KMA_PD_PIPE_SIZE, skip, bit;
	uint32_t type;
	uint16_t size;

	pd->pipe = 1;
	pd->data_off = off;
	pd->data_size = pd->size - off;
	/* a damaged record ends the walk: the record reader names it */
	while (pd->size - off >= 16 && !pd_pread(pd, off, h, 16)) {
		type = get32(h);
		memcpy(&size, h + 6, 2);
		if (size < 8 || size > pd->size - off || type == KMA_PR_SAMPLE)
			break;
		skip = 0;
		if (type == KMA_PR_HEADER_ATTR && pipe_attr(pd, off, size, err))
			return -1;
		if (type == KMA_PR_TRACING_DATA) {
			skip = get32(h + 8);
			if (size < 12 || skip > pd->size - off - size)
				return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data: the "
						   "tracing data after the record at %" PRIu64
						   " runs past the end of the file", off);
			pd->trace_off = off + size;
			pd->trace_size = skip;
		}
		if (type == KMA_PR_FEATURE && size >= 16) {
			bit = get64(h + 8);
			if (bit < KMA_PF_BITS && bit != KMA_PF_TRACING_DATA) {
				pd->features[bit / 8] |= 1u << (bit % 8);
				kma_err_clear(err);
				if (feature(pd, (int)bit, off + 16, size - 16u, err))
					return -1;
			}
		}
		off += size + skip;
	}
	if (!pd->nr_attrs)
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: a pipe-mode file "
				   "without event attributes before its first sample");
	return attrs_agree(pd, err);
}

static int read_header(struct kma_pd *pd, struct kma_err *err)
{
	unsigned char h[KMA_PD_HEADER_SIZE];
	uint64_t off, size, hsize;

	if (pd->size < 16 || pd_pread(pd, 0, h, 16))
		return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data header");
	if (!memcmp(h, "2ELIFREP", 8))
		return kma_err_set(err, KMA_ERR_OTHER, "a perf.data of the other byte order, "
				   "which kma does not read");
	if (!memcmp(h, "PERFFILE", 8))
		return kma_err_set(err, KMA_ERR_OTHER, "a perf.data of the first format "
				   "(PERFFILE, perf before 2.6.37), which kma does not read");
	switch (kma_pd_magic(h, 16)) {
	case 0:
		return kma_err_set(err, KMA_ERR_OTHER, "not a perf.data file (bad magic)");
	case 2:
		return read_pipe(pd, err);
	}
	hsize = get64(h + 8);
	if (hsize != KMA_PD_HEADER_SIZE)
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data header (its size "
				   "says %" PRIu64 ", not %d)", hsize, KMA_PD_HEADER_SIZE);
	if (pd_pread(pd, 0, h, sizeof(h)))
		return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data header");
	if (section(pd, h + 40, &pd->data_off, &pd->data_size))
		return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data: its data "
				   "(%" PRIu64 " bytes at %" PRIu64 ") ends beyond the file "
				   "(%" PRIu64 " bytes)", get64(h + 48), get64(h + 40), pd->size);
	if (!pd->data_size)
		return kma_err_set(err, KMA_ERR_OTHER, "its data size is 0: perf record did not "
				   "finish writing it (killed?)");
	if (section(pd, h + 24, &off, &size))
		return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated perf.data: its event "
				   "attributes end beyond the file");
	memcpy(pd->features, h + 72, sizeof(pd->features));
	pd->feat_off = pd->data_off + pd->data_size;
	return read_attrs(pd, get64(h + 16), off, size, err);
}

int kma_pd_open(struct kma_pd *pd, const char *path, struct kma_err *err)
{
	struct stat st;

	memset(pd, 0, sizeof(*pd));
	pd->id_pos = pd->id_pos_end = -1;
	pd->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (pd->fd < 0 || fstat(pd->fd, &st))
		return kma_err_set(err, KMA_ERR_OTHER, "cannot open it: %s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return kma_err_set(err, KMA_ERR_OTHER, "not a regular file");
	pd->size = (uint64_t)st.st_size;
	if (kma_map_init(&pd->id_map, 64))
		return kma_err_nomem(err);
	if (read_header(pd, err) || (!pd->pipe && read_features(pd, err)))
		return -1;
	if (!pd->trace_size)
		return kma_err_set(err, KMA_ERR_OTHER, "no tracing data section (the event "
				   "formats): not a recording of tracepoints such as perf kmem "
				   "record or perf record -e 'kmem:*'");
	if (pd->nr_cpus <= 0 || pd->nr_cpus > 8192)
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: %s CPU count",
				   pd->nr_cpus ? "bad" : "no");
	return 0;
}

void kma_pd_close(struct kma_pd *pd)
{
	size_t i;

	if (pd->fd >= 0)
		close(pd->fd);
	pd->fd = -1;
	for (i = 0; pd->attrs && i < pd->nr_attrs; i++)
		free((char *)pd->attrs[i].name);
	free(pd->attrs);
	for (i = 0; i < pd->nr_build_ids; i++)
		free((char *)pd->build_ids[i].name);
	free(pd->build_ids);
	free(pd->osrelease);
	free(pd->cmdline);
	kma_map_release(&pd->id_map);
	memset(pd, 0, sizeof(*pd));
	pd->fd = -1;
}
