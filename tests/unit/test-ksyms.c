// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of kma-ksyms-src, the symbols of a recording without kallsyms
 * (perf.data), on hand-made inputs: a kallsyms text, the running kernel's
 * kallsyms, notes and release stood in by files, a System.map moved by a
 * KASLR slide, this test binary as a vmlinux ELF and one of the build's
 * objects as a module's .ko. Each source is checked by naming addresses
 * through kma-symtab, as kma-sites will.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libgen.h>
#include <cmocka.h>

#include "sites/kma-ksyms-src.h"
#include "sites/kma-symtab.h"

static char dir[] = "/tmp/kma-ksyms-XXXXXX";

/* the recording boot: _text at ffffffff9a000000 (slide 0x19000000) */
static const char kallsyms[] =
	"ffffffff9a000000 T _text\n"
	"ffffffff9a000000 T _stext\n"
	"ffffffff9a000100 t foo\n"
	"ffffffff9a000180 T __kmalloc_noprof\n"
	"ffffffff9a000200 T _etext\n"
	"ffffffffc0001000 t modfn\t[mymod]\n"
	"ffffffffc0001080 t modfn2\t[mymod]\n";

/* the same kernel's System.map: no slide, no modules */
static const char sysmap[] =
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 t foo\n"
	"ffffffff81000180 T __kmalloc_noprof\n"
	"ffffffff81000200 T _etext\n";

static const unsigned char bid[20] = {
	0xa3, 0x21, 0xe6, 0x51, 0x99, 0x6f, 0x84, 0x43, 0xdd, 0xb7,
	0x2a, 0x98, 0x6f, 0xf5, 0xa0, 0xbc, 0xb1, 0x46, 0xc4, 0xc5,
};

static char *path(const char *name)
{
	static char buf[8][256];
	static int i;
	char *p = buf[i++ % 8];

	snprintf(p, 256, "%s/%s", dir, name);
	return p;
}

static void write_file(const char *name, const void *data, size_t len)
{
	FILE *f = fopen(path(name), "w");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* /sys/kernel/notes: a Xen note first, then the GNU build id (type 3) */
static void write_notes(const unsigned char *id)
{
	unsigned char n[64] = { 0 };
	uint32_t h1[3] = { 4, 4, 0x10 }, h2[3] = { 4, 20, 3 };

	memcpy(n, h1, 12);
	memcpy(n + 12, "Xen", 4);
	memset(n + 16, 0xee, 4);
	memcpy(n + 20, h2, 12);
	memcpy(n + 32, "GNU", 4);
	memcpy(n + 36, id, 20);
	write_file("notes", n, 56);
}

static struct kma_kinfo kinfo(void)
{
	struct kma_kinfo ki = {
		.release = "6.18.44-test", .build_id = bid, .build_id_len = 20, .has_kmap = 1,
		.kmap_start = 0xffffffff9a000000ull, .kmap_pgoff = 0xffffffff9a000000ull,
		.kmap_ref = "_text",
	};
	return ki;
}

static struct kma_ksyms_opts running(void)
{
	struct kma_ksyms_opts o = {
		.proc_kallsyms = path("proc-kallsyms"), .notes = path("notes"),
		.release = "6.18.44-test",
	};
	return o;
}

/* @addr must be named @name+@off (in @module, NULL: vmlinux) from @k's text */
static void names(const struct kma_ksyms *k, uint64_t addr, const char *name, uint64_t off,
		  const char *module)
{
	struct kma_symtab *st = kma_symtab_from_text(k->text, k->len);
	const struct kma_sym *s;
	uint64_t o;

	assert_non_null(st);
	s = kma_symtab_lookup(st, addr, &o);
	assert_non_null(s);
	assert_string_equal(s->name, name);
	assert_int_equal(o, off);
	if (module)
		assert_string_equal(s->module, module);
	else
		assert_null(s->module);
	kma_symtab_free(st);
}

static int setup(void **state)
{
	if (!mkdtemp(dir))
		return -1;
	write_file("kallsyms", kallsyms, strlen(kallsyms));
	write_file("proc-kallsyms", kallsyms, strlen(kallsyms));
	write_file("System.map", sysmap, strlen(sysmap));
	write_notes(bid);
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* 1. --kallsyms wins over everything, and must agree with the kernel map */
static void test_kallsyms_option(void **state)
{
	struct kma_kinfo ki = kinfo();
	struct kma_ksyms_opts o = running();
	struct kma_ksyms k;
	struct kma_err err;

	o.kallsyms = path("kallsyms");
	o.symbols = path("System.map");
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), 0);
	assert_non_null(strstr(k.source, "--kallsyms"));
	assert_int_equal(k.len, strlen(kallsyms));
	names(&k, 0xffffffff9a000190ull, "__kmalloc_noprof", 0x10, NULL);
	names(&k, 0xffffffffc0001084ull, "modfn2", 4, "mymod");
	kma_ksyms_release(&k);

	/* another boot's copy: _text elsewhere */
	ki.kmap_pgoff = 0xffffffff8a000000ull;
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), -1);
	assert_null(k.text);
	assert_non_null(strstr(err.msg, "not the recording boot's kallsyms: _text at "
			       "0xffffffff9a000000, the recording's kernel map at 0xffffffff8a000000"));
	o.kallsyms = path("missing");
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), -1);
	assert_non_null(strstr(err.msg, "missing: No such file or directory"));
}

