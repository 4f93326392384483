// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-extra.c - generations, leak suspects, lifetimes, peak, module
 * leftovers and allocation lists, as text, CSV or JSON.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "match/kma-leak.h"
#include "kma-report-extra.h"

/* Durations and timestamps: readable in text, nanoseconds in CSV and JSON. */
static int dur_cell(struct kma_table *t, enum kma_fmt fmt, uint64_t ns)
{
	char buf[32];

	if (fmt != KMA_FMT_TEXT)
		return kma_table_u64(t, ns);
	kma_fmt_dur(buf, sizeof(buf), ns);
	return kma_table_str(t, buf);
}

static int ts_cell(struct kma_table *t, enum kma_fmt fmt, uint64_t ns)
{
	char buf[32];

	if (fmt != KMA_FMT_TEXT)
		return kma_table_u64(t, ns);
	kma_fmt_ts(buf, sizeof(buf), ns);
	return kma_table_str(t, buf);
}

/* Columns from a "name:n name:s ..." spec: n numeric, s string. */
static struct kma_table *new_table(const char *spec)
{
	struct kma_table *t = kma_table_alloc();
	char name[48];
	const char *p = spec;
	int n;

	while (t && sscanf(p, "%47[^:]:%*c%n", name, &n) == 1) {
		if (kma_table_col(t, name, p[n - 1] == 'n')) {
			kma_table_free(t);
			return NULL;
		}
		p += n;
		while (*p == ' ')
			p++;
	}
	return t;
}

