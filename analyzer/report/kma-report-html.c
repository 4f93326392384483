// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-html.c - the --html page: a skeleton, Chart.js and the
 * page's script inlined, and the data as one JSON object in a
 * <script type="application/json">. Every string goes through json_str(), which
 * also escapes '<', '>' and '&', so no name can end the script element or be
 * read as markup; the script then only ever sets names as textContent.
 * Binned series and per-group rows only: the page's size does not grow with
 * the number of allocations.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "match/kma-leak.h"
#include "match/kma-timeline.h"
#include "kma-report-html.h"
#include "kma-table.h"

/* A name as a JSON string safe inside <script>; NULL as null. */
static void json_str(FILE *out, const char *s)
{
	if (s)
		kma_json_str_html(out, s);
	else
		fputs("null", out);
}

#define U64	"%" PRIu64

/* [a, b, ...] of n numbers got(i). */
static void u64_array(FILE *out, const char *key, uint32_t n, const void *ctx,
		      uint64_t (*got)(const void *ctx, uint32_t i))
{
	uint32_t i;

	fprintf(out, "\"%s\":[", key);
	for (i = 0; i < n; i++)
		fprintf(out, i ? "," U64 : U64, got(ctx, i));
	fputc(']', out);
}

static void write_summary(FILE *out, const struct kma_html_in *in)
{
	const struct kma_totals *t = kma_match_totals(in->by[KMA_HTML_CALLER]);
	uint64_t unknown_pages, lost = kma_trace_lost(in->info, &unknown_pages);

	fputs("\"file\":", out);
	json_str(out, in->info->file);
	fputs(",\"release\":", out);
	json_str(out, in->info->release);
	fputs(",\"filter\":", out);
	json_str(out, in->filter);
	fprintf(out, ",\"first_ts\":" U64 ",\"last_ts\":" U64 ",\"cpus\":%d,\"events\":" U64
		",\"kmem_events\":" U64 ",\"stacked\":" U64, in->info->first_ts,
		in->info->last_ts, in->info->cpus, in->info->events, in->info->kmem_events,
		in->info->stacked);
	fprintf(out, ",\"summary\":{\"total\":" U64 ",\"slack\":" U64 ",\"net\":" U64
		",\"allocs\":" U64 ",\"frees\":" U64 ",\"callers\":" U64
		",\"unknown_frees\":" U64 ",\"null_frees\":" U64 ",\"implicit_frees\":" U64
		",\"failed_allocs\":" U64 ",\"lost_events\":" U64 ",\"lost_unknown_pages\":" U64
		",\"unknown_frees_scope\":\"%s\"}", t->total, t->slack, t->net, t->allocs, t->frees,
		t->callers, t->unknown_frees, t->null_frees, t->implicit_frees, t->failed_allocs, lost,
		unknown_pages, kma_free_scope_name(t->free_scope));
	fprintf(out, ",\"peak\":{\"ts\":" U64 ",\"bytes\":" U64 "}", t->peak_ts, t->peak_net);
}

static uint64_t b_allocs(const void *c, uint32_t i) { return ((const struct kma_tl_bin *)c)[i].allocs; }
static uint64_t b_abytes(const void *c, uint32_t i) { return ((const struct kma_tl_bin *)c)[i].alloc_bytes; }
static uint64_t b_frees(const void *c, uint32_t i) { return ((const struct kma_tl_bin *)c)[i].frees; }
static uint64_t b_fbytes(const void *c, uint32_t i) { return ((const struct kma_tl_bin *)c)[i].free_bytes; }
static uint64_t b_live(const void *c, uint32_t i) { return ((const struct kma_tl_bin *)c)[i].live; }
static uint64_t b_max(const void *c, uint32_t i) { return ((const struct kma_tl_bin *)c)[i].live_max; }

struct series { const struct kma_timeline *tl; uint32_t k; };

static uint64_t s_live(const void *c, uint32_t i)
{
	const struct series *s = c;

	return kma_timeline_live(s->tl, s->k, i);
}

