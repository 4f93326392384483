// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the leak verdicts (kma-leak): the classes and the order of the
 * rules, the reasons in words, the confidence, the cache-growth list and its
 * --cache-growth syntax. Callers are built by hand; every expected value is
 * worked out in the comment next to it.
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

#define SEC 1000000000ULL

/* A caller that looks like a leak: grew in 3 of 5, never freed, 2 objects. */
static struct kma_caller leaky(void)
{
	struct kma_caller c = {
		.name = "leaky_fn+0x1a/0x40", .net = 128, .live = 2, .allocs = 2,
		.grew_gens = 3, .max_grow_run = 3, .age_median = 2 * SEC,
	};

	return c;
}

static struct kma_leak_rules rules(uint32_t gens)
{
	struct kma_leak_rules r = {
		.young_ns = KMA_LEAK_YOUNG_NS, .gens = gens, .growth = kma_leak_growth_default,
	};

	return r;
}

static size_t count(const char * const *v)
{
	size_t n = 0;

	while (v[n])
		n++;
	return n;
}

/* no net: nothing to explain */
static void test_no_net(void **state)
{
	struct kma_caller c = leaky();
	struct kma_leak_rules r = rules(5);
	struct kma_leak l;

	c.net = 0;
	c.live = 0;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_NONE);
	assert_string_equal(l.confidence, "none");
	assert_false(l.suspect);
	assert_string_equal(l.why, "");
}

/* run of 3 over 5 generations: a suspect, every fact in words */
static void test_suspect(void **state)
{
	struct kma_caller c = leaky();
	struct kma_leak_rules r = rules(5);
	struct kma_leak l;

	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_SUSPECT);
	assert_true(l.suspect);
	assert_string_equal(l.confidence, "high");
	/* 0 freed of 2 allocations: 0 % */
	assert_string_equal(l.why, "grew in 3 of 5 generations (longest run 3); never freed; "
			    "median age 2.000000s; 0% freed (0 of 2)");
	/* a run of 2 is not enough: none, with the same facts */
	c.max_grow_run = 2;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_NONE);
	assert_false(l.suspect);
	assert_string_equal(l.confidence, "none");
	assert_string_equal(l.why, "grew in 3 of 5 generations (longest run 2); never freed; "
			    "median age 2.000000s; 0% freed (0 of 2)");
}

/* fewer than 4 generations: no verdict, however steady the growth */
static void test_too_few(void **state)
{
	struct kma_caller c = leaky();
	struct kma_leak_rules r = rules(3);
	struct kma_leak l;

	c.grew_gens = 3;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_TOO_FEW);
	assert_false(l.suspect);
	assert_string_equal(l.confidence, "none");
	assert_string_equal(l.why, "too few generations for a verdict (3, needs 4); grew in 3 "
			    "of 3 generations (longest run 3); never freed; median age "
			    "2.000000s; 0% freed (0 of 2)");
	/* 4 generations are enough */
	r.gens = 4;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_SUSPECT);
}

/* the last free, and the share freed (traced and implicit frees) */
static void test_frees(void **state)
{
	struct kma_caller c = leaky();
	struct kma_leak_rules r = rules(5);
	struct kma_leak l;

	/* last free in generation 1 (last_free_gen is 1 + it); 1 traced + 1 implicit of 4 */
	c.allocs = 4;
	c.frees = 1;
	c.implicit_frees = 1;
	c.last_free_gen = 2;
	kma_leak_assess(&c, &r, &l);
	assert_non_null(strstr(l.why, "; never freed after generation 1; "));
	assert_non_null(strstr(l.why, "; 50% freed (2 of 4)"));
	/* an implicit free lowers the confidence one level, and says why */
	assert_string_equal(l.confidence, "medium");
	assert_non_null(strstr(l.why, "1 implicit frees: "));
	/* freed in the last generation (5 = 1 + 4): no "never freed" at all */
	c.last_free_gen = 5;
	c.allocs = 3;
	kma_leak_assess(&c, &r, &l);
	assert_null(strstr(l.why, "never freed"));
	/* 2 of 3: 200 / 3 = 66 % (integer) */
	assert_non_null(strstr(l.why, "; 66% freed (2 of 3)"));
}

