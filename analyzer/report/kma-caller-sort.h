/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-caller-sort.h - the order of callers in the reports. One comparator
 * for every report, so that ties break the same way everywhere a report
 * says they do; the order travels in qsort_r()'s argument, not in a global.
 */
#ifndef KMA_CALLER_SORT_H
#define KMA_CALLER_SORT_H

#include <stdint.h>
#include "match/kma-match.h"
#include "kma-report-callers.h"

/*
 * Descending by key (NULL: no key), then ascending by name, then, with
 * by_address, by address: the callers report promises a stable output even for
 * two call sites of one name; the others break ties by name only, as before.
 */
struct kma_caller_order {
	uint64_t	(*key)(const struct kma_caller *c);
	int		by_address;
};

/* Outstanding bytes: the key of the leak reports. */
uint64_t kma_caller_net(const struct kma_caller *c);

/* The order of -s KEY: descending by the key (caller: by name), ties by name, address. */
void kma_sort_order(enum kma_sort sort, struct kma_caller_order *o);

/*
 * Pointers to the callers c[0..nr) for which keep() is non-zero, in order;
 * *kept of them. NULL on out of memory; the caller frees the array.
 */
const struct kma_caller **kma_callers_sorted(const struct kma_caller *c, uint32_t nr,
					     int (*keep)(const struct kma_caller *),
					     const struct kma_caller_order *order,
					     uint32_t *kept);

/* Sorts v[0..n) again, in another order. */
void kma_callers_sort(const struct kma_caller **v, uint32_t n,
		      const struct kma_caller_order *order);

#endif /* KMA_CALLER_SORT_H */
