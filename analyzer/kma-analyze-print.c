// SPDX-License-Identifier: GPL-2.0
/*
 * kma-analyze-print.c - which report kma-analyze prints, and the lines that
 * head the text reports (the filter, the recorder's own allocations).
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match/kma-kind.h"
#include "match/kma-leak.h"
#include "match/kma-match.h"
#include "match/kma-select.h"
#include "reader/kma-reader.h"
#include "report/kma-report-callers.h"
#include "report/kma-report-leaks.h"
#include "report/kma-report-advice.h"
#include "report/kma-report-cross.h"
#include "report/kma-report-counters.h"
#include "report/kma-report-time.h"
#include "report/kma-table.h"
#include "report/kma-report-pages.h"
#include "report/kma-report-kinds.h"
#include "kma-pagepipe.h"
#include "kma-options.h"
#include "kma-analyze-int.h"

/* "(CPU 0: 3, CPU 2: 1)": one kind of damage per CPU (@field: its offset in kma_damage). */
static void damage_cpus(FILE *f, const struct kma_trace_info *info, size_t field)
{
	const char *sep = " (";
	uint64_t n;
	int i;

	for (i = 0; i < info->cpus; i++) {
		memcpy(&n, (const char *)&info->damage[i] + field, sizeof(n));
		if (!n)
			continue;
		fprintf(f, "%sCPU %d: %" PRIu64, sep, i, n);
		sep = ", ";
	}
	fputs(")", f);
}

void kma_run_warn_damage(const char *input, const struct kma_trace_info *info)
{
	struct kma_damage sum;
	const char *pre = "kma-analyze: ";
	int i;

	if (!kma_trace_damage(info, &sum))
		return;
	if (sum.short_records) {
		fprintf(stderr, "%s%s: warning: %" PRIu64 " records too short for their event "
			"format", pre, input, sum.short_records);
		damage_cpus(stderr, info, offsetof(struct kma_damage, short_records));
		fputs(", not analyzed\n", stderr);
	}
	if (sum.overlong_records) {
		fprintf(stderr, "%s%s: warning: %" PRIu64 " records run past the end of their "
			"ring-buffer page", pre, input, sum.overlong_records);
		damage_cpus(stderr, info, offsetof(struct kma_damage, overlong_records));
		fputs(", not analyzed\n", stderr);
	}
	if (sum.zero_pages) {
		fprintf(stderr, "%s%s: warning: %" PRIu64 " zero-filled ring-buffer pages skipped",
			pre, input, sum.zero_pages);
		damage_cpus(stderr, info, offsetof(struct kma_damage, zero_pages));
		fputs("\n", stderr);
	}
	if (!sum.jump_pages)
		return;
	fprintf(stderr, "%s%s: warning: %" PRIu64 " ring-buffer pages skipped, their time out "
		"of line with their CPU's (%" PRIu64 " records):", pre, input, sum.jump_pages,
		sum.jump_records);
	for (i = 0; i < info->cpus; i++) {
		const struct kma_damage *d = &info->damage[i];

		if (d->jump_pages)
			fprintf(stderr, " CPU %d: %" PRIu64 " (%" PRIu64 " records), the first at "
				"offset %" PRIu64 "%s;", i, d->jump_pages, d->jump_records,
				d->jump_offset, d->jump_inflated ? " of its inflated data" : "");
	}
	fputs(" the rest of each CPU is read in its order\n", stderr);
}

/* --outstanding: the same table, of what is still live. */
static struct kma_caller *outstanding_view(const struct kma_caller *c, uint32_t nr,
					   struct kma_totals *t)
{
	struct kma_caller *v = malloc((nr ? nr : 1) * sizeof(*v));
	uint32_t i;

	if (!v)
		return NULL;
	memset(t, 0, sizeof(*t));
	for (i = 0; i < nr; i++) {
		v[i] = c[i];
		v[i].total = c[i].net;
		v[i].slack = c[i].live_slack;
		v[i].allocs = c[i].live;
		v[i].frees = 0;
		v[i].implicit_frees = 0;
		t->total += v[i].total;
		t->slack += v[i].slack;
		t->net += v[i].net;
		t->allocs += v[i].allocs;
		t->callers += v[i].allocs > 0;
	}
	return v;
}

