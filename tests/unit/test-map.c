// SPDX-License-Identifier: GPL-2.0
/*
 * kma-map against a trivially correct reference (a direct-indexed array), with
 * random puts and deletes so that backward-shift deletion is exercised; its
 * walk and its clear.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kma-grow.h"
#include "kma-map.h"

#define KEYS 5000

static void test_random_ops(void **state)
{
	static uint32_t ref[KEYS];
	static uint8_t present[KEYS];
	struct kma_map map;
	uint64_t base = 0xffff888100000000ULL;
	size_t nr = 0;
	int i, k;

	srand(42);
	assert_int_equal(kma_map_init(&map, 4), 0);
	for (i = 0; i < 400000; i++) {
		k = rand() % KEYS;
		if (rand() % 3) {
			uint32_t v = (uint32_t)rand();

			assert_int_equal(kma_map_put(&map, base + (uint64_t)k * 64, v), 0);
			nr += !present[k];
			present[k] = 1;
			ref[k] = v;
		} else {
			assert_int_equal(kma_map_del(&map, base + (uint64_t)k * 64), present[k]);
			nr -= present[k];
			present[k] = 0;
		}
		if (i % 1000 == 0) {
			for (k = 0; k < KEYS; k++) {
				uint32_t *v = kma_map_find(&map, base + (uint64_t)k * 64);

				if (present[k]) {
					assert_non_null(v);
					assert_int_equal(*v, ref[k]);
				} else {
					assert_null(v);
				}
			}
			assert_int_equal(kma_map_count(&map), nr);
		}
	}
	kma_map_release(&map);
}

/* The walk visits every key once, with its value, whatever deletes came before. */
static void test_walk(void **state)
{
	static uint8_t seen[KEYS];
	uint64_t base = 0xffff888100000000ULL, key;
	struct kma_map map;
	size_t pos = 0, nr = 0;
	uint32_t val;
	int k;

	assert_int_equal(kma_map_init(&map, 0), 0);
	/* an empty map: nothing, and the position stays at the end */
	assert_int_equal(kma_map_next(&map, &pos, &key, &val), 0);
	assert_int_equal(kma_map_next(&map, &pos, NULL, NULL), 0);
	/* keys 0..KEYS-1 (growing the table many times), then every third deleted */
	for (k = 0; k < KEYS; k++)
		assert_int_equal(kma_map_put(&map, base + (uint64_t)k * 64, (uint32_t)k * 7), 0);
	for (k = 0; k < KEYS; k += 3)
		assert_int_equal(kma_map_del(&map, base + (uint64_t)k * 64), 1);
	memset(seen, 0, sizeof(seen));
	pos = 0;
	while (kma_map_next(&map, &pos, &key, &val)) {
		k = (int)((key - base) / 64);
		assert_true(k >= 0 && k < KEYS);
		assert_int_not_equal(k % 3, 0);
		assert_int_equal(seen[k], 0);
		assert_int_equal(val, (uint32_t)k * 7);
		seen[k] = 1;
		nr++;
	}
	/* KEYS = 5000: keys 0, 3, ..., 4998 are 1667 of them */
	assert_int_equal(nr, KEYS - 1667);
	assert_int_equal(kma_map_count(&map), nr);
	/* key and value are optional */
	pos = 0;
	nr = 0;
	while (kma_map_next(&map, &pos, NULL, NULL))
		nr++;
	assert_int_equal(nr, KEYS - 1667);
	kma_map_release(&map);
}

/* Two maps fed the same puts and deletes walk in the same order. */
static void test_walk_repeatable(void **state)
{
	struct kma_map a, b;
	size_t pa = 0, pb = 0;
	uint64_t ka, kb;
	int i;

	assert_int_equal(kma_map_init(&a, 4), 0);
	assert_int_equal(kma_map_init(&b, 4), 0);
	for (i = 0; i < 3000; i++) {
		uint64_t key = 0xffff888000000000ULL + (uint64_t)(i * 7919 % 1000) * 32;

		if (i % 4 == 3) {
			assert_int_equal(kma_map_del(&a, key), kma_map_del(&b, key));
		} else {
			assert_int_equal(kma_map_put(&a, key, (uint32_t)i), 0);
			assert_int_equal(kma_map_put(&b, key, (uint32_t)i), 0);
		}
	}
	while (kma_map_next(&a, &pa, &ka, NULL)) {
		assert_int_equal(kma_map_next(&b, &pb, &kb, NULL), 1);
		assert_int_equal(ka, kb);
	}
	assert_int_equal(kma_map_next(&b, &pb, &kb, NULL), 0);
	kma_map_release(&a);
	kma_map_release(&b);
}

