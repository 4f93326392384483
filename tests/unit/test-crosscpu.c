// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the cross-CPU counts and the CPU -> node map parser
 * (match/kma-crosscpu.c) on hand-built allocation rows. Every expected number
 * is worked out by hand in the comment next to it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "match/kma-crosscpu.h"

static void add(struct kma_cross *x, uint32_t caller, int acpu, int fkind, int fcpu, int node,
		int selected)
{
	struct kma_alloc_row r = { .caller_id = caller, .alloc_cpu = acpu, .free_kind = fkind,
				   .free_cpu = fcpu, .node = node, .selected = selected };

	assert_int_equal(kma_cross_add(x, &r), 0);
}

static const struct kma_cross_row *find(const struct kma_cross *x, uint32_t caller)
{
	size_t n, i;
	const struct kma_cross_row *r = kma_cross_rows(x, &n);

	assert_non_null(r);
	for (i = 0; i < n; i++)
		if (r[i].caller_id == caller)
			return &r[i];
	return NULL;
}

/*
 * Caller 0: kfree CPU 0 -> 1 (cross), kmem_cache_free 1 -> 1, implicit free 0 -> 1
 * (no traced free), live: allocs 4, frees 2, cross 1. Caller 2: one row out of the
 * filter, one kfree 3 -> 2: allocs 1, frees 1, cross 1. Caller 1 has nothing.
 */
static void test_frees(void **state)
{
	struct kma_cross *x = kma_cross_alloc();
	const struct kma_cross_row *r;
	size_t n;

	(void)state;
	assert_non_null(x);
	add(x, 0, 0, KMA_EV_KFREE, 1, -1, 1);
	add(x, 0, 1, KMA_EV_CACHE_FREE, 1, -1, 1);
	add(x, 0, 0, KMA_FREE_IMPLICIT, 1, -1, 1);
	add(x, 0, 2, -1, -1, -1, 1);
	add(x, 2, 0, KMA_EV_KFREE, 1, -1, 0);
	add(x, 2, 3, KMA_EV_KFREE, 2, -1, 1);
	kma_cross_finish(x, NULL, 0);
	assert_non_null(kma_cross_rows(x, &n));
	assert_int_equal(n, 2);
	r = find(x, 0);
	assert_non_null(r);
	assert_int_equal(r->allocs, 4);
	assert_int_equal(r->frees, 2);
	assert_int_equal(r->cross_frees, 1);
	assert_int_equal(r->node_allocs, 0);
	r = find(x, 2);
	assert_non_null(r);
	assert_int_equal(r->allocs, 1);
	assert_int_equal(r->cross_frees, 1);
	assert_null(find(x, 1));
	kma_cross_free(x);
}

/*
 * Map CPUs 0-1 node 0, 2-3 node 1, CPU 4 not named. Caller 0: node 0 from CPU 0
 * (twice, not cross), node 0 from CPU 2 (cross), node 1 from CPU 1 (cross), node 1
 * from CPU 4 (unmapped), node -1 from CPU 3 (no request): node_allocs 5, cross 2,
 * unmapped 1. Without a map the node columns but node_allocs stay 0.
 */
static void test_nodes(void **state)
{
	struct kma_cross *x = kma_cross_alloc(), *y = kma_cross_alloc();
	static const int map[] = { 0, 0, 1, 1 };
	const struct kma_cross_row *r;

	(void)state;
	assert_non_null(x);
	assert_non_null(y);
	for (int i = 0; i < 2; i++) {
		struct kma_cross *z = i ? y : x;

		add(z, 0, 0, -1, -1, 0, 1);
		add(z, 0, 0, -1, -1, 0, 1);
		add(z, 0, 2, -1, -1, 0, 1);
		add(z, 0, 1, -1, -1, 1, 1);
		add(z, 0, 4, -1, -1, 1, 1);
		add(z, 0, 3, -1, -1, -1, 1);
	}
	kma_cross_finish(x, map, 4);
	r = find(x, 0);
	assert_int_equal(r->allocs, 6);
	assert_int_equal(r->node_allocs, 5);
	assert_int_equal(r->cross_node, 2);
	assert_int_equal(r->unmapped, 1);
	kma_cross_finish(y, NULL, 0);
	r = find(y, 0);
	assert_int_equal(r->node_allocs, 5);
	assert_int_equal(r->cross_node, 0);
	assert_int_equal(r->unmapped, 0);
	kma_cross_free(x);
	kma_cross_free(y);
}

static void test_parse(void **state)
{
	int *m, nr;

	(void)state;
	/* option form: 0-1=0,4-5=1 leaves CPUs 2-3 out */
	assert_int_equal(kma_cpu_nodes_parse("0-1=0,4-5=1", 0, &m, &nr), 0);
	assert_int_equal(nr, 6);
	assert_int_equal(m[0], 0);
	assert_int_equal(m[1], 0);
	assert_int_equal(m[2], -1);
	assert_int_equal(m[3], -1);
	assert_int_equal(m[4], 1);
	assert_int_equal(m[5], 1);
	free(m);
	/* the marker form, with kernel cpulists (0-1,4 on node 0) and a trailing "; " */
	assert_int_equal(kma_cpu_nodes_parse(" cpu 0-1,4 node 0; cpu 2-3 node 1; ", 1, &m,
					     &nr), 0);
	assert_int_equal(nr, 5);
	assert_int_equal(m[4], 0);
	assert_int_equal(m[3], 1);
	free(m);
	/* a one-node machine */
	assert_int_equal(kma_cpu_nodes_parse("cpu 0 node 0", 1, &m, &nr), 0);
	assert_int_equal(nr, 1);
	free(m);
	/* bad: a range backwards, no node, trailing garbage, a huge CPU, the other form */
	assert_int_equal(kma_cpu_nodes_parse("3-1=0", 0, &m, &nr), -1);
	assert_null(m);
	assert_int_equal(kma_cpu_nodes_parse("0-3", 0, &m, &nr), -1);
	assert_int_equal(kma_cpu_nodes_parse("0-3=0x", 0, &m, &nr), -1);
	assert_int_equal(kma_cpu_nodes_parse("99999=0", 0, &m, &nr), -1);
	assert_int_equal(kma_cpu_nodes_parse("cpu 0-3 node 0", 0, &m, &nr), -1);
	assert_int_equal(kma_cpu_nodes_parse("0-3=0", 1, &m, &nr), -1);
	assert_int_equal(kma_cpu_nodes_parse("", 0, &m, &nr), -1);
	assert_int_equal(nr, 0);
	/* --cpu-nodes wins over the marker; a marker not understood is no map */
	assert_string_equal(kma_cross_map("0=1", "cpu 0 node 0", &m, &nr), "--cpu-nodes");
	assert_int_equal(m[0], 1);
	free(m);
	assert_string_equal(kma_cross_map(NULL, " cpu 0 node 0", &m, &nr), "the trace");
	assert_int_equal(m[0], 0);
	free(m);
	assert_null(kma_cross_map(NULL, "cpu 0 on node 0", &m, &nr));
	assert_null(m);
	assert_null(kma_cross_map(NULL, NULL, &m, &nr));
	assert_null(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frees),
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
