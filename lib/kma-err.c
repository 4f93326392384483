// SPDX-License-Identifier: GPL-2.0
/*
 * kma-err.c - setting a struct kma_err (kma-err.h). Formatting only: the
 * message is printed by the command layer, never here.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kma-err.h"

static void vset(struct kma_err *e, enum kma_err_kind kind, const char *fmt, va_list ap)
{
	e->kind = kind;
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
}

int kma_err_set(struct kma_err *e, enum kma_err_kind kind, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vset(e, kind, fmt, ap);
	va_end(ap);
	return -1;
}

int kma_err_nomem(struct kma_err *e)
{
	return kma_err_set(e, KMA_ERR_NOMEM, "out of memory");
}

int kma_err_errno(struct kma_err *e, int errnum, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vset(e, errnum == ENOMEM ? KMA_ERR_NOMEM : KMA_ERR_OTHER, fmt, ap);
	va_end(ap);
	n = strlen(e->msg);
	snprintf(e->msg + n, sizeof(e->msg) - n, ": %s", strerror(errnum));
	return -1;
}

void kma_err_clear(struct kma_err *e)
{
	if (!e)
		return;
	e->kind = KMA_ERR_NONE;
	e->msg[0] = '\0';
}

int kma_err_copy(struct kma_err *dst, const struct kma_err *src)
{
	if (dst && dst != src)
		*dst = *src;
	return -1;
}
