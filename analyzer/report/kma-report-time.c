// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-time.c - generations, the peak and lifetimes, as text, CSV or JSON.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "kma-time.h"
#include "kma-caller-sort.h"
#include "kma-report-time.h"

#define KMA_STR_(x)	#x
#define KMA_STR(x)	KMA_STR_(x)

static const struct kma_caller_order by_net = { .key = kma_caller_net };

/* The peak table's order line: "Sorted by net (bytes held at the peak)." and the like. */
static void say_order(FILE *out, enum kma_sort sort)
{
	if (sort == KMA_SORT_CALLER)
		fprintf(out, "Sorted by caller name.\n");
	else if (sort == KMA_SORT_NET)
		fprintf(out, "Sorted by net (bytes held at the peak).\n");
	else
		fprintf(out, "Sorted by %s.\n", kma_sort_name(sort));
}

/* --- generations --- */

int kma_report_generations(FILE *out, struct kma_match *m, uint64_t first_ts, enum kma_fmt fmt)
{
	const struct kma_generation *g = NULL;
	struct kma_table *t = kma_table_new("gen:n start:t allocs:n bytes:n live:n "
					    "live_bytes:n frees:n label:s");
	uint32_t nr, i;
	int err = 0;

	g = kma_match_generations(m, &nr);
	for (i = 0; t && !err && i < nr; i++) {
		err |= kma_table_u64(t, i);
		err |= kma_table_ts(t, fmt, i ? g[i].ts : first_ts);
		err |= kma_table_u64(t, g[i].allocs);
		err |= kma_table_u64(t, g[i].bytes);
		err |= kma_table_u64(t, g[i].live);
		err |= kma_table_u64(t, g[i].live_bytes);
		err |= kma_table_u64(t, g[i].frees);
		err |= kma_table_str(t, g[i].label ? g[i].label : "");
	}
	return kma_table_finish(out, t, fmt, "generations", NULL, err);
}

/* --- lifetimes --- */

static int has_frees(const struct kma_caller *c)
{
	return c->life_n > 0;
}

int kma_report_lifetimes(FILE *out, struct kma_match *m, enum kma_sort sort, uint64_t limit,
			 enum kma_fmt fmt)
{
	const struct kma_caller **v, *all;
	struct kma_caller_order order;
	struct kma_table *t;
	uint32_t nr, i, total;
	int err = 0, bucketed;

	kma_sort_order(sort, &order);
	all = kma_match_callers(m, &total);
	v = kma_callers_sorted(all, total, has_frees, &order, &nr);
	if (!v)
		return -1;
	/* the order in the heading line: the table still starts on the second line */
	bucketed = kma_match_lifetimes_bucketed(m);
	if (fmt == KMA_FMT_TEXT)
		fprintf(out, "Alloc -> free lifetimes of traced frees, sorted by %s (median and "
			"p99 by nearest rank%s; temporary: freed within the threshold).\n",
			sort == KMA_SORT_CALLER ? "caller name" : kma_sort_name(sort),
			bucketed ? ", within " KMA_STR(KMA_QUANT_ERR_PCT) "% for callers with more "
			"than " KMA_STR(KMA_QUANT_SMALL) " frees: too many lifetimes to keep, "
			"counted in log-spaced buckets" : "");
	t = kma_table_new("frees:n min:t median:t p99:t max:t temporary:n caller:s");
	for (i = 0; t && !err && i < nr && (!limit || i < limit); i++) {
		struct kma_quant *q = kma_match_lifetimes(m, (uint32_t)(v[i] - all));
		uint64_t n = q ? q->n : 0;

		err |= kma_table_u64(t, v[i]->life_n);
		err |= kma_table_dur(t, fmt, v[i]->life_min);
		err |= n ? kma_table_dur(t, fmt, kma_quant_pct(q, 50)) : kma_table_null(t);
		err |= n ? kma_table_dur(t, fmt, kma_quant_pct(q, 99)) : kma_table_null(t);
		err |= kma_table_dur(t, fmt, v[i]->life_max);
		err |= kma_table_u64(t, v[i]->temporary);
		err |= kma_table_str(t, v[i]->name);
	}
	free(v);
	return kma_table_finish(out, t, fmt, "lifetimes", bucketed ? "\"bucketed_over_frees\": "
				KMA_STR(KMA_QUANT_SMALL) ", \"bucketed_error_pct\": "
				KMA_STR(KMA_QUANT_ERR_PCT) : NULL, err);
}

/* --- peak --- */

static int had_peak(const struct kma_caller *c)
{
	return c->net_at_peak > 0;
}

static uint64_t net_at_peak(const struct kma_caller *c)
{
	return c->net_at_peak;
}

int kma_report_peak(FILE *out, struct kma_match *m, uint64_t first_ts, enum kma_sort sort,
		    uint64_t limit, enum kma_fmt fmt)
{
	static const struct kma_caller_order by_peak = { .key = net_at_peak };
	const struct kma_totals *tot = kma_match_totals(m);
	const struct kma_caller **v, *all;
	struct kma_caller_order order;
	struct kma_table *t;
	uint32_t nr, i, total;
	char ts[32], rel[32], head[96];
	int err = 0;

	all = kma_match_callers(m, &total);
	/* by net, then by the peak: two sorts, as always, so that ties come out as before */
	v = kma_callers_sorted(all, total, had_peak, &by_net, &nr);
	if (!v)
		return -1;
	/* -s net: what they held at the peak, the table's one number; else by -s */
	kma_sort_order(sort, &order);
	kma_callers_sort(v, nr, sort == KMA_SORT_NET ? &by_peak : &order);
	if (fmt == KMA_FMT_TEXT) {
		kma_fmt_secs(ts, sizeof(ts), tot->peak_ts);
		kma_fmt_secs(rel, sizeof(rel), tot->peak_ts - first_ts);
		fprintf(out, "peak live bytes: %" PRIu64 " at %s (%s into the trace)\n",
			tot->peak_net, tot->peak_net ? ts : "-", tot->peak_net ? rel : "-");
		say_order(out, sort);
	}
	t = kma_table_new("held:n caller:s");
	for (i = 0; t && !err && i < nr && (!limit || i < limit); i++) {
		err |= kma_table_u64(t, v[i]->net_at_peak);
		err |= kma_table_str(t, v[i]->name);
	}
	free(v);
	snprintf(head, sizeof(head), "\"peak_bytes\": %" PRIu64 ", \"peak_ts_ns\": %" PRIu64,
		 tot->peak_net, tot->peak_ts);
	return kma_table_finish(out, t, fmt, "peak", head, err);
}
