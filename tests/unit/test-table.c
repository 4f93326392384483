// SPDX-License-Identifier: GPL-2.0
/*
 * kma-table: CSV quoting (RFC 4180) and JSON escaping, on hand-written cells;
 * report tables (columns from a spec, durations, timestamps, the JSON wrapper);
 * the escapers of trace names (UTF-8 checking, Latin-1 for ill-formed bytes).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/kma-table.h"

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

	/* name column: 12 wide ("tab\\x09here\\": the tab shown as \x09), bytes: 20
	 * wide, two spaces between */
	assert_string_equal(s, "name" "        " "  " "               " "bytes\n"
			       "a,b \"q\"" "     " "  " "18446744073709551615\n"
			       "tab\\x09here\\" "  " "                   " "-\n");
	free(s);
}

/* A report table: columns from a spec, durations and timestamps, kma_table_finish(). */
static char *render_report(enum kma_fmt fmt, const char *head)
{
	struct kma_table *t = kma_table_new("at:t took:t who:s");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(t);
	assert_non_null(f);
	assert_int_equal(kma_table_ts(t, fmt, 1234567890ULL), 0);
	assert_int_equal(kma_table_dur(t, fmt, 1500000ULL), 0);
	assert_int_equal(kma_table_str(t, "x"), 0);
	assert_int_equal(kma_table_finish(f, t, fmt, "demo", head, 0), 0);
	fclose(f);
	return buf;
}

static void test_report_table(void **state)
{
	char *s = render_report(KMA_FMT_JSON, "\"n\": 1");

	/* integer nanoseconds where a program reads them, the unit in the name */
	assert_string_equal(s, "{\"report\": \"demo\", \"n\": 1, \"rows\": [\n"
			       "  {\"at_ns\": 1234567890, \"took_ns\": 1500000, \"who\": \"x\"}\n]}\n");
	free(s);
	s = render_report(KMA_FMT_JSON, NULL);
	assert_string_equal(s, "{\"report\": \"demo\", \"rows\": [\n"
			       "  {\"at_ns\": 1234567890, \"took_ns\": 1500000, \"who\": \"x\"}\n]}\n");
	free(s);
	s = render_report(KMA_FMT_CSV, NULL);
	assert_string_equal(s, "at_ns,took_ns,who\n1234567890,1500000,x\n");
	free(s);
	/* seconds with their unit where a person reads them (one unit for every time:
	 * 1234567890 ns = 1.234567 s to the microsecond, 1.5 ms = 0.001500 s) */
	s = render_report(KMA_FMT_TEXT, NULL);
	assert_string_equal(s, "       at       took  who\n1.234568s  0.001500s  x\n");
	free(s);
}

static void test_report_table_error(void **state)
{
	struct kma_table *t = kma_table_new("a:n");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(t);
	assert_non_null(f);
	/* a failed cell: nothing printed, the table freed all the same */
	assert_int_equal(kma_table_finish(f, t, KMA_FMT_JSON, "demo", NULL, -1), -1);
	assert_int_equal(kma_table_finish(f, NULL, KMA_FMT_JSON, "demo", NULL, 0), -1);
	fclose(f);
	assert_string_equal(buf, "");
	free(buf);
}

/* One escaper applied to s, as a string. */
static char *esc(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, s);
	fclose(f);
	return buf;
}

#define assert_esc(fn, in, want) do {			\
	char *got_ = esc(fn, in);			\
	assert_string_equal(got_, want);		\
	free(got_);					\
} while (0)

