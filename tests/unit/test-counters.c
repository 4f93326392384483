// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the kernel counters tracker (match/kma-counters.c) and of
 * kma_counters_cache_delta(), the call a leak verdict makes, on hand-built
 * events and counter parts. Every expected number is worked out by hand in
 * the comment next to it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "match/kma-counters.h"
#include "match/kma-match.h"

static void part(struct kma_counters *c, uint64_t ts, int kind, int phase, uint32_t p,
		 uint32_t parts, const struct kma_cnt_entry *e, size_t n)
{
	struct kma_cnt_part cp = { .kind = kind, .phase = phase, .part = p, .parts = parts,
				   .e = e, .n = n };
	struct kma_event ev = { .type = KMA_EV_COUNTER, .ts = ts, .counter = &cp };

	assert_int_equal(kma_counters_event(c, &ev), 0);
}

static void ev(struct kma_counters *c, uint64_t ts, int type, uint64_t ptr, const char *cache,
	       uint64_t bytes, int kmalloc_type)
{
	struct kma_event e = { .type = type, .ts = ts, .ptr = ptr, .cache = cache,
			       .bytes_alloc = bytes, .bytes_req = bytes, .call_site = 0x1000,
			       .kmalloc_type = kmalloc_type };

	assert_int_equal(kma_counters_event(c, &e), 0);
}

static const struct kma_cnt_entry start1[] = {
	{ .name = "maple_node", .a = 702, .b = 256 },
	{ .name = "kmalloc-cg-64", .a = 10, .b = 64 },
};
static const struct kma_cnt_entry start2[] = {
	{ .name = "foo_cache", .a = 5, .b = 200 },
};
static const struct kma_cnt_entry end1[] = {
	{ .name = "maple_node", .a = 628, .b = 256 },
	{ .name = "kmalloc-cg-64", .a = 13, .b = 64 },
};
static const struct kma_cnt_entry end2[] = {
	{ .name = "foo_cache", .a = 9, .b = 200 },
};

/*
 * Before the start: maple_node at A (live). Between: maple_node at B and at A again
 * (implicit free of A), kmem_cache_free of B, kmem_cache_free of an older C (named):
 * maple_node allocs 2, frees 2, implicit 1: trace -1; kernel 628 - 702 = -74.
 * kmalloc-cg-64: two kmallocs (cgroup family, 64 bytes): trace 2; kernel 3.
 * bar_cache (200 bytes) is not in slabinfo: merged into foo_cache (the one 200-byte
 * cache): foo_cache's trace 1 (bar's), kernel 4; asking for bar_cache gives foo's.
 * After the end: a maple_node allocation counts nowhere.
 */
static struct kma_counters *run(int drop_part)
{
	struct kma_counters *c = kma_counters_alloc(NULL);

	assert_non_null(c);
	ev(c, 1, KMA_EV_CACHE_ALLOC, 0xa000, "maple_node", 256, 0);
	part(c, 10, KMA_CNT_SLAB, KMA_CNT_START, 1, 2, start1, 2);
	part(c, 11, KMA_CNT_SLAB, KMA_CNT_START, 2, 2, start2, 1);
	ev(c, 20, KMA_EV_CACHE_ALLOC, 0xb000, "maple_node", 256, 0);
	ev(c, 21, KMA_EV_CACHE_ALLOC, 0xa000, "maple_node", 256, 0);
	ev(c, 22, KMA_EV_CACHE_FREE, 0xb000, "maple_node", 0, 0);
	ev(c, 23, KMA_EV_CACHE_FREE, 0xc000, "maple_node", 0, 0);
	ev(c, 24, KMA_EV_KMALLOC, 0xd000, NULL, 64, KMA_KMALLOC_CGROUP);
	ev(c, 25, KMA_EV_KMALLOC, 0xd100, NULL, 64, KMA_KMALLOC_CGROUP);
	ev(c, 26, KMA_EV_CACHE_ALLOC, 0xe000, "bar_cache", 200, 0);
	part(c, 30, KMA_CNT_SLAB, KMA_CNT_END, 1, 2, end1, 2);
	if (!drop_part)
		part(c, 31, KMA_CNT_SLAB, KMA_CNT_END, 2, 2, end2, 1);
	ev(c, 40, KMA_EV_CACHE_ALLOC, 0xf000, "maple_node", 256, 0);
	assert_int_equal(kma_counters_finish(c, NULL, NULL), 0);
	return c;
}

