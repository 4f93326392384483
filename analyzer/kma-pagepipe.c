// SPDX-License-Identifier: GPL-2.0
/*
 * kma-pagepipe.c - kma-analyze --pages wiring: see kma-pagepipe.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match/kma-match.h"
#include "match/kma-select.h"
#include "kma-pagepipe.h"
#include "report/kma-report-pages.h"
#include "sites/kma-stacks.h"

struct kma_pagepipe {
	struct kma_pagealloc	*m;		/* every allocation: report.db, the timeline */
	struct kma_pagealloc	*view;		/* the report's: == m, or filtered */
	struct kma_select	*select;	/* the view's filter, or NULL */
	struct kma_stacks	*stacks;	/* the page events' own */
	struct kma_store	*db;		/* where finished allocations go, or NULL */
	struct kma_store_pages	store;
	struct kma_timeline	*tl;		/* live pages over time (report.db, --html) or NULL */
	struct kma_timeline	*fn_tl;		/* the same, its series by caller function */
	/* with a filter and a timeline: the view's own, for --html's page section */
	struct kma_timeline	*view_tl, *view_fn_tl;
	struct kma_store_pages	view_store;
	/* --generation: the report's allocations are those made in it */
	const char		*gen_label;	/* the first generation so labelled, or NULL */
	int64_t			want_gen;	/* its number; -1: none (yet) */
	uint32_t		gen;		/* markers so far: the current generation */
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
	p->view = p->m;
	p->want_gen = -1;
	if (!p->m) {
		kma_pagepipe_free(p);
		return NULL;
	}
	kma_reader_want_pages(reader, 1);
	return p;
}

/* kma_select's name of a call site: the page matcher's is the interned function name. */
static const char *page_site_name(void *ctx, uint64_t site)
{
	(void)ctx;
	return (const char *)(uintptr_t)site;
}

/* The view's select: out of the chosen generation, else kma_select's verdict. */
static unsigned int page_select(void *ctx, const struct kma_event *ev)
{
	struct kma_pagepipe *p = ctx;

	if ((p->gen_label || p->want_gen >= 0) && p->want_gen != (int64_t)p->gen)
		return KMA_SEL_OUT;
	return kma_select_event(p->select, ev);
}

void kma_pagepipe_generation(struct kma_pagepipe *p, const char *gen)
{
	char *end;
	long long g = strtoll(gen, &end, 10);

	/* as the slab view reads it: a number, else the first generation of that label */
	if (*end || g < 0)
		p->gen_label = gen;
	else
		p->want_gen = g;
}

int kma_pagepipe_filter(struct kma_pagepipe *p, const struct kma_sel_arg *sel, int nr,
		       int exclude_self, int window, char *why, size_t len)
{
	struct kma_page_opts po = {
		.caller_of = kma_stacks_page_caller, .stack_name = kma_stacks_folded,
		.ctx = p->stacks, .select = page_select, .select_ctx = p,
	};
	int i;

	if (!nr && !exclude_self && !window && !p->gen_label && p->want_gen < 0)
		return 0;
	p->select = kma_select_alloc();
	if (!p->select)
		goto oom;
	kma_select_set_resolve(p->select, page_site_name, NULL);
	kma_select_exclude_self(p->select, exclude_self);
	for (i = 0; i < nr; i++) {
		struct kma_err e;

		if (kma_select_add(p->select, (enum kma_sel_kind)sel[i].kind, sel[i].arg, &e)) {
			snprintf(why, len, "%s", e.msg);
			return -1;
		}
	}
	if (p->tl) {	/* --html charts what the report counts */
		p->view_tl = kma_timeline_alloc();
		p->view_fn_tl = kma_timeline_alloc();
		if (!p->view_tl || !p->view_fn_tl)
			goto oom;
		po.timeline = p->view_tl;
		po.fn_timeline = p->view_fn_tl;
	}
	p->view = kma_pagealloc_new(&po);
	if (p->view)
		return 0;
	p->view = p->m;
oom:
	snprintf(why, len, "out of memory");
	return -1;
}

