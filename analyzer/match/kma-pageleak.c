// SPDX-License-Identifier: GPL-2.0
/*
 * kma-pageleak.c - what the page matcher tracks over time, for --pages
 * --generations and --pages --leaks: the generations (kma markers), the
 * growth of every row's live pages from one generation to the next, the
 * generation of its last free, the pages made after the last marker (the
 * settle tail) and the ages of what is live at the end: each grouping's
 * rows kept by the row accounting of every kind (kma-rows.h), so that
 * kma-leak.c's verdicts carry over.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-pagealloc-int.h"
#include "kma-select.h"

int kma_pageleak_init(struct kma_pagealloc *m)
{
	if (kma_grow(&m->gens, &m->cap_gens, 0, sizeof(*m->gens), 8))
		return -1;
	memset(m->gens, 0, sizeof(*m->gens));
	m->gens[0].label = "start";
	m->nr_gens = 1;
	return 0;
}

/* The end of a generation: did each row's live pages grow over it? Every grouping. */
static void snapshot_growth(struct kma_pagealloc *m)
{
	int g;

	for (g = 0; g < KMA_PG_NR; g++)
		kma_rows_gen_end(m->g[g].rows, m->g[g].nr);
}

int kma_pageleak_marker(struct kma_pagealloc *m, const struct kma_event *ev)
{
	struct kma_page_gen *gen;

	if (kma_grow(&m->gens, &m->cap_gens, m->nr_gens, sizeof(*m->gens), 8))
		return -1;
	snapshot_growth(m);
	gen = &m->gens[m->nr_gens++];
	memset(gen, 0, sizeof(*gen));
	gen->ts = ev->ts;
	gen->label = ev->label;
	m->generation++;
	kma_leak_phase_add(&m->phases, m->generation, ev->label);
	if (m->phases.reclaim == m->generation) {	/* what the reclaim may free */
		int g;

		for (g = 0; g < KMA_PG_NR; g++)
			kma_rows_reclaim_mark(m->g[g].rows, m->g[g].nr);
	}
	return 0;
}

void kma_pageleak_free_event(struct kma_pagealloc *m)
{
	m->gens[m->generation].frees++;
}

/* A traced free's lifetime, for the rows of the groupings that keep them. */
static int keep_life(struct kma_pagealloc *m, const struct live_page *lp, uint64_t life)
{
	int g;

	for (g = 0; g < KMA_PG_NR; g++)
		if (m->keep_life[g] && kma_rows_keep_life(m->g[g].rows, m->g[g].nr, lp->row[g],
							  life, &m->life_budget[g]))
			return -1;
	return 0;
}

static int page_is_self(const struct kma_pagealloc *m, const struct live_page *lp);

/* An allocation freed (traced or implicitly): what the reclaim freed, lifetimes. */
int kma_pageleak_closed(struct kma_pagealloc *m, const struct live_page *lp, int kind,
			uint64_t ts)
{
	int g;

	/* made before the reclaim marker, freed by the reclaim: a cache's (not the recorder's) */
	int reclaimed = kind == KMA_EV_PAGE_FREE && m->phases.reclaim &&
			m->generation == m->phases.reclaim && lp->a.generation < m->phases.reclaim &&
			!page_is_self(m, lp);

	for (g = 0; g < KMA_PG_NR; g++)
		m->g[g].rows[lp->row[g]].reclaim_freed += reclaimed;
	if (kind != KMA_EV_PAGE_FREE)
		return 0;
	return keep_life(m, lp, ts > lp->a.alloc_ts ? ts - lp->a.alloc_ts : 0);
}

void kma_pagealloc_keep_lifetimes(struct kma_pagealloc *m, int g, uint64_t exact)
{
	if (g >= 0 && g < KMA_PG_NR) {
		m->keep_life[g] = 1;
		m->life_budget[g].max = exact ? exact : KMA_QUANT_EXACT_MAX;
	}
}

void kma_pageleak_free(struct kma_pagealloc *m)
{
	int g;

	for (g = 0; g < KMA_PG_NR; g++)
		free(m->iter_live[g]);
}

/* A live allocation the recorder made: by its task, caller function or stack. */
static int page_is_self(const struct kma_pagealloc *m, const struct live_page *lp)
{
	return kma_select_is_self_comm(m->g[KMA_PG_COMM].rows[lp->row[KMA_PG_COMM]].name) ||
	       kma_select_is_self_function(m->g[KMA_PG_FUNCTION].rows[lp->row[KMA_PG_FUNCTION]].name) ||
	       kma_leak_recorder_frames(m->g[KMA_PG_STACK].rows[lp->row[KMA_PG_STACK]].name);
}

