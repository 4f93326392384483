// SPDX-License-Identifier: GPL-2.0
/*
 * kma-timeline.c - the over-time series (kma-timeline.h): bins that double
 * in width as the trace grows, per-caller deltas of live bytes in the same
 * bins, turned into running totals once at the end.
 *
 * A caller's deltas are sparse: (bin, delta) pairs in bin order, one per bin
 * in which its live bytes changed, because most call sites allocate in few
 * bins and a dense array of KMA_TL_MAX_BINS deltas each cost 16 KB per call
 * site. A series that would take more room sparse than dense turns dense.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-match.h"
#include "kma-timeline.h"

/*
 * One caller's live-bytes change per bin. Sparse: bin[0..n) ascending, d[i]
 * its delta. Dense (bin NULL, d non-NULL): d[b] for every bin b.
 */
struct tl_series {
	uint16_t	*bin;
	int64_t		*d;
	uint32_t	n;
	uint32_t	cap;
};

/* Past this many pairs (10 bytes each) a dense array (8 bytes a bin) is no bigger. */
#define TL_DENSE_AT	(KMA_TL_MAX_BINS * sizeof(int64_t) / (sizeof(int64_t) + sizeof(uint16_t)))
_Static_assert(KMA_TL_MAX_BINS <= 65536, "a bin must fit struct tl_series' uint16_t");

