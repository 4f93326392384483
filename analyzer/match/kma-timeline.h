/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-timeline.h - live bytes, allocation and free rates over time, binned.
 *
 * Pure C, no I/O. The matcher feeds it as events arrive (timestamps never go
 * back): bins start KMA_TL_MIN_WIDTH wide at the first event and double in
 * width (pairs merged) whenever the trace outgrows KMA_TL_MAX_BINS, so memory
 * is fixed whatever the trace's length. At the end, the top callers by net
 * (then total) get their own live-bytes series; the rest is "other".
 */
#ifndef KMA_TIMELINE_H
#define KMA_TIMELINE_H

#include <stdint.h>

#define KMA_TL_MAX_BINS		2048
#define KMA_TL_MIN_WIDTH	1000ULL		/* 1 us: finer says nothing in a trace */
#define KMA_TL_TOP		8

struct kma_caller;
struct kma_timeline;

/* One bin: [start + i * width, start + (i + 1) * width). */
struct kma_tl_bin {
	uint64_t	allocs;		/* selected allocations made in it */
	uint64_t	alloc_bytes;	/* their bytes_alloc */
	uint64_t	frees;		/* of those allocations, closed in it (traced or implicit) */
	uint64_t	free_bytes;
	uint64_t	live;		/* live bytes at the end of the bin */
	uint64_t	live_max;	/* highest live bytes within the bin */
};

struct kma_timeline *kma_timeline_alloc(void);
void kma_timeline_free(struct kma_timeline *tl);

/* Every event's timestamp, in order: the first one starts bin 0. 0 or -1 (no memory). */
int kma_timeline_tick(struct kma_timeline *tl, uint64_t ts);
/* An allocation (@bytes > 0) or the close of one (@free set) by caller @id at @ts. */
int kma_timeline_add(struct kma_timeline *tl, uint64_t ts, uint32_t id, uint64_t bytes,
		     int free);
/* The end (@end_ts) and the top callers chosen from @callers (the matcher's, by id). */
int kma_timeline_finish(struct kma_timeline *tl, uint64_t end_ts,
			const struct kma_caller *callers, uint32_t nr_callers);

/* After finish: first bin's start, bin width (ns), number of bins (0: no event). */
uint32_t kma_timeline_bins(const struct kma_timeline *tl, uint64_t *start, uint64_t *width,
			   const struct kma_tl_bin **bins);
/* After finish: the top callers' ids (at most KMA_TL_TOP), best first. */
uint32_t kma_timeline_top(const struct kma_timeline *tl, const uint32_t **ids);
/*
 * Live bytes of top caller @k (0 <= k < nr_top) at the end of bin @bin;
 * k == nr_top: every other caller together.
 */
uint64_t kma_timeline_live(const struct kma_timeline *tl, uint32_t k, uint32_t bin);

#endif /* KMA_TIMELINE_H */
