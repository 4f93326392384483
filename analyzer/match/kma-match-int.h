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
};

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
