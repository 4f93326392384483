// SPDX-License-Identifier: GPL-2.0
/*
 * kma-table: CSV quoting (RFC 4180) and JSON escaping, on hand-written cells.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kma-table.h"

static char *render(enum kma_fmt fmt)
{
	struct kma_table *t = kma_table_alloc();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(t);
	assert_non_null(f);
	assert_int_equal(kma_table_col(t, "name", 0), 0);
	assert_int_equal(kma_table_col(t, "bytes", 1), 0);
	assert_int_equal(kma_table_str(t, "a,b \"q\""), 0);
	assert_int_equal(kma_table_u64(t, 18446744073709551615ULL), 0);
	assert_int_equal(kma_table_str(t, "tab\there\\"), 0);
	assert_int_equal(kma_table_null(t), 0);
	assert_int_equal(kma_table_print(f, t, fmt), 0);
	fclose(f);
	kma_table_free(t);
	return buf;
}

static void test_csv(void **state)
{
	char *s = render(KMA_FMT_CSV);

	assert_string_equal(s, "name,bytes\n\"a,b \"\"q\"\"\",18446744073709551615\n"
			       "tab\there\\,\n");
	free(s);
}

static void test_json(void **state)
{
	char *s = render(KMA_FMT_JSON);

	assert_string_equal(s, "[\n  {\"name\": \"a,b \\\"q\\\"\", \"bytes\": 18446744073709551615},\n"
			       "  {\"name\": \"tab\\u0009here\\\\\", \"bytes\": null}\n]");
	free(s);
}

static void test_text(void **state)
{
	char *s = render(KMA_FMT_TEXT);

	/* name column: 9 wide ("tab\there\\"), bytes: 20 wide, two spaces between */
	assert_string_equal(s, "name" "     " "  " "               " "bytes\n"
			       "a,b \"q\"" "  " "  " "18446744073709551615\n"
			       "tab\there\\" "  " "                   " "-\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
