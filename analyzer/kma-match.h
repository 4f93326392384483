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

#include <stdint.h>
#include "kma-event.h"

struct kma_match;

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
	uint32_t	caller_id;
	uint32_t	generation;
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
};

struct kma_sink {
	void	*ctx;
	/* Return 0, or -1 to make kma_match_event() fail (e.g. store error). */
	int	(*alloc_done)(void *ctx, const struct kma_alloc_row *row);
	int	(*unknown_free)(void *ctx, const struct kma_free_row *row);
};

/* Turns a call site address into a stable name; the string must outlive the matcher. */
typedef const char *(*kma_resolve_fn)(void *ctx, uint64_t addr);

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
	uint64_t	matched_frees;
	uint64_t	unknown_frees;
	uint64_t	null_frees;
	uint64_t	implicit_frees;
	uint64_t	failed_allocs;
	uint64_t	live;
	uint64_t	callers;	/* callers with at least one allocation */
	uint64_t	ignored;	/* events left out by --kmalloc-only */
};

struct kma_match_opts {
	int		kmalloc_only;	/* only kmalloc, kmalloc_node and kfree */
	kma_resolve_fn	resolve;	/* NULL: names are "0x<hex>" */
	void		*resolve_ctx;
	struct kma_sink	sink;		/* callbacks may be NULL */
};

struct kma_match *kma_match_alloc(const struct kma_match_opts *opts);
void kma_match_free(struct kma_match *m);

/* 0 on success, -1 on out of memory or a sink error. */
int kma_match_event(struct kma_match *m, const struct kma_event *ev);

/* Hand every still-live allocation to the sink (free_kind -1). Call once, at the end. */
int kma_match_finish(struct kma_match *m);

const struct kma_totals *kma_match_totals(const struct kma_match *m);
const struct kma_generation *kma_match_generations(const struct kma_match *m, uint32_t *nr);
/* Callers in first-seen order; *nr receives the count. Valid until the next event. */
const struct kma_caller *kma_match_callers(const struct kma_match *m, uint32_t *nr);

#endif /* KMA_MATCH_H */
