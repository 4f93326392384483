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

/*
 * key: what the rows are (the -g name: "caller", "stack", ...), the name
 * column's heading; lost: the trace's lost events; young_ns: what counts
 * as a young allocation; growth: the cache-growth globs (kma-leak.h; NULL:
 * none); sort: the order of the rows, said in the header.
 */
int kma_report_leaks(FILE *out, struct kma_match *m, const char *key, uint64_t lost,
		     uint64_t young_ns, const char * const *growth, enum kma_sort sort,
		     uint64_t limit, enum kma_fmt fmt);
struct kma_leak_rules;
/* The text lines above a leak table (rows, order, rules, settle tail); slab and pages. */
void kma_report_leaks_head(FILE *out, const char *what, const char *by,
			   const struct kma_leak_rules *r, const char *live_of);
int kma_report_leftovers(FILE *out, struct kma_match *m, enum kma_fmt fmt);

#endif /* KMA_REPORT_LEAKS_H */