struct kma_timeline {
	int			started;
	int			finished;
	uint64_t		start;
	uint64_t		width;
	/* the bin of the last timestamp and its start (offset from start): 0 / 0 is bin 0 */
	uint32_t		memo_bin;
	uint64_t		memo_lo;
	uint64_t		cur;		/* live bytes now */
	uint64_t		last;		/* latest timestamp seen */
	uint32_t		nr_bins;	/* after finish */
	struct kma_tl_bin	bins[KMA_TL_MAX_BINS];	/* .live: unused until finish */
	struct tl_series	*delta;		/* per caller id */
	size_t			nr_delta;
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

static void series_release(struct tl_series *s)
{
	free(s->bin);
	free(s->d);
}

void kma_timeline_free(struct kma_timeline *tl)
{
	uint32_t i;

	if (!tl)
		return;
	for (i = 0; i < tl->nr_delta; i++)
		series_release(&tl->delta[i]);
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

/*
 * A series at twice the width: bin b becomes b / 2, so neighbours in a sparse
 * series may meet and add up; a sum of 0 is no change and is dropped.
 */
static void series_widen(struct tl_series *s)
{
	uint32_t i, n = 0;

	if (!s->bin) {
		if (!s->d)
			return;
		for (i = 0; i < KMA_TL_MAX_BINS / 2; i++)
			s->d[i] = s->d[2 * i] + s->d[2 * i + 1];
		memset(s->d + KMA_TL_MAX_BINS / 2, 0, sizeof(*s->d) * KMA_TL_MAX_BINS / 2);
		return;
	}
	for (i = 0; i < s->n; i++) {
		uint16_t b = s->bin[i] / 2;

		if (n && s->bin[n - 1] == b) {
			s->d[n - 1] += s->d[i];
			if (!s->d[n - 1])
				n--;
		} else {
			s->bin[n] = b;
			s->d[n++] = s->d[i];
		}
	}
	s->n = n;
}

/* Twice as wide: bin i of the new width is bins 2i and 2i+1 of the old one. */
static void widen(struct kma_timeline *tl)
{
	uint32_t i, c;

	for (i = 0; i < KMA_TL_MAX_BINS / 2; i++)
		merge_bin(&tl->bins[i], &tl->bins[2 * i], &tl->bins[2 * i + 1]);
	memset(&tl->bins[KMA_TL_MAX_BINS / 2], 0, sizeof(tl->bins) / 2);
	for (c = 0; c < tl->nr_delta; c++)
		series_widen(&tl->delta[c]);
	tl->width *= 2;
	tl->memo_bin = 0;	/* bin 0 starts at 0 whatever the width */
	tl->memo_lo = 0;
}

/* The bin of @ts past the last one's: a division, widening until it fits. */
static __attribute__((noinline)) uint32_t bin_slow(struct kma_timeline *tl, uint64_t off)
{
	uint64_t bin = off / tl->width;

	while (bin >= KMA_TL_MAX_BINS) {
		widen(tl);
		bin = off / tl->width;
	}
	tl->memo_bin = (uint32_t)bin;
	tl->memo_lo = bin * tl->width;
	return (uint32_t)bin;
}

/* The bin of @ts, widening until it fits. */
static inline uint32_t bin_of(struct kma_timeline *tl, uint64_t ts)
{
	uint64_t off = ts > tl->start ? ts - tl->start : 0;

	/*
	 * Timestamps come in order, so most fall in the last one's bin: a
	 * compare, not a 64-bit division per event (the division was most
	 * of the timeline's cost). Unsigned: off below memo_lo wraps, fails.
	 */
	if (off - tl->memo_lo < tl->width)
		return tl->memo_bin;
	return bin_slow(tl, off);
}

/*
 * Every event: only the first and the latest timestamp. The bins need not
 * widen here: an allocation or free widens them when its bin is past the
 * last, and kma_timeline_finish() up to the last timestamp; widening later
 * adds the same deltas into the same wider bins (pairs summed, maxima kept).
 */
int kma_timeline_tick(struct kma_timeline *tl, uint64_t ts)
{
	if (!tl->started) {
		tl->started = 1;
		tl->start = ts;
	}
	if (ts > tl->last)
		tl->last = ts;
	return 0;
}

static inline struct tl_series *caller_series(struct kma_timeline *tl, uint32_t id)
{
	if (id < tl->nr_delta)
		return &tl->delta[id];
	if (kma_grow_zero(&tl->delta, &tl->nr_delta, (size_t)id + 1, sizeof(*tl->delta), 64))
		return NULL;
	return &tl->delta[id];
}

/* The pairs of a full sparse series scattered into a dense array. */
static int series_to_dense(struct tl_series *s)
{
	int64_t *d = calloc(KMA_TL_MAX_BINS, sizeof(*d));
	uint32_t i;

	if (!d)
		return -1;
	for (i = 0; i < s->n; i++)
		d[s->bin[i]] = s->d[i];
	series_release(s);
	s->bin = NULL;
	s->d = d;
	s->n = s->cap = 0;
	return 0;
}

/* Room for one more pair: twice the pairs, up to the size of a dense array. */
static int series_grow(struct tl_series *s)
{
	uint32_t cap = s->cap ? s->cap * 2 : 4;
	uint16_t *b;
	int64_t *d;

	if (s->cap >= TL_DENSE_AT)
		return series_to_dense(s);
	if (cap > TL_DENSE_AT)
		cap = TL_DENSE_AT;
	b = realloc(s->bin, cap * sizeof(*b));
	if (!b)
		return -1;
	s->bin = b;
	d = realloc(s->d, cap * sizeof(*d));
	if (!d)
		return -1;
	s->d = d;
	s->cap = cap;
	return 0;
}

/*
 * @x more live bytes in @bin. Timestamps come in order, so the pair is
 * nearly always the last one or a new last one; a trace whose timestamps go
 * back (damaged) inserts further down, with the same result.
 */
static int series_add(struct tl_series *s, uint32_t bin, int64_t x)
{
	uint32_t i;

	if (!s->bin && s->d) {
		s->d[bin] += x;
		return 0;
	}
	for (i = s->n; i && s->bin[i - 1] > bin; i--)
		;
	if (i && s->bin[i - 1] == bin) {
		s->d[i - 1] += x;
		if (!s->d[i - 1]) {
			/* back to no change in that bin: no pair */
			memmove(s->bin + i - 1, s->bin + i, (s->n - i) * sizeof(*s->bin));
			memmove(s->d + i - 1, s->d + i, (s->n - i) * sizeof(*s->d));
			s->n--;
		}
		return 0;
	}
	if (!x)
		return 0;
	if (s->n == s->cap && series_grow(s))
		return -1;
	if (!s->bin) {
		s->d[bin] += x;		/* just turned dense */
		return 0;
	}
	if (i < s->n) {		/* only a damaged trace's time going back */
		memmove(s->bin + i + 1, s->bin + i, (s->n - i) * sizeof(*s->bin));
		memmove(s->d + i + 1, s->d + i, (s->n - i) * sizeof(*s->d));
	}
	s->bin[i] = (uint16_t)bin;
	s->d[i] = x;
	s->n++;
	return 0;
}

int kma_timeline_add(struct kma_timeline *tl, uint64_t ts, uint32_t id, uint64_t bytes,
		     int free)
{
	struct kma_tl_bin *b;
	struct tl_series *s;

	/* kma_timeline_tick()'s work, and its bin_of() once, not twice */
	if (!tl->started) {
		tl->started = 1;
		tl->start = ts;
	}
	if (ts > tl->last)
		tl->last = ts;
	b = &tl->bins[bin_of(tl, ts)];
	s = caller_series(tl, id);
	if (!s)
		return -1;
	if (free) {
		b->frees++;
		b->free_bytes += bytes;
		tl->cur -= bytes;
	} else {
		b->allocs++;
		b->alloc_bytes += bytes;
		tl->cur += bytes;
	}
	if (series_add(s, (uint32_t)(b - tl->bins), free ? -(int64_t)bytes : (int64_t)bytes))
		return -1;
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

/* @s's live bytes at the end of each of the @n bins, into @out. */
static void series_sums(const struct tl_series *s, uint64_t *out, uint32_t n)
{
	uint32_t i, j = 0;
	int64_t sum = 0;

	for (i = 0; i < n; i++) {
		if (s && !s->bin && s->d)
			sum += s->d[i];
		else if (s && j < s->n && s->bin[j] == i)
			sum += s->d[j++];
		out[i] = (uint64_t)sum;
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
	for (k = 0; k < tl->nr_top; k++)
		series_sums(tl->top[k] < tl->nr_delta ? &tl->delta[tl->top[k]] : NULL,
			    tl->top_live + (size_t)k * n, n);
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
