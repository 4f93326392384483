/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-fleet-diff.h - a run of the fleet store (kma-fleet(5)) as a kma-diff
 * operand: pg:CONNINFO#SELECTORS, its per-key numbers read through libpq into
 * a struct kma_diff_table, as kma-diff-load.c reads a report.db's.
 */
#ifndef KMA_FLEET_DIFF_H
#define KMA_FLEET_DIFF_H

#include <stddef.h>

#include "kma-err.h"
#include "kma-event.h"
#include "match/kma-diffmatch.h"
#include "kma-diff-load.h"

/* The operand prefix of a store run. */
#define KMA_DIFF_PG_PREFIX	"pg:"

/*
 * Fills t from the one run @spec (CONNINFO#SELECTORS, after "pg:") selects,
 * of allocator @kind ("page", "percpu", "vmalloc"; NULL: slab), grouped by g
 * (enum kma_group; page: enum kma_page_group) and narrowed to scope (filters and generations need a run
 * pushed with --allocations). @name gets the operand as reports name it,
 * "pg:SERVER#SELECTORS" (the server as libpq resolved it: no user, no
 * password), or "pg:#SELECTORS" before a connection. 0, or -1 with @why, one
 * line (starting with the server when no connection was made). -2 when
 * @spec itself is wrong (no '#', no selector, a word that is no selector):
 * a usage error.
 */
int kma_diff_load_pg(const char *spec, const char *kind, int g,
		     const struct kma_diff_scope *scope, struct kma_diff_table *t, char *name,
		     size_t name_len, struct kma_err *why);

/* Within the store layer: a connection's run, its kind's numbers and generations. */
struct kma_fleet;
/*
 * Run @run's rows of allocator @kind (not slab) into t, as kma_diff_load_pg
 * (kma-fleet-diffkind.c); -1 with why, also for a key the store does not keep.
 */
int kma_fleet_diff_kind(struct kma_fleet *f, const char *run, const char *kind, int g,
			const struct kma_diff_scope *sc, struct kma_diff_table *t,
			struct kma_err *why);
/*
 * Generation @gen (number or label) of run @run: t->generation, gen_label,
 * duration_ns (kma-fleet-diffkind.c); -1 with why listing the run's generations.
 */
int kma_fleet_find_generation(struct kma_fleet *f, const char *run, const char *gen,
			      struct kma_diff_table *t, struct kma_err *why);

#endif /* KMA_FLEET_DIFF_H */
