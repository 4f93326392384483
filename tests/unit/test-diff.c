// SPDX-License-Identifier: GPL-2.0
/*
 * kma-diff's core (match/kma-diffmatch.c) and output (report/kma-report-diff.c) on
 * hand-made tables: the join by key (new, gone, a key given twice summed), the
 * orders, --rate against hand-worked per-second numbers, the --fail-if grammar
 * and verdicts (percent of 0, the boundary), and the CSV/JSON/text cells.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "match/kma-diffmatch.h"
#include "report/kma-report-diff.h"

/*
 * base: a (twice: 100+50 total), b, gone; new: a, b, c (new).
 *   a: total 150 -> 300 (+150), net 60 -> 10 (-50), allocs 3 -> 4, frees 1 -> 3
 *   b: total 1000 -> 1000, net 0 -> 0: unchanged
 *   gone: total 40, net 40 -> nothing: delta net -40
 *   c: net 70 new: delta net +70
 * |delta net|: c 70, a 50, gone 40, b 0.
 */
static void fill(struct kma_diff_table *base, struct kma_diff_table *new)
{
	static const uint64_t a1[] = { 100, 10, 40, 2, 1 }, a2[] = { 50, 5, 20, 1, 0 };
	static const uint64_t b[] = { 1000, 0, 0, 10, 10 }, gone[] = { 40, 8, 40, 1, 0 };
	static const uint64_t na[] = { 300, 20, 10, 4, 3 }, c[] = { 70, 6, 70, 1, 0 };
	static const uint64_t sb[] = { 1190, 23, 100, 14, 20 }, sn[] = { 1370, 26, 80, 15, 30 };

	kma_diff_table_init(base);
	kma_diff_table_init(new);
	assert_int_equal(kma_diff_table_add(base, "b_fn+0x2", b), 0);
	assert_int_equal(kma_diff_table_add(base, "a_fn+0x1", a1), 0);
	assert_int_equal(kma_diff_table_add(base, "gone_fn+0x9", gone), 0);
	assert_int_equal(kma_diff_table_add(base, "a_fn+0x1", a2), 0);
	assert_int_equal(kma_diff_table_add(new, "c_fn+0x3", c), 0);
	assert_int_equal(kma_diff_table_add(new, "b_fn+0x2", b), 0);
	assert_int_equal(kma_diff_table_add(new, "a_fn+0x1", na), 0);
	memcpy(base->sum, sb, sizeof(sb));
	memcpy(new->sum, sn, sizeof(sn));
	base->duration_ns = 2000000000ull;
	new->duration_ns = 4000000000ull;
}

static void test_join(void **state)
{
	struct kma_diff_table base, new;
	struct kma_diff_row *r;
	size_t nr;

	fill(&base, &new);
	assert_int_equal(kma_diff_rows(&base, &new, KMA_DIFF_SORT_NET, 0, &r, &nr), 0);
	assert_int_equal(nr, 4);
	assert_string_equal(r[0].key, "c_fn+0x3");
	assert_int_equal(r[0].sides, KMA_DIFF_NEW);
	assert_true(r[0].base[KMA_DIFF_NET] == 0 && r[0].delta[KMA_DIFF_NET] == 70);
	assert_string_equal(r[1].key, "a_fn+0x1");
	assert_int_equal(r[1].sides, KMA_DIFF_BOTH);
	assert_true(r[1].base[KMA_DIFF_TOTAL] == 150 && r[1].delta[KMA_DIFF_TOTAL] == 150);
	assert_true(r[1].delta[KMA_DIFF_NET] == -50 && r[1].delta[KMA_DIFF_SLACK] == 5);
	assert_true(r[1].delta[KMA_DIFF_ALLOCS] == 1 && r[1].delta[KMA_DIFF_FREES] == 2);
	assert_string_equal(r[2].key, "gone_fn+0x9");
	assert_int_equal(r[2].sides, KMA_DIFF_BASE);
	assert_true(r[2].new[KMA_DIFF_TOTAL] == 0 && r[2].delta[KMA_DIFF_TOTAL] == -40);
	assert_string_equal(r[3].key, "b_fn+0x2");
	assert_true(r[3].delta[KMA_DIFF_TOTAL] == 0 && r[3].delta[KMA_DIFF_FREES] == 0);
	free(r);

	/* by |delta total|: a 150, c 70, gone 40, b 0; by key: a, b, c, gone */
	assert_int_equal(kma_diff_rows(&base, &new, KMA_DIFF_SORT_TOTAL, 0, &r, &nr), 0);
	assert_string_equal(r[0].key, "a_fn+0x1");
	assert_string_equal(r[1].key, "c_fn+0x3");
	assert_string_equal(r[2].key, "gone_fn+0x9");
	free(r);
	assert_int_equal(kma_diff_rows(&base, &new, KMA_DIFF_SORT_KEY, 0, &r, &nr), 0);
	assert_string_equal(r[0].key, "a_fn+0x1");
	assert_string_equal(r[1].key, "b_fn+0x2");
	assert_string_equal(r[3].key, "gone_fn+0x9");
	free(r);
	/* ties (all deltas of frees: a 2, b 0, c 0, gone 0) break by key */
	assert_int_equal(kma_diff_rows(&base, &new, KMA_DIFF_SORT_FREES, 0, &r, &nr), 0);
	assert_string_equal(r[0].key, "a_fn+0x1");
	assert_string_equal(r[1].key, "b_fn+0x2");
	assert_string_equal(r[2].key, "c_fn+0x3");
	free(r);
	kma_diff_table_free(&base);
	kma_diff_table_free(&new);
}

