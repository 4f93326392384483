// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/kma-huge: a big table is zeroed, aligned to a huge page
 * (outside the sanitizer builds, where it is calloc's), keeps its bytes when
 * grown from malloc'd to mapped and from mapped to a bigger mapping (its pages
 * moved by mremap), and the grown part reads as zeros.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kma-huge.h"

#define MB	(1u << 20)

static void fill(unsigned char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 31 + seed);
}

static int same(const unsigned char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != (unsigned char)(i * 31 + seed))
			return 0;
	return 1;
}

static int zero(const unsigned char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return 0;
	return 1;
}

static void test_big(void **state)
{
	unsigned char *p = kma_huge_alloc(3 * MB + 123);

	(void)state;
	assert_non_null(p);
	assert_true(zero(p, 3 * MB + 123));
#if !defined(__SANITIZE_ADDRESS__)
	assert_int_equal((uintptr_t)p % KMA_HUGE_MIN, 0);
#endif
	fill(p, 3 * MB + 123, 1);
	assert_true(same(p, 3 * MB + 123, 1));
	kma_huge_free(p, 3 * MB + 123);
	p = kma_huge_alloc(4096);	/* small: calloc's */
	assert_non_null(p);
	assert_true(zero(p, 4096));
	kma_huge_free(p, 4096);
	kma_huge_free(NULL, 5 * MB);
}

static void test_grow(void **state)
{
	size_t len = 100000, next;
	unsigned char *p = NULL, *q;

	(void)state;
	p = kma_huge_realloc(NULL, 0, len);
	assert_non_null(p);
	assert_true(zero(p, len));
	fill(p, len, 7);
	/* doubling from 100 KB to 25.6 MB: malloc'd, then mapped, then moved */
	for (next = 2 * len; next <= 26 * MB; len = next, next *= 2) {
		q = kma_huge_realloc(p, len, next);
		assert_non_null(q);
		assert_true(same(q, len, 7));
		assert_true(zero(q + len, next - len));
		fill(q, next, 7);
		p = q;
	}
	/* within the same huge pages: the same block (a mapping of its own) */
	q = kma_huge_realloc(p, len, len + 100);
	assert_non_null(q);
#if !defined(__SANITIZE_ADDRESS__)
	assert_ptr_equal(q, p);
#endif
	assert_true(same(q, len, 7));
	kma_huge_free(q, len + 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_big),
		cmocka_unit_test(test_grow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
