// SPDX-License-Identifier: GPL-2.0
/*
 * kma-validate.c - walk the section sizes of a v6 trace.dat before libtracecmd
 * sees it. libtracecmd 1.3 crashes in its error path on some files cut short
 * (tracecmd_close() on a half-built handle), so a truncated or corrupt file
 * is caught here and reported instead. Only sizes and offsets are checked;
 * the contents are left to libtracecmd. See trace-cmd.dat.v6(5).
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "kma-validate.h"

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

static int get_num(struct cursor *c, int bytes, uint64_t *v)
{
	unsigned char b[8];
	int i;

	if (get(c, b, bytes))
		return -1;
	*v = 0;
	for (i = 0; i < bytes; i++)
		*v |= (uint64_t)b[c->big_endian ? bytes - 1 - i : i] << (8 * i);
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

int kma_validate_v6(int fd, uint64_t file_size, const char **why)
{
	struct cursor c = { .fd = fd, .size = file_size };
	char str[64];
	uint64_t n, len, i, cpus, id, off;
	unsigned char hdr[6];

	*why = "truncated or corrupt trace.dat (v6 headers)";
	if (skip(&c, 10) || get_str(&c, str, sizeof(str)) || get(&c, hdr, 6))
		return -1;
	c.big_endian = hdr[0];
	/* header_page and header_event: a name, an 8-byte size, the text */
	for (i = 0; i < 2; i++)
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
			if (get_num(&c, 4, &len) || skip(&c, len))
				return -1;
		}
		if (get_str(&c, str, sizeof(str)))
			return -1;
	}
	if (!strcmp(str, "latency  "))
		return 0;
	if (strcmp(str, "flyrecord"))
		return -1;
	for (i = 0; i < cpus; i++) {
		if (get_num(&c, 8, &off) || get_num(&c, 8, &len))
			return -1;
		if (off > file_size || len > file_size - off) {
			*why = "truncated trace.dat: event data of a CPU runs past the end of the file";
			return -1;
		}
	}
	*why = NULL;
	return 0;
}