/* 2. the running kernel's, only when release, build id and _text all match */
static void test_running(void **state)
{
	static const unsigned char zero[20];
	struct kma_kinfo ki = kinfo();
	struct kma_ksyms_opts o = running();
	struct kma_ksyms k;
	struct kma_err err;

	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), 0);
	assert_non_null(k.text);
	assert_non_null(strstr(k.source, "release 6.18.44-test and build id match"));
	names(&k, 0xffffffff9a000101ull, "foo", 1, NULL);
	kma_ksyms_release(&k);

	/* perf 6.1 writes an all-zero id: release and _text decide */
	ki.build_id = zero;
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), 0);
	assert_non_null(strstr(k.source, "the recording has no build id"));
	kma_ksyms_release(&k);

	ki = kinfo();
	o.release = "6.18.44-other";
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), 0);
	assert_null(k.text);
	assert_string_equal(k.hint, "call sites shown as addresses: the recording holds no "
		"kallsyms and the running kernel's cannot be used (it was recorded on kernel "
		"6.18.44-test, this is 6.18.44-other); pass --kallsyms (a copy of the recording "
		"boot's /proc/kallsyms) or --symbols (its System.map or vmlinux)");

	o = running();
	write_notes(zero + 0);	/* this kernel: another build */
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), 0);
	assert_null(k.text);
	assert_non_null(strstr(k.hint, "its kernel build id a321e651996f8443ddb72a986ff5a0bcb146"
			       "c4c5 is not this kernel's 0000"));
	write_notes(bid);

	ki.kmap_pgoff = 0xffffffff8a000000ull;	/* another boot of this build */
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), 0);
	assert_null(k.text);
	assert_non_null(strstr(k.hint, "its kernel map puts _text at 0xffffffff8a000000, this "
			       "boot at 0xffffffff9a000000"));

	ki = kinfo();
	write_file("zeros", "0000000000000000 T _text\n", 25);
	o.proc_kallsyms = path("zeros");
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), 0);
	assert_null(k.text);
	assert_non_null(strstr(k.hint, "shows no addresses (kptr_restrict)"));

	/* no kernel map: neither the running kernel nor --symbols can be placed */
	ki.has_kmap = 0;
	o = running();
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), 0);
	assert_null(k.text);
	assert_non_null(strstr(k.hint, "no kernel MMAP record"));
	assert_null(strstr(k.hint, "--symbols"));
	o.symbols = path("System.map");
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), -1);
	assert_non_null(strstr(err.msg, "KASLR slide unknown"));
}

/* 3. System.map moved by the slide of the kernel MMAP record */
static void test_system_map(void **state)
{
	struct kma_kinfo ki = kinfo();
	struct kma_ksyms_opts o = running();
	struct kma_ksyms k;
	struct kma_err err;

	o.release = "6.18.44-other";
	o.symbols = path("System.map");
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), 0);
	assert_non_null(k.text);
	assert_non_null(strstr(k.source, "KASLR slide 0x19000000"));
	names(&k, 0xffffffff9a000180ull, "__kmalloc_noprof", 0, NULL);
	names(&k, 0xffffffff9a0001ffull, "__kmalloc_noprof", 0x7f, NULL);
	names(&k, 0xffffffff9a000104ull, "foo", 4, NULL);
	kma_ksyms_release(&k);

	/* the map's start alone (pgoff 0), another reference symbol */
	ki.kmap_pgoff = 0;
	ki.kmap_start = 0xffffffff82000100ull;
	ki.kmap_ref = "foo";
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), 0);
	assert_non_null(strstr(k.source, "KASLR slide 0x1000000"));
	names(&k, 0xffffffff82000180ull, "__kmalloc_noprof", 0, NULL);
	kma_ksyms_release(&k);

	ki.kmap_ref = "_sinittext";
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), -1);
	assert_non_null(strstr(err.msg, "no _sinittext symbol to place it by"));
	write_file("junk", "\177ELF junk", 9);
	o.symbols = path("junk");
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), -1);
	assert_non_null(strstr(err.msg, "junk: neither a System.map nor an ELF file"));
}