/* each doubt lowers the confidence one level, never below low */
static void test_confidence(void **state)
{
	struct kma_caller c = leaky();
	struct kma_leak_rules r = rules(5);
	struct kma_leak l;

	/* the median age, not the mean, against --young: 0.5 s < 1 s */
	c.age_median = SEC / 2;
	c.age_sum = 10 * SEC;		/* a mean of 5 s would not be young */
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.confidence, "medium");
	assert_non_null(strstr(l.why, "its live allocations are young (median age 0.500000s, "
			       "threshold 1.000000s)"));
	r.lost = 3;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.confidence, "low");
	assert_non_null(strstr(l.why, "the trace lost 3 events"));
	c.implicit_frees = 1;
	c.allocs = 3;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.confidence, "low");
	/* exactly the threshold is not young */
	c.implicit_frees = 0;
	r.lost = 0;
	c.age_median = KMA_LEAK_YOUNG_NS;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.confidence, "high");
}

/* growth caches: by cache name or by function, reported as which */
static void test_cache_growth(void **state)
{
	struct kma_caller c = leaky();
	struct kma_leak_rules r = rules(5);
	struct kma_leak l;

	c.name = "new_node+0x10/0x80 [mymod]";
	c.cache = "dentry";
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_CACHE_GROWTH);
	assert_false(l.suspect);
	assert_string_equal(l.confidence, "none");
	assert_string_equal(l.why, "cache growth: cache 'dentry' matches 'dentry'; grew in 3 of "
			    "5 generations (longest run 3); never freed; median age 2.000000s; "
			    "0% freed (0 of 2)");
	/* kmalloc (no cache) from a function on the list: the function is named */
	c.name = "alloc_buffer_head+0x1c/0x90";
	c.cache = NULL;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_CACHE_GROWTH);
	assert_non_null(strstr(l.why, "cache growth: function 'alloc_buffer_head' matches "
			       "'alloc_buffer_head'; "));
	/* an empty list (--cache-growth none): the same caller is a suspect */
	r.growth = NULL;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_SUSPECT);
	/* even with too few generations, cache growth says so first */
	r = rules(2);
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_CACHE_GROWTH);
}

/* the tail after the last marker: its live bytes are discounted */
static void test_tail(void **state)
{
	struct kma_caller c = leaky();
	struct kma_leak_rules r = rules(5);
	struct kma_leak l;

	r.tail_ns = 2 * SEC + SEC / 2;
	c.tail_live = 2;
	c.tail_live_bytes = 128;	/* all of its net */
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_NONE);
	assert_string_equal(l.why, "all its live bytes were allocated in the 2.500000s after "
			    "the last marker; grew in 3 of 5 generations (longest run 3); never "
			    "freed; median age 2.000000s; 0% freed (0 of 2); 128 bytes made in "
			    "the 2.500000s tail discounted");
	/* part of it in the tail: still a suspect, the tail part is named */
	c.net = 192;
	c.tail_live_bytes = 64;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_SUSPECT);
	assert_non_null(strstr(l.why, "; 64 bytes made in the 2.500000s tail discounted"));
}

