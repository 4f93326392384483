// SPDX-License-Identifier: GPL-2.0
/*
 * mktrace-buf.c - mktrace's output bytes: growable buffers, numbers in the
 * traced machine's byte order, and die() for any error (a test tool: the
 * first error ends the run, naming the description's line).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mktrace.h"

const char *prog_file = "-";

void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mktrace: %s: ", prog_file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void buf_add(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			die("out of memory");
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	char tmp[8192];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(tmp))
		die("text too long");
	buf_add(b, tmp, n);
}

/* Numbers go out in the traced machine's byte order. */
void put_num(unsigned char *p, const struct target *t, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		p[t->big_endian ? bytes - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

void buf_num(struct buf *b, const struct target *t, uint64_t v, int bytes)
{
	unsigned char tmp[8];

	put_num(tmp, t, v, bytes);
	buf_add(b, tmp, bytes);
}
