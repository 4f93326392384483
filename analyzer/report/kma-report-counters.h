/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-counters.h - --counters: the kernel's own counters (slabinfo,
 * meminfo, allocinfo snapshots kma-record wrote) beside the trace.
 */
#ifndef KMA_REPORT_COUNTERS_H
#define KMA_REPORT_COUNTERS_H

#include <stdio.h>
#include "match/kma-counters.h"
#include "kma-table.h"

/*
 * The snapshots found and the rows of a finished @c: text in three tables,
 * CSV and JSON as one table (a "kind" column); @first_ts: the trace's start,
 * which text times count from; @limit: rows per table, 0: all.
 */
int kma_report_counters(FILE *out, const struct kma_counters *c, uint64_t first_ts,
			uint64_t limit, enum kma_fmt fmt);

#endif /* KMA_REPORT_COUNTERS_H */
