// SPDX-License-Identifier: GPL-2.0
/*
 * kma-match-time.c - what the matcher tracks over time: generations (trace
 * markers), growth of each caller's live bytes from one generation to the
 * next, module unloads and what they leave behind, the peak, and the ages of
 * what is still live at the end.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kma-match-int.h"
#include "kma-stats.h"

/*
 * End of a generation: count, for every caller, whether its live bytes grew
 * over it, and the run of consecutive generations in which they did.
 */
static void snapshot_growth(struct kma_match *m)
{
	kma_rows_gen_end(m->callers, m->nr_callers);
	kma_sets_gen_end(m);
}

/* A marker ends the current generation and starts the next one. */
int kma_gen_marker(struct kma_match *m, const struct kma_event *ev)
{
	struct kma_generation *g;

	if (kma_grow(&m->gens, &m->cap_gens, m->nr_gens, sizeof(*m->gens), 16))
		return -1;
	snapshot_growth(m);
	g = &m->gens[m->nr_gens];
	memset(g, 0, sizeof(*g));
	g->ts = ev->ts;
	g->label = ev->label;
	m->generation = m->nr_gens++;
	kma_leak_phase_add(&m->phases, m->generation, ev->label);
	if (m->phases.reclaim == m->generation) {	/* what the reclaim may free */
		kma_rows_reclaim_mark(m->callers, m->nr_callers);
		kma_sets_reclaim_mark(m);
	}
	if (m->opts.filtered && m->sel_gen < 0 && m->opts.filter.gen_label && ev->label &&
	    !strcmp(m->opts.filter.gen_label, ev->label))
		m->sel_gen = m->generation;
	return 0;
}

static struct kma_module *new_module(struct kma_match *m, const char *name)
{
	struct kma_module *mod;

	if (kma_grow(&m->modules, &m->cap_modules, m->nr_modules, sizeof(*m->modules), 8))
		return NULL;
	mod = &m->modules[m->nr_modules++];
	memset(mod, 0, sizeof(*mod));
	mod->name = name;
	return mod;
}

/* The latest record of a module that is loaded (not yet unloaded), or NULL. */
static struct kma_module *loaded_module(struct kma_match *m, const char *name)
{
	uint32_t i;

	for (i = m->nr_modules; i-- > 0;)
		if (!strcmp(m->modules[i].name, name))
			return m->modules[i].free_ts ? NULL : &m->modules[i];
	return NULL;
}

/* The leftover entry of (this unload, caller), searched from first: one unload's entries. */
static struct kma_leftover *leftover_of(struct kma_match *m, uint32_t first, uint32_t module,
					uint32_t caller_id)
{
	struct kma_leftover *e;
	uint32_t i;

	for (i = first; i < m->nr_leftovers; i++)
		if (m->leftovers[i].caller_id == caller_id)
			return &m->leftovers[i];
	if (kma_grow(&m->leftovers, &m->cap_leftovers, m->nr_leftovers, sizeof(*m->leftovers),
		     16))
		return NULL;
	e = &m->leftovers[m->nr_leftovers++];
	memset(e, 0, sizeof(*e));
	e->module = module;
	e->caller_id = caller_id;
	return e;
}

/*
 * module_free: every allocation its call sites made that is still live now
 * is left behind by the unload (Pekka Enberg's question). A scan of the live
 * set per unload: unloads are rare, the live set is what memory holds anyway.
 */
int kma_gen_module(struct kma_match *m, const struct kma_event *ev)
{
	struct kma_module *mod;
	struct live *l;
	uint32_t idx, first;
	size_t pos = 0;

	if (!ev->label || m->nr_sets)	/* row sets have no call-site modules */
		return 0;
	if (ev->type == KMA_EV_MODULE_LOAD) {
		mod = new_module(m, ev->label);
		if (!mod)
			return -1;
		mod->load_ts = ev->ts;
		return 0;
	}
	mod = loaded_module(m, ev->label);
	if (!mod && !(mod = new_module(m, ev->label)))	/* loaded before the trace */
		return -1;
	mod->free_ts = ev->ts;
	idx = (uint32_t)(mod - m->modules);
	first = m->nr_leftovers;
	while ((l = kma_pairs_next(m->lives, &pos, NULL))) {
		struct kma_leftover *e;
		struct kma_caller *c = &m->callers[l->caller_id];

		if (!l->selected || l->orphan_mod || !c->module || strcmp(c->module, ev->label))
			continue;
		e = leftover_of(m, first, idx, l->caller_id);
		if (!e)
			return -1;
		l->orphan_mod = (uint32_t)(e - m->leftovers) + 1;
		e->allocs++;
		e->bytes += l->bytes_alloc;
		mod->left++;
		mod->left_bytes += l->bytes_alloc;
		c->orphans++;
		c->orphan_bytes += l->bytes_alloc;
	}
	return 0;
}

