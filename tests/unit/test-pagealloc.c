// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the page allocator accounting (match/kma-pagealloc.c) on
 * hand-built event sequences. Every expected number is worked out by hand
 * in the comment next to it.
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
#include "match/kma-pagealloc.h"

static uint64_t now;
static struct kma_page_alloc done[64];
static int nr_done;

static int on_done(void *ctx, const struct kma_page_alloc *a)
{
	(void)ctx;
	assert_true(nr_done < 64);
	done[nr_done++] = *a;
	return 0;
}

/* Stack id N's caller is fn_N: two stacks, two functions. */
static const char *caller_of(void *ctx, uint32_t id)
{
	static const char * const fns[] = { "[no stack]", "fn_1", "fn_2" };

	(void)ctx;
	return fns[id < 3 ? id : 0];
}

static struct kma_pagealloc *new_m(void)
{
	struct kma_page_opts o = { .caller_of = caller_of, .done = on_done };
	struct kma_pagealloc *m = kma_pagealloc_new(&o);

	assert_non_null(m);
	nr_done = 0;
	return m;
}

static void ev(struct kma_pagealloc *m, int type, uint64_t pfn, uint32_t order, uint32_t stack,
	       const char *comm)
{
	struct kma_event e = { .ts = ++now, .type = type, .ptr = pfn, .order = order,
			       .migratetype = order ? 1 : 0, .gfp_flags = 0xcc0,
			       .gfp_text = "GFP_KERNEL", .comm = comm, .pid = 7,
			       .stack_id = stack, .node = -1, .accounted = -1 };

	assert_int_equal(kma_pagealloc_event(m, &e), 0);
}

static const struct kma_page_row *row(struct kma_pagealloc *m, int g, uint64_t key)
{
	uint32_t nr, i;
	const struct kma_page_row *r = kma_pagealloc_rows(m, g, &nr);

	for (i = 0; i < nr; i++)
		if (r[i].key == key)
			return &r[i];
	fail_msg("row %llu of grouping %d not found", (unsigned long long)key, g);
	return NULL;
}

/*
 * alloc pfn 100 order 0, alloc pfn 200 order 2, free 100, free 200:
 * allocs 2, frees 2, pages 1 + 4 = 5 allocated and freed, none live;
 * peak 5 pages after the second allocation.
 */
static void test_pair(void **state)
{
	struct kma_pagealloc *m = new_m();
	const struct kma_page_totals *t;

	(void)state;
	ev(m, KMA_EV_PAGE_ALLOC, 100, 0, 1, "a");
	ev(m, KMA_EV_PAGE_ALLOC, 200, 2, 2, "a");
	ev(m, KMA_EV_PAGE_FREE, 100, 0, 0, "b");
	ev(m, KMA_EV_PAGE_FREE, 200, 2, 0, "b");
	assert_int_equal(kma_pagealloc_finish(m), 0);
	t = kma_pagealloc_totals(m);
	assert_int_equal(t->allocs, 2);
	assert_int_equal(t->frees, 2);
	assert_int_equal(t->pages_alloc, 5);
	assert_int_equal(t->pages_freed, 5);
	assert_int_equal(t->pages_live, 0);
	assert_int_equal(t->peak_pages, 5);
	assert_int_equal(t->unknown_frees, 0);
	assert_int_equal(row(m, KMA_PG_ORDER, 2)->pages_alloc, 4);
	assert_int_equal(row(m, KMA_PG_ORDER, 0)->frees, 1);
	assert_int_equal(nr_done, 2);
	assert_int_equal(done[1].pfn, 200);
	assert_int_equal(done[1].free_kind, KMA_EV_PAGE_FREE);
	kma_pagealloc_free(m);
}

/*
 * The batched free right after mm_page_free of the same pfn is no second
 * free; zone_locked and pcpu_drain are counted only. A free of pfn 300
 * (never allocated, order 1) is unknown: 1 free, 2 pages.
 */
