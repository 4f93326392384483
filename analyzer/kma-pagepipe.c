// SPDX-License-Identifier: GPL-2.0
/*
 * kma-pagepipe.c - kma-analyze --pages wiring: see kma-pagepipe.h.
 */
#include <stdlib.h>

#include "match/kma-match.h"
#include "kma-pagepipe.h"
#include "report/kma-report-pages.h"
#include "sites/kma-stacks.h"

struct kma_pagepipe {
	struct kma_pagealloc	*m;
	struct kma_stacks	*stacks;	/* the page events' own */
	struct kma_store	*db;		/* where finished allocations go, or NULL */
	struct kma_store_pages	store;
	struct kma_timeline	*tl;		/* live pages over time (report.db, --html) or NULL */
	struct kma_timeline	*fn_tl;		/* the same, its series by caller function */
};

/*
 * A finished allocation to report.db's writer thread. Its stack is named
 * here, on the thread that interns stacks: the writer only copies the
 * (interned, stable) names.
 */
static int keep_row(void *ctx, const struct kma_page_alloc *a)
{
	struct kma_pagepipe *p = ctx;
	const char *fn = NULL, *stack = NULL;

	if (!p->db)
		return 0;
	if (a->stack_id) {
		fn = kma_stacks_page_caller(p->stacks, a->stack_id);
		stack = kma_stacks_folded(p->stacks, a->stack_id);
	}
	return kma_store_page_row(p->db, a, fn, stack);
}

void kma_pagepipe_stream(struct kma_pagepipe *p, struct kma_store *db)
{
	p->db = db;
}

struct kma_pagepipe *kma_pagepipe_open(struct kma_reader *reader, struct kma_sites *sites,
				     int keep)
{
	struct kma_pagepipe *p = calloc(1, sizeof(*p));
	struct kma_page_opts po = {
		.caller_of = kma_stacks_page_caller, .stack_name = kma_stacks_folded,
	};

	if (!p)
		return NULL;
	p->stacks = kma_stacks_alloc(sites);
	po.ctx = p->stacks;
	if (keep & KMA_PAGEPIPE_ROWS) {
		po.done = keep_row;
		po.done_ctx = p;
	}
	if (keep & KMA_PAGEPIPE_TIMELINE) {
		p->tl = kma_timeline_alloc();
		p->fn_tl = kma_timeline_alloc();
		po.timeline = p->tl;
		po.fn_timeline = p->fn_tl;
	}
	p->m = p->stacks && (!(keep & KMA_PAGEPIPE_TIMELINE) || (p->tl && p->fn_tl)) ?
	       kma_pagealloc_new(&po) : NULL;
	if (!p->m) {
		kma_pagepipe_free(p);
		return NULL;
	}
	kma_reader_want_pages(reader, 1);
	return p;
}

void kma_pagepipe_free(struct kma_pagepipe *p)
{
	if (!p)
		return;
	kma_pagealloc_free(p->m);
	kma_stacks_free(p->stacks);
	kma_timeline_free(p->tl);
	kma_timeline_free(p->fn_tl);
	free(p);
}

void kma_pagepipe_lifetimes(struct kma_pagepipe *p, int g, uint64_t exact)
{
	if (g >= 0) {
		kma_pagealloc_keep_lifetimes(p->m, g, exact);
		return;
	}
	kma_pagealloc_keep_lifetimes(p->m, KMA_PG_FUNCTION, exact);
	kma_pagealloc_keep_lifetimes(p->m, KMA_PG_COMM, exact);
}

int kma_pagepipe_feed(struct kma_pagepipe *p, const struct kma_event *ev)
{
	struct kma_event e = *ev;

	if (ev->stack_depth &&
	    kma_stacks_intern(p->stacks, ev->stack, ev->stack_depth, &e.stack_id))
		return -1;
	return kma_pagealloc_event(p->m, &e);
}

int kma_pagepipe_finish(struct kma_pagepipe *p, uint64_t end_ts)
{
	if (kma_pagealloc_finish(p->m))
		return -1;
	if (!p->tl)
		return 0;
	/* the top series: tasks in one, caller functions in the other */
	return kma_pagealloc_finish_timeline(p->m, p->tl, KMA_PG_COMM, end_ts) ||
	       kma_pagealloc_finish_timeline(p->m, p->fn_tl, KMA_PG_FUNCTION, end_ts) ? -1 : 0;
}

const struct kma_store_pages *kma_pagepipe_store(struct kma_pagepipe *p,
					      const struct kma_trace_info *info)
{
	p->store = (struct kma_store_pages){
		.totals = kma_pagealloc_totals(p->m), .page_size = info->sys_page_size,
		.timeline = p->tl,
	};
	p->store.series = kma_pagealloc_rows(p->m, KMA_PG_COMM, &p->store.nr_series);
	if (p->store.totals->stacked) {	/* callers only with stacks: no invented ones */
		p->store.fn_timeline = p->fn_tl;
		p->store.fn_series = kma_pagealloc_rows(p->m, KMA_PG_FUNCTION,
							&p->store.nr_fn_series);
	}
	return &p->store;
}

int kma_pagepipe_print(FILE *out, const struct kma_pagepipe *p, struct kma_page_report *pr)
{
	pr->m = p->m;
	return kma_report_pages(out, pr);
}
