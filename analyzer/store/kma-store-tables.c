// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store-tables.c - the report.db tables written once, at the end: callers,
 * generations, modules, lost events, event counts and the trace facts.
 */
#include <stdio.h>

#include "match/kma-leak.h"
#include "kma-store-int.h"

#define I64(v)	((sqlite3_int64)(v))

static void bind_u64_or_null(sqlite3_stmt *st, int i, int valid, uint64_t v)
{
	if (valid)
		sqlite3_bind_int64(st, i, I64(v));
	else
		sqlite3_bind_null(st, i);
}

static int step_reset(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int write_callers(sqlite3 *db, const struct kma_store_run *run)
{
	sqlite3_stmt *st = NULL;
	uint64_t lost = kma_trace_lost(run->info, NULL);
	char addr[24];
	uint32_t i;
	int ret = -1;

	if (sqlite3_prepare_v2(db,
			"INSERT INTO callers (id, caller, address, total, slack, net, allocs, frees,"
			" implicit_frees, failed_allocs, live, live_slack, module, temporary,"
			" life_min, life_avg, life_max, net_at_peak, age_min, age_avg, age_max,"
			" grew_generations, max_growth_run, leak_suspect, leak_confidence, leak_why,"
			" left_by_unload, left_by_unload_bytes, left_live, left_live_bytes,"
			" symbol, offset, file, line, inlined, symbol_note, line_note)"
			" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
			"?,?,?,?,?,?,?)",
			-1, &st, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < run->nr_callers; i++) {
		const struct kma_caller *c = &run->callers[i];
		const struct kma_site *site;
		struct kma_leak leak;

		kma_leak_assess(c, lost, run->young_ns, &leak);
		kma_hex(addr, c->address);
		sqlite3_bind_int64(st, 1, i + 1);
		sqlite3_bind_text(st, 2, c->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, addr, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, I64(c->total));
		sqlite3_bind_int64(st, 5, I64(c->slack));
		sqlite3_bind_int64(st, 6, I64(c->net));
		sqlite3_bind_int64(st, 7, I64(c->allocs));
		sqlite3_bind_int64(st, 8, I64(c->frees));
		sqlite3_bind_int64(st, 9, I64(c->implicit_frees));
		sqlite3_bind_int64(st, 10, I64(c->failed_allocs));
		sqlite3_bind_int64(st, 11, I64(c->live));
		sqlite3_bind_int64(st, 12, I64(c->live_slack));
		kma_bind_text(st, 13, c->module);
		sqlite3_bind_int64(st, 14, I64(c->temporary));
		bind_u64_or_null(st, 15, c->life_n > 0, c->life_min);
		bind_u64_or_null(st, 16, c->life_n > 0, c->life_n ? c->life_sum / c->life_n : 0);
		bind_u64_or_null(st, 17, c->life_n > 0, c->life_max);
		sqlite3_bind_int64(st, 18, I64(c->net_at_peak));
		bind_u64_or_null(st, 19, c->live > 0, c->age_min);
		bind_u64_or_null(st, 20, c->live > 0, c->live ? c->age_sum / c->live : 0);
		bind_u64_or_null(st, 21, c->live > 0, c->age_max);
		sqlite3_bind_int64(st, 22, c->grew_gens);
		sqlite3_bind_int64(st, 23, c->max_grow_run);
		sqlite3_bind_int(st, 24, leak.suspect);
		sqlite3_bind_text(st, 25, leak.confidence, -1, SQLITE_STATIC);
		kma_bind_text(st, 26, leak.why[0] ? leak.why : NULL);
		sqlite3_bind_int64(st, 27, I64(c->orphans));
		sqlite3_bind_int64(st, 28, I64(c->orphan_bytes));
		sqlite3_bind_int64(st, 29, I64(c->orphans_live));
		sqlite3_bind_int64(st, 30, I64(c->orphans_live_bytes));
		site = run->site_of ? run->site_of(run->site_ctx, c->address) : NULL;
		if (site) {
			kma_bind_text(st, 31, site->symbol);
			bind_u64_or_null(st, 32, site->symbol != NULL, site->offset);
			kma_bind_text(st, 33, site->file);
			bind_u64_or_null(st, 34, site->file != NULL, (uint64_t)site->line);
			kma_bind_text(st, 35, site->inlined);
			kma_bind_text(st, 36, site->note);
			kma_bind_text(st, 37, site->line_note);
		}
		if (step_reset(st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

static int write_generations(sqlite3 *db, const struct kma_store_run *run)
{
	sqlite3_stmt *st = NULL;
	uint32_t i;
	int ret = -1;

	if (sqlite3_prepare_v2(db, "INSERT INTO generations (id, ts, label, allocs, bytes, live,"
			       " live_bytes, frees) VALUES (?,?,?,?,?,?,?,?)", -1, &st,
			       NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < run->nr_gens; i++) {
		const struct kma_generation *g = &run->gens[i];

		sqlite3_bind_int64(st, 1, i);
		sqlite3_bind_int64(st, 2, I64(i ? g->ts : run->info->first_ts));
		sqlite3_bind_text(st, 3, g->label ? g->label : "", -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, I64(g->allocs));
		sqlite3_bind_int64(st, 5, I64(g->bytes));
		sqlite3_bind_int64(st, 6, I64(g->live));
		sqlite3_bind_int64(st, 7, I64(g->live_bytes));
		sqlite3_bind_int64(st, 8, I64(g->frees));
		if (step_reset(st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/* modules, then module_leftovers (rows per unload and call site) */
static int write_modules(sqlite3 *db, const struct kma_store_run *run)
{
	sqlite3_stmt *st = NULL;
	uint32_t i;
	int ret = -1;

	if (sqlite3_prepare_v2(db, "INSERT INTO modules (name, load_ts, free_ts, left_allocs,"
			       " left_bytes, left_live, left_live_bytes) VALUES (?,?,?,?,?,?,?)",
			       -1, &st, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < run->nr_modules; i++) {
		const struct kma_module *mod = &run->modules[i];

		sqlite3_bind_text(st, 1, mod->name, -1, SQLITE_STATIC);
		bind_u64_or_null(st, 2, mod->load_ts != 0, mod->load_ts);
		bind_u64_or_null(st, 3, mod->free_ts != 0, mod->free_ts);
		sqlite3_bind_int64(st, 4, I64(mod->left));
		sqlite3_bind_int64(st, 5, I64(mod->left_bytes));
		sqlite3_bind_int64(st, 6, I64(mod->left_live));
		sqlite3_bind_int64(st, 7, I64(mod->left_live_bytes));
		if (step_reset(st))
			goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (sqlite3_prepare_v2(db, "INSERT INTO module_leftovers (module_id, module, caller_id,"
			       " caller, address, allocs, bytes, still_live, still_live_bytes)"
			       " VALUES (?,?,?,?,?,?,?,?,?)", -1, &st, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < run->nr_leftovers; i++) {
		const struct kma_leftover *e = &run->leftovers[i];
		const struct kma_caller *c = &run->callers[e->caller_id];
		char addr[24];

		kma_hex(addr, c->address);
		sqlite3_bind_int64(st, 1, e->module + 1);
		sqlite3_bind_text(st, 2, run->modules[e->module].name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, e->caller_id + 1);
		sqlite3_bind_text(st, 4, c->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, addr, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 6, I64(e->allocs));
		sqlite3_bind_int64(st, 7, I64(e->bytes));
		sqlite3_bind_int64(st, 8, I64(e->live));
		sqlite3_bind_int64(st, 9, I64(e->live_bytes));
		if (step_reset(st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

static int write_losses_and_counts(sqlite3 *db, const struct kma_trace_info *info)
{
	sqlite3_stmt *st = NULL;
	int i, ret = -1;

	if (sqlite3_prepare_v2(db, "INSERT INTO lost_events (cpu, page_missed, missed_unknown,"
			       " overrun, commit_overrun, dropped, lost) VALUES (?,?,?,?,?,?,?)",
			       -1, &st, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < info->cpus; i++) {
		const struct kma_lost *l = &info->lost[i];

		sqlite3_bind_int(st, 1, i);
		sqlite3_bind_int64(st, 2, I64(l->page_missed));
		sqlite3_bind_int64(st, 3, I64(l->missed_unknown));
		sqlite3_bind_int64(st, 4, I64(l->overrun));
		sqlite3_bind_int64(st, 5, I64(l->commit_overrun));
		sqlite3_bind_int64(st, 6, I64(l->dropped));
		sqlite3_bind_int64(st, 7, I64(kma_lost_total(l)));
		if (step_reset(st))
			goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (sqlite3_prepare_v2(db, "INSERT INTO event_counts (event, count) VALUES (?,?)",
			       -1, &st, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < info->nr_counts; i++) {
		sqlite3_bind_text(st, 1, info->counts[i].name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, I64(info->counts[i].count));
		if (step_reset(st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

static int write_trace(sqlite3 *db, const struct kma_store_run *run)
{
	const struct kma_trace_info *info = run->info;
	const struct kma_totals *t = run->totals;
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(db,
			"INSERT INTO trace (file, file_version, compression, kernel_release, uname,"
			" cpus, long_size, big_endian, first_ts, last_ts, events, kmem_events,"
			" ignored_events, kmalloc_only, frees, matched_frees, unknown_frees,"
			" null_frees, failed_allocs, peak_bytes, peak_ts, temporary_ns,"
			" marker_prefix, kma_version, buffer)"
			" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
			-1, &st, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_text(st, 1, info->file, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, info->file_version);
	kma_bind_text(st, 3, info->compression);
	kma_bind_text(st, 4, info->release);
	kma_bind_text(st, 5, info->uname);
	sqlite3_bind_int(st, 6, info->cpus);
	sqlite3_bind_int(st, 7, info->long_size);
	sqlite3_bind_int(st, 8, info->big_endian);
	sqlite3_bind_int64(st, 9, I64(info->first_ts));
	sqlite3_bind_int64(st, 10, I64(info->last_ts));
	sqlite3_bind_int64(st, 11, I64(info->events));
	sqlite3_bind_int64(st, 12, I64(info->kmem_events));
	sqlite3_bind_int64(st, 13, I64(t->ignored));
	sqlite3_bind_int(st, 14, run->kmalloc_only);
	sqlite3_bind_int64(st, 15, I64(t->frees));
	sqlite3_bind_int64(st, 16, I64(t->matched_frees));
	sqlite3_bind_int64(st, 17, I64(t->unknown_frees));
	sqlite3_bind_int64(st, 18, I64(t->null_frees));
	sqlite3_bind_int64(st, 19, I64(t->failed_allocs));
	sqlite3_bind_int64(st, 20, I64(t->peak_net));
	bind_u64_or_null(st, 21, t->peak_net > 0, t->peak_ts);
	sqlite3_bind_int64(st, 22, I64(run->temp_ns));
	kma_bind_text(st, 23, run->marker_prefix);
	sqlite3_bind_text(st, 24, run->version, -1, SQLITE_STATIC);
	kma_bind_text(st, 25, info->buffer);
	ret = step_reset(st);
out:
	sqlite3_finalize(st);
	return ret;
}

int kma_store_write_tables(sqlite3 *db, const struct kma_store_run *run)
{
	if (write_callers(db, run) || write_generations(db, run) || write_modules(db, run) ||
	    write_losses_and_counts(db, run->info) || write_trace(db, run))
		return -1;
	return 0;
}
