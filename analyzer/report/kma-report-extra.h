/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-extra.h - the reports beyond the per-caller table: generations,
 * leak suspects, lifetimes, the peak, module leftovers, allocation lists.
 */
#ifndef KMA_REPORT_EXTRA_H
#define KMA_REPORT_EXTRA_H

#include <stdio.h>
#include "match/kma-match.h"
#include "reader/kma-reader.h"
#include "kma-table.h"
#include "kma-time.h"

/* Collects allocation rows for --list (a matcher sink). */
struct kma_list;

struct kma_list *kma_list_alloc(int outstanding_only);
void kma_list_free(struct kma_list *l);
int kma_list_add(void *list, const struct kma_alloc_row *row);
int kma_list_print(FILE *out, struct kma_list *l, uint64_t end_ts, uint64_t limit,
		   enum kma_fmt fmt);

int kma_report_generations(FILE *out, struct kma_match *m, uint64_t first_ts, enum kma_fmt fmt);
int kma_report_leaks(FILE *out, struct kma_match *m, uint64_t lost, uint64_t young_ns,
		     uint64_t limit, enum kma_fmt fmt);
int kma_report_lifetimes(FILE *out, struct kma_match *m, uint64_t limit, enum kma_fmt fmt);
int kma_report_peak(FILE *out, struct kma_match *m, uint64_t first_ts, uint64_t limit,
		    enum kma_fmt fmt);
int kma_report_leftovers(FILE *out, struct kma_match *m, enum kma_fmt fmt);
int kma_report_advice(FILE *out, struct kma_match *m, uint64_t limit, enum kma_fmt fmt);

#endif /* KMA_REPORT_EXTRA_H */