/* which default pattern a caller matches, if any */
static void test_growth_match(void **state)
{
	static const struct { const char *name, *cache, *want; } cases[] = {
		{ "shmem_alloc_inode+0x1a/0x40", "shmem_inode_cache", "*inode*" },
		{ "__d_alloc+0x31/0x1d0", "dentry", "dentry" },
		{ "__d_alloc+0x9b/0x1d0", NULL, "__d_alloc" },	/* external names */
		{ "sched_alloc+0x10", NULL, NULL },	/* no longer a "*d_alloc*" */
		{ "xas_alloc+0x9a/0xc0", "radix_tree_node", "radix_tree_node" },
		{ "xas_nomem+0x2c/0x80", "radix_tree_node", "radix_tree_node" },
		{ "xas_alloc+0x9a/0xc0", NULL, "xas_alloc" },
		{ "alloc_slab_obj_exts+0x5e/0x150", NULL, "alloc_slab_obj_exts" },
		{ "ext4_es_alloc_extent+0x3a/0x1c0 [ext4]", "ext4_extent_status",
		  "ext4_extent_status" },
		{ "my_driver_alloc+0x10/0x20 [mymod]", "kmalloc-64", NULL },
		{ "0xffffffff81000100", NULL, NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kma_caller c = { .name = cases[i].name, .cache = cases[i].cache };
		const char *got = kma_leak_growth_match(&c, kma_leak_growth_default);

		if (!cases[i].want)
			assert_null(got);
		else
			assert_string_equal(got, cases[i].want);
	}
}

/* --cache-growth: replace, +add, none, and what is refused */
static void test_growth_parse(void **state)
{
	const char * const *list = NULL;
	size_t n = count(kma_leak_growth_default);
	struct kma_caller c = { .name = "leaky_fn+0x10", .cache = "dentry" };

	assert_int_equal(kma_leak_growth_parse("none", &list), 0);
	assert_null(list[0]);
	assert_null(kma_leak_growth_match(&c, list));
	/* no list yet: +P adds to the default */
	kma_leak_growth_free(list);
	list = NULL;
	assert_int_equal(kma_leak_growth_parse("+leaky_*,foo", &list), 0);
	assert_int_equal(count(list), n + 2);
	assert_string_equal(list[n], "leaky_*");
	assert_string_equal(list[n + 1], "foo");
	assert_string_equal(kma_leak_growth_match(&c, list), "dentry");	/* default first */
	c.cache = NULL;
	assert_string_equal(kma_leak_growth_match(&c, list), "leaky_*");
	/* P replaces; a later +Q adds to it */
	assert_int_equal(kma_leak_growth_parse("bar", &list), 0);
	assert_int_equal(count(list), 1);
	assert_int_equal(kma_leak_growth_parse("+baz", &list), 0);
	assert_int_equal(count(list), 2);
	assert_string_equal(list[0], "bar");
	assert_string_equal(list[1], "baz");
	/* empty patterns are refused, and the list is left as it was */
	assert_int_equal(kma_leak_growth_parse("a,,b", &list), -1);
	assert_int_equal(kma_leak_growth_parse("", &list), -1);
	assert_int_equal(kma_leak_growth_parse("+", &list), -1);
	assert_int_equal(kma_leak_growth_parse("a,", &list), -1);
	assert_int_equal(count(list), 2);
	kma_leak_growth_free(list);
	kma_leak_growth_free(kma_leak_growth_default);	/* left alone */
	assert_string_equal(kma_leak_growth_default[0], "*inode*");
}

/* --- the leak experiment (kma-record --repeat) --- */

/* 4 iterations at generations 1-4, the reclaim at 5, settle at 6 */
static struct kma_leak_rules exp_rules(void)
{
	struct kma_leak_rules r = rules(7);
	static const char * const labels[] = { "start", "iteration 1", "iteration 2",
		"iteration 3", "iteration 4", "reclaim", "settle" };
	uint32_t g;

	for (g = 0; g < 7; g++)
		kma_leak_phase_add(&r.phases, g, labels[g]);
	return r;
}

/* a caller with per-iteration counts v (4 of them), 64 B objects */
static struct kma_caller exp_caller(const uint64_t *v)
{
	struct kma_caller c = leaky();
	uint64_t n = 0;
	int i;

	for (i = 0; i < 4; i++)
		n += v[i];
	c.iter_live = v;
	c.nr_iters = 4;
	c.live = c.allocs = n;
	c.net = 64 * n;
	c.age_median = 30 * SEC;
	return c;
}

static void test_phases(void **state)
{
	struct kma_leak_rules r = exp_rules();
	struct kma_leak_phases p = { 0 };

	assert_int_equal(r.phases.first_iter, 1);
	assert_int_equal(r.phases.iters, 4);
	assert_int_equal(r.phases.reclaim, 5);
	/* out of order or not "iteration K": not the experiment's */
	kma_leak_phase_add(&p, 1, "iteration 2");
	kma_leak_phase_add(&p, 2, "iteration 1x");
	kma_leak_phase_add(&p, 3, "g1");
	assert_int_equal(p.iters, 0);
	kma_leak_phase_add(&p, 4, "iteration 1");
	kma_leak_phase_add(&p, 5, "keep");	/* breaks the run: iteration 2 must be next */
	kma_leak_phase_add(&p, 6, "iteration 2");
	assert_int_equal(p.first_iter, 4);
	assert_int_equal(p.iters, 1);
	assert_int_equal(p.reclaim, 0);
}

/* 2 2 2 2: the median of iterations 2-4 is 2, tolerance 1; all in: high */
static void test_iter_high(void **state)
{
	static const uint64_t v[] = { 2, 2, 2, 2 };
	struct kma_caller c = exp_caller(v);
	struct kma_leak_rules r = exp_rules();
	struct kma_leak l;

	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_SUSPECT);
	assert_string_equal(l.confidence, "high");
	assert_string_equal(l.why, "iterations 1-4 left 2, 2, 2, 2 live objects (4 of 4 within "
			    "2 +- 1); never freed; median age 30.000000s; 0% freed (0 of 8)");
}

