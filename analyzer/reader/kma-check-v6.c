// SPDX-License-Identifier: GPL-2.0
/*
 * kma-check-v6.c - walk the structure of a v6 trace.dat before libtracecmd
 * sees it. libtracecmd 1.3 crashes in its error path on some files cut short
 * or corrupt (tracecmd_close() on a half-built handle when a CPU's first page
 * cannot be loaded), and reads past its buffers on some malformed options or
 * ring-buffer pages, so such a file is caught here and reported instead.
 * Sizes, offsets, the options libtracecmd trusts and the commit word of every
 * ring-buffer page are checked; the rest is left to libtracecmd.
 * The file is read through the walker of kma-tracedat.c. See trace-cmd.dat.v6(5).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kma-tracedat.h"
#include "kma-layout.h"

#define MAX_CPUS		8192	/* kma-source-file.c refuses more */
#define MAX_BUFFERS		256	/* instance buffers checked */
#define MAX_OPTION_SIZE		(4u << 20)
#define MAX_CLOCK_TEXT		(1u << 20)	/* the kernel's is a line of clock names */
/* ring-buffer page commit word (kernel RB_MISSED_*, libtraceevent COMMIT_MASK) */
#define COMMIT_MASK		((1u << 27) - 1)
#define MISSED_EVENTS		(1ull << 31)
#define MISSED_STORED		(1ull << 30)

static int check_option(struct kma_td *c, uint64_t id, uint64_t len, uint64_t *cpus)
{
	unsigned char *buf;
	int ret;

	switch (id) {
	case KMA_TD_OPT_DATE:
	case KMA_TD_OPT_CPUSTAT:
	case KMA_TD_OPT_BUFFER:
	case KMA_TD_OPT_TRACECLOCK:
	case KMA_TD_OPT_UNAME:
	case KMA_TD_OPT_OFFSET:
	case KMA_TD_OPT_CPUCOUNT:
	case KMA_TD_OPT_VERSION:
	case KMA_TD_OPT_PROCMAPS:
	case KMA_TD_OPT_GUEST:
		break;
	case KMA_TD_OPT_HOOK:		/* kma_td_option_data() */
		return -1;
	default:
		return kma_td_skip(c, len);
	}
	if (len > MAX_OPTION_SIZE || !(buf = malloc(len ? len : 1)))
		return -1;
	ret = kma_td_read(c, buf, len) ? -1 : kma_td_option_data(c, (unsigned int)id, buf, len, cpus);
	free(buf);
	return ret;
}

/* Whether a page's commit word @commit fits its data (and missed-events count). */
static int bad_commit(uint64_t commit, uint64_t room, int long_size)
{
	uint64_t size = (uint32_t)commit & COMMIT_MASK;

	return size > room || ((commit & MISSED_EVENTS) && (commit & MISSED_STORED) &&
			       size + long_size > room);
}

/*
 * The pages' commit words read through a mapping of the file: a read of 8
 * bytes per page was one system call per 4 KB of event data (73,000 of
 * them on a 300 MB trace), and reading the pages whole copies them all;
 * mapped, the kernel maps the cached pages in batches on a few thousand
 * faults. A window of MAP_WINDOW bytes at a time, unmapped before the
 * next: the pages a mapping touches count in the process's resident size.
 * 1 when the file cannot be mapped (the caller reads page by page).
 */
#define MAP_WINDOW	(2u << 20)

static int check_pages_mapped(struct kma_td *c, uint64_t off, uint64_t end,
			      uint64_t page_size, int long_size)
{
	uint64_t room = page_size - 8 - long_size, sys = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t win = (MAP_WINDOW / page_size ? MAP_WINDOW / page_size : 1) * page_size;
	uint64_t base, stop, map_end;
	const char *m;
	size_t len;
	int ret = 0;

	while (off < end && !ret) {
		base = off / sys * sys;
		stop = end - off > win ? off + win : end;
		map_end = stop < c->size ? stop : c->size;
		if (map_end <= off)
			return -1;	/* the page's words lie past the file's end */
		len = (size_t)(map_end - base);
		m = mmap(NULL, len, PROT_READ, MAP_SHARED, c->fd, (off_t)base);
		if (m == MAP_FAILED)
			return 1;
		for (; off < stop && !ret; off += page_size) {
			/* where a read would run past the file's end: as kma_td_num() fails */
			if (off + 8 + long_size > c->size)
				ret = -1;
			else if (bad_commit(kma_td_get(c, m + (off + 8 - base), long_size),
					    room, long_size))
				ret = -1;
		}
		munmap((void *)m, len);
	}
	return ret;
}

