// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-leaks.c - leak suspects and module leftovers, as text, CSV or JSON.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kma-time.h"
#include "kma-caller-sort.h"
#include "kma-report-callers.h"
#include "kma-report-leaks.h"

/* --- leaks --- */

static int has_net(const struct kma_caller *c)
{
	return c->net > 0;
}

/* "Callers", "Stacks", "Caches", ...: what the rows are, for the heading. */
static const char *heading(const char *key)
{
	static const struct { const char *key, *rows; } names[] = {
		{ "caller", "Callers" }, { "function", "Functions" }, { "module", "Modules" },
		{ "file", "Source files" }, { "cache", "Caches" }, { "comm", "Tasks" },
		{ "pid", "PIDs" }, { "stack", "Call stacks" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(key, names[i].key))
			return names[i].rows;
	return "Rows";
}

/* The order of the rows, as -s names it: the per-caller report's keys and tie-breaks. */
static const char *order_of(enum kma_sort sort, struct kma_caller_order *o)
{
	kma_sort_order(sort, o);
	return kma_sort_name(sort);
}

/*
 * The text lines above a leak table: what the rows are (@what, e.g. "Callers
 * by outstanding bytes"), their order (@by), the rules, the tail; @live_of:
 * what is discounted in the tail ("live allocations made", "live pages
 * allocated"). Slab and page leak reports say it the same way.
 */
void kma_report_leaks_head(FILE *out, const char *what, const char *by,
			   const struct kma_leak_rules *r, const char *live_of)
{
	fprintf(out, "%s at the end of the trace, sorted by %s.\n", what, by);
	if (r->phases.iters) {
		fprintf(out, "Leak experiment: %u iterations%s.\nA suspect left live objects "
			"from most iterations, about as many each (within half of the median of "
			"iterations 2-%u).\n", r->phases.iters, r->phases.reclaim ?
			", then a reclaim: rows it freed half or more of are reclaimable" : "",
			r->phases.iters);
		return;
	}
	fprintf(out, "%u generation%s; a suspect grew in %d or more in a row, over at least %d "
		"generations.\n", r->gens, r->gens == 1 ? "" : "s", KMA_LEAK_MIN_RUN,
		KMA_LEAK_MIN_GENS);
	if (r->gens < KMA_LEAK_MIN_GENS)
		fprintf(out, "Too few generations for a verdict: mark at least %d with "
			"'echo \"kma: LABEL\" > /sys/kernel/tracing/trace_marker'.\n",
			KMA_LEAK_MIN_GENS - 1);
	if (r->gens > 1) {
		char t[32];

		kma_fmt_secs(t, sizeof(t), r->tail_ns);
		fprintf(out, "The trace went on %s after the last marker; %s in that tail "
			"are discounted.\n", t, live_of);
	}
}

/* "high" first, then "medium", "low", "none". */
static int conf_rank(const char *c)
{
	return !strcmp(c, "high") ? 0 : !strcmp(c, "medium") ? 1 : !strcmp(c, "low") ? 2 : 3;
}

static int cmp_line(const void *a, const void *b)
{
	const struct kma_leak_line *x = a, *y = b;
	int rx = kma_leak_rank(&x->v), ry = kma_leak_rank(&y->v);

	if (rx != ry)
		return rx - ry;
	rx = conf_rank(x->v.confidence);
	ry = conf_rank(y->v.confidence);
	if (rx != ry)
		return rx - ry;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* "20 20 19": what each iteration left, for CSV and JSON. */
static const char *iters_cell(const struct kma_leak_line *l, char *buf, size_t len)
{
	size_t at = 0;
	uint32_t i;

	if (!l->nr_iters)
		return NULL;
	buf[0] = '\0';
	for (i = 0; i < l->nr_iters && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%" PRIu64, i ? " " : "", l->iter[i]);
	return buf;
}

static int table_row(struct kma_table *t, enum kma_fmt fmt, const struct kma_leak_line *l,
		     int pages)
{
	char it[512];
	int err = 0;

	if (pages)
		err |= kma_table_u64(t, l->pages);
	err |= kma_table_u64(t, l->net);
	err |= kma_table_u64(t, l->live);
	err |= kma_table_dur(t, fmt, l->age_min);
	err |= kma_table_dur(t, fmt, l->age_med);
	err |= kma_table_dur(t, fmt, l->age_max);
	err |= kma_table_u64(t, l->grew);
	err |= kma_table_u64(t, l->run);
	err |= kma_table_str(t, l->v.suspect ? "yes" : "no");
	err |= kma_table_str(t, l->v.confidence);
	err |= kma_table_str(t, l->name);
	err |= kma_table_str(t, l->v.class);
	err |= kma_table_str(t, l->v.why[0] ? l->v.why : NULL);
	err |= kma_table_str(t, iters_cell(l, it, sizeof(it)));
	err |= kma_table_u64(t, l->reclaim_freed);
	return err;
}

/*
 * @s cut to @width terminal columns into buf, "..." marking the cut: at the
 * start for a folded stack (its innermost frames say most), else at the end.
 * Cut between code points, never inside one.
 */
static const char *cut(const char *s, size_t width, int tail, char *buf, size_t len)
{
	size_t n = strlen(s), at = 0, keep, k;
	uint32_t cp;

	if (kma_text_width(s) <= width || width < 4 || len < 8)
		return s;
	keep = width - 3;
	if (tail) {	/* the first code point from which the rest fits */
		while (at < n && (kma_text_width(s + at) > keep || n - at > len - 4))
			at += (k = kma_utf8_seq(s + at, &cp)) ? k : 1;
		snprintf(buf, len, "...%s", s + at);
		return buf;
	}
	for (buf[0] = '\0'; at < n; at += k) {	/* the longest start that fits */
		k = kma_utf8_seq(s + at, &cp);
		k = k ? k : 1;
		if (at + k + 4 > len)
			break;
		memcpy(buf + at, s + at, k);
		buf[at + k] = '\0';
		if (kma_text_width(buf) > keep)
			break;
	}
	memcpy(buf + at, "...", 4);
	return buf;
}

#define LINE_COLS	120

static int digits(uint64_t x)
{
	int d = 1;

	while (x >= 10) {
		x /= 10;
		d++;
	}
	return d;
}

/*
 * The reasons ("a; b; c") under their row, indented, as many on a line as fit
 * in LINE_COLS columns; a reason longer than a line is cut. 1 when one was.
 */
static int reasons(FILE *out, const char *why, char *buf, size_t len)
{
	const size_t room = LINE_COLS - 4;
	size_t used = 0;
	int cuts = 0;

	while (*why) {
		const char *end = strstr(why, "; ");
		size_t n = end ? (size_t)(end - why) : strlen(why), w;

		if (n >= len)
			n = len - 1;
		memcpy(buf, why, n);
		buf[n] = '\0';
		w = kma_text_width(buf);
		if (used && used + 2 + w > room) {
			fputc('\n', out);
			used = 0;
		}
		fputs(used ? "; " : "    ", out);
		used += used ? 2 : 0;
		if (w > room) {
			char c[LINE_COLS * 4 + 8];

			cuts = 1;
			kma_text_str(out, cut(buf, room, 0, c, sizeof(c)));
			w = room;
		} else {
			kma_text_str(out, buf);
		}
		used += w;
		why += n + (end ? 2 : 0);
	}
	if (used)
		fputc('\n', out);
	return cuts;
}

/* Text: one line per row within LINE_COLS columns, the reasons on the next, cut. */
static int text_lines(FILE *out, const struct kma_leak_line *v, uint32_t n, const char *key,
		      int pages)
{
	int wn = 5, wl = 4, wp = 5, wc = 5, fixed, cuts = 0;
	char buf[1024], t[32];
	uint32_t i;

	for (i = 0; i < n; i++) {
		wn = digits(v[i].net) > wn ? digits(v[i].net) : wn;
		wl = digits(v[i].live) > wl ? digits(v[i].live) : wl;
		wp = digits(v[i].pages) > wp ? digits(v[i].pages) : wp;
		wc = (int)strlen(v[i].v.class) > wc ? (int)strlen(v[i].v.class) : wc;
	}
	if (pages)
		fprintf(out, "%*s  ", wp, "pages");
	fprintf(out, "%*s  %*s  %11s  %-10s  %-*s  %s\n", wn, "bytes", wl, "live", "age_med",
		"confidence", wc, "class", key);
	fixed = (pages ? wp + 2 : 0) + wn + 2 + wl + 2 + 11 + 2 + 10 + 2 + wc + 2;
	for (i = 0; i < n; i++) {
		const struct kma_leak_line *l = &v[i];

		kma_fmt_secs(t, sizeof(t), l->age_med);
		if (pages)
			fprintf(out, "%*" PRIu64 "  ", wp, l->pages);
		fprintf(out, "%*" PRIu64 "  %*" PRIu64 "  %11s  %-10s  %-*s  ", wn, l->net, wl,
			l->live, l->live ? t : "-", l->v.confidence, wc, l->v.class);
		kma_text_str(out, cut(l->name, (size_t)(LINE_COLS - fixed), strchr(l->name, ';') != NULL,
				      buf, sizeof(buf)));
		fputc('\n', out);
		cuts |= reasons(out, l->v.why, buf, sizeof(buf));
	}
	if (cuts)
		fprintf(out, "(a reason cut at %d columns: -f csv, -f json and report.db have it "
			"whole)\n", LINE_COLS);
	return ferror(out) ? -1 : 0;
}

/* "2 suspects (1 high) of 6 rows with live bytes; --all lists the 4 others." */
static void text_summary(FILE *out, const struct kma_leak_line *v, uint32_t n, uint32_t shown,
			 const struct kma_leak_show *s)
{
	uint32_t sus = 0, high = 0, small = 0, i;

	for (i = 0; i < n; i++) {
		sus += v[i].v.suspect;
		high += v[i].v.suspect && !strcmp(v[i].v.confidence, "high");
		small += v[i].net < s->min_bytes;
	}
	fprintf(out, "%u suspect%s (%u high) of %u rows with live bytes", sus, sus == 1 ? "" : "s",
		high, n);
	if (small)
		fprintf(out, "; %u under --min-bytes %" PRIu64, small, s->min_bytes);
	if (shown < n && !s->all)
		fprintf(out, "; --all lists the others");
	fputs(".\n", out);
}

int kma_report_leak_lines(FILE *out, struct kma_leak_line *v, uint32_t n, const char *key,
			  int pages, const struct kma_leak_show *s, const char *json_head)
{
	int text = s->fmt == KMA_FMT_TEXT;
	struct kma_table *t;
	uint32_t i, k = 0;
	char cols[256];
	int err = 0;

	/* the text is the answer, suspects first; CSV and JSON every row, in -s order */
	if (text)
		qsort(v, n, sizeof(*v), cmp_line);
	for (i = 0; i < n; i++)	/* the rows shown, packed at the front in order */
		if ((v[i].v.suspect || s->all || !text) && v[i].net >= s->min_bytes &&
		    (!s->limit || k < s->limit)) {
			struct kma_leak_line tmp = v[k];

			v[k++] = v[i];
			v[i] = tmp;
		}
	if (text) {
		text_summary(out, v, n, k, s);
		return text_lines(out, v, k, key, pages);
	}
	snprintf(cols, sizeof(cols), "%s:n live:n age_min:t age_med:t age_max:t grew:n run:n "
		 "suspect:s confidence:s %s:s class:s why:s per_iteration:s reclaim_freed:n",
		 pages ? "live_pages:n live_bytes" : "net", key);
	t = kma_table_new(cols);
	for (i = 0; t && !err && i < k; i++)
		err |= table_row(t, (enum kma_fmt)s->fmt, &v[i], pages);
	return kma_table_finish(out, t, (enum kma_fmt)s->fmt, "leaks", json_head, err);
}

int kma_report_leaks(FILE *out, struct kma_match *m, const char *key,
		     const struct kma_leak_rules *rules, const struct kma_leak_show *show)
{
	struct kma_leak_rules r = *rules;
	const struct kma_generation *g = kma_match_generations(m, &r.gens);
	const struct kma_caller **v, *all;
	struct kma_caller_order order;
	struct kma_leak_line *lines;
	uint32_t nr, i, total;
	char head[200];
	const char *by = order_of(show->sort, &order);
	int ret;

	for (i = 0; i < r.gens; i++)
		kma_leak_phase_add(&r.phases, i, g[i].label);
	if (r.gens > 1 && kma_match_totals(m)->end_ts > g[r.gens - 1].ts)
		r.tail_ns = kma_match_totals(m)->end_ts - g[r.gens - 1].ts;
	all = kma_match_callers(m, &total);
	v = kma_callers_sorted(all, total, has_net, &order, &nr);
	lines = calloc(nr + 1, sizeof(*lines));
	if (!v || !lines) {
		free(v);
		free(lines);
		return -1;
	}
	for (i = 0; i < nr; i++) {
		const struct kma_caller *c = v[i];

		lines[i] = (struct kma_leak_line){
			.name = c->name, .net = c->net, .live = c->live, .age_min = c->age_min,
			.age_med = c->age_median, .age_max = c->age_max, .grew = c->grew_gens,
			.run = c->max_grow_run, .reclaim_freed = c->reclaim_freed,
			.iter = c->iter_live, .nr_iters = c->nr_iters, .order = i,
		};
		kma_leak_assess(c, &r, &lines[i].v);
	}
	free(v);
	if (show->fmt == KMA_FMT_TEXT) {
		char what[64];

		snprintf(what, sizeof(what), "%s by outstanding bytes", heading(key));
		kma_report_leaks_head(out, what, by, &r, "live allocations made");
	}
	snprintf(head, sizeof(head), "\"generations\": %u, \"iterations\": %u, \"lost_events\": %"
		 PRIu64 ", \"sorted_by\": \"%s\", \"tail_ns\": %" PRIu64, r.gens, r.phases.iters,
		 r.lost, by, r.tail_ns);
	ret = kma_report_leak_lines(out, lines, nr, key, 0, show, head);
	free(lines);
	return ret;
}

/* --- modules --- */

/* The cells of one leftovers row but the caller's. */
static int leftover_cells(struct kma_table *t, enum kma_fmt fmt, const struct kma_module *mod,
			  uint64_t allocs, uint64_t bytes, uint64_t live, uint64_t live_bytes)
{
	int err = 0;

	err |= kma_table_str(t, mod->name);
	err |= kma_table_ts(t, fmt, mod->free_ts);
	err |= kma_table_u64(t, allocs);
	err |= kma_table_u64(t, bytes);
	err |= kma_table_u64(t, live);
	err |= kma_table_u64(t, live_bytes);
	return err;
}

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
	t = kma_table_new("module:s unloaded:t allocs:n bytes:n still_live:n still_live_bytes:n "
			  "caller:s");
	for (i = 0; t && !err && i < nr; i++) {
		if (!mod[i].free_ts)
			continue;
		/* one row for the unload, then one per call site it left allocations of */
		err |= leftover_cells(t, fmt, &mod[i], mod[i].left, mod[i].left_bytes,
				      mod[i].left_live, mod[i].left_live_bytes);
		err |= kma_table_null(t);
		for (j = 0; j < ne && !err; j++) {
			if (e[j].module != i)
				continue;
			err |= leftover_cells(t, fmt, &mod[i], e[j].allocs, e[j].bytes,
					      e[j].live, e[j].live_bytes);
			err |= kma_table_str(t, c[e[j].caller_id].name);
		}
	}
	return kma_table_finish(out, t, fmt, "leftovers", NULL, err);
}
