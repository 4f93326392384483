// SPDX-License-Identifier: GPL-2.0
/*
 * kma-stats.c - order statistics and the growth streak (see kma-stats.h).
 */
#include "kma-stats.h"

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
