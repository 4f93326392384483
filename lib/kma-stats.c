// SPDX-License-Identifier: GPL-2.0
/*
 * kma-stats.c - order statistics and the growth streak (see kma-stats.h).
 */
#include <stdlib.h>

#include "kma-stats.h"

/* Rounds of partitioning before the rest is sorted instead: no quadratic input. */
#define SELECT_ROUNDS	128

int kma_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t kma_median(const uint64_t *sorted, uint64_t n)
{
	if (!n)
		return 0;
	if (n % 2)
		return sorted[n / 2];
	/* the difference first: the sum of two large values would overflow */
	return sorted[n / 2 - 1] + (sorted[n / 2] - sorted[n / 2 - 1]) / 2;
}

static inline void swap_u64(uint64_t *a, uint64_t *b)
{
	uint64_t t = *a;

	*a = *b;
	*b = t;
}

/*
 * Puts the k-th least value at v[k], the ones before it no greater and the
 * ones after it no less. Hoare's partition around the median of three; a
 * range still open after SELECT_ROUNDS rounds is sorted.
 */
static void select_kth(uint64_t *v, int64_t n, int64_t k)
{
	int64_t lo = 0, hi = n - 1, i, j, mid;
	unsigned int rounds = 0;
	uint64_t p;

	while (hi > lo) {
		if (++rounds > SELECT_ROUNDS) {
			qsort(v + lo, (size_t)(hi - lo + 1), sizeof(*v), kma_cmp_u64);
			return;
		}
		mid = lo + (hi - lo) / 2;
		if (v[mid] < v[lo])
			swap_u64(&v[mid], &v[lo]);
		if (v[hi] < v[lo])
			swap_u64(&v[hi], &v[lo]);
		if (v[hi] < v[mid])
			swap_u64(&v[hi], &v[mid]);
		p = v[mid];
		/* v[lo] <= p <= v[hi]: both scans stop inside the range */
		for (i = lo, j = hi; i <= j;) {
			while (v[i] < p)
				i++;
			while (v[j] > p)
				j--;
			if (i <= j)
				swap_u64(&v[i++], &v[j--]);
		}
		/* now v[lo..j] <= p, v[i..hi] >= p, and what lies between equals p */
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

uint64_t kma_median_unsorted(uint64_t *v, uint64_t n, uint64_t *min, uint64_t *max)
{
	uint64_t i, lo, hi, below;

	if (!n)
		return 0;
	lo = hi = v[0];
	for (i = 1; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	*min = lo;
	*max = hi;
	select_kth(v, (int64_t)n, (int64_t)(n / 2));
	if (n % 2)
		return v[n / 2];
	/* the lower middle one: the greatest of the values before v[n / 2] */
	for (below = v[0], i = 1; i < n / 2; i++)
		below = v[i] > below ? v[i] : below;
	return below + (v[n / 2] - below) / 2;
}

uint64_t kma_pct_rank(uint64_t n, unsigned int p)
{
	uint64_t rank = (n * p + 99) / 100;

	return rank ? rank : 1;
}

uint64_t kma_pct_sorted(const uint64_t *sorted, uint64_t n, unsigned int p)
{
	return n ? sorted[kma_pct_rank(n, p) - 1] : 0;
}

void kma_streak_end(uint64_t now, uint64_t *snap, uint32_t *grew, uint32_t *run,
		    uint32_t *max_run)
{
	if (now > *snap) {
		(*grew)++;
		if (++*run > *max_run)
			*max_run = *run;
	} else {
		*run = 0;
	}
	*snap = now;
}
