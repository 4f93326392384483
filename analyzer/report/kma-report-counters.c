// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-counters.c - --counters: per slab cache, the kernel's change of
 * active objects beside the trace's allocations - frees - implicit frees
 * over the same interval, and their difference (objects that moved through
 * paths with no kmem event); meminfo's fields beside the trace's slab bytes;
 * allocinfo's functions beside kma's net for their call sites.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kma-report-counters.h"
#include "kma-time.h"

#define COLS "kind:s name:s state:s target:s objsize:n kernel_start:n kernel_end:n " \
	     "kernel_delta:n kernel_calls_delta:n trace_allocs:n trace_frees:n " \
	     "trace_implicit:n trace_delta:n untraced:n"

static int i64_or_null(struct kma_table *t, int has, int64_t v)
{
	return has ? kma_table_i64(t, v) : kma_table_null(t);
}

static int slab_cells(struct kma_table *t, const struct kma_cnt_slab *s, int text)
{
	int k = s->state == KMA_CNT_SLAB_BOTH, err = 0;

	if (!text) {
		err |= kma_table_str(t, "slabinfo");
		err |= kma_table_str(t, s->cache);
		err |= kma_table_str(t, kma_cnt_slab_state_name(s->state));
		err |= kma_table_str(t, s->target);
	}
	err |= s->objsize ? kma_table_u64(t, s->objsize) : kma_table_null(t);
	err |= i64_or_null(t, k, s->k_start);
	err |= i64_or_null(t, k, s->k_end);
	err |= i64_or_null(t, k, s->k_delta);
	if (!text)
		err |= kma_table_null(t);
	err |= kma_table_i64(t, s->allocs);
	err |= kma_table_i64(t, s->frees);
	err |= kma_table_i64(t, s->implicit);
	err |= kma_table_i64(t, s->t_delta);
	err |= i64_or_null(t, k, s->untraced);
	if (text) {
		err |= kma_table_str(t, s->cache);
		err |= kma_table_str(t, s->state == KMA_CNT_SLAB_MERGED ? s->target :
				     s->state == KMA_CNT_SLAB_UNKNOWN ? "(unknown target)" : NULL);
	}
	return err;
}

static int mem_cells(struct kma_table *t, const struct kma_cnt_mem *m, int text)
{
	int err = 0;

	if (!text) {
		err |= kma_table_str(t, "meminfo");
		err |= kma_table_str(t, m->field);
		err |= kma_table_null(t);
		err |= kma_table_null(t);
		err |= kma_table_null(t);
	}
	err |= kma_table_i64(t, m->k_start * 1024);
	err |= kma_table_i64(t, m->k_end * 1024);
	err |= kma_table_i64(t, m->k_delta);
	if (!text) {
		err |= kma_table_null(t);
		err |= kma_table_null(t);
		err |= kma_table_null(t);
		err |= kma_table_null(t);
	}
	err |= i64_or_null(t, m->has_trace, m->t_delta);
	err |= i64_or_null(t, m->has_trace, m->untraced);
	if (text)
		err |= kma_table_str(t, m->field);
	return err;
}

static int alloc_cells(struct kma_table *t, const struct kma_cnt_alloc *a, int text)
{
	int err = 0;

	if (!text) {
		err |= kma_table_str(t, "allocinfo");
		err |= kma_table_str(t, a->func);
		err |= kma_table_null(t);
		err |= kma_table_null(t);
		err |= kma_table_null(t);
	}
	err |= kma_table_i64(t, a->k_start);
	err |= kma_table_i64(t, a->k_end);
	err |= kma_table_i64(t, a->k_bytes);
	err |= kma_table_i64(t, a->k_calls);
	err |= kma_table_i64(t, a->t_allocs);
	if (!text) {
		err |= kma_table_null(t);
		err |= kma_table_null(t);
	}
	err |= kma_table_i64(t, a->t_net);
	err |= kma_table_i64(t, a->untraced);
	if (text) {
		err |= kma_table_u64(t, a->tags);
		err |= kma_table_str(t, a->func);
	}
	return err;
}

