// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-extra.c - generations, leak suspects, lifetimes, peak, modules
 * and allocation lists, as text.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kma-leak.h"
#include "kma-report-extra.h"

void kma_fmt_ts(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, ns / 1000000000, ns % 1000000000 / 1000);
}

void kma_fmt_dur(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else
		snprintf(buf, len, "%.3fs", ns / 1e9);
}

int kma_parse_dur(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; double mul; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1e9 },
	};
	char *end;
	double v;
	size_t i;

	if (!s || !*s || *s == '-')
		return -1;
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].unit)) {
			if (v * units[i].mul > 1.8e19)
				return -1;
			*ns = (uint64_t)llround(v * units[i].mul);
			return 0;
		}
	}
	return -1;
}

/* --- allocation lists --- */

struct kma_list {
	struct kma_alloc_row	*rows;
	size_t			nr, cap;
	int			outstanding_only;
};

struct kma_list *kma_list_alloc(int outstanding_only)
{
	struct kma_list *l = calloc(1, sizeof(*l));

	if (l)
		l->outstanding_only = outstanding_only;
	return l;
}

void kma_list_free(struct kma_list *l)
{
	if (!l)
		return;
	free(l->rows);
	free(l);
}

int kma_list_add(void *list, const struct kma_alloc_row *row)
{
	struct kma_list *l = list;

	if (!row->selected || (l->outstanding_only && row->free_kind >= 0))
		return 0;
	if (l->nr == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;
		struct kma_alloc_row *n = realloc(l->rows, cap * sizeof(*n));

		if (!n)
			return -1;
		l->rows = n;
		l->cap = cap;
	}
	l->rows[l->nr++] = *row;
	return 0;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct kma_alloc_row *x = a, *y = b;

	if (x->alloc_ts != y->alloc_ts)
		return x->alloc_ts < y->alloc_ts ? -1 : 1;
	return x->ptr < y->ptr ? -1 : x->ptr > y->ptr;
}

int kma_list_print(FILE *out, struct kma_list *l, uint64_t end_ts, uint64_t limit)
{
	size_t i, n;
	char ts[32], dur[32];

	qsort(l->rows, l->nr, sizeof(*l->rows), cmp_rows);
	n = limit && limit < l->nr ? limit : l->nr;
	fprintf(out, "%zu allocations%s\n", l->nr,
		l->outstanding_only ? ", still live at the end of the trace" : "");
	fprintf(out, "%17s %4s %-18s %8s %8s %-20s %8s %-16s %10s  %s\n", "time", "gen", "ptr",
		"bytes", "req", "cache", "pid", "comm", l->outstanding_only ? "age" : "lifetime",
		"caller");
	for (i = 0; i < n; i++) {
		const struct kma_alloc_row *r = &l->rows[i];

		kma_fmt_ts(ts, sizeof(ts), r->alloc_ts);
		if (r->free_kind >= 0)
			kma_fmt_dur(dur, sizeof(dur), r->free_ts - r->alloc_ts);
		else if (l->outstanding_only)
			kma_fmt_dur(dur, sizeof(dur), end_ts - r->alloc_ts);
		else
			snprintf(dur, sizeof(dur), "live");
		fprintf(out, "%17s %4u 0x%-16" PRIx64 " %8" PRIu64 " %8" PRIu64 " %-20s %8d %-16s "
			"%10s  %s\n", ts, r->generation, r->ptr, r->bytes_alloc, r->bytes_req,
			r->cache ? r->cache : "-", r->pid, r->comm ? r->comm : "-", dur, r->caller);
	}
	return ferror(out) ? -1 : 0;
}

/* --- generations --- */

int kma_report_generations(FILE *out, struct kma_match *m)
{
	const struct kma_generation *g;
	uint32_t nr, i;
	char ts[32];

	g = kma_match_generations(m, &nr);
	fprintf(out, "%4s %17s %10s %12s %10s %12s %10s  %s\n", "gen", "start", "allocs",
		"bytes", "live", "live bytes", "frees", "label");
	for (i = 0; i < nr; i++) {
		if (i)
			kma_fmt_ts(ts, sizeof(ts), g[i].ts);
		else
			snprintf(ts, sizeof(ts), "-");
		fprintf(out, "%4u %17s %10" PRIu64 " %12" PRIu64 " %10" PRIu64 " %12" PRIu64
			" %10" PRIu64 "  %s\n", i, ts, g[i].allocs, g[i].bytes, g[i].live,
			g[i].live_bytes, g[i].frees, g[i].label ? g[i].label : "");
	}
	return ferror(out) ? -1 : 0;
}

