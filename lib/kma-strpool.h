/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-strpool.h - string interning. Interned strings never move and live until
 * the pool is freed, so rows can carry plain pointers across threads.
 */
#ifndef KMA_STRPOOL_H
#define KMA_STRPOOL_H

#include <stddef.h>

struct kma_strpool;

struct kma_strpool *kma_strpool_alloc(void);
void kma_strpool_free(struct kma_strpool *pool);

/* Returns the interned copy of s[0..len), or NULL when out of memory. */
const char *kma_strpool_intern(struct kma_strpool *pool, const char *s, size_t len);

#endif /* KMA_STRPOOL_H */