/* "start at 0.100000s (2 parts)", "start: part 2/3 missing", "no start". */
static void snap_text(FILE *out, const struct kma_cnt_snap *s, uint64_t first_ts)
{
	char t[40];

	if (!s->seen) {
		fprintf(out, "no %s snapshot", kma_cnt_phase_name(s->phase));
		return;
	}
	kma_fmt_secs(t, sizeof(t), s->ts - first_ts);
	fprintf(out, "%s at %s", kma_cnt_phase_name(s->phase), t);
	if (s->why)
		fprintf(out, " (incomplete: %s)", s->why);
	else if (s->parts > 1)
		fprintf(out, " (%u parts)", s->parts);
}

static void text_head(FILE *out, const struct kma_counters *c, uint64_t first_ts)
{
	const struct kma_cnt_snap *s = kma_counters_snaps(c);
	const struct kma_cnt_totals *tot = kma_counters_totals(c);
	int k;

	fputs("The kernel's own counters (kma-record's start and end snapshots) beside the trace "
	      "over the same interval\n", out);
	for (k = 0; k < KMA_CNT_KINDS; k++) {
		const struct kma_cnt_snap *a = &s[k * KMA_CNT_PHASES + KMA_CNT_START];
		const struct kma_cnt_snap *b = &s[k * KMA_CNT_PHASES + KMA_CNT_END];

		fprintf(out, "  %-10s ", kma_cnt_kind_name(k));
		if (!a->seen && !b->seen) {
			fputs("none in this trace\n", out);
			continue;
		}
		snap_text(out, a, first_ts);
		fputs(", ", out);
		snap_text(out, b, first_ts);
		if (kma_counters_usable(c, k))
			fputs("\n", out);
		else if (a->complete && b->complete)
			fputs(": the end before the start, not used\n", out);
		else
			fputs(": not used\n", out);
	}
	if (tot->bad_markers)
		fprintf(out, "  %" PRIu64 " counter marker%s not understood (first: %s)\n",
			tot->bad_markers, tot->bad_markers > 1 ? "s" : "", tot->first_bad);
}

static int text_slab(FILE *out, const struct kma_counters *c, uint64_t limit)
{
	const struct kma_cnt_totals *tot = kma_counters_totals(c);
	const struct kma_cnt_slab **v;
	struct kma_table *t;
	size_t n, i;
	int err = 0;

	v = kma_counters_slab_shown(c, &n);
	t = kma_table_new("objsize:n k_start:n k_end:n kernel_delta:n allocs:n frees:n "
			  "implicit:n trace_delta:n untraced:n cache:s merged_into:s");
	if (!v || !t) {
		free(v);
		kma_table_free(t);
		return -1;
	}
	fputs("\nSlab caches: active objects (kernel) beside allocations - frees - implicit "
	      "frees (trace); untraced =\nkernel_delta - trace_delta: objects that moved "
	      "through paths with no kmem event (kmem_cache_alloc_bulk,\nkmem_cache_free_bulk, "
	      "kfree_rcu batches, ...). A cache slabinfo lacks is counted in the one cache of\n"
	      "its object size (merged_into), if there is one.\n", out);
	for (i = 0; !err && i < n && (!limit || i < limit); i++)
		err = slab_cells(t, v[i], 1);
	free(v);
	if (kma_table_finish(out, t, KMA_FMT_TEXT, "counters", NULL, err))
		return -1;
	if (tot->unknown_frees)
		fprintf(out, "kfree of objects older than the trace (no cache named, in no row): "
			"%" PRIu64 "\n", tot->unknown_frees);
	return 0;
}

static int text_mem(FILE *out, const struct kma_counters *c, uint64_t limit)
{
	const struct kma_cnt_totals *tot = kma_counters_totals(c);
	const struct kma_cnt_mem *m;
	struct kma_table *t;
	size_t n, i;
	int err = 0;

	m = kma_counters_mem(c, &n);
	t = kma_table_new("start:n end:n kernel_delta:n trace_delta:n untraced:n field:s");
	fputs("\nMeminfo, in bytes; trace_delta: the slab bytes allocated - freed in the trace\n",
	      out);
	for (i = 0; t && !err && i < n && (!limit || i < limit); i++)
		err = mem_cells(t, &m[i], 1);
	if (kma_table_finish(out, t, KMA_FMT_TEXT, "counters", NULL, err))
		return -1;
	if (tot->mem_unknown_frees)
		fprintf(out, "Frees of objects older than the trace, whose bytes it cannot know: "
			"%" PRIu64 "\n", tot->mem_unknown_frees);
	return 0;
}