/*
 * The text report's first line: which allocations it counts. Folded output
 * is stacks only (flamegraph.pl rejects other lines): there it goes to stderr.
 */
static void print_filter_line(struct kma_pipeline *r, FILE *out)
{
	struct kma_opts *o = r->o;

	fprintf(out, "# allocations");
	if (o->generation) {
		/* a label as the trace spells it: escaped like the names (it exists:
		 * kma-analyze.c's check_generation refused the run otherwise) */
		fputs(" made in generation ", out);
		kma_text_str(out, o->generation);
	}
	if (o->since)
		fprintf(out, " since %s", o->since);
	if (o->until)
		fprintf(out, " until %s", o->until);
	if (o->outstanding)
		fprintf(out, " still live at the end of the trace");
	if (o->nr_sel || o->exclude_self) {
		char desc[1024];

		kma_select_describe(r->select, desc, sizeof(desc));
		fputs(" (filter: ", out);
		kma_text_str(out, desc);
		fputc(')', out);
	}
	/* kma_free_scope: what can select a free whose allocation is not in the trace */
	switch (kma_match_totals(r->view)->free_scope) {
	case KMA_FREES_FILTERED:
		fprintf(out, "; unknown/null frees by the freeing task and time; lost events "
			"are for the whole trace\n");
		break;
	case KMA_FREES_WHOLE:
		fprintf(out, "; unknown/null frees (no --caller/--cache applies to them) and "
			"lost events are for the whole trace\n");
		break;
	default:	/* --outstanding alone: nothing selects frees */
		fprintf(out, "; unknown/null frees and lost events are for the whole trace\n");
	}
}

/* The recorder's own allocations: what --exclude-self dropped, or that it would. */
static void print_self_line(struct kma_pipeline *r)
{
	const struct kma_totals *t = kma_match_totals(r->view);

	if (r->o->exclude_self)
		fprintf(stdout, "# --exclude-self dropped %" PRIu64 " bytes in %" PRIu64
			" allocations of the recorder's own (trace-cmd, kma-record, kma-analyze, "
			"kma-mark; ring buffer call sites)\n", t->self_bytes, t->self_allocs);
	else if (t->self_allocs)
		fprintf(stdout, "# %" PRIu64 " bytes in %" PRIu64 " allocations are the recorder's "
			"own (trace-cmd, kma-record, kma-analyze, kma-mark; ring buffer call sites); "
			"--exclude-self drops them\n", t->self_bytes, t->self_allocs);
}

/* --leaks: by the grouping; in text, by stack too when the trace has stacks. */
static int print_leaks(struct kma_pipeline *r, uint64_t lost)
{
	struct kma_opts *o = r->o;
	const char *key = kma_group_name(o->group_by);
	struct kma_leak_rules rules = { .lost = lost, .young_ns = o->young_ns,
					.growth = o->cache_growth };
	struct kma_leak_show show = { .fmt = o->format, .sort = o->sort, .limit = o->limit,
				      .all = o->leak_all, .min_bytes = o->min_bytes };

	if (r->counters) {	/* the kernel's own counts of the caches */
		rules.kernel_growth = kma_leak_kernel_counts;
		rules.kernel_ctx = r->counters;
	}
	if (kma_report_leaks(stdout, r->view, key, &rules, &show))
		return -1;
	if (!r->sview || !kma_reader_info(r->reader)->stacked)
		return 0;
	fputc('\n', stdout);
	return kma_report_leaks(stdout, r->sview, "stack", &rules, &show);
}

/* The page version of the report the options chose (kma-options.c allows only these). */
static int page_report(enum kma_report kind)
{
	switch (kind) {
	case KMA_REPORT_LEAKS:
		return KMA_PAGE_REPORT_LEAKS;
	case KMA_REPORT_PEAK:
		return KMA_PAGE_REPORT_PEAK;
	case KMA_REPORT_LIFETIMES:
		return KMA_PAGE_REPORT_LIFETIMES;
	case KMA_REPORT_GENERATIONS:
		return KMA_PAGE_REPORT_GENERATIONS;
	default:
		return KMA_PAGE_REPORT_TABLES;
	}
}

