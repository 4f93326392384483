// SPDX-License-Identifier: GPL-2.0
/*
 * kma-grow.c - growing arrays (see kma-grow.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-huge.h"

/* *arrp to n slots of elem bytes, the new ones zeroed if asked: 0, or -1 as it was. */
static int resize(void *arrp, size_t *cap, size_t n, size_t elem, int zero)
{
	unsigned char *mem;
	void *old;

	if (!n || !elem || n > SIZE_MAX / elem)
		return -1;
	/* through memcpy: *arrp is a "struct x *", not a "void *" */
	memcpy(&old, arrp, sizeof(old));
	mem = realloc(old, n * elem);
	if (!mem)
		return -1;
	kma_huge_advise(mem, n * elem);
	if (zero)
		memset(mem + *cap * elem, 0, (n - *cap) * elem);
	memcpy(arrp, &mem, sizeof(mem));
	*cap = n;
	return 0;
}

int kma_grow(void *arrp, size_t *cap, size_t nr, size_t elem, size_t first)
{
	size_t n = *cap ? *cap : first;

	if (nr < *cap)
		return 0;
	if (*cap) {
		if (n > SIZE_MAX / 2)
			return -1;
		n *= 2;
	}
	return resize(arrp, cap, n, elem, 0);
}

int kma_grow_zero(void *arrp, size_t *cap, size_t want, size_t elem, size_t first)
{
	size_t n = *cap ? *cap : first;

	if (want <= *cap)
		return 0;
	if (!n)
		return -1;
	while (n < want) {
		if (n > SIZE_MAX / 2)
			return -1;
		n *= 2;
	}
	return resize(arrp, cap, n, elem, 1);
}