static void test_cache_delta(void **state)
{
	struct kma_counters *c = run(0);
	int64_t k = 0, t = 0;

	(void)state;
	assert_int_equal(kma_counters_usable(c, KMA_CNT_SLAB), 1);
	assert_int_equal(kma_counters_cache_delta(c, "maple_node", &k, &t), 0);
	assert_int_equal(k, -74);
	assert_int_equal(t, -1);
	assert_int_equal(kma_counters_cache_delta(c, "kmalloc-cg-64", &k, &t), 0);
	assert_int_equal(k, 3);
	assert_int_equal(t, 2);
	assert_int_equal(kma_counters_cache_delta(c, "foo_cache", &k, &t), 0);
	assert_int_equal(k, 4);
	assert_int_equal(t, 1);
	k = t = 99;
	assert_int_equal(kma_counters_cache_delta(c, "bar_cache", &k, &t), 0);
	assert_int_equal(k, 4);
	assert_int_equal(t, 1);
	/* neither in slabinfo nor in the trace */
	assert_int_equal(kma_counters_cache_delta(c, "kmalloc-64", &k, &t), -1);
	assert_int_equal(kma_counters_cache_delta(c, NULL, &k, &t), -1);
	kma_counters_free(c);
}

/* The end snapshot without its part 2: nothing is used, every cache gives -1. */
static void test_incomplete(void **state)
{
	struct kma_counters *c = run(1);
	const struct kma_cnt_snap *s = kma_counters_snaps(c);
	int64_t k, t;
	size_t n;

	(void)state;
	assert_int_equal(kma_counters_usable(c, KMA_CNT_SLAB), 0);
	assert_int_equal(s[KMA_CNT_SLAB * KMA_CNT_PHASES + KMA_CNT_START].complete, 1);
	assert_int_equal(s[KMA_CNT_SLAB * KMA_CNT_PHASES + KMA_CNT_END].complete, 0);
	assert_string_equal(s[KMA_CNT_SLAB * KMA_CNT_PHASES + KMA_CNT_END].why,
			    "part 2/2 missing");
	assert_int_equal(kma_counters_cache_delta(c, "maple_node", &k, &t), -1);
	kma_counters_slab(c, &n);
	assert_int_equal(n, 0);
	kma_counters_free(c);
}

/* No snapshot at all: -1 before and after finish. */
static void test_none(void **state)
{
	struct kma_counters *c = kma_counters_alloc(NULL);
	int64_t k, t;

	(void)state;
	ev(c, 1, KMA_EV_CACHE_ALLOC, 0xa000, "maple_node", 256, 0);
	assert_int_equal(kma_counters_cache_delta(c, "maple_node", &k, &t), -1);
	assert_int_equal(kma_counters_finish(c, NULL, NULL), 0);
	assert_int_equal(kma_counters_cache_delta(c, "maple_node", &k, &t), -1);
	kma_counters_free(c);
}

/*
 * The tracker that follows a matcher's live set until the first marker must
 * count what one pairing on its own counts. The events go to the tracker,
 * then to the matcher, as kma-analyze feeds them.
 */
static struct kma_match *followed;

static void fev(struct kma_counters *c, uint64_t ts, int type, uint64_t ptr, const char *cache,
		uint64_t bytes, int kmalloc_type)
{
	struct kma_event e = { .type = type, .ts = ts, .ptr = ptr, .cache = cache,
			       .bytes_alloc = bytes, .bytes_req = bytes, .call_site = 0x1000,
			       .kmalloc_type = kmalloc_type, .cpu = 0, .pid = 1 };

	ev(c, ts, type, ptr, cache, bytes, kmalloc_type);
	if (followed)
		assert_int_equal(kma_match_event(followed, &e), 0);
}

