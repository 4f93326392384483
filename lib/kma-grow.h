/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-grow.h - growing arrays: the one place that doubles a buffer, so the
 * overflow check and the leave-it-as-it-was-on-failure rule are written once.
 */
#ifndef KMA_GROW_H
#define KMA_GROW_H

#include <stddef.h>

/*
 * Room for one more element in the array *arrp points to (a pointer to the
 * array pointer), which holds nr elements of elem bytes in *cap slots: when
 * full, the slots double (first: the first size). 0, or -1 when out of
 * memory, with the array and *cap as they were.
 */
int kma_grow(void *arrp, size_t *cap, size_t nr, size_t elem, size_t first);

/*
 * Room for want elements, for an array indexed by an id that may jump ahead
 * of its last: the slots double (first: the first size) until there are
 * want, the new ones zeroed. 0, or -1 when out of memory, with the array and
 * *cap as they were.
 */
int kma_grow_zero(void *arrp, size_t *cap, size_t want, size_t elem, size_t first);

#endif /* KMA_GROW_H */
