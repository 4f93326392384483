// SPDX-License-Identifier: GPL-2.0
/*
 * kma-dwarf.c - call site -> file:line and inlined function, with libdwfl.
 *
 * Each ELF (vmlinux, every module) gets its own offline Dwfl: modules are
 * ET_REL, and libdwfl lays their sections out and relocates their DWARF
 * itself, so an address from the module's own symbol table is all it needs.
 * Symbols are indexed by name once per ELF, for the per-symbol rebase.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <dwarf.h>
#include <elfutils/libdwfl.h>

#include "kma-dwarf.h"
#include "kma-grow.h"

#define MAX_DEPTH	16	/* directory levels searched for modules */

struct esym {
	const char	*name;		/* in the ELF's string table */
	Dwarf_Addr	addr;		/* in the Dwfl's layout */
	uint64_t	size;		/* st_size, 0: unknown */
};

struct elf_file {
	char		*name;		/* module name, '-' as '_'; NULL: vmlinux */
	char		*path;
	int		rank;		/* preference of the file suffix, lower is better */
	Dwfl		*dwfl;		/* NULL until opened */
	Dwfl_Module	*mod;
	struct esym	*syms;		/* by name */
	size_t		nr_syms;
	int		failed;		/* could not be opened: do not retry */
};

struct kma_dwarf {
	struct elf_file	vmlinux;	/* path NULL: none */
	char		*modules_dir;
	int		scanned;
	struct elf_file	*mods;		/* files found under modules_dir */
	size_t		nr_mods, cap_mods;
};

static const Dwfl_Callbacks callbacks = {
	.find_elf	= dwfl_build_id_find_elf,
	.find_debuginfo	= dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static int esym_cmp(const void *a, const void *b)
{
	const struct esym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void close_elf(struct elf_file *e)
{
	if (e->dwfl)
		dwfl_end(e->dwfl);
	e->dwfl = NULL;
	e->mod = NULL;
	free(e->syms);
	e->syms = NULL;
	e->nr_syms = 0;
}

/* Reports @e to a new offline Dwfl and indexes its function symbols. */
static int open_elf(struct elf_file *e, const char **why)
{
	size_t cap = 0;
	Dwarf_Addr bias;
	int n, i;

	if (e->dwfl)
		return 0;
	if (e->failed)
		return -1;
	e->failed = 1;
	e->dwfl = dwfl_begin(&callbacks);
	if (!e->dwfl) {
		*why = "out of memory";
		return -1;
	}
	dwfl_report_begin(e->dwfl);
	e->mod = dwfl_report_offline(e->dwfl, e->name ? e->name : "vmlinux", e->path, -1);
	if (!e->mod || dwfl_report_end(e->dwfl, NULL, NULL)) {
		*why = "cannot read the ELF file";
		goto fail;
	}
	if (!dwfl_module_getdwarf(e->mod, &bias)) {
		*why = "the ELF file has no DWARF debug information";
		goto fail;
	}
	n = dwfl_module_getsymtab(e->mod);
	if (n <= 0) {
		*why = "the ELF file has no symbol table";
		goto fail;
	}
	for (i = 1; i < n; i++) {
		GElf_Word shndx;
		GElf_Addr addr;
		GElf_Sym sym;
		const char *name = dwfl_module_getsym_info(e->mod, i, &sym, &addr, &shndx,
							   NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);

		/* asm entry points are STT_NOTYPE; kallsyms lists them as text */
		if (!name || !*name || (type != STT_FUNC && type != STT_NOTYPE) ||
		    shndx == SHN_UNDEF || shndx == SHN_ABS || shndx == (GElf_Word)-1)
			continue;
		if (kma_grow(&e->syms, &cap, e->nr_syms, sizeof(*e->syms), 1024)) {
			*why = "out of memory";
			goto fail;
		}
		e->syms[e->nr_syms++] = (struct esym){ name, addr, sym.st_size };
	}
	qsort(e->syms, e->nr_syms, sizeof(*e->syms), esym_cmp);
	e->failed = 0;
	return 0;
fail:
	close_elf(e);
	return -1;
}

/* ---- finding module files ------------------------------------------- */

static const char * const suffixes[] = { ".ko.debug", ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };

static int add_module(struct kma_dwarf *d, const char *dir, const char *file)
{
	size_t i, j, n = strlen(file);
	struct elf_file *e;
	char *name;

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t l = strlen(suffixes[i]);

		if (n > l && !strcmp(file + n - l, suffixes[i]))
			break;
	}
	if (i == sizeof(suffixes) / sizeof(suffixes[0]))
		return 0;
	name = strndup(file, n - strlen(suffixes[i]));
	if (!name)
		return -1;
	for (j = 0; name[j]; j++)
		if (name[j] == '-')
			name[j] = '_';
	for (j = 0; j < d->nr_mods; j++) {
		if (strcmp(d->mods[j].name, name))
			continue;
		free(name);
		if (d->mods[j].rank <= (int)i)
			return 0;
		e = &d->mods[j];	/* a better file for the same module */
		free(e->path);
		e->path = NULL;
		e->rank = (int)i;
		return asprintf(&e->path, "%s/%s", dir, file) < 0 ? (e->path = NULL, -1) : 0;
	}
	if (kma_grow(&d->mods, &d->cap_mods, d->nr_mods, sizeof(*d->mods), 64)) {
		free(name);
		return -1;
	}
	e = &d->mods[d->nr_mods];
	memset(e, 0, sizeof(*e));
	e->name = name;
	e->rank = (int)i;
	if (asprintf(&e->path, "%s/%s", dir, file) < 0) {
		free(name);
		return -1;
	}
	d->nr_mods++;
	return 0;
}

static void scan(struct kma_dwarf *d, const char *dir, int depth)
{
	struct dirent *de;
	DIR *dh;

	if (depth > MAX_DEPTH || !(dh = opendir(dir)))
		return;
	while ((de = readdir(dh))) {
		struct stat sb;
		char *path;

		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0)
			break;
		/* lstat: a symlink loop (build -> source -> ...) is not followed */
		if (!lstat(path, &sb)) {
			if (S_ISDIR(sb.st_mode))
				scan(d, path, depth + 1);
			else if (S_ISREG(sb.st_mode) && add_module(d, dir, de->d_name))
				depth = MAX_DEPTH + 1;	/* out of memory: stop */
		}
		free(path);
	}
	closedir(dh);
}

