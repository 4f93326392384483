/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-match.h - alloc/free pairing and per-caller accounting.
 *
 * Pure C, no I/O. Events go in through kma_match_event(); finished allocations
 * (freed, implicitly freed, or still live at the end) and unknown frees come out
 * through the sink callbacks, so a store can write them while reading goes on.
 */
#ifndef KMA_MATCH_H
#define KMA_MATCH_H

#include <stddef.h>
#include <stdint.h>
#include "kma-event.h"
#include "kma-quant.h"

struct kma_match;
struct kma_timeline;

/* One allocation, as handed to the sink once it is finished. */
struct kma_alloc_row {
	uint64_t	ptr;
	uint64_t	call_site;
	uint64_t	bytes_req;
	uint64_t	bytes_alloc;
	uint64_t	gfp_flags;
	uint64_t	alloc_ts;
	uint64_t	free_ts;	/* valid when free_kind >= 0 */
	uint64_t	free_call_site;	/* valid for traced frees */
	const char	*caller;	/* name of call_site (stable) */
	const char	*free_caller;	/* NULL unless traced free */
	const char	*cache;
	const char	*comm;
	int		alloc_kind;	/* enum kma_ev_type */
	int		free_kind;	/* KMA_EV_KFREE, KMA_EV_CACHE_FREE, KMA_FREE_IMPLICIT, -1 live */
	int		alloc_cpu;
	int		free_cpu;
	int		pid;
	int		free_pid;
	int		node;
	int		accounted;
	int		kmalloc_type;	/* enum kma_kmalloc_type (kmalloc events) */
	uint32_t	caller_id;
	uint32_t	generation;
	uint32_t	stack_id;	/* the allocation's stack (kma_stacks), 0: none */
	uint32_t	free_stack_id;	/* the traced free's stack, 0: none */
	int		selected;	/* inside the filter (kma_match_opts.filter) */
	int		orphaned;	/* live when its module was unloaded */
	/* a matcher with row sets: what their keys() kept of it (kma_rowsets.data) */
	const void	*kind_data;
};

/* A free of a pointer that is not live (allocated before the trace, or alloc lost). */
struct kma_free_row {
	uint64_t	ts;
	uint64_t	ptr;
	uint64_t	call_site;
	const char	*caller;
	const char	*comm;
	int		kind;		/* KMA_EV_KFREE or KMA_EV_CACHE_FREE */
	int		cpu;
	int		pid;
	uint32_t	stack_id;	/* the free's stack, 0: none */
};

struct kma_sink {
	void	*ctx;
	/* Return 0, or -1 to make kma_match_event() fail (e.g. store error). */
	int	(*alloc_done)(void *ctx, const struct kma_alloc_row *row);
	int	(*unknown_free)(void *ctx, const struct kma_free_row *row);
};

/* What a report filter (kma-select.h) says of an allocation event: KMA_SEL_* bits. */
enum { KMA_SEL_OUT = 1, KMA_SEL_SELF = 2 };
/* classify an allocation event: KMA_SEL_* bits */
typedef unsigned int (*kma_select_fn)(void *ctx, const struct kma_event *ev);

/* Turns a call site address into a stable name; the string must outlive the matcher. */
typedef const char *(*kma_resolve_fn)(void *ctx, uint64_t addr);

/*
 * Name of the function, module or file of a call site: an interned string
 * (equal names are the same pointer), never NULL.
 */
typedef const char *(*kma_group_fn)(void *ctx, uint64_t addr, enum kma_group g);

/* The folded name of a stack id (0: no stack), interned; for -g stack. */
typedef const char *(*kma_stack_name_fn)(void *ctx, uint32_t stack_id);

/* The kmalloc size class of bytes_alloc, as the kernel names the caches. */
void kma_kmalloc_class(char *buf, size_t len, uint64_t bytes_alloc);
/* The kmalloc cache of an allocation of @bytes_alloc in family @type (enum kma_kmalloc_type). */
void kma_kmalloc_cache(char *buf, size_t len, int type, uint64_t bytes_alloc);

