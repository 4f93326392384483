// SPDX-License-Identifier: GPL-2.0
/*
 * The reader's kallsyms text lent to its caller (struct kma_file_opts'
 * kallsyms_read and kallsyms_done), which kma-analyze parses into the symbol
 * table on a thread of its own while libtracecmd opens the file: the text is
 * lent once, and kallsyms_done comes before the text is freed, when the
 * reader closes and when kma_reader_open_file() fails after lending it. Each
 * callback reads every byte of the text (the sanitizer build sees a read of
 * freed memory) and checks it is the text lent, by a sum taken at lending.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "reader/kma-reader.h"

struct lend {
	const char	*text;
	size_t		len;
	uint64_t	sum;
	int		lent, done;
};

static uint64_t sum_of(const char *text, size_t len)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < len; i++)
		s = s * 31 + (unsigned char)text[i];
	return s;
}

static void on_read(void *ctx, const char *text, size_t len)
{
	struct lend *l = ctx;

	l->lent++;
	l->text = text;
	l->len = len;
	l->sum = sum_of(text, len);
}

static void on_done(void *ctx)
{
	struct lend *l = ctx;

	l->done++;
	assert_int_equal(l->lent, 1);
	assert_true(sum_of(l->text, l->len) == l->sum);	/* still there, unchanged */
}

static char *fixture(const char *name)
{
	const char *dir = getenv("KMA_FIXTURES");
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/fixtures", name);
	return path;
}

static struct kma_reader *open_lending(const char *name, const char *buffer, struct lend *l,
				       struct kma_err *err)
{
	struct kma_file_opts fo = { .buffer = buffer, .jobs = 1, .kallsyms_read = on_read,
				    .kallsyms_done = on_done, .kallsyms_ctx = l };

	if (access(fixture(name), R_OK))
		skip();
	return kma_reader_open_file(fixture(name), &fo, err);
}

/* Lent once, the reader's own bytes; done only when the reader closes. */
static void test_lent_until_close(void **state)
{
	struct lend l = { 0 };
	struct kma_err err;
	struct kma_reader *r = open_lending("basic-v6.dat", NULL, &l, &err);
	const char *text, *why;
	size_t len;

	(void)state;
	assert_non_null(r);
	assert_int_equal(l.lent, 1);
	assert_int_equal(l.done, 0);
	text = kma_reader_kallsyms(r, &len, &why);
	assert_ptr_equal(text, l.text);
	assert_int_equal(len, 12188);	/* "[Kallsyms, 12188 bytes]" in trace-cmd dump */
	assert_int_equal(l.len, len);
	kma_reader_close(r);
	assert_int_equal(l.done, 1);
}

/* Refused after the lending (kmem events in two buffers, none chosen): done before the free. */
static void test_done_on_failed_open(void **state)
{
	struct lend l = { 0 };
	struct kma_err err;
	struct kma_reader *r = open_lending("inst-two.dat", NULL, &l, &err);

	(void)state;
	assert_null(r);
	assert_non_null(strstr(err.msg, "kmem events in several buffers"));
	assert_int_equal(l.lent, 1);
	assert_int_equal(l.done, 1);
}

/* Refused before the lending (not a trace.dat), or nothing to lend (a perf.data): never lent. */
static void test_not_lent(void **state)
{
	struct lend l = { 0 };
	struct kma_err err;
	struct kma_reader *r = open_lending("README.md", NULL, &l, &err);

	(void)state;
	assert_null(r);
	assert_int_equal(l.lent, 0);
	assert_int_equal(l.done, 0);
	/* a perf.data stores no kallsyms: nothing to lend */
	r = open_lending("perf-kmem.data", NULL, &l, &err);
	assert_non_null(r);
	kma_reader_close(r);
	assert_int_equal(l.lent, 0);
	assert_int_equal(l.done, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lent_until_close),
		cmocka_unit_test(test_done_on_failed_open),
		cmocka_unit_test(test_not_lent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
