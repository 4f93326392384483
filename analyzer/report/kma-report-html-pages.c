// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-html-pages.c - the page allocations of the --html page: a
 * "pages" member of the page's data with the totals of kma-analyze --pages
 * and the live pages timeline (match/kma-timeline.h fed in pages), which
 * kma-report-html.js draws as "Live pages over time". A trace without page
 * allocation events gets no member, and so no section.
 */
#include <inttypes.h>

#include "match/kma-timeline.h"
#include "kma-table.h"
#include "kma-report-html.h"

#define U64	"%" PRIu64

/* "key":[bins' field] of @n bins; @f picks the field. */
static void bins_array(FILE *out, const char *key, const struct kma_tl_bin *b, uint32_t n,
		       int f)
{
	uint32_t i;

	fprintf(out, ",\"%s\":[", key);
	for (i = 0; i < n; i++) {
		uint64_t v = f == 0 ? b[i].allocs : f == 1 ? b[i].alloc_bytes :
			     f == 2 ? b[i].frees : f == 3 ? b[i].free_bytes :
			     f == 4 ? b[i].live : b[i].live_max;

		fprintf(out, i ? "," U64 : U64, v);
	}
	fputc(']', out);
}

/* The top tasks' (or functions') live pages, then "[other]", as the slab timeline's series. */
static void write_series(FILE *out, const struct kma_html_pages *p, uint32_t n)
{
	const uint32_t *top;
	uint32_t i, k, nr_top = kma_timeline_top(p->tl, &top);

	fprintf(out, ",\"series_by\":\"%s\",\"series\":[", p->by_function ? "function" : "task");
	for (k = 0; n && k <= nr_top; k++) {
		const char *name = "[other]";

		if (k < nr_top && top[k] < p->nr_series)
			name = p->series[top[k]].name ? p->series[top[k]].name :
			       p->by_function ? "[no stack]" : "[other]";
		fputs(k ? ",{\"name\":" : "{\"name\":", out);
		kma_json_str_html(out, name);
		fputs(",\"live\":[", out);
		for (i = 0; i < n; i++)
			fprintf(out, i ? "," U64 : U64, kma_timeline_live(p->tl, k, i));
		fputs("]}", out);
	}
	fputc(']', out);
}

void kma_html_write_pages(FILE *out, const struct kma_html_pages *p)
{
	const struct kma_page_totals *t = p ? p->totals : NULL;
	const struct kma_tl_bin *b = NULL;
	uint64_t start = 0, width = 0, events = 0;
	uint32_t n = 0;
	int i;

	for (i = 0; t && i < 5; i++)
		events += t->ev[i];
	if (!events)
		return;
	if (p->tl)
		n = kma_timeline_bins(p->tl, &start, &width, &b);
	fprintf(out, ",\"pages\":{\"page_size\":%u,\"allocs\":" U64 ",\"pages_alloc\":" U64
		",\"frees\":" U64 ",\"implicit_frees\":" U64 ",\"pages_freed\":" U64
		",\"pages_live\":" U64 ",\"failed\":" U64 ",\"unknown_frees\":" U64
		",\"unknown_pages\":" U64 ",\"peak_pages\":" U64 ",\"peak_ts\":" U64
		",\"start\":" U64 ",\"width\":" U64, p->page_size, t->allocs, t->pages_alloc,
		t->frees, t->implicit_frees, t->pages_freed, t->pages_live, t->failed,
		t->unknown_frees, t->unknown_pages, t->peak_pages, t->peak_ts, start, width);
	fputs(",\"filter\":", out);
	if (p->filter)
		kma_json_str_html(out, p->filter);
	else
		fputs("null", out);
	bins_array(out, "allocs_bins", b, n, 0);
	bins_array(out, "alloc_pages", b, n, 1);
	bins_array(out, "frees_bins", b, n, 2);
	bins_array(out, "free_pages", b, n, 3);
	bins_array(out, "live", b, n, 4);
	bins_array(out, "live_max", b, n, 5);
	if (p->tl)
		write_series(out, p, n);
	fputc('}', out);
}
