// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-leaks.c - leak suspects and module leftovers, as text, CSV or JSON.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "match/kma-leak.h"
#include "kma-caller-sort.h"
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

int kma_report_leaks(FILE *out, struct kma_match *m, const char *key, uint64_t lost,
		     uint64_t young_ns, uint64_t limit, enum kma_fmt fmt)
{
	static const struct kma_caller_order by_net = { .key = kma_caller_net };
	const struct kma_caller **v, *all;
	struct kma_table *t;
	uint32_t nr, gens, i, total;
	char head[96], cols[160];
	int err = 0;

	kma_match_generations(m, &gens);
	all = kma_match_callers(m, &total);
	v = kma_callers_sorted(all, total, has_net, &by_net, &nr);
	if (!v)
		return -1;
	if (fmt == KMA_FMT_TEXT) {
		fprintf(out, "%s by outstanding bytes at the end of the trace (%u generation%s; "
			"a suspect grew in %d or more in a row).\n", heading(key), gens,
			gens == 1 ? "" : "s", KMA_LEAK_MIN_RUN);
		if (gens < KMA_LEAK_MIN_RUN)
			fprintf(out, "Too few generations to call anything a suspect: mark them "
				"with 'echo \"kma: LABEL\" > /sys/kernel/tracing/trace_marker'.\n");
	}
	snprintf(cols, sizeof(cols), "net:n live:n age_min:n age_avg:n age_max:n grew:n run:n "
		 "suspect:s confidence:s %s:s why:s", key);
	t = kma_table_new(cols);
	for (i = 0; t && !err && i < nr && (!limit || i < limit); i++) {
		const struct kma_caller *c = v[i];
		struct kma_leak leak;

		kma_leak_assess(c, lost, young_ns, &leak);
		err |= kma_table_u64(t, c->net);
		err |= kma_table_u64(t, c->live);
		err |= kma_table_dur(t, fmt, c->age_min);
		err |= kma_table_dur(t, fmt, c->live ? c->age_sum / c->live : 0);
		err |= kma_table_dur(t, fmt, c->age_max);
		err |= kma_table_u64(t, c->grew_gens);
		err |= kma_table_u64(t, c->max_grow_run);
		err |= kma_table_str(t, leak.suspect ? "yes" : "no");
		err |= kma_table_str(t, leak.confidence);
		err |= kma_table_str(t, c->name);
		err |= kma_table_str(t, leak.why[0] ? leak.why : NULL);
	}
	free(v);
	snprintf(head, sizeof(head), "\"generations\": %u, \"lost_events\": %" PRIu64, gens, lost);
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
