// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the matcher's accounting rules on hand-built event sequences.
 * Every expected number is worked out by hand in the comment next to it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "match/kma-match.h"
#include "match/kma-leak.h"

#include "test-capture.h"

static struct kma_match *new_matcher(struct capture *cap, int kmalloc_only)
{
	struct kma_match_opts o = {
		.kmalloc_only = kmalloc_only,
		.sink = { .ctx = cap, .alloc_done = cap_alloc, .unknown_free = cap_unknown },
	};
	struct kma_match *m;

	memset(cap, 0, sizeof(*cap));
	m = kma_match_alloc(&o);
	assert_non_null(m);
	return m;
}

static uint64_t now;

static void alloc(struct kma_match *m, int type, uint64_t site, uint64_t ptr, uint64_t req,
		  uint64_t got)
{
	struct kma_event ev = {
		.ts = ++now, .call_site = site, .ptr = ptr, .bytes_req = req, .bytes_alloc = got,
		.type = type, .cpu = 0, .pid = 1, .node = -1, .accounted = -1,
	};

	assert_int_equal(kma_match_event(m, &ev), 0);
}

static void release(struct kma_match *m, int type, uint64_t site, uint64_t ptr, int cpu)
{
	struct kma_event ev = {
		.ts = ++now, .call_site = site, .ptr = ptr, .type = type, .cpu = cpu, .pid = 2,
		.node = -1, .accounted = -1,
	};

	assert_int_equal(kma_match_event(m, &ev), 0);
}

static const struct kma_caller *caller(struct kma_match *m, uint64_t site)
{
	uint32_t nr, i;
	const struct kma_caller *c = kma_match_callers(m, &nr);

	for (i = 0; i < nr; i++)
		if (c[i].address == site)
			return &c[i];
	fail_msg("caller 0x%llx not found", (unsigned long long)site);
	return NULL;
}

#define A 0xffffffff81000100ULL		/* call sites */
#define B 0xffffffff81000200ULL
#define F 0xffffffff81000300ULL		/* a free call site */
#define P1 0xffff888100001000ULL	/* pointers */
#define P2 0xffff888100002000ULL
#define P3 0xffff888100003000ULL

/* total = sum bytes_alloc, slack = sum (bytes_alloc - bytes_req), per caller and overall */
static void test_total_slack(void **state)
{
	struct capture cap;
	struct kma_match *m = new_matcher(&cap, 0);
	const struct kma_totals *t;

	alloc(m, KMA_EV_KMALLOC, A, P1, 100, 128);		/* slack 28 */
	alloc(m, KMA_EV_KMALLOC_NODE, A, P2, 64, 64);		/* slack 0 */
	alloc(m, KMA_EV_CACHE_ALLOC, B, P3, 184, 192);		/* slack 8 */
	t = kma_match_totals(m);
	assert_int_equal(t->total, 128 + 64 + 192);
	assert_int_equal(t->slack, 28 + 0 + 8);
	assert_int_equal(t->allocs, 3);
	assert_int_equal(t->callers, 2);
	assert_int_equal(caller(m, A)->total, 192);
	assert_int_equal(caller(m, A)->slack, 28);
	assert_int_equal(caller(m, A)->allocs, 2);
	assert_int_equal(caller(m, B)->total, 192);
	assert_int_equal(caller(m, B)->slack, 8);
	kma_match_free(m);
}