/* The leak experiment's counts of every row: the recorder's own, each iteration's. */
static int experiment_counts(struct kma_pagealloc *m)
{
	uint32_t n = m->phases.iters;
	const struct live_page *lp;
	size_t pos = 0;
	int g;

	for (g = 0; g < KMA_PG_NR; g++)
		if (kma_rows_iter_init(m->g[g].rows, m->g[g].nr, n, &m->iter_live[g]))
			return -1;
	while ((lp = kma_pairs_next(m->live, &pos, NULL))) {
		int self = page_is_self(m, lp);
		uint32_t k = lp->a.generation - m->phases.first_iter;

		for (g = 0; g < KMA_PG_NR; g++) {
			m->g[g].rows[lp->row[g]].self_live += self;
			if (n && lp->a.generation >= m->phases.first_iter && k < n)
				m->iter_live[g][lp->row[g] * n + k]++;
		}
	}
	return 0;
}

struct kma_quant *kma_pagealloc_lifetimes(const struct kma_pagealloc *m, int g, uint32_t row)
{
	if (g < 0 || g >= KMA_PG_NR || !m->keep_life[g] || row >= m->g[g].nr ||
	    !m->g[g].rows[row].life_q.n)
		return NULL;
	return &m->g[g].rows[row].life_q;
}

int kma_pagealloc_lifetimes_bucketed(const struct kma_pagealloc *m, int g)
{
	return g >= 0 && g < KMA_PG_NR && m->life_budget[g].over;
}

/* The end of the trace: the last generation's growth, the tail, each generation's lives. */
int kma_pageleak_end(struct kma_pagealloc *m)
{
	const struct group *gr = &m->g[KMA_PG_GENERATION];
	const struct live_page *lp;
	size_t pos = 0, i;
	int g;

	snapshot_growth(m);
	for (g = 0; g < KMA_PG_NR; g++)	/* rows untouched since the last peak */
		kma_rows_peak_end(m->g[g].rows, m->g[g].nr, m->peak_epoch);
	for (i = 0; i < gr->nr; i++) {
		const struct kma_caller *r = &gr->rows[i];
		struct kma_page_gen *gen = &m->gens[r->address];

		gen->allocs = r->allocs;
		gen->pages = r->total;
		gen->live = r->live;
		gen->live_pages = r->net;
	}
	if (experiment_counts(m))
		return -1;
	if (m->nr_gens < 2)
		return 0;
	while ((lp = kma_pairs_next(m->live, &pos, NULL)))
		if (lp->a.generation == m->nr_gens - 1)
			for (g = 0; g < KMA_PG_NR; g++) {
				m->g[g].rows[lp->row[g]].tail_live++;
				m->g[g].rows[lp->row[g]].tail_live_bytes +=
					1ULL << (lp->a.order & 63);	/* pages */
			}
	return 0;
}

const struct kma_page_gen *kma_pagealloc_gens(const struct kma_pagealloc *m, uint32_t *nr)
{
	*nr = (uint32_t)m->nr_gens;
	return m->gens;
}

/* The live allocations of grouping g, for kma_rows_ages. */
struct page_walk {
	const struct kma_pairs	*live;
	size_t			pos;
	int			g;
};

static int walk_live(void *ctx, uint32_t *row, uint64_t *ts)
{
	struct page_walk *w = ctx;
	const struct live_page *lp = kma_pairs_next(w->live, &w->pos, NULL);

	if (!lp)
		return 0;
	*row = lp->row[w->g];
	*ts = lp->a.alloc_ts;
	return 1;
}

int kma_pagealloc_ages(struct kma_pagealloc *m, int g, uint64_t end_ts,
		       struct kma_page_age *out)
{
	struct page_walk w = { .live = m->live, .g = g };
	struct group *gr = &m->g[g];
	size_t i;

	for (i = 0; i < gr->nr; i++)
		gr->rows[i].age_min = gr->rows[i].age_median = gr->rows[i].age_max = 0;
	if (kma_rows_ages(gr->rows, (uint32_t)gr->nr, end_ts, walk_live, &w))
		return -1;
	for (i = 0; i < gr->nr; i++) {
		out[i].min = gr->rows[i].age_min;
		out[i].median = gr->rows[i].age_median;
		out[i].max = gr->rows[i].age_max;
	}
	return 0;
}