/* Prints t, in JSON as {"report": name, <head>, "rows": [...]}; frees t. */
static int finish(FILE *out, struct kma_table *t, enum kma_fmt fmt, const char *name,
		  const char *json_head, int err)
{
	if (!t || err) {
		kma_table_free(t);
		return -1;
	}
	if (fmt == KMA_FMT_JSON) {
		fprintf(out, "{\"report\": \"%s\", %s%s\"rows\": ", name, json_head ? json_head : "",
			json_head ? ", " : "");
		err = kma_table_print(out, t, fmt);
		fputs("}\n", out);
	} else {
		err = kma_table_print(out, t, fmt);
	}
	kma_table_free(t);
	return err || ferror(out) ? -1 : 0;
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

int kma_list_print(FILE *out, struct kma_list *l, uint64_t end_ts, uint64_t limit,
		   enum kma_fmt fmt)
{
	struct kma_table *t;
	size_t i, n;
	char ptr[24], head[64];
	int err = 0;

	qsort(l->rows, l->nr, sizeof(*l->rows), cmp_rows);
	n = limit && limit < l->nr ? limit : l->nr;
	if (fmt == KMA_FMT_TEXT)
		fprintf(out, "%zu allocations%s\n", l->nr,
			l->outstanding_only ? ", still live at the end of the trace" : "");
	t = new_table(l->outstanding_only ?
		      "time:n gen:n ptr:s bytes:n req:n cache:s pid:n comm:s age:n caller:s" :
		      "time:n gen:n ptr:s bytes:n req:n cache:s pid:n comm:s lifetime:n caller:s");
	for (i = 0; t && !err && i < n; i++) {
		const struct kma_alloc_row *r = &l->rows[i];

		snprintf(ptr, sizeof(ptr), "0x%" PRIx64, r->ptr);
		err |= ts_cell(t, fmt, r->alloc_ts);
		err |= kma_table_u64(t, r->generation);
		err |= kma_table_str(t, ptr);
		err |= kma_table_u64(t, r->bytes_alloc);
		err |= kma_table_u64(t, r->bytes_req);
		err |= kma_table_str(t, r->cache);
		err |= kma_table_u64(t, (uint64_t)(uint32_t)r->pid);
		err |= kma_table_str(t, r->comm);
		if (r->free_kind >= 0)
			err |= dur_cell(t, fmt, r->free_ts - r->alloc_ts);
		else if (l->outstanding_only)
			err |= dur_cell(t, fmt, end_ts - r->alloc_ts);
		else
			err |= kma_table_null(t);	/* still live */
		err |= kma_table_str(t, r->caller);
	}
	snprintf(head, sizeof(head), "\"allocations\": %zu", l->nr);
	return finish(out, t, fmt, "list", head, err);
}

/* --- generations --- */

int kma_report_generations(FILE *out, struct kma_match *m, uint64_t first_ts, enum kma_fmt fmt)
{
	const struct kma_generation *g = NULL;
	struct kma_table *t = new_table("gen:n start:n allocs:n bytes:n live:n live_bytes:n "
					"frees:n label:s");
	uint32_t nr, i;
	int err = 0;

	g = kma_match_generations(m, &nr);
	for (i = 0; t && !err && i < nr; i++) {
		err |= kma_table_u64(t, i);
		err |= ts_cell(t, fmt, i ? g[i].ts : first_ts);
		err |= kma_table_u64(t, g[i].allocs);
		err |= kma_table_u64(t, g[i].bytes);
		err |= kma_table_u64(t, g[i].live);
		err |= kma_table_u64(t, g[i].live_bytes);
		err |= kma_table_u64(t, g[i].frees);
		err |= kma_table_str(t, g[i].label ? g[i].label : "");
	}
	return finish(out, t, fmt, "generations", NULL, err);
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

/* Callers with keep(c) != 0, sorted by net descending; NULL on out of memory. */
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
		     uint64_t limit, enum kma_fmt fmt)
{
	const struct kma_caller **v;
	struct kma_table *t;
	uint32_t nr, gens, i;
	char head[96];
	int err = 0;

	kma_match_generations(m, &gens);
	v = sorted_callers(m, &nr, has_net);
	if (!v)
		return -1;
	if (fmt == KMA_FMT_TEXT) {
		fprintf(out, "Callers by outstanding bytes at the end of the trace (%u generation%s; "
			"a suspect grew in %d or more in a row).\n", gens, gens == 1 ? "" : "s",
			KMA_LEAK_MIN_RUN);
		if (gens < KMA_LEAK_MIN_RUN)
			fprintf(out, "Too few generations to call anything a suspect: mark them "
				"with 'echo \"kma: LABEL\" > /sys/kernel/tracing/trace_marker'.\n");
	}
	t = new_table("net:n live:n age_min:n age_avg:n age_max:n grew:n run:n suspect:s "
		      "confidence:s caller:s why:s");
	for (i = 0; t && !err && i < nr && (!limit || i < limit); i++) {
		const struct kma_caller *c = v[i];
		struct kma_leak leak;

		kma_leak_assess(c, lost, young_ns, &leak);
		err |= kma_table_u64(t, c->net);
		err |= kma_table_u64(t, c->live);
		err |= dur_cell(t, fmt, c->age_min);
		err |= dur_cell(t, fmt, c->live ? c->age_sum / c->live : 0);
		err |= dur_cell(t, fmt, c->age_max);
		err |= kma_table_u64(t, c->grew_gens);
		err |= kma_table_u64(t, c->max_grow_run);
		err |= kma_table_str(t, leak.suspect ? "yes" : "no");
		err |= kma_table_str(t, leak.confidence);
		err |= kma_table_str(t, c->name);
		err |= kma_table_str(t, leak.why[0] ? leak.why : NULL);
	}
	free(v);
	snprintf(head, sizeof(head), "\"generations\": %u, \"lost_events\": %" PRIu64, gens, lost);
	return finish(out, t, fmt, "leaks", head, err);
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

int kma_report_lifetimes(FILE *out, struct kma_match *m, uint64_t limit, enum kma_fmt fmt)
{
	const struct kma_caller **v, *all;
	struct kma_table *t;
	uint32_t nr, i, total;
	int err = 0;

	all = kma_match_callers(m, &total);
	v = sorted_callers(m, &nr, has_frees);
	if (!v)
		return -1;
	if (fmt == KMA_FMT_TEXT)
		fprintf(out, "Alloc -> free lifetimes of traced frees (median and p99 by nearest "
			"rank; temporary: freed within the threshold).\n");
	t = new_table("frees:n min:n median:n p99:n max:n temporary:n caller:s");
	for (i = 0; t && !err && i < nr && (!limit || i < limit); i++) {
		uint64_t n;
		const uint64_t *l = kma_match_lifetimes(m, (uint32_t)(v[i] - all), &n);

		err |= kma_table_u64(t, v[i]->life_n);
		err |= dur_cell(t, fmt, v[i]->life_min);
		err |= n ? dur_cell(t, fmt, percentile(l, n, 50)) : kma_table_null(t);
		err |= n ? dur_cell(t, fmt, percentile(l, n, 99)) : kma_table_null(t);
		err |= dur_cell(t, fmt, v[i]->life_max);
		err |= kma_table_u64(t, v[i]->temporary);
		err |= kma_table_str(t, v[i]->name);
	}
	free(v);
	return finish(out, t, fmt, "lifetimes", NULL, err);
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

int kma_report_peak(FILE *out, struct kma_match *m, uint64_t first_ts, uint64_t limit,
		    enum kma_fmt fmt)
{
	const struct kma_totals *tot = kma_match_totals(m);
	const struct kma_caller **v;
	struct kma_table *t;
	uint32_t nr, i;
	char ts[32], rel[32], head[96];
	int err = 0;

	v = sorted_callers(m, &nr, had_peak);
	if (!v)
		return -1;
	qsort(v, nr, sizeof(*v), cmp_peak_desc);
	if (fmt == KMA_FMT_TEXT) {
		kma_fmt_ts(ts, sizeof(ts), tot->peak_ts);
		kma_fmt_dur(rel, sizeof(rel), tot->peak_ts - first_ts);
		fprintf(out, "peak live bytes: %" PRIu64 " at %s (%s into the trace)\n",
			tot->peak_net, tot->peak_net ? ts : "-", tot->peak_net ? rel : "-");
	}
	t = new_table("held:n caller:s");
	for (i = 0; t && !err && i < nr && (!limit || i < limit); i++) {
		err |= kma_table_u64(t, v[i]->net_at_peak);
		err |= kma_table_str(t, v[i]->name);
	}
	free(v);
	snprintf(head, sizeof(head), "\"peak_bytes\": %" PRIu64 ", \"peak_ts\": %" PRIu64,
		 tot->peak_net, tot->peak_ts);
	return finish(out, t, fmt, "peak", head, err);
}

/* --- modules --- */

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
	t = new_table("module:s unloaded:n allocs:n bytes:n still_live:n still_live_bytes:n "
		      "caller:s");
	for (i = 0; t && !err && i < nr; i++) {
		if (!mod[i].free_ts)
			continue;
		/* one row for the unload, then one per call site it left allocations of */
		err |= kma_table_str(t, mod[i].name);
		err |= ts_cell(t, fmt, mod[i].free_ts);
		err |= kma_table_u64(t, mod[i].left);
		err |= kma_table_u64(t, mod[i].left_bytes);
		err |= kma_table_u64(t, mod[i].left_live);
		err |= kma_table_u64(t, mod[i].left_live_bytes);
		err |= kma_table_null(t);
		for (j = 0; j < ne && !err; j++) {
			if (e[j].module != i)
				continue;
			err |= kma_table_str(t, mod[i].name);
			err |= ts_cell(t, fmt, mod[i].free_ts);
			err |= kma_table_u64(t, e[j].allocs);
			err |= kma_table_u64(t, e[j].bytes);
			err |= kma_table_u64(t, e[j].live);
			err |= kma_table_u64(t, e[j].live_bytes);
			err |= kma_table_str(t, c[e[j].caller_id].name);
		}
	}
	(void)nc;
	return finish(out, t, fmt, "leftovers", NULL, err);
}

/* --- sizing advice --- */

/* SLUB aligns objects of a cache of its own to at least 8 bytes. */
#define KMA_CACHE_ALIGN(x)	(((x) + 7) & ~7ULL)

static uint64_t size_slack(const struct kma_size *s)
{
	return s->allocs * (s->bytes_alloc - s->bytes_req);
}

static int cmp_size_slack(const void *a, const void *b)
{
	const struct kma_size *x = *(const struct kma_size * const *)a;
	const struct kma_size *y = *(const struct kma_size * const *)b;
	uint64_t sx = size_slack(x), sy = size_slack(y);

	if (sx != sy)
		return sx > sy ? -1 : 1;
	if (x->caller_id != y->caller_id)
		return x->caller_id < y->caller_id ? -1 : 1;
	return x->bytes_req < y->bytes_req ? -1 : x->bytes_req > y->bytes_req;
}

int kma_report_advice(FILE *out, struct kma_match *m, uint64_t limit, enum kma_fmt fmt)
{
	const struct kma_size *sizes, **v;
	const struct kma_caller *c;
	struct kma_table *t;
	uint32_t nr, nc, i, n = 0;
	char cls[32], advice[256];
	int err = 0;

	sizes = kma_match_sizes(m, &nr);
	c = kma_match_callers(m, &nc);
	v = malloc((nr ? nr : 1) * sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < nr; i++)
		if (sizes[i].bytes_alloc > KMA_CACHE_ALIGN(sizes[i].bytes_req))
			v[n++] = &sizes[i];
	qsort(v, n, sizeof(*v), cmp_size_slack);
	if (fmt == KMA_FMT_TEXT)
		fprintf(out, "kmalloc slack by caller and request size. A dedicated kmem_cache "
			"holds objects of the request size\n(aligned to 8), so it would save "
			"(bytes_alloc - aligned size) per allocation.\n");
	t = new_table("slack:n allocs:n live:n req:n alloc:n cache:s slack_pct:n dedicated:n "
		      "saved:n saved_live:n caller:s advice:s");
	for (i = 0; t && !err && i < n && (!limit || i < limit); i++) {
		const struct kma_size *s = v[i];
		uint64_t ded = KMA_CACHE_ALIGN(s->bytes_req), per = s->bytes_alloc - ded;
		char pct[48];

		kma_kmalloc_class(cls, sizeof(cls), s->bytes_alloc);
		/* one decimal, truncated, in integers */
		snprintf(pct, sizeof(pct), "%" PRIu64 ".%" PRIu64,
			 (s->bytes_alloc - s->bytes_req) * 1000 / s->bytes_alloc / 10,
			 (s->bytes_alloc - s->bytes_req) * 1000 / s->bytes_alloc % 10);
		snprintf(advice, sizeof(advice), "kmalloc(%" PRIu64 ") -> %s, %s%% slack; a "
			 "dedicated kmem_cache of %" PRIu64 " would save %" PRIu64 " bytes over "
			 "this trace", s->bytes_req, cls, pct, ded, s->allocs * per);
		err |= kma_table_u64(t, size_slack(s));
		err |= kma_table_u64(t, s->allocs);
		err |= kma_table_u64(t, s->live);
		err |= kma_table_u64(t, s->bytes_req);
		err |= kma_table_u64(t, s->bytes_alloc);
		err |= kma_table_str(t, cls);
		err |= kma_table_str(t, pct);
		err |= kma_table_u64(t, ded);
		err |= kma_table_u64(t, s->allocs * per);
		err |= kma_table_u64(t, s->live * per);
		err |= kma_table_str(t, c[s->caller_id].name);
		err |= kma_table_str(t, advice);
	}
	free(v);
	return finish(out, t, fmt, "advice", NULL, err);
}
