// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of analyzer/store/kma-stack-key: a stack's fleet key is the
 * SHA-256 of the exact bytes kma-fleet(5) and kma-report.db(5) document.
 * Each expected digest is that of the message spelt out beside it, made by
 * libcrypto's one-shot SHA256() here (an independent path: no context kept,
 * no message built by the code under test); integers in decimal at their
 * edges (0, negative, INT64_MIN, INT64_MAX).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <openssl/sha.h>

#include "store/kma-stack-key.h"

static void want(struct kma_stack_key *k, const char *msg)
{
	unsigned char got[32], exp[32];

	SHA256((const unsigned char *)msg, strlen(msg), exp);
	assert_int_equal(kma_stack_key_end(k, got), 0);
	assert_memory_equal(got, exp, 32);
}

static void test_frames(void **state)
{
	struct kma_stack_key *k = kma_stack_key_alloc();

	(void)state;
	assert_non_null(k);
	/* two frames, the second unresolved */
	kma_stack_key_begin(k, 2);
	assert_int_equal(kma_stack_key_field(k, "0xffffffff81000010", 18), 0);
	assert_int_equal(kma_stack_key_field(k, "kmalloc", 7), 0);
	assert_int_equal(kma_stack_key_int(k, 16), 0);
	assert_int_equal(kma_stack_key_field(k, "0x7f", 4), 0);
	assert_int_equal(kma_stack_key_field(k, NULL, 0), 0);
	assert_int_equal(kma_stack_key_field(k, NULL, 0), 0);
	want(k, "2\nv0xffffffff81000010\tvkmalloc\tv16\tv0x7f\tn\tn\t");
	/* the context reused: nothing of the last stack left in the next */
	kma_stack_key_begin(k, 1);
	assert_int_equal(kma_stack_key_field(k, "0x0", 3), 0);
	assert_int_equal(kma_stack_key_field(k, "", 0), 0);	/* empty, not NULL */
	assert_int_equal(kma_stack_key_int(k, 0), 0);
	want(k, "1\nv0x0\tv\tv0\t");
	/* no frame: one frame of three NULLs */
	kma_stack_key_begin(k, 0);
	want(k, "0\nn\tn\tn\t");
	kma_stack_key_free(k);
}

static void test_ints(void **state)
{
	static const struct { int64_t v; const char *text; } t[] = {
		{ -1, "-1" }, { -16, "-16" }, { 9, "9" }, { 10, "10" },
		{ INT64_MAX, "9223372036854775807" }, { INT64_MIN, "-9223372036854775808" },
	};
	struct kma_stack_key *k = kma_stack_key_alloc();
	char msg[64];
	size_t i;

	(void)state;
	assert_non_null(k);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		kma_stack_key_begin(k, -3);
		assert_int_equal(kma_stack_key_int(k, t[i].v), 0);
		strcpy(msg, "-3\nv");
		strcat(msg, t[i].text);
		strcat(msg, "\t");
		want(k, msg);
	}
	kma_stack_key_free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_ints),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
