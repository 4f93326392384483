// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of lib/kma-err: the kind and the message each setter leaves, a
 * message cut to the buffer (still terminated), a NULL error ignored, and
 * every setter returning -1 for "return kma_err_set(...)". Expected messages
 * are written out here, glibc's strerror() texts included.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kma-err.h"

/* Filled with a byte no message has, to see what a setter wrote. */
static void poison(struct kma_err *e)
{
	memset(e, 0x5a, sizeof(*e));
}

static void test_set(void **state)
{
	struct kma_err e;

	(void)state;
	poison(&e);
	assert_int_equal(kma_err_set(&e, KMA_ERR_CORRUPT, "%s: page %d of CPU %u", "x.dat", 7,
				     3u), -1);
	assert_int_equal(e.kind, KMA_ERR_CORRUPT);
	assert_string_equal(e.msg, "x.dat: page 7 of CPU 3");
	/* a message without a conversion is taken as it is */
	assert_int_equal(kma_err_set(&e, KMA_ERR_OTHER, "no trace table"), -1);
	assert_int_equal(e.kind, KMA_ERR_OTHER);
	assert_string_equal(e.msg, "no trace table");
}

/* A message longer than the buffer: its first sizeof(msg) - 1 bytes, terminated. */
static void test_cut(void **state)
{
	char big[2000];
	struct kma_err e;

	(void)state;
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	poison(&e);
	assert_int_equal(kma_err_set(&e, KMA_ERR_OTHER, "%s", big), -1);
	assert_int_equal(strlen(e.msg), sizeof(e.msg) - 1);
	assert_memory_equal(e.msg, big, sizeof(e.msg) - 1);
	/* strerror's text goes after a message that already fills the buffer: cut too */
	poison(&e);
	assert_int_equal(kma_err_errno(&e, ENOENT, "%s", big), -1);
	assert_int_equal(strlen(e.msg), sizeof(e.msg) - 1);
	assert_memory_equal(e.msg, big, sizeof(e.msg) - 1);
	/* room for part of it: as much as fits */
	big[sizeof(e.msg) - 5] = '\0';
	assert_int_equal(kma_err_errno(&e, ENOENT, "%s", big), -1);
	assert_int_equal(strlen(e.msg), sizeof(e.msg) - 1);
	assert_memory_equal(e.msg + sizeof(e.msg) - 5, ": No", 4);
}

static void test_nomem(void **state)
{
	struct kma_err e;

	(void)state;
	poison(&e);
	assert_int_equal(kma_err_nomem(&e), -1);
	assert_int_equal(e.kind, KMA_ERR_NOMEM);
	assert_string_equal(e.msg, "out of memory");
}

/* "what: strerror(errnum)"; ENOMEM is out of memory, named. */
static void test_errno(void **state)
{
	struct kma_err e;

	(void)state;
	poison(&e);
	assert_int_equal(kma_err_errno(&e, ENOENT, "cannot open %s", "a b"), -1);
	assert_int_equal(e.kind, KMA_ERR_OTHER);
	assert_string_equal(e.msg, "cannot open a b: No such file or directory");
	assert_int_equal(kma_err_errno(&e, ENOSPC, "writing %s: the file system is full",
				       "rows"), -1);
	assert_string_equal(e.msg, "writing rows: the file system is full: "
			    "No space left on device");
	assert_int_equal(kma_err_errno(&e, ENOMEM, "cannot start the writer thread"), -1);
	assert_int_equal(e.kind, KMA_ERR_NOMEM);
	assert_string_equal(e.msg, "cannot start the writer thread: Cannot allocate memory");
	/* errno itself is not read, nor changed */
	errno = EACCES;
	assert_int_equal(kma_err_errno(&e, EPERM, "x"), -1);
	assert_string_equal(e.msg, "x: Operation not permitted");
	assert_int_equal(errno, EACCES);
}

static void test_clear_copy(void **state)
{
	struct kma_err a, b;

	(void)state;
	kma_err_set(&a, KMA_ERR_TRUNCATED, "cut at %d", 42);
	poison(&b);
	assert_int_equal(kma_err_copy(&b, &a), -1);
	assert_int_equal(b.kind, KMA_ERR_TRUNCATED);
	assert_string_equal(b.msg, "cut at 42");
	assert_int_equal(kma_err_copy(&a, &a), -1);	/* onto itself: unchanged */
	assert_string_equal(a.msg, "cut at 42");
	kma_err_clear(&b);
	assert_int_equal(b.kind, KMA_ERR_NONE);
	assert_string_equal(b.msg, "");
	assert_int_equal(KMA_ERR_NONE, 0);	/* = { 0 } is no error */
}

/* A caller that does not want the reason passes NULL: -1, and nothing written. */
static void test_null(void **state)
{
	struct kma_err e;

	(void)state;
	assert_int_equal(kma_err_set(NULL, KMA_ERR_OTHER, "%s", "x"), -1);
	assert_int_equal(kma_err_nomem(NULL), -1);
	assert_int_equal(kma_err_errno(NULL, ENOENT, "x"), -1);
	kma_err_clear(NULL);
	kma_err_nomem(&e);
	assert_int_equal(kma_err_copy(NULL, &e), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_nomem),
		cmocka_unit_test(test_errno),
		cmocka_unit_test(test_clear_copy),
		cmocka_unit_test(test_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
