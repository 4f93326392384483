// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-top: one --live frame from hand-made totals and callers; the
 * per-interval rates against values worked out by hand (deltas over 2 s),
 * the orders the keys pick, the lost-events warning, -n.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/kma-report-top.h"

/* a: 10 allocs, 4 frees; b: all freed; c: new since the last frame; d: no allocation */
static struct kma_caller callers[4] = {
	{ .name = "a_fn+0x1/0x10", .total = 1000, .slack = 100, .net = 600, .allocs = 10, .frees = 4 },
	{ .name = "b_fn+0x2/0x20", .total = 3000, .slack = 0, .net = 0, .allocs = 30, .frees = 30 },
	{ .name = "c_fn+0x3/0x30", .total = 500, .slack = 400, .net = 500, .allocs = 5, .frees = 0 },
	{ .name = "d_fn+0x4/0x40" },
};
static struct kma_totals totals = { .allocs = 45, .frees = 34, .net = 1100, .callers = 3 };
/* the frame before, 2 s earlier: c did not exist yet */
static struct kma_top_count prev_c[2] = { { 4, 2, 200 }, { 10, 5, 500 } };
static const struct kma_top_snap prev = { .elapsed = 2.0, .all = { 14, 7, 700 }, .c = prev_c,
					    .nr = 2, .cap = 2 };

static char *frame(enum kma_sort sort, uint64_t lost, uint64_t limit, const char *filter)
{
	struct kma_top_in in = { .elapsed = 4.0, .events = 79, .lost = lost, .totals = &totals,
				 .callers = callers, .nr_callers = 4, .sort = sort,
				 .limit = limit, .filter = filter };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(kma_top_render(f, &in, &prev), 0);
	fclose(f);
	return buf;
}

/* The whitespace-separated fields of the row of caller @name, joined by one space. */
static void row_is(const char *s, const char *name, const char *want)
{
	const char *p = strstr(s, name), *bol;
	char got[256], *q = got;
	int space = 0;

	assert_non_null(p);
	for (bol = p; bol > s && bol[-1] != '\n'; bol--)
		;
	while (*bol == ' ')
		bol++;
	for (; bol < p && q < got + sizeof(got) - 1; bol++) {
		if (*bol == ' ') {
			space = 1;
			continue;
		}
		if (space && q > got)
			*q++ = ' ';
		space = 0;
		*q++ = *bol;
	}
	*q = '\0';
	assert_string_equal(got, want);
}

static void test_rates(void **state)
{
	char *s = frame(KMA_SORT_TOTAL, 0, 0, NULL);

	/* total slack slack% net allocs frees allocs/s frees/s net-B/s; slack% 100 * slack / total */
	row_is(s, "a_fn+0x1/0x10", "1000 100 10.000 600 10 4 3.0 1.0 +200.0");	/* 6/2 2/2 400/2 */
	row_is(s, "b_fn+0x2/0x20", "3000 0 0.000 0 30 30 10.0 12.5 -250.0");	/* 20/2 25/2 -500/2 */
	row_is(s, "c_fn+0x3/0x30", "500 400 80.000 500 5 0 2.5 0.0 +250.0");	/* new: from 0 */
	assert_null(strstr(s, "d_fn"));
	/* overall: 31/2, 27/2, 400/2 */
	assert_non_null(strstr(s, "allocs 45 (15.5/s)  frees 34 (13.5/s)  net 1100 B (+200.0 B/s)"));
	assert_non_null(strstr(s, "elapsed 4.0s"));
	assert_non_null(strstr(s, "events 79"));
	assert_non_null(strstr(s, "lost 0"));
	assert_non_null(strstr(s, "sorted by total"));
	assert_null(strstr(s, "WARNING"));
	assert_null(strstr(s, "filter:"));
	free(s);
}

static void assert_order(enum kma_sort sort, const char *first, const char *second,
			 const char *third, const char *word)
{
	char *s = frame(sort, 0, 0, NULL);
	char *a = strstr(s, first), *b = strstr(s, second), *c = strstr(s, third);

	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_true(a < b && b < c);
	assert_non_null(strstr(s, word));
	free(s);
}

static void test_orders(void **state)
{
	assert_order(KMA_SORT_TOTAL, "b_fn", "a_fn", "c_fn", "sorted by total");
	assert_order(KMA_SORT_SLACK, "c_fn", "a_fn", "b_fn", "sorted by slack");
	assert_order(KMA_SORT_NET, "a_fn", "c_fn", "b_fn", "sorted by net");
	assert_order(KMA_SORT_ALLOCS, "b_fn", "a_fn", "c_fn", "sorted by allocs");
	assert_order(KMA_SORT_FREES, "b_fn", "a_fn", "c_fn", "sorted by frees");
}

static void test_lost_limit_filter(void **state)
{
	char *s = frame(KMA_SORT_NET, 3, 1, "comm 'tar'");

	assert_non_null(strstr(s, "lost 3"));
	assert_non_null(strstr(s, "WARNING: the ring buffer lost 3 events"));
	assert_non_null(strstr(s, "filter: comm 'tar'\n"));
	assert_non_null(strstr(s, "a_fn"));
	assert_null(strstr(s, "c_fn"));		/* -n 1 */
	assert_null(strstr(s, "b_fn"));
	free(s);
}