/* base lasts 2 s, new 4 s: a's total 150/2 = 75/s -> 300/4 = 75/s: delta 0. */
/*
 * Past 2^53 a double has no unit digit: the i* numbers are exact, a delta of
 * 2^63 - 1 down to 1 is -(2^63 - 2), two deltas one double apart order by
 * their exact size, and a key whose numbers add up past 2^63 - 1 is -2.
 */
static void test_exact(void **state)
{
	static const uint64_t big[] = { INT64_MAX, 0, INT64_MAX - 1, 1, 0 };
	static const uint64_t one[] = { 1, 0, 0, 1, 0 };
	static const uint64_t x1[] = { (1ull << 60) + 1, 0, 0, 1, 0 };
	static const uint64_t x2[] = { (1ull << 60) + 2, 0, 0, 1, 0 };
	struct kma_diff_table base, new;
	struct kma_diff_row *r, sum;
	char buf[48];
	size_t nr;

	kma_diff_table_init(&base);
	kma_diff_table_init(&new);
	assert_int_equal(kma_diff_table_add(&base, "a", big), 0);
	assert_int_equal(kma_diff_table_add(&new, "a", one), 0);
	assert_int_equal(kma_diff_table_add(&new, "x1", x1), 0);
	assert_int_equal(kma_diff_table_add(&new, "x2", x2), 0);
	memcpy(base.sum, big, sizeof(big));
	memcpy(new.sum, one, sizeof(one));
	assert_int_equal(kma_diff_rows(&base, &new, KMA_DIFF_SORT_TOTAL, 0, &r, &nr), 0);
	assert_int_equal(nr, 3);
	assert_string_equal(r[0].key, "a");
	assert_true(r[0].ibase[KMA_DIFF_TOTAL] == INT64_MAX);
	assert_true(r[0].idelta[KMA_DIFF_TOTAL] == -(INT64_MAX - 1));
	kma_diff_inum(buf, sizeof(buf), r[0].idelta[KMA_DIFF_TOTAL], 1);
	assert_string_equal(buf, "-9223372036854775806");
	/* (double)(2^60 + 1) == (double)(2^60 + 2): the exact numbers decide */
	assert_string_equal(r[1].key, "x2");
	assert_string_equal(r[2].key, "x1");
	free(r);
	assert_int_equal(kma_diff_summary(&base, &new, 0, &sum), 0);
	assert_true(sum.idelta[KMA_DIFF_NET] == -(INT64_MAX - 1));
	assert_int_equal(kma_diff_table_add(&base, "a", one), 0);
	assert_int_equal(kma_diff_rows(&base, &new, KMA_DIFF_SORT_TOTAL, 0, &r, &nr), -2);
	base.sum[KMA_DIFF_TOTAL] = (uint64_t)INT64_MAX + 1;
	assert_int_equal(kma_diff_summary(&base, &new, 0, &sum), -2);
	kma_diff_table_free(&base);
	kma_diff_table_free(&new);
}