/* Well-formed sequences by Unicode Table 3-7; everything else is 0. */
static void test_utf8_seq(void **state)
{
	static const struct { const char *s; size_t n; uint32_t cp; } cases[] = {
		{ "A", 1, 0x41 }, { "\x7f", 1, 0x7f },
		{ "\xc2\x80", 2, 0x80 }, { "\xc3\xa9", 2, 0xe9 }, { "\xdf\xbf", 2, 0x7ff },
		{ "\xe0\xa0\x80", 3, 0x800 }, { "\xe2\x82\xac", 3, 0x20ac },
		{ "\xed\x9f\xbf", 3, 0xd7ff }, { "\xee\x80\x80", 3, 0xe000 },
		{ "\xef\xbf\xbf", 3, 0xffff }, { "\xf0\x90\x80\x80", 4, 0x10000 },
		{ "\xf0\x9f\x98\x80", 4, 0x1f600 }, { "\xf4\x8f\xbf\xbf", 4, 0x10ffff },
		/* ill-formed: continuation bytes, overlong forms, surrogates, > U+10FFFF,
		 * bytes never used, truncated sequences */
		{ "\x80", 0, 0 }, { "\xbf", 0, 0 }, { "\xc0\xaf", 0, 0 }, { "\xc1\xbf", 0, 0 },
		{ "\xe0\x9f\xbf", 0, 0 }, { "\xed\xa0\x80", 0, 0 }, { "\xed\xbf\xbf", 0, 0 },
		{ "\xf0\x8f\xbf\xbf", 0, 0 }, { "\xf4\x90\x80\x80", 0, 0 },
		{ "\xf5\x80\x80\x80", 0, 0 }, { "\xff", 0, 0 }, { "\xfe", 0, 0 },
		{ "\xc3", 0, 0 }, { "\xe2\x82", 0, 0 }, { "\xe2\x82" "A", 0, 0 },
		{ "\xf0\x9f\x98", 0, 0 }, { "\xc3\xc3\xa9", 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t cp = 0xdeadbeef;
		size_t n = kma_utf8_seq(cases[i].s, &cp);

		if (n != cases[i].n || (n && cp != cases[i].cp))
			fail_msg("case %zu: length %zu cp %#x, want %zu %#x", i, n, cp,
				 cases[i].n, cases[i].cp);
	}
}

static void test_json_names(void **state)
{
	/* valid UTF-8 as it is */
	assert_esc(kma_json_str, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		   "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	/* each ill-formed byte is U+00NN */
	assert_esc(kma_json_str, "a\xe9" "b\xe2\x82", "\"a\\u00e9b\\u00e2\\u0082\"");
	assert_esc(kma_json_str, "\xc0\xaf\xed\xa0\x80\xff",
		   "\"\\u00c0\\u00af\\u00ed\\u00a0\\u0080\\u00ff\"");
	/* C0, DEL and C1 controls escaped; quote and backslash */
	assert_esc(kma_json_str, "\x1b[31m\"x\\\x7f\n\xc2\x9b",
		   "\"\\u001b[31m\\\"x\\\\\\u007f\\u000a\\u009b\"");
	assert_esc(kma_json_str, "", "\"\"");
}

static void test_csv_names(void **state)
{
	/* valid UTF-8 and controls but CR/LF as they are, unquoted */
	assert_esc(kma_csv_str, "caf\xc3\xa9\x1b\xc2\x9b", "caf\xc3\xa9\x1b\xc2\x9b");
	/* ill-formed bytes: the UTF-8 of U+00NN */
	assert_esc(kma_csv_str, "a\xe9" "b\x80\xff", "a\xc3\xa9" "b\xc2\x80\xc3\xbf");
	/* quoted for comma, quote, CR, LF; quotes doubled */
	assert_esc(kma_csv_str, "a,b", "\"a,b\"");
	assert_esc(kma_csv_str, "a\nb", "\"a\nb\"");
	assert_esc(kma_csv_str, "a\rb", "\"a\rb\"");
	assert_esc(kma_csv_str, "\xff\"", "\"\xc3\xbf\"\"\"");
}

static void test_text_names(void **state)
{
	assert_esc(kma_text_str, "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac");
	assert_esc(kma_text_str, "\x1b[2J\tx\x7f\n", "\\x1b[2J\\x09x\\x7f\\x0a");
	assert_esc(kma_text_str, "\xc2\x9b" "1m\xc2\xa0", "\\u009b1m\xc2\xa0");
	assert_esc(kma_text_str, "a\xe9" "b\xe2\x82", "a\\xe9b\\xe2\\x82");
	/* backslashes stay: the display form is for reading */
	assert_esc(kma_text_str, "a\\b", "a\\b");
	/* columns: one per code point, escapes as long as they print */
	assert_int_equal(kma_text_width("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), 8);
	assert_int_equal(kma_text_width("a\xe9" "b"), 6);
	assert_int_equal(kma_text_width("\x1b\xc2\x9b"), 10);
	assert_int_equal(kma_text_width(""), 0);
}

/* A table's text columns line up on the display form of UTF-8 and escapes. */
static void test_text_widths(void **state)
{
	struct kma_table *t = kma_table_alloc();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(t);
	assert_non_null(f);
	assert_int_equal(kma_table_col(t, "name", 0), 0);
	assert_int_equal(kma_table_col(t, "n", 1), 0);
	assert_int_equal(kma_table_col(t, "last", 0), 0);
	assert_int_equal(kma_table_str(t, "\xc3\xa9t\xc3\xa9"), 0);	/* 3 columns */
	assert_int_equal(kma_table_u64(t, 1), 0);
	assert_int_equal(kma_table_str(t, "\x1b"), 0);
	assert_int_equal(kma_table_str(t, "x\xff"), 0);		/* 5 columns */
	assert_int_equal(kma_table_u64(t, 22), 0);
	assert_int_equal(kma_table_str(t, "\xe2\x82\xac"), 0);
	assert_int_equal(kma_table_print(f, t, KMA_FMT_TEXT), 0);
	fclose(f);
	assert_string_equal(buf, "name    n  last\n"
				 "\xc3\xa9t\xc3\xa9     1  \\x1b\n"
				 "x\\xff  22  \xe2\x82\xac\n");
	free(buf);
	kma_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_report_table),
		cmocka_unit_test(test_report_table_error),
		cmocka_unit_test(test_utf8_seq),
		cmocka_unit_test(test_json_names),
		cmocka_unit_test(test_csv_names),
		cmocka_unit_test(test_text_names),
		cmocka_unit_test(test_text_widths),
	};

	return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
