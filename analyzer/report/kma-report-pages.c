// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-pages.c - the page allocator report: a summary (events, pages
 * and bytes allocated / freed / live at the end, failed allocations, unknown
 * frees, peak, lost events, whether the trace has stacks), then one table per
 * grouping. Text without -g prints order, migrate type and gfp flags, and
 * the caller functions when the trace has stacks; CSV and JSON print one
 * table, the -g one (default: function with stacks, else order). Bytes are
 * pages times PAGE_SIZE, the trace header's page size.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kma-report-pages.h"
#include "kma-time.h"

static int print_table(FILE *out, const struct kma_page_report *r, int g, uint64_t psz,
		       const char *head)
{
	const struct kma_caller *rows, **ord;
	struct kma_table *t;
	uint32_t nr, i, n;
	char spec[200], key[64];
	int err = 0;

	rows = kma_pagealloc_rows(r->m, g, &nr);
	snprintf(spec, sizeof(spec), "%s:s pages:n bytes:n allocs:n freed_pages:n frees:n "
		 "implicit_frees:n live_pages:n live_bytes:n", kma_page_group_name(g));
	t = kma_table_new(spec);
	ord = malloc((nr + 1) * sizeof(*ord));
	if (!t || !ord) {
		free(ord);
		kma_table_free(t);
		return -1;
	}
	for (i = 0; i < nr; i++)
		ord[i] = &rows[i];
	/* generations read in time order, as the slab generations table: first-seen is that */
	if (g != KMA_PG_GENERATION)
		kma_report_pages_sort(ord, nr, r->sort);
	n = r->limit && r->limit < nr ? (uint32_t)r->limit : nr;
	for (i = 0; i < n; i++) {
		err |= kma_report_pages_key(t, g, ord[i], key, sizeof(key));
		err |= kma_table_u64(t, ord[i]->total);
		err |= kma_table_u64(t, ord[i]->total * psz);
		err |= kma_table_u64(t, ord[i]->allocs);
		err |= kma_table_u64(t, ord[i]->total - ord[i]->net);	/* pages freed */
		err |= kma_table_u64(t, ord[i]->frees + ord[i]->implicit_frees);
		err |= kma_table_u64(t, ord[i]->implicit_frees);
		err |= kma_table_u64(t, ord[i]->net);
		err |= kma_table_u64(t, ord[i]->net * psz);
	}
	free(ord);
	return kma_table_finish(out, t, r->fmt, "pages", head, err);
}

#define EV(t, k)	((t)->ev[KMA_EV_PAGE_##k - KMA_EV_PAGE_ALLOC])

static void print_summary(FILE *out, const struct kma_page_report *r, uint64_t psz)
{
	const struct kma_page_totals *t = kma_pagealloc_totals(r->m);
	uint64_t unk, lost = kma_trace_lost(r->info, &unk);
	char peak[32];

	kma_fmt_secs(peak, sizeof(peak), t->peak_ts >= r->info->first_ts ?
		     t->peak_ts - r->info->first_ts : 0);
	fprintf(out, "Page allocations (PAGE_SIZE %" PRIu64 ", paired by %s)\n", psz,
		t->by_ptr ? "struct page pointer: this kernel's events carry no pfn" : "pfn");
	fprintf(out, "  events: mm_page_alloc %" PRIu64 ", mm_page_free %" PRIu64
		", mm_page_free_batched %" PRIu64 " (no frees of their own), "
		"mm_page_alloc_zone_locked %" PRIu64 ", mm_page_pcpu_drain %" PRIu64
		" (pcp list moves: no allocations)\n", EV(t, ALLOC), EV(t, FREE),
		EV(t, FREE_BATCHED), EV(t, ZONE_LOCKED), EV(t, PCPU_DRAIN));
	fprintf(out, "  allocated %" PRIu64 " pages (%" PRIu64 " bytes) in %" PRIu64
		" allocations, %" PRIu64 " failed\n", t->pages_alloc, t->pages_alloc * psz,
		t->allocs, t->failed);
	fprintf(out, "  freed %" PRIu64 " pages (%" PRIu64 " bytes) in %" PRIu64 " frees, %"
		PRIu64 " of them implicit; %" PRIu64 " unknown frees (%" PRIu64 " pages)\n",
		t->pages_freed, t->pages_freed * psz, t->frees, t->implicit_frees,
		t->unknown_frees, t->unknown_pages);
	fprintf(out, "  live at the end %" PRIu64 " pages (%" PRIu64 " bytes) in %" PRIu64
		" allocations; peak %" PRIu64 " pages at %s\n", t->pages_live,
		t->pages_live * psz, t->live_allocs, t->peak_pages, peak);
	fprintf(out, "  lost events: %" PRIu64 "%s\n", lost,
		unk ? " (and pages with an unknown count)" : "");
	if (!t->stacked)
		fprintf(out, "  no stacks in this trace: no callers (record with kma-record "
			"--stacks or trace-cmd record -T)\n");
}