/*
 * 5 3 2 4: median of 3, 2, 4 is 3, tolerance 1: 5 (the first may be more), 3, 2, 4
 * all in: high. 1 4 4 4: the first under 4 - 2: 3 of 4, medium. 1 1 0 1: medium.
 * 3 0 1 0: median 0: warm-up. 1 0 3 0: median 0 but the first is not the most:
 * none. 0 2 9 2: median 2, tolerance 1: 2 of 4 is not most: none.
 */
static void test_iter_rules(void **state)
{
	static const uint64_t a[] = { 5, 3, 2, 4 }, b[] = { 1, 4, 4, 4 }, d[] = { 1, 1, 0, 1 },
		w[] = { 3, 0, 1, 0 }, n[] = { 1, 0, 3, 0 }, x[] = { 0, 2, 9, 2 };
	struct kma_leak_rules r = exp_rules();
	struct kma_caller c;
	struct kma_leak l;

	c = exp_caller(a);
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.confidence, "high");
	c = exp_caller(b);
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_SUSPECT);
	assert_string_equal(l.confidence, "medium");
	c = exp_caller(d);
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.confidence, "medium");
	assert_non_null(strstr(l.why, "(3 of 4 within 1 +- 0)"));
	c = exp_caller(w);
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_WARMUP);
	assert_false(l.suspect);
	assert_non_null(strstr(l.why, "left 3, 0, 1, 0 live objects: only the first grew (warm-up)"));
	c = exp_caller(n);
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_NONE);
	c = exp_caller(x);
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_NONE);
	assert_non_null(strstr(l.why, "not about as many in most iterations (2 of 4 within 2 +- 1)"));
}

/* The reclaim freed 6 of 8: reclaimable; 1 of 9: a suspect still, not high. */
static void test_reclaim(void **state)
{
	static const uint64_t v[] = { 2, 2, 2, 2 };
	struct kma_caller c = exp_caller(v);
	struct kma_leak_rules r = exp_rules();
	struct kma_leak l;

	c.reclaim_live = 8;
	c.reclaim_freed = 6;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_RECLAIMABLE);
	assert_string_equal(l.confidence, "none");
	assert_non_null(strstr(l.why, "the reclaim freed 6 of its 8 objects live at the reclaim "
				      "marker"));
	c.reclaim_live = 9;
	c.reclaim_freed = 4;	/* 4 * 2 < 9 */
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_SUSPECT);
	assert_string_equal(l.confidence, "medium");
	/* a dentry row with a reclaim phase: the name list is not asked */
	c.reclaim_freed = 0;
	c.cache = "dentry";
	r.phases.iters = 0;
	c.nr_iters = 0;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_SUSPECT);
}