static void test_batched_unknown(void **state)
{
	struct kma_pagealloc *m = new_m();
	const struct kma_page_totals *t;

	(void)state;
	ev(m, KMA_EV_PAGE_ZONE_LOCKED, 100, 0, 0, "a");
	ev(m, KMA_EV_PAGE_ALLOC, 100, 0, 0, "a");
	ev(m, KMA_EV_PAGE_FREE, 100, 0, 0, "a");
	ev(m, KMA_EV_PAGE_FREE_BATCHED, 100, 0, 0, "a");
	ev(m, KMA_EV_PAGE_PCPU_DRAIN, 100, 0, 0, "a");
	ev(m, KMA_EV_PAGE_FREE, 300, 1, 0, "a");
	t = kma_pagealloc_totals(m);
	assert_int_equal(t->allocs, 1);
	assert_int_equal(t->frees, 1);
	assert_int_equal(t->unknown_frees, 1);
	assert_int_equal(t->unknown_pages, 2);
	assert_int_equal(t->ev[KMA_EV_PAGE_FREE_BATCHED - KMA_EV_PAGE_ALLOC], 1);
	assert_int_equal(t->ev[KMA_EV_PAGE_ZONE_LOCKED - KMA_EV_PAGE_ALLOC], 1);
	assert_int_equal(t->ev[KMA_EV_PAGE_PCPU_DRAIN - KMA_EV_PAGE_ALLOC], 1);
	kma_pagealloc_free(m);
}

/*
 * Failed allocation (pfn -1) counted apart, never live; a second alloc at
 * live pfn 5 (order 1, then order 0) closes the first implicitly: 2 allocs,
 * 1 implicit free of 2 pages, 1 page live at the end (pfn 5, fn_2), and pfn
 * 0 is a page like any other (no null free): alloc + free pair.
 */
static void test_failed_implicit(void **state)
{
	struct kma_pagealloc *m = new_m();
	const struct kma_page_totals *t;

	(void)state;
	ev(m, KMA_EV_PAGE_ALLOC, KMA_PAGE_FAILED, 3, 1, "a");
	ev(m, KMA_EV_PAGE_ALLOC, 5, 1, 1, "a");
	ev(m, KMA_EV_PAGE_ALLOC, 5, 0, 2, "a");
	ev(m, KMA_EV_PAGE_ALLOC, 0, 0, 2, "a");
	ev(m, KMA_EV_PAGE_FREE, 0, 0, 0, "a");
	assert_int_equal(kma_pagealloc_finish(m), 0);
	t = kma_pagealloc_totals(m);
	assert_int_equal(t->failed, 1);
	assert_int_equal(t->allocs, 3);
	assert_int_equal(t->frees, 2);
	assert_int_equal(t->implicit_frees, 1);
	assert_int_equal(t->unknown_frees, 0);
	assert_int_equal(t->pages_alloc, 4);	/* 2 + 1 + 1 */
	assert_int_equal(t->pages_live, 1);
	assert_int_equal(t->live_allocs, 1);
	assert_int_equal(row(m, KMA_PG_FUNCTION, (uintptr_t)caller_of(NULL, 1))->implicit_frees, 1);
	assert_int_equal(row(m, KMA_PG_FUNCTION, (uintptr_t)caller_of(NULL, 2))->pages_live, 1);
	/* the implicit free, the pfn 0 free, then pfn 5 live at the end */
	assert_int_equal(nr_done, 3);
	assert_int_equal(done[0].free_kind, KMA_FREE_IMPLICIT);
	assert_int_equal(done[2].free_kind, -1);
	assert_int_equal(done[2].pfn, 5);
	kma_pagealloc_free(m);
}

/* -g names: caller stands for function; cache is no page grouping. */
static void test_groups(void **state)
{
	int g;

	(void)state;
	assert_int_equal(kma_page_group_parse("caller", &g), 0);
	assert_int_equal(g, KMA_PG_FUNCTION);
	assert_int_equal(kma_page_group_parse("gfp", &g), 0);
	assert_int_equal(g, KMA_PG_GFP);
	assert_int_equal(kma_page_group_parse("cache", &g), -1);
	assert_string_equal(kma_migrate_name(1), "Movable");
	assert_null(kma_migrate_name(4));
}

/* An event at @ts exactly (ev() takes the next ns). */
static void ev_at(struct kma_pagealloc *m, uint64_t ts, int type, uint64_t pfn, uint32_t order,
		  const char *comm)
{
	now = ts - 1;
	ev(m, type, pfn, order, 0, comm);
}

