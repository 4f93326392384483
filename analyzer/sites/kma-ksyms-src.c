// SPDX-License-Identifier: GPL-2.0
/*
 * kma-ksyms-src.c - kernel symbols for a recording that carries none
 * (perf.data), as kallsyms text: the order is in kma-ksyms-src.h. Every
 * source ends as "ADDR TYPE NAME[\t[MODULE]]" lines, so that kma-symtab's
 * one parser and its bounded sizes name the sites whatever the source.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <gelf.h>

#include "kma-ksyms-src.h"

#define NT_GNU_BUILD_ID_TYPE	3
#define BUILD_ID_MAX		64

struct buf {
	char	*s;
	size_t	len, cap;
};

/* Appends printf-like text; -1 when out of memory. */
static int __attribute__((format(printf, 2, 3))) put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -1;
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return 0;
		}
		size_t cap = b->cap ? b->cap * 2 : 4096;
		char *p;

		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		p = realloc(b->s, cap);
		if (!p)
			return -1;
		b->s = p;
		b->cap = cap;
	}
}

/* The whole of @path (proc files too, whose size is 0), NUL-terminated. */
static int read_all(const char *path, struct buf *b, struct kma_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return kma_err_errno(err, errno, "%s", path);
	b->s = NULL;
	b->len = b->cap = 0;
	for (;;) {
		if (b->cap - b->len < 2) {
			size_t cap = b->cap ? b->cap * 2 : 65536;
			char *p = realloc(b->s, cap);

			if (!p) {
				close(fd);
				free(b->s);
				b->s = NULL;
				return kma_err_nomem(err);
			}
			b->s = p;
			b->cap = cap;
		}
		n = read(fd, b->s + b->len, b->cap - b->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			free(b->s);
			b->s = NULL;
			return kma_err_errno(err, e, "%s", path);
		}
		if (n == 0)
			break;
		b->len += (size_t)n;
	}
	close(fd);
	b->s[b->len] = '\0';
	return 0;
}

int kma_ksyms_find(const char *text, size_t len, const char *name, unsigned long long *addr)
{
	const char *p = text, *end = text + len;
	size_t nlen = strlen(name);

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q;
		char *e;
		unsigned long long a;

		if (!eol)
			eol = end;
		a = strtoull(p, &e, 16);
		/* "ADDR T NAME", the name ending the line (a module's has a tab after it) */
		q = e;
		if (e != p && q + 3 <= eol && q[0] == ' ' && q[2] == ' ') {
			q += 3;
			if ((size_t)(eol - q) == nlen && !memcmp(q, name, nlen)) {
				*addr = a;
				return 0;
			}
		}
		p = eol + 1;
	}
	return -1;
}

/* The GNU build id note in an ELF notes blob (/sys/kernel/notes). */
static size_t notes_build_id(const unsigned char *p, size_t len, unsigned char *id)
{
	size_t off = 0;

	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;
		size_t name_at = off + 12, desc_at, next;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		desc_at = name_at + (((size_t)namesz + 3) & ~(size_t)3);
		next = desc_at + (((size_t)descsz + 3) & ~(size_t)3);
		if (namesz > len || descsz > len || next > len)
			return 0;
		if (type == NT_GNU_BUILD_ID_TYPE && namesz == 4 &&
		    !memcmp(p + name_at, "GNU", 4) && descsz && descsz <= BUILD_ID_MAX) {
			memcpy(id, p + desc_at, descsz);
			return descsz;
		}
		off = next;
	}
	return 0;
}

static void hex(const unsigned char *id, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = '\0';
}

/* perf writes an all-zero id when it read none: that is no id. */
static int has_build_id(const struct kma_kinfo *ki)
{
	size_t i;

	for (i = 0; ki->build_id && i < ki->build_id_len; i++)
		if (ki->build_id[i])
			return 1;
	return 0;
}

static const char *ref_name(const struct kma_kinfo *ki)
{
	return ki->kmap_ref && *ki->kmap_ref ? ki->kmap_ref : "_text";
}

/* The recording boot's address of the reference symbol, from the kernel MMAP record. */
static uint64_t ref_addr(const struct kma_kinfo *ki)
{
	return ki->kmap_pgoff ? ki->kmap_pgoff : ki->kmap_start;
}

