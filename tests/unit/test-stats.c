// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/kma-stats: the comparator, the median of odd and even
 * counts (the mean of the middle two rounded down, without overflow), the
 * nearest rank at 0, 50, 99 and 100 percent, and the growth streak's edges.
 * Every expected value is worked out by hand in the comment beside it; the
 * median without sorting is checked against the sorted median as well.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kma-stats.h"

static void test_cmp(void **state)
{
	uint64_t v[] = { 5, UINT64_MAX, 0, 5, 1ULL << 63, 2 };
	uint64_t a = 1, b = UINT64_MAX;

	(void)state;
	/* a subtraction-based comparator would get these wrong: the sign of 1 - max */
	assert_true(kma_cmp_u64(&a, &b) < 0);
	assert_true(kma_cmp_u64(&b, &a) > 0);
	assert_int_equal(kma_cmp_u64(&a, &a), 0);
	qsort(v, 6, sizeof(*v), kma_cmp_u64);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[1], 2);
	assert_int_equal(v[2], 5);
	assert_int_equal(v[3], 5);
	assert_true(v[4] == 1ULL << 63);
	assert_true(v[5] == UINT64_MAX);
}

static void test_median(void **state)
{
	const uint64_t odd[] = { 1, 4, 9 };
	const uint64_t even[] = { 1, 4, 9, 100 };
	const uint64_t two[] = { 3, 4 };
	const uint64_t big[] = { UINT64_MAX - 1, UINT64_MAX };

	(void)state;
	assert_int_equal(kma_median(odd, 0), 0);	/* no values */
	assert_int_equal(kma_median(odd, 1), 1);	/* one: itself */
	assert_int_equal(kma_median(odd, 3), 4);	/* the middle one */
	assert_int_equal(kma_median(even, 4), 6);	/* (4 + 9) / 2 = 6.5, rounded down */
	assert_int_equal(kma_median(two, 2), 3);	/* (3 + 4) / 2 = 3.5 -> 3 */
	/* (max - 1 + max) / 2 = max - 0.5 -> max - 1: no overflow of the sum */
	assert_true(kma_median(big, 2) == UINT64_MAX - 1);
}

/*
 * kma_median_unsorted against sorting: hand-worked cases first, then
 * shuffled, sorted, reversed, all-equal and few-distinct arrays of every
 * length to 300 and a few big ones, each compared with kma_median of a sorted
 * copy (qsort: an independent route to the same order statistic).
 */
static void check_unsorted(const uint64_t *v, uint64_t n)
{
	uint64_t *a = malloc((n ? n : 1) * sizeof(*a)), *s = malloc((n ? n : 1) * sizeof(*s));
	uint64_t lo = 7, hi = 7, i;

	assert_non_null(a);
	assert_non_null(s);
	for (i = 0; i < n; i++)
		a[i] = s[i] = v[i];
	qsort(s, n, sizeof(*s), kma_cmp_u64);
	assert_true(kma_median_unsorted(a, n, &lo, &hi) == kma_median(s, n));
	if (n) {
		assert_true(lo == s[0]);
		assert_true(hi == s[n - 1]);
	}
	/* the same values, reordered */
	qsort(a, n, sizeof(*a), kma_cmp_u64);
	for (i = 0; i < n; i++)
		assert_true(a[i] == s[i]);
	free(a);
	free(s);
}

static void test_median_unsorted(void **state)
{
	const uint64_t hand[] = { 9, 1, 100, 4 };	/* sorted 1 4 9 100: (4 + 9) / 2 = 6 */
	const uint64_t big[] = { UINT64_MAX, UINT64_MAX - 1 };
	uint64_t tmp[4], lo = 0, hi = 0, *v;
	unsigned int seed = 12345;
	uint64_t n, i, kind;

	(void)state;
	assert_true(kma_median_unsorted(tmp, 0, &lo, &hi) == 0);
	for (i = 0; i < 4; i++)
		tmp[i] = hand[i];
	assert_true(kma_median_unsorted(tmp, 4, &lo, &hi) == 6);
	assert_true(lo == 1 && hi == 100);
	for (i = 0; i < 2; i++)
		tmp[i] = big[i];
	assert_true(kma_median_unsorted(tmp, 2, &lo, &hi) == UINT64_MAX - 1);
	v = malloc(200000 * sizeof(*v));
	assert_non_null(v);
	for (kind = 0; kind < 5; kind++) {
		for (n = 0; n <= 300; n++) {
			for (i = 0; i < n; i++) {
				uint64_t r = (uint64_t)rand_r(&seed) << 31 | (uint64_t)rand_r(&seed);

				v[i] = kind == 0 ? r : kind == 1 ? i : kind == 2 ? n - i :
				       kind == 3 ? 42 : r % 3;
			}
			check_unsorted(v, n);
		}
		for (n = 199999; n <= 200000; n++) {
			for (i = 0; i < n; i++)
				v[i] = kind == 0 ? (uint64_t)rand_r(&seed) : kind == 1 ? i :
				       kind == 2 ? n - i : kind == 3 ? 42 : (uint64_t)rand_r(&seed) % 3;
			check_unsorted(v, n);
		}
	}
	free(v);
}

