/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-diff-load.h - one report.db's per-key numbers for kma-diff(1): the rows
 * of a grouping and the whole-trace summary, read through SQLite into a
 * struct kma_diff_table (match/kma-diffmatch.h).
 */
#ifndef KMA_DIFF_LOAD_H
#define KMA_DIFF_LOAD_H

#include <stddef.h>
#include "kma-event.h"
#include "match/kma-diffmatch.h"

/* The schema version kma-analyze writes (PRAGMA user_version of schema/kma.sql). */
int kma_diff_schema_version(void);
/* The oldest report.db version kma-diff reads: the tables it uses are unchanged since. */
#define KMA_DIFF_OLDEST_VERSION	4

/*
 * Fills t (initialized by the caller) from the report.db at path, grouped by
 * g (caller, function, module, cache or stack). 0, or -1 with why[len] saying
 * what is wrong, in words that follow the file name: not an SQLite database,
 * another schema version, no kmem events, no call stacks for -g stack.
 */
int kma_diff_load(const char *path, enum kma_group g, struct kma_diff_table *t,
		  char *why, size_t len);

#endif /* KMA_DIFF_LOAD_H */