/* 1. --kallsyms FILE, checked against the kernel MMAP record. */
static int from_kallsyms(const struct kma_kinfo *ki, const char *path, struct kma_ksyms *out,
			 struct kma_err *err)
{
	struct buf b;
	unsigned long long a;

	if (read_all(path, &b, err))
		return -1;
	if (ki->has_kmap && !kma_ksyms_find(b.s, b.len, ref_name(ki), &a) && a != ref_addr(ki)) {
		free(b.s);
		return kma_err_set(err, KMA_ERR_OTHER, "%s: not the recording boot's kallsyms: "
				   "%s at 0x%llx, the recording's kernel map at 0x%" PRIx64,
				   path, ref_name(ki), a, ref_addr(ki));
	}
	out->text = b.s;
	out->len = b.len;
	snprintf(out->source, sizeof(out->source), "kallsyms from --kallsyms %s", path);
	return 0;
}

/*
 * 2. The running kernel's kallsyms when it is the recording's: 1 (taken),
 * 0 with the reason it is not in @why, -1 out of memory.
 */
static int from_running(const struct kma_kinfo *ki, const struct kma_ksyms_opts *o,
			struct kma_ksyms *out, char *why, size_t wlen)
{
	const char *kpath = o->proc_kallsyms ? o->proc_kallsyms : "/proc/kallsyms";
	const char *npath = o->notes ? o->notes : "/sys/kernel/notes";
	unsigned char id[BUILD_ID_MAX];
	char h1[2 * BUILD_ID_MAX + 1], h2[2 * BUILD_ID_MAX + 1];
	struct utsname u;
	const char *rel = o->release;
	struct kma_err e;
	struct buf b;
	unsigned long long a;
	size_t n;

	if (!rel)
		rel = uname(&u) ? "" : u.release;
	if (!ki->release || strcmp(ki->release, rel)) {
		snprintf(why, wlen, "it was recorded on kernel %s, this is %s",
			 ki->release ? ki->release : "(release not recorded)", rel);
		return 0;
	}
	if (!ki->has_kmap) {
		snprintf(why, wlen, "it has no kernel MMAP record to place this boot's _text");
		return 0;
	}
	if (has_build_id(ki)) {
		if (read_all(npath, &b, &e)) {
			snprintf(why, wlen, "this kernel's build id is unknown (%.700s)", e.msg);
			return e.kind == KMA_ERR_NOMEM ? -1 : 0;
		}
		n = notes_build_id((const unsigned char *)b.s, b.len, id);
		free(b.s);
		if (n != ki->build_id_len || memcmp(id, ki->build_id, n)) {
			hex(ki->build_id, ki->build_id_len, h1);
			hex(id, n, h2);
			snprintf(why, wlen, "its kernel build id %s is not this kernel's %s",
				 h1, n ? h2 : "(none in notes)");
			return 0;
		}
	}
	if (read_all(kpath, &b, &e)) {
		snprintf(why, wlen, "%.700s", e.msg);
		return e.kind == KMA_ERR_NOMEM ? -1 : 0;
	}
	if (kma_ksyms_find(b.s, b.len, ref_name(ki), &a) || !a || a != ref_addr(ki)) {
		if (kma_ksyms_find(b.s, b.len, ref_name(ki), &a))
			snprintf(why, wlen, "%s has no %s", kpath, ref_name(ki));
		else if (!a)
			snprintf(why, wlen, "%s shows no addresses (kptr_restrict)", kpath);
		else
			snprintf(why, wlen, "its kernel map puts %s at 0x%" PRIx64 ", this boot at "
				 "0x%llx", ref_name(ki), ref_addr(ki), a);
		free(b.s);
		return 0;
	}
	out->text = b.s;
	out->len = b.len;
	snprintf(out->source, sizeof(out->source), "the running kernel's %s (release %s%s, "
		 "%s at 0x%llx)", kpath, rel, has_build_id(ki) ? " and build id match" :
		 " matches; the recording has no build id", ref_name(ki), a);
	return 1;
}

