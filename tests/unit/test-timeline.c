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
#include <malloc.h>
#if defined(__SANITIZE_ADDRESS__)
/* ASan's allocator count (sanitizer/allocator_interface.h, not always installed) */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif

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


/* Bytes the heap holds now (ASan's allocator has its own count). */
static size_t heap_bytes(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return __sanitizer_get_current_allocated_bytes();
#else
	return mallinfo2().uordblks;
#endif
}

/*
 * Sparse series: 4000 call sites, each one allocation at its own us, the
 * trace 4 ms long (width 2 us after one widening). Dense series would take
 * 4000 x 16 KB = 64 MB; sparse ones a few pairs each, under 4 MB with the
 * matcher's own rows. Caller i holds 8 bytes from bin i / 2 on.
 */
static void test_many_callers(void **state)
{
	size_t before = heap_bytes(), used;
	struct kma_match *m = new_matcher();
	const uint32_t *top;
	uint32_t i, n;
	const struct kma_tl_bin *b;
	uint64_t start, width;

	(void)state;
	for (i = 0; i < 4000; i++)
		A(m, i * 1000ULL, 0x100000 + i, 0x1000 + 0x10 * i, 8);
	used = heap_bytes() - before;
	assert_true(used < 4u << 20);
	assert_int_equal(kma_match_finish(m, 3999000), 0);
	n = kma_timeline_bins(kma_match_timeline(m), &start, &width, &b);
	assert_int_equal(n, 2000);
	assert_int_equal(width, 2000);
	/* top 8 by net (all 8), then total (all 8): the lowest ids 0..7 */
	assert_int_equal(kma_timeline_top(kma_match_timeline(m), &top), 8);
	for (i = 0; i < 8; i++)
		assert_int_equal(top[i], i);
	assert_int_equal(kma_timeline_live(kma_match_timeline(m), 7, 2), 0);	/* id 7 @7 us: bin 3 */
	assert_int_equal(kma_timeline_live(kma_match_timeline(m), 7, 3), 8);
	/* other: ids 8.. ; at the end of bin k, ids <= 2k+1 are live: 2k + 2 - 8 of them */
	assert_int_equal(kma_timeline_live(kma_match_timeline(m), 8, 3), 0);
	assert_int_equal(kma_timeline_live(kma_match_timeline(m), 8, 4), 16);
	assert_int_equal(kma_timeline_live(kma_match_timeline(m), 8, 1999), (4000 - 8) * 8);
	check_bin(&b[1999], 2, 16, 0, 0, 32000, 32000);
	kma_match_free(m);
}

/*
 * Widening merges a caller's pairs: A 10 @0 (bin 0) freed @1000 (bin 1),
 * then A 5 @1500 (bin 1); B 20 @2,048,000 widens to 2 us: A's bins 0 and 1
 * become bin 0 with 10 - 10 + 5 = 5; B is in bin 1024.
 */
static void test_widen_merge(void **state)
{
	struct kma_match *m = new_matcher();
	const struct kma_timeline *tl;
	const struct kma_tl_bin *b;
	const uint32_t *top;
	uint64_t start, width;

	(void)state;
	A(m, 0, 0xa, 0x100, 10);
	F(m, 1000, 0x100);
	A(m, 1500, 0xa, 0x200, 5);
	A(m, 2048000, 0xb, 0x300, 20);
	assert_int_equal(kma_match_finish(m, 2048000), 0);
	tl = kma_match_timeline(m);
	assert_int_equal(kma_timeline_bins(tl, &start, &width, &b), 1025);
	assert_int_equal(width, 2000);
	check_bin(&b[0], 2, 15, 1, 10, 5, 10);
	assert_int_equal(kma_timeline_top(tl, &top), 2);
	assert_int_equal(top[0], 1);	/* B: net 20 */
	assert_int_equal(kma_timeline_live(tl, 1, 0), 5);
	assert_int_equal(kma_timeline_live(tl, 1, 1024), 5);
	assert_int_equal(kma_timeline_live(tl, 0, 1023), 0);
	assert_int_equal(kma_timeline_live(tl, 0, 1024), 20);
	kma_match_free(m);
}

/*
 * A's allocation and its free in one bin leave no change there; a second
 * allocation in that bin brings one back. A 64 @1000, freed @1500, A 32
 * @1800 (bin 0), B 16 @2500 (bin 1), A's 32 freed @3100 (bin 2).
 */
