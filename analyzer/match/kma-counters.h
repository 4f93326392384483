/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-counters.h - the trace checked against the kernel's own counters
 * (kma-analyze --counters). No I/O.
 *
 * The counter markers (lib/kma-cntmark.h) come in as KMA_EV_COUNTER events
 * beside the kmem events, in stream order. Between the first part of a
 * kind's "start" snapshot and the first part of its "end" snapshot the
 * tracker counts, per slab cache, the trace's allocations, frees and
 * implicit frees (pairing through kma-pairs, as the matcher does); the
 * trace's slab bytes; and every call site's net bytes. kma_counters_finish()
 * then sets them beside the kernel's deltas: what the kernel counted and the
 * trace did not moved through paths without a kmem event
 * (kmem_cache_alloc_bulk/free_bulk, kfree_rcu batches, ...).
 */
#ifndef KMA_COUNTERS_H
#define KMA_COUNTERS_H

#include <stddef.h>
#include <stdint.h>
#include "kma-event.h"
#include "kma-cntmark.h"
#include "kma-match.h"

struct kma_counters;

/* One snapshot (kind, phase) as the trace holds it. */
struct kma_cnt_snap {
	int		kind;		/* enum kma_cnt_kind */
	int		phase;		/* enum kma_cnt_phase */
	int		seen;		/* parts in the trace */
	int		complete;	/* every part, once, none malformed: used */
	uint32_t	parts;		/* as the parts say (0: none seen) */
	uint32_t	got;		/* distinct parts seen */
	uint64_t	ts;		/* timestamp of its first part */
	const char	*why;		/* seen but not complete: why, e.g. "part 2/3 missing" */
};

/* A slab cache's row: the kernel's objects beside the trace's. */
enum kma_cnt_slab_state {
	KMA_CNT_SLAB_BOTH,	/* in slabinfo (trace counts may be 0) */
	KMA_CNT_SLAB_MERGED,	/* not in slabinfo; counted in target's row (same objsize) */
	KMA_CNT_SLAB_UNKNOWN,	/* not in slabinfo, no single cache of its objsize */
};

struct kma_cnt_slab {
	const char	*cache;
	const char	*target;	/* MERGED: the slabinfo cache it is counted in */
	int		state;		/* enum kma_cnt_slab_state */
	uint64_t	objsize;	/* slabinfo's (end, else start); trace's otherwise, 0: unknown */
	int64_t		k_start;	/* active objects; a cache absent from a snapshot: 0 */
	int64_t		k_end;
	int64_t		k_delta;	/* k_end - k_start */
	/* the trace over the interval, of this cache itself */
	int64_t		allocs;
	int64_t		frees;		/* traced frees (kfree, kmem_cache_free) */
	int64_t		implicit;	/* implicit frees */
	int64_t		t_delta;	/* allocs - frees - implicit, + the merged caches' (BOTH) */
	int64_t		untraced;	/* BOTH: k_delta - t_delta; else 0 */
};

/* A /proc/meminfo field; the trace's slab bytes on the "Slab" row. */
struct kma_cnt_mem {
	const char	*field;
	int64_t		k_start;	/* kB */
	int64_t		k_end;
	int64_t		k_delta;	/* bytes: (k_end - k_start) * 1024 */
	int		has_trace;	/* Slab only */
	int64_t		t_delta;	/* bytes */
	int64_t		untraced;	/* bytes: k_delta - t_delta */
};

/* A function of /proc/allocinfo (its tags summed) beside kma's net for its call sites. */
struct kma_cnt_alloc {
	const char	*func;
	int64_t		k_start;	/* bytes of its tags; an absent tag counts 0 */
	int64_t		k_end;
	int64_t		k_bytes;	/* k_end - k_start */
	int64_t		k_calls;	/* Δ calls */
	int64_t		t_net;		/* bytes allocated - freed by its call sites in the interval */
	int64_t		t_allocs;
	int64_t		untraced;	/* k_bytes - t_net */
	uint32_t	tags;		/* tags of this function */
};

