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
 * grouped by g and narrowed to scope (filters and generations need a run
 * pushed with --allocations). @name gets the operand as reports name it,
 * "pg:SERVER#SELECTORS" (the server as libpq resolved it: no user, no
 * password), or "pg:#SELECTORS" before a connection. 0, or -1 with @why, one
 * line (starting with the server when no connection was made). -2 when
 * @spec itself is wrong (no '#', no selector, a word that is no selector):
 * a usage error.
 */
int kma_diff_load_pg(const char *spec, enum kma_group g, const struct kma_diff_scope *scope,
		     struct kma_diff_table *t, char *name, size_t name_len, struct kma_err *why);

#endif /* KMA_FLEET_DIFF_H */