/* a free matches the allocation of any kind and counts for the allocating caller */
static void test_free_counts_for_allocator(void **state)
{
	struct capture cap;
	struct kma_match *m = new_matcher(&cap, 0);
	const struct kma_totals *t;

	alloc(m, KMA_EV_CACHE_ALLOC, A, P1, 184, 192);
	release(m, KMA_EV_KFREE, F, P1, 1);		/* kfree of a cache object, other CPU */
	alloc(m, KMA_EV_KMALLOC, B, P2, 8, 8);
	release(m, KMA_EV_CACHE_FREE, F, P2, 0);
	t = kma_match_totals(m);
	assert_int_equal(t->frees, 2);
	assert_int_equal(t->matched_frees, 2);
	assert_int_equal(t->unknown_frees, 0);
	assert_int_equal(t->net, 0);
	assert_int_equal(caller(m, A)->frees, 1);
	assert_int_equal(caller(m, B)->frees, 1);
	/* the free call site is not an allocating caller */
	assert_int_equal(t->callers, 2);
	/* the sink saw the cache alloc closed by the kfree on CPU 1 */
	assert_int_equal(cap.nr, 2);
	assert_int_equal(cap.rows[0].ptr, P1);
	assert_int_equal(cap.rows[0].alloc_kind, KMA_EV_CACHE_ALLOC);
	assert_int_equal(cap.rows[0].free_kind, KMA_EV_KFREE);
	assert_int_equal(cap.rows[0].free_cpu, 1);
	assert_int_equal(cap.rows[0].free_call_site, F);
	assert_int_equal(cap.rows[0].free_ts, cap.rows[0].alloc_ts + 1);
	assert_string_equal(cap.rows[0].free_caller, "0xffffffff81000300");
	kma_match_free(m);
}

/* net = bytes_alloc of allocations live at the end; live ones reach the sink at finish */
static void test_net_and_finish(void **state)
{
	struct capture cap;
	struct kma_match *m = new_matcher(&cap, 0);

	alloc(m, KMA_EV_KMALLOC, A, P1, 10, 16);
	alloc(m, KMA_EV_KMALLOC, A, P2, 30, 32);
	alloc(m, KMA_EV_KMALLOC, B, P3, 500, 512);
	release(m, KMA_EV_KFREE, F, P2, 0);
	assert_int_equal(kma_match_totals(m)->net, 16 + 512);
	assert_int_equal(caller(m, A)->net, 16);
	assert_int_equal(caller(m, B)->net, 512);
	assert_int_equal(cap.nr, 1);
	assert_int_equal(kma_match_finish(m, now), 0);
	assert_int_equal(cap.nr, 3);		/* one row per allocation */
	assert_int_equal(cap.rows[1].free_kind, -1);
	assert_int_equal(cap.rows[2].free_kind, -1);
	kma_match_free(m);
}

/* frees of pointers <= 0x10 are null frees; 0x11 is not */
static void test_null_frees(void **state)
{
	struct capture cap;
	struct kma_match *m = new_matcher(&cap, 0);
	const struct kma_totals *t;

	release(m, KMA_EV_KFREE, F, 0, 0);		/* kfree(NULL) */
	release(m, KMA_EV_KFREE, F, 0x10, 0);		/* ZERO_SIZE_PTR */
	release(m, KMA_EV_KFREE, F, 0x11, 0);		/* unknown */
	t = kma_match_totals(m);
	assert_int_equal(t->null_frees, 2);
	assert_int_equal(t->unknown_frees, 1);
	assert_int_equal(t->frees, 3);
	assert_int_equal(cap.nr_unknown, 1);
	kma_match_free(m);
}

/* a free of a pointer that is not live is an unknown free, with a row */
static void test_unknown_free(void **state)
{
	struct capture cap;
	struct kma_match *m = new_matcher(&cap, 0);
	const struct kma_totals *t;

	release(m, KMA_EV_CACHE_FREE, F, P1, 1);	/* allocated before the trace */
	alloc(m, KMA_EV_KMALLOC, A, P2, 8, 8);
	release(m, KMA_EV_KFREE, F, P2, 0);
	release(m, KMA_EV_KFREE, F, P2, 0);		/* double free: second one unknown */
	t = kma_match_totals(m);
	assert_int_equal(t->unknown_frees, 2);
	assert_int_equal(t->matched_frees, 1);
	assert_int_equal(t->frees, 3);
	assert_int_equal(caller(m, A)->frees, 1);
	assert_int_equal(cap.nr_unknown, 2);
	assert_int_equal(cap.unknown[0].ptr, P1);
	assert_int_equal(cap.unknown[0].kind, KMA_EV_CACHE_FREE);
	assert_int_equal(cap.unknown[0].cpu, 1);
	assert_int_equal(cap.unknown[0].call_site, F);
	kma_match_free(m);
}

