/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-huge.h - transparent huge pages for the big tables (kma-huge.c).
 */
#ifndef KMA_HUGE_H
#define KMA_HUGE_H

#include <stddef.h>

/* A huge page; below this a region gets no advice. */
#define KMA_HUGE_MIN	(2u << 20)

/*
 * Asks for transparent huge pages for the memory at @p, @len bytes (from
 * malloc, calloc or realloc: the pages it lies in are advised). A hint:
 * when the system refuses, nothing changes.
 */
void kma_huge_advise(void *p, size_t len);

/*
 * @len zeroed bytes; from KMA_HUGE_MIN on, a mapping of their own aligned to
 * a huge page and advised for huge pages (calloc below it, and in the
 * sanitizer builds, whose checks see only their own allocator's memory).
 * NULL when out of memory. Freed by kma_huge_free() with the same @len.
 */
void *kma_huge_alloc(size_t len);
void kma_huge_free(void *p, size_t len);

/*
 * Writes a byte into each 4 KB page of @len bytes from kma_huge_alloc() (from
 * 128 KB on) before a table probed at random is read: see kma-huge.c.
 */
void kma_huge_touch(void *p, size_t len);

/*
 * The size a table growing to @len bytes is better given: KMA_HUGE_MIN when
 * @len is past an eighth of it and kma_huge_alloc() maps huge pages (a
 * table growing that far usually grows on: it skips the 4 KB pages, a fault
 * each, and the copies between), else @len.
 */
size_t kma_huge_grow_len(size_t len);

/*
 * @p (from kma_huge_alloc or this, @old_len bytes) grown to @new_len bytes,
 * the first @old_len kept, the rest zeroed; its pages moved, not copied,
 * where both are mappings of their own. NULL when out of memory (@p is then
 * as it was).
 */
void *kma_huge_realloc(void *p, size_t old_len, size_t new_len);

#endif /* KMA_HUGE_H */
