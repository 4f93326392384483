/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-pagealloc.h - page allocator accounting (kma-analyze --pages), no I/O.
 *
 * The page kind on the one matcher (kma-match.h, kind KMA_KIND_PAGE, a row
 * set per grouping): mm_page_alloc is paired with mm_page_free by pfn (or
 * struct page pointer on kernels from before 2015), as perf kmem --page pairs
 * them, through the same code and kma-pairs rules as slab objects: a free of a page that is not live is an
 * unknown free, an allocation at a live pfn closes the old one (implicit
 * free), a failed allocation (pfn -1) is counted apart and never live.
 *
 * Which events free: mm_page_free only. Since v2.6.33-5426-gc475dab every
 * freed page gets an mm_page_free_direct (renamed mm_page_free in 3.3 by
 * "mm: tracepoint: rename page-free events", whose message says so), from
 * free_pages_prepare() on later kernels; mm_page_free_batched (ex
 * mm_pagevec_free) is an extra event for the pages of a batch, after their
 * mm_page_free, so it is counted, never a second free (6.18 traces: 13,418
 * of 13,418, and 4,526 of 4,526 in tests/fixtures/pages.dat, after an
 * mm_page_free of the same pfn with no allocation of it in between, though
 * not always as the next event). mm_page_alloc_zone_locked and
 * mm_page_pcpu_drain move pages between the buddy lists and the per-CPU
 * lists: counted, no allocation or free of any user.
 *
 * A free closes the allocation at its pfn whatever its order: the pages of
 * the allocation (1 << its order) come back. Pages freed one by one after a
 * split_page() are unknown frees past the first, as in perf kmem.
 *
 * Rows: every allocation is accounted to one row of each grouping at once
 * (order, migrate type, gfp flags, task, pid, caller function, stack); the
 * report picks the groupings it prints.
 */
#ifndef KMA_PAGEALLOC_H
#define KMA_PAGEALLOC_H

#include <stdint.h>

#include "kma-event.h"
#include "kma-match.h"
#include "kma-quant.h"
#include "kma-timeline.h"

enum kma_page_group {
	KMA_PG_ORDER,
	KMA_PG_MIGRATE,
	KMA_PG_GFP,
	KMA_PG_COMM,
	KMA_PG_PID,
	KMA_PG_FUNCTION,	/* the first stack frame outside the page allocator */
	KMA_PG_STACK,		/* the folded stack */
	KMA_PG_GENERATION,	/* 0 until the first kma marker, then one per marker */
	KMA_PG_NR,
};

/* "order", "migrate", "gfp", "comm", "pid", "function", "stack", "generation"; NULL beyond. */
const char *kma_page_group_name(int g);
/* -g NAME for --pages: 0 and *out, -1 for a grouping pages do not have. */
int kma_page_group_parse(const char *s, int *out);
/* The kernel's name of migrate type @mt ("Unmovable", ...) or NULL for one it does not fix. */
const char *kma_migrate_name(int mt);

/*
 * A row of a grouping is a struct kma_caller (match/kma-match.h), kept by the
 * row accounting every kind shares (match/kma-rows.h), in pages:
 *   address	order, migratetype, gfp value, pid, or the name's pointer
 *   name	gfp text, comm, function, folded stack; NULL: a number
 *   total	pages allocated; net: pages live; total - net: pages freed
 *   allocs, live, frees (traced), implicit_frees: allocations
 *   net_at_peak	its live pages at the overall peak (after finish)
 *   tail_live, tail_live_bytes	live at the end, made after the last marker
 *		(allocations, pages)
 *   grew_gens, max_grow_run, last_free_gen, self_live, reclaim_live,
 *   reclaim_freed, iter_live, nr_iters: as for slab callers (kma-leak.h)
 *   age_min, age_median, age_max: after kma_pagealloc_ages
 * Slab-only members (slack, cache, module, life_*, orphans) stay 0.
 */

/* A generation: from its marker (generation 0: the trace start) to the next one. */
struct kma_page_gen {
	uint64_t	ts;		/* marker timestamp; 0 for generation 0 */
	const char	*label;		/* marker text after the prefix; "start" for 0 */
	uint64_t	allocs, pages;	/* allocations made in it, their pages */
	uint64_t	live, live_pages;	/* of those, still live at the end */
	uint64_t	frees;		/* mm_page_free events in it (paired or unknown) */
};

/* Ages at the end of the trace of a row's live allocations, ns (0 with none live). */
struct kma_page_age {
	uint64_t	min, median, max;
};

struct kma_page_totals {
	uint64_t	ev[5];		/* records by kind, KMA_EV_PAGE_* - KMA_EV_PAGE_ALLOC */
	uint64_t	allocs, failed, frees, implicit_frees, unknown_frees;
	uint64_t	pages_alloc, pages_freed, pages_live, live_allocs;
	uint64_t	unknown_pages;	/* pages of the unknown frees, by their own order */
	uint64_t	peak_pages, peak_ts;
	uint64_t	stacked;	/* allocations with a stack */
	uint64_t	unselected;	/* allocations left out by the filter or window */
	int		by_ptr;		/* keys are struct page pointers */
};

