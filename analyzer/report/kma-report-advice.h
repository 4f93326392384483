/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-advice.h - --advice: kmalloc slack and dedicated-cache savings.
 */
#ifndef KMA_REPORT_ADVICE_H
#define KMA_REPORT_ADVICE_H

#include <stdio.h>
#include "match/kma-match.h"
#include "kma-table.h"

/* first_ts: the trace's first timestamp, to say when the peak was. */
int kma_report_advice(FILE *out, struct kma_match *m, uint64_t first_ts, uint64_t limit,
		      enum kma_fmt fmt);

#endif /* KMA_REPORT_ADVICE_H */
