/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-stats.h - the order statistics and the growth streak that the slab and
 * the page paths both report: written once, so that a median or a p99 of
 * --pages is the same rule as the slab one's.
 */
#ifndef KMA_STATS_H
#define KMA_STATS_H

#include <stdint.h>

/* qsort comparator of uint64_t values, ascending. */
int kma_cmp_u64(const void *a, const void *b);

/* Median of n sorted values; of an even n the mean of the middle two rounded down; 0: none. */
uint64_t kma_median(const uint64_t *sorted, uint64_t n);

/*
 * The same median of n values in any order, without sorting them (a
 * quickselect: linear in n, where the ages of a run's live allocations, a
 * sort per call site, were a twentieth of a run), and their least and
 * greatest into *min and *max. Reorders the values; 0 and no *min, *max
 * written for none.
 */
uint64_t kma_median_unsorted(uint64_t *v, uint64_t n, uint64_t *min, uint64_t *max);

/* The 1-based nearest rank of the p-th percentile of n values: ceil(p * n / 100), at least 1. */
uint64_t kma_pct_rank(uint64_t n, unsigned int p);

/* The nearest-rank p-th percentile of n sorted values; 0 for none. */
uint64_t kma_pct_sorted(const uint64_t *sorted, uint64_t n, unsigned int p);

/*
 * A generation's end for one row: *grew counts the generations at whose end
 * the row's amount (now) was above the one at the end before (*snap), *run
 * the current run of consecutive such generations and *max_run the longest;
 * *snap becomes now.
 */
void kma_streak_end(uint64_t now, uint64_t *snap, uint32_t *grew, uint32_t *run,
		    uint32_t *max_run);

#endif /* KMA_STATS_H */
