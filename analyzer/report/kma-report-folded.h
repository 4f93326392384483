/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-folded.h - the per-stack table as Brendan Gregg's folded
 * stacks (flamegraph.pl, speedscope, inferno): "f1;f2;...;fn WEIGHT".
 */
#ifndef KMA_REPORT_FOLDED_H
#define KMA_REPORT_FOLDED_H

#include <stdio.h>
#include "match/kma-match.h"

/* What a folded line weighs. */
enum kma_weight { KMA_WEIGHT_BYTES, KMA_WEIGHT_NET, KMA_WEIGHT_SLACK, KMA_WEIGHT_ALLOCS };

/* "bytes", "net", "slack", "allocs": 0, or -1 for another name. */
int kma_weight_parse(const char *s, enum kma_weight *out);

/*
 * One line per distinct folded name of @rows (grouped by stack: a row's
 * name is its folded name; rows with one name are summed), sorted by the
 * name, lines of weight 0 left out. 0, or -1 on out of memory / write error.
 */
int kma_report_folded(FILE *out, const struct kma_caller *rows, uint32_t nr,
		      enum kma_weight w);

#endif /* KMA_REPORT_FOLDED_H */