static void test_rate(void **state)
{
	struct kma_diff_table base, new;
	struct kma_diff_row *r, sum;
	size_t nr;

	fill(&base, &new);
	assert_int_equal(kma_diff_rows(&base, &new, KMA_DIFF_SORT_KEY, 1, &r, &nr), 0);
	assert_true(r[0].base[KMA_DIFF_TOTAL] == 75 && r[0].new[KMA_DIFF_TOTAL] == 75);
	assert_true(r[0].delta[KMA_DIFF_TOTAL] == 0);
	/* allocs 3/2 = 1.5/s -> 4/4 = 1/s */
	assert_true(r[0].delta[KMA_DIFF_ALLOCS] == -0.5);
	free(r);
	/* summary: total 1190/2 = 595 -> 1370/4 = 342.5 */
	assert_int_equal(kma_diff_summary(&base, &new, 1, &sum), 0);
	assert_true(sum.base[KMA_DIFF_TOTAL] == 595 && sum.delta[KMA_DIFF_TOTAL] == -252.5);
	assert_int_equal(kma_diff_summary(&base, &new, 0, &sum), 0);
	assert_true(sum.delta[KMA_DIFF_NET] == -20 && sum.delta[KMA_DIFF_FREES] == 10);
	/* a trace of no length has no rate */
	new.duration_ns = 0;
	assert_int_equal(kma_diff_rows(&base, &new, KMA_DIFF_SORT_KEY, 1, &r, &nr), -1);
	assert_int_equal(kma_diff_summary(&base, &new, 1, &sum), -1);
	kma_diff_table_free(&base);
	kma_diff_table_free(&new);
}

static void test_cond_parse(void **state)
{
	static const char * const bad[] = {
		"", "net", "foo>1", "net=1", "net>", "net>+", "net>+1e3", "net>inf", "net>0x10",
		"allocs>1KiB", "frees<-1MiB", "net>1TiB", "net>1%x", "net>1 % 2", "net>>1",
		"net>1.2.3", "net>.",
	};
	struct kma_diff_cond c;
	char why[256];
	size_t i;

	assert_int_equal(kma_diff_cond_parse("net>+10%", &c, why, sizeof(why)), 0);
	assert_true(c.metric == KMA_DIFF_NET && c.op == '>' && c.percent && c.value == 10);
	assert_int_equal(kma_diff_cond_parse(" net > +1MiB ", &c, why, sizeof(why)), 0);
	assert_true(!c.percent && c.value == 1048576);
	assert_int_equal(kma_diff_cond_parse("allocs<-5", &c, why, sizeof(why)), 0);
	assert_true(c.metric == KMA_DIFF_ALLOCS && c.op == '<' && c.value == -5);
	assert_int_equal(kma_diff_cond_parse("slack>0.5KiB", &c, why, sizeof(why)), 0);
	assert_true(c.metric == KMA_DIFF_SLACK && c.value == 512);
	assert_int_equal(kma_diff_cond_parse("total>2GiB", &c, why, sizeof(why)), 0);
	assert_true(c.value == 2147483648.0);
	assert_int_equal(kma_diff_cond_parse("frees>+5.5%", &c, why, sizeof(why)), 0);
	assert_true(c.percent && c.value == 5.5);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		if (kma_diff_cond_parse(bad[i], &c, why, sizeof(why)) != -1)
			fail_msg("'%s' parsed", bad[i]);
		/* the message quotes the expression */
		assert_non_null(strstr(why, bad[i]));
	}
}