/* System.map lines moved by @slide; lines that do not parse are left out. */
static int map_slid(const char *text, size_t len, uint64_t slide, struct buf *o)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		unsigned long long a;
		char *e;

		if (!eol)
			eol = end;
		a = strtoull(p, &e, 16);
		if (e != p && e + 3 < eol && e[0] == ' ' && e[2] == ' ' &&
		    put(o, "%" PRIx64 "%.*s\n", (uint64_t)a + slide, (int)(eol - e), e))
			return -1;
		p = eol + 1;
	}
	return 0;
}

/* The module name of a .ko path, as kallsyms brackets it: "-" read as "_". */
static void mod_name(const char *path, char *name, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t i;

	snprintf(name, len, "%s", b ? b + 1 : path);
	for (i = 0; name[i]; i++) {
		if (name[i] == '.') {
			name[i] = '\0';
			break;
		}
		if (name[i] == '-')
			name[i] = '_';
	}
}

/*
 * An ELF file's symbols as kallsyms lines: a vmlinux's every located symbol
 * at its address, or (@mod set) a .ko's functions in .text at @base plus
 * their value, tagged [@mod]. -1 with a reason when it is no ELF file.
 */
static int elf_syms(const char *path, const char *mod, uint64_t base, struct buf *o,
		    struct kma_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	Elf *elf;

	if (fd < 0)
		return kma_err_errno(err, errno, "%s", path);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx)) {
		kma_err_set(err, KMA_ERR_OTHER, "%s: neither a System.map nor an ELF file (%s)",
			    path, elf_errmsg(-1));
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			GElf_Shdr ss;
			const char *name, *sec;
			int type, glob, exec;

			if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF ||
			    s.st_shndx >= SHN_LORESERVE)
				continue;
			type = GELF_ST_TYPE(s.st_info);
			name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (!name || !*name || (type != STT_FUNC && type != STT_NOTYPE &&
						type != STT_OBJECT))
				continue;
			if (!gelf_getshdr(elf_getscn(elf, s.st_shndx), &ss))
				continue;
			exec = !!(ss.sh_flags & SHF_EXECINSTR);
			glob = GELF_ST_BIND(s.st_info) != STB_LOCAL;
			if (mod) {
				sec = elf_strptr(elf, shstrndx, ss.sh_name);
				if (type != STT_FUNC || !sec || strcmp(sec, ".text"))
					continue;
				if (put(o, "%" PRIx64 " %c %s\t[%s]\n", base + s.st_value,
					glob ? 'T' : 't', name, mod))
					goto nomem;
				continue;
			}
			if (put(o, "%" PRIx64 " %c %s\n", (uint64_t)s.st_value,
				exec ? (GELF_ST_BIND(s.st_info) == STB_WEAK ? 'W' : glob ? 'T' : 't') :
				(glob ? 'D' : 'd'), name))
				goto nomem;
		}
	}
	ret = 0;
	goto out;
nomem:
	kma_err_nomem(err);
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

/* The modules' .ko symbols at their MMAP records' starts; those not readable are skipped. */
static int module_syms(const struct kma_kinfo *ki, struct buf *o, int *used)
{
	struct kma_err e;
	char name[256];
	size_t i;

	*used = 0;
	for (i = 0; i < ki->nr_mods; i++) {
		size_t at = o->len;

		if (!ki->mods[i].path)
			continue;
		mod_name(ki->mods[i].path, name, sizeof(name));
		if (elf_syms(ki->mods[i].path, name, ki->mods[i].start, o, &e)) {
			if (e.kind == KMA_ERR_NOMEM)
				return -1;
			o->len = at;
			if (o->s)
				o->s[at] = '\0';
			continue;
		}
		(*used)++;
	}
	return 0;
}

/* 3. A System.map or vmlinux moved by the KASLR slide of the kernel MMAP record. */
static int from_symbols(const struct kma_kinfo *ki, const char *path, struct kma_ksyms *out,
			struct kma_err *err)
{
	struct buf raw = { 0 }, o = { 0 };
	unsigned long long a;
	uint64_t slide;
	int elf, mods;