/* ptr 0 from an allocation is a failed allocation, in no total */
static void test_failed_alloc(void **state)
{
	struct capture cap;
	struct kma_match *m = new_matcher(&cap, 0);
	const struct kma_totals *t;

	alloc(m, KMA_EV_KMALLOC, A, 0, 4096, 0);
	alloc(m, KMA_EV_KMALLOC, B, P1, 8, 8);
	t = kma_match_totals(m);
	assert_int_equal(t->failed_allocs, 1);
	assert_int_equal(t->allocs, 1);
	assert_int_equal(t->total, 8);
	assert_int_equal(t->callers, 1);		/* A allocated nothing */
	assert_int_equal(caller(m, A)->failed_allocs, 1);
	assert_int_equal(caller(m, A)->allocs, 0);
	assert_int_equal(kma_match_finish(m, now), 0);
	assert_int_equal(cap.nr, 1);			/* no row for the failed one */
	kma_match_free(m);
}

/* an allocation at a live pointer closes the earlier one as an implicit free */
static void test_implicit_free(void **state)
{
	struct capture cap;
	struct kma_match *m = new_matcher(&cap, 0);
	const struct kma_totals *t;

	alloc(m, KMA_EV_CACHE_ALLOC, A, P1, 100, 128);	/* freed by an untraced bulk free */
	alloc(m, KMA_EV_KMALLOC, B, P1, 60, 64);	/* same ptr, still live */
	t = kma_match_totals(m);
	assert_int_equal(t->implicit_frees, 1);
	assert_int_equal(t->frees, 0);			/* not a free */
	assert_int_equal(t->net, 64);
	assert_int_equal(t->total, 192);
	assert_int_equal(caller(m, A)->implicit_frees, 1);
	assert_int_equal(caller(m, A)->frees, 0);
	assert_int_equal(caller(m, A)->net, 0);
	assert_int_equal(caller(m, B)->net, 64);
	assert_int_equal(caller(m, B)->implicit_frees, 0);
	assert_int_equal(cap.nr, 1);
	assert_int_equal(cap.rows[0].free_kind, KMA_FREE_IMPLICIT);
	assert_int_equal(cap.rows[0].caller_id, 0);
	assert_null(cap.rows[0].free_caller);
	assert_int_equal(cap.rows[0].free_ts, now);	/* the moment of the new alloc */
	/* the new allocation is live and matched by the next free */
	release(m, KMA_EV_KFREE, F, P1, 0);
	assert_int_equal(caller(m, B)->frees, 1);
	assert_int_equal(kma_match_totals(m)->net, 0);
	kma_match_free(m);
}

/* pointer reuse after a free is a new allocation, not an implicit free */
static void test_pointer_reuse(void **state)
{
	struct capture cap;
	struct kma_match *m = new_matcher(&cap, 0);
	const struct kma_totals *t;
	int i;

	for (i = 0; i < 5; i++) {
		alloc(m, KMA_EV_KMALLOC, A, P1, 30, 32);
		release(m, KMA_EV_KFREE, F, P1, i & 1);
	}
	t = kma_match_totals(m);
	assert_int_equal(t->allocs, 5);
	assert_int_equal(t->matched_frees, 5);
	assert_int_equal(t->implicit_frees, 0);
	assert_int_equal(t->net, 0);
	assert_int_equal(caller(m, A)->frees, 5);
	kma_match_free(m);
}

/* --kmalloc-only: kmem_cache events are left out entirely */
static void test_kmalloc_only(void **state)
{
	struct capture cap;
	struct kma_match *m = new_matcher(&cap, 1);
	const struct kma_totals *t;

	alloc(m, KMA_EV_CACHE_ALLOC, A, P1, 100, 128);		/* ignored */
	alloc(m, KMA_EV_KMALLOC, B, P2, 100, 128);
	alloc(m, KMA_EV_KMALLOC_NODE, B, P3, 10, 16);
	release(m, KMA_EV_KFREE, F, P1, 0);			/* its alloc was ignored */
	release(m, KMA_EV_CACHE_FREE, F, P2, 0);		/* ignored: P2 stays live */
	t = kma_match_totals(m);
	assert_int_equal(t->allocs, 2);
	assert_int_equal(t->total, 144);
	assert_int_equal(t->net, 144);
	assert_int_equal(t->unknown_frees, 1);
	assert_int_equal(t->frees, 1);
	assert_int_equal(t->ignored, 2);
	assert_int_equal(t->callers, 1);
	kma_match_free(m);
}

