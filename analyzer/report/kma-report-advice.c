// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-advice.c - --advice: what a dedicated kmem_cache would save, per
 * caller and range of kmalloc request sizes, as text, CSV or JSON.
 *
 * A caller that kmallocs variable sizes (a name, a header plus a payload) gets
 * one suggestion per range of request sizes, not one per size: a dedicated
 * cache holds objects of one size, the range's largest request aligned to 8,
 * so every allocation in the range then takes that size instead of its
 * kmalloc class. The ranges of a caller are the partition of its sizes that
 * saves the most bytes live at the peak of the trace (memory is scarce at the
 * peak; bytes freed long before it are no footprint), ties broken by the
 * bytes saved over the whole trace; sizes no cache helps stay in kmalloc.
 * The rows are ranked the same way.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kma-report-advice.h"
#include "kma-time.h"

/* SLUB aligns objects of a cache of its own to at least 8 bytes. */
#define KMA_CACHE_ALIGN(x)	(((x) + 7) & ~7ULL)
/* Partitions beyond this many sizes of one caller are cut into runs of it. */
#define KMA_ADVICE_MAX_SIZES	2048
/* The text layout fits this many columns, the caller on a line of its own if need be. */
#define KMA_ADVICE_COLS		100

/* One suggestion: sizes [first, last] of one caller in a cache of one object size. */
struct range {
	uint32_t	caller_id;
	uint64_t	req_min, req_max;
	uint64_t	alloc_min, alloc_max;	/* the kmalloc classes they are in now */
	uint64_t	object;			/* the dedicated cache's object size */
	uint64_t	allocs, live_at_peak, live;
	int64_t		saved_peak, saved;	/* bytes; a range is kept only when > 0 */
	uint32_t	nr_sizes;
};

/* What a partition of sizes saves: at the peak first, over the trace second. */
struct gain {
	int64_t	peak, all;
};

static int gain_less(struct gain a, struct gain b)
{
	return a.peak != b.peak ? a.peak < b.peak : a.all < b.all;
}

static int cmp_size(const void *a, const void *b)
{
	const struct kma_size *x = *(const struct kma_size * const *)a;
	const struct kma_size *y = *(const struct kma_size * const *)b;

	if (x->caller_id != y->caller_id)
		return x->caller_id < y->caller_id ? -1 : 1;
	if (x->bytes_req != y->bytes_req)
		return x->bytes_req < y->bytes_req ? -1 : 1;
	return x->bytes_alloc < y->bytes_alloc ? -1 : x->bytes_alloc > y->bytes_alloc;
}

/* Sizes s[i..j] (sorted by request) in one cache sized for s[j]. */
static struct gain range_gain(const struct kma_size **s, uint32_t i, uint32_t j)
{
	uint64_t obj = KMA_CACHE_ALIGN(s[j]->bytes_req);
	struct gain g = { 0, 0 };

	for (; i <= j; i++) {
		int64_t per = (int64_t)s[i]->bytes_alloc - (int64_t)obj;

		g.peak += per * (int64_t)s[i]->live_at_peak;
		g.all += per * (int64_t)s[i]->allocs;
	}
	return g;
}

static void fill_range(struct range *r, const struct kma_size **s, uint32_t i, uint32_t j)
{
	struct gain g = range_gain(s, i, j);

	memset(r, 0, sizeof(*r));
	r->caller_id = s[i]->caller_id;
	r->req_min = s[i]->bytes_req;
	r->req_max = s[j]->bytes_req;
	r->alloc_min = UINT64_MAX;
	r->object = KMA_CACHE_ALIGN(s[j]->bytes_req);
	r->saved_peak = g.peak;
	r->saved = g.all;
	r->nr_sizes = j - i + 1;
	for (; i <= j; i++) {
		if (s[i]->bytes_alloc < r->alloc_min)
			r->alloc_min = s[i]->bytes_alloc;
		if (s[i]->bytes_alloc > r->alloc_max)
			r->alloc_max = s[i]->bytes_alloc;
		r->allocs += s[i]->allocs;
		r->live_at_peak += s[i]->live_at_peak;
		r->live += s[i]->live;
	}
}

/*
 * The best partition of s[0..n-1] (one caller, by request size) into ranges
 * with a positive gain and sizes left alone: best[j] is the best gain of the
 * first j sizes, from[j] where its last range starts (j: size j-1 left alone).
 * Appends the ranges to *out. O(n^2) range gains of O(n) each is too slow for
 * a caller of many sizes, so gains are summed incrementally from the right.
 */