/* The bins, and the top callers' live bytes then "[other]". */
static void write_timeline(FILE *out, struct kma_match *m)
{
	const struct kma_timeline *tl = kma_match_timeline(m);
	const struct kma_caller *c;
	const struct kma_tl_bin *b;
	const uint32_t *top;
	uint64_t start = 0, width = 0;
	uint32_t n = 0, nr_top = 0, nr, k;

	c = kma_match_callers(m, &nr);
	if (tl) {
		n = kma_timeline_bins(tl, &start, &width, &b);
		nr_top = kma_timeline_top(tl, &top);
	}
	fprintf(out, ",\"timeline\":{\"start\":" U64 ",\"width\":" U64 ",", start, width);
	u64_array(out, "allocs", n, b, b_allocs);
	fputc(',', out);
	u64_array(out, "alloc_bytes", n, b, b_abytes);
	fputc(',', out);
	u64_array(out, "frees", n, b, b_frees);
	fputc(',', out);
	u64_array(out, "free_bytes", n, b, b_fbytes);
	fputc(',', out);
	u64_array(out, "live", n, b, b_live);
	fputc(',', out);
	u64_array(out, "live_max", n, b, b_max);
	fputs(",\"series\":[", out);
	for (k = 0; n && k <= nr_top; k++) {
		struct series s = { tl, k };

		fputs(k ? ",{\"name\":" : "{\"name\":", out);
		json_str(out, k < nr_top && top[k] < nr ? c[top[k]].name : "[other]");
		fputc(',', out);
		u64_array(out, "live", n, &s, s_live);
		fputc('}', out);
	}
	fputs("]}", out);
}

static void write_gens(FILE *out, struct kma_match *m, uint64_t first_ts)
{
	const struct kma_generation *g;
	uint32_t n, i;

	g = kma_match_generations(m, &n);
	fputs(",\"generations\":[", out);
	for (i = 0; i < n; i++) {
		fprintf(out, "%s[%u," U64 ",", i ? "," : "", i, i ? g[i].ts : first_ts);
		json_str(out, g[i].label);
		fprintf(out, "," U64 "," U64 "," U64 "," U64 "," U64 "]", g[i].allocs, g[i].bytes,
			g[i].live, g[i].live_bytes, g[i].frees);
	}
	fputc(']', out);
}

/*
 * One grouping's rows: [name, address, total, slack, net, allocs, frees, implicit, live,
 * slack%]; slack% as the per-caller table prints it (kma_fmt_pct), null without bytes.
 */
static void write_group(FILE *out, const char *key, struct kma_match *m, int first)
{
	const struct kma_caller *c;
	uint32_t n, i, k = 0;
	char pct[32];

	c = kma_match_callers(m, &n);
	fprintf(out, "%s\"%s\":[", first ? "" : ",", key);
	for (i = 0; i < n; i++) {
		if (!c[i].allocs)
			continue;
		fputs(k++ ? ",[" : "[", out);
		json_str(out, c[i].name);
		if (!strcmp(key, "caller"))
			fprintf(out, ",\"0x%" PRIx64 "\"", c[i].address);
		else
			fputs(",null", out);
		fprintf(out, "," U64 "," U64 "," U64 "," U64 "," U64 "," U64 "," U64, c[i].total,
			c[i].slack, c[i].net, c[i].allocs, c[i].frees, c[i].implicit_frees,
			c[i].live);
		kma_fmt_pct(pct, sizeof(pct), c[i].slack, c[i].total);
		fprintf(out, c[i].total ? ",\"%s\"]" : ",null]", pct);
	}
	fputc(']', out);
}

static void write_groups(FILE *out, const struct kma_html_in *in)
{
	static const char *const keys[KMA_HTML_NR] = {
		"caller", "function", "module", "cache", "comm", "stack",
	};
	int g;

	fputs(",\"groups\":{", out);
	for (g = 0; g < KMA_HTML_NR; g++)
		if (in->by[g])
			write_group(out, keys[g], in->by[g], g == 0);
	fputc('}', out);
}

struct slack_row { uint64_t alloc, allocs, slack; };