/*
 * H2, the timeline hook, in pages; bins of 1 us from the first page event:
 *   1000 free pfn 9 (unknown: ticks only, bin 0 starts here)
 *   1500 a: alloc pfn 100 order 1 (2 pages)		bin 0: live 2
 *   2200 b: alloc pfn 200 order 0 (1 page)		bin 1: live 3
 *   2900 b: alloc pfn 100 order 2: implicit free of the 2 pages (live 1), then +4: live 5
 *   2950 failed allocation: ticks only
 *   4100 free pfn 200 (1 page)				bin 3: live 4
 *   4200 batched free of pfn 200: counted, no free
 *   end 5500: bin 4 (4500 / 1000), so 5 bins.
 * bin:        0  1  2  3  4
 * allocs      1  2  0  0  0	alloc pages 2 5 0 0 0
 * frees       0  1  0  1  0	free pages  0 2 0 1 0
 * live        2  5  5  4  4	live_max    2 5 5 5 4 (a bin starts at the last one's live)
 * comm rows: a (id 0, 2 allocated, 0 live), b (id 1, 5 allocated, 4 live): b first.
 * b's live: 0 5 5 4 4; a's: 2 0 0 0 0; the others: none.
 */
static void test_timeline(void **state)
{
	static const uint64_t allocs[] = { 1, 2, 0, 0, 0 }, apages[] = { 2, 5, 0, 0, 0 },
		frees[] = { 0, 1, 0, 1, 0 }, fpages[] = { 0, 2, 0, 1, 0 },
		live[] = { 2, 5, 5, 4, 4 }, live_max[] = { 2, 5, 5, 5, 4 },
		b_live[] = { 0, 5, 5, 4, 4 }, a_live[] = { 2, 0, 0, 0, 0 };
	struct kma_timeline *tl = kma_timeline_alloc();
	struct kma_page_opts o = { .caller_of = caller_of, .timeline = tl };
	struct kma_pagealloc *m;
	struct kma_caller c[2];
	const struct kma_tl_bin *b;
	const uint32_t *top;
	uint64_t start, width;
	uint32_t i;

	(void)state;
	assert_non_null(tl);
	m = kma_pagealloc_new(&o);
	assert_non_null(m);
	ev_at(m, 1000, KMA_EV_PAGE_FREE, 9, 0, "a");
	ev_at(m, 1500, KMA_EV_PAGE_ALLOC, 100, 1, "a");
	ev_at(m, 2200, KMA_EV_PAGE_ALLOC, 200, 0, "b");
	ev_at(m, 2900, KMA_EV_PAGE_ALLOC, 100, 2, "b");
	ev_at(m, 2950, KMA_EV_PAGE_ALLOC, KMA_PAGE_FAILED, 0, "b");
	ev_at(m, 4100, KMA_EV_PAGE_FREE, 200, 0, "b");
	ev_at(m, 4200, KMA_EV_PAGE_FREE_BATCHED, 200, 0, "b");
	assert_int_equal(kma_pagealloc_finish(m), 0);
	memset(c, 0, sizeof(c));
	c[0].total = 2;
	c[1].total = 5;
	c[1].net = 4;
	assert_int_equal(kma_timeline_finish(tl, 5500, c, 2), 0);
	assert_int_equal(kma_timeline_bins(tl, &start, &width, &b), 5);
	assert_int_equal(start, 1000);
	assert_int_equal(width, 1000);
	for (i = 0; i < 5; i++) {
		assert_int_equal(b[i].allocs, allocs[i]);
		assert_int_equal(b[i].alloc_bytes, apages[i]);
		assert_int_equal(b[i].frees, frees[i]);
		assert_int_equal(b[i].free_bytes, fpages[i]);
		assert_int_equal(b[i].live, live[i]);
		assert_int_equal(b[i].live_max, live_max[i]);
		assert_int_equal(kma_timeline_live(tl, 0, i), b_live[i]);
		assert_int_equal(kma_timeline_live(tl, 1, i), a_live[i]);
		assert_int_equal(kma_timeline_live(tl, 2, i), 0);
	}
	assert_int_equal(kma_timeline_top(tl, &top), 2);
	assert_int_equal(top[0], 1);
	assert_int_equal(top[1], 0);
	kma_pagealloc_free(m);
	kma_timeline_free(tl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pair),
		cmocka_unit_test(test_batched_unknown),
		cmocka_unit_test(test_failed_implicit),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_timeline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
