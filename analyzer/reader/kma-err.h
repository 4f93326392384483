/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-err.h - why a reader call failed: a kind the caller acts on and the
 * one-line message it prints, in storage the caller owns (no static
 * message buffers, no guessing the kind from the words of the message).
 */
#ifndef KMA_ERR_H
#define KMA_ERR_H

#include <stdarg.h>
#include <stdio.h>

enum kma_err_kind {
	KMA_ERR_NONE = 0,
	KMA_ERR_NOMEM,		/* "out of memory" */
	KMA_ERR_BROKEN,		/* a structure does not fit the file: msg names it, the
				 * caller words it ("truncated or corrupt trace.dat (...)") */
	KMA_ERR_TRUNCATED,	/* msg is the whole line: the file is cut short */
	KMA_ERR_CORRUPT,	/* msg is the whole line: the file is corrupt */
	KMA_ERR_OTHER,		/* anything else: unsupported, missing, cannot open */
};

struct kma_err {
	enum kma_err_kind	kind;
	char			msg[768];	/* the longest: a list of buffer names */
};

/* Sets @e (which may be NULL); returns -1 for "return kma_err_set(...)". */
static inline int __attribute__((format(printf, 3, 4)))
kma_err_set(struct kma_err *e, enum kma_err_kind kind, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	e->kind = kind;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static inline void kma_err_clear(struct kma_err *e)
{
	e->kind = KMA_ERR_NONE;
	e->msg[0] = '\0';
}

#endif /* KMA_ERR_H */