static int cmp_slack(const void *a, const void *b)
{
	const struct slack_row *x = a, *y = b;

	return x->alloc < y->alloc ? -1 : x->alloc > y->alloc;
}

/* kmalloc slack by size class (bytes_alloc): [bytes_alloc, allocs, bytes, slack]. */
static int write_slack(FILE *out, struct kma_match *m)
{
	const struct kma_size *s;
	uint32_t n, i, k = 0;
	struct slack_row *r;

	s = kma_match_sizes(m, &n);
	r = calloc(n ? n : 1, sizeof(*r));
	if (!r)
		return -1;
	for (i = 0; i < n; i++) {
		r[i].alloc = s[i].bytes_alloc;
		r[i].allocs = s[i].allocs;
		r[i].slack = s[i].bytes_alloc > s[i].bytes_req ?
			     s[i].allocs * (s[i].bytes_alloc - s[i].bytes_req) : 0;
	}
	qsort(r, n, sizeof(*r), cmp_slack);
	fputs(",\"slack\":[", out);
	for (i = 0; i < n; i = k) {
		uint64_t allocs = 0, slack = 0;

		for (k = i; k < n && r[k].alloc == r[i].alloc; k++) {
			allocs += r[k].allocs;
			slack += r[k].slack;
		}
		fprintf(out, "%s[" U64 "," U64 "," U64 "," U64 "]", i ? "," : "", r[i].alloc,
			allocs, allocs * r[i].alloc, slack);
	}
	fputc(']', out);
	free(r);
	return 0;
}

/* Lifetimes (alloc -> traced free) in decades from 1 us: [upper bound ns (0: none), count]. */
static void write_lifetimes(FILE *out, struct kma_match *m)
{
	const uint64_t *hist = kma_match_totals(m)->life_decades;
	uint64_t bound;
	uint32_t i;

	fputs(",\"lifetimes\":[", out);
	for (i = 0, bound = 1000; i < 10; i++, bound *= 10)
		fprintf(out, "%s[" U64 "," U64 "]", i ? "," : "", i < 9 ? bound : 0, hist[i]);
	fputc(']', out);
}

/* Callers whose leak class is not none: [name, class, confidence, net, live, why]. */
static void write_leaks(FILE *out, const struct kma_html_in *in)
{
	struct kma_match *m = in->by[KMA_HTML_CALLER];
	const struct kma_generation *g;
	const struct kma_caller *c;
	struct kma_leak_rules r = { .young_ns = in->young_ns, .growth = in->growth };
	struct kma_leak leak;
	uint32_t n, i, k = 0;

	r.lost = kma_trace_lost(in->info, NULL);
	g = kma_match_generations(m, &r.gens);
	for (i = 0; i < r.gens; i++)
		kma_leak_phase_add(&r.phases, i, g[i].label);
	if (r.gens > 1 && kma_match_totals(m)->end_ts > g[r.gens - 1].ts)
		r.tail_ns = kma_match_totals(m)->end_ts - g[r.gens - 1].ts;
	c = kma_match_callers(m, &n);
	fputs(",\"leaks\":[", out);
	for (i = 0; i < n; i++) {
		if (!c[i].net)
			continue;
		kma_leak_assess(&c[i], &r, &leak);
		if (!strcmp(leak.class, KMA_LEAK_NONE))
			continue;
		fputs(k++ ? ",[" : "[", out);
		json_str(out, c[i].name);
		fputc(',', out);
		json_str(out, leak.class);
		fputc(',', out);
		json_str(out, leak.confidence);
		fprintf(out, "," U64 "," U64 ",", c[i].net, c[i].live);
		json_str(out, leak.why);
		fputc(']', out);
	}
	fputc(']', out);
}