static struct elf_file *module(struct kma_dwarf *d, const char *name)
{
	size_t i, j;

	if (!d->modules_dir)
		return NULL;
	if (!d->scanned) {
		d->scanned = 1;
		scan(d, d->modules_dir, 0);
	}
	for (i = 0; i < d->nr_mods; i++) {
		const char *m = d->mods[i].name;

		for (j = 0; m[j] && name[j]; j++)
			if (m[j] != (name[j] == '-' ? '_' : name[j]))
				break;
		if (!m[j] && !name[j])
			return &d->mods[i];
	}
	return NULL;
}

/* ---- API -------------------------------------------------------------- */

/* "what" or "what: strerror(errnum)" into the caller's @err (may be NULL). */
static struct kma_dwarf *refuse(struct kma_err *err, const char *what, int errnum)
{
	if (errnum)
		kma_err_errno(err, errnum, "%s", what);
	else
		kma_err_set(err, KMA_ERR_OTHER, "%s", what);
	return NULL;
}

struct kma_dwarf *kma_dwarf_open(const char *vmlinux, const char *modules_dir,
				 struct kma_err *err)
{
	struct kma_dwarf *d;
	const char *reason;
	struct stat sb;

	if (!vmlinux && !modules_dir)
		return refuse(err, "no vmlinux and no modules directory", 0);
	if (vmlinux && stat(vmlinux, &sb))
		return refuse(err, "vmlinux not found", errno);
	if (vmlinux && !S_ISREG(sb.st_mode))
		return refuse(err, "vmlinux not found: not a regular file", 0);
	if (modules_dir && stat(modules_dir, &sb))
		return refuse(err, "modules directory not found", errno);
	if (modules_dir && !S_ISDIR(sb.st_mode))
		return refuse(err, "modules directory not found: not a directory", 0);
	d = calloc(1, sizeof(*d));
	if (!d)
		goto nomem;
	if (vmlinux && !(d->vmlinux.path = strdup(vmlinux)))
		goto nomem;
	if (modules_dir && !(d->modules_dir = strdup(modules_dir)))
		goto nomem;
	/* vmlinux is checked now: a wrong --vmlinux should fail early */
	if (vmlinux && open_elf(&d->vmlinux, &reason)) {
		kma_dwarf_free(d);
		return refuse(err, reason, 0);
	}
	return d;
nomem:
	kma_dwarf_free(d);
	kma_err_nomem(err);
	return NULL;
}

