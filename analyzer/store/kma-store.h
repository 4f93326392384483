/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-store.h - report.db writer.
 *
 * Rows are queued to a writer thread, so SQLite inserts overlap with reading
 * the trace. The database is built in a temporary file next to the target
 * and renamed over it only by kma_store_commit().
 */
#ifndef KMA_STORE_H
#define KMA_STORE_H

#include <stddef.h>
#include "kma-err.h"
#include "match/kma-match.h"
#include "match/kma-counters.h"
#include "match/kma-pagealloc.h"
#include "reader/kma-reader.h"
#include "sites/kma-sites.h"
#include "sites/kma-stacks.h"

struct kma_store;

/* PRAGMA application_id of every report.db: "kmaR" (schema/kma.sql, kma-report.db(5)) */
#define KMA_APPLICATION_ID	0x6b6d6152u

/*
 * The functions below that fail set the caller's struct kma_err (kma-err.h);
 * a sink callback that failed (kma_store_alloc_row() and the like) leaves the
 * reason with the store, for kma_store_err().
 */

/*
 * Is the existing file at path a report.db written by kma? 1: yes (the
 * application_id, or schema version 1 with kma's tables as before there was
 * one); 0: no, why says what it is; -1: cannot read it, why is strerror().
 */
int kma_store_probe(const char *path, char *why, size_t len);

/*
 * The "file:" URI that opens path read-only and immutable (%, ? and # escaped):
 * no lock, no journal or -shm file created, nothing written. For a file no
 * one writes. NULL: out of memory.
 */
char *kma_store_immutable_uri(const char *path);

/*
 * Creates PATH.tmp-XXXXXX (mkstemp) beside path with the mode any new file
 * would get (umask applied; mkstemp's 0600 otherwise): the temporary an output
 * is written to and renamed over path from. Returns its descriptor and the
 * malloc'd name in *tmp_path, or -1 with errno set and *tmp_path NULL.
 */
int kma_tmpfile_beside(const char *path, char **tmp_path);

/*
 * Removes the temporaries of path (PATH.tmp-PID-XXXXXX) whose process no
 * longer exists: what a SIGKILL or a crash left. Returns how many, or -1
 * when the folder cannot be read.
 */
int kma_tmpfile_sweep(const char *path);

/*
 * Creates the temporary beside @path and starts the writer thread, which
 * makes the schema: NULL on failure, with the reason in @err. A schema
 * that cannot be made fails the next row call or the commit, the reason
 * in kma_store_err().
 */
struct kma_store *kma_store_open(const char *path, struct kma_err *err);

/* Sink callbacks for the matcher (ctx is the store). */
int kma_store_alloc_row(void *store, const struct kma_alloc_row *row);
int kma_store_unknown_free(void *store, const struct kma_free_row *row);
/*
 * A finished page allocation (--pages), its caller function and folded stack
 * (interned strings that live until the commit; NULL: no stack), queued for
 * page_alloc_rows as allocation rows are: memory stays flat in the number of
 * page allocations. 0 or -1.
 */
int kma_store_page_row(struct kma_store *store, const struct kma_page_alloc *a,
		       const char *function, const char *stack);
/*
 * The sink callback of a percpu or vmalloc matcher (match/kma-kind.h): its
 * finished allocations, queued for kind_alloc_rows as allocation rows are.
 */
int kma_store_kind_row(void *store, const struct kma_alloc_row *row);

struct kma_timeline;

/* A percpu or vmalloc matcher's results (kma-match.h): kind_totals, kind_callers */
struct kma_store_kind {
	const struct kma_totals		*totals;	/* NULL: no event of the kind */
	const struct kma_caller		*callers;	/* kind_callers.id - 1 */
	uint32_t			nr_callers;
};

struct kma_store_results {
	const struct kma_trace_info	*info;
	const struct kma_totals		*totals;
	const struct kma_caller		*callers;
	uint32_t			nr_callers;
	const struct kma_generation	*gens;
	uint32_t			nr_gens;
	const struct kma_module		*modules;
	uint32_t			nr_modules;
	const struct kma_leftover	*leftovers;
	uint32_t			nr_leftovers;
	int				kmalloc_only;
	uint64_t			temp_ns;	/* threshold of "temporary" */
	uint64_t			young_ns;	/* leak confidence: young allocations */
	const char * const		*leak_growth;	/* cache-growth globs (kma-leak.h) */
	/* the kernel's counts of the caches, for the leak verdicts (NULL: none) */
	const struct kma_counters	*leak_counters;
	const char			*marker_prefix;
	const char			*version;
	/* symbol, module and source line of each caller (NULL: names only) */
	const struct kma_site		*(*site_of)(void *ctx, uint64_t addr);
	void				*site_ctx;
	/* the call stacks the rows' stack ids point into (NULL: none) */
	const struct kma_stacks		*stacks;
	/* the over-time series (match/kma-timeline.h; NULL: none) */
	const struct kma_timeline	*timeline;
	/* --pages: the finished page allocations and totals (NULL: none) */
	const struct kma_store_pages	*pages;
	/* node of CPUs 0..nr_cpu_nodes-1 (-1: not named; NULL: no map) */
	const int			*cpu_nodes;
	uint32_t			nr_cpu_nodes;
	/* --counters: the kernel's counters beside the trace's (NULL: none) */
	const struct kma_counters	*counters;
	/* the percpu and vmalloc allocators, by enum kma_kind (slab's and page's: above) */
	struct kma_store_kind		kinds[KMA_KIND_NR];
};

/*
 * what --pages gives report.db at the commit (match/kma-pagealloc.h); the
 * allocations themselves came through kma_store_page_row().
 */
struct kma_store_pages {
	const struct kma_page_totals	*totals;
	unsigned int			page_size;
	/* live pages over time (page_timeline; NULL: none), its series' rows by id */
	const struct kma_timeline	*timeline;
	const struct kma_caller		*series;
	uint32_t			nr_series;
	/* with stacks: the same by caller function (page_timeline_functions; NULL: none) */
	const struct kma_timeline	*fn_timeline;
	const struct kma_caller		*fn_series;
	uint32_t			nr_fn_series;
};

/*
 * Writes the remaining tables, commits and renames into place. 0, or -1 with
 * the reason in @err.
 */
int kma_store_commit(struct kma_store *s, const struct kma_store_results *run, struct kma_err *err);

/*
 * The temporary file being written (for a signal handler to remove), valid
 * until kma_store_free(); after a successful kma_store_commit() it is gone.
 */
const char *kma_store_tmp_path(const struct kma_store *s);

/*
 * Why a call on @s failed (a sink callback that returned -1, say) into @err:
 * the store's reason, "cannot write the database" when the writer thread
 * failed without one, else out of memory. Returns -1.
 */
int kma_store_err(const struct kma_store *s, struct kma_err *err);

/* Discards everything written (temporary file removed); frees s. Safe after commit. */
void kma_store_free(struct kma_store *s);

/* The schema applied to every new report.db (schema/kma.sql, built in). */
extern const char kma_schema_sql[];

#endif /* KMA_STORE_H */
