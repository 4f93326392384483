/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test-capture.h - the matcher's sink for the unit tests: every finished
 * allocation row and unknown free kept, in order, for the checks to read.
 * Include after <cmocka.h> and match/kma-match.h.
 */
#ifndef TEST_CAPTURE_H
#define TEST_CAPTURE_H

#define MAX_ROWS 64

struct capture {
	struct kma_alloc_row	rows[MAX_ROWS];
	int			nr;
	struct kma_free_row	unknown[MAX_ROWS];
	int			nr_unknown;
};

static inline int cap_alloc(void *ctx, const struct kma_alloc_row *row)
{
	struct capture *c = ctx;

	assert_true(c->nr < MAX_ROWS);
	c->rows[c->nr++] = *row;
	return 0;
}

static inline int cap_unknown(void *ctx, const struct kma_free_row *row)
{
	struct capture *c = ctx;

	assert_true(c->nr_unknown < MAX_ROWS);
	c->unknown[c->nr_unknown++] = *row;
	return 0;
}

#endif /* TEST_CAPTURE_H */
