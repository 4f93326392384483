/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-time.h - the reports over time: generations (between kma:
 * markers), the peak of live bytes, and alloc -> free lifetimes.
 */
#ifndef KMA_REPORT_TIME_H
#define KMA_REPORT_TIME_H

#include <stdio.h>
#include "match/kma-match.h"
#include "kma-table.h"
#include "kma-report-callers.h"

/* first_ts: the trace's first timestamp, the start of generation 0. */
int kma_report_generations(FILE *out, struct kma_match *m, uint64_t first_ts, enum kma_fmt fmt);
/* sort: -s; for the peak, net means the bytes each held at the peak. */
int kma_report_peak(FILE *out, struct kma_match *m, uint64_t first_ts, enum kma_sort sort,
		    uint64_t limit, enum kma_fmt fmt);
int kma_report_lifetimes(FILE *out, struct kma_match *m, enum kma_sort sort, uint64_t limit,
			 enum kma_fmt fmt);

#endif /* KMA_REPORT_TIME_H */
