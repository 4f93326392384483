// SPDX-License-Identifier: GPL-2.0
/*
 * kma-timeline.c - the over-time series (kma-timeline.h): bins that double
 * in width as the trace grows, per-caller deltas of live bytes in the same
 * bins, turned into running totals once at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-match.h"
#include "kma-timeline.h"

struct kma_timeline {
	int			started;
	int			finished;
	uint64_t		start;
	uint64_t		width;
	uint64_t		cur;		/* live bytes now */
	uint64_t		last;		/* latest timestamp seen */
	uint32_t		nr_bins;	/* after finish */
	struct kma_tl_bin	bins[KMA_TL_MAX_BINS];	/* .live: unused until finish */
	int64_t			**delta;	/* per caller id: live-bytes change per bin */
	uint32_t		nr_delta;
	uint32_t		nr_top;
	uint32_t		top[KMA_TL_TOP];
	uint64_t		*top_live;	/* (nr_top + 1) x nr_bins, after finish */
};

struct kma_timeline *kma_timeline_alloc(void)
{
	struct kma_timeline *tl = calloc(1, sizeof(*tl));

	if (tl)
		tl->width = KMA_TL_MIN_WIDTH;
	return tl;
}

void kma_timeline_free(struct kma_timeline *tl)
{
	uint32_t i;

	if (!tl)
		return;
	for (i = 0; i < tl->nr_delta; i++)
		free(tl->delta[i]);
	free(tl->delta);
	free(tl->top_live);
	free(tl);
}

static void merge_bin(struct kma_tl_bin *d, const struct kma_tl_bin *a, const struct kma_tl_bin *b)
{
	struct kma_tl_bin r;

	r.allocs = a->allocs + b->allocs;
	r.alloc_bytes = a->alloc_bytes + b->alloc_bytes;
	r.frees = a->frees + b->frees;
	r.free_bytes = a->free_bytes + b->free_bytes;
	r.live = 0;
	r.live_max = a->live_max > b->live_max ? a->live_max : b->live_max;
	*d = r;
}

/* Twice as wide: bin i of the new width is bins 2i and 2i+1 of the old one. */
static void widen(struct kma_timeline *tl)
{
	uint32_t i, c;

	for (i = 0; i < KMA_TL_MAX_BINS / 2; i++)
		merge_bin(&tl->bins[i], &tl->bins[2 * i], &tl->bins[2 * i + 1]);
	memset(&tl->bins[KMA_TL_MAX_BINS / 2], 0, sizeof(tl->bins) / 2);
	for (c = 0; c < tl->nr_delta; c++) {
		int64_t *d = tl->delta[c];

		if (!d)
			continue;
		for (i = 0; i < KMA_TL_MAX_BINS / 2; i++)
			d[i] = d[2 * i] + d[2 * i + 1];
		memset(d + KMA_TL_MAX_BINS / 2, 0, sizeof(*d) * KMA_TL_MAX_BINS / 2);
	}
	tl->width *= 2;
}

/* The bin of @ts, widening until it fits. */
static uint32_t bin_of(struct kma_timeline *tl, uint64_t ts)
{
	uint64_t off = ts > tl->start ? ts - tl->start : 0;

	while (off / tl->width >= KMA_TL_MAX_BINS)
		widen(tl);
	return (uint32_t)(off / tl->width);
}

int kma_timeline_tick(struct kma_timeline *tl, uint64_t ts)
{
	if (!tl->started) {
		tl->started = 1;
		tl->start = ts;
	}
	if (ts > tl->last)
		tl->last = ts;
	bin_of(tl, ts);
	return 0;
}

static int64_t *caller_delta(struct kma_timeline *tl, uint32_t id)
{
	if (id >= tl->nr_delta) {
		uint32_t n = id + 64;
		int64_t **d = realloc(tl->delta, n * sizeof(*d));

		if (!d)
			return NULL;
		memset(d + tl->nr_delta, 0, (n - tl->nr_delta) * sizeof(*d));
		tl->delta = d;
		tl->nr_delta = n;
	}
	if (!tl->delta[id])
		tl->delta[id] = calloc(KMA_TL_MAX_BINS, sizeof(int64_t));
	return tl->delta[id];
}

