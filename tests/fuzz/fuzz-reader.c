// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-reader.c - libFuzzer target over the reader and the matcher.
 *
 * Each input is written to a memfd and opened through /proc/self/fd/N, then
 * run as kma-analyze does with --generation 1 --lifetimes --no-db: the
 * reader feeds an unfiltered matcher (whose sink drops the rows, standing in
 * for the store) and a filtered one keeping lifetimes; with --pages too: the
 * page matcher with its stacks, timeline, lifetimes and generations, as
 * kma-pagepipe.c sets it up. Only the store and the printing are left out.
 * Built and run by tests/fuzz/Makefile.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "match/kma-leak.h"
#include "match/kma-match.h"
#include "match/kma-pagealloc.h"
#include "match/kma-timeline.h"
#include "reader/kma-reader.h"
#include "sites/kma-sites.h"
#include "sites/kma-stacks.h"

struct pipeline {
	struct kma_reader	*reader;
	struct kma_match	*match;
	struct kma_match	*view;
	struct kma_stacks	*stacks;	/* the page matcher's */
	struct kma_timeline	*tl, *fn_tl;	/* by task, by function */
	struct kma_pagealloc	*pages;
	int			window_set;
};

/* The sinks touch the strings the store would copy. */
static volatile size_t touched;

static int drop_alloc(void *ctx, const struct kma_alloc_row *row)
{
	size_t n = 0;

	if (row->caller)
		n += row->caller[0];
	if (row->free_caller)
		n += row->free_caller[0];
	if (row->cache)
		n += row->cache[0];
	if (row->comm)
		n += row->comm[0];
	touched += n;
	(void)ctx;
	return 0;
}

static int drop_free(void *ctx, const struct kma_free_row *row)
{
	size_t n = 0;

	if (row->caller)
		n += row->caller[0];
	if (row->comm)
		n += row->comm[0];
	touched += n;
	(void)ctx;
	return 0;
}

/* the reader's hints, as kma-analyze takes them: prefetches into the matchers' pointer indexes */
static void hint(void *ctx, const struct kma_event *sketch)
{
	struct pipeline *r = ctx;

	if (kma_ev_is_page(sketch->type)) {
		kma_pagealloc_prefetch(r->pages, sketch);
		return;
	}
	kma_match_prefetch(r->match, sketch);
	kma_match_prefetch(r->view, sketch);
}

static int feed(void *ctx, const struct kma_event *ev)
{
	struct pipeline *r = ctx;

	if (!r->window_set) {
		r->window_set = 1;
		kma_match_set_window(r->view, kma_reader_info(r->reader)->first_ts, 0);
	}
	if (ev->type == KMA_EV_MARKER || kma_ev_is_page(ev->type)) {
		struct kma_event e = *ev;

		if (ev->stack_depth &&
		    kma_stacks_intern(r->stacks, ev->stack, ev->stack_depth, &e.stack_id))
			return -1;
		if (kma_pagealloc_event(r->pages, &e))
			return -1;
		if (ev->type != KMA_EV_MARKER)
			return 0;
	}
	if (kma_match_event(r->match, ev) || kma_match_event(r->view, ev))
		return -1;
	return 0;
}

static int drop_page(void *ctx, const struct kma_page_alloc *a)
{
	touched += (a->comm ? a->comm[0] : 0) + (a->gfp_text ? a->gfp_text[0] : 0);
	return 0;
}

/* What --pages --generations/--leaks/--lifetimes and --html read after the run. */
static int inspect_pages(struct pipeline *r, uint64_t end_ts)
{
	struct kma_page_age *ages;
	const struct kma_caller *rows;
	const uint32_t *top;
	uint64_t start, width, n;
	const struct kma_tl_bin *b;
	uint32_t i, nr, nb, k;
	int g;

	if (kma_pagealloc_finish(r->pages))
		return -1;
	kma_pagealloc_totals(r->pages);
	kma_pagealloc_gens(r->pages, &nr);
	for (g = 0; g < KMA_PG_NR; g++) {
		rows = kma_pagealloc_rows(r->pages, g, &nr);
		ages = nr ? calloc(nr, sizeof(*ages)) : NULL;
		if (nr && (!ages || kma_pagealloc_ages(r->pages, g, end_ts, ages))) {
			free(ages);
			return -1;
		}
		for (i = 0; i < nr; i++)
			touched += rows[i].net + !!kma_pagealloc_lifetimes(r->pages, g, i);
		free(ages);
	}
	if (kma_pagealloc_finish_timeline(r->pages, r->tl, KMA_PG_COMM, end_ts) ||
	    kma_pagealloc_finish_timeline(r->pages, r->fn_tl, KMA_PG_FUNCTION, end_ts))
		return -1;
	nb = kma_timeline_bins(r->tl, &start, &width, &b);
	nr = kma_timeline_top(r->tl, &top);
	for (k = 0; k <= nr; k++)
		for (i = 0; i < nb; i++)
			touched += kma_timeline_live(r->tl, k, i);
	nr = kma_timeline_top(r->fn_tl, &top);
	for (k = 0; k <= nr; k++)
		for (i = 0; i < nb; i++)
			touched += kma_timeline_live(r->fn_tl, k, i);
	return 0;
}