void kma_dwarf_free(struct kma_dwarf *d)
{
	size_t i;

	if (!d)
		return;
	close_elf(&d->vmlinux);
	free(d->vmlinux.path);
	for (i = 0; i < d->nr_mods; i++) {
		close_elf(&d->mods[i]);
		free(d->mods[i].name);
		free(d->mods[i].path);
	}
	free(d->mods);
	free(d->modules_dir);
	free(d);
}

/* The one symbol named @name whose size covers @offset, or NULL. */
static const struct esym *rebase(const struct elf_file *e, const char *name, uint64_t offset)
{
	const struct esym *found = NULL;
	size_t lo = 0, hi = e->nr_syms, i, n = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(e->syms[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < e->nr_syms && !strcmp(e->syms[i].name, name); i++) {
		/* a return address may be the symbol's end (a call that does not return) */
		if (e->syms[i].size && offset > e->syms[i].size)
			continue;
		/* aliases: several names, one address */
		if (found && found->addr == e->syms[i].addr)
			continue;
		found = &e->syms[i];
		n++;
	}
	return n == 1 ? found : NULL;
}

/* The innermost DW_TAG_inlined_subroutine at @addr, or NULL. */
static const char *inlined_at(Dwfl_Module *mod, Dwarf_Addr addr)
{
	Dwarf_Die *cu, *scopes = NULL;
	const char *name = NULL;
	Dwarf_Addr bias;
	int n, i;

	cu = dwfl_module_addrdie(mod, addr, &bias);
	if (!cu)
		return NULL;
	n = dwarf_getscopes(cu, addr - bias, &scopes);
	for (i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram)
			break;
		if (tag == DW_TAG_inlined_subroutine) {
			/* dwarf_diename follows DW_AT_abstract_origin */
			name = dwarf_diename(&scopes[i]);
			break;
		}
	}
	free(scopes);
	return name;
}

int kma_dwarf_lookup(struct kma_dwarf *d, const char *module_name, const char *sym,
		     uint64_t offset, const char **file, int *line, const char **inlined)
{
	struct elf_file *e;
	const struct esym *s;
	const char *why, *f;
	Dwarf_Addr addr;
	Dwfl_Line *l;
	int lineno = 0;

	if (!d || !sym)
		return -1;
	e = module_name ? module(d, module_name) : (d->vmlinux.path ? &d->vmlinux : NULL);
	if (!e || open_elf(e, &why))
		return -1;
	s = rebase(e, sym, offset);
	if (!s)
		return -1;
	addr = s->addr + offset - (offset ? 1 : 0);
	l = dwfl_module_getsrc(e->mod, addr);
	f = l ? dwfl_lineinfo(l, NULL, &lineno, NULL, NULL, NULL) : NULL;
	if (!f || lineno <= 0)
		return -1;
	if (file)
		*file = f;
	if (line)
		*line = lineno;
	if (inlined)
		*inlined = inlined_at(e->mod, addr);
	return 0;
}

/* A malloc()ed "@root@a@b@c" when it is a file (@dir 0) or a directory (@dir 1). */
static char *existing(const char *root, const char *a, const char *b, const char *c, int dir)
{
	struct stat sb;
	char *p;

	if (asprintf(&p, "%s%s%s%s", root, a, b, c) < 0)
		return NULL;
	if (!stat(p, &sb) && (dir ? S_ISDIR(sb.st_mode) : S_ISREG(sb.st_mode)))
		return p;
	free(p);
	return NULL;
}

int kma_dwarf_default_paths_at(const char *root, const char *release, char **vmlinux,
			       char **modules_dir)
{
	char *v = NULL, *m = NULL;

	if (release && *release && !strchr(release, '/')) {
		v = existing(root, "/usr/lib/debug/boot/vmlinux-", release, "", 0);
		if (!v)
			v = existing(root, "/usr/lib/debug/lib/modules/", release, "/vmlinux", 0);
		m = existing(root, "/usr/lib/debug/lib/modules/", release, "", 1);
	}
	if (vmlinux)
		*vmlinux = v;
	else
		free(v);
	if (modules_dir)
		*modules_dir = m;
	else
		free(m);
	return v || m ? 0 : -1;
}

int kma_dwarf_default_paths(const char *release, char **vmlinux, char **modules_dir)
{
	return kma_dwarf_default_paths_at("", release, vmlinux, modules_dir);
}