int kma_timeline_add(struct kma_timeline *tl, uint64_t ts, uint32_t id, uint64_t bytes,
		     int free)
{
	struct kma_tl_bin *b;
	int64_t *d;

	kma_timeline_tick(tl, ts);
	b = &tl->bins[bin_of(tl, ts)];
	d = caller_delta(tl, id);
	if (!d)
		return -1;
	if (free) {
		b->frees++;
		b->free_bytes += bytes;
		tl->cur -= bytes;
		d[b - tl->bins] -= (int64_t)bytes;
	} else {
		b->allocs++;
		b->alloc_bytes += bytes;
		tl->cur += bytes;
		d[b - tl->bins] += (int64_t)bytes;
	}
	if (tl->cur > b->live_max)
		b->live_max = tl->cur;
	return 0;
}

/* Top callers first: higher net, then higher total, then the lower id. */
static int better(const struct kma_caller *c, uint32_t a, uint32_t b)
{
	if (c[a].net != c[b].net)
		return c[a].net > c[b].net;
	if (c[a].total != c[b].total)
		return c[a].total > c[b].total;
	return a < b;
}

static void pick_top(struct kma_timeline *tl, const struct kma_caller *c, uint32_t nr)
{
	uint32_t i, k;

	tl->nr_top = 0;
	for (i = 0; i < nr; i++) {
		if (!c[i].total)
			continue;
		/* insertion into the short sorted list */
		for (k = tl->nr_top; k > 0 && better(c, i, tl->top[k - 1]); k--)
			if (k < KMA_TL_TOP)
				tl->top[k] = tl->top[k - 1];
		if (k < KMA_TL_TOP) {
			tl->top[k] = i;
			if (tl->nr_top < KMA_TL_TOP)
				tl->nr_top++;
		}
	}
}

/* Running sums of the deltas: each series' live bytes at the end of each bin. */
static void running_sums(struct kma_timeline *tl)
{
	uint32_t i, k, n = tl->nr_bins;
	uint64_t live = 0, prev = 0;

	for (i = 0; i < n; i++) {
		struct kma_tl_bin *b = &tl->bins[i];

		live += b->alloc_bytes - b->free_bytes;
		b->live = live;
		/* a bin starts where the last one ended */
		if (prev > b->live_max)
			b->live_max = prev;
		if (live > b->live_max)
			b->live_max = live;
		prev = live;
	}
	for (k = 0; k < tl->nr_top; k++) {
		const int64_t *d = tl->top[k] < tl->nr_delta ? tl->delta[tl->top[k]] : NULL;
		int64_t sum = 0;

		for (i = 0; i < n; i++) {
			sum += d ? d[i] : 0;
			tl->top_live[k * n + i] = (uint64_t)sum;
		}
	}
	for (i = 0; i < n; i++) {
		uint64_t other = tl->bins[i].live;

		for (k = 0; k < tl->nr_top; k++)
			other -= tl->top_live[k * n + i];
		tl->top_live[tl->nr_top * n + i] = other;
	}
}

int kma_timeline_finish(struct kma_timeline *tl, uint64_t end_ts,
			const struct kma_caller *callers, uint32_t nr_callers)
{
	if (tl->finished)
		return 0;
	tl->finished = 1;
	if (!tl->started)
		return 0;
	/* an end before the last event (a damaged trace) still covers every event */
	if (end_ts < tl->last)
		end_ts = tl->last;
	tl->nr_bins = bin_of(tl, end_ts) + 1;
	pick_top(tl, callers, nr_callers);
	tl->top_live = calloc((size_t)(tl->nr_top + 1) * tl->nr_bins, sizeof(*tl->top_live));
	if (!tl->top_live)
		return -1;
	running_sums(tl);
	return 0;
}

uint32_t kma_timeline_bins(const struct kma_timeline *tl, uint64_t *start, uint64_t *width,
			   const struct kma_tl_bin **bins)
{
	*start = tl->start;
	*width = tl->width;
	*bins = tl->bins;
	return tl->nr_bins;
}

uint32_t kma_timeline_top(const struct kma_timeline *tl, const uint32_t **ids)
{
	*ids = tl->top;
	return tl->nr_top;
}

uint64_t kma_timeline_live(const struct kma_timeline *tl, uint32_t k, uint32_t bin)
{
	if (!tl->top_live || k > tl->nr_top || bin >= tl->nr_bins)
		return 0;
	return tl->top_live[(size_t)k * tl->nr_bins + bin];
}