static int partition(const struct kma_size **s, uint32_t n, struct range *out, uint32_t *nr)
{
	struct gain *best = calloc(n + 1, sizeof(*best));
	uint32_t *from = calloc(n + 1, sizeof(*from)), i, j;
	int ret = -1;

	if (!best || !from)
		goto out;
	for (j = 1; j <= n; j++) {
		uint64_t obj = KMA_CACHE_ALIGN(s[j - 1]->bytes_req);
		struct gain g = { 0, 0 };

		best[j] = best[j - 1];
		from[j] = j;
		for (i = j; i-- > 0; ) {
			int64_t per = (int64_t)s[i]->bytes_alloc - (int64_t)obj;
			struct gain c;

			g.peak += per * (int64_t)s[i]->live_at_peak;
			g.all += per * (int64_t)s[i]->allocs;
			if (!gain_less((struct gain){ 0, 0 }, g))
				continue;	/* a cache that saves nothing is no advice */
			c = (struct gain){ best[i].peak + g.peak, best[i].all + g.all };
			if (gain_less(best[j], c)) {
				best[j] = c;
				from[j] = i;
			}
		}
	}
	for (j = n; j > 0; ) {
		if (from[j] == j) {
			j--;
			continue;
		}
		fill_range(&out[(*nr)++], s, from[j], j - 1);
		j = from[j];
	}
	ret = 0;
out:
	free(best);
	free(from);
	return ret;
}

static int cmp_range(const void *a, const void *b, void *arg)
{
	const struct range *x = a, *y = b;
	const struct kma_caller *c = arg;
	int d;

	if (x->saved_peak != y->saved_peak)
		return x->saved_peak > y->saved_peak ? -1 : 1;
	if (x->saved != y->saved)
		return x->saved > y->saved ? -1 : 1;
	d = strcmp(c[x->caller_id].name, c[y->caller_id].name);
	if (d)
		return d;
	return x->req_min < y->req_min ? -1 : x->req_min > y->req_min;
}

/* Every caller's ranges, ranked; NULL on out of memory. */
static struct range *advice_ranges(struct kma_match *m, uint32_t *nr)
{
	const struct kma_size *sizes, **v;
	const struct kma_caller *c;
	struct range *r;
	uint32_t n, nc, i, j;

	*nr = 0;
	sizes = kma_match_sizes(m, &n);
	c = kma_match_callers(m, &nc);
	v = malloc((n ? n : 1) * sizeof(*v));
	r = malloc((n ? n : 1) * sizeof(*r));
	if (!v || !r)
		goto fail;
	for (i = 0; i < n; i++)
		v[i] = &sizes[i];
	qsort(v, n, sizeof(*v), cmp_size);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && j - i < KMA_ADVICE_MAX_SIZES &&
		     v[j]->caller_id == v[i]->caller_id; j++)
			;
		if (partition(v + i, j - i, r, nr))
			goto fail;
	}
	free(v);
	qsort_r(r, *nr, sizeof(*r), cmp_range, (void *)c);
	return r;
fail:
	free(v);
	free(r);
	return NULL;
}

/* "64", "1k", "large": a kmalloc class without its "kmalloc-". */
static void class_of(char *buf, size_t len, uint64_t bytes_alloc)
{
	char cls[48];
	const char *p;

	kma_kmalloc_class(cls, sizeof(cls), bytes_alloc);
	p = strrchr(cls, '-');	/* kmalloc-64, kmalloc-cg-64: the size */
	snprintf(buf, len, "%.15s", p ? p + 1 : cls);
}

static void range_strings(const struct range *r, char *req, char *cls, size_t len)
{
	char a[16], b[16];	/* "large", "8k": short */

	if (r->req_min == r->req_max)
		snprintf(req, len, "%" PRIu64, r->req_min);
	else
		snprintf(req, len, "%" PRIu64 "-%" PRIu64, r->req_min, r->req_max);
	class_of(a, sizeof(a), r->alloc_min);
	class_of(b, sizeof(b), r->alloc_max);
	if (r->alloc_min == r->alloc_max)
		snprintf(cls, len, "%s", a);
	else
		snprintf(cls, len, "%s..%s", a, b);
}

