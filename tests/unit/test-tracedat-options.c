// SPDX-License-Identifier: GPL-2.0
/*
 * What the trace.dat checkers refuse before libtracecmd 1.3 reads it
 * (kma-tracedat.c): the options its handle_options() uses as C strings or
 * trusts indexes in (kma_td_option_data), and the trace_clock texts whose
 * first word starting with '[' holds brackets alone, on which its
 * tracecmd_parse_trace_clock() sscanf()s a NULL (kma_td_clock_ok). The
 * cases are read off libtracecmd 1.3.1's trace-input.c, not off kma.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "reader/kma-tracedat.h"

static int clock_ok(const char *s)
{
	return kma_td_clock_ok(s, strlen(s) + 1);
}

static void test_clock(void **state)
{
	(void)state;
	/* what kernels write, and words libtracecmd reads past */
	assert_int_equal(clock_ok("[local] global counter uptime perf mono mono_raw boot\n"), 0);
	assert_int_equal(clock_ok("local global [x86-tsc]"), 0);
	assert_int_equal(clock_ok("[local]"), 0);
	assert_int_equal(clock_ok("[]local"), 0);	/* strtok_r("[]local", "[]") is "local" */
	assert_int_equal(clock_ok("]["), 0);		/* no word starts with '[' */
	assert_int_equal(clock_ok(""), 0);
	assert_int_equal(clock_ok("   "), 0);
	assert_int_equal(clock_ok("[x] []"), 0);	/* only the first '[' word is read */
	/* a first '[' word of brackets alone: strtok_r() gives NULL */
	assert_int_equal(clock_ok("[]"), -1);
	assert_int_equal(clock_ok("["), -1);
	assert_int_equal(clock_ok("local []"), -1);
	assert_int_equal(clock_ok("[[]] global"), -1);
	assert_int_equal(clock_ok("[]\n"), 0);		/* '\n' is no separator: "\n" is the clock */
	/* the text ends at its NUL, or at its length */
	assert_int_equal(kma_td_clock_ok("[\0local]", 8), -1);
	assert_int_equal(kma_td_clock_ok("[local]", 1), -1);
}

static int opt(unsigned int id, const char *buf, size_t len)
{
	struct kma_td t = { 0 };
	uint64_t cpus = 0;

	return kma_td_option_data(&t, id, (const unsigned char *)buf, len, &cpus);
}

static void test_options(void **state)
{
	(void)state;
	/* strdup()ed or strtoll()ed: a NUL must end them */
	assert_int_equal(opt(KMA_TD_OPT_VERSION, "3.1.6", 6), 0);
	assert_int_equal(opt(KMA_TD_OPT_VERSION, "3.1.6", 5), -1);
	assert_int_equal(opt(KMA_TD_OPT_UNAME, "Linux vm", 8), -1);
	assert_int_equal(opt(KMA_TD_OPT_DATE, "0x1", 3), -1);
	assert_int_equal(opt(KMA_TD_OPT_TRACECLOCK, "[local] global", 15), 0);
	assert_int_equal(opt(KMA_TD_OPT_TRACECLOCK, "[local] global", 14), -1);
	assert_int_equal(opt(KMA_TD_OPT_TRACECLOCK, "[] global", 10), -1);
	/* a failed HOOK parse is dereferenced: none is taken */
	assert_int_equal(opt(KMA_TD_OPT_HOOK, "x", 2), -1);
	/* read as 4 bytes whatever the size */
	assert_int_equal(opt(KMA_TD_OPT_CPUCOUNT, "\2\0\0", 3), -1);
	assert_int_equal(opt(KMA_TD_OPT_CPUCOUNT, "\2\0\0\0", 4), 0);
	/* buf[size - 1] is written */
	assert_int_equal(opt(KMA_TD_OPT_CPUSTAT, "", 0), -1);
	/* options libtracecmd checks itself, or does not use as strings */
	assert_int_equal(opt(11, "ab", 2), 0);	/* TRACEID */
	assert_int_equal(opt(14, "ab", 2), 0);	/* TSC2NSEC */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
