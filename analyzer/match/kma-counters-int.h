/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-counters-int.h - the counters tracker's state, shared by
 * kma-counters.c (events, rows) and kma-counters-snap.c (snapshots).
 */
#ifndef KMA_COUNTERS_INT_H
#define KMA_COUNTERS_INT_H

#include "kma-counters.h"
#include "kma-map.h"
#include "kma-strpool.h"

struct kma_pairs;

/* One snapshot as its parts come in. */
struct snap {
	struct kma_cnt_snap	pub;
	uint8_t			*have;		/* [pub.parts]: part seen */
	struct kma_cnt_entry	*e;		/* the parts' entries, names interned in c->names */
	size_t			n, cap;
	char			why[120];
	int			broken;		/* a part was malformed, twice or disagreeing */
};

/* A cache as the trace names it. */
struct tcache {
	const char	*name;
	uint64_t	objsize;	/* bytes_alloc of its allocations, 0: none seen */
	int64_t		allocs, frees, implicit;	/* in the slabinfo interval */
};

/* A call site's net in the allocinfo interval. */
struct tsite {
	uint64_t	call_site;
	int64_t		net, allocs;
};

enum { IV_BEFORE, IV_IN, IV_AFTER };

struct kma_counters {
	struct kma_strpool	*names;
	struct kma_pairs	*lives;
	struct snap		snaps[KMA_CNT_KINDS * KMA_CNT_PHASES];
	struct kma_cnt_snap	pub[KMA_CNT_KINDS * KMA_CNT_PHASES];	/* after the check */
	int			iv[KMA_CNT_KINDS];	/* where the stream is: IV_* */
	int			end_first[KMA_CNT_KINDS]; /* the end came before any start */
	struct kma_map		cache_map;	/* interned name -> index in caches */
	/*
	 * What an allocation's cache was found to be, keyed by what the event
	 * carries: its cache name's pointer (the reader interns names), or
	 * COUNTERS_KMALLOC | kmalloc type << 32 | bytes_alloc: no name built,
	 * measured, interned and looked up per event.
	 */
	struct kma_map		cache_memo;
	struct tcache		*caches;
	size_t			nr_caches, cap_caches;
	struct kma_map		site_map;	/* call site -> index in sites */
	struct tsite		*sites;
	size_t			nr_sites, cap_sites;
	int64_t			slab_bytes;	/* the trace's slab bytes in the meminfo interval */
	struct kma_cnt_totals	tot;
	struct kma_cnt_slab	*slab;
	size_t			nr_slab, cap_slab;
	struct kma_cnt_mem	*mem;
	size_t			nr_mem, cap_mem;
	struct kma_cnt_alloc	*alloc;
	size_t			nr_alloc, cap_alloc;
	int			finished;
	/* kma_counters_alloc()'s matcher, until the first counter marker */
	const struct kma_match	*follow;
};

/* A counter marker's part into its snapshot; the interval it opens or closes. 0, -1 oom. */
int kma_counters_part(struct kma_counters *c, const struct kma_event *ev);
/* Every snapshot's completeness and why, at the end. */
void kma_counters_check_snaps(struct kma_counters *c);
void kma_counters_free_snaps(struct kma_counters *c);
static inline struct snap *kma_counters_snap(struct kma_counters *c, int kind, int phase)
{
	return &c->snaps[kind * KMA_CNT_PHASES + phase];
}

#endif /* KMA_COUNTERS_INT_H */