int kma_pipeline_page_filter(struct kma_pipeline *r, FILE *out, int text)
{
	struct kma_opts *o = r->o;
	char desc[1024];

	if (!o->generation && !o->since && !o->until && !o->nr_sel && !o->exclude_self)
		return 0;
	fputs("# page allocations", out);
	if (o->generation) {	/* it exists: check_generation refused the run otherwise */
		fputs(" made in generation ", out);
		if (text)
			kma_text_str(out, o->generation);
		else
			fputs(o->generation, out);
	}
	if (o->since)
		fprintf(out, " since %s", o->since);
	if (o->until)
		fprintf(out, " until %s", o->until);
	if (o->nr_sel || o->exclude_self) {
		kma_select_describe(r->select, desc, sizeof(desc));
		fputs(" (filter: ", out);
		if (text)
			kma_text_str(out, desc);
		else
			fputs(desc, out);
		fputc(')', out);
	}
	fputs("; unknown frees and lost events are for the whole trace\n", out);
	return 1;
}

/* --pages: the tables (--generations: by generation), or its --leaks, --peak, --lifetimes. */
static int print_pages(struct kma_pipeline *r, const struct kma_trace_info *info)
{
	struct kma_opts *o = r->o;
	struct kma_page_report pr = { .info = info, .group = o->page_group, .limit = o->limit,
				      .fmt = o->format, .sort = o->sort, .young_ns = o->young_ns,
				      .growth = o->cache_growth,
				      .show = { .all = o->leak_all, .min_bytes = o->min_bytes },
				      .what = page_report(o->report) };

	if (o->format == KMA_FMT_TEXT)
		kma_pipeline_page_filter(r, stdout, 1);
	return kma_pagepipe_print(stdout, r->pages, &pr);
}

/* The table by -g (--outstanding: of what is still live), in its format. */
static int print_callers(struct kma_pipeline *r, const struct kma_trace_info *info)
{
	struct kma_opts *o = r->o;
	struct kma_report_in in = { .info = info, .sort = o->sort, .limit = o->limit,
				    .key = kma_group_name(o->group_by) };
	struct kma_totals t;
	struct kma_caller *v = NULL;
	int ret;

	in.totals = kma_match_totals(r->view);
	in.callers = kma_match_callers(r->view, &in.nr_callers);
	if (o->outstanding) {
		v = outstanding_view(in.callers, in.nr_callers, &t);
		if (!v)
			return -1;
		t.unknown_frees = in.totals->unknown_frees;
		t.null_frees = in.totals->null_frees;
		t.free_scope = in.totals->free_scope;
		t.failed_allocs = in.totals->failed_allocs;
		in.totals = &t;
		in.callers = v;
	}
	if (o->folded)
		ret = kma_report_folded(stdout, in.callers, in.nr_callers, o->weight);
	else if (o->format == KMA_FMT_TEXT)
		ret = kma_report_text(stdout, &in);
	else
		ret = kma_report_table(stdout, &in, o->format);
	free(v);
	return ret;
}

/* Kind @k's rows of the report (--outstanding: what is live, in *v to free). */
static int kind_rows(struct kma_match *m, int outstanding, const struct kma_caller **c,
		     uint32_t *n, struct kma_totals *t, struct kma_caller **v)
{
	const struct kma_totals *all = kma_match_totals(m);

	*c = kma_match_callers(m, n);
	*t = *all;
	*v = NULL;
	if (!outstanding)
		return 0;
	*v = outstanding_view(*c, *n, t);
	if (!*v)
		return -1;
	t->unknown_frees = all->unknown_frees;
	t->null_frees = all->null_frees;
	t->free_scope = all->free_scope;
	t->failed_allocs = all->failed_allocs;
	*c = *v;
	return 0;
}

/* The heading of kind @k's table among several: "percpu allocations by caller". */
static void kind_heading(int k, enum kma_group g)
{
	printf("%s allocations by %s\n", kma_kind_name(k), kma_group_name(g));
}