/* many interleaved allocations: totals stay consistent, rows == allocs */
static void test_many(void **state)
{
	struct kma_match_opts o = { 0 };
	struct kma_match *m = kma_match_alloc(&o);
	uint64_t i, live = 0;

	for (i = 0; i < 200000; i++) {
		alloc(m, KMA_EV_KMALLOC, A + (i % 7), 0xffff888000000000ULL + i * 64, 40, 64);
		if (i % 3 == 0)
			release(m, KMA_EV_KFREE, F, 0xffff888000000000ULL + (i / 2) * 64, 0);
	}
	/*
	 * i = 0, 3, 6, ... frees ptr i/2: already allocated (i/2 <= i), and
	 * distinct for each such i, so 66667 frees all match.
	 */
	live = 200000 - 66667;
	assert_int_equal(kma_match_totals(m)->live, live);
	assert_int_equal(kma_match_totals(m)->net, live * 64);
	assert_int_equal(kma_match_totals(m)->slack, 200000 * 24);
	kma_match_free(m);
}

/* default names are 0x<hex> like trace-cmd prints an unresolved %pS */
static void test_default_names(void **state)
{
	struct capture cap;
	struct kma_match *m = new_matcher(&cap, 0);

	alloc(m, KMA_EV_KMALLOC, 0xffffffffc0123456ULL, P1, 1, 8);
	assert_string_equal(caller(m, 0xffffffffc0123456ULL)->name, "0xffffffffc0123456");
	kma_match_free(m);
}


static void marker(struct kma_match *m, const char *label)
{
	struct kma_event ev = { .ts = ++now, .type = KMA_EV_MARKER, .label = label, .node = -1 };

	assert_int_equal(kma_match_event(m, &ev), 0);
}

static void module_ev(struct kma_match *m, int type, const char *name)
{
	struct kma_event ev = { .ts = ++now, .type = type, .label = name, .node = -1 };

	assert_int_equal(kma_match_event(m, &ev), 0);
}

/* generations: per-generation allocs, bytes, live and frees */
static void test_generations(void **state)
{
	struct capture cap;
	struct kma_match *m = new_matcher(&cap, 0);
	const struct kma_generation *g;
	uint32_t nr;

	alloc(m, KMA_EV_KMALLOC, A, P1, 10, 16);	/* gen 0 */
	marker(m, "one");
	alloc(m, KMA_EV_KMALLOC, A, P2, 10, 32);	/* gen 1, stays live */
	alloc(m, KMA_EV_KMALLOC, A, P3, 10, 64);	/* gen 1, freed in gen 2 */
	release(m, KMA_EV_KFREE, F, P1, 0);		/* gen 0's alloc freed in gen 1 */
	marker(m, "two");
	release(m, KMA_EV_KFREE, F, P3, 0);
	release(m, KMA_EV_KFREE, F, 0, 0);		/* null free, counted in gen 2 */
	assert_int_equal(kma_match_finish(m, now), 0);
	g = kma_match_generations(m, &nr);
	assert_int_equal(nr, 3);
	assert_string_equal(g[0].label, "start");
	assert_string_equal(g[1].label, "one");
	assert_int_equal(g[0].allocs, 1);
	assert_int_equal(g[0].live, 0);
	assert_int_equal(g[1].allocs, 2);
	assert_int_equal(g[1].bytes, 96);
	assert_int_equal(g[1].live, 1);
	assert_int_equal(g[1].live_bytes, 32);
	assert_int_equal(g[1].frees, 1);
	assert_int_equal(g[2].frees, 2);
	assert_int_equal(cap.rows[0].generation, 0);
	kma_match_free(m);
}

