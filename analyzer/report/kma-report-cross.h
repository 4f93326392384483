/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-cross.h - --cross-cpu: cross-CPU frees and cross-node allocations.
 */
#ifndef KMA_REPORT_CROSS_H
#define KMA_REPORT_CROSS_H

#include <stdio.h>
#include "match/kma-match.h"
#include "match/kma-crosscpu.h"
#include "kma-report-callers.h"
#include "kma-table.h"

/*
 * The rows of x in m's caller order for sort; key: the grouping's column name;
 * map_from: where the CPU -> node map came from ("the trace", "--cpu-nodes"),
 * NULL: no map, the node columns are left out and the text says why once.
 */
int kma_report_cross(FILE *out, struct kma_match *m, const struct kma_cross *x,
		     const char *key, const char *map_from, enum kma_sort sort,
		     uint64_t limit, enum kma_fmt fmt);

#endif /* KMA_REPORT_CROSS_H */
