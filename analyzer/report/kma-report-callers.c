// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-callers.c - the per-caller report: the text layout of the 2005 seed, CSV, JSON.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kma-caller-sort.h"
#include "kma-report-callers.h"
#include "kma-table.h"

static int width_of(uint64_t v)
{
	char buf[24];

	return snprintf(buf, sizeof(buf), "%" PRIu64, v);
}

static int has_allocs(const struct kma_caller *c)
{
	return c->allocs > 0;
}

/* The kind of row @c of @in (NULL: slab alone). */
static const struct kma_report_kind *kind_of(const struct kma_report_in *in,
					     const struct kma_caller *c)
{
	uint32_t i = (uint32_t)(c - in->callers), k;

	for (k = 0; k < in->nr_kinds; k++)
		if (i < in->kinds[k].end)
			return &in->kinds[k];
	return NULL;
}

/* A kind of @in has slack: the slack columns are printed. */
static int any_slack(const struct kma_report_in *in)
{
	unsigned int k;

	for (k = 0; k < in->nr_kinds; k++)
		if (in->kinds[k].slack)
			return 1;
	return !in->nr_kinds;
}

/* Row @c has slack cells: its kind has slack. */
static int row_slack(const struct kma_report_in *in, const struct kma_caller *c)
{
	const struct kma_report_kind *k = kind_of(in, c);

	return !k || k->slack;
}

/* The rows with allocations, sorted and limited as asked. */
static const struct kma_caller **sorted_rows(const struct kma_report_in *in, uint64_t *nr)
{
	const struct kma_caller **rows;
	struct kma_caller_order order;
	uint32_t kept;

	kma_sort_order(in->sort, &order);
	rows = kma_callers_sorted(in->callers, in->nr_callers, has_allocs, &order, &kept);
	if (!rows)
		return NULL;
	*nr = kept;
	if (in->limit && in->limit < *nr)
		*nr = in->limit;
	return rows;
}

/* CSV: the rows; JSON: {"file", "summary": {...}, "rows": [...]}. */
int kma_report_table(FILE *out, const struct kma_report_in *in, enum kma_fmt fmt)
{
	const struct kma_totals *t = in->totals;
	const struct kma_caller **rows;
	struct kma_table *tab = kma_table_alloc();
	const char *key = in->key ? in->key : "caller";
	uint64_t nr, i, lost = kma_trace_lost(in->info, NULL);
	int is_caller = !strcmp(key, "caller"), slack = any_slack(in), err = 0;
	char addr[24];

	rows = sorted_rows(in, &nr);
	if (!rows || !tab || (in->nr_kinds && kma_table_col(tab, "kind", 0)) ||
	    kma_table_col(tab, key, !strcmp(key, "pid")) ||
	    (is_caller && kma_table_col(tab, "address", 0)) || kma_table_col(tab, "total", 1) ||
	    (slack && (kma_table_col(tab, "slack", 1) || kma_table_col(tab, "slack_pct", 1))) ||
	    kma_table_col(tab, "net", 1) ||
	    kma_table_col(tab, "allocs", 1) || kma_table_col(tab, "frees", 1) ||
	    kma_table_col(tab, "implicit_frees", 1))
		err = -1;
	for (i = 0; !err && i < nr; i++) {
		const struct kma_caller *c = rows[i];

		if (in->nr_kinds)
			err |= kma_table_str(tab, kind_of(in, c)->name);
		err |= kma_table_str(tab, c->name);
		if (is_caller) {
			snprintf(addr, sizeof(addr), "0x%" PRIx64, c->address);
			err |= kma_table_str(tab, addr);
		}
		err |= kma_table_u64(tab, c->total);
		if (slack && row_slack(in, c)) {
			err |= kma_table_u64(tab, c->slack);
			err |= kma_table_pct(tab, c->slack, c->total);
		} else if (slack) {
			err |= kma_table_null(tab);
			err |= kma_table_null(tab);
		}
		err |= kma_table_u64(tab, c->net);
		err |= kma_table_u64(tab, c->allocs);
		err |= kma_table_u64(tab, c->frees);
		err |= kma_table_u64(tab, c->implicit_frees);
	}
	if (!err && fmt == KMA_FMT_JSON) {
		fputs("{\"file\": ", out);
		kma_json_str(out, in->info->file);
		fprintf(out, ", \"summary\": {\"total\": %" PRIu64 ", \"slack\": %" PRIu64
			", \"net\": %" PRIu64 ", \"allocs\": %" PRIu64 ", \"frees\": %" PRIu64
			", \"unknown_frees\": %" PRIu64 ", \"null_frees\": %" PRIu64
			", \"implicit_frees\": %" PRIu64 ", \"failed_allocs\": %" PRIu64
			", \"callers\": %" PRIu64 ", \"lost_events\": %" PRIu64
			", \"unknown_frees_scope\": \"%s\"},\n\"rows\": ",
			t->total, t->slack, t->net, t->allocs, t->frees, t->unknown_frees,
			t->null_frees, t->implicit_frees, t->failed_allocs, t->callers, lost,
			kma_free_scope_name(t->free_scope));
		err = kma_table_print(out, tab, fmt);
		fputs("}\n", out);
	} else if (!err) {
		err = kma_table_print(out, tab, fmt);
	}
	free(rows);
	kma_table_free(tab);
	return err || ferror(out) ? -1 : 0;
}

