/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-dwarf.h - source file:line and inlined function of a call site,
 * through libdw (elfutils).
 *
 * A call site comes from the trace as symbol+offset (kma-symtab) and is
 * rebased per symbol: the same symbol is looked up by name in the ELF's
 * symbol table, so KASLR, FG-KASLR and module load addresses do not matter,
 * and vmlinux and .ko files (ET_REL) are handled alike. call_site is a
 * return address, so the source line is that of the byte before it:
 * elf_addr(symbol) + offset - 1 (offset 0: the symbol's first byte).
 *
 * When several ELF symbols have the name (static functions of the same name
 * in different files), only those whose st_size covers the offset are kept;
 * if more than one remains the call site is unknown (-1) rather than
 * guessed. A single candidate whose st_size is smaller than the offset
 * means the ELF is not the traced kernel: unknown too.
 *
 * Modules: <modules_dir> is searched recursively, once, for <name>.ko.debug,
 * <name>.ko, <name>.ko.xz, .ko.zst, .ko.gz (in that order of preference);
 * '-' and '_' are the same in module names, as for modprobe. A module's
 * ELF is opened on its first lookup.
 */
#ifndef KMA_DWARF_H
#define KMA_DWARF_H

#include <stddef.h>
#include <stdint.h>

#include "kma-err.h"

struct kma_dwarf;

/*
 * @vmlinux: ELF with DWARF (or NULL); @modules_dir: directory searched
 * recursively for module files (or NULL). NULL with a one-line reason in
 * the caller's @err (may be NULL) when neither is usable or vmlinux has no
 * DWARF.
 */
struct kma_dwarf *kma_dwarf_open(const char *vmlinux, const char *modules_dir,
				 struct kma_err *err);
void kma_dwarf_free(struct kma_dwarf *d);

/*
 * Call site @sym+@offset from the trace's kallsyms (@module NULL: vmlinux).
 * Fills *file (valid until kma_dwarf_free), *line, and *inlined: the
 * innermost inlined function the call site is in, or NULL when it is in
 * @sym's own code. Returns 0, or -1 when unknown (outputs untouched).
 */
int kma_dwarf_lookup(struct kma_dwarf *d, const char *module, const char *sym, uint64_t offset,
		     const char **file, int *line, const char **inlined);

/*
 * Debug files of kernel @release where Debian installs them (package
 * linux-image-<release>-dbg): /usr/lib/debug/boot/vmlinux-<release> (or
 * Fedora's /usr/lib/debug/lib/modules/<release>/vmlinux) and the directory
 * /usr/lib/debug/lib/modules/<release>. Each is a malloc()ed path, or NULL
 * when it does not exist. Returns 0 when at least one exists, else -1.
 */
int kma_dwarf_default_paths(const char *release, char **vmlinux, char **modules_dir);

/* The same under another root directory (for tests); @root "" is "/". */
int kma_dwarf_default_paths_at(const char *root, const char *release, char **vmlinux,
			       char **modules_dir);

#endif /* KMA_DWARF_H */