static void test_zero_change(void **state)
{
	struct kma_match *m = new_matcher();
	const struct kma_timeline *tl;
	const uint32_t *top;

	(void)state;
	A(m, 1000, 0xa, 0x100, 64);
	F(m, 1500, 0x100);
	A(m, 1800, 0xa, 0x200, 32);
	A(m, 2500, 0xb, 0x300, 16);
	F(m, 3100, 0x200);
	assert_int_equal(kma_match_finish(m, 3100), 0);
	tl = kma_match_timeline(m);
	assert_int_equal(kma_timeline_top(tl, &top), 2);
	assert_int_equal(top[0], 1);	/* B: net 16; A: net 0, total 96 */
	assert_int_equal(kma_timeline_live(tl, 1, 0), 32);
	assert_int_equal(kma_timeline_live(tl, 1, 1), 32);
	assert_int_equal(kma_timeline_live(tl, 1, 2), 0);
	kma_match_free(m);
}

/*
 * Timestamps that go back (a damaged trace): A 10 @1000 (bin 0), A 20
 * @5000 (bin 4), B 5 @5500 (bin 4), then A 30 @3000 (bin 2, inserted
 * between A's pairs). A holds 10, 10, 40, 40, 60.
 */
static void test_back_in_time(void **state)
{
	struct kma_match *m = new_matcher();
	const struct kma_timeline *tl;
	const struct kma_tl_bin *b;
	uint64_t start, width;
	static const uint64_t want[] = { 10, 10, 40, 40, 60 };
	uint32_t i;

	(void)state;
	A(m, 1000, 0xa, 0x100, 10);
	A(m, 5000, 0xa, 0x200, 20);
	A(m, 5500, 0xb, 0x300, 5);
	A(m, 3000, 0xa, 0x400, 30);
	assert_int_equal(kma_match_finish(m, 5999), 0);
	tl = kma_match_timeline(m);
	assert_int_equal(kma_timeline_bins(tl, &start, &width, &b), 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(kma_timeline_live(tl, 0, i), want[i]);
	assert_int_equal(b[2].alloc_bytes, 30);
	assert_int_equal(b[4].live, 65);
	kma_match_free(m);
}

/*
 * Events that only move time (a free of a pointer never allocated) carry
 * the trace past 2048 bins of 1 us: the bins are 2 us wide by the next
 * allocation, wherever the widening happens. A 10 @0 (bin 0), the unknown
 * free @3,000,000, B 7 @3,000,500 and A's free @3,001,000 (both in bin
 * 3,000,000 / 2000 = 1500): 1501 bins; bin 1500 starts at 10 live, holds
 * 17 after B and 7 at its end. B (net 7) is the top caller, A (net 0) next.
 */
static void test_tick_widen(void **state)
{
	struct kma_match *m = new_matcher();
	const struct kma_timeline *tl;
	const struct kma_tl_bin *b;
	const uint32_t *top;
	uint64_t start, width;

	(void)state;
	A(m, 0, 0xa, 0x100, 10);
	F(m, 3000000, 0x999);
	A(m, 3000500, 0xb, 0x200, 7);
	F(m, 3001000, 0x100);
	assert_int_equal(kma_match_finish(m, 3001000), 0);
	tl = kma_match_timeline(m);
	assert_int_equal(kma_timeline_bins(tl, &start, &width, &b), 1501);
	assert_int_equal(start, 0);
	assert_int_equal(width, 2000);
	check_bin(&b[0], 1, 10, 0, 0, 10, 10);
	check_bin(&b[1499], 0, 0, 0, 0, 10, 10);
	check_bin(&b[1500], 1, 7, 1, 10, 7, 17);
	assert_int_equal(kma_timeline_top(tl, &top), 2);
	assert_int_equal(kma_timeline_live(tl, 0, 1499), 0);	/* B */
	assert_int_equal(kma_timeline_live(tl, 0, 1500), 7);
	assert_int_equal(kma_timeline_live(tl, 1, 1499), 10);	/* A */
	assert_int_equal(kma_timeline_live(tl, 1, 1500), 0);
	kma_match_free(m);
}

/*
 * One caller in every bin turns dense (more pairs than a dense array's
 * room), then widens twice: A 8 @ each us for 2000 us (bins 0..1999),
 * then B 1 @8,191,999 (width 4 us, bin 2047). A holds 8 x 4 (k + 1) at the
 * end of bin k < 500, 16000 after.
 */
static void test_dense(void **state)
{
	struct kma_match *m = new_matcher();
	const struct kma_timeline *tl;
	const struct kma_tl_bin *b;
	uint64_t start, width;
	uint32_t i;

	(void)state;
	for (i = 0; i < 2000; i++)
		A(m, i * 1000ULL, 0xa, 0x100 + 0x10 * i, 8);
	A(m, 8191999, 0xb, 0x100000, 1);
	assert_int_equal(kma_match_finish(m, 8191999), 0);
	tl = kma_match_timeline(m);
	assert_int_equal(kma_timeline_bins(tl, &start, &width, &b), 2048);
	assert_int_equal(width, 4000);
	for (i = 0; i < 500; i++)
		assert_int_equal(kma_timeline_live(tl, 0, i), 32 * (i + 1));
	assert_int_equal(kma_timeline_live(tl, 0, 500), 16000);
	assert_int_equal(kma_timeline_live(tl, 0, 2047), 16000);
	assert_int_equal(kma_timeline_live(tl, 1, 2046), 0);
	assert_int_equal(kma_timeline_live(tl, 1, 2047), 1);
	kma_match_free(m);
}

/*
 * Random allocations and frees of 300 call sites over about 12 ms (three
 * widenings), against the series computed here from the events alone: a
 * top caller's live bytes at the end of bin i are its allocations minus its
 * frees with (ts - start) / width <= i.
 */
#define R_EVENTS 30000
#define R_SITES 300
struct r_ev { uint64_t ts; uint32_t site; int64_t bytes; };

static uint32_t lcg(uint32_t *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 8;
}

static void test_random(void **state)
{
	static struct r_ev evs[R_EVENTS];
	static uint64_t live_ptr[R_EVENTS], live_bytes[R_EVENTS];
	static uint32_t live_site[R_EVENTS];
	struct kma_match *m = new_matcher();
	const struct kma_timeline *tl;
	const struct kma_caller *c;
	const struct kma_tl_bin *b;
	const uint32_t *top;
	uint64_t start, width, ts = 5000, want;
	uint32_t x = 42, nl = 0, ne = 0, i, k, n, nr_top, nc, j;

	(void)state;
	for (i = 0; i < R_EVENTS; i++, ts += lcg(&x) % 800) {
		if (nl && lcg(&x) % 2) {
			j = lcg(&x) % nl;
			F(m, ts, live_ptr[j]);
			evs[ne++] = (struct r_ev){ ts, live_site[j], -(int64_t)live_bytes[j] };
			live_ptr[j] = live_ptr[--nl];
			live_bytes[j] = live_bytes[nl];
			live_site[j] = live_site[nl];
			continue;
		}
		/* a skewed choice of site, so that the top callers differ in net */
		live_site[nl] = lcg(&x) % (1 + lcg(&x) % R_SITES);
		live_bytes[nl] = 8 + lcg(&x) % 512;
		live_ptr[nl] = 0x10000 + 0x1000ULL * i;
		A(m, ts, 0x5000 + live_site[nl], live_ptr[nl], live_bytes[nl]);
		evs[ne++] = (struct r_ev){ ts, live_site[nl], (int64_t)live_bytes[nl] };
		nl++;
	}
	assert_int_equal(kma_match_finish(m, ts), 0);
	tl = kma_match_timeline(m);
	n = kma_timeline_bins(tl, &start, &width, &b);
	assert_true(width >= 8000);
	nr_top = kma_timeline_top(tl, &top);
	assert_int_equal(nr_top, 8);
	c = kma_match_callers(m, &nc);
	for (k = 0; k < nr_top; k++) {
		uint64_t site = c[top[k]].address - 0x5000;

		for (i = 0; i < n; i += 7) {
			want = 0;
			for (j = 0; j < ne; j++)
				if (evs[j].site == site && (evs[j].ts - start) / width <= i)
					want += (uint64_t)evs[j].bytes;
			assert_int_equal(kma_timeline_live(tl, k, i), want);
		}
	}
	kma_match_free(m);
}

/*
 * kma_match_regroup (kma-match-group.c, used by --html with the timeline's
 * caller matcher): call sites 0x100-0x1ff are function "f", 0x200-0x2ff
 * "g". Worked by hand: f's sites 0x110 (64 @1000, freed @3000: life 2000;
 * 32 @1500 live) and 0x120 (16 @2000, freed @2500: life 500; a failed
 * allocation), g's 0x210 (8 @1200 live). f: total 112, net 32, 3 allocs,
 * 2 frees, 1 failed, life 500..2000, live 1 aged 4000 - 1500 = 2500.
 * The rows must also equal a matcher grouped by function fed the events.
 */
static const char *fn_name(void *ctx, uint64_t addr, enum kma_group g)
{
	(void)ctx;
	(void)g;
	return (addr >> 8) == 1 ? "f" : "g";
}

static void regroup_events(struct kma_match *m)
{
	A(m, 1000, 0x110, 0x100, 64);
	A(m, 1200, 0x210, 0x200, 8);
	A(m, 1500, 0x110, 0x300, 32);
	A(m, 2000, 0x120, 0x400, 16);
	A(m, 2200, 0x120, 0, 16);
	F(m, 2500, 0x400);
	F(m, 3000, 0x100);
	assert_int_equal(kma_match_finish(m, 4000), 0);
}

static void test_regroup(void **state)
{
	struct kma_match_opts o = { .group_name = fn_name };
	struct kma_match *m = kma_match_alloc(&o), *r, *direct;
	const struct kma_caller *c, *d;
	uint32_t n, nd, i;

	(void)state;
	regroup_events(m);
	assert_null(kma_match_regroup(m, KMA_GROUP_COMM));
	r = kma_match_regroup(m, KMA_GROUP_FUNCTION);
	assert_non_null(r);
	c = kma_match_callers(r, &n);
	assert_int_equal(n, 2);
	assert_string_equal(c[0].name, "f");
	assert_int_equal(c[0].total, 112);
	assert_int_equal(c[0].net, 32);
	assert_int_equal(c[0].allocs, 3);
	assert_int_equal(c[0].frees, 2);
	assert_int_equal(c[0].failed_allocs, 1);
	assert_int_equal(c[0].life_min, 500);
	assert_int_equal(c[0].life_max, 2000);
	assert_int_equal(c[0].live, 1);
	assert_int_equal(c[0].age_min, 2500);
	assert_int_equal(c[0].age_max, 2500);
	assert_string_equal(c[1].name, "g");
	assert_int_equal(c[1].net, 8);
	assert_int_equal(kma_match_totals(r)->callers, 2);
	assert_int_equal(kma_match_totals(r)->total, 120);

	o.group_by = KMA_GROUP_FUNCTION;
	direct = kma_match_alloc(&o);
	regroup_events(direct);
	d = kma_match_callers(direct, &nd);
	assert_int_equal(nd, n);
	for (i = 0; i < n; i++) {
		assert_string_equal(c[i].name, d[i].name);
		assert_int_equal(c[i].address, d[i].address);
		assert_int_equal(c[i].total, d[i].total);
		assert_int_equal(c[i].slack, d[i].slack);
		assert_int_equal(c[i].net, d[i].net);
		assert_int_equal(c[i].allocs, d[i].allocs);
		assert_int_equal(c[i].frees, d[i].frees);
		assert_int_equal(c[i].implicit_frees, d[i].implicit_frees);
		assert_int_equal(c[i].failed_allocs, d[i].failed_allocs);
		assert_int_equal(c[i].live, d[i].live);
		assert_int_equal(c[i].life_min, d[i].life_min);
		assert_int_equal(c[i].life_max, d[i].life_max);
		assert_int_equal(c[i].life_sum, d[i].life_sum);
		assert_int_equal(c[i].age_min, d[i].age_min);
		assert_int_equal(c[i].age_max, d[i].age_max);
		assert_int_equal(c[i].age_sum, d[i].age_sum);
		assert_int_equal(c[i].net_at_peak, d[i].net_at_peak);
		assert_int_equal(c[i].temporary, d[i].temporary);
		assert_int_equal(c[i].last_free_gen, d[i].last_free_gen);
	}
	assert_int_equal(kma_match_totals(direct)->callers, kma_match_totals(r)->callers);
	kma_match_free(direct);
	kma_match_free(r);
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
		cmocka_unit_test(test_many_callers),
		cmocka_unit_test(test_widen_merge),
		cmocka_unit_test(test_zero_change),
		cmocka_unit_test(test_back_in_time),
		cmocka_unit_test(test_tick_widen),
		cmocka_unit_test(test_dense),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_regroup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
