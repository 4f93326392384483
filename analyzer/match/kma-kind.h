/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-kind.h - the allocator kinds: what makes slab, page, percpu and
 * vmalloc allocations differ, in one table, so that one matcher
 * (kma-match.h) pairs and accounts every kind.
 *
 * A kind says which of its event types allocate, free or are only counted;
 * the key its allocations are paired by in the live set (lib/kma-pairs); when
 * an allocation failed; its size; whether bytes_alloc - bytes_req is slack;
 * where its caller comes from; and the columns only it has. Everything else
 * (pairing rules, generations, peak, lifetimes, leak inputs, timelines,
 * filters, groupings) is the matcher's, the same for every kind. Adding a
 * kind: docs/architecture.md, "An allocator kind".
 */
#ifndef KMA_KIND_H
#define KMA_KIND_H

#include <stdint.h>

#include "kma-event.h"

/* What an event type does to its kind's live set. */
enum kma_ev_role {
	KMA_ROLE_NONE,		/* not an allocator event (markers, counters, ...) */
	KMA_ROLE_ALLOC,		/* an allocation: paired by its key */
	KMA_ROLE_FREE,		/* a free: closes the allocation at its key */
	KMA_ROLE_COUNT,		/* counted, never an allocation or a free (batched frees) */
};

/*
 * A page event's page_shift when the trace does not say (4 KiB pages): the
 * sizes of page allocations in bytes are pages << page_shift.
 */
#define KMA_PAGE_SHIFT_DEFAULT	12

struct kma_kind_ops {
	enum kma_kind	kind;
	const char	*name;		/* "slab", "page", "percpu", "vmalloc": --kind */
	/* The key of an allocation or free in the live set. */
	uint64_t	(*key)(const struct kma_event *ev);
	/* An allocation that failed: counted apart, never live. */
	int		(*failed)(const struct kma_event *ev);
	/* Bytes an allocation holds (page_shift: bytes of a page as a shift). */
	uint64_t	(*bytes)(const struct kma_event *ev, unsigned int page_shift);
	/* bytes_alloc - bytes_req is slack (slab); else the kind has none. */
	unsigned int	slack:1;
	/*
	 * The event's call_site names the caller; where it is 0 (the event
	 * has none, or an old layout lacks it) the caller is a stack frame
	 * (kma_match_opts.stack_caller), "[no stack]" without a stack.
	 */
	unsigned int	caller_from_stack:1;
	/* The columns only this kind has (report.db and -f csv), NULL-terminated. */
	const char * const *columns;
};

/*
 * The kind of an allocator event type; -1 for any other type. Inline, as
 * kma_ev_role(): the matcher asks both for every event.
 */
static inline int kma_kind_of_event(int type)
{
	if (type >= KMA_EV_KMALLOC && type <= KMA_EV_CACHE_FREE)
		return KMA_KIND_SLAB;
	if (kma_ev_is_page(type))
		return KMA_KIND_PAGE;
	if (kma_ev_is_percpu(type))
		return KMA_KIND_PERCPU;
	if (kma_ev_is_vmap(type))
		return KMA_KIND_VMALLOC;
	return -1;
}

/* What event type @type does (enum kma_ev_role). */
static inline enum kma_ev_role kma_ev_role(int type)
{
	switch (type) {
	case KMA_EV_KMALLOC:
	case KMA_EV_KMALLOC_NODE:
	case KMA_EV_CACHE_ALLOC:
	case KMA_EV_CACHE_ALLOC_NODE:
	case KMA_EV_PAGE_ALLOC:
	case KMA_EV_PERCPU_ALLOC:
	case KMA_EV_VMAP_ALLOC:
		return KMA_ROLE_ALLOC;
	case KMA_EV_KFREE:
	case KMA_EV_CACHE_FREE:
	case KMA_EV_PAGE_FREE:
	case KMA_EV_PERCPU_FREE:
	case KMA_EV_VMAP_FREE:
		return KMA_ROLE_FREE;
	/* an extra event after each page's mm_page_free; buddy <-> pcp list moves */
	case KMA_EV_PAGE_FREE_BATCHED:
	case KMA_EV_PAGE_ZONE_LOCKED:
	case KMA_EV_PAGE_PCPU_DRAIN:
		return KMA_ROLE_COUNT;
	default:
		return KMA_ROLE_NONE;
	}
}
/* The table entry of kind @k; NULL beyond KMA_KIND_NR. */
const struct kma_kind_ops *kma_kind_ops(enum kma_kind k);
/* "slab", ...: 0 and *out, -1 for no kind of that name. */
int kma_kind_parse(const char *s, enum kma_kind *out);
/* The name of kind @k, NULL beyond KMA_KIND_NR. */
const char *kma_kind_name(int k);

/*
 * A page key: kma-pairs reads a key <= KMA_NULL_PTR_MAX as a null free, but
 * pfn 0..16 are pages like any other: the pfn goes in with the top bit set,
 * which no pfn has (struct page pointers are kernel addresses: kept).
 */
static inline uint64_t kma_page_key(const struct kma_event *ev)
{
	return ev->page_by_ptr ? ev->ptr : ev->ptr | (1ULL << 63);
}

#endif /* KMA_KIND_H */
