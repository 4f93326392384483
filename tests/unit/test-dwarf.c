// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of kma-dwarf. The error paths and the default paths run alone.
 * The lookups need the kernel-like ELF files that tests/t-symbols.sh builds
 * from tests/elf/ into the directory $KMA_TEST_ELF:
 *   vmlinux           ELF with DWARF linked at 0xffffffff81000000
 *   vmlinux.nodebug   the same without DWARF
 *   mods/             holds .../fake-mod.ko (ET_REL)
 *   kallsyms          nm of both, shifted as KASLR and a module load would
 *   expected          "ADDR MODULE SYM OFFSET FILE LINE INLINED" per call
 *                     site, FILE:LINE and INLINED from addr2line -f -i on the
 *                     unshifted return address - 1; MODULE and INLINED "-"
 *                     for none; FILE "?" when kma must answer "unknown"
 *                     (a static name defined twice, both covering OFFSET).
 * Without $KMA_TEST_ELF those tests are skipped.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "sites/kma-dwarf.h"
#include "sites/kma-symtab.h"

static char *path(const char *dir, const char *name)
{
	static char buf[8][4096];
	static int n;
	char *p = buf[n++ % 8];

	snprintf(p, sizeof(buf[0]), "%s/%s", dir, name);
	return p;
}

static void touch(const char *p)
{
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs("not an ELF file\n", f);
	fclose(f);
}

static void test_open_errors(void **state)
{
	char dir[] = "/tmp/kma-dwarf-XXXXXX";
	struct kma_err why = { 0 };
	const char *file = NULL, *inl = NULL;
	struct kma_dwarf *d;
	int line = 0;

	assert_non_null(mkdtemp(dir));
	assert_null(kma_dwarf_open(NULL, NULL, &why));
	assert_string_equal(why.msg, "no vmlinux and no modules directory");
	assert_null(kma_dwarf_open(path(dir, "none"), NULL, &why));
	assert_string_equal(why.msg, "vmlinux not found: No such file or directory");
	assert_null(kma_dwarf_open(dir, NULL, &why));	/* a directory is no vmlinux */
	assert_string_equal(why.msg, "vmlinux not found: not a regular file");
	assert_null(kma_dwarf_open(NULL, path(dir, "none"), &why));
	assert_string_equal(why.msg, "modules directory not found: No such file or directory");
	touch(path(dir, "vmlinux"));
	assert_null(kma_dwarf_open(path(dir, "vmlinux"), NULL, &why));
	assert_string_equal(why.msg, "cannot read the ELF file");

	/* modules only: vmlinux call sites and missing or broken modules are unknown */
	assert_int_equal(mkdir(path(dir, "sub"), 0755), 0);
	touch(path(dir, "sub/broken-mod.ko"));
	d = kma_dwarf_open(NULL, dir, &why);
	assert_non_null(d);
	assert_int_equal(kma_dwarf_lookup(d, NULL, "kfree", 0x10, &file, &line, &inl), -1);
	assert_int_equal(kma_dwarf_lookup(d, "absent", "f", 0x10, &file, &line, &inl), -1);
	assert_int_equal(kma_dwarf_lookup(d, "broken_mod", "f", 0x10, &file, &line, &inl), -1);
	assert_int_equal(kma_dwarf_lookup(d, "broken_mod", "f", 0x10, &file, &line, &inl), -1);
	assert_null(file);
	assert_int_equal(line, 0);
	kma_dwarf_free(d);
	kma_dwarf_free(NULL);

	unlink(path(dir, "sub/broken-mod.ko"));
	rmdir(path(dir, "sub"));
	unlink(path(dir, "vmlinux"));
	rmdir(dir);
}

static void test_default_paths(void **state)
{
	char root[] = "/tmp/kma-dwarf-XXXXXX";
	char *v = (char *)1, *m = (char *)1;
	char p[4096];

	assert_non_null(mkdtemp(root));
	assert_int_equal(kma_dwarf_default_paths_at(root, "6.1.0-test", &v, &m), -1);
	assert_null(v);
	assert_null(m);

	snprintf(p, sizeof(p), "mkdir -p %s/usr/lib/debug/boot %s/usr/lib/debug/lib/modules/"
		 "6.1.0-test && touch %s/usr/lib/debug/boot/vmlinux-6.1.0-test", root, root, root);
	assert_int_equal(system(p), 0);
	assert_int_equal(kma_dwarf_default_paths_at(root, "6.1.0-test", &v, &m), 0);
	snprintf(p, sizeof(p), "%s/usr/lib/debug/boot/vmlinux-6.1.0-test", root);
	assert_string_equal(v, p);
	snprintf(p, sizeof(p), "%s/usr/lib/debug/lib/modules/6.1.0-test", root);
	assert_string_equal(m, p);
	free(v);
	free(m);

	/* no such release, or one that would leave the directory */
	assert_int_equal(kma_dwarf_default_paths_at(root, "6.1.0-other", &v, &m), -1);
	assert_int_equal(kma_dwarf_default_paths_at(root, "../../boot", &v, &m), -1);
	assert_int_equal(kma_dwarf_default_paths_at(root, NULL, &v, &m), -1);
	assert_null(v);
	assert_null(m);
	/* the real system: whatever exists, but no crash */
	if (!kma_dwarf_default_paths("6.1.0-does-not-exist", &v, &m)) {
		free(v);
		free(m);
	}
	snprintf(p, sizeof(p), "rm -rf %s", root);
	assert_int_equal(system(p), 0);
}

