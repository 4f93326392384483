// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-pages-time.c - kma-analyze --pages --leaks and --pages --peak,
 * as text, CSV or JSON: the page allocator's answer to the slab reports of
 * the same names (kma-report-leaks.c, kma-report-time.c), with pages for bytes. The leak verdicts are kma-leak.c's, on a slab
 * caller made of the page row (net = live pages * PAGE_SIZE).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "match/kma-leak.h"
#include "kma-report-pages.h"
#include "kma-report-leaks.h"
#include "kma-time.h"

static uint64_t page_size(const struct kma_page_report *r)
{
	return r->info->sys_page_size ? r->info->sys_page_size : 4096;
}

/* The grouping of --leaks, --peak: -g, else function with stacks, else comm. */
static int rows_group(const struct kma_page_report *r)
{
	if (r->group >= 0)
		return r->group;
	return kma_pagealloc_totals(r->m)->stacked ? KMA_PG_FUNCTION : KMA_PG_COMM;
}

/* One row: the verdict of kma-leak.c on it, as on a slab caller. */
static void leak_line(const struct kma_page_report *r, int g, const struct kma_caller *row,
		      const struct kma_page_age *age, const struct kma_leak_rules *rules,
		      struct kma_leak_line *l, char *key, size_t len)
{
	uint64_t psz = page_size(r);
	struct kma_caller c = *row;	/* kma-leak.c reads it in bytes */

	kma_report_pages_key(NULL, g, row, key, len);
	/* the whole name (a folded stack is longer than key), as the cell has it */
	c.name = row->name && g != KMA_PG_PID && g != KMA_PG_MIGRATE ? row->name : key;
	c.net = row->net * psz;
	c.tail_live_bytes = row->tail_live_bytes * psz;
	c.age_median = age->median;
	*l = (struct kma_leak_line){
		.name = c.name, .net = c.net, .live = c.live, .pages = row->net,
		.age_min = age->min, .age_med = age->median, .age_max = age->max,
		.grew = row->grew_gens, .run = row->max_grow_run,
		.reclaim_freed = row->reclaim_freed, .iter = row->iter_live,
		.nr_iters = row->nr_iters,
	};
	kma_leak_assess(&c, rules, &l->v);
}

#define KEY_LEN	256

int kma_report_page_leaks(FILE *out, const struct kma_page_report *r)
{
	int g = rows_group(r);
	struct kma_leak_rules rules = { .lost = kma_trace_lost(r->info, NULL),
					.young_ns = r->young_ns, .unit = "page allocations" };
	const struct kma_page_gen *gens = kma_pagealloc_gens(r->m, &rules.gens);
	const struct kma_caller *rows, **ord;
	struct kma_leak_show show = r->show;
	struct kma_leak_line *lines;
	struct kma_page_age *ages;
	uint32_t nr, i, n = 0;
	char head[200], *keys;
	int err;

	/* the cache-growth names are functions: they say nothing of a task or an order */
	if (g == KMA_PG_FUNCTION || g == KMA_PG_STACK)
		rules.growth = r->growth ? r->growth : kma_leak_growth_default;
	for (i = 0; i < rules.gens; i++)
		kma_leak_phase_add(&rules.phases, i, gens[i].label);
	if (rules.gens > 1 && r->info->last_ts > gens[rules.gens - 1].ts)
		rules.tail_ns = r->info->last_ts - gens[rules.gens - 1].ts;
	rows = kma_pagealloc_rows(r->m, g, &nr);
	ord = malloc((nr + 1) * sizeof(*ord));
	ages = malloc((nr + 1) * sizeof(*ages));
	lines = calloc(nr + 1, sizeof(*lines));
	keys = malloc((size_t)(nr + 1) * KEY_LEN);
	err = !ord || !ages || !lines || !keys ||
	      kma_pagealloc_ages(r->m, g, r->info->last_ts, ages);
	for (i = 0; !err && i < nr; i++)
		if (rows[i].net)
			ord[n++] = &rows[i];
	if (!err) {
		kma_report_pages_sort(ord, n, r->sort);
		for (i = 0; i < n; i++) {
			leak_line(r, g, ord[i], &ages[ord[i] - rows], &rules, &lines[i],
				  keys + (size_t)i * KEY_LEN, KEY_LEN);
			lines[i].order = i;
		}
	}
	if (!err && r->fmt == KMA_FMT_TEXT) {
		char what[64];

		snprintf(what, sizeof(what), "Pages by %s, live", kma_page_group_name(g));
		kma_report_leaks_head(out, what, kma_report_pages_sort_name(r->sort), &rules,
				      "live pages allocated");
	}
	snprintf(head, sizeof(head), "\"group\": \"%s\", \"page_size\": %" PRIu64
		 ", \"generations\": %u, \"iterations\": %u, \"lost_events\": %" PRIu64
		 ", \"tail_ns\": %" PRIu64, kma_page_group_name(g), page_size(r), rules.gens,
		 rules.phases.iters, rules.lost, rules.tail_ns);
	show.fmt = r->fmt;
	show.limit = r->limit;
	if (!err)
		err = kma_report_leak_lines(out, lines, n, kma_page_group_name(g), 1, &show, head);
	free(ord);
	free(ages);
	free(lines);
	free(keys);
	return err ? -1 : 0;
}

