// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of analyzer/store/kma-fleet-select: the selector words parsed
 * (accepted and refused, times turned into UTC bounds), and, when
 * KMA_TEST_PG_URL names a database (tests/t-trend.sh starts a private
 * PostgreSQL and sets it), the runs each selection returns from runs inserted
 * here with known hosts, kernels, labels and push times.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <libpq-fe.h>

#include "store/kma-fleet.h"
#include "store/kma-fleet-select.h"

static int add_all(struct kma_fleet_sel *s, const char *words, struct kma_err *e)
{
	char buf[512], *save = NULL, *w;

	snprintf(buf, sizeof(buf), "%s", words);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (kma_fleet_sel_add(s, w, e))
			return -1;
	return 0;
}

static void test_parse(void **state)
{
	struct kma_fleet_sel s;
	struct kma_err e;

	(void)state;
	kma_fleet_sel_init(&s);
	assert_int_equal(add_all(&s, "run=3,17 run=5 host=web'1 kernel=6.18.0 "
				 "label:kernel=6.18 label:a=b=c since=2026-02-28 "
				 "until=2026-12-31T23:59 last=4", &e), 0);
	assert_int_equal(s.nr_runs, 3);
	assert_int_equal(s.runs[0], 3);
	assert_int_equal(s.runs[1], 17);
	assert_int_equal(s.runs[2], 5);
	assert_string_equal(s.host, "web'1");
	assert_string_equal(s.kernel, "6.18.0");
	assert_int_equal(s.nr_labels, 2);
	assert_string_equal(s.labels[0].key, "kernel");
	assert_string_equal(s.labels[0].value, "6.18");
	/* the first '=' splits: a value may hold '=' */
	assert_string_equal(s.labels[1].key, "a");
	assert_string_equal(s.labels[1].value, "b=c");
	assert_string_equal(s.since, "2026-02-28 00:00:00+00");
	/* until names a minute: up to its end, the next year's first minute excluded */
	assert_string_equal(s.until, "2027-01-01 00:00:00+00");
	assert_int_equal(s.last, 4);
	assert_int_equal(add_all(&s, "latest until=2024-02-28", &e), 0);
	assert_int_equal(s.last, 1);
	assert_string_equal(s.until, "2024-02-29 00:00:00+00");	/* a leap year */
	/* an empty value is a value */
	assert_int_equal(add_all(&s, "label:k=", &e), 0);
	assert_string_equal(s.labels[2].value, "");
	kma_fleet_sel_free(&s);
	assert_int_equal(s.nr_labels, 0);
	assert_null(s.host);
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		"", "run", "run=", "run=0", "run=-1", "run=1,", "run=,1", "run=1x", "run=+3",
		"run=99999999999999999999", "last=0", "last=", "last=x", "last=-2", "latest=1",
		"label:", "label:=v", "label:k", "since=2026-02-30", "since=2026-13-01",
		"since=2026-1-01", "since=2026-01-01T24:00", "since=2026-01-01T10:60",
		"since=2026-01-01 10:00", "since=2026-01-01T10", "until=2026-01-01T10:00Z",
		"since=", "until=yesterday", "hots=web1", "web1", "Host=web1",
	};
	struct kma_fleet_sel s;
	struct kma_err e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		kma_fleet_sel_init(&s);
		memset(&e, 0, sizeof(e));
		if (kma_fleet_sel_add(&s, bad[i], &e) != -1)
			fail_msg("'%s' accepted", bad[i]);
		assert_int_equal(e.kind, KMA_ERR_OTHER);
		assert_non_null(strstr(e.msg, bad[i]));
		assert_non_null(strstr(e.msg, "is not a run selector"));
		kma_fleet_sel_free(&s);
	}
}

/* The database part: runs inserted with known attributes. */
static struct kma_fleet *fleet;
static long long ids[8];

static void sql(const char *q)
{
	PGconn *c = PQconnectdb(getenv("KMA_TEST_PG_URL"));
	PGresult *r = PQexec(c, q);

	if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
		fail_msg("%s: %s", q, PQerrorMessage(c));
	PQclear(r);
	PQfinish(c);
}

