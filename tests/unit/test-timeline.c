// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the over-time series (match/kma-timeline.c) through the
 * matcher, on hand-built event sequences. The expected bins are worked out
 * by hand in the comments: bin i is [start + i*width, start + (i+1)*width).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "match/kma-match.h"
#include "match/kma-timeline.h"

static struct kma_match *new_matcher(void)
{
	struct kma_match_opts o = { .timeline = 1 };
	struct kma_match *m = kma_match_alloc(&o);

	assert_non_null(m);
	return m;
}

static void ev(struct kma_match *m, int type, uint64_t ts, uint64_t site, uint64_t ptr,
	       uint64_t bytes)
{
	struct kma_event e = {
		.ts = ts, .call_site = site, .ptr = ptr, .bytes_req = bytes, .bytes_alloc = bytes,
		.type = type, .pid = 1, .node = -1, .accounted = -1,
	};

	assert_int_equal(kma_match_event(m, &e), 0);
}

#define A(m, ts, site, ptr, n)	ev(m, KMA_EV_KMALLOC, ts, site, ptr, n)
#define F(m, ts, ptr)		ev(m, KMA_EV_KFREE, ts, 0x99, ptr, 0)

static void check_bin(const struct kma_tl_bin *b, uint64_t allocs, uint64_t ab, uint64_t frees,
		      uint64_t fb, uint64_t live, uint64_t max)
{
	assert_int_equal(b->allocs, allocs);
	assert_int_equal(b->alloc_bytes, ab);
	assert_int_equal(b->frees, frees);
	assert_int_equal(b->free_bytes, fb);
	assert_int_equal(b->live, live);
	assert_int_equal(b->live_max, max);
}

/*
 * 1 us bins from the first event (1000): A 64 @1000 and B 32 @1500 in bin 0,
 * A's free @2500 in bin 1, nothing in bin 2, A 128 @4200 in bin 3; the end
 * 4999 is still bin 3: 4 bins. Bin 1 starts at 96 live: its max is 96.
 */
static void test_bins(void **state)
{
	struct kma_match *m = new_matcher();
	const struct kma_timeline *tl;
	const struct kma_tl_bin *b;
	const uint32_t *top;
	uint64_t start, width;

	(void)state;
	A(m, 1000, 0xa, 0x100, 64);
	A(m, 1500, 0xb, 0x200, 32);
	F(m, 2500, 0x100);
	A(m, 4200, 0xa, 0x300, 128);
	assert_int_equal(kma_match_finish(m, 4999), 0);
	tl = kma_match_timeline(m);
	assert_non_null(tl);
	assert_int_equal(kma_timeline_bins(tl, &start, &width, &b), 4);
	assert_int_equal(start, 1000);
	assert_int_equal(width, 1000);
	check_bin(&b[0], 2, 96, 0, 0, 96, 96);
	check_bin(&b[1], 0, 0, 1, 64, 32, 96);
	check_bin(&b[2], 0, 0, 0, 0, 32, 32);
	check_bin(&b[3], 1, 128, 0, 0, 160, 160);
	/* A: net 128 (id 0), B: net 32 (id 1) */
	assert_int_equal(kma_timeline_top(tl, &top), 2);
	assert_int_equal(top[0], 0);
	assert_int_equal(top[1], 1);
	assert_int_equal(kma_timeline_live(tl, 0, 0), 64);
	assert_int_equal(kma_timeline_live(tl, 0, 1), 0);
	assert_int_equal(kma_timeline_live(tl, 0, 3), 128);
	assert_int_equal(kma_timeline_live(tl, 1, 2), 32);
	assert_int_equal(kma_timeline_live(tl, 2, 3), 0);	/* other: nobody */
	kma_match_free(m);
}

/*
 * Widening: A 10 @0 (bin 0); B 20 @2,048,000 is bin 2048 at 1 us, past the
 * 2048 bins: width 2 us, bin 1024. A's free @4,095,999 is bin 2047 at 2 us.
 * So 2048 bins: bin 1023 holds 10, bin 1024 30 (max 30), bin 2047 20 (max 30).
 */
static void test_widen(void **state)
{
	struct kma_match *m = new_matcher();
	const struct kma_tl_bin *b;
	uint64_t start, width;

	(void)state;
	A(m, 0, 0xa, 0x100, 10);
	A(m, 2048000, 0xb, 0x200, 20);
	F(m, 4095999, 0x100);
	assert_int_equal(kma_match_finish(m, 4095999), 0);
	assert_int_equal(kma_timeline_bins(kma_match_timeline(m), &start, &width, &b), 2048);
	assert_int_equal(width, 2000);
	check_bin(&b[0], 1, 10, 0, 0, 10, 10);
	check_bin(&b[1023], 0, 0, 0, 0, 10, 10);
	check_bin(&b[1024], 1, 20, 0, 0, 30, 30);
	check_bin(&b[2047], 0, 0, 1, 10, 20, 30);
	kma_match_free(m);
}