/* growth over >= 3 consecutive generations makes a suspect */
static void test_growth(void **state)
{
	struct capture cap;
	struct kma_match *m = new_matcher(&cap, 0);
	const struct kma_caller *a, *b;
	int i;

	/* A grows in gens 0, 1, 2, 3; B grows in 0, shrinks in 1, grows in 2, 3 */
	for (i = 0; i < 4; i++) {
		if (i)
			marker(m, "g");
		alloc(m, KMA_EV_KMALLOC, A, P1 + i * 0x100, 8, 8);
		if (i == 1)
			release(m, KMA_EV_KFREE, F, P2, 0);
		else
			alloc(m, KMA_EV_KMALLOC, B, i ? P3 + i * 0x100 : P2, 8, 8);
	}
	assert_int_equal(kma_match_finish(m, now), 0);
	a = caller(m, A);
	b = caller(m, B);
	assert_int_equal(a->grew_gens, 4);
	assert_int_equal(a->max_grow_run, 4);
	assert_int_equal(b->grew_gens, 3);
	assert_int_equal(b->max_grow_run, 2);
	kma_match_free(m);
}

/* the peak: highest net, when, and who held what then */
static void test_peak(void **state)
{
	struct capture cap;
	struct kma_match *m = new_matcher(&cap, 0);
	uint64_t peak_ts;

	alloc(m, KMA_EV_KMALLOC, A, P1, 100, 100);
	alloc(m, KMA_EV_KMALLOC, B, P2, 50, 50);	/* net 150: peak */
	peak_ts = now;
	release(m, KMA_EV_KFREE, F, P1, 0);		/* net 50 */
	alloc(m, KMA_EV_KMALLOC, B, P3, 60, 60);	/* net 110 < 150 */
	assert_int_equal(kma_match_finish(m, now), 0);
	assert_int_equal(kma_match_totals(m)->peak_net, 150);
	assert_int_equal(kma_match_totals(m)->peak_ts, peak_ts);
	assert_int_equal(caller(m, A)->net_at_peak, 100);
	assert_int_equal(caller(m, B)->net_at_peak, 50);
	kma_match_free(m);
}

/* filter by generation label: only its allocations are counted, all are matched */
static void test_filter_generation(void **state)
{
	struct kma_match_opts o = { .filtered = 1,
				    .filter = { .generation = -1, .gen_label = "keep" } };
	struct kma_match *m = kma_match_alloc(&o);
	const struct kma_totals *t;

	alloc(m, KMA_EV_KMALLOC, A, P1, 10, 16);	/* gen 0: not selected */
	marker(m, "keep");
	alloc(m, KMA_EV_KMALLOC, B, P2, 10, 32);	/* selected, live */
	alloc(m, KMA_EV_KMALLOC, B, P3, 30, 32);	/* selected, freed */
	release(m, KMA_EV_KFREE, F, P3, 0);
	marker(m, "other");
	release(m, KMA_EV_KFREE, F, P1, 0);		/* unselected alloc: matched, uncounted */
	alloc(m, KMA_EV_KMALLOC, A, P1, 10, 16);	/* gen 2: not selected */
	assert_int_equal(kma_match_finish(m, now), 0);
	t = kma_match_totals(m);
	assert_int_equal(kma_match_selected_generation(m), 1);
	assert_int_equal(t->allocs, 2);
	assert_int_equal(t->total, 64);
	assert_int_equal(t->net, 32);
	assert_int_equal(t->slack, 22 + 2);
	assert_int_equal(t->frees, 1);
	assert_int_equal(t->unknown_frees, 0);
	assert_int_equal(t->unselected, 2);
	assert_int_equal(caller(m, B)->live_slack, 22);
	assert_int_equal(caller(m, A)->allocs, 0);
	kma_match_free(m);
}