struct kma_caller {
	uint64_t	address;
	const char	*name;
	uint64_t	total;		/* sum of bytes_alloc */
	uint64_t	slack;		/* sum of bytes_alloc - bytes_req */
	uint64_t	net;		/* bytes_alloc still live */
	uint64_t	allocs;
	uint64_t	frees;		/* traced frees of this caller's allocations */
	uint64_t	implicit_frees;
	uint64_t	failed_allocs;	/* ptr == 0, in no other total */
	uint64_t	live;		/* allocations still live */
	uint64_t	live_slack;	/* slack of those */
	uint64_t	temporary;	/* freed (traced free) within opts.temp_ns */
	uint64_t	life_min;	/* alloc -> traced free, ns, over life_n frees */
	uint64_t	life_max;
	/*
	 * 128 bits: durations of up to 2^64 ns each, over up to 2^64 frees; an
	 * hour-long life times 2^22 frees already passes 2^64. The means fit.
	 */
	unsigned __int128 life_sum;
	uint64_t	life_n;
	uint64_t	net_at_peak;	/* its live bytes at the moment of the overall peak */
	uint64_t	age_min;	/* ages of its live allocations at the end, ns */
	uint64_t	age_max;	/* (valid after kma_match_finish, when live > 0) */
	unsigned __int128 age_sum;	/* 128 bits, as life_sum */
	uint32_t	grew_gens;	/* generations at whose end its net was higher */
	uint32_t	max_grow_run;	/* longest run of consecutive such generations */
	const char	*module;	/* module of the call site, NULL: vmlinux/unknown */
	uint64_t	orphans;	/* live when its module was unloaded (all unloads) */
	uint64_t	orphan_bytes;
	uint64_t	orphans_live;	/* of those, still live at the end */
	uint64_t	orphans_live_bytes;
	/* leak verdicts (kma-leak.h) */
	const char	*cache;		/* cache of its first allocation; NULL: kmalloc */
	uint32_t	last_free_gen;	/* 1 + generation of its last free; 0: never freed */
	uint64_t	tail_live;	/* live at the end and made after the last marker */
	uint64_t	tail_live_bytes;
	uint64_t	age_median;	/* median age of its live allocations at the end, ns */
	/* the leak experiment (kma-leak.h), valid after kma_match_finish */
	uint64_t	self_live;	/* live at the end, the recorder's own (KMA_SEL_SELF) */
	uint64_t	reclaim_live;	/* live at the "reclaim" marker */
	uint64_t	reclaim_freed;	/* of those, freed (traced) in the reclaim phase */
	const uint64_t	*iter_live;	/* live at the end, made in "iteration K": [K - 1] */
	uint32_t	nr_iters;	/* 0: no iterations (then iter_live is NULL) */
	/* private to the matcher */
	uint64_t	snap_net;
	uint32_t	grow_run;
	uint32_t	peak_epoch;
	struct kma_quant life_q;	/* with opts.keep_lifetimes */
};

/* A generation: from its marker (generation 0: the trace start) to the next one. */
struct kma_generation {
	uint64_t	ts;		/* marker timestamp; 0 for generation 0 */
	const char	*label;		/* marker text after the prefix; "start" for 0 */
	uint64_t	allocs;		/* allocations made in it */
	uint64_t	bytes;		/* their bytes_alloc */
	uint64_t	live;		/* of those, still live at the end of the trace */
	uint64_t	live_bytes;
	uint64_t	frees;		/* free events (any kind) that happened in it */
};