/* A finished (or, at the end, still live) page allocation, for report.db. */
struct kma_page_alloc {
	uint64_t	pfn;		/* or the struct page pointer */
	uint64_t	alloc_ts, free_ts;	/* free_ts 0: live at the end */
	uint64_t	gfp_flags;
	const char	*gfp_text;
	const char	*comm;
	int		pid;
	int		migratetype;
	uint32_t	order;
	uint32_t	stack_id;
	uint32_t	generation;	/* kma markers before the allocation */
	int		free_kind;	/* KMA_EV_PAGE_FREE, KMA_FREE_IMPLICIT, -1: live */
};

struct kma_page_opts {
	/* the name of an allocation stack's caller function, interned; NULL: no stacks */
	const char	*(*caller_of)(void *ctx, uint32_t stack_id);
	const char	*(*stack_name)(void *ctx, uint32_t stack_id);
	void		*ctx;
	/* every finished allocation (NULL: none wanted); nonzero stops the run */
	int		(*done)(void *ctx, const struct kma_page_alloc *a);
	void		*done_ctx;
	/*
	 * live pages over time (match/kma-timeline.h, in pages, not bytes; NULL: none):
	 * every page event ticks it, an allocation adds its pages and a free (traced or
	 * implicit) takes them back, under the id of its comm row (KMA_PG_COMM).
	 */
	struct kma_timeline	*timeline;
	/*
	 * the same under the id of its function row (KMA_PG_FUNCTION; NULL: none): the
	 * series by caller function, for a trace with stacks
	 */
	struct kma_timeline	*fn_timeline;
	/*
	 * the report's filter (--comm, --pid, --caller, --exclude-self): KMA_SEL_*
	 * bits of kma-match.h for an allocation event, whose call_site is then its
	 * caller function's interned name (0: none); NULL: every allocation counts.
	 * An allocation left out is paired all the same, so that its free is no
	 * unknown free, and neither it nor its free is counted anywhere.
	 */
	unsigned int	(*select)(void *ctx, const struct kma_event *ev);
	void		*select_ctx;
};

struct kma_pagealloc;

struct kma_pagealloc *kma_pagealloc_new(const struct kma_page_opts *o);
void kma_pagealloc_free(struct kma_pagealloc *m);
/* One event (page kinds, and KMA_EV_MARKER: the next generation; others are ignored). 0, or -1 out of memory / sink stop. */
int kma_pagealloc_event(struct kma_pagealloc *m, const struct kma_event *ev);
/* Page event @ev comes soon: kma_match_prefetch(). */
void kma_pagealloc_prefetch(const struct kma_pagealloc *m, const struct kma_event *ev);
/*
 * Counts only the allocations made in [@since, @until) (absolute ns, @until 0:
 * no end), before the first event; the others are left out as by the filter.
 */
void kma_pagealloc_set_window(struct kma_pagealloc *m, uint64_t since, uint64_t until);
/* The end of the trace: live allocations to the sink as live. 0 or -1. */
int kma_pagealloc_finish(struct kma_pagealloc *m);
const struct kma_page_totals *kma_pagealloc_totals(const struct kma_pagealloc *m);
/* The rows of grouping @g, in first-seen order. */
const struct kma_caller *kma_pagealloc_rows(const struct kma_pagealloc *m, int g,
					   uint32_t *nr);

/* The generations (valid after kma_pagealloc_finish), @nr of them: markers + 1. */
const struct kma_page_gen *kma_pagealloc_gens(const struct kma_pagealloc *m, uint32_t *nr);
/*
 * The ages at @end_ts of the live allocations of each row of grouping @g,
 * into @out (one per row, kma_pagealloc_rows' order): the median of an even
 * count is the mean of the middle two, rounded down, as for slab callers.
 * 0, or -1 out of memory.
 */
int kma_pagealloc_ages(struct kma_pagealloc *m, int g, uint64_t end_ts,
		       struct kma_page_age *out);

/*
 * Ends timeline @tl (fed through kma_page_opts.timeline or fn_timeline) at @end_ts,
 * its top series picked from the rows of grouping @g (KMA_PG_COMM, KMA_PG_FUNCTION)
 * by live pages at the end, then pages allocated. 0, or -1 out of memory.
 */
int kma_pagealloc_finish_timeline(const struct kma_pagealloc *m, struct kma_timeline *tl,
				  int g, uint64_t end_ts);

/*
 * Keep the traced frees' lifetimes (alloc -> mm_page_free) per row of grouping
 * @g, exactly while the grouping holds at most @exact of them (0:
 * KMA_QUANT_EXACT_MAX), then in buckets (kma-quant.h).
 */
void kma_pagealloc_keep_lifetimes(struct kma_pagealloc *m, int g, uint64_t exact);
/* Row @row's lifetimes in grouping @g, for kma_quant_pct; NULL: none. */
struct kma_quant *kma_pagealloc_lifetimes(const struct kma_pagealloc *m, int g, uint32_t row);
/* 1 when some row of grouping @g has its lifetimes in buckets, not exact. */
int kma_pagealloc_lifetimes_bucketed(const struct kma_pagealloc *m, int g);

#endif /* KMA_PAGEALLOC_H */
