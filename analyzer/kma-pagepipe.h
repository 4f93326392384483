/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-pagepipe.h - kma-analyze --pages wiring: the page matcher, the
 * page events' own stacks (interned apart, so the slab rows' stack ids do not
 * move), the finished allocations streamed to report.db, the report.
 */
#ifndef KMA_PAGEPIPE_H
#define KMA_PAGEPIPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "match/kma-pagealloc.h"
#include "reader/kma-reader.h"
#include "report/kma-report-pages.h"
#include "report/kma-table.h"
#include "sites/kma-sites.h"
#include "store/kma-store.h"
#include "kma-options.h"

struct kma_pagepipe;

/* What kma_pagepipe_open keeps besides the totals and rows by grouping. */
#define KMA_PAGEPIPE_ROWS	1	/* the finished allocations, for report.db */
#define KMA_PAGEPIPE_TIMELINE	2	/* live pages over time (report.db, --html) */

/* Tells @reader to hand page events on; @keep: KMA_PAGEPIPE_*. NULL: out of memory. */
struct kma_pagepipe *kma_pagepipe_open(struct kma_reader *reader, struct kma_sites *sites,
				     int keep);
/* With KMA_PAGEPIPE_ROWS: the store the finished allocations stream to (before the first event). */
void kma_pagepipe_stream(struct kma_pagepipe *p, struct kma_store *db);
void kma_pagepipe_free(struct kma_pagepipe *p);
/*
 * The report's filter, before the first event: the --comm/--pid/--caller
 * patterns @sel[0..@nr) (kma-select.h; a page's caller is its caller
 * function), --exclude-self, and whether a time window will be set. The
 * report then counts a matcher of its own; report.db and the timeline keep
 * every allocation. 0, or -1 with the reason in @why.
 */
int kma_pagepipe_filter(struct kma_pagepipe *p, const struct kma_sel_arg *sel, int nr,
		       int exclude_self, int window, char *why, size_t len);
/*
 * --generation @gen (a number, or the first generation of that label): the
 * report counts only the allocations made in it; before kma_pagepipe_filter.
 */
void kma_pagepipe_generation(struct kma_pagepipe *p, const char *gen);
/* The report's window, absolute ns (@until 0: no end), before the first page event. */
void kma_pagepipe_set_window(struct kma_pagepipe *p, uint64_t since, uint64_t until);
/*
 * --lifetimes: keep them for grouping @g (-1: function and comm, the defaults),
 * @exact of them exactly (0: the default; kma-quant.h).
 */
void kma_pagepipe_lifetimes(struct kma_pagepipe *p, int g, uint64_t exact);
/* A page event (its raw stack interned here). 0, or -1 out of memory. */
int kma_pagepipe_feed(struct kma_pagepipe *p, const struct kma_event *ev);
/* Page event @ev (its type, ptr, page_by_ptr) comes soon: a cache hint. */
void kma_pagepipe_prefetch(const struct kma_pagepipe *p, const struct kma_event *ev);
/* The totals of every page allocation (no filter), for the summary by allocator. */
const struct kma_page_totals *kma_pagepipe_totals(const struct kma_pagepipe *p);
/* The end of the trace (@end_ts: the timeline's end): live allocations kept as live. 0 or -1. */
int kma_pagepipe_finish(struct kma_pagepipe *p, uint64_t end_ts);
/* What report.db gets (valid until kma_pagepipe_free). */
const struct kma_store_pages *kma_pagepipe_store(struct kma_pagepipe *p,
					      const struct kma_trace_info *info);
/*
 * What --html's page section charts: the report's allocations (with a filter,
 * its own timeline; else kma_pagepipe_store's). Valid until kma_pagepipe_free.
 */
const struct kma_store_pages *kma_pagepipe_view(struct kma_pagepipe *p,
					     const struct kma_trace_info *info);
/* The report @pr asks for (its matcher set here) on @out: 0 or -1. */
int kma_pagepipe_print(FILE *out, const struct kma_pagepipe *p, struct kma_page_report *pr);

#endif /* KMA_PAGEPIPE_H */
