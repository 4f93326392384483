/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-match-int.h - the matcher's internals, shared by kma-match.c (pairing
 * and accounting) and kma-match-time.c (generations, peak, modules, ages).
 */
#ifndef KMA_MATCH_INT_H
#define KMA_MATCH_INT_H

#include "kma-match.h"
#include "kma-grow.h"
#include "kma-map.h"
#include "kma-pairs.h"
#include "kma-strpool.h"
#include "kma-timeline.h"
#include "kma-leak.h"
#include "kma-kind.h"
#include "kma-rows.h"

/* The payload of an allocation in the live set (kma-pairs). */
struct live {
	uint64_t	ptr;
	uint64_t	call_site;
	uint64_t	bytes_req;
	uint64_t	bytes_alloc;
	uint64_t	gfp_flags;
	uint64_t	ts;
	const char	*cache;
	const char	*comm;
	uint32_t	caller_id;
	uint32_t	generation;
	int32_t		cpu;
	int32_t		pid;
	int16_t		node;
	int8_t		kind;
	int8_t		accounted;
	uint8_t		selected;	/* inside the filter */
	int8_t		kmalloc_type;	/* kma_event.kmalloc_type */
	uint8_t		self;		/* the recorder's own (KMA_SEL_SELF) */
	uint32_t	orphan_mod;	/* 1 + index in leftovers when live at its module's unload */
	uint32_t	size_idx;	/* 1 + index in sizes, 0: not tracked */
	uint32_t	stack_id;	/* kma_event.stack_id */
};

/* One row set of a matcher with row sets (kma_rowsets): a grouping's rows. */
struct kma_rowset {
	struct kma_map		map;	/* key -> index in rows */
	uint64_t		last_key;	/* rows[last_row]'s, when nr: the next key is */
	uint32_t		last_row;	/* often the same (order, migrate type, gfp, task) */
	struct kma_caller	*rows;
	uint32_t		nr;
	size_t			cap;
	int			keep_life;	/* kma_match_set_keep_lifetimes */
	struct kma_quant_budget	life_budget;
};

struct kma_match {
	struct kma_match_opts	opts;
	const struct kma_kind_ops *ops;		/* opts.kind's */
	struct kma_pairs	*lives;		/* ptr -> struct live */
	struct kma_map		caller_map;	/* call_site -> index in callers */
	struct kma_map		size_map;	/* (caller, req, alloc) -> index in sizes */
	struct kma_size		*sizes;
	uint32_t		nr_sizes;
	size_t			cap_sizes;
	struct kma_caller	*callers;
	uint32_t		nr_callers;
	size_t			cap_callers;
	uint32_t		generation;	/* current: index in gens */
	struct kma_generation	*gens;
	uint32_t		nr_gens;
	size_t			cap_gens;
	int64_t			sel_gen;	/* generation the filter selects, -1: none yet */
	struct kma_module	*modules;
	uint32_t		nr_modules;
	size_t			cap_modules;
	struct kma_leftover	*leftovers;
	uint32_t		nr_leftovers;
	size_t			cap_leftovers;
	uint32_t		peak_epoch;	/* bumped at every new peak of net */
	struct kma_totals	totals;
	struct kma_strpool	*names;		/* for the default "0x<hex>" names */
	int			finished;
	struct kma_timeline	*tl;		/* opts.timeline, else NULL */
	struct kma_quant_budget	life_budget;	/* opts.keep_lifetimes: exact ones held */
	struct kma_leak_phases	phases;		/* the leak experiment's generations */
	uint64_t		*iter_live;	/* [caller * phases.iters + K - 1], at the end */
	/*
	 * opts.rowsets: each live allocation's payload is a struct live, its
	 * kind data at data_off, then its row in every set at rows_off.
	 */
	struct kma_rowset	*sets;
	uint32_t		nr_sets;
	uint32_t		nr_timed;	/* the sets with a timeline: timed[] */
	uint8_t			timed[KMA_ROWSETS_MAX];
	size_t			data_off, rows_off;
	uint64_t		*set_iter_live[KMA_ROWSETS_MAX];
};

/* The rows of live allocation @l in each set (a matcher with row sets). */
static inline uint32_t *kma_live_rows(const struct kma_match *m, const struct live *l)
{
	return (uint32_t *)((char *)l + m->rows_off);
}

/* kma-match-sets.c: the row sets' share of what kma-match.c and kma-match-time.c do. */
int kma_sets_init(struct kma_match *m);
void kma_sets_free(struct kma_match *m);
int kma_sets_alloc(struct kma_match *m, const struct kma_event *ev, struct live *l);
int kma_sets_close(struct kma_match *m, const struct live *l, int kind, uint64_t ts);
int kma_sets_tick(struct kma_match *m, uint64_t ts);
void kma_sets_gen_end(struct kma_match *m);
void kma_sets_reclaim_mark(struct kma_match *m);
void kma_sets_peak_end(struct kma_match *m);
int kma_sets_finish(struct kma_match *m);

/* The row of @key (created with @name, or the call site's name when NULL); NULL: no memory. */
struct kma_caller *kma_match_get_caller(struct kma_match *m, uint64_t key, uint32_t *id,
					const char *name);
int kma_gen_marker(struct kma_match *m, const struct kma_event *ev);
int kma_gen_module(struct kma_match *m, const struct kma_event *ev);
int kma_gen_finish(struct kma_match *m, uint64_t end_ts);

/* Before a caller's net changes: keep what it held at the latest peak. */
static inline void kma_peak_snap(struct kma_match *m, struct kma_caller *c)
{
	kma_row_snap(c, m->peak_epoch);
}

/* The same for a size's live count. */
static inline void kma_size_snap(struct kma_match *m, struct kma_size *s)
{
	if (s->peak_epoch != m->peak_epoch) {
		s->live_at_peak = s->live;
		s->peak_epoch = m->peak_epoch;
	}
}

#endif /* KMA_MATCH_INT_H */
