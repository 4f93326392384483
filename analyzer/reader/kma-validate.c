// SPDX-License-Identifier: GPL-2.0
/*
 * kma-validate.c - walk the structure of a v6 trace.dat before libtracecmd
 * sees it. libtracecmd 1.3 crashes in its error path on some files cut short
 * or corrupt (tracecmd_close() on a half-built handle when a CPU's first page
 * cannot be loaded), and reads past its buffers on some malformed options or
 * ring-buffer pages, so such a file is caught here and reported instead.
 * Sizes, offsets, the options libtracecmd trusts and the commit word of every
 * ring-buffer page are checked; the rest is left to libtracecmd.
 * See trace-cmd.dat.v6(5).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kma-validate.h"

/* trace-cmd option ids (trace-cmd.h TRACECMD_OPTION_*) that need checking */
enum {
	OPT_DATE = 1, OPT_CPUSTAT, OPT_BUFFER, OPT_TRACECLOCK, OPT_UNAME, OPT_HOOK,
	OPT_OFFSET, OPT_CPUCOUNT, OPT_VERSION, OPT_PROCMAPS, OPT_GUEST = 13,
};

#define MAX_CPUS		8192	/* kma-reader.c refuses more */
#define MAX_BUFFERS		256	/* instance buffers checked */
#define MAX_OPTION_SIZE		(4u << 20)
/* ring-buffer page commit word (kernel RB_MISSED_*, libtraceevent COMMIT_MASK) */
#define COMMIT_MASK		((1u << 27) - 1)
#define MISSED_EVENTS		(1ull << 31)
#define MISSED_STORED		(1ull << 30)

struct cursor {
	int		fd;
	uint64_t	off;
	uint64_t	size;	/* file size */
	int		big_endian;
};

static int get(struct cursor *c, void *buf, size_t len)
{
	if (c->off + len > c->size || pread(c->fd, buf, len, (off_t)c->off) != (ssize_t)len)
		return -1;
	c->off += len;
	return 0;
}

static uint64_t decode(const struct cursor *c, const unsigned char *b, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)b[c->big_endian ? bytes - 1 - i : i] << (8 * i);
	return v;
}

static int get_num(struct cursor *c, int bytes, uint64_t *v)
{
	unsigned char b[8];

	if (get(c, b, bytes))
		return -1;
	*v = decode(c, b, bytes);
	return 0;
}

static int skip(struct cursor *c, uint64_t len)
{
	if (len > c->size || c->off + len > c->size)
		return -1;
	c->off += len;
	return 0;
}

/* A NUL-terminated string of at most max bytes. */
static int get_str(struct cursor *c, char *buf, size_t max)
{
	size_t i;

	for (i = 0; i < max; i++) {
		if (get(c, &buf[i], 1))
			return -1;
		if (!buf[i])
			return 0;
	}
	return -1;
}

/*
 * libtracecmd 1.3 uses these options' data as C strings, trusts sizes and
 * indexes inside them without checks; see handle_options() there.
 */
static int check_option(struct cursor *c, uint64_t id, uint64_t len, uint64_t *cpus)
{
	static unsigned char buf[MAX_OPTION_SIZE];
	uint64_t n, i, cpu, off;

	switch (id) {
	case OPT_DATE:
	case OPT_CPUSTAT:
	case OPT_BUFFER:
	case OPT_TRACECLOCK:
	case OPT_UNAME:
	case OPT_OFFSET:
	case OPT_CPUCOUNT:
	case OPT_VERSION:
	case OPT_PROCMAPS:
	case OPT_GUEST:
		break;
	case OPT_HOOK:		/* libtracecmd dereferences a failed parse */
		return -1;
	default:
		return skip(c, len);
	}
	if (len > sizeof(buf) || get(c, buf, len))
		return -1;
	switch (id) {
	case OPT_CPUSTAT:	/* buf[size - 1] = '\n' */
		return len ? 0 : -1;
	case OPT_CPUCOUNT:	/* read as 4 bytes whatever the size */
		if (len < 4)
			return -1;
		*cpus = decode(c, buf, 4);
		return 0;
	case OPT_BUFFER:	/* offset, then the instance name */
		return len <= 8 || memchr(buf + 8, '\0', len - 8) ? 0 : -1;
	case OPT_GUEST:		/* name, trace id, nr vcpus, {vcpu, pid}... */
		if (!memchr(buf, '\0', len))
			return -1;
		off = strlen((char *)buf) + 1 + 8;
		if (off + 4 > len)
			return 0;
		n = decode(c, buf + off, 4);
		/* the vcpu is an int index into an array of n */
		for (i = 0, off += 4; i < n && off + 8 <= len; i++, off += 8) {
			cpu = decode(c, buf + off, 4);
			if (cpu >= n || cpu > INT32_MAX)
				return -1;
		}
		return 0;
	default:		/* a C string */
		return memchr(buf, '\0', len) ? 0 : -1;
	}
}