/* What module unloads left: [module, caller, allocs, bytes, still live, their bytes]. */
static void write_leftovers(FILE *out, struct kma_match *m)
{
	const struct kma_leftover *e;
	const struct kma_module *mod;
	const struct kma_caller *c;
	uint32_t n, nm, nc, i;

	e = kma_match_leftovers(m, &n);
	mod = kma_match_modules(m, &nm);
	c = kma_match_callers(m, &nc);
	fputs(",\"leftovers\":[", out);
	for (i = 0; i < n; i++) {
		fputs(i ? ",[" : "[", out);
		json_str(out, e[i].module < nm ? mod[e[i].module].name : NULL);
		fputc(',', out);
		json_str(out, e[i].caller_id < nc ? c[e[i].caller_id].name : NULL);
		fprintf(out, "," U64 "," U64 "," U64 "," U64 "]", e[i].allocs, e[i].bytes,
			e[i].live, e[i].live_bytes);
	}
	fputc(']', out);
}

#define KMA_HTML_GEN_TOP	5	/* callers shown per generation */

static const struct kma_caller *sort_callers;

/* By generation, then the most bytes, then the name. */
static int cmp_genlive(const void *a, const void *b)
{
	const struct kma_html_genlive *x = a, *y = b;

	if (x->gen != y->gen)
		return x->gen < y->gen ? -1 : 1;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	return strcmp(sort_callers[x->caller_id].name, sort_callers[y->caller_id].name);
}

/* Per generation, the callers whose allocations in it are still live: [gen, name, n, bytes]. */
static void write_genlive(FILE *out, const struct kma_html_in *in)
{
	uint32_t nr, i, k = 0, shown = 0;

	sort_callers = kma_match_callers(in->by[KMA_HTML_CALLER], &nr);
	if (in->nr_genlive)
		qsort(in->genlive, in->nr_genlive, sizeof(*in->genlive), cmp_genlive);
	fputs(",\"gen_live\":[", out);
	for (i = 0; i < in->nr_genlive; i++) {
		const struct kma_html_genlive *e = &in->genlive[i];

		shown = i && e->gen == e[-1].gen ? shown + 1 : 0;
		if (shown >= KMA_HTML_GEN_TOP || e->caller_id >= nr)
			continue;
		fprintf(out, "%s[%u,", k++ ? "," : "", e->gen);
		json_str(out, sort_callers[e->caller_id].name);
		fprintf(out, "," U64 "," U64 "]", e->allocs, e->bytes);
	}
	fputc(']', out);
}

static const char page_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	"script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
	KMA_HTML_GENERATOR "\n" KMA_HTML_TITLE "</head>\n<body>\n"
	/* first: errors of any script below, Chart.js's too, land in the page */
	"<script>window.onerror = function (m, s, l) { var e = document.getElementById("
	"'kma-errors'); if (!e) { e = document.createElement('pre'); e.id = 'kma-errors'; "
	"document.body.appendChild(e); } e.textContent += m + ' (line ' + l + ')\\n'; "
	"document.body.setAttribute('data-kma-error', '1'); };</script>\n<div id=\"kma-app\">"
	"<p id=\"kma-noscript\">This page draws its report with JavaScript.</p></div>\n";

int kma_report_html(FILE *out, const struct kma_html_in *in)
{
	fputs(page_head, out);
	fputs("<script id=\"kma-data\" type=\"application/json\">{", out);
	write_summary(out, in);
	write_timeline(out, in->by[KMA_HTML_CALLER]);
	write_gens(out, in->by[KMA_HTML_CALLER], in->info->first_ts);
	write_genlive(out, in);
	write_groups(out, in);
	if (write_slack(out, in->by[KMA_HTML_CALLER]))
		return -1;
	write_lifetimes(out, in->by[KMA_HTML_CALLER]);
	write_leaks(out, in);
	write_leftovers(out, in->by[KMA_HTML_CALLER]);
	kma_html_write_pages(out, in->pages);
	kma_html_write_kinds(out, in);
	if (kma_html_write_counters(out, in->counters))
		return -1;
	fputs("}</script>\n<script>\n", out);
	fputs(in->chartjs, out);
	fputs("\n</script>\n<script>\n", out);
	fputs(in->app_js, out);
	fputs("\n</script>\n</body></html>\n", out);
	return ferror(out) ? -1 : 0;
}