/* Rows by pages held at the peak, then by key. */
static int cmp_peak(const void *a, const void *b)
{
	const struct kma_caller *x = *(const struct kma_caller * const *)a;
	const struct kma_caller *y = *(const struct kma_caller * const *)b;
	int c;

	if (x->net_at_peak != y->net_at_peak)
		return x->net_at_peak > y->net_at_peak ? -1 : 1;
	if (x->name && y->name && (c = strcmp(x->name, y->name)))
		return c;
	return x->address < y->address ? -1 : x->address > y->address;
}

/*
 * --pages --peak: the most pages live at once (the first time it was
 * reached), and the pages each row held then.
 */
int kma_report_page_peak(FILE *out, const struct kma_page_report *r)
{
	const struct kma_page_totals *tot = kma_pagealloc_totals(r->m);
	uint64_t psz = page_size(r), rel_ns = 0;
	int g = rows_group(r);
	const struct kma_caller *rows, **ord;
	struct kma_table *t;
	uint32_t nr, i, n = 0;
	char cols[64], head[200], ts[32], rel[32];
	int err = 0;

	rows = kma_pagealloc_rows(r->m, g, &nr);
	ord = malloc((nr + 1) * sizeof(*ord));
	snprintf(cols, sizeof(cols), "pages:n bytes:n %s:s", kma_page_group_name(g));
	t = kma_table_new(cols);
	if (!ord || !t) {
		free(ord);
		kma_table_free(t);
		return -1;
	}
	for (i = 0; i < nr; i++)
		if (rows[i].net_at_peak)
			ord[n++] = &rows[i];
	qsort(ord, n, sizeof(*ord), cmp_peak);
	if (tot->peak_pages && tot->peak_ts > r->info->first_ts)
		rel_ns = tot->peak_ts - r->info->first_ts;
	if (r->fmt == KMA_FMT_TEXT) {
		kma_fmt_secs(ts, sizeof(ts), tot->peak_ts);
		kma_fmt_secs(rel, sizeof(rel), rel_ns);
		fprintf(out, "peak live pages: %" PRIu64 " (%" PRIu64 " bytes) at %s (%s into "
			"the trace)\nPages held at the peak by %s, sorted by pages.\n",
			tot->peak_pages, tot->peak_pages * psz, tot->peak_pages ? ts : "-",
			tot->peak_pages ? rel : "-", kma_page_group_name(g));
	}
	for (i = 0; !err && i < n && (!r->limit || i < r->limit); i++) {
		err |= kma_table_u64(t, ord[i]->net_at_peak);
		err |= kma_table_u64(t, ord[i]->net_at_peak * psz);
		err |= kma_report_pages_key(t, g, ord[i], cols, sizeof(cols));
	}
	free(ord);
	snprintf(head, sizeof(head), "\"group\": \"%s\", \"page_size\": %" PRIu64
		 ", \"peak_pages\": %" PRIu64 ", \"peak_ts\": %" PRIu64 ", \"peak_rel_ns\": %"
		 PRIu64, kma_page_group_name(g), psz, tot->peak_pages, tot->peak_ts, rel_ns);
	return kma_table_finish(out, t, r->fmt, "peak", head, err);
}