/* A cleared map is empty and works as a new one. */
static void test_clear(void **state)
{
	struct kma_map map;
	size_t pos = 0;
	uint32_t *v;
	int k;

	assert_int_equal(kma_map_init(&map, 0), 0);
	for (k = 1; k <= 100; k++)
		assert_int_equal(kma_map_put(&map, (uint64_t)k << 6, (uint32_t)k), 0);
	kma_map_clear(&map);
	assert_int_equal(kma_map_count(&map), 0);
	assert_int_equal(kma_map_next(&map, &pos, NULL, NULL), 0);
	for (k = 1; k <= 100; k++)
		assert_null(kma_map_find(&map, (uint64_t)k << 6));
	assert_int_equal(kma_map_del(&map, 64), 0);
	assert_int_equal(kma_map_put(&map, 64, 5), 0);
	v = kma_map_find(&map, 64);
	assert_non_null(v);
	assert_int_equal(*v, 5);
	assert_int_equal(kma_map_count(&map), 1);
	kma_map_release(&map);
}

/* kma_grow: first size, doubling, contents kept, no-op with room, refusals. */
static void test_grow(void **state)
{
	uint32_t *a = NULL;
	size_t cap = 0, nr, i;

	for (nr = 0; nr < 100; nr++) {
		assert_int_equal(kma_grow(&a, &cap, nr, sizeof(*a), 4), 0);
		assert_true(nr < cap);
		a[nr] = (uint32_t)nr * 7;
	}
	assert_int_equal(cap, 128);	/* 4 -> 8 -> ... -> 128 */
	for (i = 0; i < nr; i++)
		assert_int_equal(a[i], i * 7);
	/* room left: nothing moves */
	{
		uint32_t *before = a;

		assert_int_equal(kma_grow(&a, &cap, 50, sizeof(*a), 4), 0);
		assert_ptr_equal(a, before);
		assert_int_equal(cap, 128);
	}
	/* a size that cannot be: -1, array and capacity as they were */
	{
		uint32_t *before = a;
		size_t big = SIZE_MAX / 2 + 1;

		assert_int_equal(kma_grow(&a, &big, big, sizeof(*a), 4), -1);
		assert_ptr_equal(a, before);
		assert_int_equal(big, SIZE_MAX / 2 + 1);
	}
	free(a);
	a = NULL;
	cap = 0;
	assert_int_equal(kma_grow(&a, &cap, 0, SIZE_MAX / 2, 4), -1);
	assert_null(a);
	assert_int_equal(cap, 0);
	(void)state;
}

/* kma_grow_zero: doubling up to an index that jumps, new slots zeroed, old kept. */
static void test_grow_zero(void **state)
{
	uint32_t *a = NULL, *before;
	size_t cap = 0, i, big;

	(void)state;
	assert_int_equal(kma_grow_zero(&a, &cap, 0, sizeof(*a), 4), 0);	/* nothing wanted */
	assert_null(a);
	assert_int_equal(kma_grow_zero(&a, &cap, 3, sizeof(*a), 4), 0);
	assert_int_equal(cap, 4);		/* the first size covers 3 */
	for (i = 0; i < 4; i++)
		assert_int_equal(a[i], 0);
	a[3] = 33;
	assert_int_equal(kma_grow_zero(&a, &cap, 20, sizeof(*a), 4), 0);
	assert_int_equal(cap, 32);		/* 4 -> 8 -> 16 -> 32 at once */
	assert_int_equal(a[3], 33);
	for (i = 4; i < 32; i++)
		assert_int_equal(a[i], 0);
	before = a;
	assert_int_equal(kma_grow_zero(&a, &cap, 32, sizeof(*a), 4), 0);	/* room: no move */
	assert_ptr_equal(a, before);
	assert_int_equal(cap, 32);
	big = SIZE_MAX / 2 + 1;			/* cannot double: -1, as it was */
	assert_int_equal(kma_grow_zero(&a, &cap, big + 1, sizeof(*a), 4), -1);
	assert_ptr_equal(a, before);
	assert_int_equal(cap, 32);
	free(a);
	a = NULL;
	cap = 0;			/* no first size: nothing to double, -1 */
	assert_int_equal(kma_grow_zero(&a, &cap, 1, sizeof(*a), 0), -1);
	assert_null(a);
	assert_int_equal(cap, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_ops),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_walk_repeatable),
		cmocka_unit_test(test_clear),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_grow_zero),
	};

	return cmocka_run_group_tests_name("map", tests, NULL, NULL);
}
