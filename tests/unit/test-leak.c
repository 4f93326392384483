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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
