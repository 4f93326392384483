/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-diff-kind.h - kma-diff --kind percpu|vmalloc -g module: a trace's rows
 * of that kind from kma-analyze's CSV caller table (kma-diff-kind.c).
 */
#ifndef KMA_DIFF_KIND_H
#define KMA_DIFF_KIND_H

#include "kma-err.h"
#include "match/kma-diffmatch.h"

/*
 * The rows of the CSV file @csv, keyed by its column @key (the -g grouping's
 * name), into @t (initialized by the caller): total, net, allocs and frees
 * (slack 0); t->sum their sums. 0, or -1 with @why.
 */
int kma_diff_kind_load(const char *csv, const char *key, struct kma_diff_table *t,
		       struct kma_err *why);

#endif /* KMA_DIFF_KIND_H */
