// SPDX-License-Identifier: GPL-2.0
/*
 * kma-rows.c - the row accounting every matcher keeps (kma-rows.h): over
 * generations, at the peak, the experiment's counts, lifetimes and ages.
 */
#include <stdlib.h>

#include "kma-huge.h"
#include "kma-rows.h"
#include "kma-stats.h"

void kma_rows_gen_end(struct kma_caller *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		kma_streak_end(rows[i].net, &rows[i].snap_net, &rows[i].grew_gens,
			       &rows[i].grow_run, &rows[i].max_grow_run);
}

void kma_rows_reclaim_mark(struct kma_caller *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		rows[i].reclaim_live = rows[i].live;
}

void kma_rows_peak_end(struct kma_caller *rows, size_t n, uint32_t epoch)
{
	size_t i;

	for (i = 0; i < n; i++)
		kma_row_snap(&rows[i], epoch);
}

int kma_rows_keep_life(struct kma_caller *rows, size_t n, size_t i, uint64_t life,
		       struct kma_quant_budget *b)
{
	int ret = kma_quant_add(&rows[i].life_q, life, b);

	if (ret <= 0)
		return ret;
	for (i = 0; i < n; i++)
		if (kma_quant_settle(&rows[i].life_q, b))
			return -1;
	return 0;
}

int kma_rows_iter_init(struct kma_caller *rows, size_t n, uint32_t iters, uint64_t **buf)
{
	size_t i;

	*buf = NULL;
	if (!iters)
		return 0;
	*buf = calloc(n * iters + 1, sizeof(**buf));
	if (!*buf)
		return -1;
	for (i = 0; i < n; i++) {
		rows[i].iter_live = *buf + i * iters;
		rows[i].nr_iters = iters;
	}
	return 0;
}

int kma_rows_ages(struct kma_caller *rows, uint32_t nr, uint64_t end_ts, kma_live_walk_fn walk,
		  void *ctx)
{
	uint64_t *ages, *start, *next, n = 0, ts;
	uint32_t i, row;

	start = calloc(2 * (size_t)nr + 1, sizeof(*start));
	if (!start)
		return -1;
	next = start + nr + 1;
	for (i = 0; i < nr; i++) {
		start[i] = next[i] = n;
		n += rows[i].live;
	}
	start[nr] = n;
	/* megabytes written once: huge pages, not a fault per 4 KB (kma-huge.c) */
	ages = kma_huge_alloc((n ? n : 1) * sizeof(*ages));
	if (!ages) {
		free(start);
		return -1;
	}
	while (walk(ctx, &row, &ts))
		if (row < nr && next[row] < start[row + 1])	/* the slice holds live */
			ages[next[row]++] = end_ts > ts ? end_ts - ts : 0;
	for (i = 0; i < nr; i++) {
		uint64_t *a = ages + start[i], k = next[i] - start[i];

		if (!k)
			continue;
		rows[i].age_median = kma_median_unsorted(a, k, &rows[i].age_min,
							 &rows[i].age_max);
	}
	kma_huge_free(ages, (n ? n : 1) * sizeof(*ages));
	free(start);
	return 0;
}