/* What kma_counters_finish() found, beside the rows. */
struct kma_cnt_totals {
	uint64_t	bad_markers;	/* counter markers kma could not read at all */
	const char	*first_bad;	/* the first one's reason */
	/* slab interval: frees of objects older than the trace whose cache is unknown (kfree) */
	uint64_t	unknown_frees;
	/* meminfo interval: frees of objects older than the trace (bytes unknown, not counted) */
	uint64_t	mem_unknown_frees;
	uint64_t	slab_from, slab_to;	/* the intervals, 0/0: none */
	uint64_t	mem_from, mem_to;
	uint64_t	alloc_from, alloc_to;
};

/*
 * @pairs: NULL, or a matcher fed the same slab events after the tracker
 * (kma_match_event() after kma_counters_event(), never the counter markers),
 * alive until the tracker is finished. Until the first counter marker its
 * live set stands in for the tracker's own, which then costs nothing on a
 * trace without markers. A page, percpu or vmalloc matcher, or a
 * kmalloc-only one, is not followed.
 */
struct kma_counters *kma_counters_alloc(const struct kma_match *pairs);
void kma_counters_free(struct kma_counters *c);

/* A kmem or KMA_EV_COUNTER event (others are ignored). 0, or -1 out of memory. */
int kma_counters_event(struct kma_counters *c, const struct kma_event *ev);

/*
 * After the last event: snapshots checked, rows built. @func_of names a call
 * site's function (KMA_GROUP_FUNCTION), NULL: allocinfo rows get no trace
 * side. 0, or -1 out of memory.
 */
int kma_counters_finish(struct kma_counters *c, kma_group_fn func_of, void *ctx);

/*
 * The kernel's and the trace's change of live objects of @cache over the
 * slabinfo interval, for a leak verdict: @cache is a cache name as the trace
 * has it (kmem_cache_alloc's name, or kmalloc's cache as kma_kmalloc_cache()
 * names it, e.g. "kmalloc-cg-64"). A cache counted in its merge target's row
 * gives the target's numbers. After kma_counters_finish().
 * 0 with *kernel (slabinfo's Δ active objects) and *trace (allocations -
 * frees - implicit frees in the trace) set; -1 when the trace has no complete
 * start and end slabinfo snapshots, or @cache is in neither and cannot be
 * placed ("merged, unknown target").
 */
int kma_counters_cache_delta(const struct kma_counters *c, const char *cache,
			     int64_t *kernel, int64_t *trace);

/* The snapshots: [kind * KMA_CNT_PHASES + phase], KMA_CNT_KINDS * KMA_CNT_PHASES of them. */
const struct kma_cnt_snap *kma_counters_snaps(const struct kma_counters *c);
/* 1 when both snapshots of @kind are complete, start before end. */
int kma_counters_usable(const struct kma_counters *c, int kind);
const struct kma_cnt_totals *kma_counters_totals(const struct kma_counters *c);
/* A row's state as report.db and the reports name it: "slabinfo", "merged", "merged-unknown". */
const char *kma_cnt_slab_state_name(int state);
/* Rows in slabinfo's order (then the trace-only caches by name). */
const struct kma_cnt_slab *kma_counters_slab(const struct kma_counters *c, size_t *n);
/*
 * The rows the reports show, in their order: those where something changed on
 * either side or that slabinfo lacks, by |untraced| (largest first), then name.
 * An array to free(); NULL: out of memory.
 */
const struct kma_cnt_slab **kma_counters_slab_shown(const struct kma_counters *c, size_t *n);
const struct kma_cnt_mem *kma_counters_mem(const struct kma_counters *c, size_t *n);
/* Rows by function name. */
const struct kma_cnt_alloc *kma_counters_alloc_rows(const struct kma_counters *c, size_t *n);

#endif /* KMA_COUNTERS_H */
