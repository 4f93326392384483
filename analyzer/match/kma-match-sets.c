// SPDX-License-Identifier: GPL-2.0
/*
 * kma-match-sets.c - a matcher with row sets (kma_rowsets in kma-match.h):
 * every allocation accounted in several groupings at once, as the page kind
 * wants (order, migrate type, gfp, task, pid, function, stack, generation).
 * The pairing, totals, generations and peak stay kma-match.c's and
 * kma-match-time.c's; what is here is each set's rows (kept by kma-rows.h),
 * their timelines, lifetimes, experiment counts, tail and ages.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kma-match-int.h"

#define ALIGN8(x)	(((x) + 7) & ~(size_t)7)

int kma_sets_init(struct kma_match *m)
{
	const struct kma_rowsets *rs = &m->opts.rowsets;
	uint32_t s;

	if (!rs->nr)
		return 0;
	if (rs->nr > KMA_ROWSETS_MAX || !rs->keys) {
		errno = EINVAL;
		return -1;
	}
	m->sets = calloc(rs->nr, sizeof(*m->sets));
	if (!m->sets)
		return -1;
	m->nr_sets = rs->nr;
	for (s = 0; s < m->nr_sets; s++) {
		if (kma_map_init(&m->sets[s].map, 16))
			return -1;
		if (rs->timeline[s])
			m->timed[m->nr_timed++] = (uint8_t)s;
	}
	m->data_off = ALIGN8(sizeof(struct live));
	m->rows_off = m->data_off + ALIGN8(rs->data);
	return 0;
}

void kma_sets_free(struct kma_match *m)
{
	uint32_t s, i;

	for (s = 0; s < m->nr_sets; s++) {
		for (i = 0; i < m->sets[s].nr; i++)
			kma_quant_free(&m->sets[s].rows[i].life_q);
		kma_map_release(&m->sets[s].map);
		free(m->sets[s].rows);
		free(m->set_iter_live[s]);
	}
	free(m->sets);
}

/* The row of @key in set @rs, made on first sight: its index, or -1 out of memory. */
static int64_t row_of(struct kma_rowset *rs, uint64_t key, const char *name)
{
	uint32_t *idx;

	if (rs->nr && key == rs->last_key)
		return rs->last_row;
	idx = kma_map_find(&rs->map, key);
	if (idx) {
		rs->last_row = *idx;
	} else {
		if (kma_grow(&rs->rows, &rs->cap, rs->nr, sizeof(*rs->rows), 16) ||
		    kma_map_put(&rs->map, key, rs->nr))
			return -1;
		memset(&rs->rows[rs->nr], 0, sizeof(rs->rows[rs->nr]));
		rs->rows[rs->nr].address = key;
		rs->rows[rs->nr].name = name;
		rs->last_row = rs->nr++;
	}
	rs->last_key = key;
	return rs->last_row;
}

/* Selected allocation @ev, live as @l: its row in every set, accounted there. */
int kma_sets_alloc(struct kma_match *m, const struct kma_event *ev, struct live *l)
{
	uint32_t *rows = kma_live_rows(m, l);
	uint64_t keys[KMA_ROWSETS_MAX];
	const char *names[KMA_ROWSETS_MAX];
	uint32_t s;

	m->opts.rowsets.keys(m->opts.rowsets.ctx, ev, m->generation, keys, names,
			     (char *)l + m->data_off);
	for (s = 0; s < m->nr_sets; s++) {
		int64_t r = row_of(&m->sets[s], keys[s], names[s]);

		if (r < 0)
			return -1;
		rows[s] = (uint32_t)r;
		kma_row_alloc(&m->sets[s].rows[r], m->peak_epoch, l->bytes_alloc);
		if (m->opts.rowsets.timeline[s] &&
		    kma_timeline_add(m->opts.rowsets.timeline[s], ev->ts, rows[s],
				     l->bytes_alloc, 0))
			return -1;
	}
	return 0;
}

static int live_is_self(const struct kma_match *m, const struct live *l)
{
	return m->opts.rowsets.self &&
	       m->opts.rowsets.self(m->opts.rowsets.ctx, kma_live_rows(m, l));
}

/*
 * Selected allocation @l closed at @ts by a traced free or (@kind
 * KMA_FREE_IMPLICIT) a new allocation at its key: every set's row, the
 * reclaim's frees, lifetimes, timelines.
 */
int kma_sets_close(struct kma_match *m, const struct live *l, int kind, uint64_t ts)
{
	const uint32_t *rows = kma_live_rows(m, l);
	int traced = kind != KMA_FREE_IMPLICIT;
	/* made before the reclaim marker, freed by the reclaim: a cache's, not the recorder's */
	int reclaimed = traced && m->phases.reclaim && m->generation == m->phases.reclaim &&
			l->generation < m->phases.reclaim && !live_is_self(m, l);
	uint64_t life = ts > l->ts ? ts - l->ts : 0;
	uint32_t s;

	for (s = 0; s < m->nr_sets; s++) {
		struct kma_rowset *rs = &m->sets[s];

		kma_row_close(&rs->rows[rows[s]], m->peak_epoch, l->bytes_alloc, !traced,
			      m->generation);
		rs->rows[rows[s]].reclaim_freed += reclaimed;
		if (traced && rs->keep_life &&
		    kma_rows_keep_life(rs->rows, rs->nr, rows[s], life, &rs->life_budget))
			return -1;
		if (m->opts.rowsets.timeline[s] &&
		    kma_timeline_add(m->opts.rowsets.timeline[s], ts, rows[s], l->bytes_alloc, 1))
			return -1;
	}
	return 0;
}