static void test_pct(void **state)
{
	uint64_t v[200];
	int i;

	(void)state;
	for (i = 0; i < 200; i++)
		v[i] = 10 * (i + 1);		/* the value of rank r is 10 r */
	assert_int_equal(kma_pct_rank(10, 0), 1);	/* rank 0: the first */
	assert_int_equal(kma_pct_rank(10, 50), 5);	/* ceil(5) */
	assert_int_equal(kma_pct_rank(10, 99), 10);	/* ceil(9.9) */
	assert_int_equal(kma_pct_rank(10, 100), 10);
	assert_int_equal(kma_pct_rank(7, 50), 4);	/* ceil(3.5) */
	assert_int_equal(kma_pct_rank(200, 99), 198);	/* exactly 198 */
	assert_int_equal(kma_pct_rank(201, 99), 199);	/* ceil(198.99) */
	assert_int_equal(kma_pct_rank(1, 0), 1);
	assert_int_equal(kma_pct_rank(1, 99), 1);
	assert_int_equal(kma_pct_sorted(v, 0, 50), 0);	/* no values */
	assert_int_equal(kma_pct_sorted(v, 10, 0), 10);
	assert_int_equal(kma_pct_sorted(v, 10, 50), 50);
	assert_int_equal(kma_pct_sorted(v, 10, 99), 100);
	assert_int_equal(kma_pct_sorted(v, 10, 100), 100);
	assert_int_equal(kma_pct_sorted(v, 7, 50), 40);
	assert_int_equal(kma_pct_sorted(v, 200, 99), 1980);
	assert_int_equal(kma_pct_sorted(v, 200, 100), 2000);
	assert_int_equal(kma_pct_sorted(v, 1, 99), 10);
}

struct streak {
	uint64_t snap;
	uint32_t grew, run, max_run;
};

static void end_gen(struct streak *s, uint64_t now)
{
	kma_streak_end(now, &s->snap, &s->grew, &s->run, &s->max_run);
}

static void test_streak(void **state)
{
	struct streak s = { 0 };

	(void)state;
	end_gen(&s, 0);			/* 0 -> 0: equal is not growth */
	assert_int_equal(s.grew, 0);
	assert_int_equal(s.run, 0);
	end_gen(&s, 5);			/* 0 -> 5: grew, run 1 */
	end_gen(&s, 6);			/* 5 -> 6: run 2 */
	assert_int_equal(s.grew, 2);
	assert_int_equal(s.run, 2);
	assert_int_equal(s.max_run, 2);
	end_gen(&s, 6);			/* 6 -> 6: the run ends, the longest stays */
	assert_int_equal(s.run, 0);
	assert_int_equal(s.max_run, 2);
	end_gen(&s, 3);			/* 6 -> 3: fell */
	end_gen(&s, 4);			/* 3 -> 4: grew again, run 1 (not above the old peak) */
	assert_int_equal(s.grew, 3);
	assert_int_equal(s.run, 1);
	assert_int_equal(s.max_run, 2);
	assert_int_equal(s.snap, 4);
	end_gen(&s, 7);			/* run 2: ties the longest */
	assert_int_equal(s.max_run, 2);
	end_gen(&s, UINT64_MAX);	/* run 3: a new longest */
	assert_int_equal(s.grew, 5);
	assert_int_equal(s.run, 3);
	assert_int_equal(s.max_run, 3);
	assert_true(s.snap == UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmp),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_median_unsorted),
		cmocka_unit_test(test_pct),
		cmocka_unit_test(test_streak),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
