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

#include "kma-match.h"

#define MAX_ROWS 64

struct capture {
	struct kma_alloc_row	rows[MAX_ROWS];
	int			nr;
	struct kma_free_row	unknown[MAX_ROWS];
	int			nr_unknown;
};

static int cap_alloc(void *ctx, const struct kma_alloc_row *row)
{
	struct capture *c = ctx;

	assert_true(c->nr < MAX_ROWS);
	c->rows[c->nr++] = *row;
	return 0;
}

static int cap_unknown(void *ctx, const struct kma_free_row *row)
{
	struct capture *c = ctx;

	assert_true(c->nr_unknown < MAX_ROWS);
	c->unknown[c->nr_unknown++] = *row;
	return 0;
}

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
	};

	return cmocka_run_group_tests_name("match", tests, NULL, NULL);
}