void kma_pagepipe_set_window(struct kma_pagepipe *p, uint64_t since, uint64_t until)
{
	kma_pagealloc_set_window(p->view, since, until);
}

void kma_pagepipe_free(struct kma_pagepipe *p)
{
	if (!p)
		return;
	if (p->view != p->m)
		kma_pagealloc_free(p->view);
	kma_pagealloc_free(p->m);
	kma_select_free(p->select);
	kma_stacks_free(p->stacks);
	kma_timeline_free(p->tl);
	kma_timeline_free(p->fn_tl);
	kma_timeline_free(p->view_tl);
	kma_timeline_free(p->view_fn_tl);
	free(p);
}

void kma_pagepipe_lifetimes(struct kma_pagepipe *p, int g, uint64_t exact)
{
	if (g >= 0) {
		kma_pagealloc_keep_lifetimes(p->view, g, exact);
		return;
	}
	kma_pagealloc_keep_lifetimes(p->view, KMA_PG_FUNCTION, exact);
	kma_pagealloc_keep_lifetimes(p->view, KMA_PG_COMM, exact);
}

void kma_pagepipe_prefetch(const struct kma_pagepipe *p, const struct kma_event *ev)
{
	kma_pagealloc_prefetch(p->m, ev);
	if (p->view != p->m)
		kma_pagealloc_prefetch(p->view, ev);
}

int kma_pagepipe_feed(struct kma_pagepipe *p, const struct kma_event *ev)
{
	struct kma_event e = *ev;

	if (ev->type == KMA_EV_MARKER) {
		p->gen++;
		if (p->gen_label && p->want_gen < 0 && ev->label &&
		    !strcmp(ev->label, p->gen_label))
			p->want_gen = p->gen;
	}
	if (ev->stack_depth &&
	    kma_stacks_intern(p->stacks, ev->stack, ev->stack_depth, &e.stack_id))
		return -1;
	if (p->view != p->m) {
		/* --caller sees the caller function: its interned name stands for the site */
		if (e.type == KMA_EV_PAGE_ALLOC)
			e.call_site = (uintptr_t)kma_stacks_page_caller(p->stacks, e.stack_id);
		if (kma_pagealloc_event(p->view, &e))
			return -1;
	}
	return kma_pagealloc_event(p->m, &e);
}

int kma_pagepipe_finish(struct kma_pagepipe *p, uint64_t end_ts)
{
	if (kma_pagealloc_finish(p->m) || (p->view != p->m && kma_pagealloc_finish(p->view)))
		return -1;
	if (!p->tl)
		return 0;
	if (p->view_tl &&
	    (kma_pagealloc_finish_timeline(p->view, p->view_tl, KMA_PG_COMM, end_ts) ||
	     kma_pagealloc_finish_timeline(p->view, p->view_fn_tl, KMA_PG_FUNCTION, end_ts)))
		return -1;
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

const struct kma_store_pages *kma_pagepipe_view(struct kma_pagepipe *p,
					     const struct kma_trace_info *info)
{
	struct kma_store_pages *v = &p->view_store;

	if (!p->view_tl)
		return kma_pagepipe_store(p, info);
	*v = (struct kma_store_pages){
		.totals = kma_pagealloc_totals(p->view), .page_size = info->sys_page_size,
		.timeline = p->view_tl,
	};
	v->series = kma_pagealloc_rows(p->view, KMA_PG_COMM, &v->nr_series);
	/* by function as soon as the trace has stacks, as the unfiltered chart */
	if (kma_pagealloc_totals(p->m)->stacked) {
		v->fn_timeline = p->view_fn_tl;
		v->fn_series = kma_pagealloc_rows(p->view, KMA_PG_FUNCTION, &v->nr_fn_series);
	}
	return v;
}

int kma_pagepipe_print(FILE *out, const struct kma_pagepipe *p, struct kma_page_report *pr)
{
	pr->m = p->view;
	return kma_report_pages(out, pr);
}

const struct kma_page_totals *kma_pagepipe_totals(const struct kma_pagepipe *p)
{
	return kma_pagealloc_totals(p->m);
}
