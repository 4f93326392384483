/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-rows.h - one row's accounting, written once for every allocator kind
 * and grouping: the matcher's callers (kma-match.c) and each of its row
 * sets (kma-match-sets.c: the page kind's groupings) are arrays of struct
 * kma_caller kept by these functions, in the kind's unit (bytes; pages for
 * the page kind). What they keep is what kma-leak.c judges and the reports print:
 * allocations, traced and implicit frees, total, net and live, the row's
 * net at the overall peak, its growth over generations, the generation of
 * its last free, the settle tail, the experiment's counts, lifetimes and
 * the ages of what is live at the end.
 */
#ifndef KMA_ROWS_H
#define KMA_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "kma-match.h"
#include "kma-quant.h"

/*
 * Before a row's net changes: keep what it held at the latest peak
 * (@epoch, bumped by its matcher at every new overall peak).
 */
static inline void kma_row_snap(struct kma_caller *c, uint32_t epoch)
{
	if (c->peak_epoch != epoch) {
		c->net_at_peak = c->net;
		c->peak_epoch = epoch;
	}
}

/* An allocation of @n (bytes or pages) made live in row @c. */
static inline void kma_row_alloc(struct kma_caller *c, uint32_t epoch, uint64_t n)
{
	kma_row_snap(c, epoch);
	c->allocs++;
	c->live++;
	c->total += n;
	c->net += n;
}

/*
 * An allocation of @n of row @c closed in generation @gen, by a traced
 * free or (@implicit) by a new allocation at its key.
 */
static inline void kma_row_close(struct kma_caller *c, uint32_t epoch, uint64_t n,
				 int implicit, uint32_t gen)
{
	kma_row_snap(c, epoch);
	c->net -= n;
	c->live--;
	c->last_free_gen = gen + 1;
	if (implicit)
		c->implicit_frees++;
	else
		c->frees++;
}

/* The end of a generation: did each row's net grow over it (kma_streak_end)? */
void kma_rows_gen_end(struct kma_caller *rows, size_t n);
/* The "reclaim" marker: what each row holds then is what the reclaim may free. */
void kma_rows_reclaim_mark(struct kma_caller *rows, size_t n);
/* The end of the trace: every row untouched since the last peak keeps its net as it. */
void kma_rows_peak_end(struct kma_caller *rows, size_t n, uint32_t epoch);

/*
 * One more lifetime of row @i, within budget @b shared by the @n rows; past
 * the budget, every row's go to buckets (kma-quant.h). 0, or -1 out of memory.
 */
int kma_rows_keep_life(struct kma_caller *rows, size_t n, size_t i, uint64_t life,
		       struct kma_quant_budget *b);

/*
 * The leak experiment's per-iteration counts: @iters slots per row in one
 * zeroed array (*buf, the caller frees it), each row's iter_live pointing
 * at its own; nothing with @iters 0. 0, or -1 out of memory.
 */
int kma_rows_iter_init(struct kma_caller *rows, size_t n, uint32_t iters, uint64_t **buf);

/*
 * A walk of the live allocations: the next one's row (index in rows) and
 * allocation time; 0 at the end. Those it skips are not counted.
 */
typedef int (*kma_live_walk_fn)(void *ctx, uint32_t *row, uint64_t *ts);

/*
 * The ages at @end_ts of every row's live allocations (row i has
 * rows[i].live of them, as @walk gives them): each row's age_min,
 * age_median (of an even count the mean of the middle two, rounded down)
 * and age_max; rows with none are left as they are. The ages are laid out
 * row by row in one array: 8 bytes per live allocation, for as long as
 * this takes. 0, or -1 out of memory.
 */
int kma_rows_ages(struct kma_caller *rows, uint32_t nr, uint64_t end_ts, kma_live_walk_fn walk,
		  void *ctx);

#endif /* KMA_ROWS_H */
