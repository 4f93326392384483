// SPDX-License-Identifier: GPL-2.0
/*
 * kma-pageleak.c - what the page matcher tracks over time, for --pages
 * --generations and --pages --leaks: the generations (kma markers), the
 * growth of every row's live pages from one generation to the next, the
 * generation of its last free, the pages made after the last marker (the
 * settle tail) and the ages of what is live at the end. The same rules as
 * match/kma-match-time.c keeps for slab callers, so that kma-leak.c's
 * verdicts carry over.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-pagealloc-int.h"
#include "kma-select.h"
#include "kma-stats.h"

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
	size_t i;
	int g;

	for (g = 0; g < KMA_PG_NR; g++)
		for (i = 0; i < m->g[g].nr; i++) {
			struct kma_page_row *r = &m->g[g].rows[i];

			kma_streak_end(r->pages_live, &r->snap_live, &r->grew_gens,
				       &r->grow_run, &r->max_grow_run);
		}
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
		size_t i;
		int g;

		for (g = 0; g < KMA_PG_NR; g++)
			for (i = 0; i < m->g[g].nr; i++)
				m->g[g].rows[i].reclaim_live = m->g[g].rows[i].allocs -
							       m->g[g].rows[i].frees;
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

	for (g = 0; g < KMA_PG_NR; g++) {
		size_t i;
		int ret;

		if (!m->keep_life[g])
			continue;
		/* rows made since: cover them */
		if (m->nr_life[g] <= lp->row[g] &&
		    kma_grow_zero(&m->life[g], &m->nr_life[g], m->g[g].nr, sizeof(*m->life[g]), 16))
			return -1;
		ret = kma_quant_add(&m->life[g][lp->row[g]], life, &m->life_budget[g]);
		if (ret < 0)
			return -1;
		for (i = 0; ret > 0 && i < m->nr_life[g]; i++)	/* past the budget */
			if (kma_quant_settle(&m->life[g][i], &m->life_budget[g]))
				return -1;
	}
	return 0;
}

static int page_is_self(const struct kma_pagealloc *m, const struct live_page *lp);

/* An allocation freed (traced or implicitly): its rows were last freed in this generation. */
int kma_pageleak_closed(struct kma_pagealloc *m, const struct live_page *lp, int kind,
			uint64_t ts)
{
	int g;

	/* made before the reclaim marker, freed by the reclaim: a cache's (not the recorder's) */
	int reclaimed = kind == KMA_EV_PAGE_FREE && m->phases.reclaim &&
			m->generation == m->phases.reclaim && lp->a.generation < m->phases.reclaim &&
			!page_is_self(m, lp);

	for (g = 0; g < KMA_PG_NR; g++) {
		m->g[g].rows[lp->row[g]].last_free_gen = m->generation + 1;
		m->g[g].rows[lp->row[g]].reclaim_freed += reclaimed;
	}
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
	size_t i;
	int g;

	for (g = 0; g < KMA_PG_NR; g++) {
		for (i = 0; i < m->nr_life[g]; i++)
			kma_quant_free(&m->life[g][i]);
		free(m->life[g]);
		free(m->iter_live[g]);
	}
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
	size_t pos = 0, i;
	int g;

	for (g = 0; n && g < KMA_PG_NR; g++) {
		m->iter_live[g] = calloc(m->g[g].nr * n + 1, sizeof(uint64_t));
		if (!m->iter_live[g])
			return -1;
		for (i = 0; i < m->g[g].nr; i++) {
			m->g[g].rows[i].iter_live = m->iter_live[g] + i * n;
			m->g[g].rows[i].nr_iters = n;
		}
	}
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
	if (g < 0 || g >= KMA_PG_NR || row >= m->nr_life[g] || !m->life[g][row].n)
		return NULL;
	return &m->life[g][row];
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
		for (i = 0; i < m->g[g].nr; i++)
			kma_pageleak_touch(m, &m->g[g].rows[i]);
	for (i = 0; i < gr->nr; i++) {
		const struct kma_page_row *r = &gr->rows[i];
		struct kma_page_gen *gen = &m->gens[r->key];

		gen->allocs = r->allocs;
		gen->pages = r->pages_alloc;
		gen->live = r->allocs - r->frees;
		gen->live_pages = r->pages_live;
	}
	if (experiment_counts(m))
		return -1;
	if (m->nr_gens < 2)
		return 0;
	while ((lp = kma_pairs_next(m->live, &pos, NULL)))
		if (lp->a.generation == m->nr_gens - 1)
			for (g = 0; g < KMA_PG_NR; g++)
				m->g[g].rows[lp->row[g]].tail_pages += 1ULL << (lp->a.order & 63);
	return 0;
}

const struct kma_page_gen *kma_pagealloc_gens(const struct kma_pagealloc *m, uint32_t *nr)
{
	*nr = (uint32_t)m->nr_gens;
	return m->gens;
}

/*
 * The ages laid out row by row in one array (each row's slice sized by its
 * live allocations), sorted slice by slice: 8 bytes per live allocation.
 */
int kma_pagealloc_ages(const struct kma_pagealloc *m, int g, uint64_t end_ts,
		       struct kma_page_age *out)
{
	const struct group *gr = &m->g[g];
	uint64_t *ages, *start, n = 0;
	const struct live_page *lp;
	size_t pos = 0, i;

	start = calloc(2 * gr->nr + 1, sizeof(*start));
	if (!start)
		return -1;
	for (i = 0; i < gr->nr; i++) {
		start[i] = start[gr->nr + 1 + i] = n;
		n += gr->rows[i].allocs - gr->rows[i].frees;
	}
	start[gr->nr] = n;
	ages = malloc((n ? n : 1) * sizeof(*ages));
	if (!ages) {
		free(start);
		return -1;
	}
	while ((lp = kma_pairs_next(m->live, &pos, NULL))) {
		uint64_t *next = &start[gr->nr + 1 + lp->row[g]];

		if (*next < start[lp->row[g] + 1])
			ages[(*next)++] = end_ts > lp->a.alloc_ts ? end_ts - lp->a.alloc_ts : 0;
	}
	for (i = 0; i < gr->nr; i++) {
		uint64_t *a = ages + start[i], k = start[gr->nr + 1 + i] - start[i];

		memset(&out[i], 0, sizeof(out[i]));
		if (!k)
			continue;
		qsort(a, k, sizeof(*a), kma_cmp_u64);
		out[i].min = a[0];
		out[i].max = a[k - 1];
		out[i].median = kma_median(a, k);
	}
	free(ages);
	free(start);
	return 0;
}