/*
 * The pages of one CPU: each one's commit word must fit its data (and the
 * missed-events count stored after it) in the page, or libtraceevent's
 * kbuffer reads past the page (and libtracecmd crashes on a bad first page).
 * With @defer only the first page, the one libtracecmd loads when it opens
 * the file: the page reader checks the others as it cuts them (as for v7).
 */
static int check_pages(struct kma_td *c, uint64_t off, uint64_t len, uint64_t page_size,
		       int long_size, int defer)
{
	uint64_t end = off + (defer && len > page_size ? page_size : len), commit;
	uint64_t room = page_size - 8 - long_size;
	int ret;

	if (off % page_size || len % page_size)
		return -1;
	ret = check_pages_mapped(c, off, end, page_size, long_size);
	if (ret <= 0)
		return ret;
	for (; off < end; off += page_size) {
		c->off = off + 8;
		if (kma_td_num(c, long_size, &commit) || bad_commit(commit, room, long_size))
			return -1;
	}
	return 0;
}

static int sized_blocks(struct kma_td *c, int count_bytes, int size_bytes)
{
	uint64_t n, len, i;

	if (kma_td_num(c, count_bytes, &n))
		return -1;
	for (i = 0; i < n; i++)
		if (kma_td_num(c, size_bytes, &len) || kma_td_skip(c, len))
			return -1;
	return 0;
}

/*
 * The trace_clock text after a buffer's CPU table, which libtracecmd 1.3
 * reads and parses when the TRACECLOCK option is there (init_data_v6):
 * none, or one cut short, and it takes the local clock instead.
 */
static int check_clock(struct kma_td *c, struct kma_err *err)
{
	uint64_t n, at = c->off;
	char *text;
	int bad;

	if (kma_td_num(c, 8, &n) || n > c->size - c->off) {
		c->off = at;
		return 0;
	}
	if (n > MAX_CLOCK_TEXT)
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt trace.dat: the trace_clock "
				   "text at %" PRIu64 " claims %" PRIu64 " bytes", at, n);
	text = kma_td_slurp(c, c->off, n);
	c->off = at;
	if (!text)
		return kma_err_set(err, KMA_ERR_NOMEM, "out of memory");
	bad = kma_td_clock_ok(text, (size_t)n);
	free(text);
	return bad ? kma_err_set(err, KMA_ERR_CORRUPT, "corrupt trace.dat: the trace_clock text at "
				 "%" PRIu64 " names no clock within its brackets", at) : 0;
}

/* The CPU data of one buffer: u64 offset and u64 size per CPU, each CPU's pages checked. */
static int check_cpu_data(struct kma_td *c, uint64_t cpus, uint64_t page_size, int long_size,
			  struct kma_err *err, struct kma_td_layout *lay, const char *name, int defer)
{
	struct kma_td_buf *b = lay ? kma_layout_add_buf(lay, name, (uint32_t)page_size, 0) : NULL;
	uint64_t i, off, len, next, prev = 0, prev_off = 0, prev_len = 0;

	if (lay && !b)
		return kma_err_set(err, KMA_ERR_NOMEM, "out of memory");