struct kma_totals {
	uint64_t	total;
	uint64_t	slack;
	uint64_t	net;
	uint64_t	allocs;
	uint64_t	frees;		/* every free event: matched + unknown + null */
	/*
	 * Whose unknown and null frees unknown_frees and null_frees count (and
	 * frees with them): kma_match_opts.free_scope.
	 */
	int		free_scope;
	uint64_t	matched_frees;
	uint64_t	unknown_frees;
	uint64_t	null_frees;
	uint64_t	implicit_frees;
	uint64_t	failed_allocs;
	uint64_t	live;
	uint64_t	callers;	/* callers with at least one allocation */
	uint64_t	ignored;	/* events left out by --kmalloc-only */
	uint64_t	counted;	/* events of the kind that neither allocate nor free */
	uint64_t	unselected;	/* allocations outside the filter */
	uint64_t	peak_net;	/* highest net seen */
	uint64_t	peak_ts;	/* when it was first reached */
	uint64_t	end_ts;		/* as given to kma_match_finish() */
	uint64_t	temporary;
	/*
	 * The recorder's own allocations (KMA_SEL_SELF) among those the time,
	 * generation and pattern filters keep, whether --exclude-self then
	 * dropped them (they are in unselected) or not (they are in the totals).
	 */
	uint64_t	self_allocs;
	uint64_t	self_bytes;
	/*
	 * Traced frees by lifetime in decades from 1 us: [0] under 1 us, [k]
	 * under 10^k us, [9] the rest (the --html lifetimes chart).
	 */
	uint64_t	life_decades[10];
	uint64_t	stacked;	/* allocations with a stack */
	uint64_t	unknown_size;	/* the unknown frees' own size (the kind's unit) */
};

/* A module load/unload seen in the trace (module:module_load / module_free). */
struct kma_module {
	const char	*name;
	uint64_t	load_ts;	/* 0: not seen */
	uint64_t	free_ts;	/* 0: not unloaded */
	uint64_t	left;		/* allocations of its call sites live at unload */
	uint64_t	left_bytes;
	uint64_t	left_live;	/* of those, still live at the end of the trace */
	uint64_t	left_live_bytes;
};

/* kmalloc allocations of one caller with one (bytes_req, bytes_alloc): for sizing advice. */
struct kma_size {
	uint32_t	caller_id;
	uint64_t	bytes_req;
	uint64_t	bytes_alloc;
	uint64_t	allocs;
	uint64_t	live;		/* of those, live at the end */
	uint64_t	live_at_peak;	/* of those, live at the overall peak of net */
	uint32_t	peak_epoch;	/* private to the matcher */
};

/* What one module unload left behind from one call site. */
struct kma_leftover {
	uint32_t	module;		/* index in kma_match_modules() */
	uint32_t	caller_id;
	uint64_t	allocs;		/* live at the unload */
	uint64_t	bytes;
	uint64_t	live;		/* of those, still live at the end */
	uint64_t	live_bytes;
};

/*
 * A filtered report's unknown and null frees: no allocation of theirs is in
 * the trace, so only what the freeing event says can select them (its task,
 * its time and generation).
 */
enum kma_free_scope {
	KMA_FREES_ALL,		/* no filter: the whole trace's */
	KMA_FREES_FILTERED,	/* the filter's, by the free's time, generation and select_free */
	KMA_FREES_WHOLE,	/* a filter that cannot apply to them (--caller, --cache): the
				 * whole trace's, counted apart, never in frees */
};

/* "filter" (KMA_FREES_FILTERED) or "trace": the reports' name of a free scope. */
const char *kma_free_scope_name(int scope);

/* Which allocations a report is about; the others are matched but not counted. */
struct kma_filter {
	int64_t		generation;	/* -1: any */
	const char	*gen_label;	/* or the first generation with this label */
	uint64_t	since;		/* alloc ts >= since */
	uint64_t	until;		/* alloc ts < until; 0: no bound */
};

/* The most groupings a matcher with row sets keeps at once. */
#define KMA_ROWSETS_MAX	8

/*
 * Row sets: every allocation accounted in @nr groupings at once (the page
 * kind's order, migrate type, gfp, task, ...), each a struct kma_caller
 * array kept by kma-rows.h, instead of the one grouping of opts.group_by.
 */
