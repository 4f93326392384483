// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store-counters.c - --counters into report.db: counters_snapshots,
 * counters_slab, counters_meminfo and counters_allocinfo (schema/kma.sql).
 */
#include "kma-store-int.h"

static int write_snaps(sqlite3 *db, const struct kma_counters *c)
{
	const struct kma_cnt_snap *s = kma_counters_snaps(c);
	sqlite3_stmt *st = NULL;
	int i, ret = -1;

	if (sqlite3_prepare_v2(db, "INSERT INTO counters_snapshots (kind, phase, ts, parts, "
			       "parts_seen, complete, used, why) VALUES (?,?,?,?,?,?,?,?)", -1,
			       &st, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < KMA_CNT_KINDS * KMA_CNT_PHASES; i++) {
		if (!s[i].seen)
			continue;
		kma_bind_text(st, 1, kma_cnt_kind_name(s[i].kind));
		kma_bind_text(st, 2, kma_cnt_phase_name(s[i].phase));
		sqlite3_bind_int64(st, 3, (int64_t)s[i].ts);
		sqlite3_bind_int64(st, 4, s[i].parts);
		sqlite3_bind_int64(st, 5, s[i].got);
		sqlite3_bind_int(st, 6, s[i].complete);
		sqlite3_bind_int(st, 7, kma_counters_usable(c, s[i].kind));
		kma_bind_text(st, 8, s[i].why);
		if (kma_step_clear(st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

static int write_slab(sqlite3 *db, const struct kma_counters *c)
{
	sqlite3_stmt *st = NULL;
	size_t n, i;
	const struct kma_cnt_slab *r = kma_counters_slab(c, &n);
	int ret = -1;

	if (sqlite3_prepare_v2(db, "INSERT INTO counters_slab (cache, state, target, objsize, "
			       "kernel_start, kernel_end, kernel_delta, trace_allocs, trace_frees, "
			       "trace_implicit, trace_delta, untraced) VALUES "
			       "(?,?,?,?,?,?,?,?,?,?,?,?)", -1, &st, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < n; i++) {
		int k = r[i].state == KMA_CNT_SLAB_BOTH;

		kma_bind_text(st, 1, r[i].cache);
		kma_bind_text(st, 2, kma_cnt_slab_state_name(r[i].state));
		kma_bind_text(st, 3, r[i].target);
		kma_bind_int_or_null(st, 4, r[i].objsize > 0, (int64_t)r[i].objsize);
		kma_bind_int_or_null(st, 5, k, r[i].k_start);
		kma_bind_int_or_null(st, 6, k, r[i].k_end);
		kma_bind_int_or_null(st, 7, k, r[i].k_delta);
		sqlite3_bind_int64(st, 8, r[i].allocs);
		sqlite3_bind_int64(st, 9, r[i].frees);
		sqlite3_bind_int64(st, 10, r[i].implicit);
		sqlite3_bind_int64(st, 11, r[i].t_delta);
		kma_bind_int_or_null(st, 12, k, r[i].untraced);
		if (kma_step_clear(st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

static int write_mem(sqlite3 *db, const struct kma_counters *c)
{
	sqlite3_stmt *st = NULL;
	size_t n, i;
	const struct kma_cnt_mem *m = kma_counters_mem(c, &n);
	int ret = -1;

	if (sqlite3_prepare_v2(db, "INSERT INTO counters_meminfo (field, kernel_start, kernel_end, "
			       "kernel_delta, trace_delta, untraced) VALUES (?,?,?,?,?,?)", -1,
			       &st, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < n; i++) {
		kma_bind_text(st, 1, m[i].field);
		sqlite3_bind_int64(st, 2, m[i].k_start * 1024);
		sqlite3_bind_int64(st, 3, m[i].k_end * 1024);
		sqlite3_bind_int64(st, 4, m[i].k_delta);
		kma_bind_int_or_null(st, 5, m[i].has_trace, m[i].t_delta);
		kma_bind_int_or_null(st, 6, m[i].has_trace, m[i].untraced);
		if (kma_step_clear(st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

static int write_alloc(sqlite3 *db, const struct kma_counters *c)
{
	sqlite3_stmt *st = NULL;
	size_t n, i;
	const struct kma_cnt_alloc *a = kma_counters_alloc_rows(c, &n);
	int ret = -1;

	if (sqlite3_prepare_v2(db, "INSERT INTO counters_allocinfo (function, tags, kernel_start, "
			       "kernel_end, kernel_delta, kernel_calls_delta, trace_allocs, "
			       "trace_net, untraced) VALUES (?,?,?,?,?,?,?,?,?)", -1, &st,
			       NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < n; i++) {
		kma_bind_text(st, 1, a[i].func);
		sqlite3_bind_int64(st, 2, a[i].tags);
		sqlite3_bind_int64(st, 3, a[i].k_start);
		sqlite3_bind_int64(st, 4, a[i].k_end);
		sqlite3_bind_int64(st, 5, a[i].k_bytes);
		sqlite3_bind_int64(st, 6, a[i].k_calls);
		sqlite3_bind_int64(st, 7, a[i].t_allocs);
		sqlite3_bind_int64(st, 8, a[i].t_net);
		sqlite3_bind_int64(st, 9, a[i].untraced);
		if (kma_step_clear(st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

int kma_store_write_counters(sqlite3 *db, const struct kma_store_results *run)
{
	const struct kma_counters *c = run->counters;

	if (write_snaps(db, c) || write_slab(db, c) || write_mem(db, c) || write_alloc(db, c))
		return -1;
	return 0;
}