int main(int argc, char **argv);
int test_ksyms_marker(void);
int test_ksyms_marker(void)
{
	return 42;
}

/* this binary as a vmlinux, placed by main; a build object as a module's .ko */
static void test_elf(void **state)
{
	struct kma_kinfo ki = kinfo();
	struct kma_ksyms_opts o = running();
	struct kma_kmap mod = { .start = 0xffffffffc0100000ull, .len = 0x100000 };
	char self[512], obj[600];
	unsigned long long m, f;
	struct kma_ksyms k;
	struct kma_err err;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	assert_true(n > 0);
	self[n] = '\0';
	snprintf(obj, sizeof(obj), "%s/../../analyzer/sites/kma-symtab.o", dirname(self));
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n] = '\0';
	o.release = "6.18.44-other";
	o.symbols = self;
	ki.kmap_ref = "main";
	ki.kmap_pgoff = 0xffffffff81000000ull;
	mod.path = obj;
	ki.mods = &mod;
	ki.nr_mods = 1;
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), 0);
	assert_non_null(strstr(k.source, "vmlinux "));
	assert_non_null(strstr(k.source, "1 of 1 modules' .ko files"));
	assert_int_equal(kma_ksyms_find(k.text, k.len, "main", &m), 0);
	assert_int_equal(m, 0xffffffff81000000ull);
	assert_int_equal(kma_ksyms_find(k.text, k.len, "test_ksyms_marker", &f), 0);
	/* the ELF's distance between the two is the loaded one */
	assert_int_equal(f - m, (uintptr_t)test_ksyms_marker - (uintptr_t)main);
	names(&k, f + 1, "test_ksyms_marker", 1, NULL);
	/* the module's functions at its MMAP record's start, tagged with its name */
	assert_non_null(strstr(k.text, " T kma_symtab_free\t[kma_symtab]\n"));
	kma_ksyms_release(&k);
}

/* perf's alias rule: the last symbol at an address names it */
static void test_perf_aliases(void **state)
{
	char text[] = "ffffffff81000010 t __pfx_a\n"
		      "ffffffff81000020 T __ia32_sys_vfork\n"
		      "ffffffff81000020 T __x64_sys_vfork\n"
		      "ffffffff81000020 t __do_sys_vfork\n"
		      "junk line\n"
		      "ffffffff81000080 T next\n"
		      "ffffffff81000100 T last1\n"
		      "ffffffff81000100 T last2";
	const char *want = "ffffffff81000010 t __pfx_a\n"
			   "ffffffff81000020 t __do_sys_vfork\n"
			   "ffffffff81000020 T __x64_sys_vfork\n"
			   "ffffffff81000020 T __ia32_sys_vfork\n"
			   "junk line\n"
			   "ffffffff81000080 T next\n"
			   "ffffffff81000100 T last2\n"
			   "ffffffff81000100 T last1";
	struct kma_kinfo ki = kinfo();
	struct kma_ksyms_opts o = running();
	struct kma_ksyms k;
	struct kma_err err;

	assert_int_equal(kma_ksyms_perf_aliases(text, strlen(text)), 0);
	assert_string_equal(text, want);

	write_file("aliases", want, strlen(want));	/* reversed back through resolve */
	o.kallsyms = path("aliases");
	o.perf_aliases = 1;
	ki.has_kmap = 0;
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), 0);
	names(&k, 0xffffffff81000024ull, "__ia32_sys_vfork", 4, NULL);
	kma_ksyms_release(&k);
	o.perf_aliases = 0;
	assert_int_equal(kma_ksyms_resolve(&ki, &o, &k, &err), 0);
	names(&k, 0xffffffff81000024ull, "__do_sys_vfork", 4, NULL);
	kma_ksyms_release(&k);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kallsyms_option),
		cmocka_unit_test(test_running),
		cmocka_unit_test(test_system_map),
		cmocka_unit_test(test_elf),
		cmocka_unit_test(test_perf_aliases),
	};

	return cmocka_run_group_tests_name("ksyms", tests, setup, teardown);
}