/*
 * The pages of one CPU: each one's commit word must fit its data (and the
 * missed-events count stored after it) in the page, or libtraceevent's
 * kbuffer reads past the page (and libtracecmd crashes on a bad first page).
 */
static int check_pages(struct cursor *c, uint64_t off, uint64_t len, uint64_t page_size,
		       int long_size)
{
	uint64_t end = off + len, commit, size, room = page_size - 8 - long_size;

	if (off % page_size || len % page_size)
		return -1;
	for (; off < end; off += page_size) {
		c->off = off + 8;
		if (get_num(c, long_size, &commit))
			return -1;
		size = (uint32_t)commit & COMMIT_MASK;
		if (size > room)
			return -1;
		if ((commit & MISSED_EVENTS) && (commit & MISSED_STORED) &&
		    size + long_size > room)
			return -1;
	}
	return 0;
}

/* libtracecmd divides by the page size and masks offsets with page_size - 1. */
int kma_valid_page_size(uint64_t page_size)
{
	return page_size >= 4096 && page_size <= (1u << 24) && !(page_size & (page_size - 1));
}

static int sized_blocks(struct cursor *c, int count_bytes, int size_bytes)
{
	uint64_t n, len, i;

	if (get_num(c, count_bytes, &n))
		return -1;
	for (i = 0; i < n; i++)
		if (get_num(c, size_bytes, &len) || skip(c, len))
			return -1;
	return 0;
}

/* The CPU data of one buffer: u64 offset and u64 size per CPU, each CPU's pages checked. */
static int check_cpu_data(struct cursor *c, uint64_t cpus, uint64_t page_size, int long_size,
			  const char **why)
{
	uint64_t i, off, len, next;

	for (i = 0; i < cpus; i++) {
		if (get_num(c, 8, &off) || get_num(c, 8, &len))
			return -1;
		if (off > c->size || len > c->size - off) {
			static char msg[160];

			snprintf(msg, sizeof(msg), "truncated trace.dat: CPU %" PRIu64 "'s event data "
				 "ends at %" PRIu64 ", the file at %" PRIu64, i,
				 off > UINT64_MAX - len ? UINT64_MAX : off + len, c->size);
			*why = msg;
			return -1;
		}
		next = c->off;
		if (len && check_pages(c, off, len, page_size, long_size)) {
			*why = "corrupt trace.dat: bad ring-buffer page";
			return -1;
		}
		c->off = next;
	}
	return 0;
}

/*
 * An instance buffer (trace-cmd record -B) at the offset its BUFFER option
 * gives: options of its own, then "flyrecord" and its CPU data, as at the
 * top level. libtracecmd reads it with the same trust.
 */
static int check_instance(struct cursor *c, uint64_t off, uint64_t cpus, uint64_t page_size,
			  int long_size, const char **why)
{
	uint64_t id, len;
	char str[16];

	c->off = off;
	if (get_str(c, str, sizeof(str)))
		return -1;
	if (!strcmp(str, "options  ")) {
		for (;;) {
			if (get_num(c, 2, &id))
				return -1;
			if (!id)
				break;
			if (get_num(c, 4, &len) || check_option(c, id, len, &cpus))
				return -1;
		}
		if (get_str(c, str, sizeof(str)))
			return -1;
	}
	if (strcmp(str, "flyrecord") || cpus > MAX_CPUS)
		return -1;
	return check_cpu_data(c, cpus, page_size, long_size, why);
}