struct kma_rowsets {
	uint32_t	nr;		/* 0: none, the matcher groups by opts.group_by */
	/*
	 * The key and name (NULL: a number) of selected allocation @ev, made in
	 * generation @gen, in each set; @data: rowsets.data bytes kept with it
	 * for the sink (kma_alloc_row.kind_data).
	 */
	void		(*keys)(void *ctx, const struct kma_event *ev, uint32_t gen,
				uint64_t *keys, const char **names, void *data);
	/*
	 * Is the allocation in rows @rows (one per set) the recorder's own (its
	 * self_live, not freed by the reclaim)? Asked only where it counts.
	 */
	int		(*self)(void *ctx, const uint32_t *rows);
	void		*ctx;
	size_t		data;		/* bytes of kind data per live allocation */
	/* per set: its live pages or bytes over time, by row (NULL: none; not owned) */
	struct kma_timeline *timeline[KMA_ROWSETS_MAX];
};

struct kma_match_opts {
	int		kmalloc_only;	/* only kmalloc, kmalloc_node and kfree */
	kma_resolve_fn	resolve;	/* NULL: names are "0x<hex>" */
	void		*resolve_ctx;
	kma_resolve_fn	module_of;	/* module of a call site, or NULL (same ctx) */
	enum kma_group	group_by;	/* KMA_GROUP_CALLER unless a report asks */
	kma_group_fn	group_name;	/* for function/module/file (same ctx) */
	kma_stack_name_fn stack_name;	/* for -g stack */
	void		*stack_ctx;
	int		filtered;	/* apply filter */
	struct kma_filter filter;
	kma_select_fn	select;		/* NULL: every allocation is selected */
	void		*select_ctx;
	enum kma_free_scope free_scope;
	kma_select_fn	select_free;	/* KMA_FREES_FILTERED: an unknown or null free, by
					 * its task (select_ctx); NULL: every one */
	uint64_t	temp_ns;	/* "temporary" threshold, ns (0: 1 ms) */
	int		keep_lifetimes;	/* keep lifetimes for percentiles (kma-quant.h) */
	uint64_t	exact_lifetimes; /* of them kept exactly (0: KMA_QUANT_EXACT_MAX) */
	int		timeline;	/* bin live bytes and rates over time (kma-timeline.h) */
	struct kma_sink	sink;		/* callbacks may be NULL */
	/*
	 * The allocator this matcher accounts (match/kma-kind.h; 0: slab): the
	 * events of other kinds are left to their own matchers, untouched.
	 */
	enum kma_kind	kind;
	unsigned int	page_shift;	/* page kind: bytes of a page as a shift (0: 4 KiB) */
	/*
	 * A kind whose caller comes from the stack (kma_kind_ops.caller_from_stack)
	 * and an event with call_site 0: the caller frame's address of stack id
	 * (stack_ctx), 0 for none; NULL: every such row is "[no stack]".
	 */
	uint64_t	(*stack_caller)(void *ctx, uint32_t stack_id);
	int		in_pages;	/* page kind: sizes in pages, not bytes */
	struct kma_rowsets rowsets;	/* nr 0: one grouping, group_by */
};

struct kma_match *kma_match_alloc(const struct kma_match_opts *opts);
/* The options @m runs with (its defaults filled in). */
const struct kma_match_opts *kma_match_opts(const struct kma_match *m);
void kma_match_free(struct kma_match *m);

/*
 * A hint that event @ev of @m's kind comes a few events from now (only the
 * fields its kind's key() reads need be set): the live set's slot for it is
 * fetched into the cache meanwhile. Changes nothing @m computes.
 */
void kma_match_prefetch(const struct kma_match *m, const struct kma_event *ev);
/* 0 on success, -1 on out of memory or a sink error. */
int kma_match_event(struct kma_match *m, const struct kma_event *ev);

/*
 * Close the last generation at end_ts (the trace's last timestamp), compute
 * ages, and hand every still-live allocation to the sink (free_kind -1).
 * Call once, at the end.
 */
int kma_match_finish(struct kma_match *m, uint64_t end_ts);

