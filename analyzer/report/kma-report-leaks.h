/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-leaks.h - the reports on memory left behind: leak suspects,
 * what unloaded modules left, and kmalloc slack with sizing advice.
 */
#ifndef KMA_REPORT_LEAKS_H
#define KMA_REPORT_LEAKS_H

#include <stdio.h>
#include "match/kma-match.h"
#include "kma-table.h"
#include "kma-report-callers.h"	/* enum kma_sort */

#include "match/kma-leak.h"

/*
 * --leaks of a slab matcher. key: what the rows are (the -g name: "caller",
 * "stack", ...); rules: lost events, --young, --cache-growth, the kernel's
 * counts (the generations and the tail are filled in here from @m).
 */
int kma_report_leaks(FILE *out, struct kma_match *m, const char *key,
		     const struct kma_leak_rules *rules, const struct kma_leak_show *show);

/* One row of a leak report, slab or pages, with its verdict. */
struct kma_leak_line {
	const char	*name;
	uint64_t	net;		/* live bytes */
	uint64_t	live;		/* live allocations */
	uint64_t	pages;		/* page reports: live pages */
	uint64_t	age_min, age_med, age_max;
	uint32_t	grew, run;
	uint64_t	reclaim_freed;
	const uint64_t	*iter;		/* live left by each iteration, nr_iters of them */
	uint32_t	nr_iters;
	uint32_t	order;		/* its place in the -s order */
	struct kma_leak	v;
};

/*
 * Prints lines v[0..n) (in -s order): suspects first, the others only with
 * --all; in text one line each within 120 columns and the reasons on the
 * next, cut (CSV and JSON carry them whole). @key: the name column; @pages:
 * page rows (a live_pages column); @json_head: the JSON members before the
 * rows. 0, or -1 (out of memory, write error).
 */
int kma_report_leak_lines(FILE *out, struct kma_leak_line *v, uint32_t n, const char *key,
			  int pages, const struct kma_leak_show *show, const char *json_head);

/* The text lines above a leak table (rows, order, rules, settle tail); slab and pages. */
void kma_report_leaks_head(FILE *out, const char *what, const char *by,
			   const struct kma_leak_rules *r, const char *live_of);
int kma_report_leftovers(FILE *out, struct kma_match *m, enum kma_fmt fmt);

#endif /* KMA_REPORT_LEAKS_H */