	for (i = 0; i < cpus; i++) {
		if (kma_td_num(c, 8, &off) || kma_td_num(c, 8, &len))
			return -1;
		if (off > c->size || len > c->size - off)
			return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated trace.dat: CPU %" PRIu64
					   "'s event data ends at %" PRIu64 ", the file at %" PRIu64,
					   i, off > UINT64_MAX - len ? UINT64_MAX : off + len, c->size);
		/* trace-cmd writes the CPUs one after another: an overlap is a wrong size */
		if (len && prev_len && off < prev_off + prev_len && prev_off < off + len)
			return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt trace.dat: CPU %" PRIu64
					   "'s event data at %" PRIu64 " claims %" PRIu64 " bytes, "
					   "running over CPU %" PRIu64 "'s at %" PRIu64, prev,
					   prev_off, prev_len, i, off);
		if (len) {
			prev = i;
			prev_off = off;
			prev_len = len;
		}
		next = c->off;
		if (len && check_pages(c, off, len, page_size, long_size, defer))
			return kma_err_set(err, KMA_ERR_CORRUPT,
					   "corrupt trace.dat: bad ring-buffer page");
		c->off = next;
		if (b && kma_layout_add_cpu(lay, b, (uint32_t)i, off, len))
			return kma_err_set(err, KMA_ERR_NOMEM, "out of memory");
	}
	return check_clock(c, err);
}

/*
 * An instance buffer (trace-cmd record -B) at the offset its BUFFER option
 * gives: options of its own, then "flyrecord" and its CPU data, as at the
 * top level. libtracecmd reads it with the same trust.
 */
static int check_instance(struct kma_td *c, uint64_t off, uint64_t cpus, uint64_t page_size,
			  int long_size, struct kma_err *err, struct kma_td_layout *lay,
			  const char *name)
{
	uint64_t id, len;
	char str[16];

	c->off = off;
	if (kma_td_str(c, str, sizeof(str)))
		return -1;
	if (!strcmp(str, "options  ")) {
		for (;;) {
			if (kma_td_num(c, 2, &id))
				return -1;
			if (!id)
				break;
			if (kma_td_num(c, 4, &len) || check_option(c, id, len, &cpus))
				return -1;
			if (lay && kma_layout_ts_option((unsigned int)id))
				lay->ts_options = 1;
		}
		if (kma_td_str(c, str, sizeof(str)))
			return -1;
	}
	if (strcmp(str, "flyrecord") || cpus > MAX_CPUS)
		return -1;
	return check_cpu_data(c, cpus, page_size, long_size, err, lay, name, 0);
}

/* The top-level options; the instance buffers' offsets into @bufs. */
static int top_options(struct kma_td *c, uint64_t *bufs, char (*names)[KMA_LAYOUT_NAME],
		       int *nbuf, uint64_t *cpus, struct kma_td_layout *lay)
{
	unsigned char b[8];
	uint64_t id, len;

	for (;;) {
		if (kma_td_num(c, 2, &id))
			return -1;
		if (!id)
			return 0;
		/* the last CPUCOUNT option sets how many CPUs flyrecord has */
		if (kma_td_num(c, 4, &len))
			return -1;
		if (lay && kma_layout_ts_option((unsigned int)id))
			lay->ts_options = 1;
		if (id == KMA_TD_OPT_BUFFER && len >= 8 && *nbuf < MAX_BUFFERS) {
			uint64_t n = len - 8 < KMA_LAYOUT_NAME - 1 ? len - 8 : KMA_LAYOUT_NAME - 1;

			memset(names[*nbuf], 0, KMA_LAYOUT_NAME);
			if (kma_td_pread(c, c->off, b, 8) ||
			    (n && kma_td_pread(c, c->off + 8, names[*nbuf], n)))
				return -1;
			bufs[(*nbuf)++] = kma_td_get(c, b, 8);
		}
		if (check_option(c, id, len, cpus))
			return -1;
	}
}

