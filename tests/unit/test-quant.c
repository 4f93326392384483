// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/kma-quant: exact values under the budget, the switch to
 * buckets past it (rows with at most KMA_QUANT_SMALL values stay exact), and
 * bucketed percentiles against the exact nearest rank of the same values,
 * computed here by sorting them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kma-quant.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The nearest-rank percentile of n sorted values, by its definition. */
static uint64_t exact_pct(const uint64_t *v, uint64_t n, unsigned int p)
{
	uint64_t rank = (n * p + 99) / 100;

	return v[rank ? rank - 1 : 0];
}

/* Under the budget: the exact nearest rank; no buckets. */
static void test_exact(void **state)
{
	struct kma_quant_budget b = { .max = 100 };
	struct kma_quant q = { 0 };
	uint64_t i;

	(void)state;
	assert_int_equal(kma_quant_pct(&q, 50), 0);	/* no values */
	for (i = 10; i >= 1; i--)		/* 10, 9, ..., 1 */
		assert_int_equal(kma_quant_add(&q, i * 1000003, &b), 0);
	assert_true(kma_quant_exact(&q));
	assert_int_equal(b.exact, 10);
	assert_int_equal(kma_quant_pct(&q, 50), 5 * 1000003);	/* ceil(5) = 5th */
	assert_int_equal(kma_quant_pct(&q, 99), 10 * 1000003);	/* ceil(9.9) = 10th */
	assert_int_equal(kma_quant_pct(&q, 0), 1000003);	/* rank 0: the first */
	assert_int_equal(q.min, 1000003);
	assert_int_equal(q.max, 10 * 1000003);
	kma_quant_free(&q);
}

/* The value that takes the budget over says so; settle buckets the big rows only. */
static void test_switch(void **state)
{
	struct kma_quant_budget b = { .max = KMA_QUANT_SMALL + 10 };
	struct kma_quant big = { 0 }, small = { 0 };
	uint64_t i;

	(void)state;
	for (i = 0; i < 5; i++)
		assert_int_equal(kma_quant_add(&small, 5000 + i, &b), 0);
	for (i = 0; i < KMA_QUANT_SMALL + 5; i++)
		assert_int_equal(kma_quant_add(&big, 2000 + i, &b), 0);
	assert_int_equal(b.exact, KMA_QUANT_SMALL + 10);
	assert_false(b.over);
	/* one more: over; big (now KMA_QUANT_SMALL + 6 values) goes to buckets at once */
	assert_int_equal(kma_quant_add(&big, 9999, &b), 1);
	assert_true(b.over);
	assert_false(kma_quant_exact(&big));
	assert_int_equal(kma_quant_settle(&small, &b), 0);
	assert_true(kma_quant_exact(&small));	/* 5 values: stays exact */
	assert_int_equal(b.exact, 5);
	assert_int_equal(kma_quant_pct(&small, 50), 5002);
	/* small grows past KMA_QUANT_SMALL: it goes to buckets on the value that does it */
	for (i = 5; i < KMA_QUANT_SMALL; i++)
		assert_int_equal(kma_quant_add(&small, 5000 + i, &b), 0);
	assert_true(kma_quant_exact(&small));
	assert_int_equal(kma_quant_add(&small, 7, &b), 0);
	assert_false(kma_quant_exact(&small));
	assert_int_equal(b.exact, 0);
	assert_int_equal(kma_quant_pct(&small, 0), 7);	/* the first; under KMA_QUANT_LINEAR: exact */
	assert_int_equal(small.n, KMA_QUANT_SMALL + 1);
	kma_quant_free(&big);
	kma_quant_free(&small);
}

/*
 * Bucketed percentiles of values spread over 1 ns .. 2^63 ns, many ranks:
 * within KMA_QUANT_ERR_PCT of the exact value, never outside min .. max.
 */
static void test_error_bound(void **state)
{
	enum { N = 200000 };
	struct kma_quant_budget b = { .max = 1 };
	struct kma_quant q = { 0 };
	uint64_t *v = malloc(N * sizeof(*v)), x = 88172645463325252ULL, e, got;
	unsigned int p, i;

	(void)state;
	assert_non_null(v);
	for (i = 0; i < N; i++) {
		x ^= x << 13;	/* xorshift64 */
		x ^= x >> 7;
		x ^= x << 17;
		v[i] = (x >> (x % 63)) >> 1;	/* every order of magnitude */
		assert_true(kma_quant_add(&q, v[i], &b) >= 0);
	}
	assert_false(kma_quant_exact(&q));
	qsort(v, N, sizeof(*v), cmp_u64);
	for (p = 0; p <= 100; p++) {
		e = exact_pct(v, N, p);
		got = kma_quant_pct(&q, p);
		assert_true(got >= v[0] && got <= v[N - 1]);
		/* |got - e| <= 1 % of e (in long double: e reaches 2^63) */
		assert_true(100.0L * (got > e ? got - e : e - got) <= (long double)e);
		if (e < KMA_QUANT_LINEAR)
			assert_int_equal(got, e);
	}
	kma_quant_free(&q);
	free(v);
}

/* Lifetimes near the bucket edges: every value 1 .. 200000 once. */
static void test_dense(void **state)
{
	enum { N = 200000 };
	struct kma_quant_budget b = { .max = 1 };
	struct kma_quant q = { 0 };
	uint64_t i, e, got;
	unsigned int p;

	(void)state;
	for (i = N; i >= 1; i--)
		assert_true(kma_quant_add(&q, i, &b) >= 0);
	for (p = 1; p <= 100; p++) {
		e = (N * p + 99) / 100;		/* the value of rank e is e */
		got = kma_quant_pct(&q, p);
		assert_true(100 * (got > e ? got - e : e - got) <= e);
	}
	kma_quant_free(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_switch),
		cmocka_unit_test(test_error_bound),
		cmocka_unit_test(test_dense),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