static const struct kma_cnt_entry fstart[] = {
	{ .name = "maple_node", .a = 702, .b = 256 },
	{ .name = "kmalloc-cg-64", .a = 10, .b = 64 },
	{ .name = "foo_cache", .a = 5, .b = 200 },
};
static const struct kma_cnt_entry fend[] = {
	{ .name = "maple_node", .a = 628, .b = 256 },
	{ .name = "kmalloc-cg-64", .a = 13, .b = 64 },
	{ .name = "foo_cache", .a = 9, .b = 200 },
};

/*
 * Before the first marker: maple_node at A and A1, a cgroup kmalloc-64 at D
 * (all live at the start), baz_cache (200 bytes) at E allocated and freed.
 * Between the snapshots: kfree of D (known: kmalloc-cg-64 frees 1), maple_node
 * at A again (implicit free of A: allocs 1, implicit 1), kfree of A1 (known:
 * maple_node frees 1), kmem_cache_free of an older baz_cache object (frees 1;
 * baz_cache is not in slabinfo, its object size, 200, seen only before the
 * marker, places it in foo_cache), kfree of an unknown pointer (unknown 1).
 * maple_node: trace 1 - 1 - 1 = -1, kernel 628 - 702 = -74; kmalloc-cg-64:
 * trace -1, kernel 3; foo_cache (and baz_cache): trace -1, kernel 4.
 */
static void follow_run(int how)
{
	struct kma_match_opts o = { .kmalloc_only = how == 2 };
	struct kma_counters *c;
	int64_t k = 0, t = 0;

	followed = how ? kma_match_alloc(&o) : NULL;
	assert_true(!how || followed);
	c = kma_counters_alloc(followed);
	assert_non_null(c);
	fev(c, 1, KMA_EV_CACHE_ALLOC, 0xa000, "maple_node", 256, 0);
	fev(c, 2, KMA_EV_KMALLOC, 0xd000, NULL, 64, KMA_KMALLOC_CGROUP);
	fev(c, 3, KMA_EV_CACHE_ALLOC, 0xe000, "baz_cache", 200, 0);
	fev(c, 4, KMA_EV_CACHE_FREE, 0xe000, "baz_cache", 0, 0);
	fev(c, 5, KMA_EV_CACHE_ALLOC, 0xa100, "maple_node", 256, 0);
	part(c, 10, KMA_CNT_SLAB, KMA_CNT_START, 1, 1, fstart, 3);
	fev(c, 20, KMA_EV_KFREE, 0xd000, NULL, 0, 0);
	fev(c, 21, KMA_EV_CACHE_ALLOC, 0xa000, "maple_node", 256, 0);
	fev(c, 22, KMA_EV_KFREE, 0xa100, NULL, 0, 0);
	fev(c, 23, KMA_EV_CACHE_FREE, 0xe100, "baz_cache", 0, 0);
	fev(c, 24, KMA_EV_KFREE, 0x9990, NULL, 0, 0);
	part(c, 30, KMA_CNT_SLAB, KMA_CNT_END, 1, 1, fend, 3);
	assert_int_equal(kma_counters_finish(c, NULL, NULL), 0);
	assert_int_equal(kma_counters_cache_delta(c, "maple_node", &k, &t), 0);
	assert_int_equal(k, -74);
	assert_int_equal(t, -1);
	assert_int_equal(kma_counters_cache_delta(c, "kmalloc-cg-64", &k, &t), 0);
	assert_int_equal(k, 3);
	assert_int_equal(t, -1);
	assert_int_equal(kma_counters_cache_delta(c, "foo_cache", &k, &t), 0);
	assert_int_equal(k, 4);
	assert_int_equal(t, -1);
	k = t = 99;
	assert_int_equal(kma_counters_cache_delta(c, "baz_cache", &k, &t), 0);
	assert_int_equal(k, 4);
	assert_int_equal(t, -1);
	assert_int_equal(kma_counters_totals(c)->unknown_frees, 1);
	kma_counters_free(c);
	kma_match_free(followed);
	followed = NULL;
}

/* On its own, following a slab matcher, and given a kmalloc-only one (not followed). */
static void test_follow(void **state)
{
	(void)state;
	follow_run(0);
	follow_run(1);
	follow_run(2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_delta),
		cmocka_unit_test(test_incomplete),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_follow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