static int check_v6(int fd, uint64_t file_size, struct kma_err *err, struct kma_td_layout *lay,
		    char (*names)[KMA_LAYOUT_NAME])
{
	struct kma_td_head h;
	struct kma_td c;
	char str[64], text[128];
	uint64_t n, len, i, cpus, page_size, bufs[MAX_BUFFERS];
	int long_size, nbuf = 0, defer;

	kma_td_init(&c, fd, file_size);
	kma_err_set(err, KMA_ERR_CORRUPT, "truncated or corrupt trace.dat (v6 headers)");
	if (kma_td_head(&c, &h) != KMA_TD_HEAD_OK || h.version != 6 ||
	    !kma_valid_page_size(h.page_size))
		return -1;
	page_size = h.page_size;
	long_size = h.long_size == 8 ? 8 : 4;
	/*
	 * header_page: libtracecmd refuses pages whose timestamp is not 8 bytes,
	 * and the size of commit is the long size the pages are read with.
	 * Empty on old kernels: then the file header's long size is used.
	 */
	if (kma_td_str(&c, str, sizeof(str)) || strcmp(str, "header_page") || kma_td_num(&c, 8, &len))
		return -1;
	if (len) {
		uint64_t n = len < sizeof(text) ? len : sizeof(text);
		int ls;

		if (kma_td_read(&c, text, n) || (ls = kma_header_page_long_size(text, n)) <= 0 ||
		    kma_td_skip(&c, len - n))
			return -1;
		long_size = ls;
	}
	/* header_event: a name, an 8-byte size, the text */
	if (kma_td_str(&c, str, sizeof(str)) || kma_td_num(&c, 8, &len) || kma_td_skip(&c, len))
		return -1;
	if (sized_blocks(&c, 4, 8))		/* ftrace event formats */
		return -1;
	if (kma_td_num(&c, 4, &n))			/* event systems */
		return -1;
	for (i = 0; i < n; i++)
		if (kma_td_str(&c, str, sizeof(str)) || sized_blocks(&c, 4, 8))
			return -1;
	if (kma_td_num(&c, 4, &len) || kma_td_skip(&c, len) ||	/* kallsyms */
	    kma_td_num(&c, 4, &len) || kma_td_skip(&c, len) ||	/* printk formats */
	    kma_td_num(&c, 8, &len) || kma_td_skip(&c, len) ||	/* saved cmdlines */
	    kma_td_num(&c, 4, &cpus))
		return -1;
	if (kma_td_str(&c, str, sizeof(str)))
		return -1;
	if (!strcmp(str, "options  ") &&
	    (top_options(&c, bufs, names, &nbuf, &cpus, lay) || kma_td_str(&c, str, sizeof(str))))
		return -1;
	/*
	 * A latency-tracer file holds text, not ring-buffer pages: libtracecmd
	 * 1.3 crashes iterating its events, and there are no kmem events in it.
	 */
	if (!strcmp(str, "latency  "))
		return kma_err_set(err, KMA_ERR_OTHER,
				   "a latency-tracer trace.dat, with no event records to analyze");
	if (strcmp(str, "flyrecord") || cpus > MAX_CPUS)
		return -1;
	/*
	 * Reading every page's commit word first was a seventh of a --no-db
	 * run's CPU time (a fault per 64 KB of the file): when the page reader
	 * alone will read the pages (one buffer, no timestamp options), it
	 * checks them itself; libtracecmd then loads only the first pages.
	 */
	defer = lay && lay->defer_pages && !nbuf && !lay->ts_options;
	if (check_cpu_data(&c, cpus, page_size, long_size, err, lay, "", defer))
		return -1;
	if (lay)
		lay->pages_checked = !defer;
	for (i = 0; i < (uint64_t)nbuf; i++) {
		kma_err_set(err, KMA_ERR_CORRUPT,
			    "truncated or corrupt trace.dat (an instance buffer's headers)");
		if (check_instance(&c, bufs[i], cpus, page_size, long_size, err, lay, names[i]))
			return -1;
	}
	kma_err_clear(err);
	return 0;
}

int kma_td_check_v6(int fd, uint64_t file_size, struct kma_err *err, struct kma_td_layout *lay)
{
	/* the instance names, for the layout */
	char (*names)[KMA_LAYOUT_NAME] = calloc(MAX_BUFFERS, KMA_LAYOUT_NAME);
	int ret;

	if (!names)
		return kma_err_set(err, KMA_ERR_NOMEM, "out of memory");
	ret = check_v6(fd, file_size, err, lay, names);
	free(names);
	return ret;
}