	if (!ki->has_kmap)
		return kma_err_set(err, KMA_ERR_OTHER, "%s: cannot place its symbols: the "
				   "recording has no kernel MMAP record (KASLR slide unknown)", path);
	if (read_all(path, &raw, err))
		return -1;
	elf = raw.len >= 4 && !memcmp(raw.s, "\177ELF", 4);
	if (elf) {
		free(raw.s);
		raw.s = NULL;
		raw.len = raw.cap = 0;
		if (elf_syms(path, NULL, 0, &raw, err))
			goto fail;
	}
	if (!raw.s || kma_ksyms_find(raw.s, raw.len, ref_name(ki), &a)) {
		kma_err_set(err, KMA_ERR_OTHER, "%s: no %s symbol to place it by (not a %s?)",
			    path, ref_name(ki), elf ? "vmlinux" : "System.map");
		goto fail;
	}
	slide = ref_addr(ki) - (uint64_t)a;
	if (map_slid(raw.s, raw.len, slide, &o) || module_syms(ki, &o, &mods)) {
		kma_err_nomem(err);
		goto fail;
	}
	if (!o.s && put(&o, "%s", "")) {
		kma_err_nomem(err);
		goto fail;
	}
	free(raw.s);
	out->text = o.s;
	out->len = o.len;
	snprintf(out->source, sizeof(out->source), "%s %s, KASLR slide 0x%" PRIx64
		 " (%s at 0x%" PRIx64 "), %d of %zu modules' .ko files", elf ? "vmlinux" :
		 "System.map", path, slide, ref_name(ki), ref_addr(ki), mods, ki->nr_mods);
	return 0;
fail:
	free(raw.s);
	free(o.s);
	return -1;
}

/* The address a kallsyms line starts with; *ok 0 when it has none. */
static uint64_t line_addr(const char *p, const char *eol, int *ok)
{
	char *e;
	uint64_t a = strtoull(p, &e, 16);

	*ok = e != p && e < eol && *e == ' ';
	return a;
}

int kma_ksyms_perf_aliases(char *text, size_t len)
{
	char *out = malloc(len + 1), *p = text, *end = text + len, *o = out;

	if (!out)
		return -1;
	while (p < end) {
		char *run = p, *eol = memchr(p, '\n', (size_t)(end - p));
		int ok, ok2;
		uint64_t a = line_addr(p, eol ? eol : end, &ok);
		char *q;

		/* the run: lines at address a */
		for (p = eol ? eol + 1 : end; ok && p < end; p = eol ? eol + 1 : end) {
			eol = memchr(p, '\n', (size_t)(end - p));
			if (line_addr(p, eol ? eol : end, &ok2) != a || !ok2)
				break;
		}
		/* copied last line first, each with its newline */
		for (q = p; q > run;) {
			char *ls = q - 1;	/* back to the start of the line ending at q */
			size_t n;

			while (ls > run && ls[-1] != '\n')
				ls--;
			n = (size_t)(q - ls);
			memcpy(o, ls, n);
			o += n;
			if (o[-1] != '\n')
				*o++ = '\n';
			q = ls;
		}
	}
	/* at most one newline more than the text had: the last line's */
	memcpy(text, out, len);
	free(out);
	return 0;
}

int kma_ksyms_resolve(const struct kma_kinfo *ki, const struct kma_ksyms_opts *o,
		      struct kma_ksyms *out, struct kma_err *err)
{
	char why[1024];
	int r;

	memset(out, 0, sizeof(*out));
	if (o->kallsyms)
		r = from_kallsyms(ki, o->kallsyms, out, err);
	else if ((r = from_running(ki, o, out, why, sizeof(why))) < 0)
		return kma_err_nomem(err);
	else if (r)
		r = 0;
	else if (o->symbols)
		r = from_symbols(ki, o->symbols, out, err);
	else
		goto none;
	if (!r && o->perf_aliases && kma_ksyms_perf_aliases(out->text, out->len)) {
		kma_ksyms_release(out);
		return kma_err_nomem(err);
	}
	return r;
none:
	/* no --symbols without a kernel map: the slide would be unknown */
	snprintf(out->hint, sizeof(out->hint), "call sites shown as addresses: the recording "
		 "holds no kallsyms and the running kernel's cannot be used (%s); pass --kallsyms "
		 "(a copy of the recording boot's /proc/kallsyms)%s", why, ki->has_kmap ?
		 " or --symbols (its System.map or vmlinux)" : "");
	snprintf(out->source, sizeof(out->source), "none (%s)", why);
	return 0;
}

void kma_ksyms_release(struct kma_ksyms *k)
{
	free(k->text);
	k->text = NULL;
	k->len = 0;
}
