/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-err.h - why a call failed, the one shape every layer returns it in: a
 * kind the caller acts on and the one-line message the command layer prints,
 * in storage the caller owns (no static message buffers, no message kept on
 * a handle the caller must know to ask, no guessing the kind from the words
 * of the message). A function that fails takes a struct kma_err * (which may
 * be NULL when the caller does not want the reason), sets it and returns -1
 * or NULL; library layers never print it.
 */
#ifndef KMA_ERR_H
#define KMA_ERR_H

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

/*
 * Sets @e (which may be NULL) to @kind and the printf-like message, cut to
 * fit; returns -1, for "return kma_err_set(...)".
 */
int kma_err_set(struct kma_err *e, enum kma_err_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* KMA_ERR_NOMEM with the message "out of memory"; returns -1. */
int kma_err_nomem(struct kma_err *e);

/*
 * KMA_ERR_OTHER with the message "...: strerror(@errnum)"; ENOMEM gives
 * KMA_ERR_NOMEM (the message still names what failed). Returns -1.
 */
int kma_err_errno(struct kma_err *e, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* No error: KMA_ERR_NONE and an empty message. @e may be NULL. */
void kma_err_clear(struct kma_err *e);

/* Copies @src into @dst (which may be NULL); returns -1. */
int kma_err_copy(struct kma_err *dst, const struct kma_err *src);

#endif /* KMA_ERR_H */