/* No previous frame: rates since the start (elapsed 4 s). */
static void test_first_frame(void **state)
{
	struct kma_top_in in = { .elapsed = 4.0, .totals = &totals, .callers = callers,
				 .nr_callers = 4, .sort = KMA_SORT_TOTAL };
	struct kma_top_snap snap = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(kma_top_render(f, &in, NULL), 0);
	fclose(f);
	row_is(buf, "a_fn+0x1/0x10", "1000 100 10.000 600 10 4 2.5 1.0 +150.0");
	free(buf);
	/* the snapshot keeps what the next frame subtracts */
	assert_int_equal(kma_top_snap_take(&snap, &in), 0);
	assert_int_equal(snap.nr, 4);
	assert_true(snap.elapsed == 4.0);
	assert_int_equal(snap.c[1].allocs, 30);
	assert_int_equal(snap.c[0].net, 600);
	assert_int_equal(snap.all.frees, 34);
	kma_top_snap_free(&snap);
}

/* A frame on a terminal @width wide, sorted by @sort, no previous frame (elapsed 4 s). */
static char *narrow(unsigned int width, enum kma_sort sort)
{
	struct kma_top_in in = { .elapsed = 4.0, .totals = &totals, .callers = callers,
				 .nr_callers = 4, .sort = sort, .width = width,
				 .keys = "keys: here" };
	char *buf = NULL, *line;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(kma_top_render(f, &in, NULL), 0);
	fclose(f);
	/* no caller row and no heading reaches the last column */
	for (line = buf; *line; line += strcspn(line, "\n") + 1) {
		size_t n = strcspn(line, "\n");

		if (memmem(line, n, "_fn+", 4) || memmem(line, n, "net B/s", 7))
			assert_true(n <= width - 1);
		if (!line[n])
			break;
	}
	return buf;
}

/*
 * Narrow terminals drop columns (slack, slack%, frees, frees/s first; then
 * allocs, allocs/s), never the sort key's, before the name goes under 20
 * characters. Widths worked out by hand (2 before the name, each column its
 * width and a space but the first): all columns take 104, without the first
 * four 62, with only total, net and net B/s 40.
 */
static void test_width_keys(void **state)
{
	char *s = narrow(108, KMA_SORT_TOTAL);		/* 108 - 1 - 104 = 3 < 20: drop */

	assert_non_null(strstr(s, "\nkeys: here\n"));
	assert_non_null(strstr(s, "allocs/s"));
	assert_null(strstr(s, "frees/s"));
	assert_null(strstr(s, "slack%"));
	row_is(s, "a_fn+0x1/0x10\n", "1000 600 10 2.5 +150.0");	/* the name whole: 45 */
	free(s);
	s = narrow(108, KMA_SORT_SLACK);		/* the sort key's columns stay: 82 */
	assert_non_null(strstr(s, "  slack%"));
	row_is(s, "a_fn+0x1/0x10\n", "1000 100 10.000 600 10 2.5 +150.0");
	free(s);
	s = narrow(70, KMA_SORT_TOTAL);			/* 70 - 1 - 62 = 7: drop again */
	assert_null(strstr(s, "allocs/s"));
	row_is(s, "a_fn+0x1/0x10\n", "1000 600 +150.0");
	free(s);
	s = narrow(50, KMA_SORT_TOTAL);			/* 50 - 1 - 40 = 9 characters */
	assert_non_null(strstr(s, "  a_fn+0x1/\n"));
	free(s);
	s = narrow(200, KMA_SORT_TOTAL);		/* wide: every column */
	row_is(s, "a_fn+0x1/0x10\n", "1000 100 10.000 600 10 4 2.5 1.0 +150.0");
	free(s);
}

/*
 * slack% as the per-caller table rounds it: 100 * slack / total to 3
 * decimals, halves up, "-" for no bytes; worked by hand.
 */
static void test_slack_pct(void **state)
{
	static struct kma_caller c[6] = {
		{ .name = "third_fn", .total = 3, .slack = 2, .allocs = 1 },	/* 66.666.. */
		{ .name = "half_fn", .total = 200000, .slack = 1, .allocs = 1 },	/* 0.0005 */
		{ .name = "tiny_fn", .total = 2000000, .slack = 1, .allocs = 1 },	/* 0.00005 */
		{ .name = "zero_fn", .total = 0, .slack = 0, .allocs = 1 },	/* no bytes */
		/* (2^63 - 1) / (2^64 - 1): 49.99999999999999999997 %; 100 * slack overflows 64 bits */
		{ .name = "huge_fn", .total = UINT64_MAX, .slack = INT64_MAX, .allocs = 1 },
		{ .name = "all_fn", .total = 7, .slack = 7, .allocs = 1 },
	};
	struct kma_totals t = { .allocs = 6, .callers = 6 };
	struct kma_top_in in = { .elapsed = 1.0, .totals = &t, .callers = c, .nr_callers = 6,
				 .sort = KMA_SORT_CALLER };
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(kma_top_render(f, &in, NULL), 0);
	fclose(f);
	/* the heading: slack% after slack */
	p = strstr(buf, "total      slack   slack%          net");
	assert_non_null(p);
	row_is(buf, "third_fn", "3 2 66.667 0 1 0 1.0 0.0 +0.0");
	row_is(buf, "half_fn", "200000 1 0.001 0 1 0 1.0 0.0 +0.0");
	row_is(buf, "tiny_fn", "2000000 1 0.000 0 1 0 1.0 0.0 +0.0");
	row_is(buf, "zero_fn", "0 0 - 0 1 0 1.0 0.0 +0.0");
	row_is(buf, "huge_fn", "18446744073709551615 9223372036854775807 50.000 0 1 0 1.0 0.0 +0.0");
	row_is(buf, "all_fn", "7 7 100.000 0 1 0 1.0 0.0 +0.0");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_orders),
		cmocka_unit_test(test_lost_limit_filter),
		cmocka_unit_test(test_first_frame),
		cmocka_unit_test(test_width_keys),
		cmocka_unit_test(test_slack_pct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