static int advice_row(struct kma_table *t, const struct range *r, const char *caller)
{
	char req[48], cls[48], a[32], b[32];
	int err = 0;

	range_strings(r, req, cls, sizeof(req));
	kma_kmalloc_class(a, sizeof(a), r->alloc_min);
	kma_kmalloc_class(b, sizeof(b), r->alloc_max);
	err |= kma_table_str(t, caller);
	err |= kma_table_u64(t, r->req_min);
	err |= kma_table_u64(t, r->req_max);
	err |= kma_table_u64(t, r->nr_sizes);
	err |= kma_table_str(t, a);
	err |= kma_table_str(t, b);
	err |= kma_table_u64(t, r->object);
	err |= kma_table_u64(t, r->allocs);
	err |= kma_table_u64(t, r->live_at_peak);
	err |= kma_table_u64(t, r->live);
	err |= kma_table_u64(t, (uint64_t)r->saved_peak);
	err |= kma_table_u64(t, (uint64_t)r->saved);
	return err;
}

/* The text cells of a range, in the order of advice_text()'s heading. */
static void text_cells(const struct range *x, char cell[7][48])
{
	snprintf(cell[0], 48, "%" PRId64, x->saved_peak);
	snprintf(cell[1], 48, "%" PRId64, x->saved);
	snprintf(cell[2], 48, "%" PRIu64, x->live_at_peak);
	snprintf(cell[3], 48, "%" PRIu64, x->allocs);
	range_strings(x, cell[4], cell[5], 48);
	snprintf(cell[6], 48, "%" PRIu64, x->object);
}

/* Text: one row per range in fixed columns; a caller that would pass column 100 wraps. */
static int advice_text(FILE *out, const struct range *r, uint32_t n, const struct kma_caller *c)
{
	static const char * const head[] = { "saved@peak", "saved", "live@peak", "allocs",
					     "request", "kmalloc", "cache" };
	char cell[7][48];
	size_t w[7], i, k, col;

	for (k = 0; k < 7; k++)
		w[k] = strlen(head[k]);
	for (i = 0; i < n; i++) {
		text_cells(&r[i], cell);
		for (k = 0; k < 7; k++)
			if (strlen(cell[k]) > w[k])
				w[k] = strlen(cell[k]);
	}
	for (k = 0; k < 7; k++)
		fprintf(out, "%s%*s", k ? "  " : "", (int)w[k], head[k]);
	fputs("  caller\n", out);
	for (i = 0; i < n; i++) {
		const char *name = c[r[i].caller_id].name;

		text_cells(&r[i], cell);
		for (k = 0, col = 0; k < 7; k++)
			col += fprintf(out, "%s%*s", k ? "  " : "", (int)w[k], cell[k]);
		if (col + 2 + kma_text_width(name) > KMA_ADVICE_COLS)
			fputs("\n    ", out);
		fputs("  ", out);
		kma_text_str(out, name);
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}

int kma_report_advice(FILE *out, struct kma_match *m, uint64_t first_ts, uint64_t limit,
		      enum kma_fmt fmt)
{
	const struct kma_totals *tot = kma_match_totals(m);
	const struct kma_caller *c;
	struct kma_table *t;
	struct range *r;
	uint32_t n, nc, i;
	char at[32];
	int err = 0;

	c = kma_match_callers(m, &nc);
	r = advice_ranges(m, &n);
	if (!r)
		return -1;
	if (limit && n > limit)
		n = (uint32_t)limit;
	if (fmt == KMA_FMT_TEXT) {
		kma_fmt_secs(at, sizeof(at), tot->peak_ts - (tot->peak_net ? first_ts : tot->peak_ts));
		fprintf(out, "Dedicated kmem_caches for kmalloc request sizes, per caller and range of "
			"sizes. A cache holds\nobjects of the range's largest request aligned to 8 "
			"(column cache, bytes); saved: bytes\nsaved at the peak of live bytes (%s "
			"into the trace), then over the whole trace.\n", at);
		err = advice_text(out, r, n, c);
		free(r);
		return err;
	}
	t = kma_table_new("caller:s req_min:n req_max:n sizes:n kmalloc_min:s kmalloc_max:s "
			  "dedicated:n allocs:n live_at_peak:n live:n saved_at_peak:n saved:n");
	for (i = 0; t && !err && i < n; i++)
		err |= advice_row(t, &r[i], c[r[i].caller_id].name);
	free(r);
	return kma_table_finish(out, t, fmt, "advice", NULL, err);
}