static int db_setup(void **state)
{
	const char *url = getenv("KMA_TEST_PG_URL");
	struct kma_err e;
	int i;

	if (!url || !*url)
		return 0;
	fleet = kma_fleet_connect(url, &e);
	if (!fleet || kma_fleet_init(fleet, &e)) {
		fprintf(stderr, "test-fleet-select: %s\n", e.msg);
		return -1;
	}
	sql("DELETE FROM kma_fleet.runs");
	/*
	 * Eight runs, pushed_at not in run_id order (run 4 and 5 pushed at the
	 * same minute: run_id breaks the tie):
	 *   n host  kernel pushed_at         labels
	 *   0 web1  6.1    2026-01-05 10:00  kernel=6.1 job=a
	 *   1 web1  6.18   2026-01-03 10:00  kernel=6.18 job=a
	 *   2 web2  6.18   2026-01-04 12:30  kernel=6.18 job=b
	 *   3 web1  6.18   2026-01-06 00:00  kernel=6.18 job=a
	 *   4 db'1  6.18   2026-01-07 09:15  kernel=6.18 job=a"<x>
	 *   5 db'1  6.18   2026-01-07 09:15  kernel=6.18
	 *   6 web1  NULL   2026-01-08 00:00  (none)
	 *   7 web2  6.18   2026-01-02 23:59  job=a
	 */
	sql("INSERT INTO kma_fleet.runs (trace_id, source, options, host, kernel_release, "
	    "pushed_at, push_version, allocations) VALUES "
	    "('t0','trace','','web1','6.1','2026-01-05 10:00+00','t',false),"
	    "('t1','trace','','web1','6.18','2026-01-03 10:00+00','t',false),"
	    "('t2','trace','','web2','6.18','2026-01-04 12:30+00','t',false),"
	    "('t3','trace','','web1','6.18','2026-01-06 00:00+00','t',false),"
	    "('t4','trace','','db''1','6.18','2026-01-07 09:15+00','t',false),"
	    "('t5','trace','','db''1','6.18','2026-01-07 09:15+00','t',false),"
	    "('t6','trace','','web1',NULL,'2026-01-08 00:00+00','t',false),"
	    "('t7','trace','','web2','6.18','2026-01-02 23:59+00','t',false)");
	for (i = 0; i < 8; i++) {
		char q[160];
		PGconn *c = PQconnectdb(url);
		PGresult *r;

		snprintf(q, sizeof(q), "SELECT run_id FROM kma_fleet.runs WHERE trace_id = 't%d'",
			 i);
		r = PQexec(c, q);
		ids[i] = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
		PQclear(r);
		PQfinish(c);
	}
	{
		char q[1024];

		snprintf(q, sizeof(q), "INSERT INTO kma_fleet.run_labels VALUES "
			 "(%lld,'kernel','6.1'),(%lld,'job','a'),(%lld,'kernel','6.18'),"
			 "(%lld,'job','a'),(%lld,'kernel','6.18'),(%lld,'job','b'),"
			 "(%lld,'kernel','6.18'),(%lld,'job','a'),(%lld,'kernel','6.18'),"
			 "(%lld,'job','a\"<x>'),(%lld,'kernel','6.18'),(%lld,'job','a')",
			 ids[0], ids[0], ids[1], ids[1], ids[2], ids[2], ids[3], ids[3], ids[4],
			 ids[4], ids[5], ids[7]);
		sql(q);
	}
	return 0;
}

static int db_teardown(void **state)
{
	kma_fleet_close(fleet);
	return 0;
}

/* @words selects exactly the runs numbered in @want ("1 2 0", oldest first). */
static void expect(const char *words, const char *want)
{
	struct kma_fleet_sel s;
	struct kma_err e;
	long long *got;
	size_t nr, i = 0;
	char buf[64], *save = NULL, *w;

	kma_fleet_sel_init(&s);
	assert_int_equal(add_all(&s, words, &e), 0);
	if (kma_fleet_select(fleet, &s, &got, &nr, &e))
		fail_msg("%s: %s", words, e.msg);
	snprintf(buf, sizeof(buf), "%s", want);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save), i++) {
		if (i >= nr)
			fail_msg("%s: %zu runs, more wanted", words, nr);
		if (got[i] != ids[atoi(w)])
			fail_msg("%s: run %zu is %lld, not %lld", words, i, got[i], ids[atoi(w)]);
	}
	if (i != nr)
		fail_msg("%s: %zu runs, %zu wanted", words, nr, i);
	free(got);
	kma_fleet_sel_free(&s);
}

static void test_query(void **state)
{
	char w[64];

	(void)state;
	if (!fleet)
		skip();
	/* time order: pushed_at, then run_id */
	expect("", "7 1 2 0 3 4 5 6");
	expect("host=web1", "1 0 3 6");
	expect("host=db'1", "4 5");
	expect("host=web", "");
	expect("kernel=6.18", "7 1 2 3 4 5");
	expect("label:kernel=6.18", "1 2 3 4 5");
	expect("label:kernel=6.18 label:job=a", "1 3");
	expect("label:job=a\"<x>", "4");
	expect("label:job=a host=web2", "7");
	expect("label:nosuch=a", "");
	expect("last=3", "4 5 6");
	expect("latest", "6");
	expect("last=100", "7 1 2 0 3 4 5 6");
	expect("host=web1 last=2", "3 6");
	expect("label:kernel=6.18 latest", "5");
	/* since: from that minute on; until: up to the end of the day or minute named */
	expect("since=2026-01-05", "0 3 4 5 6");
	expect("since=2026-01-04T12:30", "2 0 3 4 5 6");
	expect("since=2026-01-04T12:31", "0 3 4 5 6");
	expect("until=2026-01-03", "7 1");
	expect("until=2026-01-02T23:58", "");
	expect("until=2026-01-02T23:59", "7");
	expect("since=2026-01-04 until=2026-01-06 host=web1", "0 3");
	expect("since=2026-01-09", "");
	snprintf(w, sizeof(w), "run=%lld,%lld,%lld", ids[6], ids[0], ids[2]);
	expect(w, "2 0 6");
	snprintf(w, sizeof(w), "run=%lld,%lld host=web2", ids[6], ids[2]);
	expect(w, "2");
	expect("run=999999999", "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_query),
	};

	return cmocka_run_group_tests_name("fleet-select", tests, db_setup, db_teardown);
}