static void inspect(struct kma_match *m, uint64_t lost)
{
	const struct kma_caller *c;
	struct kma_leak_rules r = { .lost = lost, .young_ns = KMA_LEAK_YOUNG_NS, .gens = 4,
				    .growth = kma_leak_growth_default };
	struct kma_leak leak;
	struct kma_quant *q;
	uint32_t i, nr;

	c = kma_match_callers(m, &nr);
	for (i = 0; i < nr; i++) {
		kma_leak_assess(&c[i], &r, &leak);
		q = kma_match_lifetimes(m, i);
		if (q)
			touched += kma_quant_pct(q, 50);
	}
	kma_match_generations(m, &nr);
	kma_match_modules(m, &nr);
	kma_match_totals(m);
}

static int fd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fd = memfd_create("kma-fuzz", 0);
	if (fd < 0) {
		perror("memfd_create");
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kma_match_opts mo = { 0 }, vo;
	struct kma_page_opts po = { 0 };
	struct pipeline r = { 0 };
	const struct kma_trace_info *info;
	const char *why = NULL;
	struct kma_err err;
	struct kma_sites *sites = NULL;
	const char *ksyms;
	size_t len;
	uint64_t lost = 0;
	int cpu;

	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();

	r.reader = kma_reader_open(path, &err);
	if (!r.reader)
		return 0;
	if (kma_reader_set_marker_prefix(r.reader, "kma:"))
		goto out;
	/* call sites as kma-analyze names them: the trace's kallsyms, owned here */
	ksyms = kma_reader_kallsyms(r.reader, &len, &why);
	sites = kma_sites_alloc(ksyms, len, why, kma_reader_tep(r.reader));
	if (!sites)
		goto out;
	mo.resolve = kma_sites_symbol;
	mo.resolve_ctx = sites;
	mo.module_of = kma_sites_module;
	mo.sink.alloc_done = drop_alloc;
	mo.sink.unknown_free = drop_free;
	r.match = kma_match_alloc(&mo);
	vo = mo;
	vo.sink.alloc_done = NULL;
	vo.sink.unknown_free = NULL;
	vo.keep_lifetimes = 1;
	vo.exact_lifetimes = 64;	/* the buckets too */
	vo.filtered = 1;
	vo.filter.generation = 1;
	r.view = kma_match_alloc(&vo);
	r.stacks = kma_stacks_alloc(sites);
	r.tl = kma_timeline_alloc();
	r.fn_tl = kma_timeline_alloc();
	if (!r.match || !r.view || !r.stacks || !r.tl || !r.fn_tl)
		goto out;
	po.caller_of = kma_stacks_page_caller;
	po.stack_name = kma_stacks_folded;
	po.ctx = r.stacks;
	po.done = drop_page;
	po.timeline = r.tl;
	po.fn_timeline = r.fn_tl;
	r.pages = kma_pagealloc_new(&po);
	if (!r.pages)
		goto out;
	kma_pagealloc_keep_lifetimes(r.pages, KMA_PG_FUNCTION, 64);
	kma_pagealloc_keep_lifetimes(r.pages, KMA_PG_COMM, 64);
	kma_reader_want_pages(r.reader, 1);
	kma_reader_set_hint(r.reader, hint, &r);
	if (kma_reader_run(r.reader, feed, &r, NULL, NULL, NULL))
		goto out;
	info = kma_reader_info(r.reader);
	for (cpu = 0; cpu < info->cpus; cpu++)
		lost += kma_lost_total(&info->lost[cpu]);
	if (kma_match_finish(r.match, info->last_ts) || kma_match_finish(r.view, info->last_ts))
		goto out;
	inspect(r.match, lost);
	inspect(r.view, lost);
	inspect_pages(&r, info->last_ts);
out:
	kma_pagealloc_free(r.pages);
	kma_timeline_free(r.tl);
	kma_timeline_free(r.fn_tl);
	kma_stacks_free(r.stacks);
	kma_match_free(r.view);
	kma_match_free(r.match);
	kma_sites_free(sites);
	kma_reader_close(r.reader);
	return 0;
}