/* --- leaks --- */

static int cmp_net_desc(const void *a, const void *b)
{
	const struct kma_caller *x = *(const struct kma_caller * const *)a;
	const struct kma_caller *y = *(const struct kma_caller * const *)b;

	if (x->net != y->net)
		return x->net > y->net ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Callers with f(c) != 0, sorted by net descending; NULL on out of memory. */
static const struct kma_caller **sorted_callers(struct kma_match *m, uint32_t *nr,
						 int (*keep)(const struct kma_caller *))
{
	const struct kma_caller *c = kma_match_callers(m, nr), **v;
	uint32_t i, n = 0;

	v = malloc((*nr ? *nr : 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < *nr; i++)
		if (keep(&c[i]))
			v[n++] = &c[i];
	qsort(v, n, sizeof(*v), cmp_net_desc);
	*nr = n;
	return v;
}

static int has_net(const struct kma_caller *c)
{
	return c->net > 0;
}

int kma_report_leaks(FILE *out, struct kma_match *m, uint64_t lost, uint64_t young_ns,
		     uint64_t limit)
{
	const struct kma_caller **v;
	uint32_t nr, gens, i, suspects = 0;
	char amin[24], aavg[24], amax[24];

	kma_match_generations(m, &gens);
	v = sorted_callers(m, &nr, has_net);
	if (!v)
		return -1;
	fprintf(out, "Callers by outstanding bytes at the end of the trace (%u generation%s; a "
		"suspect grew in %d or more in a row).\n", gens, gens == 1 ? "" : "s",
		KMA_LEAK_MIN_RUN);
	if (gens < KMA_LEAK_MIN_RUN)
		fprintf(out, "Too few generations to call anything a suspect: mark them with "
			"'echo \"kma: LABEL\" > /sys/kernel/tracing/trace_marker'.\n");
	fprintf(out, "%12s %8s %10s %10s %10s %5s %4s %-7s %-6s  %s\n", "net", "live", "age min",
		"age avg", "age max", "grew", "run", "suspect", "conf", "caller");
	for (i = 0; i < nr && (!limit || i < limit); i++) {
		const struct kma_caller *c = v[i];
		struct kma_leak leak;

		kma_leak_assess(c, lost, young_ns, &leak);
		suspects += leak.suspect;
		kma_fmt_dur(amin, sizeof(amin), c->age_min);
		kma_fmt_dur(aavg, sizeof(aavg), c->live ? c->age_sum / c->live : 0);
		kma_fmt_dur(amax, sizeof(amax), c->age_max);
		fprintf(out, "%12" PRIu64 " %8" PRIu64 " %10s %10s %10s %5u %4u %-7s %-6s  %s\n",
			c->net, c->live, amin, aavg, amax, c->grew_gens, c->max_grow_run,
			leak.suspect ? "yes" : "no", leak.confidence, c->name);
		if (leak.why[0])
			fprintf(out, "%12s confidence lowered: %s\n", "", leak.why);
	}
	free(v);
	return ferror(out) ? -1 : 0;
}

/* --- lifetimes --- */

static int has_frees(const struct kma_caller *c)
{
	return c->life_n > 0;
}

/* Nearest rank: the ceil(p * n)-th smallest, p in percent. */
static uint64_t percentile(const uint64_t *v, uint64_t n, unsigned int p)
{
	uint64_t rank = (n * p + 99) / 100;

	return v[rank ? rank - 1 : 0];
}

int kma_report_lifetimes(FILE *out, struct kma_match *m, uint64_t limit)
{
	const struct kma_caller **v, *all;
	uint32_t nr, i, total;
	char a[24], b[24], c2[24], d[24];

	all = kma_match_callers(m, &total);
	v = sorted_callers(m, &nr, has_frees);
	if (!v)
		return -1;
	fprintf(out, "Alloc -> free lifetimes of traced frees (median and p99 by nearest rank; "
		"temporary: freed within the threshold).\n");
	fprintf(out, "%10s %10s %10s %10s %10s %10s  %s\n", "frees", "min", "median", "p99",
		"max", "temporary", "caller");
	for (i = 0; i < nr && (!limit || i < limit); i++) {
		uint64_t n;
		const uint64_t *l = kma_match_lifetimes(m, (uint32_t)(v[i] - all), &n);

		kma_fmt_dur(a, sizeof(a), v[i]->life_min);
		kma_fmt_dur(d, sizeof(d), v[i]->life_max);
		if (n) {
			kma_fmt_dur(b, sizeof(b), percentile(l, n, 50));
			kma_fmt_dur(c2, sizeof(c2), percentile(l, n, 99));
		} else {
			snprintf(b, sizeof(b), "-");
			snprintf(c2, sizeof(c2), "-");
		}
		fprintf(out, "%10" PRIu64 " %10s %10s %10s %10s %10" PRIu64 "  %s\n", v[i]->life_n,
			a, b, c2, d, v[i]->temporary, v[i]->name);
	}
	(void)total;
	free(v);
	return ferror(out) ? -1 : 0;
}

/* --- peak --- */

static int had_peak(const struct kma_caller *c)
{
	return c->net_at_peak > 0;
}

static int cmp_peak_desc(const void *a, const void *b)
{
	const struct kma_caller *x = *(const struct kma_caller * const *)a;
	const struct kma_caller *y = *(const struct kma_caller * const *)b;

	if (x->net_at_peak != y->net_at_peak)
		return x->net_at_peak > y->net_at_peak ? -1 : 1;
	return strcmp(x->name, y->name);
}

int kma_report_peak(FILE *out, struct kma_match *m, uint64_t first_ts, uint64_t limit)
{
	const struct kma_totals *t = kma_match_totals(m);
	const struct kma_caller **v;
	uint32_t nr, i;
	char ts[32], rel[32];

	v = sorted_callers(m, &nr, had_peak);
	if (!v)
		return -1;
	qsort(v, nr, sizeof(*v), cmp_peak_desc);
	kma_fmt_ts(ts, sizeof(ts), t->peak_ts);
	kma_fmt_dur(rel, sizeof(rel), t->peak_ts - first_ts);
	fprintf(out, "peak live bytes: %" PRIu64 " at %s (%s into the trace)\n", t->peak_net,
		t->peak_net ? ts : "-", t->peak_net ? rel : "-");
	fprintf(out, "%12s  %s\n", "held", "caller");
	for (i = 0; i < nr && (!limit || i < limit); i++)
		fprintf(out, "%12" PRIu64 "  %s\n", v[i]->net_at_peak, v[i]->name);
	free(v);
	return ferror(out) ? -1 : 0;
}

/* --- modules --- */

int kma_report_modules(FILE *out, struct kma_match *m)
{
	const struct kma_module *mod = NULL;
	const struct kma_caller *c;
	uint32_t nr, nc, i, j;
	char ts[32];

	mod = kma_match_modules(m, &nr);
	c = kma_match_callers(m, &nc);
	if (!nr) {
		fprintf(out, "No module load/unload events in the trace (record module:module_load "
			"and module:module_free).\n");
		return ferror(out) ? -1 : 0;
	}
	for (i = 0; i < nr; i++) {
		if (!mod[i].free_ts) {
			fprintf(out, "module %s: loaded, not unloaded during the trace\n", mod[i].name);
			continue;
		}
		kma_fmt_ts(ts, sizeof(ts), mod[i].free_ts);
		fprintf(out, "module %s: unloaded at %s, left behind %" PRIu64 " allocations (%"
			PRIu64 " bytes); still live at the end: %" PRIu64 " (%" PRIu64 " bytes)\n",
			mod[i].name, ts, mod[i].left, mod[i].left_bytes, mod[i].left_live,
			mod[i].left_live_bytes);
		for (j = 0; j < nc; j++)
			if (c[j].orphans && c[j].module && !strcmp(c[j].module, mod[i].name))
				fprintf(out, "  %10" PRIu64 " bytes in %6" PRIu64 " allocations, %6"
					PRIu64 " still live  %s\n", c[j].orphan_bytes, c[j].orphans,
					c[j].orphans_live, c[j].name);
	}
	return ferror(out) ? -1 : 0;
}