/* The live allocations inside the filter, for kma_rows_ages. */
struct live_walk {
	const struct kma_pairs	*lives;
	size_t			pos;
};

static int walk_selected(void *ctx, uint32_t *row, uint64_t *ts)
{
	struct live_walk *w = ctx;
	const struct live *l;

	while ((l = kma_pairs_next_in_memory(w->lives, &w->pos)))	/* ages: any order */
		if (l->selected) {
			*row = l->caller_id;
			*ts = l->ts;
			return 1;
		}
	return 0;
}

/*
 * The leak experiment's counts of every caller at the end: the recorder's own
 * live allocations, and those each iteration left behind.
 */
/* Does stack @id go through the recorder's ring-buffer paths? Kept per stack in @map. */
static uint32_t stack_is_self(struct kma_match *m, struct kma_map *map, uint32_t id)
{
	uint32_t *v, self;

	if (!id || !m->opts.stack_name)
		return 0;
	v = kma_map_find(map, id);
	if (v)
		return *v;
	self = (uint32_t)kma_leak_recorder_frames(m->opts.stack_name(m->opts.stack_ctx, id));
	kma_map_put(map, id, self);	/* out of memory: found again next time */
	return self;
}

static int experiment_counts(struct kma_match *m)
{
	uint32_t n = m->phases.iters;
	const struct live *l;
	struct kma_map stacks;
	size_t pos = 0;

	if (kma_rows_iter_init(m->callers, m->nr_callers, n, &m->iter_live) ||
	    kma_map_init(&stacks, 64))
		return -1;
	while ((l = kma_pairs_next_in_memory(m->lives, &pos))) {	/* counts: any order */
		if (!l->selected)
			continue;
		m->callers[l->caller_id].self_live +=
			l->self || stack_is_self(m, &stacks, l->stack_id);
		if (n && l->generation >= m->phases.first_iter &&
		    l->generation < m->phases.first_iter + n)
			m->iter_live[(size_t)l->caller_id * n + l->generation -
				     m->phases.first_iter]++;
	}
	kma_map_release(&stacks);
	return 0;
}

/* The end of the trace: close the last generation, ages, peak holdings, leftovers. */
int kma_gen_finish(struct kma_match *m, uint64_t end_ts)
{
	struct live_walk w = { .lives = m->lives };
	const struct live *l;
	size_t pos = 0;
	uint32_t i;

	m->totals.end_ts = end_ts;
	snapshot_growth(m);
	kma_rows_peak_end(m->callers, m->nr_callers, m->peak_epoch);
	kma_sets_peak_end(m);
	if (m->nr_sets)		/* their ages on demand: kma_match_set_ages */
		return kma_sets_finish(m);
	for (i = 0; i < m->nr_sizes; i++)
		kma_size_snap(m, &m->sizes[i]);
	/* sums only: in memory's order, no cache miss per allocation */
	while ((l = kma_pairs_next_in_memory(m->lives, &pos))) {
		struct kma_caller *c;
		uint64_t age;

		if (!l->selected)
			continue;
		c = &m->callers[l->caller_id];
		age = end_ts > l->ts ? end_ts - l->ts : 0;
		c->age_sum += age;	/* min, median, max: kma_rows_ages */
		/* made after the last marker: the settle tail, too young for a verdict */
		if (m->nr_gens > 1 && l->generation == m->nr_gens - 1) {
			c->tail_live++;
			c->tail_live_bytes += l->bytes_alloc;
		}
		if (l->orphan_mod) {
			struct kma_leftover *e = &m->leftovers[l->orphan_mod - 1];
			struct kma_module *mod = &m->modules[e->module];

			e->live++;
			e->live_bytes += l->bytes_alloc;
			mod->left_live++;
			mod->left_live_bytes += l->bytes_alloc;
			c->orphans_live++;
			c->orphans_live_bytes += l->bytes_alloc;
		}
	}
	if (experiment_counts(m))
		return -1;
	return kma_rows_ages(m->callers, m->nr_callers, end_ts, walk_selected, &w);
}
