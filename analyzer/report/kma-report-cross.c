// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-cross.c - --cross-cpu: per caller, frees on another CPU than the
 * allocation and, with a CPU -> node map, allocations asking for a node made
 * on a CPU of another node, with perf kmem stat's summary line.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "kma-caller-sort.h"
#include "kma-report-cross.h"

static int has_allocs(const struct kma_caller *c)
{
	return c->allocs > 0;
}

/* One decimal, as report.db's cross_cpu_stats rounds it; "-" when no frees. */
static void pct(char *buf, size_t len, uint64_t part, uint64_t whole)
{
	if (!whole)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", 100.0 * (double)part / (double)whole);
}

static int add_row(struct kma_table *t, const struct kma_cross_row *r, const char *name,
		   int map)
{
	char p[16];
	int err = 0;

	pct(p, sizeof(p), r->cross_frees, r->frees);
	err |= kma_table_u64(t, r->allocs);
	err |= kma_table_u64(t, r->frees);
	err |= kma_table_u64(t, r->cross_frees);
	err |= r->frees ? kma_table_str(t, p) : kma_table_null(t);
	err |= kma_table_u64(t, r->node_allocs);
	if (map)
		err |= kma_table_u64(t, r->cross_node);
	err |= kma_table_str(t, name);
	return err;
}

static void sum_rows(const struct kma_cross_row *r, size_t n, struct kma_cross_row *s)
{
	size_t i;

	for (i = 0; i < n; i++) {
		s->allocs += r[i].allocs;
		s->frees += r[i].frees;
		s->cross_frees += r[i].cross_frees;
		s->node_allocs += r[i].node_allocs;
		s->cross_node += r[i].cross_node;
		s->unmapped += r[i].unmapped;
	}
}

static void text_head(FILE *out, const char *map_from, enum kma_sort sort)
{
	fprintf(out, "Frees on another CPU than the allocation, and allocations asking for a "
		"node,\nsorted by %s", sort == KMA_SORT_CALLER ? "caller name" : kma_sort_name(sort));
	if (map_from)
		fprintf(out, "; cross_node: made on a CPU of another node (map from %s).\n",
			map_from);
	else
		fprintf(out, ".\nNode checks need a CPU -> node map (kma-record writes one; "
			"--cpu-nodes gives one): none here.\n");
}

static void text_summary(FILE *out, const struct kma_cross_row *s, int map)
{
	char p[16];

	pct(p, sizeof(p), s->cross_frees, s->frees);
	fprintf(out, "\nCross CPU frees: %" PRIu64 "/%" PRIu64 " (%s%%)\n", s->cross_frees,
		s->frees, p);
	if (map)
		fprintf(out, "Cross CPU allocations: %" PRIu64 "/%" PRIu64 "\n", s->cross_node,
			s->allocs);
	if (map && s->unmapped)
		fprintf(out, "(%" PRIu64 " allocations asking for a node were made on CPUs "
			"the map does not name)\n", s->unmapped);
}

int kma_report_cross(FILE *out, struct kma_match *m, const struct kma_cross *x,
		     const char *key, const char *map_from, enum kma_sort sort,
		     uint64_t limit, enum kma_fmt fmt)
{
	static const struct kma_cross_row none;
	const struct kma_cross_row **by_id, *rows;
	const struct kma_caller *all, **v;
	struct kma_cross_row sum = { 0 };
	struct kma_caller_order order;
	struct kma_table *t;
	uint32_t total, nr, i;
	char spec[160], head[256];
	size_t n, k;
	int err = 0;

	rows = kma_cross_rows(x, &n);
	all = kma_match_callers(m, &total);
	by_id = calloc(total ? total : 1, sizeof(*by_id));
	kma_sort_order(sort, &order);
	v = kma_callers_sorted(all, total, has_allocs, &order, &nr);
	if (!rows || !by_id || !v) {
		free(by_id);
		free(v);
		return -1;
	}
	for (k = 0; k < n; k++)
		if (rows[k].caller_id < total)
			by_id[rows[k].caller_id] = &rows[k];
	sum_rows(rows, n, &sum);
	if (fmt == KMA_FMT_TEXT)
		text_head(out, map_from, sort);
	snprintf(spec, sizeof(spec), "allocs:n frees:n cross_frees:n cross_pct:n node_allocs:n "
		 "%s%s:s", map_from ? "cross_node:n " : "", key);
	t = kma_table_new(spec);
	for (i = 0; t && !err && i < nr && (!limit || i < limit); i++) {
		const struct kma_cross_row *r = by_id[v[i] - all];

		err = add_row(t, r ? r : &none, v[i]->name, !!map_from);
	}
	free(by_id);
	free(v);
	snprintf(head, sizeof(head), "\"node_map\": %s, \"frees\": %" PRIu64 ", "
		 "\"cross_frees\": %" PRIu64 ", \"allocs\": %" PRIu64 ", \"node_allocs\": %"
		 PRIu64 "%s", map_from ? "true" : "false", sum.frees, sum.cross_frees,
		 sum.allocs, sum.node_allocs, "");
	if (map_from)
		snprintf(head + strlen(head), sizeof(head) - strlen(head),
			 ", \"cross_allocs\": %" PRIu64, sum.cross_node);
	if (kma_table_finish(out, t, fmt, "cross-cpu", head, err))
		return -1;
	if (fmt == KMA_FMT_TEXT)
		text_summary(out, &sum, !!map_from);
	return 0;
}
