// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store-tables.c - the report.db tables written once, at the end: callers,
 * generations, modules, lost events, event counts and the trace facts.
 *
 * Each table is its SQL and a function that binds one row; insert_rows() does
 * the rest (prepare, bind -> step -> reset per row, one cleanup exit).
 */
#include <stdio.h>

#include "match/kma-leak.h"
#include "kma-store-int.h"

#define I64(v)	((sqlite3_int64)(v))

/* What a row's bindings point at must live until its step: it lives here. */
struct row_buf {
	char		addr[24];
	struct kma_leak	leak;
};

/* Binds row i of what run (and lost, for the callers) describe. */
typedef void (*bind_row_fn)(sqlite3_stmt *st, uint32_t i, const struct kma_store_results *run,
			    uint64_t lost, struct row_buf *buf);

/* Prepares sql, then inserts rows 0..n-1 bound by bind; 0 or -1. */
static int insert_rows(sqlite3 *db, const char *sql, uint32_t n, bind_row_fn bind,
		       const struct kma_store_results *run, uint64_t lost)
{
	sqlite3_stmt *st = NULL;
	struct row_buf buf;
	uint32_t i;
	int ret = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < n; i++) {
		bind(st, i, run, lost, &buf);
		if (kma_step_clear(st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

static const char callers_sql[] =
	"INSERT INTO callers (id, caller, address, total, slack, net, allocs, frees,"
	" implicit_frees, failed_allocs, live, live_slack, module, temporary,"
	" life_min, life_avg, life_max, net_at_peak, age_min, age_avg, age_max,"
	" grew_generations, max_growth_run, leak_suspect, leak_confidence, leak_why,"
	" left_by_unload, left_by_unload_bytes, left_live, left_live_bytes,"
	" symbol, offset, file, line, inlined, symbol_note, line_note, leak_class,"
	" age_median)"
	" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
	"?,?,?,?,?,?,?,?,?)";

/* Symbol, module and source line of the caller at addr (columns 31..37). */
static void bind_site(sqlite3_stmt *st, const struct kma_store_results *run, uint64_t addr)
{
	const struct kma_site *site = run->site_of ? run->site_of(run->site_ctx, addr) : NULL;

	if (!site)
		return;
	kma_bind_text(st, 31, site->symbol);
	kma_bind_int_or_null(st, 32, site->symbol != NULL, site->offset);
	/* an unknown file is NULL, never '': queries test "file IS NULL" */
	kma_bind_text(st, 33, site->file && *site->file ? site->file : NULL);
	kma_bind_int_or_null(st, 34, site->file && *site->file, (uint64_t)site->line);
	kma_bind_text(st, 35, site->inlined);
	kma_bind_text(st, 36, site->note);
	kma_bind_text(st, 37, site->line_note);
}

static void bind_caller(sqlite3_stmt *st, uint32_t i, const struct kma_store_results *run,
			uint64_t lost, struct row_buf *buf)
{
	const struct kma_caller *c = &run->callers[i];
	struct kma_leak *leak = &buf->leak;

	struct kma_leak_rules rules = { .lost = lost, .young_ns = run->young_ns,
					.gens = run->nr_gens, .growth = run->leak_growth };
	uint32_t g;

	for (g = 0; g < run->nr_gens; g++)
		kma_leak_phase_add(&rules.phases, g, run->gens[g].label);
	if (run->leak_counters) {
		rules.kernel_growth = kma_leak_kernel_counts;
		rules.kernel_ctx = (void *)run->leak_counters;
	}
	if (run->nr_gens > 1 && run->totals->end_ts > run->gens[run->nr_gens - 1].ts)
		rules.tail_ns = run->totals->end_ts - run->gens[run->nr_gens - 1].ts;
	kma_leak_assess(c, &rules, leak);
	kma_hex(buf->addr, c->address);
	sqlite3_bind_int64(st, 1, i + 1);
	sqlite3_bind_text(st, 2, c->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, buf->addr, -1, SQLITE_STATIC);
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
	kma_bind_int_or_null(st, 15, c->life_n > 0, c->life_min);
	kma_bind_int_or_null(st, 16, c->life_n > 0, c->life_n ? (uint64_t)(c->life_sum / c->life_n) : 0);
	kma_bind_int_or_null(st, 17, c->life_n > 0, c->life_max);
	sqlite3_bind_int64(st, 18, I64(c->net_at_peak));
	kma_bind_int_or_null(st, 19, c->live > 0, c->age_min);
	kma_bind_int_or_null(st, 20, c->live > 0, c->live ? (uint64_t)(c->age_sum / c->live) : 0);
	kma_bind_int_or_null(st, 21, c->live > 0, c->age_max);
	sqlite3_bind_int64(st, 22, c->grew_gens);
	sqlite3_bind_int64(st, 23, c->max_grow_run);
	sqlite3_bind_int(st, 24, leak->suspect);
	sqlite3_bind_text(st, 25, leak->confidence, -1, SQLITE_STATIC);
	kma_bind_text(st, 26, leak->why[0] ? leak->why : NULL);
	sqlite3_bind_text(st, 38, leak->class, -1, SQLITE_STATIC);
	kma_bind_int_or_null(st, 39, c->live > 0, c->age_median);
	sqlite3_bind_int64(st, 27, I64(c->orphans));
	sqlite3_bind_int64(st, 28, I64(c->orphan_bytes));
	sqlite3_bind_int64(st, 29, I64(c->orphans_live));
	sqlite3_bind_int64(st, 30, I64(c->orphans_live_bytes));
	bind_site(st, run, c->address);
}

static void bind_generation(sqlite3_stmt *st, uint32_t i, const struct kma_store_results *run,
			    uint64_t lost, struct row_buf *buf)
{
	const struct kma_generation *g = &run->gens[i];

	sqlite3_bind_int64(st, 1, i);
	sqlite3_bind_int64(st, 2, I64(i ? g->ts : run->info->first_ts));
	sqlite3_bind_text(st, 3, g->label ? g->label : "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, I64(g->allocs));
	sqlite3_bind_int64(st, 5, I64(g->bytes));
	sqlite3_bind_int64(st, 6, I64(g->live));
	sqlite3_bind_int64(st, 7, I64(g->live_bytes));
	sqlite3_bind_int64(st, 8, I64(g->frees));
}

static void bind_module(sqlite3_stmt *st, uint32_t i, const struct kma_store_results *run,
			uint64_t lost, struct row_buf *buf)
{
	const struct kma_module *mod = &run->modules[i];

	sqlite3_bind_text(st, 1, mod->name, -1, SQLITE_STATIC);
	kma_bind_int_or_null(st, 2, mod->load_ts != 0, mod->load_ts);
	kma_bind_int_or_null(st, 3, mod->free_ts != 0, mod->free_ts);
	sqlite3_bind_int64(st, 4, I64(mod->left));
	sqlite3_bind_int64(st, 5, I64(mod->left_bytes));
	sqlite3_bind_int64(st, 6, I64(mod->left_live));
	sqlite3_bind_int64(st, 7, I64(mod->left_live_bytes));
}

/* module_leftovers: a row per unload and call site */
static void bind_leftover(sqlite3_stmt *st, uint32_t i, const struct kma_store_results *run,
			  uint64_t lost, struct row_buf *buf)
{
	const struct kma_leftover *e = &run->leftovers[i];
	const struct kma_caller *c = &run->callers[e->caller_id];

	kma_hex(buf->addr, c->address);
	sqlite3_bind_int64(st, 1, e->module + 1);
	sqlite3_bind_text(st, 2, run->modules[e->module].name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, e->caller_id + 1);
	sqlite3_bind_text(st, 4, c->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, buf->addr, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, I64(e->allocs));
	sqlite3_bind_int64(st, 7, I64(e->bytes));
	sqlite3_bind_int64(st, 8, I64(e->live));
	sqlite3_bind_int64(st, 9, I64(e->live_bytes));
}

static void bind_lost(sqlite3_stmt *st, uint32_t i, const struct kma_store_results *run,
		      uint64_t lost, struct row_buf *buf)
{
	const struct kma_lost *l = &run->info->lost[i];

	sqlite3_bind_int(st, 1, (int)i);
	sqlite3_bind_int64(st, 2, I64(l->page_missed));
	sqlite3_bind_int64(st, 3, I64(l->missed_unknown));
	sqlite3_bind_int64(st, 4, I64(l->overrun));
	sqlite3_bind_int64(st, 5, I64(l->commit_overrun));
	sqlite3_bind_int64(st, 6, I64(l->dropped));
	sqlite3_bind_int64(st, 7, I64(kma_lost_total(l)));
}

static void bind_damage(sqlite3_stmt *st, uint32_t i, const struct kma_store_results *run,
			uint64_t lost, struct row_buf *buf)
{
	static const struct kma_damage none;
	const struct kma_damage *d = run->info->damage ? &run->info->damage[i] : &none;

	sqlite3_bind_int(st, 1, (int)i);
	sqlite3_bind_int64(st, 2, I64(d->short_records));
	sqlite3_bind_int64(st, 3, I64(d->overlong_records));
	sqlite3_bind_int64(st, 4, I64(d->zero_pages));
	sqlite3_bind_int64(st, 5, I64(d->jump_pages));
	sqlite3_bind_int64(st, 6, I64(d->jump_records));
	if (d->jump_pages) {
		sqlite3_bind_int64(st, 7, I64(d->jump_offset));
		sqlite3_bind_int(st, 8, d->jump_inflated);
	}
}

static void bind_count(sqlite3_stmt *st, uint32_t i, const struct kma_store_results *run,
		       uint64_t lost, struct row_buf *buf)
{
	sqlite3_bind_text(st, 1, run->info->counts[i].name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, I64(run->info->counts[i].count));
}

static const char trace_sql[] =
	"INSERT INTO trace (file, file_version, compression, kernel_release, uname,"
	" cpus, long_size, big_endian, first_ts, last_ts, events, kmem_events,"
	" ignored_events, kmalloc_only, frees, matched_frees, unknown_frees,"
	" null_frees, failed_allocs, peak_bytes, peak_ts, temporary_ns,"
	" marker_prefix, kma_version, buffer, kmalloc_flags, kmalloc_warning)"
	" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

/* The one row of the trace table. */
static void bind_trace(sqlite3_stmt *st, uint32_t i, const struct kma_store_results *run,
		       uint64_t lost, struct row_buf *buf)
{
	const struct kma_trace_info *info = run->info;
	const struct kma_totals *t = run->totals;

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
	kma_bind_int_or_null(st, 21, t->peak_net > 0, t->peak_ts);
	sqlite3_bind_int64(st, 22, I64(run->temp_ns));
	kma_bind_text(st, 23, run->marker_prefix);
	sqlite3_bind_text(st, 24, run->version, -1, SQLITE_STATIC);
	kma_bind_text(st, 25, info->buffer);
	kma_bind_text(st, 26, info->kmalloc_flags);
	/* as on stderr: only a trace with kmalloc events has names to doubt */
	kma_bind_text(st, 27, info->ev_count[KMA_EV_KMALLOC] + info->ev_count[KMA_EV_KMALLOC_NODE] ?
		      info->kmalloc_warning : NULL);
}

/* the CPU -> node map; a CPU it does not name has a NULL node. */
static void bind_cpu_node(sqlite3_stmt *st, uint32_t i, const struct kma_store_results *run,
			  uint64_t lost, struct row_buf *buf)
{
	sqlite3_bind_int(st, 1, (int)i);
	if (run->cpu_nodes[i] >= 0)
		sqlite3_bind_int(st, 2, run->cpu_nodes[i]);
}

int kma_store_write_tables(sqlite3 *db, const struct kma_store_results *run)
{
	const struct kma_trace_info *info = run->info;
	uint64_t lost = kma_trace_lost(info, NULL);

	if (insert_rows(db, callers_sql, run->nr_callers, bind_caller, run, lost) ||
	    insert_rows(db, "INSERT INTO generations (id, ts, label, allocs, bytes, live,"
			" live_bytes, frees) VALUES (?,?,?,?,?,?,?,?)", run->nr_gens,
			bind_generation, run, lost) ||
	    insert_rows(db, "INSERT INTO modules (name, load_ts, free_ts, left_allocs,"
			" left_bytes, left_live, left_live_bytes) VALUES (?,?,?,?,?,?,?)",
			run->nr_modules, bind_module, run, lost) ||
	    insert_rows(db, "INSERT INTO module_leftovers (module_id, module, caller_id,"
			" caller, address, allocs, bytes, still_live, still_live_bytes)"
			" VALUES (?,?,?,?,?,?,?,?,?)", run->nr_leftovers, bind_leftover, run,
			lost) ||
	    insert_rows(db, "INSERT INTO lost_events (cpu, page_missed, missed_unknown,"
			" overrun, commit_overrun, dropped, lost) VALUES (?,?,?,?,?,?,?)",
			info->cpus > 0 ? (uint32_t)info->cpus : 0, bind_lost, run, lost) ||
	    insert_rows(db, "INSERT INTO ring_damage (cpu, short_records, overlong_records,"
			" zero_pages, jump_pages, jump_records, jump_offset, jump_inflated)"
			" VALUES (?,?,?,?,?,?,?,?)", info->cpus > 0 ? (uint32_t)info->cpus : 0,
			bind_damage, run, lost) ||
	    insert_rows(db, "INSERT INTO event_counts (event, count) VALUES (?,?)",
			info->nr_counts > 0 ? (uint32_t)info->nr_counts : 0,
			bind_count, run, lost) ||
	    insert_rows(db, trace_sql, 1, bind_trace, run, lost) ||
	    (run->cpu_nodes && insert_rows(db, "INSERT INTO cpu_nodes (cpu, node) VALUES (?,?)",
					   run->nr_cpu_nodes, bind_cpu_node, run, lost)) ||
	    kma_dict_kmalloc_caches(db))
		return -1;
	return 0;
}