/* filter by time window [since, until) */
static void test_filter_window(void **state)
{
	struct kma_match_opts o = { .filtered = 1, .filter = { .generation = -1 } };
	struct kma_match *m = kma_match_alloc(&o);

	now = 100;
	kma_match_set_window(m, 102, 104);
	alloc(m, KMA_EV_KMALLOC, A, P1, 1, 8);		/* ts 101: before */
	alloc(m, KMA_EV_KMALLOC, A, P2, 1, 16);		/* ts 102: in */
	alloc(m, KMA_EV_KMALLOC, A, P3, 1, 32);		/* ts 103: in */
	alloc(m, KMA_EV_KMALLOC, A, P3 + 0x100, 1, 64);	/* ts 104: after */
	release(m, KMA_EV_KFREE, F, P2, 0);		/* ts 105: followed after the window */
	assert_int_equal(kma_match_totals(m)->allocs, 2);
	assert_int_equal(kma_match_totals(m)->total, 48);
	assert_int_equal(kma_match_totals(m)->net, 32);
	assert_int_equal(caller(m, A)->frees, 1);
	kma_match_free(m);
}

/* lifetimes, temporary allocations, exact percentiles */
static void test_lifetimes(void **state)
{
	struct kma_match_opts o = { .keep_lifetimes = 1, .temp_ns = 5 };
	struct kma_match *m = kma_match_alloc(&o);
	struct kma_quant *q;
	int i;

	/* lifetimes 1, 2, ..., 10 ns: alloc at now, free after i - 1 other events */
	for (i = 1; i <= 10; i++) {
		struct kma_event a = { .ts = 1000 * i, .call_site = A, .ptr = P1 + i * 64,
				       .bytes_req = 8, .bytes_alloc = 8, .type = KMA_EV_KMALLOC,
				       .node = -1, .accounted = -1 };
		struct kma_event f = { .ts = 1000 * i + i, .call_site = F, .ptr = P1 + i * 64,
				       .type = KMA_EV_KFREE, .node = -1, .accounted = -1 };

		assert_int_equal(kma_match_event(m, &a), 0);
		assert_int_equal(kma_match_event(m, &f), 0);
	}
	assert_int_equal(caller(m, A)->life_min, 1);
	assert_int_equal(caller(m, A)->life_max, 10);
	assert_int_equal(caller(m, A)->life_sum, 55);
	assert_int_equal(caller(m, A)->temporary, 4);	/* 1, 2, 3, 4 < 5 */
	q = kma_match_lifetimes(m, 0);
	assert_non_null(q);
	assert_int_equal(q->n, 10);
	assert_true(kma_quant_exact(q));
	assert_int_equal(kma_quant_pct(q, 1), 1);
	assert_int_equal(kma_quant_pct(q, 50), 5);	/* the 5th of 10 */
	assert_int_equal(kma_quant_pct(q, 100), 10);
	assert_false(kma_match_lifetimes_bucketed(m));
	/* all ten under 1 us: the first decade of the --html chart */
	assert_int_equal(kma_match_totals(m)->life_decades[0], 10);
	assert_null(kma_match_lifetimes(m, 1));
	kma_match_free(m);
}

static const char *module_of(void *ctx, uint64_t addr)
{
	return addr == B ? "mymod" : NULL;
}

