/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-pages.h - kma-analyze --pages: the page allocator report, as
 * text, CSV or JSON (kma-analyze(1), PAGES).
 */
#ifndef KMA_REPORT_PAGES_H
#define KMA_REPORT_PAGES_H

#include <stdio.h>

#include "match/kma-pagealloc.h"
#include "reader/kma-reader.h"
#include "kma-table.h"
#include "kma-report-callers.h"	/* enum kma_sort */

struct kma_page_report {
	struct kma_pagealloc		*m;	/* not const: ages are kept in its rows */
	const struct kma_trace_info	*info;
	int				group;	/* enum kma_page_group, -1: the default */
	uint64_t			limit;	/* rows per table, 0: all */
	enum kma_fmt			fmt;
	/*
	 * -s: total (pages allocated), net (pages live), allocs, frees or
	 * caller (the key, ascending); the tables' and --leaks' order.
	 */
	enum kma_sort			sort;
	/* kma-report-pages-time.c */
	int				what;	/* KMA_PAGE_REPORT_* */
	uint64_t			young_ns;	/* --young */
	const char * const		*growth;	/* --cache-growth list */
	struct kma_leak_show		show;		/* --all, --min-bytes */
};

enum {
	KMA_PAGE_REPORT_TABLES,		/* the summary and the tables */
	KMA_PAGE_REPORT_LEAKS,		/* --leaks */
	KMA_PAGE_REPORT_GENERATIONS,	/* --generations (kma-report-pages.c) */
	KMA_PAGE_REPORT_PEAK,		/* --peak */
	KMA_PAGE_REPORT_LIFETIMES,	/* --lifetimes */
};

/* The grouping the CSV/JSON report (and -g-less text's last table) uses: function with stacks, else order. */
int kma_report_pages_group(const struct kma_page_report *r);
/* The key cell of @row of grouping @g; its text in @buf too. */
int kma_report_pages_key(struct kma_table *t, int g, const struct kma_caller *row,
			 char *buf, size_t len);
/* Sorts @v[0..@n) by -s @sort, ties by name then key (qsort_r inside). */
void kma_report_pages_sort(const struct kma_caller **v, uint32_t n, enum kma_sort sort);
/* What -s @sort means for page rows, for the headers: "pages allocated", ... */
const char *kma_report_pages_sort_name(enum kma_sort sort);
/* --pages --leaks, --pages --peak (kma-report-pages-time.c): 0 or -1. */
int kma_report_page_peak(FILE *out, const struct kma_page_report *r);
int kma_report_page_lifetimes(FILE *out, const struct kma_page_report *r);
int kma_report_page_leaks(FILE *out, const struct kma_page_report *r);
/* The summary and the table(s) on @out (or the report r->what says): 0, or -1 (out of memory, write error). */
int kma_report_pages(FILE *out, const struct kma_page_report *r);

#endif /* KMA_REPORT_PAGES_H */