/* 3 of 4 live objects the recorder's: recorder; 2 of 4: not (half is not most). */
static void test_recorder(void **state)
{
	static const uint64_t v[] = { 1, 1, 1, 1 };
	struct kma_caller c = exp_caller(v);
	struct kma_leak_rules r = exp_rules();
	struct kma_leak l;

	c.self_live = 3;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_RECORDER);
	assert_false(l.suspect);
	assert_non_null(strstr(l.why, "3 of its 4 live objects are the recorder's own"));
	c.self_live = 2;
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_SUSPECT);
	/* the same without iterations: the recorder before any growth rule */
	c.self_live = 4;
	c.nr_iters = 0;
	r = rules(5);
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_RECORDER);
	assert_true(kma_leak_recorder_frames("entry_SYSCALL_64;tracing_buffers_splice_read;x"));
	assert_true(kma_leak_recorder_frames("ring_buffer_read_page+0x10/0x40"));
	assert_false(kma_leak_recorder_frames("entry_SYSCALL_64;do_splice;pipe_write"));
}

/* A stack row matches the name list by any of its frames (6.18's extent cache). */
static void test_stack_growth(void **state)
{
	struct kma_caller c = leaky();
	struct kma_leak_rules r = rules(5);
	struct kma_leak l;

	c.name = "entry_SYSCALL_64;ext4_map_blocks;__es_insert_extent;kmem_cache_alloc_noprof";
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_CACHE_GROWTH);
	assert_non_null(strstr(l.why, "function '__es_insert_extent' matches '__es_insert_extent'"));
	c.name = "entry_SYSCALL_64;do_read;__filemap_get_folio_mpol;alloc_pages_noprof";
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_CACHE_GROWTH);
	c.name = "x+0x1";
	c.cache = "extent_status";
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.class, KMA_LEAK_CACHE_GROWTH);
}

/* The kernel's count of the cache says it did not grow: one level less, in words. */
static int kernel_120(void *ctx, const char *cache, int64_t *kernel, int64_t *trace)
{
	(void)ctx;
	if (strcmp(cache, "maple_node") && strcmp(cache, "agree"))
		return -1;
	*kernel = strcmp(cache, "agree") ? 120 : 200;	/* 200 * 2 >= 393: agrees */
	*trace = 393;
	return 0;
}

static void test_kernel_count(void **state)
{
	static const uint64_t v[] = { 100, 98, 97, 98 };
	struct kma_caller c = exp_caller(v);
	struct kma_leak_rules r = exp_rules();
	struct kma_leak l;

	c.cache = "maple_node";
	r.kernel_growth = kernel_120;
	kma_leak_assess(&c, &r, &l);	/* +393 by the trace, +120 by the kernel */
	assert_string_equal(l.confidence, "medium");
	assert_non_null(strstr(l.why, "the kernel counts +120 maple_node objects over the trace, "
				      "the trace +393: objects leave through untraced frees"));
	c.cache = "other";	/* no count of it: nothing said */
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.confidence, "high");
	c.cache = "agree";
	kma_leak_assess(&c, &r, &l);
	assert_string_equal(l.confidence, "high");
	assert_null(strstr(l.why, "kernel"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_net),
		cmocka_unit_test(test_suspect),
		cmocka_unit_test(test_too_few),
		cmocka_unit_test(test_frees),
		cmocka_unit_test(test_confidence),
		cmocka_unit_test(test_cache_growth),
		cmocka_unit_test(test_tail),
		cmocka_unit_test(test_growth_match),
		cmocka_unit_test(test_growth_parse),
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_iter_high),
		cmocka_unit_test(test_iter_rules),
		cmocka_unit_test(test_reclaim),
		cmocka_unit_test(test_recorder),
		cmocka_unit_test(test_stack_growth),
		cmocka_unit_test(test_kernel_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
