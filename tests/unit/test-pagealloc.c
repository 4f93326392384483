// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the page kind on the one matcher (match/kma-match.c with
 * the page groupings of match/kma-pagealloc.c as row sets) on hand-built
 * event sequences: pairing by pfn, orders, batched and unknown frees,
 * failed and implicit, groupings, timeline, generations, growth, ages,
 * peak and lifetimes. Every expected number is worked out by hand in the
 * comment next to it.
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

static const struct kma_caller *row(struct kma_pagealloc *m, int g, uint64_t key)
{
	uint32_t nr, i;
	const struct kma_caller *r = kma_pagealloc_rows(m, g, &nr);

	for (i = 0; i < nr; i++)
		if (r[i].address == key)
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
	assert_int_equal(row(m, KMA_PG_ORDER, 2)->total, 4);
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
	assert_int_equal(row(m, KMA_PG_FUNCTION, (uintptr_t)caller_of(NULL, 2))->net, 1);
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
 * The timeline hook, in pages; bins of 1 us from the first page event:
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

static void mark(struct kma_pagealloc *m, const char *label)
{
	struct kma_event e = { .ts = ++now, .type = KMA_EV_MARKER, .label = label, .node = -1,
			       .accounted = -1 };

	assert_int_equal(kma_pagealloc_event(m, &e), 0);
}

/*
 * Generations, growth and ages (kma-match-time.c, kma-match-sets.c), timestamps 1, 2, ...:
 *   1 A alloc pfn 10 order 0 (gen 0)   2 marker g1
 *   3 B alloc pfn 11 order 1 (gen 1)   4 C free pfn 10   5 marker g2
 *   6 D alloc pfn 12 order 0 (gen 2)   7 marker g3 (gen 3: nothing)
 * comm x's live pages at the end of generations 0..3: 1, 2, 3, 3: grew in
 * 3, longest run 3; last free in generation 1 (last_free_gen 2); nothing
 * live from generation 3: no tail. Ages at 20 of B (3) and D (6): 17 and
 * 14, median 14 + (17 - 14) / 2 = 15.
 */
static void test_growth_ages(void **state)
{
	struct kma_pagealloc *m = new_m();
	const struct kma_caller *x;
	const struct kma_page_gen *g;
	struct kma_page_age age[1];
	uint32_t nr;

	(void)state;
	now = 0;
	ev(m, KMA_EV_PAGE_ALLOC, 10, 0, 1, "x");
	mark(m, "g1");
	ev(m, KMA_EV_PAGE_ALLOC, 11, 1, 1, "x");
	ev(m, KMA_EV_PAGE_FREE, 10, 0, 0, "x");
	mark(m, "g2");
	ev(m, KMA_EV_PAGE_ALLOC, 12, 0, 1, "x");
	mark(m, "g3");
	assert_int_equal(kma_pagealloc_finish(m), 0);
	x = kma_pagealloc_rows(m, KMA_PG_COMM, &nr);
	assert_int_equal(nr, 1);
	assert_int_equal(x->grew_gens, 3);
	assert_int_equal(x->max_grow_run, 3);
	assert_int_equal(x->last_free_gen, 2);
	assert_int_equal(x->tail_live_bytes, 0);
	assert_int_equal(kma_pagealloc_ages(m, KMA_PG_COMM, 20, age), 0);
	assert_int_equal(age[0].min, 14);
	assert_int_equal(age[0].median, 15);
	assert_int_equal(age[0].max, 17);
	g = kma_pagealloc_gens(m, &nr);
	assert_int_equal(nr, 4);
	assert_string_equal(g[0].label, "start");
	assert_int_equal(g[1].ts, 2);
	assert_string_equal(g[3].label, "g3");
	/* gen 1: B (2 pages, live) and the free C; gen 0: A, freed; gen 3: empty */
	assert_int_equal(g[1].allocs, 1);
	assert_int_equal(g[1].pages, 2);
	assert_int_equal(g[1].live_pages, 2);
	assert_int_equal(g[1].frees, 1);
	assert_int_equal(g[0].live, 0);
	assert_int_equal(g[3].allocs, 0);
	/* live pages 1, 3, 2, 3: the peak 3 is first reached at B (ts 3), when
	   order 0 held A (1 page) and order 1 B (2); C and D came later */
	assert_int_equal(kma_pagealloc_totals(m)->peak_ts, 3);
	assert_int_equal(x->net_at_peak, 3);
	assert_int_equal(row(m, KMA_PG_ORDER, 0)->net_at_peak, 1);
	assert_int_equal(row(m, KMA_PG_ORDER, 1)->net_at_peak, 2);
	kma_pagealloc_free(m);
}

/*
 * Pages at the peak differ from pages at the end: alloc 1 order 0 (comm a),
 * alloc 2 order 1 (a): 3 live, the peak; free 2: 1; alloc 3 order 0 (b): 2.
 * At the peak order 0 held 1, order 1 2, a 3, b nothing (not yet a row).
 * Then b allocates pfn 1 again: an implicit free, no lifetime; order 0
 * ends with 2 live (pfn 3 and the new pfn 1).
 */
static void test_peak_rows(void **state)
{
	struct kma_pagealloc *m = new_m();

	(void)state;
	kma_pagealloc_keep_lifetimes(m, KMA_PG_COMM, 0);
	now = 0;
	ev(m, KMA_EV_PAGE_ALLOC, 1, 0, 0, "a");
	ev(m, KMA_EV_PAGE_ALLOC, 2, 1, 0, "a");
	ev(m, KMA_EV_PAGE_FREE, 2, 1, 0, "a");
	ev(m, KMA_EV_PAGE_ALLOC, 3, 0, 0, "b");
	ev(m, KMA_EV_PAGE_ALLOC, 1, 0, 0, "b");	/* implicit free of the first: no lifetime */
	assert_int_equal(kma_pagealloc_finish(m), 0);
	{	/* a's one traced free: pfn 2, allocated at 2, freed at 3; b none */
		struct kma_quant *q = kma_pagealloc_lifetimes(m, KMA_PG_COMM, 0);

		assert_non_null(q);
		assert_int_equal(q->n, 1);
		assert_int_equal(kma_quant_pct(q, 50), 1);
		assert_null(kma_pagealloc_lifetimes(m, KMA_PG_COMM, 1));
		assert_null(kma_pagealloc_lifetimes(m, KMA_PG_ORDER, 0));
	}
	assert_int_equal(kma_pagealloc_totals(m)->peak_pages, 3);
	assert_int_equal(row(m, KMA_PG_ORDER, 0)->net_at_peak, 1);
	assert_int_equal(row(m, KMA_PG_ORDER, 0)->net, 2);
	assert_int_equal(row(m, KMA_PG_ORDER, 1)->net_at_peak, 2);
	assert_int_equal(row(m, KMA_PG_ORDER, 1)->net, 0);
	kma_pagealloc_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pair),
		cmocka_unit_test(test_batched_unknown),
		cmocka_unit_test(test_failed_implicit),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_timeline),
		cmocka_unit_test(test_growth_ages),
		cmocka_unit_test(test_peak_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
