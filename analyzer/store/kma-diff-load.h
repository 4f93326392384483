/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-diff-load.h - one report.db's per-key numbers for kma-diff(1): the rows
 * of a grouping and the whole-trace summary, read through SQLite into a
 * struct kma_diff_table (match/kma-diffmatch.h).
 */
#ifndef KMA_DIFF_LOAD_H
#define KMA_DIFF_LOAD_H

#include <stddef.h>
#include "kma-err.h"
#include "kma-event.h"
#include "match/kma-diffmatch.h"

/* The schema version kma-analyze writes (PRAGMA user_version of schema/kma.sql). */
int kma_diff_schema_version(void);
/* The oldest report.db version kma-diff reads: the tables it uses are unchanged since. */
#define KMA_DIFF_OLDEST_VERSION	4

/*
 * What of a run is compared: the allocations a filter keeps (NULL or inactive:
 * all, match/kma-select.h), made in one generation (NULL: every one; a number
 * or a marker's label, as kma-analyze --generation).
 */
struct kma_select;
struct kma_diff_scope {
	struct kma_select	*select;	/* one per operand: it caches per call site */
	const char		*generation;
};

/*
 * Fills t (initialized by the caller) from the report.db at path, grouped by
 * g (caller, function, module, cache or stack), narrowed to scope (NULL: the
 * whole trace). 0, or -1 with @err saying what is wrong, in words that
 * follow the file name: not an SQLite database, another schema version, no
 * kmem events, no call stacks for -g stack, no such generation, no allocation
 * rows to filter.
 */
int kma_diff_load(const char *path, enum kma_group g, const struct kma_diff_scope *scope,
		  struct kma_diff_table *t, struct kma_err *err);

/*
 * kma_diff_load's numbers with a scope (kma-diff-scope.c), summed from the
 * allocation rows of the open report.db: t's sums are those of the allocations
 * in scope (frees: their traced frees), and with a generation t->generation,
 * t->gen_label and t->duration_ns (the generation's) are set. 0, or -1 with why.
 */
/* Only t->duration_ns: the trace's, of the report.db at @path. 0, or -1 with why. */
int kma_diff_load_duration(const char *path, struct kma_diff_table *t, struct kma_err *why);

struct sqlite3;
int kma_diff_load_scope(struct sqlite3 *db, enum kma_group g, const struct kma_diff_scope *sc,
			struct kma_diff_table *t, struct kma_err *why);

/*
 * Generation @gen of the open report.db (a number, or the first marker's
 * label equal to it): t->generation, t->gen_label and t->duration_ns (the
 * generation's). 0, or -1 with why listing the generations.
 */
int kma_diff_find_generation(struct sqlite3 *db, const char *gen, struct kma_diff_table *t,
			     struct kma_err *why);

/* The oldest report.db version with the percpu and vmalloc allocators' rows. */
#define KMA_DIFF_KINDS_VERSION	7

/*
 * As kma_diff_load, for the allocator @kind (KMA_KIND_PERCPU or
 * KMA_KIND_VMALLOC, named @kind_name in messages): its allocation rows
 * (kind_alloc_rows), grouped by g (caller, function, module or stack),
 * narrowed to scope; t's sums are the rows' (frees: their traced frees). 0, or
 * -1 with why (also: a schema older than KMA_DIFF_KINDS_VERSION, no such rows,
 * for -g module a file written before kind_callers.module).
 */
int kma_diff_load_kind(const char *path, int kind, const char *kind_name, enum kma_group g,
		       const struct kma_diff_scope *scope, struct kma_diff_table *t,
		       struct kma_err *why);

/*
 * As kma_diff_load_kind, for the page allocator (kma-diff-page.c): its
 * allocation rows (page_alloc_rows, written by kma-analyze --pages), grouped
 * by g, an enum kma_page_group of match/kma-pagealloc.h (every grouping of
 * kma-analyze --pages), narrowed to scope; a row's numbers and key are those
 * of kma-analyze --pages -g G (frees: traced and implicit). 0, or -1 with why
 * (also: no page rows, no page stacks for -g stack).
 */
int kma_diff_load_page(const char *path, int g, const struct kma_diff_scope *scope,
		       struct kma_diff_table *t, struct kma_err *why);

#endif /* KMA_DIFF_LOAD_H */