/*
 * Walks the allocations live now, as the events that made them: sets ev's
 * type, ptr, call_site, bytes_alloc, cache and kmalloc_type (the rest 0).
 * Start with *pos = 0; 1 per allocation, then 0, in the order their records
 * lie in memory (repeatable; not the order of kma_match_finish's rows).
 * No event may reach the matcher during a walk.
 */
int kma_match_live_next(const struct kma_match *m, size_t *pos, struct kma_event *ev);

/*
 * After kma_match_finish() of a matcher grouped by call site (KMA_GROUP_CALLER):
 * a new, finished matcher whose rows are those call sites' rows regrouped by
 * @g (KMA_GROUP_FUNCTION, _MODULE or _FILE, whose keys are the call site's),
 * in first-seen order, as a matcher grouped by @g would have them. Counts and
 * sums add up, life and age min/max combine; grew_gens, max_grow_run,
 * age_median, cache and module stay 0/NULL. Its totals are @m's (callers:
 * the groups with allocations); it has no generations, sizes, modules,
 * timeline or lifetimes. NULL: out of memory, or EINVAL.
 */
struct kma_match *kma_match_regroup(const struct kma_match *m, enum kma_group g);

/* Set the time window of the filter (absolute ns); before the first event. */
void kma_match_set_window(struct kma_match *m, uint64_t since, uint64_t until);

/* The generation the filter selected (-1: none matched yet / no generation filter). */
int64_t kma_match_selected_generation(const struct kma_match *m);

const struct kma_module *kma_match_modules(const struct kma_match *m, uint32_t *nr);
const struct kma_size *kma_match_sizes(const struct kma_match *m, uint32_t *nr);
const struct kma_leftover *kma_match_leftovers(const struct kma_match *m, uint32_t *nr);

/*
 * The lifetimes of caller id (with opts.keep_lifetimes), for kma_quant_pct;
 * NULL for no such caller. Exact unless the matcher held more than
 * opts.exact_lifetimes of them (kma-quant.h).
 */
struct kma_quant *kma_match_lifetimes(struct kma_match *m, uint32_t caller_id);
/* 1 when some caller's lifetimes are in buckets, not exact. */
int kma_match_lifetimes_bucketed(const struct kma_match *m);

/* The over-time series (opts.timeline), complete after kma_match_finish; else NULL. */
const struct kma_timeline *kma_match_timeline(const struct kma_match *m);

/* Row set @s's rows in first-seen order (opts.rowsets); NULL and 0 for none. */
const struct kma_caller *kma_match_set_rows(const struct kma_match *m, uint32_t s,
					    uint32_t *nr);
/*
 * Keep the traced frees' lifetimes per row of set @s, exactly while the set
 * holds at most @exact of them (0: KMA_QUANT_EXACT_MAX); before the first event.
 */
void kma_match_set_keep_lifetimes(struct kma_match *m, uint32_t s, uint64_t exact);
/* Row @row's lifetimes in set @s, for kma_quant_pct; NULL: none kept or none yet. */
struct kma_quant *kma_match_set_lifetimes(const struct kma_match *m, uint32_t s, uint32_t row);
/* 1 when some row of set @s has its lifetimes in buckets, not exact. */
int kma_match_set_lifetimes_bucketed(const struct kma_match *m, uint32_t s);
/*
 * After kma_match_finish: the ages at @end_ts of the live allocations of
 * every row of set @s, as its rows' age_min, age_median and age_max (0 with
 * none live). 0, or -1 out of memory.
 */
int kma_match_set_ages(struct kma_match *m, uint32_t s, uint64_t end_ts);

const struct kma_totals *kma_match_totals(const struct kma_match *m);
const struct kma_generation *kma_match_generations(const struct kma_match *m, uint32_t *nr);
/* Callers in first-seen order; *nr receives the count. Valid until the next event. */
const struct kma_caller *kma_match_callers(const struct kma_match *m, uint32_t *nr);

#endif /* KMA_MATCH_H */
