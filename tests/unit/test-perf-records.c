// SPDX-License-Identifier: GPL-2.0
/*
 * The records of a perf.data's data section through PERF_RECORD_COMPRESSED
 * (kma-perf-records.c): one zstd stream over the file, a record that spans
 * two compressed records, the stream's output that zstd holds back when it
 * filled the room it was given, and a stream that ends inside a record.
 * The records are built here, compressed as perf record does (one stream,
 * ZSTD_e_flush after each piece), and counted on the way out.
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
#include <zstd.h>

#include "reader/kma-perfdata.h"

#define FINISHED_ROUND	68
#define COMPRESSED	81

struct bytes {
	unsigned char	*b;
	size_t		len, cap;
};

static void put(struct bytes *o, const void *p, size_t n)
{
	if (o->len + n > o->cap) {
		o->cap = (o->len + n) * 2;
		o->b = realloc(o->b, o->cap);
		assert_non_null(o->b);
	}
	memcpy(o->b + o->len, p, n);
	o->len += n;
}

/* A record of @size bytes (at least 8): its header, then bytes of its size. */
static void record(struct bytes *o, uint16_t size)
{
	unsigned char r[64] = { 0 };
	uint32_t type = FINISHED_ROUND;

	assert_true(size >= 8 && size <= sizeof(r));
	memcpy(r, &type, 4);
	memcpy(r + 6, &size, 2);
	memset(r + 8, size & 0xff, size - 8);
	put(o, r, size);
}

/* @n bytes of @src as COMPRESSED records (each at most 60000 bytes), one flush. */
static void compress(struct bytes *file, ZSTD_CCtx *zc, const unsigned char *src, size_t n)
{
	size_t cap = ZSTD_compressBound(n) + 64, rem, p, k;
	unsigned char *z = malloc(cap);
	ZSTD_inBuffer in = { src, n, 0 };
	ZSTD_outBuffer out = { z, cap, 0 };

	assert_non_null(z);
	do {
		rem = ZSTD_compressStream2(zc, &out, &in, ZSTD_e_flush);
		assert_false(ZSTD_isError(rem));
	} while (rem);
	for (p = 0; p < out.pos; p += k) {
		uint32_t type = COMPRESSED;
		uint16_t size;
		unsigned char h[8] = { 0 };

		k = out.pos - p < 60000 ? out.pos - p : 60000;
		size = (uint16_t)(8 + k);
		memcpy(h, &type, 4);
		memcpy(h + 6, &size, 2);
		put(file, h, 8);
		put(file, z + p, k);
	}
	free(z);
}

/* Reads @file's records; their count, or -1 on an error. */
static long count(const struct bytes *file, size_t *cut_have, uint16_t *cut_size)
{
	char path[] = "/tmp/kma-test-perf-records.XXXXXX";
	struct kma_pd pd;
	struct kma_pin in;
	struct kma_err err = { 0 };
	const unsigned char *rec;
	uint64_t off;
	long n = 0;
	int fd = mkstemp(path), ret;

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, file->b, file->len), (ssize_t)file->len);
	memset(&pd, 0, sizeof(pd));
	pd.fd = fd;
	pd.size = pd.data_size = file->len;
	kma_pin_init(&in, &pd);
	while ((ret = kma_pin_next(&in, &rec, &off, &err)) > 0)
		n++;
	*cut_have = in.cut_have;
	*cut_size = in.cut_size;
	kma_pin_release(&in);
	close(fd);
	return ret < 0 ? -1 : n;
}

/*
 * The first @ends[nr - 1] bytes of @recs as one zstd stream, a flush at each
 * of @ends, read back: the records' count (-1 on an error), and where the
 * stream ended inside a record.
 */
static long stream(const struct bytes *recs, const size_t *ends, int nr, size_t *have,
		   uint16_t *size)
{
	ZSTD_CCtx *zc = ZSTD_createCCtx();
	struct bytes file = { 0 };
	size_t at = 0;
	long n;
	int k;

	assert_non_null(zc);
	for (k = 0; k < nr; at = ends[k++])
		compress(&file, zc, recs->b + at, ends[k] - at);
	n = count(&file, have, size);
	ZSTD_freeCCtx(zc);
	free(file.b);
	return n;
}

/*
 * The second compressed piece starts its output 4 bytes in (a record's
 * first half from the first piece) and inflates to 1 MB, the room the
 * reader starts with less those 4 bytes: its last 128 KB block ends 4
 * bytes past the room. zstd then has the whole input read and 4 bytes
 * still in its own buffer, which a loop that stops when the input is used
 * up never gets: the last record would be cut.
 */
static void test_output_held_back(void **state)
{
	struct bytes recs = { 0 };
	size_t have, ends[2];
	uint16_t size;
	long i;

	(void)state;
	for (i = 0; i < 131071; i++)	/* 8 bytes each */
		record(&recs, 8);
	record(&recs, 12);
	assert_int_equal(recs.len, 4 + (1u << 20));
	ends[0] = 4;
	ends[1] = recs.len;
	assert_int_equal(stream(&recs, ends, 2, &have, &size), 131072);
	assert_int_equal(have, 0);
	free(recs.b);
}

/* The stream ends inside a record (perf record's unwritten last flush): an end. */
static void test_stream_ends_inside(void **state)
{
	struct bytes recs = { 0 };
	size_t have, ends[2];
	uint16_t size;
	long i;

	(void)state;
	for (i = 0; i < 1000; i++)
		record(&recs, 8 + (uint16_t)(i % 7) * 8);
	record(&recs, 40);
	ends[0] = recs.len / 2;
	ends[1] = recs.len - 25;
	assert_int_equal(stream(&recs, ends, 2, &have, &size), 1000);
	assert_int_equal(have, 15);
	assert_int_equal(size, 40);
	/* cut inside the header of the last record: its size is not known */
	ends[0] = recs.len - 35;
	assert_int_equal(stream(&recs, ends, 1, &have, &size), 1000);
	assert_int_equal(have, 5);
	assert_int_equal(size, 0);
	free(recs.b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_output_held_back),
		cmocka_unit_test(test_stream_ends_inside),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