/* Every event of the kind: the timelines' bins start at the first, whatever it does. */
int kma_sets_tick(struct kma_match *m, uint64_t ts)
{
	uint32_t s;

	/* every event: only the sets with a timeline, none without report.db or --html */
	for (s = 0; s < m->nr_timed; s++)
		if (kma_timeline_tick(m->opts.rowsets.timeline[m->timed[s]], ts))
			return -1;
	return 0;
}

void kma_sets_gen_end(struct kma_match *m)
{
	uint32_t s;

	for (s = 0; s < m->nr_sets; s++)
		kma_rows_gen_end(m->sets[s].rows, m->sets[s].nr);
}

void kma_sets_reclaim_mark(struct kma_match *m)
{
	uint32_t s;

	for (s = 0; s < m->nr_sets; s++)
		kma_rows_reclaim_mark(m->sets[s].rows, m->sets[s].nr);
}

void kma_sets_peak_end(struct kma_match *m)
{
	uint32_t s;

	for (s = 0; s < m->nr_sets; s++)
		kma_rows_peak_end(m->sets[s].rows, m->sets[s].nr, m->peak_epoch);
}

/* A live selected allocation at the end: the recorder's, each iteration's, the tail. */
static void finish_live(struct kma_match *m, const struct live *l)
{
	const uint32_t *rows = kma_live_rows(m, l);
	uint32_t n = m->phases.iters, k = l->generation - m->phases.first_iter, s;
	int self = live_is_self(m, l);
	/* made after the last marker: the settle tail, too young for a verdict */
	int tail = m->nr_gens > 1 && l->generation == m->nr_gens - 1;

	for (s = 0; s < m->nr_sets; s++) {
		struct kma_caller *c = &m->sets[s].rows[rows[s]];

		c->self_live += self;
		if (n && l->generation >= m->phases.first_iter && k < n)
			m->set_iter_live[s][(size_t)rows[s] * n + k]++;
		if (tail) {
			c->tail_live++;
			c->tail_live_bytes += l->bytes_alloc;
		}
	}
}

/* The end of the trace, after the last generation's growth and the peak. */
int kma_sets_finish(struct kma_match *m)
{
	const struct live *l;
	size_t pos = 0;
	uint32_t s;

	for (s = 0; s < m->nr_sets; s++)
		if (kma_rows_iter_init(m->sets[s].rows, m->sets[s].nr, m->phases.iters,
				       &m->set_iter_live[s]))
			return -1;
	while ((l = kma_pairs_next_in_memory(m->lives, &pos)))	/* counts: any order */
		if (l->selected)
			finish_live(m, l);
	return 0;
}

const struct kma_caller *kma_match_set_rows(const struct kma_match *m, uint32_t s,
					    uint32_t *nr)
{
	*nr = s < m->nr_sets ? m->sets[s].nr : 0;
	return *nr ? m->sets[s].rows : NULL;
}

void kma_match_set_keep_lifetimes(struct kma_match *m, uint32_t s, uint64_t exact)
{
	if (s < m->nr_sets) {
		m->sets[s].keep_life = 1;
		m->sets[s].life_budget.max = exact ? exact : KMA_QUANT_EXACT_MAX;
	}
}

struct kma_quant *kma_match_set_lifetimes(const struct kma_match *m, uint32_t s, uint32_t row)
{
	if (s >= m->nr_sets || !m->sets[s].keep_life || row >= m->sets[s].nr ||
	    !m->sets[s].rows[row].life_q.n)
		return NULL;
	return &m->sets[s].rows[row].life_q;
}

int kma_match_set_lifetimes_bucketed(const struct kma_match *m, uint32_t s)
{
	return s < m->nr_sets && m->sets[s].life_budget.over;
}

/* The live selected allocations' rows in one set, for kma_rows_ages. */
struct set_walk {
	const struct kma_match	*m;
	size_t			pos;
	uint32_t		s;
};

static int walk_set(void *ctx, uint32_t *row, uint64_t *ts)
{
	struct set_walk *w = ctx;
	const struct live *l;

	while ((l = kma_pairs_next_in_memory(w->m->lives, &w->pos)))	/* ages: any order */
		if (l->selected) {
			*row = kma_live_rows(w->m, l)[w->s];
			*ts = l->ts;
			return 1;
		}
	return 0;
}

int kma_match_set_ages(struct kma_match *m, uint32_t s, uint64_t end_ts)
{
	struct set_walk w = { .m = m, .s = s };
	struct kma_rowset *rs;
	uint32_t i;

	if (s >= m->nr_sets) {
		errno = EINVAL;
		return -1;
	}
	rs = &m->sets[s];
	for (i = 0; i < rs->nr; i++)
		rs->rows[i].age_min = rs->rows[i].age_median = rs->rows[i].age_max = 0;
	return kma_rows_ages(rs->rows, rs->nr, end_ts, walk_set, &w);
}