struct life_row {
	const struct kma_caller		*row;
	struct kma_quant		*q;	/* its lifetimes */
	uint64_t			n;
};

#define KMA_STR_(x)	#x
#define KMA_STR(x)	KMA_STR_(x)

/* By traced frees, then by key. */
static int cmp_life(const void *a, const void *b)
{
	const struct life_row *x = a, *y = b;
	int c;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	if (x->row->name && y->row->name && (c = strcmp(x->row->name, y->row->name)))
		return c;
	return x->row->address < y->row->address ? -1 : x->row->address > y->row->address;
}

/* --pages --lifetimes: alloc -> mm_page_free per row; implicit frees and live pages aside. */
int kma_report_page_lifetimes(FILE *out, const struct kma_page_report *r)
{
	int g = rows_group(r);
	const struct kma_caller *rows;
	struct life_row *v;
	struct kma_table *t;
	uint32_t nr, i, n = 0;
	char cols[160];
	int err = 0, bucketed;

	rows = kma_pagealloc_rows(r->m, g, &nr);
	v = malloc((nr + 1) * sizeof(*v));
	snprintf(cols, sizeof(cols), "frees:n min:t median:t p99:t max:t %s:s",
		 kma_page_group_name(g));
	t = kma_table_new(cols);
	if (!v || !t) {
		free(v);
		kma_table_free(t);
		return -1;
	}
	for (i = 0; i < nr; i++) {
		v[n].row = &rows[i];
		v[n].q = kma_pagealloc_lifetimes(r->m, g, i);
		v[n].n = v[n].q ? v[n].q->n : 0;
		n += v[n].n > 0;
	}
	qsort(v, n, sizeof(*v), cmp_life);
	bucketed = kma_pagealloc_lifetimes_bucketed(r->m, g);
	if (r->fmt == KMA_FMT_TEXT)
		fprintf(out, "Page lifetimes, mm_page_alloc -> mm_page_free, by %s, sorted by "
			"frees (median and p99 by nearest rank%s; implicit frees not counted).\n",
			kma_page_group_name(g), bucketed ? ", within " KMA_STR(KMA_QUANT_ERR_PCT)
			"% for rows with more than " KMA_STR(KMA_QUANT_SMALL) " frees: too many "
			"lifetimes to keep, counted in log-spaced buckets" : "");
	for (i = 0; !err && i < n && (!r->limit || i < r->limit); i++) {
		err |= kma_table_u64(t, v[i].n);
		err |= kma_table_dur(t, r->fmt, v[i].q->min);
		err |= kma_table_dur(t, r->fmt, kma_quant_pct(v[i].q, 50));
		err |= kma_table_dur(t, r->fmt, kma_quant_pct(v[i].q, 99));
		err |= kma_table_dur(t, r->fmt, v[i].q->max);
		err |= kma_report_pages_key(t, g, v[i].row, cols, sizeof(cols));
	}
	free(v);
	snprintf(cols, sizeof(cols), "\"group\": \"%s\"%s", kma_page_group_name(g),
		 bucketed ? ", \"bucketed_over_frees\": " KMA_STR(KMA_QUANT_SMALL)
		 ", \"bucketed_error_pct\": " KMA_STR(KMA_QUANT_ERR_PCT) : "");
	return kma_table_finish(out, t, r->fmt, "lifetimes", cols, err);
}