static char *slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void test_elf(void **state)
{
	const char *dir = getenv("KMA_TEST_ELF");
	struct kma_err why = { 0 };
	int checked = 0, unknown = 0, inl_seen = 0, mod_seen = 0;
	struct kma_symtab *st;
	struct kma_dwarf *d;
	char *text, buf[4096];
	size_t len;
	FILE *f;

	if (!dir)
		skip();
	text = slurp(path(dir, "kallsyms"), &len);
	st = kma_symtab_from_text(text, len);
	assert_non_null(st);
	d = kma_dwarf_open(path(dir, "vmlinux"), path(dir, "mods"), &why);
	if (!d)
		fail_msg("kma_dwarf_open: %s", why.msg);
	f = fopen(path(dir, "expected"), "r");
	assert_non_null(f);
	while (fgets(buf, sizeof(buf), f)) {
		char mod[256], sym[256], efile[2048], einl[256];
		unsigned long long addr, eoff;
		const char *file = NULL, *inl = NULL;
		const struct kma_sym *s;
		int eline, line = 0, ret;
		uint64_t off;

		assert_int_equal(sscanf(buf, "%llx %255s %255s %llx %2047s %d %255s", &addr, mod,
					sym, &eoff, efile, &eline, einl), 7);
		/* the trace side: runtime address -> symbol+offset */
		s = kma_symtab_lookup(st, addr, &off);
		assert_non_null(s);
		assert_string_equal(s->name, sym);
		assert_int_equal(off, eoff);
		if (strcmp(mod, "-"))
			assert_string_equal(s->module, mod);
		else
			assert_null(s->module);
		/* the ELF side */
		ret = kma_dwarf_lookup(d, s->module, s->name, off, &file, &line, &inl);
		if (!strcmp(efile, "?")) {
			if (ret != -1)
				fail_msg("%s+0x%llx: expected unknown, got %s:%d", sym, eoff,
					 file, line);
			unknown++;
			continue;
		}
		if (ret)
			fail_msg("%s+0x%llx [%s]: unknown, addr2line says %s:%d", sym, eoff, mod,
				 efile, eline);
		if (strcmp(file, efile) || line != eline)
			fail_msg("%s+0x%llx: %s:%d, addr2line says %s:%d", sym, eoff, file, line,
				 efile, eline);
		if (strcmp(einl, "-")) {
			assert_non_null(inl);
			assert_string_equal(inl, einl);
			inl_seen++;
		} else if (inl) {
			fail_msg("%s+0x%llx: inlined %s, addr2line says none", sym, eoff, inl);
		}
		mod_seen += s->module != NULL;
		checked++;
	}
	fclose(f);
	/* the ELF files are built to have all of these */
	assert_true(checked >= 6);
	assert_true(unknown >= 1);
	assert_true(inl_seen >= 3);
	assert_true(mod_seen >= 3);

	/* '-' and '_' are the same in module names; unknown names and offsets */
	{
		const char *file = NULL, *inl = NULL;
		int line = 0;

		assert_int_equal(kma_dwarf_lookup(d, "fake-mod", "mod_alloc", 9, &file, &line,
						  &inl), 0);
		assert_int_equal(kma_dwarf_lookup(d, NULL, "no_such_function", 1, &file, &line,
						  &inl), -1);
		/* beyond the ELF size of a unique symbol: not the traced kernel */
		assert_int_equal(kma_dwarf_lookup(d, NULL, "alloc_direct", 0x1000, &file, &line,
						  &inl), -1);
		assert_int_equal(kma_dwarf_lookup(d, "fake_mod", "alloc_direct", 9, &file, &line,
						  &inl), -1);
	}
	kma_dwarf_free(d);

	d = kma_dwarf_open(path(dir, "vmlinux.nodebug"), NULL, &why);
	assert_null(d);
	assert_string_equal(why.msg, "the ELF file has no DWARF debug information");
	kma_symtab_free(st);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_default_paths),
		cmocka_unit_test(test_elf),
	};

	return cmocka_run_group_tests_name("dwarf", tests, NULL, NULL);
}
