// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of kma-symtab: parsing, bounded sizes and the reasons given for
 * addresses in no symbol, on hand-written kallsyms; then reading the real
 * fixtures (v6 and v7+zstd must give the same text) and surviving cut and
 * corrupted copies of them. Fixtures are looked up in $KMA_FIXTURES, else in
 * tests/fixtures (tests/run.sh runs from the top of the repository).
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

#include "kma-huge.h"
#include "reader/kma-tracedat.h"
#include "sites/kma-symtab.h"

static const char table[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000100 t foo\n"
	"ffffffff81000100 t foo_alias\n"
	"ffffffff81000180 T bar\n"
	"ffffffff81000200 T _etext\n"
	"ffffffff82000000 D some_data\n"
	"ffffffff82000040 d other_data\n"
	"ffffffff82000080 W weak_fn\n"
	"ffffffff82000090 V weak_obj\n"
	"ffffffff820000a0 r ro\n"
	"0000000000000000 A fixed_percpu_data\n"
	"0000000000001000 a absolute\n"
	"ffffffff820000b0 t $x\n"
	"ffffffffc0001000 t modfn\t[mymod]\n"
	"ffffffffc0001080 t modfn2\t[mymod]\n"
	"ffffffffc0003000 T otherfn\t[other]";	/* no final newline */

/* kma_symtab_why() into one buffer: each result is checked before the next call */
static const char *why_of(const struct kma_symtab *st, uint64_t addr)
{
	static char buf[KMA_SYMTAB_WHY_MAX];

	return kma_symtab_why(st, addr, buf, sizeof(buf));
}

static struct kma_symtab *load(const char *text)
{
	struct kma_symtab *st = kma_symtab_from_text(text, strlen(text));

	assert_non_null(st);
	return st;
}

/* lookup must give @name+@off of @size, in @module */
static void expect(const struct kma_symtab *st, uint64_t addr, const char *name, uint64_t off,
		   uint64_t size, const char *module)
{
	uint64_t o = ~0ull;
	const struct kma_sym *s = kma_symtab_lookup(st, addr, &o);

	assert_non_null(s);
	assert_string_equal(s->name, name);
	assert_int_equal(o, off);
	assert_int_equal(s->size, size);
	if (module)
		assert_string_equal(s->module, module);
	else
		assert_null(s->module);
	assert_null(why_of(st, addr));
}

/* lookup must fail, and the reason start with @why */
static void expect_none(const struct kma_symtab *st, uint64_t addr, const char *why)
{
	const char *w;

	assert_null(kma_symtab_lookup(st, addr, NULL));
	w = why_of(st, addr);
	assert_non_null(w);
	if (strncmp(w, why, strlen(why)))
		fail_msg("why(0x%llx) = \"%s\", expected \"%s...\"", (unsigned long long)addr,
			 w, why);
}

static void test_parse_and_bounds(void **state)
{
	struct kma_symtab *st = load(table);

	/*
	 * startup_64 (not the _stext marker), foo (the first of two at one
	 * address), bar, weak_fn and 3 module symbols
	 */
	assert_int_equal(kma_symtab_count(st), 7);
	expect(st, 0xffffffff81000000, "startup_64", 0, 0x100, NULL);
	expect(st, 0xffffffff81000150, "foo", 0x50, 0x80, NULL);
	/* bar ends at the _etext marker */
	expect(st, 0xffffffff810001ff, "bar", 0x7f, 0x80, NULL);
	expect_none(st, 0xffffffff81000200,
		    "in a gap after bar (offset 0x80 exceeds its size 0x80)");
	/* data is not a call site, and bounds nothing it should not */
	expect_none(st, 0xffffffff82000010, "in a gap after bar");
	assert_non_null(strstr(why_of(st, 0xffffffff82000010),
			       "some_data+0x10 of type 'D'"));
	expect(st, 0xffffffff82000088, "weak_fn", 8, 0x10, NULL);
	expect_none(st, 0xffffffff82000098, "in a gap after weak_fn");
	/* module symbols: bounded within the module, then by the next module */
	expect(st, 0xffffffffc0001010, "modfn", 0x10, 0x80, "mymod");
	expect(st, 0xffffffffc00010a0, "modfn2", 0x20, 0x1f80, "mymod");
	/* the highest symbol is found (tep_find_function's first pitfall), within the tail */
	expect(st, 0xffffffffc0003010, "otherfn", 0x10, 0, "other");
	expect(st, 0xffffffffc0003000 + KMA_SYMTAB_TAIL - 1, "otherfn", KMA_SYMTAB_TAIL - 1, 0,
	       "other");
	expect_none(st, 0xffffffffc0003000 + KMA_SYMTAB_TAIL,
		    "past the last symbol otherfn [other]");
	/* absolute symbols are dropped */
	expect_none(st, 0x1000, "below the first symbol (startup_64 at 0xffffffff81000000)");
	expect_none(st, 0, "below the first symbol");
	kma_symtab_free(st);
}

/* tep_find_function's second pitfall: the gap between the kernel text and the modules */
static void test_gap_before_modules(void **state)
{
	struct kma_symtab *st = load("ffffffff81000000 T a\n"
				     "ffffffff81000100 T b\n"
				     "ffffffffc0000000 t m\t[mod]\n"
				     "ffffffffc0000040 t m2\t[mod]\n"
				     "ffffffffc0000100 t n\t[mod2]\n");

	expect(st, 0xffffffff81000010, "a", 0x10, 0x100, NULL);
	/* b is vmlinux's last symbol and no _etext: size unknown, bounded by the tail */
	expect(st, 0xffffffff81000120, "b", 0x20, 0, NULL);
	expect_none(st, 0xffffffff81000100 + KMA_SYMTAB_TAIL,
		    "in a gap after b (offset 0x10000 exceeds 0x10000, its size is unknown)");
	expect_none(st, 0xffffffffa0000000, "in a gap after b");
	expect(st, 0xffffffffc0000050, "m2", 0x10, 0xc0, "mod");
	expect(st, 0xffffffffc0000150, "n", 0x50, 0, "mod2");
	kma_symtab_free(st);
}

/* a "size" above KMA_SYMTAB_MAX_SIZE means the table misses symbols */
static void test_huge_distance(void **state)
{
	struct kma_symtab *st = load("ffffffff81000000 T a\nffffffff82000000 T b\n");

	expect(st, 0xffffffff81000010, "a", 0x10, 0, NULL);
	expect_none(st, 0xffffffff81800000, "in a gap after a");
	kma_symtab_free(st);
}

static void test_malformed_lines(void **state)
{
	static const char text[] =
		"garbage\n"
		"ffffffff81000000\n"
		"zz T x\n"
		"ffffffff81000000 T\n"
		"\n"
		"11111111111111111 T toolong\n"
		"ffffffff81000000 TT y\n"
		"ffffffff81000010 T good\n"
		"   \n"
		"ffffffff81000020 t modf\t[m]\n"
		"ffffffff81000030 t badmod\t[]\n"
		"ffffffff81000040 t unterminated\t[m\n"
		"ffffffff81000050 t end";
	struct kma_symtab *st = kma_symtab_from_text(text, sizeof(text) - 1 - 2);

	assert_non_null(st);
	assert_int_equal(kma_symtab_count(st), 5);	/* good modf badmod unterminated e */
	expect(st, 0xffffffff81000010, "good", 0, 0x10, NULL);
	/* good is in vmlinux, modf in m: good's bound is the next module's symbol */
	expect(st, 0xffffffff81000025, "modf", 5, 0x10, "m");
	expect(st, 0xffffffff81000031, "badmod", 1, 0x10, NULL);
	expect(st, 0xffffffff81000041, "unterminated", 1, 0x10, NULL);
	expect(st, 0xffffffff81000051, "e", 1, 0, NULL);	/* cut by len */
	kma_symtab_free(st);

	st = kma_symtab_from_text("", 0);
	assert_non_null(st);
	assert_int_equal(kma_symtab_count(st), 0);
	assert_null(kma_symtab_lookup(st, 0xffffffff81000000, NULL));
	assert_string_equal(why_of(st, 1), "the trace's kallsyms has no text symbols");
	kma_symtab_free(st);
}

/*
 * Lines out of address order (modules after vmlinux, or any) give the table
 * that the same lines in order give; the first of several at one address is
 * the first in the file either way.
 */
static void test_line_order(void **state)
{
	static const char sorted[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T first\n"
		"ffffffff81000000 t second\n"
		"ffffffff81000100 t b\n"
		"ffffffff81000200 T _etext\n"
		"ffffffffc0000000 t m\t[mod]\n"
		"ffffffffc0000040 t m2\t[mod]\n";
	static const char shuffled[] =
		"ffffffffc0000040 t m2\t[mod]\n"
		"ffffffff81000100 t b\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T first\n"
		"ffffffff81000200 T _etext\n"
		"ffffffffc0000000 t m\t[mod]\n"
		"ffffffff81000000 t second\n";
	struct kma_symtab *a = load(sorted), *b = load(shuffled);
	size_t i;

	assert_int_equal(kma_symtab_count(a), 4);	/* first b m m2 */
	assert_int_equal(kma_symtab_count(b), 4);
	for (i = 0; i < kma_symtab_count(a); i++) {
		const struct kma_sym *x = kma_symtab_at(a, i), *y = kma_symtab_at(b, i);

		assert_string_equal(x->name, y->name);
		assert_int_equal(x->addr, y->addr);
		assert_int_equal(x->size, y->size);
		assert_true(x->module == y->module ||
			    (x->module && y->module && !strcmp(x->module, y->module)));
	}
	expect(b, 0xffffffff81000010, "first", 0x10, 0x100, NULL);
	expect(b, 0xffffffff810001f0, "b", 0xf0, 0x100, NULL);	/* _etext bounds it */
	expect(b, 0xffffffffc0000010, "m", 0x10, 0x40, "mod");
	kma_symtab_free(a);
	kma_symtab_free(b);
}

/* Section markers by their whole name; a NUL inside a name ends it, the module stays. */
static void test_marker_names(void **state)
{
	static const char text[] =
		"ffffffff81000000 T _textx\n"
		"ffffffff81000100 T __sched_text_start\n"
		"ffffffff81000110 t in_sched\n"
		"ffffffff81000200 T __sched_text_end\n"
		"ffffffff81000300 t _text_end\n"		/* one '_': no marker */
		"ffffffff81000400 t __init_endx\n"
		"ffffffff81000500 T __init_end\n"
		"ffffffff81000600 t ab\0cd [m]\n"
		"ffffffff81000700 t z\n";
	struct kma_symtab *st = kma_symtab_from_text(text, sizeof(text) - 1);

	assert_non_null(st);
	/* _textx in_sched _text_end __init_endx ab z */
	assert_int_equal(kma_symtab_count(st), 6);
	expect(st, 0xffffffff81000010, "_textx", 0x10, 0x100, NULL);
	expect_none(st, 0xffffffff81000100, "in a gap after _textx");
	expect(st, 0xffffffff81000120, "in_sched", 0x10, 0xf0, NULL);
	expect(st, 0xffffffff81000310, "_text_end", 0x10, 0x100, NULL);
	expect(st, 0xffffffff81000410, "__init_endx", 0x10, 0x100, NULL);
	/* ab's next symbol is in vmlinux, ab in m: bounded by the tail rule */
	expect(st, 0xffffffff81000610, "ab", 0x10, 0x100, "m");
	kma_symtab_free(st);
}

/* ---- the real fixtures ------------------------------------------------- */

static char *fixture(const char *name)
{
	const char *dir = getenv("KMA_FIXTURES");
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/fixtures", name);
	return path;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The trace's kallsyms as the analyzer gets them: the reader's walker, then the parser. */
/* The trace's symbols, and its kallsyms text as the reader reads it in *text. */
static struct kma_symtab *from_trace(const char *path, char **text, size_t *len,
				     struct kma_err *err)
{
	struct kma_symtab *st = NULL;

	if (!kma_td_kallsyms(path, text, len, err))
		st = kma_symtab_from_text(*text, *len);
	return st;
}

static void test_fixtures(void **state)
{
	struct kma_symtab *v6, *v7;
	struct kma_err why;
	char *t6, *t7;
	size_t l6, l7, i;
	int found = 0;

	v7 = from_trace(fixture("basic.dat"), &t7, &l7, &why);
	if (!v7 && access(fixture("basic.dat"), R_OK))
		skip();
	if (!v7)
		fail_msg("basic.dat: %s", why.msg);
	v6 = from_trace(fixture("basic-v6.dat"), &t6, &l6, &why);
	if (!v6)
		fail_msg("basic-v6.dat: %s", why.msg);
	assert_int_equal(t6[l6], '\0');
	assert_int_equal(t7[l7], '\0');
	assert_int_equal(l6, 12188);	/* "[Kallsyms, 12188 bytes]" in trace-cmd dump */
	assert_int_equal(l6, l7);
	assert_memory_equal(t6, t7, l6);
	assert_int_equal(kma_symtab_count(v6), kma_symtab_count(v7));
	assert_true(kma_symtab_count(v7) > 100);
	for (i = 0; i < kma_symtab_count(v7); i++) {
		const struct kma_sym *s = kma_symtab_at(v7, i);
		uint64_t off;

		if (strcmp(s->name, "getname_flags.part.0"))
			continue;
		found = 1;
		assert_ptr_equal(kma_symtab_lookup(v7, s->addr + 0x24, &off), s);
		assert_int_equal(off, 0x24);
	}
	assert_true(found);
	kma_symtab_free(v6);
	kma_symtab_free(v7);
	kma_huge_free(t6, l6 + 1);
	kma_huge_free(t7, l7 + 1);

	assert_null(from_trace(fixture("no-such-file.dat"), &t6, &l6, &why));
	assert_null(t6);
	assert_string_equal(why.msg, "cannot open the trace: No such file or directory");
	assert_null(from_trace(fixture("README.md"), &t6, &l6, &why));
	assert_null(t6);
	assert_string_equal(why.msg, "not a trace.dat file");
	assert_int_equal(why.kind, KMA_ERR_OTHER);
}

static void write_file(const char *path, const char *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
}

/* from_trace on @path: any result but a crash (the sanitizer build checks memory) */
static void try(const char *path)
{
	struct kma_err why = { KMA_ERR_NONE, "" };
	struct kma_symtab *st;
	char *text;
	size_t len;

	st = from_trace(path, &text, &len, &why);
	if (text)
		kma_huge_free(text, len + 1);
	if (st) {
		kma_symtab_lookup(st, 0xffffffff81000000, NULL);
		kma_symtab_free(st);
	} else {
		assert_int_not_equal(why.kind, KMA_ERR_NONE);
	}
}

/* @buf[@at] = @c in the file, then try it, then restore the byte */
static void poke(const char *path, const char *orig, size_t *at, char *c, int n)
{
	FILE *f = fopen(path, "r+b");
	int i;

	assert_non_null(f);
	for (i = 0; i < n; i++) {
		fseek(f, (long)at[i], SEEK_SET);
		fputc((unsigned char)c[i], f);
	}
	fflush(f);
	try(path);
	for (i = n - 1; i >= 0; i--) {
		fseek(f, (long)at[i], SEEK_SET);
		fputc((unsigned char)orig[at[i]], f);
	}
	fclose(f);
}

static uint64_t le(const char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | (unsigned char)p[n];
	return v;
}

/* Offsets of the interesting metadata of a v7 file, to aim the corruption at. */
static void v7_offsets(const char *b, size_t len, size_t *opt, size_t *ks)
{
	size_t p = 10;

	p += strlen(b + p) + 1 + 2 + 4;		/* version, endianness, long size, page size */
	p += strlen(b + p) + 1;			/* compression name */
	p += strlen(b + p) + 1;			/* and version */
	*opt = le(b + p, 8);
	assert_true(*opt + 16 < len);
	*ks = 0;
	for (p = *opt + 16; p + 6 < len && le(b + p, 2) != 0; p += 6 + le(b + p + 2, 4))
		if (le(b + p, 2) == 19)
			*ks = le(b + p + 6, 8);
	assert_true(*ks > 0 && *ks + 24 < len);
}

static void test_cut_and_corrupt(void **state)
{
	static const char * const files[] = { "basic.dat", "basic-v6.dat" };
	char tmp[] = "/tmp/kma-symtab-XXXXXX";
	int fd = mkstemp(tmp), f;
	unsigned int seed = 1;

	assert_true(fd >= 0);
	close(fd);
	for (f = 0; f < 2; f++) {
		size_t len, i, opt = 0, ks = 0, n;
		char *orig = read_all(fixture(files[f]), &len);

		if (!orig)
			skip();
		/* every cut in the first 4 KiB (v6: header and formats), then ~1000 more */
		write_file(tmp, orig, len);
		for (i = len; i-- > 0;) {
			if (i >= 4096 && i % (len / 1000 + 1))
				continue;
			assert_int_equal(truncate(tmp, (off_t)i), 0);
			try(tmp);
		}
		write_file(tmp, orig, len);
		if (f == 0)
			v7_offsets(orig, len, &opt, &ks);
		/* bytes set to 0x00, 0xff or random in the header and the sections' metadata */
		for (n = 0; n < 3000; n++) {
			size_t base[] = { 0, opt, ks }, span[] = { 64, 600, 40 }, at[4];
			int k = f ? 0 : (int)(n % 3), j, nr = 1 + (int)(n % 4);
			char c[4];

			for (j = 0; j < nr; j++) {
				at[j] = base[k] + (size_t)rand_r(&seed) % (f ? 4096 : span[k]);
				if (at[j] >= len)
					at[j] = len - 1;
				c[j] = n % 5 == 0 ? 0 : n % 5 == 1 ? (char)0xff :
					 (char)rand_r(&seed);
			}
			poke(tmp, orig, at, c, nr);
		}
		free(orig);
	}
	unlink(tmp);
}

/* The walker: numbers in either byte order, file headers, a kind for a cut file. */
static void test_walker(void **state)
{
	static const unsigned char le[] = { 0x01, 0x02, 0x03, 0x04 };
	char tmp[] = "/tmp/kma-walker-XXXXXX";
	struct kma_td_head h;
	struct kma_err err;
	struct kma_td t;
	size_t len;
	char *orig, *text;
	int fd;

	assert_int_equal(kma_td_decode(le, 4, 0), 0x04030201);
	assert_int_equal(kma_td_decode(le, 4, 1), 0x01020304);
	assert_int_equal(kma_td_decode(le, 2, 1), 0x0102);
	assert_true(kma_valid_page_size(4096));
	assert_false(kma_valid_page_size(4097));
	assert_false(kma_valid_page_size(2048));
	assert_int_equal(kma_header_page_long_size("", 0), 0);
	assert_int_equal(kma_header_page_long_size("garbage", 7), -1);

	if (kma_td_open(&t, fixture("basic.dat")))
		skip();
	assert_int_equal(kma_td_head(&t, &h), KMA_TD_HEAD_OK);
	assert_int_equal(h.version, 7);
	assert_int_equal(h.page_size, 4096);
	assert_true(h.options > t.off && h.options < t.size);
	kma_td_close(&t);
	assert_int_equal(kma_td_open(&t, fixture("basic-v6.dat")), 0);
	assert_int_equal(kma_td_head(&t, &h), KMA_TD_HEAD_OK);
	assert_int_equal(h.version, 6);
	kma_td_close(&t);
	assert_int_equal(kma_td_open(&t, fixture("README.md")), 0);
	assert_int_equal(kma_td_head(&t, &h), KMA_TD_HEAD_MAGIC);
	kma_td_close(&t);

	/* v6 cut inside the event formats: a structure that does not fit, said so by its kind */
	orig = read_all(fixture("basic-v6.dat"), &len);
	assert_non_null(orig);
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	close(fd);
	write_file(tmp, orig, 600);
	assert_int_equal(kma_td_kallsyms(tmp, &text, &len, &err), -1);
	assert_null(text);
	assert_int_equal(err.kind, KMA_ERR_BROKEN);
	assert_string_equal(err.msg, "v6 header or event formats do not fit the file");
	unlink(tmp);
	free(orig);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_and_bounds),
		cmocka_unit_test(test_gap_before_modules),
		cmocka_unit_test(test_huge_distance),
		cmocka_unit_test(test_malformed_lines),
		cmocka_unit_test(test_line_order),
		cmocka_unit_test(test_marker_names),
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_cut_and_corrupt),
		cmocka_unit_test(test_walker),
	};

	return cmocka_run_group_tests_name("symtab", tests, NULL, NULL);
}
