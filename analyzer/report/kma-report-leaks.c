// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-leaks.c - leak suspects and module leftovers, as text, CSV or JSON.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "match/kma-leak.h"
#include "kma-time.h"
#include "kma-caller-sort.h"
#include "kma-report-callers.h"
#include "kma-report-leaks.h"

/* --- leaks --- */

static int has_net(const struct kma_caller *c)
{
	return c->net > 0;
}

/* "Callers", "Stacks", "Caches", ...: what the rows are, for the heading. */
static const char *heading(const char *key)
{
	static const struct { const char *key, *rows; } names[] = {
		{ "caller", "Callers" }, { "function", "Functions" }, { "module", "Modules" },
		{ "file", "Source files" }, { "cache", "Caches" }, { "comm", "Tasks" },
		{ "pid", "PIDs" }, { "stack", "Call stacks" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(key, names[i].key))
			return names[i].rows;
	return "Rows";
}

/* The order of the rows, as -s names it: the per-caller report's keys and tie-breaks. */
static const char *order_of(enum kma_sort sort, struct kma_caller_order *o)
{
	kma_sort_order(sort, o);
	return kma_sort_name(sort);
}

/*
 * The text lines above a leak table: what the rows are (@what, e.g. "Callers
 * by outstanding bytes"), their order (@by), the rules, the tail; @live_of:
 * what is discounted in the tail ("live allocations made", "live pages
 * allocated"). Slab and page leak reports say it the same way.
 */
void kma_report_leaks_head(FILE *out, const char *what, const char *by,
			   const struct kma_leak_rules *r, const char *live_of)
{
	fprintf(out, "%s at the end of the trace, sorted by %s "
		"(%u generation%s; a suspect grew in %d or more in a row, over at least %d "
		"generations).\n", what, by, r->gens, r->gens == 1 ? "" : "s",
		KMA_LEAK_MIN_RUN, KMA_LEAK_MIN_GENS);
	if (r->gens < KMA_LEAK_MIN_GENS)
		fprintf(out, "Too few generations for a verdict: mark at least %d with "
			"'echo \"kma: LABEL\" > /sys/kernel/tracing/trace_marker'.\n",
			KMA_LEAK_MIN_GENS - 1);
	if (r->gens > 1) {
		char t[32];

		kma_fmt_secs(t, sizeof(t), r->tail_ns);
		fprintf(out, "The trace went on %s after the last marker; %s in that tail "
			"are discounted (kma-record --settle).\n", t, live_of);
	}
}

/* One row of the leak table. */
static int leak_row(struct kma_table *t, enum kma_fmt fmt, const struct kma_caller *c,
		    const struct kma_leak_rules *r)
{
	struct kma_leak leak;
	int err = 0;

	kma_leak_assess(c, r, &leak);
	err |= kma_table_u64(t, c->net);
	err |= kma_table_u64(t, c->live);
	err |= kma_table_dur(t, fmt, c->age_min);
	err |= kma_table_dur(t, fmt, c->age_median);
	err |= kma_table_dur(t, fmt, c->age_max);
	err |= kma_table_u64(t, c->grew_gens);
	err |= kma_table_u64(t, c->max_grow_run);
	err |= kma_table_str(t, leak.suspect ? "yes" : "no");
	err |= kma_table_str(t, leak.confidence);
	err |= kma_table_str(t, c->name);
	err |= kma_table_str(t, leak.class);
	err |= kma_table_str(t, leak.why[0] ? leak.why : NULL);
	return err;
}

int kma_report_leaks(FILE *out, struct kma_match *m, const char *key, uint64_t lost,
		     uint64_t young_ns, const char * const *growth, enum kma_sort sort,
		     uint64_t limit, enum kma_fmt fmt)
{
	struct kma_leak_rules r = { .lost = lost, .young_ns = young_ns, .growth = growth };
	const struct kma_generation *g = kma_match_generations(m, &r.gens);
	const struct kma_caller **v, *all;
	struct kma_caller_order order;
	struct kma_table *t;
	uint32_t nr, i, total;
	char head[160], cols[160];
	const char *by = order_of(sort, &order);
	int err = 0;

	if (r.gens > 1 && kma_match_totals(m)->end_ts > g[r.gens - 1].ts)
		r.tail_ns = kma_match_totals(m)->end_ts - g[r.gens - 1].ts;
	all = kma_match_callers(m, &total);
	v = kma_callers_sorted(all, total, has_net, &order, &nr);
	if (!v)
		return -1;
	if (fmt == KMA_FMT_TEXT) {
		char what[64];

		snprintf(what, sizeof(what), "%s by outstanding bytes", heading(key));
		kma_report_leaks_head(out, what, by, &r, "live allocations made");
	}
	snprintf(cols, sizeof(cols), "net:n live:n age_min:t age_med:t age_max:t grew:n run:n "
		 "suspect:s confidence:s %s:s class:s why:s", key);
	t = kma_table_new(cols);
	for (i = 0; t && !err && i < nr && (!limit || i < limit); i++)
		err |= leak_row(t, fmt, v[i], &r);
	free(v);
	snprintf(head, sizeof(head), "\"generations\": %u, \"lost_events\": %" PRIu64
		 ", \"sorted_by\": \"%s\", \"tail_ns\": %" PRIu64, r.gens, lost, by, r.tail_ns);
	return kma_table_finish(out, t, fmt, "leaks", head, err);
}

/* --- modules --- */

/* The cells of one leftovers row but the caller's. */
static int leftover_cells(struct kma_table *t, enum kma_fmt fmt, const struct kma_module *mod,
			  uint64_t allocs, uint64_t bytes, uint64_t live, uint64_t live_bytes)
{
	int err = 0;

	err |= kma_table_str(t, mod->name);
	err |= kma_table_ts(t, fmt, mod->free_ts);
	err |= kma_table_u64(t, allocs);
	err |= kma_table_u64(t, bytes);
	err |= kma_table_u64(t, live);
	err |= kma_table_u64(t, live_bytes);
	return err;
}

int kma_report_leftovers(FILE *out, struct kma_match *m, enum kma_fmt fmt)
{
	const struct kma_module *mod;
	const struct kma_leftover *e;
	const struct kma_caller *c;
	struct kma_table *t;
	uint32_t nr, nc, ne, i, j;
	int err = 0;

	mod = kma_match_modules(m, &nr);
	c = kma_match_callers(m, &nc);
	e = kma_match_leftovers(m, &ne);
	if (!nr && fmt == KMA_FMT_TEXT)
		fprintf(out, "No module load/unload events in the trace (record module:module_load "
			"and module:module_free).\n");
	t = kma_table_new("module:s unloaded:t allocs:n bytes:n still_live:n still_live_bytes:n "
			  "caller:s");
	for (i = 0; t && !err && i < nr; i++) {
		if (!mod[i].free_ts)
			continue;
		/* one row for the unload, then one per call site it left allocations of */
		err |= leftover_cells(t, fmt, &mod[i], mod[i].left, mod[i].left_bytes,
				      mod[i].left_live, mod[i].left_live_bytes);
		err |= kma_table_null(t);
		for (j = 0; j < ne && !err; j++) {
			if (e[j].module != i)
				continue;
			err |= leftover_cells(t, fmt, &mod[i], e[j].allocs, e[j].bytes,
					      e[j].live, e[j].live_bytes);
			err |= kma_table_str(t, c[e[j].caller_id].name);
		}
	}
	return kma_table_finish(out, t, fmt, "leftovers", NULL, err);
}