/* One more ns at the end: 4,096,000 / 2 us = bin 2048: width 4 us, 1025 bins. */
static void test_widen_end(void **state)
{
	struct kma_match *m = new_matcher();
	const struct kma_tl_bin *b;
	uint64_t start, width;

	(void)state;
	A(m, 0, 0xa, 0x100, 10);
	A(m, 2048000, 0xb, 0x200, 20);
	assert_int_equal(kma_match_finish(m, 4096000), 0);
	assert_int_equal(kma_timeline_bins(kma_match_timeline(m), &start, &width, &b), 1025);
	assert_int_equal(width, 4000);
	check_bin(&b[511], 0, 0, 0, 0, 10, 10);
	check_bin(&b[512], 1, 20, 0, 0, 30, 30);
	kma_match_free(m);
}

/*
 * Ten callers, caller i (id i) allocates (i+1)*8 bytes at i us: top 8 by net
 * are ids 9..2; "other" is ids 0 and 1: 8 at bin 0, 8+16 = 24 from bin 1 on.
 */
static void test_top_other(void **state)
{
	struct kma_match *m = new_matcher();
	const uint32_t *top;
	uint32_t i;

	(void)state;
	for (i = 0; i < 10; i++)
		A(m, i * 1000, 0x1000 + i, 0x100 + 0x10 * i, (i + 1) * 8);
	assert_int_equal(kma_match_finish(m, 9000), 0);
	assert_int_equal(kma_timeline_top(kma_match_timeline(m), &top), 8);
	for (i = 0; i < 8; i++)
		assert_int_equal(top[i], 9 - i);
	assert_int_equal(kma_timeline_live(kma_match_timeline(m), 8, 0), 8);
	assert_int_equal(kma_timeline_live(kma_match_timeline(m), 8, 1), 24);
	assert_int_equal(kma_timeline_live(kma_match_timeline(m), 8, 9), 24);
	assert_int_equal(kma_timeline_live(kma_match_timeline(m), 7, 1), 0);	/* id 2 @2 us */
	assert_int_equal(kma_timeline_live(kma_match_timeline(m), 7, 2), 24);
	assert_int_equal(kma_timeline_live(kma_match_timeline(m), 0, 9), 80);
	kma_match_free(m);
}

/* An implicit free (A 64 then B 32 at the same pointer, one bin): 2 allocs, 1 free of 64. */
static void test_implicit(void **state)
{
	struct kma_match *m = new_matcher();
	const struct kma_tl_bin *b;
	uint64_t start, width;

	(void)state;
	A(m, 1000, 0xa, 0x100, 64);
	A(m, 1100, 0xb, 0x100, 32);
	assert_int_equal(kma_match_finish(m, 1200), 0);
	assert_int_equal(kma_timeline_bins(kma_match_timeline(m), &start, &width, &b), 1);
	check_bin(&b[0], 2, 96, 1, 64, 32, 64);
	kma_match_free(m);
}

/* An end before the last event (a damaged trace): the bins still reach it: 1000..5000, 5 bins. */
static void test_end_early(void **state)
{
	struct kma_match *m = new_matcher();
	const struct kma_tl_bin *b;
	uint64_t start, width;

	(void)state;
	A(m, 1000, 0xa, 0x100, 8);
	A(m, 5000, 0xa, 0x200, 16);
	assert_int_equal(kma_match_finish(m, 3000), 0);
	assert_int_equal(kma_timeline_bins(kma_match_timeline(m), &start, &width, &b), 5);
	check_bin(&b[4], 1, 16, 0, 0, 24, 24);
	kma_match_free(m);
}

/* No timeline unless asked; no event: no bins. */
static void test_off_and_empty(void **state)
{
	struct kma_match_opts o = { 0 };
	struct kma_match *m = kma_match_alloc(&o);
	const struct kma_tl_bin *b;
	uint64_t start, width;

	(void)state;
	assert_null(kma_match_timeline(m));
	kma_match_free(m);
	m = new_matcher();
	assert_int_equal(kma_match_finish(m, 0), 0);
	assert_int_equal(kma_timeline_bins(kma_match_timeline(m), &start, &width, &b), 0);
	kma_match_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bins),
		cmocka_unit_test(test_widen),
		cmocka_unit_test(test_widen_end),
		cmocka_unit_test(test_top_other),
		cmocka_unit_test(test_implicit),
		cmocka_unit_test(test_end_early),
		cmocka_unit_test(test_off_and_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
