// SPDX-License-Identifier: GPL-2.0
/*
 * kma-map against a trivially correct reference (a direct-indexed array), with
 * random puts and deletes so that backward-shift deletion is exercised.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

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
			assert_int_equal(map.nr, nr);
		}
	}
	kma_map_release(&map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_ops),
	};

	return cmocka_run_group_tests_name("map", tests, NULL, NULL);
}
