/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-pairs.h - the pairing rules: which free closes which allocation.
 *
 * One live set per trace, keyed by pointer, each entry carrying a payload of
 * the caller's size (the matcher keeps a whole allocation record, the
 * trace-cmd plugin what it prints). kma-analyze, its live mode and
 * plugin_kma.so all pair through here, so a rule changes in one place:
 *
 *  - An allocation at pointer 0 failed: it is not live (KMA_PAIR_FAILED).
 *  - An allocation at a pointer that is still live closes the earlier one
 *    (KMA_PAIR_IMPLICIT, an "implicit free": the object went away through
 *    a path with no tracepoint); the new one then takes its place.
 *  - A free of a pointer <= KMA_NULL_PTR_MAX is a kfree(NULL)-style no-op
 *    (KMA_PAIR_NULL), whatever is live there.
 *  - A free of any other pointer that is not live is an unknown free
 *    (KMA_PAIR_UNKNOWN): its allocation is older than the trace, or lost.
 *  - Any free kind closes any allocation kind (KMA_PAIR_FREED): kfree may
 *    free a slab-cache object, kmem_cache_free a kmalloc one.
 *
 * The set knows pointers only; event kinds, sizes and times are the
 * payload's. Payload slots are reused as allocations end, so memory follows
 * the number of live allocations, not the length of the trace.
 */
#ifndef KMA_PAIRS_H
#define KMA_PAIRS_H

#include <stddef.h>
#include <stdint.h>

struct kma_pairs;

enum kma_pair_kind {
	KMA_PAIR_FAILED,	/* allocation at pointer 0: not live */
	KMA_PAIR_NEW,		/* allocation: now live */
	KMA_PAIR_IMPLICIT,	/* allocation at a live pointer: old closed, new live */
	KMA_PAIR_FREED,		/* free of a live allocation: old closed */
	KMA_PAIR_NULL,		/* free of a pointer <= KMA_NULL_PTR_MAX */
	KMA_PAIR_UNKNOWN,	/* free of a pointer that is not live */
};

/* What one event did to the set. */
struct kma_pair {
	enum kma_pair_kind	kind;
	/*
	 * NEW, IMPLICIT: the new allocation's payload, not initialised: the
	 * caller sets every field it will read. Valid until the next kma_pairs_on_alloc() (the slab may move):
	 * find it again by pointer. NULL otherwise.
	 */
	void			*live;
	/*
	 * IMPLICIT, FREED: the closed allocation's payload (after a free its old
	 * slot, after an implicit free a copy), for the caller to account or
	 * print; valid until the next call on the set.
	 * NULL otherwise.
	 */
	const void		*old;
};

/*
 * A live set whose entries carry payload_size bytes (sizeof the caller's
 * record, > 0); hint is how many live allocations to size for (0: small).
 * NULL when out of memory or payload_size is 0.
 */
struct kma_pairs *kma_pairs_alloc(size_t payload_size, size_t hint);
void kma_pairs_free(struct kma_pairs *p);

/*
 * An allocation at ptr. 0, with *out filled; -1 when out of memory, with
 * the set as it was (an implicit free never needs memory, so -1 only comes
 * for a new pointer).
 */
int kma_pairs_on_alloc(struct kma_pairs *p, uint64_t ptr, struct kma_pair *out);
/* A free of ptr (any kind). Cannot fail. */
void kma_pairs_on_free(struct kma_pairs *p, uint64_t ptr, struct kma_pair *out);

/* The payload of the live allocation at ptr (writable), or NULL. */
void *kma_pairs_find(const struct kma_pairs *p, uint64_t ptr);
/*
 * A hint that an event at @ptr comes soon (a few events ahead): its slot in
 * the pointer index is fetched into the cache meanwhile. Changes nothing.
 */
void kma_pairs_prefetch(const struct kma_pairs *p, uint64_t ptr);
/* How many allocations are live. */
size_t kma_pairs_count(const struct kma_pairs *p);

/*
 * Walks the live allocations (the end of a trace, a module unload): start
 * with *pos = 0; each call returns the next payload (writable) and sets *ptr
 * (if not NULL), or returns NULL at the end. The order depends only on the
 * sequence of events, so a run is repeatable. No event may be fed during a
 * walk.
 */
void *kma_pairs_next(const struct kma_pairs *p, size_t *pos, uint64_t *ptr);
/*
 * The same walk in the order the payloads lie in memory: no cache miss per
 * allocation, for a walk whose result does not depend on the order (sums,
 * medians). Also repeatable, but not kma_pairs_next()'s order. Start with
 * *pos = 0; NULL at the end. No event may be fed during a walk.
 */
void *kma_pairs_next_in_memory(const struct kma_pairs *p, size_t *pos);

/* Forgets every live allocation and returns the payloads' memory. */
void kma_pairs_clear(struct kma_pairs *p);

#endif /* KMA_PAIRS_H */