static void test_cond_holds(void **state)
{
	struct kma_diff_row sum = { .sides = KMA_DIFF_BOTH };
	struct kma_diff_cond c;
	char why[128];
	double seen;

	/* net 1000 -> 1100: +100 bytes, +10% */
	sum.base[KMA_DIFF_NET] = 1000;
	sum.new[KMA_DIFF_NET] = 1100;
	sum.delta[KMA_DIFF_NET] = 100;
	kma_diff_cond_parse("net>+10%", &c, why, sizeof(why));
	assert_int_equal(kma_diff_cond_holds(&c, &sum, &seen), 0);	/* not above */
	assert_true(seen == 10);
	kma_diff_cond_parse("net>+9.9%", &c, why, sizeof(why));
	assert_int_equal(kma_diff_cond_holds(&c, &sum, &seen), 1);
	kma_diff_cond_parse("net>+99", &c, why, sizeof(why));
	assert_int_equal(kma_diff_cond_holds(&c, &sum, &seen), 1);
	assert_true(seen == 100);
	kma_diff_cond_parse("net<-1", &c, why, sizeof(why));
	assert_int_equal(kma_diff_cond_holds(&c, &sum, &seen), 0);
	/* from nothing: any growth is above every percentage */
	sum.base[KMA_DIFF_ALLOCS] = 0;
	sum.delta[KMA_DIFF_ALLOCS] = 1;
	kma_diff_cond_parse("allocs>+1000%", &c, why, sizeof(why));
	assert_int_equal(kma_diff_cond_holds(&c, &sum, &seen), 1);
	assert_true(isinf(seen));
	sum.delta[KMA_DIFF_ALLOCS] = 0;
	assert_int_equal(kma_diff_cond_holds(&c, &sum, &seen), 0);
	/* shrinking by 20%: holds for <-10%, not for >+0% */
	sum.base[KMA_DIFF_TOTAL] = 500;
	sum.delta[KMA_DIFF_TOTAL] = -100;
	kma_diff_cond_parse("total<-10%", &c, why, sizeof(why));
	assert_int_equal(kma_diff_cond_holds(&c, &sum, &seen), 1);
	kma_diff_cond_parse("total>0%", &c, why, sizeof(why));
	assert_int_equal(kma_diff_cond_holds(&c, &sum, &seen), 0);
}

/* The report into a string. */
static char *print(struct kma_diff_row *rows, size_t nr, struct kma_diff_row *sum,
		   enum kma_fmt fmt, uint64_t limit)
{
	struct kma_diff_report_in in = {
		.base_name = "b.db", .new_name = "n.db", .key = "caller", .rows = rows,
		.nr_rows = nr, .summary = sum, .sort = KMA_DIFF_SORT_NET, .limit = limit,
		.base_ns = 2000000000ull, .new_ns = 4000000000ull,
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(kma_report_diff(f, &in, fmt), 0);
	fclose(f);
	return buf;
}

static void test_output(void **state)
{
	struct kma_diff_table base, new;
	struct kma_diff_row *r, sum;
	size_t nr;
	char *s;

	fill(&base, &new);
	assert_int_equal(kma_diff_rows(&base, &new, KMA_DIFF_SORT_NET, 0, &r, &nr), 0);
	assert_int_equal(kma_diff_summary(&base, &new, 0, &sum), 0);
	s = print(r, nr, &sum, KMA_FMT_CSV, 2);
	assert_string_equal(s,
		"key,base_total,new_total,delta_total,base_slack,new_slack,delta_slack,"
		"base_net,new_net,delta_net,base_allocs,new_allocs,delta_allocs,"
		"base_frees,new_frees,delta_frees\n"
		"c_fn+0x3,,70,70,,6,6,,70,70,,1,1,,0,0\n"
		"a_fn+0x1,150,300,150,15,20,5,60,10,-50,3,4,1,1,3,2\n");
	free(s);
	s = print(r, nr, &sum, KMA_FMT_JSON, 1);
	assert_non_null(strstr(s, "\"summary\": {\"base_total\": 1190, \"new_total\": 1370, "
			       "\"delta_total\": 180, "));
	assert_non_null(strstr(s, "\"delta_net\": -20, "));
	assert_non_null(strstr(s, "{\"key\": \"c_fn+0x3\", \"base_total\": null, "
			       "\"new_total\": 70, \"delta_total\": 70, "));
	assert_null(strstr(s, "a_fn"));
	free(s);
	/* text: signed deltas, "-" for the missing side, new/gone tags, the counts */
	s = print(r, nr, &sum, KMA_FMT_TEXT, 0);
	assert_non_null(strstr(s, "total   1190  1370   +180  +15.1%\n"));
	assert_non_null(strstr(s, "net      100    80    -20  -20.0%\n"));
	assert_non_null(strstr(s, "caller keys: 3 in base, 3 in new: 1 new, 1 gone, 1 changed, "
			       "1 unchanged\n"));
	assert_non_null(strstr(s, "Sorted by |delta net|.\n"));
	assert_non_null(strstr(s, "       -       70        +70          +70           +6"
			       "            +1            0  c_fn+0x3 (new)\n"));
	assert_non_null(strstr(s, "      40        -        -40          -40           -8"
			       "            -1            0  gone_fn+0x9 (gone)\n"));
	free(s);
	free(r);
	kma_diff_table_free(&base);
	kma_diff_table_free(&new);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_cond_parse),
		cmocka_unit_test(test_cond_holds),
		cmocka_unit_test(test_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