/* module unload: what its call sites still hold is left behind */
static void test_module_leftovers(void **state)
{
	struct capture cap;
	struct kma_match_opts o = {
		.module_of = module_of,
		.sink = { .ctx = &cap, .alloc_done = cap_alloc },
	};
	struct kma_match *m;
	const struct kma_module *mod;
	uint32_t nr;

	memset(&cap, 0, sizeof(cap));
	m = kma_match_alloc(&o);
	module_ev(m, KMA_EV_MODULE_LOAD, "mymod");
	alloc(m, KMA_EV_KMALLOC, B, P1, 100, 128);	/* module alloc, freed after unload */
	alloc(m, KMA_EV_KMALLOC, B, P2, 60, 64);	/* module alloc, never freed */
	alloc(m, KMA_EV_KMALLOC, B, P3, 60, 64);	/* module alloc, freed before unload */
	alloc(m, KMA_EV_KMALLOC, A, P3 + 0x100, 8, 8);	/* vmlinux alloc */
	release(m, KMA_EV_KFREE, F, P3, 0);
	module_ev(m, KMA_EV_MODULE_FREE, "mymod");
	release(m, KMA_EV_KFREE, F, P1, 0);
	assert_int_equal(kma_match_finish(m, now), 0);
	mod = kma_match_modules(m, &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(mod[0].name, "mymod");
	assert_int_equal(mod[0].left, 2);
	assert_int_equal(mod[0].left_bytes, 192);
	assert_int_equal(mod[0].left_live, 1);
	assert_int_equal(mod[0].left_live_bytes, 64);
	assert_int_equal(caller(m, B)->orphans, 2);
	assert_int_equal(caller(m, B)->orphans_live, 1);
	assert_int_equal(caller(m, A)->orphans, 0);
	kma_match_free(m);
}

/* the median age of each caller's live allocations at the end */
static void test_age_median(void **state)
{
	struct capture cap;
	struct kma_match *m = new_matcher(&cap, 0);

	now = 0;
	alloc(m, KMA_EV_KMALLOC, A, P1, 8, 8);		/* ts 1 */
	alloc(m, KMA_EV_KMALLOC, A, P2, 8, 8);		/* ts 2, freed at ts 4 */
	alloc(m, KMA_EV_KMALLOC, A, P3, 8, 8);		/* ts 3 */
	release(m, KMA_EV_KFREE, F, P2, 0);		/* ts 4 */
	now = 60;
	alloc(m, KMA_EV_KMALLOC, A, P3 + 0x100, 8, 8);	/* ts 61 */
	alloc(m, KMA_EV_KMALLOC, B, P3 + 0x200, 8, 8);	/* ts 62 */
	alloc(m, KMA_EV_KMALLOC, B, P3 + 0x300, 8, 8);	/* ts 63 */
	assert_int_equal(kma_match_finish(m, 100), 0);
	/* A: live from ts 1, 3, 61 -> ages 99, 97, 39 at 100: the middle one, 97 */
	assert_int_equal(caller(m, A)->live, 3);
	assert_int_equal(caller(m, A)->age_median, 97);
	/* (not the mean: (99 + 97 + 39) / 3 = 78) */
	assert_int_equal(caller(m, A)->age_sum, 235);
	/* B: ages 38 and 37, an even count: 37 + (38 - 37) / 2 = 37 (integer) */
	assert_int_equal(caller(m, B)->age_median, 37);
	kma_match_free(m);
}

/* leak confidence: each doubt lowers it one step, and says why */
static void test_leak_confidence(void **state)
{
	struct kma_caller c = { .name = "f+0x1", .net = 100, .live = 2, .allocs = 2,
				.age_median = 4000000000ULL, .max_grow_run = 3 };
	struct kma_leak_rules r = { .young_ns = KMA_LEAK_YOUNG_NS, .gens = 4 };
	struct kma_leak l;

	kma_leak_assess(&c, &r, &l);
	assert_true(l.suspect);
	assert_string_equal(l.confidence, "high");
	assert_non_null(strstr(l.why, "grew in 0 of 4 generations"));
	r.lost = 7;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.confidence, "medium");
	assert_non_null(strstr(l.why, "lost 7 events"));
	c.implicit_frees = 2;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.confidence, "low");
	c.age_median = 1000;		/* 1 us, under the 1 s threshold */
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.confidence, "low");
	assert_non_null(strstr(l.why, "young"));
	c.max_grow_run = 2;		/* not a suspect */
	r.lost = 0;
	kma_leak_assess(&c, &r, &l);
	assert_false(l.suspect);
	assert_string_equal(l.confidence, "none");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_total_slack),
		cmocka_unit_test(test_free_counts_for_allocator),
		cmocka_unit_test(test_net_and_finish),
		cmocka_unit_test(test_null_frees),
		cmocka_unit_test(test_unknown_free),
		cmocka_unit_test(test_failed_alloc),
		cmocka_unit_test(test_implicit_free),
		cmocka_unit_test(test_pointer_reuse),
		cmocka_unit_test(test_kmalloc_only),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_default_names),
		cmocka_unit_test(test_generations),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_peak),
		cmocka_unit_test(test_filter_generation),
		cmocka_unit_test(test_filter_window),
		cmocka_unit_test(test_lifetimes),
		cmocka_unit_test(test_module_leftovers),
		cmocka_unit_test(test_leak_confidence),
		cmocka_unit_test(test_age_median),
	};

	return cmocka_run_group_tests_name("match", tests, NULL, NULL);
}
