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

#include "kma-match.h"
#include "kma-reader.h"

struct kma_store;

/* NULL on failure, with a one-line reason in *why (static storage). */
struct kma_store *kma_store_open(const char *path, const char **why);

/* Sink callbacks for the matcher (ctx is the store). */
int kma_store_alloc_row(void *store, const struct kma_alloc_row *row);
int kma_store_unknown_free(void *store, const struct kma_free_row *row);

struct kma_store_run {
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
	const char			*marker_prefix;
	const char			*version;
	/* symbol, module and source line of each caller (NULL: names only) */
	const struct kma_site		*(*site_of)(void *ctx, uint64_t addr);
	void				*site_ctx;
};

/* Writes the remaining tables, commits and renames into place. 0 or -1 (*why). */
int kma_store_commit(struct kma_store *s, const struct kma_store_run *run, const char **why);

/* The last error, valid until kma_store_free(). */
const char *kma_store_error(struct kma_store *s);

/* Discards everything written (temporary file removed); frees s. Safe after commit. */
void kma_store_free(struct kma_store *s);

/* The schema applied to every new report.db (schema/kma.sql, built in). */
extern const char kma_schema_sql[];

#endif /* KMA_STORE_H */
