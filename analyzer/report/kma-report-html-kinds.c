// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-html-kinds.c - the allocators of the --html page: a "kinds"
 * member of the page's data when more than one allocator allocated in the
 * trace, as the text report's "Kernel memory by allocator" has a line each
 * (match/kma-account.h): per kind its sums, its live bytes over time (its
 * matcher's own bins, match/kma-timeline.h; the page allocator's in pages
 * times the page size), which kma-report-html-view.js stacks in one chart,
 * and for percpu and vmalloc their callers' rows (slab's are the page's caller
 * table, the page allocator's its own section).
 */
#include <inttypes.h>

#include "match/kma-account.h"
#include "match/kma-timeline.h"
#include "kma-table.h"
#include "kma-report-html.h"

#define U64	"%" PRIu64

/* "start", "width" and "live" (bytes at the end of each bin, pages times @scale). */
static void write_bins(FILE *out, const struct kma_timeline *tl, uint64_t scale)
{
	const struct kma_tl_bin *b = NULL;
	uint64_t start = 0, width = 0;
	uint32_t i, n = 0;

	if (tl)
		n = kma_timeline_bins(tl, &start, &width, &b);
	fprintf(out, ",\"start\":" U64 ",\"width\":" U64 ",\"live\":[", start, width);
	for (i = 0; i < n; i++)
		fprintf(out, i ? "," U64 : U64, b[i].live * scale);
	fputc(']', out);
}

/* [name, address, total, net, allocs, frees, implicit frees, live] per caller that allocated. */
static void write_callers(FILE *out, const struct kma_match *m)
{
	const struct kma_caller *c;
	uint32_t i, n, k = 0;

	c = kma_match_callers(m, &n);
	fputs(",\"callers\":[", out);
	for (i = 0; i < n; i++) {
		if (!c[i].allocs)
			continue;
		fputs(k++ ? ",[" : "[", out);
		kma_json_str_html(out, c[i].name);
		fprintf(out, ",\"0x%" PRIx64 "\"," U64 "," U64 "," U64 "," U64 "," U64 "," U64 "]",
			c[i].address, c[i].total, c[i].net, c[i].allocs, c[i].frees,
			c[i].implicit_frees, c[i].live);
	}
	fputc(']', out);
}

void kma_html_write_kinds(FILE *out, const struct kma_html_in *in)
{
	struct kma_kind_sum s[KMA_KIND_NR] = { 0 };
	uint64_t psz = 4096;
	int k, first = 1;

	kma_account_match(&s[KMA_KIND_SLAB], KMA_KIND_SLAB,
			  kma_match_totals(in->by[KMA_HTML_CALLER]));
	if (in->pages && in->pages->totals) {
		psz = in->pages->page_size ? in->pages->page_size : 4096;
		kma_account_pages(&s[KMA_KIND_PAGE], in->pages->totals, psz);
	}
	for (k = KMA_KIND_PERCPU; k < KMA_KIND_NR; k++)
		if (in->kinds[k])
			kma_account_match(&s[k], k, kma_match_totals(in->kinds[k]));
	if (kma_account_present(s, KMA_KIND_NR) < 2)
		return;
	fputs(",\"kinds\":[", out);
	for (k = 0; k < KMA_KIND_NR; k++) {
		if (!s[k].allocs)
			continue;
		fputs(first ? "{\"kind\":" : ",{\"kind\":", out);
		first = 0;
		kma_json_str_html(out, kma_kind_name(k));
		fprintf(out, ",\"allocs\":" U64 ",\"bytes\":" U64 ",\"net\":" U64 ",\"peak\":" U64
			",\"peak_ts\":" U64, s[k].allocs, s[k].bytes, s[k].net, s[k].peak,
			s[k].peak_ts);
		if (k == KMA_KIND_SLAB)
			write_bins(out, kma_match_timeline(in->by[KMA_HTML_CALLER]), 1);
		else if (k == KMA_KIND_PAGE)
			write_bins(out, in->pages->tl, psz);
		else
			write_bins(out, kma_match_timeline(in->kinds[k]), 1);
		if (k >= KMA_KIND_PERCPU)
			write_callers(out, in->kinds[k]);
		fputc('}', out);
	}
	fputc(']', out);
}