/* One kind beside slab alone, in text: its heading, summary and table. */
static int print_kind_text(struct kma_pipeline *r, const struct kma_trace_info *info, int k)
{
	struct kma_report_in in = { .info = info, .sort = r->o->sort, .limit = r->o->limit,
				    .key = kma_group_name(r->o->group_by), .nr_kinds = 1 };
	struct kma_report_kind kind = { .name = kma_kind_name(k),
					.slack = kma_kind_ops(k)->slack };
	struct kma_caller *v;
	struct kma_totals t;
	int ret;

	if (kind_rows(r->kview[k], r->o->outstanding, &in.callers, &in.nr_callers, &t, &v))
		return -1;
	kind.end = in.nr_callers;
	in.kinds = &kind;
	in.totals = &t;
	kind_heading(k, r->o->group_by);
	ret = kma_report_text(stdout, &in);
	free(v);
	return ret;
}

/* Sums of the kinds' totals: the JSON summary of a table of several kinds. */
static void add_totals(struct kma_totals *s, const struct kma_totals *t)
{
	s->total += t->total;
	s->slack += t->slack;
	s->net += t->net;
	s->allocs += t->allocs;
	s->frees += t->frees;
	s->unknown_frees += t->unknown_frees;
	s->null_frees += t->null_frees;
	s->implicit_frees += t->implicit_frees;
	s->failed_allocs += t->failed_allocs;
	s->callers += t->callers;
	s->free_scope = t->free_scope;
}

/*
 * The @n kinds @ks in one table with a kind column: text with -g, CSV and
 * JSON. Each kind's rows are copied in turn into one array, its kind told by
 * where its rows end.
 */
static int print_kinds_table(struct kma_pipeline *r, const struct kma_trace_info *info,
			     const int *ks, int n)
{
	struct kma_report_in in = { .info = info, .sort = r->o->sort, .limit = r->o->limit,
				    .key = kma_group_name(r->o->group_by), .nr_kinds = n };
	struct kma_report_kind kinds[KMA_KIND_NR];
	struct kma_caller *all = NULL, *grown, *v;
	struct kma_totals sum = { 0 }, t;
	const struct kma_caller *c;
	uint32_t nr = 0, m;
	int i, ret = -1;

	for (i = 0; i < n; i++) {
		struct kma_match *mm = ks[i] == KMA_KIND_SLAB ? r->view : r->kview[ks[i]];

		if (kind_rows(mm, r->o->outstanding, &c, &m, &t, &v))
			goto out;
		grown = realloc(all, ((size_t)nr + m + 1) * sizeof(*all));
		if (!grown) {
			free(v);
			goto out;
		}
		all = grown;
		memcpy(all + nr, c, (size_t)m * sizeof(*all));
		free(v);
		nr += m;
		kinds[i] = (struct kma_report_kind){ .name = kma_kind_name(ks[i]), .end = nr,
						     .slack = kma_kind_ops(ks[i])->slack };
		add_totals(&sum, &t);
	}
	in.callers = all;
	in.nr_callers = nr;
	in.kinds = kinds;
	in.totals = &sum;
	if (r->o->format == KMA_FMT_TEXT)
		ret = kma_report_text_rows(stdout, &in);
	else
		ret = kma_report_table(stdout, &in, r->o->format);
out:
	free(all);
	return ret;
}

/*
 * The caller table of every kind --kind selects that the trace has: slab
 * alone as it always was; in text each kind's own table under its heading,
 * or with -g and two kinds or more one table with a kind column, as CSV
 * and JSON always have.
 */
static int print_all_callers(struct kma_pipeline *r, const struct kma_trace_info *info)
{
	int ks[KMA_KIND_NR], n = 0, k, i;

	for (k = 0; k < KMA_KIND_NR; k++)
		if ((r->o->kinds & 1u << k) && (k == KMA_KIND_SLAB || r->kview[k]) &&
		    kma_pipeline_kind_present(r, k))
			ks[n++] = k;
	if (!n || (n == 1 && ks[0] == KMA_KIND_SLAB))
		return print_callers(r, info);
	if (r->o->format != KMA_FMT_TEXT || (r->o->group_set && n > 1))
		return print_kinds_table(r, info, ks, n);
	for (i = 0; i < n; i++) {
		if (i && putchar('\n') == EOF)
			return -1;
		if (ks[i] != KMA_KIND_SLAB) {
			if (print_kind_text(r, info, ks[i]))
				return -1;
			continue;
		}
		kind_heading(KMA_KIND_SLAB, r->o->group_by);
		if (print_callers(r, info))
			return -1;
	}
	return 0;
}

