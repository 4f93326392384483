/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-quant.h - one row's lifetimes for nearest-rank percentiles in bounded
 * memory: every value kept while a budget shared by the rows allows, then
 * log-spaced buckets with a stated relative error.
 *
 * The rule: the values are kept exactly while the rows sharing a budget hold
 * at most budget.max of them. Past that, every row with more than
 * KMA_QUANT_SMALL values (and any row once it passes that many) moves its
 * values into buckets: exact below KMA_QUANT_LINEAR, above it buckets
 * (b / g, b] with g = 1.009 / 0.991, each answered by 2b / (g + 1) rounded
 * and kept within the row's exact min and max. A percentile of a bucketed
 * row is then within KMA_QUANT_ERR_PCT percent of the exact nearest-rank
 * value (0.9 % from the bucket, at most 0.5 from the rounding: under 1 % from
 * KMA_QUANT_LINEAR up), and a bucketed row costs at most 3,105 counters.
 */
#ifndef KMA_QUANT_H
#define KMA_QUANT_H

#include <stdint.h>

#define KMA_QUANT_LINEAR	1024	/* values below it are counted one by one */
#define KMA_QUANT_SMALL		256	/* rows with at most this many stay exact */
#define KMA_QUANT_ERR_PCT	1	/* the stated bound of a bucketed percentile */
#define KMA_QUANT_EXACT_MAX	1048576	/* the default budget of exact values */

struct kma_quant {
	uint64_t	*v;		/* the exact values, while bins is NULL */
	uint64_t	n;		/* values added */
	uint64_t	cap;
	uint64_t	min, max;	/* exact, always */
	uint64_t	*bins;		/* counts of buckets lo .. lo + nbins - 1 */
	uint32_t	lo, nbins;
	int		sorted;
};

/* Exact values held by every row sharing it, and how many they may hold. */
struct kma_quant_budget {
	uint64_t	exact;
	uint64_t	max;
	int		over;		/* went past max: rows bucket their values */
};

/*
 * Add value v to q. 0; 1 when this value took the budget past its max (the
 * caller then calls kma_quant_settle on every row sharing it); -1 when out of
 * memory (q as it was).
 */
int kma_quant_add(struct kma_quant *q, uint64_t v, struct kma_quant_budget *b);
/* After the budget went over: q's values into buckets if it has more than KMA_QUANT_SMALL. */
int kma_quant_settle(struct kma_quant *q, struct kma_quant_budget *b);
/* The nearest-rank p-th percentile (the ceil(p * n / 100)-th smallest); 0 for no values. */
uint64_t kma_quant_pct(struct kma_quant *q, unsigned int p);
/* 1 when q's percentiles are exact, 0 when they come from buckets. */
int kma_quant_exact(const struct kma_quant *q);
void kma_quant_free(struct kma_quant *q);

#endif /* KMA_QUANT_H */