/* Only a damaged trace has the line: what kma skipped of its ring-buffer data. */
static void print_damage(FILE *out, const struct kma_trace_info *info)
{
	struct kma_damage d;

	if (!kma_trace_damage(info, &d))
		return;
	fprintf(out, "damaged data skipped: %" PRIu64 " short records, %" PRIu64 " records past "
		"their page, %" PRIu64 " zero-filled pages, %" PRIu64 " pages out of time order (%"
		PRIu64 " records)\n", d.short_records, d.overlong_records, d.zero_pages,
		d.jump_pages, d.jump_records);
}

/* The text table of @in's rows: slack columns, a kind column, as the kinds have them. */
int kma_report_text_rows(FILE *out, const struct kma_report_in *in)
{
	const struct kma_caller **rows;
	uint64_t nr = 0, i;
	int wt = 5, ws = 5, wp = 6, wn = 3, wa = 1, wf = 1, wk = 0, slack = any_slack(in);
	char af[48], pct[32], sl[24];

	rows = sorted_rows(in, &nr);
	if (!rows)
		return -1;
	if (in->nr_kinds > 1)
		wk = 4;
	for (i = 0; i < nr; i++) {
		int w;

		if ((w = width_of(rows[i]->total)) > wt)
			wt = w;
		if ((w = width_of(rows[i]->slack)) > ws)
			ws = w;
		kma_fmt_pct(pct, sizeof(pct), rows[i]->slack, rows[i]->total);
		if ((w = (int)strlen(pct)) > wp)
			wp = w;
		if ((w = width_of(rows[i]->net)) > wn)
			wn = w;
		if ((w = width_of(rows[i]->allocs)) > wa)
			wa = w;
		if ((w = width_of(rows[i]->frees)) > wf)
			wf = w;
		if (wk && (w = (int)strlen(kind_of(in, rows[i])->name)) > wk)
			wk = w;
	}
	/* "alloc/free" heads a column of right-aligned allocs, '/', left-aligned frees */
	if (wa + 1 + wf < 10)
		wa = 10 - 1 - wf;
	/* the order, as every per-caller table says it */
	if (in->sort == KMA_SORT_CALLER)
		fprintf(out, "Sorted by %s name.\n", in->key ? in->key : "caller");
	else
		fprintf(out, "Sorted by %s.\n", kma_sort_name(in->sort));
	fprintf(out, "%*s ", wt, "total");
	if (slack)
		fprintf(out, "%*s %*s ", ws, "slack", wp, "slack%");
	fprintf(out, "%*s %-*s  ", wn, "net", wa + 1 + wf, "alloc/free");
	if (wk)
		fprintf(out, "%-*s  ", wk, "kind");
	fprintf(out, "%s\n", in->key ? in->key : "caller");
	for (i = 0; i < nr; i++) {
		const struct kma_caller *c = rows[i];

		snprintf(af, sizeof(af), "%*" PRIu64 "/%-*" PRIu64, wa, c->allocs, wf, c->frees);
		fprintf(out, "%*" PRIu64 " ", wt, c->total);
		if (slack && row_slack(in, c)) {
			kma_fmt_pct(pct, sizeof(pct), c->slack, c->total);
			snprintf(sl, sizeof(sl), "%" PRIu64, c->slack);
		} else {	/* a kind without slack beside one with */
			strcpy(pct, "-");
			strcpy(sl, "-");
		}
		if (slack)
			fprintf(out, "%*s %*s ", ws, sl, wp, pct);
		fprintf(out, "%*" PRIu64 " %s  ", wn, c->net, af);
		if (wk)
			fprintf(out, "%-*s  ", wk, kind_of(in, c)->name);
		/* names are trace bytes: no control bytes to the terminal */
		kma_text_str(out, c->name);
		fputc('\n', out);
	}
	free(rows);
	return ferror(out) ? -1 : 0;
}