/*
 * The kernel memory by allocator, at the top of a text report, when percpu
 * or vmalloc allocated beside another kind, or alone (slab and pages alone:
 * as before).
 */
static int print_kinds(struct kma_pipeline *r, const struct kma_trace_info *info)
{
	struct kma_kind_sum s[KMA_KIND_NR] = { 0 };
	int k;

	if (r->o->format != KMA_FMT_TEXT || r->o->folded ||
	    (!r->kinds[KMA_KIND_PERCPU] && !r->kinds[KMA_KIND_VMALLOC]))
		return 0;
	/* the whole trace's slab matcher: report.db's, else the report's own */
	kma_account_match(&s[KMA_KIND_SLAB], KMA_KIND_SLAB,
			  kma_match_totals(r->match ? r->match : r->view));
	if (r->pages)
		kma_account_pages(&s[KMA_KIND_PAGE], kma_pagepipe_totals(r->pages),
				  info->sys_page_size ? info->sys_page_size : 4096);
	for (k = KMA_KIND_PERCPU; k < KMA_KIND_NR; k++)
		if (r->kinds[k])
			kma_account_match(&s[k], k, kma_match_totals(r->kinds[k]));
	for (k = 0; r->o->kind_arg && k < KMA_KIND_NR; k++)
		if (!(r->o->kinds & 1u << k))	/* --kind: the kinds it names */
			memset(&s[k], 0, sizeof(s[k]));
	/* one kind alone is the report's own summary, unless it is not slab's */
	if (kma_account_present(s, KMA_KIND_NR) < 2 && s[KMA_KIND_SLAB].allocs)
		return 0;
	if (kma_report_kinds(stdout, s, KMA_KIND_NR, KMA_FMT_TEXT))
		return -1;
	return putchar('\n') == EOF ? -1 : 0;
}

int kma_pipeline_print(struct kma_pipeline *r)
{
	struct kma_opts *o = r->o;
	const struct kma_trace_info *info = kma_reader_info(r->reader);

	if (print_kinds(r, info))
		return -1;

	if (o->pages)
		return print_pages(r, info);
	if (o->format == KMA_FMT_TEXT && (o->generation || o->since || o->until || o->outstanding ||
					  o->nr_sel || o->exclude_self))
		print_filter_line(r, o->folded ? stderr : stdout);
	/* --leaks says it per row: class recorder */
	if (o->format == KMA_FMT_TEXT && !o->folded && o->report != KMA_REPORT_LEAKS)
		print_self_line(r);
	switch (o->report) {
	case KMA_REPORT_CALLERS:
		return print_all_callers(r, info);
	case KMA_REPORT_LIST:
		return 0;	/* printed by the caller from the list sink */
	case KMA_REPORT_GENERATIONS:
		return kma_report_generations(stdout, r->view, info->first_ts, o->format);
	case KMA_REPORT_LEAKS:
		return print_leaks(r, kma_trace_lost(info, NULL));
	case KMA_REPORT_LIFETIMES:
		return kma_report_lifetimes(stdout, r->view, o->sort, o->limit, o->format);
	case KMA_REPORT_PEAK:
		return kma_report_peak(stdout, r->view, info->first_ts, o->sort, o->limit,
				       o->format);
	case KMA_REPORT_LEFTOVERS:
		return kma_report_leftovers(stdout, r->view, o->format);
	case KMA_REPORT_ADVICE:
		return kma_report_advice(stdout, r->view, info->first_ts, o->limit, o->format);
	case KMA_REPORT_COUNTERS:
		return kma_report_counters(stdout, r->counters, info->first_ts, o->limit,
					   o->format);
	case KMA_REPORT_CROSS_CPU:
		kma_cross_finish(r->cross, r->node_map, r->nr_nodes);
		return kma_report_cross(stdout, r->view, r->cross, kma_group_name(o->group_by),
					r->map_from, o->sort, o->limit, o->format);
	}
	return -1;
}

/* The filter option pages cannot take (kma-options.c refuses it with --pages), or NULL. */
const char *kma_pipeline_page_unfit(const struct kma_opts *o)
{
	int i;

	for (i = 0; i < o->nr_sel; i++)
		if (o->sel[i].kind == KMA_SELK_CACHE)
			return "--cache";
	return o->kmalloc_only ? "--kmalloc-only" : NULL;
}