static const char *json_head(char *buf, size_t len, const struct kma_page_report *r,
			     uint64_t psz, int g)
{
	const struct kma_page_totals *t = kma_pagealloc_totals(r->m);

	snprintf(buf, len, "\"group\": \"%s\", \"page_size\": %" PRIu64 ", \"allocs\": %"
		 PRIu64 ", \"failed\": %" PRIu64 ", \"frees\": %" PRIu64 ", \"implicit_frees\": %"
		 PRIu64 ", \"unknown_frees\": %" PRIu64 ", \"unknown_pages\": %" PRIu64
		 ", \"pages_alloc\": %" PRIu64
		 ", \"pages_freed\": %" PRIu64 ", \"pages_live\": %" PRIu64 ", \"peak_pages\": %"
		 PRIu64 ", \"lost_events\": %" PRIu64 ", \"stacks\": %s",
		 kma_page_group_name(g), psz, t->allocs, t->failed, t->frees, t->implicit_frees,
		 t->unknown_frees, t->unknown_pages, t->pages_alloc, t->pages_freed, t->pages_live,
		 t->peak_pages,
		 kma_trace_lost(r->info, NULL), t->stacked ? "true" : "false");
	return buf;
}

/*
 * --pages --generations: every generation, those that allocated nothing too,
 * with the slab generations table's columns in pages: the allocations made in
 * it, those of them still live at the end, and the mm_page_free events in it.
 */
static int print_generations(FILE *out, const struct kma_page_report *r, uint64_t psz)
{
	struct kma_table *t = kma_table_new("gen:n start:t allocs:n pages:n bytes:n live:n "
					    "live_pages:n live_bytes:n frees:n label:s");
	const struct kma_page_gen *g;
	uint32_t nr, i;
	int err = 0;

	g = kma_pagealloc_gens(r->m, &nr);
	for (i = 0; t && !err && i < nr; i++) {
		err |= kma_table_u64(t, i);
		err |= kma_table_ts(t, r->fmt, i ? g[i].ts : r->info->first_ts);
		err |= kma_table_u64(t, g[i].allocs);
		err |= kma_table_u64(t, g[i].pages);
		err |= kma_table_u64(t, g[i].pages * psz);
		err |= kma_table_u64(t, g[i].live);
		err |= kma_table_u64(t, g[i].live_pages);
		err |= kma_table_u64(t, g[i].live_pages * psz);
		err |= kma_table_u64(t, g[i].frees);
		err |= kma_table_str(t, g[i].label ? g[i].label : "");
	}
	return kma_table_finish(out, t, r->fmt, "generations", NULL, err);
}

int kma_report_pages(FILE *out, const struct kma_page_report *r)
{
	static const int text_default[] = { KMA_PG_ORDER, KMA_PG_MIGRATE, KMA_PG_GFP };
	uint64_t psz = r->info->sys_page_size ? r->info->sys_page_size : 4096;
	int g = kma_report_pages_group(r);
	char head[600];
	size_t i;

	if (r->what == KMA_PAGE_REPORT_LEAKS)
		return kma_report_page_leaks(out, r);
	if (r->what == KMA_PAGE_REPORT_PEAK)
		return kma_report_page_peak(out, r);
	if (r->what == KMA_PAGE_REPORT_LIFETIMES)
		return kma_report_page_lifetimes(out, r);
	if (r->what == KMA_PAGE_REPORT_GENERATIONS)
		return print_generations(out, r, psz);
	if (r->fmt == KMA_FMT_JSON)	/* one object: the summary members, then the rows */
		return print_table(out, r, g, psz, json_head(head, sizeof(head), r, psz, g));
	if (r->fmt == KMA_FMT_CSV)
		return print_table(out, r, g, psz, NULL);
	print_summary(out, r, psz);
	if (r->group >= 0) {
		fputc('\n', out);
		return print_table(out, r, g, psz, NULL);
	}
	for (i = 0; i < sizeof(text_default) / sizeof(text_default[0]); i++) {
		fputc('\n', out);
		if (print_table(out, r, text_default[i], psz, NULL))
			return -1;
	}
	if (kma_pagealloc_totals(r->m)->stacked) {
		fputc('\n', out);
		return print_table(out, r, KMA_PG_FUNCTION, psz, NULL);
	}
	return 0;
}
