// SPDX-License-Identifier: GPL-2.0
/*
 * kma-quant.c - exact values, then log-spaced buckets (see kma-quant.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-quant.h"
#include "kma-stats.h"

/*
 * g = (1 + a) / (1 - a) with a = 0.9 %: a value in (b / g, b] is within a of
 * 2b / (g + 1). The stated 1 % leaves room for the rounding to whole numbers.
 */
#define QUANT_A		0.009
#define QUANT_G		((1.0 + QUANT_A) / (1.0 - QUANT_A))

static uint32_t bucket_of(uint64_t v)
{
	double k;

	if (v < KMA_QUANT_LINEAR)
		return (uint32_t)v;
	k = ceil(log((double)v / KMA_QUANT_LINEAR) / log(QUANT_G));
	return KMA_QUANT_LINEAR + (k > 0 ? (uint32_t)k : 0);
}

/* The value a bucket answers for: the middle of its range by relative error. */
static uint64_t bucket_value(uint32_t i)
{
	double top;

	if (i < KMA_QUANT_LINEAR)
		return i;
	top = KMA_QUANT_LINEAR * pow(QUANT_G, (double)(i - KMA_QUANT_LINEAR));
	return (uint64_t)llround(2.0 * top / (QUANT_G + 1.0));
}

/* One more in bucket i: the counts cover lo .. lo + nbins - 1, grown to take i. */
static int bin_add(struct kma_quant *q, uint32_t i, uint64_t count)
{
	uint32_t lo, hi;
	uint64_t *nb;

	if (!q->bins) {
		q->bins = calloc(1, sizeof(*q->bins));
		if (!q->bins)
			return -1;
		q->lo = i;
		q->nbins = 1;
	}
	if (i < q->lo || i >= q->lo + q->nbins) {
		lo = i < q->lo ? i : q->lo;
		hi = i >= q->lo + q->nbins ? i + 1 : q->lo + q->nbins;
		nb = calloc(hi - lo, sizeof(*nb));
		if (!nb)
			return -1;
		memcpy(nb + (q->lo - lo), q->bins, q->nbins * sizeof(*nb));
		free(q->bins);
		q->bins = nb;
		q->lo = lo;
		q->nbins = hi - lo;
	}
	q->bins[i - q->lo] += count;
	return 0;
}

/* The exact values into buckets, the array given back. */
static int to_bins(struct kma_quant *q, struct kma_quant_budget *b)
{
	uint64_t i;

	for (i = 0; i < q->n; i++)
		if (bin_add(q, bucket_of(q->v[i]), 1))
			return -1;
	b->exact -= q->n;
	free(q->v);
	q->v = NULL;
	q->cap = 0;
	return 0;
}

int kma_quant_settle(struct kma_quant *q, struct kma_quant_budget *b)
{
	if (b->over && !q->bins && q->n > KMA_QUANT_SMALL)
		return to_bins(q, b);
	return 0;
}

int kma_quant_add(struct kma_quant *q, uint64_t v, struct kma_quant_budget *b)
{
	size_t cap = q->cap;
	int went_over = 0;

	if (q->bins) {
		if (bin_add(q, bucket_of(v), 1))
			return -1;
	} else {
		if (kma_grow(&q->v, &cap, q->n, sizeof(*q->v), 16))
			return -1;
		q->cap = cap;
		q->v[q->n] = v;
		q->sorted = 0;
		b->exact++;
	}
	if (!q->n || v < q->min)
		q->min = v;
	if (v > q->max)
		q->max = v;
	q->n++;
	if (!b->over && b->exact > b->max) {
		b->over = 1;
		went_over = 1;
	}
	if (kma_quant_settle(q, b))
		return -1;
	return went_over;
}

uint64_t kma_quant_pct(struct kma_quant *q, unsigned int p)
{
	uint64_t rank = kma_pct_rank(q->n, p), seen = 0, v;
	uint32_t i;

	if (!q->n)
		return 0;
	if (!q->bins) {
		if (!q->sorted)
			qsort(q->v, q->n, sizeof(*q->v), kma_cmp_u64);
		q->sorted = 1;
		return kma_pct_sorted(q->v, q->n, p);
	}
	for (i = 0; i < q->nbins; i++) {
		seen += q->bins[i];
		if (seen >= rank)
			break;
	}
	v = bucket_value(q->lo + (i < q->nbins ? i : q->nbins - 1));
	/* the value sought lies between the exact extremes: never answer outside them */
	return v < q->min ? q->min : v > q->max ? q->max : v;
}

int kma_quant_exact(const struct kma_quant *q)
{
	return !q->bins;
}

void kma_quant_free(struct kma_quant *q)
{
	free(q->v);
	free(q->bins);
	memset(q, 0, sizeof(*q));
}
