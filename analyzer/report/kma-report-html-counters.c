// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-html-counters.c - the --html page's "counters" member with
 * --counters: the snapshots, and the slab, meminfo and allocinfo rows as
 * kma-analyze --counters -f csv has them (same rows, same order), which
 * kma-report-html.js shows as tables. Without --counters: no member.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kma-table.h"
#include "kma-report-html.h"

static void num(FILE *out, int has, int64_t v)
{
	if (has)
		fprintf(out, ",%" PRId64, v);
	else
		fputs(",null", out);
}

static void str(FILE *out, const char *s, int first)
{
	if (!first)
		fputc(',', out);
	if (s)
		kma_json_str_html(out, s);
	else
		fputs("null", out);
}

static void snaps(FILE *out, const struct kma_counters *c)
{
	const struct kma_cnt_snap *s = kma_counters_snaps(c);
	int i, n = 0;

	fputs("\"snapshots\":[", out);
	for (i = 0; i < KMA_CNT_KINDS * KMA_CNT_PHASES; i++) {
		if (!s[i].seen)
			continue;
		fputs(n++ ? ",[" : "[", out);
		str(out, kma_cnt_kind_name(s[i].kind), 1);
		str(out, kma_cnt_phase_name(s[i].phase), 0);
		fprintf(out, ",%" PRIu64 ",%d,%d", s[i].ts, s[i].complete,
			kma_counters_usable(c, s[i].kind));
		str(out, s[i].why, 0);
		fputc(']', out);
	}
	fputc(']', out);
}

/* The rows --counters shows (something changed, or not in slabinfo), in its order. */
static int slab(FILE *out, const struct kma_counters *c)
{
	size_t n, i;
	const struct kma_cnt_slab **v = kma_counters_slab_shown(c, &n);

	if (!v)
		return -1;
	fputs(",\"slab\":[", out);
	for (i = 0; i < n; i++) {
		int k = v[i]->state == KMA_CNT_SLAB_BOTH;

		fputs(i ? ",[" : "[", out);
		str(out, v[i]->cache, 1);
		str(out, kma_cnt_slab_state_name(v[i]->state), 0);
		str(out, v[i]->target, 0);
		num(out, v[i]->objsize > 0, (int64_t)v[i]->objsize);
		num(out, k, v[i]->k_start);
		num(out, k, v[i]->k_end);
		num(out, k, v[i]->k_delta);
		num(out, 1, v[i]->allocs);
		num(out, 1, v[i]->frees);
		num(out, 1, v[i]->implicit);
		num(out, 1, v[i]->t_delta);
		num(out, k, v[i]->untraced);
		fputc(']', out);
	}
	fputc(']', out);
	free(v);
	return 0;
}

static void mem(FILE *out, const struct kma_counters *c)
{
	size_t n, i;
	const struct kma_cnt_mem *m = kma_counters_mem(c, &n);

	fputs(",\"meminfo\":[", out);
	for (i = 0; i < n; i++) {
		fputs(i ? ",[" : "[", out);
		str(out, m[i].field, 1);
		num(out, 1, m[i].k_start * 1024);
		num(out, 1, m[i].k_end * 1024);
		num(out, 1, m[i].k_delta);
		num(out, m[i].has_trace, m[i].t_delta);
		num(out, m[i].has_trace, m[i].untraced);
		fputc(']', out);
	}
	fputc(']', out);
}

static void alloc(FILE *out, const struct kma_counters *c)
{
	size_t n, i;
	const struct kma_cnt_alloc *a = kma_counters_alloc_rows(c, &n);

	fputs(",\"allocinfo\":[", out);
	for (i = 0; i < n; i++) {
		fputs(i ? ",[" : "[", out);
		str(out, a[i].func, 1);
		num(out, 1, a[i].k_start);
		num(out, 1, a[i].k_end);
		num(out, 1, a[i].k_bytes);
		num(out, 1, a[i].k_calls);
		num(out, 1, a[i].t_allocs);
		num(out, 1, a[i].t_net);
		num(out, 1, a[i].untraced);
		num(out, 1, a[i].tags);
		fputc(']', out);
	}
	fputc(']', out);
}

int kma_html_write_counters(FILE *out, const struct kma_counters *c)
{
	const struct kma_cnt_totals *t;

	if (!c)
		return 0;
	t = kma_counters_totals(c);
	fputs(",\"counters\":{", out);
	snaps(out, c);
	if (slab(out, c))
		return -1;
	mem(out, c);
	alloc(out, c);
	fprintf(out, ",\"unknown_frees\":%" PRIu64 ",\"mem_unknown_frees\":%" PRIu64 "}",
		t->unknown_frees, t->mem_unknown_frees);
	return 0;
}