static int text_alloc(FILE *out, const struct kma_counters *c, uint64_t limit)
{
	const struct kma_cnt_alloc *a;
	struct kma_table *t;
	size_t n, i;
	int err = 0;

	a = kma_counters_alloc_rows(c, &n);
	t = kma_table_new("k_start:n k_end:n kernel_delta:n calls_delta:n allocs:n trace_net:n "
			  "untraced:n tags:n function:s");
	fputs("\nAllocinfo per function, in bytes (its tags summed) beside kma's net for the "
	      "call sites in it\n", out);
	for (i = 0; t && !err && i < n && (!limit || i < limit); i++)
		err = alloc_cells(t, &a[i], 1);
	return kma_table_finish(out, t, KMA_FMT_TEXT, "counters", NULL, err);
}

/* The snapshots, for JSON's head. */
static void json_head(char *buf, size_t len, const struct kma_counters *c)
{
	const struct kma_cnt_snap *s = kma_counters_snaps(c);
	const struct kma_cnt_totals *tot = kma_counters_totals(c);
	size_t o;
	int i, n = 0;

	o = snprintf(buf, len, "\"snapshots\": [");
	for (i = 0; i < KMA_CNT_KINDS * KMA_CNT_PHASES && o < len; i++) {
		if (!s[i].seen)
			continue;
		o += snprintf(buf + o, len - o, "%s{\"kind\": \"%s\", \"phase\": \"%s\", "
			      "\"ts_ns\": %" PRIu64 ", \"parts\": %u, \"parts_seen\": %u, "
			      "\"complete\": %s, \"used\": %s}", n++ ? ", " : "",
			      kma_cnt_kind_name(s[i].kind), kma_cnt_phase_name(s[i].phase),
			      s[i].ts, s[i].parts, s[i].got, s[i].complete ? "true" : "false",
			      kma_counters_usable(c, s[i].kind) ? "true" : "false");
	}
	if (o < len)
		snprintf(buf + o, len - o, "], \"unknown_frees\": %" PRIu64 ", "
			 "\"mem_unknown_frees\": %" PRIu64 ", \"bad_markers\": %" PRIu64,
			 tot->unknown_frees, tot->mem_unknown_frees, tot->bad_markers);
}

int kma_report_counters(FILE *out, const struct kma_counters *c, uint64_t first_ts,
			uint64_t limit, enum kma_fmt fmt)
{
	const struct kma_cnt_slab **v;
	const struct kma_cnt_mem *m;
	const struct kma_cnt_alloc *a;
	struct kma_table *t;
	char head[2048];
	size_t n, i;
	int err = 0;

	if (fmt == KMA_FMT_TEXT) {
		text_head(out, c, first_ts);
		if (kma_counters_usable(c, KMA_CNT_SLAB) && text_slab(out, c, limit))
			return -1;
		if (kma_counters_usable(c, KMA_CNT_MEM) && text_mem(out, c, limit))
			return -1;
		if (kma_counters_usable(c, KMA_CNT_ALLOC) && text_alloc(out, c, limit))
			return -1;
		return ferror(out) ? -1 : 0;
	}
	t = kma_table_new(COLS);
	v = kma_counters_slab_shown(c, &n);
	if (!t || !v) {
		kma_table_free(t);
		free(v);
		return -1;
	}
	for (i = 0; !err && i < n && (!limit || i < limit); i++)
		err = slab_cells(t, v[i], 0);
	free(v);
	m = kma_counters_mem(c, &n);
	for (i = 0; !err && i < n && (!limit || i < limit); i++)
		err = mem_cells(t, &m[i], 0);
	a = kma_counters_alloc_rows(c, &n);
	for (i = 0; !err && i < n && (!limit || i < limit); i++)
		err = alloc_cells(t, &a[i], 0);
	json_head(head, sizeof(head), c);
	return kma_table_finish(out, t, fmt, "counters", head, err);
}