int kma_validate_v6(int fd, uint64_t file_size, const char **why)
{
	struct cursor c = { .fd = fd, .size = file_size };
	char str[64], text[128];
	uint64_t n, len, i, cpus, id, page_size, bufs[MAX_BUFFERS];
	unsigned char hdr[6];
	int long_size, nbuf = 0;

	*why = "truncated or corrupt trace.dat (v6 headers)";
	if (skip(&c, 10) || get_str(&c, str, sizeof(str)) || get(&c, hdr, 6))
		return -1;
	c.big_endian = hdr[0];
	long_size = hdr[1] == 8 ? 8 : 4;
	c.off -= 4;
	if (get_num(&c, 4, &page_size))
		return -1;
	if (!kma_valid_page_size(page_size))
		return -1;
	/*
	 * header_page: libtracecmd refuses pages whose timestamp is not 8 bytes,
	 * and the size of commit is the long size the pages are read with.
	 * Empty on old kernels: then the file header's long size is used.
	 */
	if (get_str(&c, str, sizeof(str)) || strcmp(str, "header_page") || get_num(&c, 8, &len))
		return -1;
	if (len) {
		uint64_t n = len < sizeof(text) ? len : sizeof(text);
		int ls;

		if (get(&c, text, n) || (ls = kma_header_page_long_size(text, n)) <= 0 ||
		    skip(&c, len - n))
			return -1;
		long_size = ls;
	}
	/* header_event: a name, an 8-byte size, the text */
	if (get_str(&c, str, sizeof(str)) || get_num(&c, 8, &len) || skip(&c, len))
		return -1;
	if (sized_blocks(&c, 4, 8))		/* ftrace event formats */
		return -1;
	if (get_num(&c, 4, &n))			/* event systems */
		return -1;
	for (i = 0; i < n; i++)
		if (get_str(&c, str, sizeof(str)) || sized_blocks(&c, 4, 8))
			return -1;
	if (get_num(&c, 4, &len) || skip(&c, len) ||	/* kallsyms */
	    get_num(&c, 4, &len) || skip(&c, len) ||	/* printk formats */
	    get_num(&c, 8, &len) || skip(&c, len) ||	/* saved cmdlines */
	    get_num(&c, 4, &cpus))
		return -1;
	if (get_str(&c, str, sizeof(str)))
		return -1;
	if (!strcmp(str, "options  ")) {
		for (;;) {
			if (get_num(&c, 2, &id))
				return -1;
			if (!id)
				break;
			/* the last CPUCOUNT option sets how many CPUs flyrecord has */
			if (get_num(&c, 4, &len))
				return -1;
			if (id == OPT_BUFFER && len >= 8 && nbuf < MAX_BUFFERS &&
			    get_num(&c, 8, &bufs[nbuf++]))
				return -1;
			if (id == OPT_BUFFER && len >= 8)
				c.off -= 8;
			if (check_option(&c, id, len, &cpus))
				return -1;
		}
		if (get_str(&c, str, sizeof(str)))
			return -1;
	}
	/*
	 * A latency-tracer file holds text, not ring-buffer pages: libtracecmd
	 * 1.3 crashes iterating its events, and there are no kmem events in it.
	 */
	if (!strcmp(str, "latency  ")) {
		*why = "a latency-tracer trace.dat, with no event records to analyze";
		return -1;
	}
	if (strcmp(str, "flyrecord") || cpus > MAX_CPUS)
		return -1;
	if (check_cpu_data(&c, cpus, page_size, long_size, why))
		return -1;
	for (i = 0; i < (uint64_t)nbuf; i++) {
		*why = "truncated or corrupt trace.dat (an instance buffer's headers)";
		if (check_instance(&c, bufs[i], cpus, page_size, long_size, why))
			return -1;
	}
	*why = NULL;
	return 0;
}
