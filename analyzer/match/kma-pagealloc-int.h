/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-pagealloc-int.h - the page matcher's state, shared by kma-pagealloc.c
 * (pairing, rows) and kma-pageleak.c (generations, growth, ages): not for
 * other users, who go through kma-pagealloc.h.
 */
#ifndef KMA_PAGEALLOC_INT_H
#define KMA_PAGEALLOC_INT_H

#include "kma-map.h"
#include "kma-pairs.h"
#include "kma-pagealloc.h"
#include "kma-quant.h"
#include "kma-leak.h"
#include "kma-rows.h"

struct live_page {
	struct kma_page_alloc	a;
	uint32_t		row[KMA_PG_NR];
};

struct group {
	struct kma_map		map;	/* key -> index in rows */
	struct kma_caller	*rows;	/* in pages (kma-pagealloc.h) */
	size_t			nr, cap;
};

struct kma_pagealloc {
	struct kma_page_opts	o;
	struct kma_pairs	*live;
	struct kma_pairs	*out;	/* live allocations the filter left out: pfns only */
	uint64_t		since, until;	/* kma_pagealloc_set_window */
	struct group		g[KMA_PG_NR];
	struct kma_page_totals	t;
	uint32_t		generation;
	/* kma-pageleak.c: generation 0 (the trace start) and one per marker */
	struct kma_page_gen	*gens;
	size_t			nr_gens, cap_gens;
	uint32_t		peak_epoch;	/* new overall peaks so far */
	/* with kma_pagealloc_keep_lifetimes: per grouping, each row's life_q */
	int			keep_life[KMA_PG_NR];
	/* the exact lifetimes each grouping holds, for all its rows (kma-quant.h) */
	struct kma_quant_budget	life_budget[KMA_PG_NR];
	/* the leak experiment: its phases, each row's live allocations per iteration */
	struct kma_leak_phases	phases;
	uint64_t		*iter_live[KMA_PG_NR];
};

/* kma-pageleak.c, called by kma-pagealloc.c */
int kma_pageleak_init(struct kma_pagealloc *m);
int kma_pageleak_marker(struct kma_pagealloc *m, const struct kma_event *ev);
void kma_pageleak_free_event(struct kma_pagealloc *m);
int kma_pageleak_closed(struct kma_pagealloc *m, const struct live_page *lp, int kind,
			uint64_t ts);
void kma_pageleak_free(struct kma_pagealloc *m);
int kma_pageleak_end(struct kma_pagealloc *m);


#endif /* KMA_PAGEALLOC_INT_H */