int kma_report_text(FILE *out, const struct kma_report_in *in)
{
	const struct kma_totals *t = in->totals;
	uint64_t lost, unknown_pages;
	const char *whole;

	lost = kma_trace_lost(in->info, &unknown_pages);
	fprintf(out, "total bytes allocated: %" PRIu64 "\n", t->total);
	if (any_slack(in))
		fprintf(out, "slack bytes allocated: %" PRIu64 "\n", t->slack);
	fprintf(out, "net bytes allocated: %" PRIu64 "\n", t->net);
	fprintf(out, "number of allocs: %" PRIu64 "\n", t->allocs);
	fprintf(out, "number of frees: %" PRIu64 "\n", t->frees);
	/* with --group-by, the rows are groups: say which */
	if (in->key && strcmp(in->key, "caller"))
		fprintf(out, "number of %s groups: %" PRIu64 "\n", in->key, t->callers);
	else
		fprintf(out, "number of callers: %" PRIu64 "\n", t->callers);
	/* how much of the trace the stacks cover: the rest is [no stack] (slab's count) */
	if (in->key && !strcmp(in->key, "stack") && !in->nr_kinds)
		fprintf(out, "kmem events with a stack: %" PRIu64 " of %" PRIu64 "\n",
			in->info->stacked, in->info->kmem_events);
	/* a --caller/--cache filter cannot select them: say that they are not the filter's */
	whole = t->free_scope == KMA_FREES_WHOLE ? " (whole trace)" : "";
	fprintf(out, "number of unknown frees%s: %" PRIu64 "\n", whole, t->unknown_frees);
	fprintf(out, "number of null frees%s: %" PRIu64 "\n", whole, t->null_frees);
	fprintf(out, "number of implicit frees: %" PRIu64 "\n", t->implicit_frees);
	fprintf(out, "number of failed allocs: %" PRIu64 "\n", t->failed_allocs);
	fprintf(out, "number of lost events: %" PRIu64 "\n", lost);
	print_damage(out, in->info);
	fputc('\n', out);
	if (lost || unknown_pages) {
		fprintf(out, "WARNING: the trace lost %" PRIu64 " events", lost);
		if (unknown_pages)
			fprintf(out, ", and more on %" PRIu64 " buffer pages that do not say how many",
				unknown_pages);
		fprintf(out, ".\nFrees of lost allocations count as unknown frees, and net includes "
			     "allocations\nwhose free was lost. Record with a bigger buffer (-b) "
			     "to avoid it.\n\n");
	}

	return kma_report_text_rows(out, in);
}
