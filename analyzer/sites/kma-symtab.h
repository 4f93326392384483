/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-symtab.h - the trace's own kallsyms, with bounded symbol sizes.
 *
 * libtraceevent 1.7 keeps the module of a symbol private and its lookup
 * (tep_find_function) has two pitfalls: an address inside the highest symbol
 * is not found, and an address in a gap (after the kernel text, before the
 * modules) is given to the previous symbol with a huge offset. kma reads the
 * kallsyms text stored in trace.dat itself (read by the reader's walker,
 * reader/kma-tracedat.c) and bounds every symbol.
 *
 * Parsing (/proc/kallsyms format "ADDR TYPE NAME[\t[MODULE]]"):
 *  - Lines that do not parse are skipped (libtraceevent stops at the first).
 *  - Types 'a'/'A' (absolute, e.g. x86-64 per-cpu offsets) and names that
 *    start with '$' (arm mapping symbols) are dropped entirely, as
 *    libtraceevent does: their addresses are not locations.
 *  - Every other symbol (text, data, bss, rodata, ...) bounds its
 *    predecessor, but only text-ish types are returned by a lookup:
 *    't', 'T', 'w', 'W' (weak symbols in kallsyms are functions; weak
 *    objects are 'v'/'V' and are not returned).
 *  - Section markers are bounds only, never a lookup result, so that a gap
 *    after the kernel text is not attributed to "_etext+0x...": "_stext",
 *    "_text", "_etext", "_sinittext", "_einittext", "_sdata", "_edata",
 *    "_end", "__start_rodata", "__end_rodata", "__init_begin", "__init_end",
 *    "__bss_start", "__bss_stop", and every "__*_text_start" /
 *    "__*_text_end" ("__entry_text_end", "__sched_text_start", ...).
 *  - Several text symbols at one address: the first in the file is kept
 *    (libtraceevent prints the same one under glibc's stable qsort).
 *
 * Size of a text symbol S at address A (an upper bound, not the ELF size):
 *  - N = the next symbol above A (any type except the dropped ones).
 *  - N in the same module as S (or both in vmlinux): size = N - A, unless
 *    that exceeds KMA_SYMTAB_MAX_SIZE (no function is that long: the table
 *    is missing symbols), then size = 0.
 *  - Otherwise S is the last symbol of its module (or of vmlinux, when
 *    kallsyms lacks "_etext"); where the module's text ends is not known.
 *    Modules are separate allocations, so the next symbol of any module is
 *    a hard bound: size = N - A when that is <= KMA_SYMTAB_TAIL, else 0.
 *  - No symbol above A: size = 0.
 * size 0 means unknown: a lookup then accepts offsets < KMA_SYMTAB_TAIL.
 * With "_etext" present (every real kallsyms has it) vmlinux text ends there.
 */
#ifndef KMA_SYMTAB_H
#define KMA_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

#define KMA_SYMTAB_MAX_SIZE	(1u << 20)	/* larger "sizes" are missing symbols */
#define KMA_SYMTAB_TAIL		(1u << 16)	/* bound when the size is unknown */

struct kma_symtab;

struct kma_sym {
	const char	*name;
	const char	*module;	/* NULL: vmlinux */
	uint64_t	addr;
	uint64_t	size;		/* bounded, see above; 0: unknown */
};

/* Parses /proc/kallsyms-format text (need not be NUL-terminated). NULL: no memory. */
struct kma_symtab *kma_symtab_from_text(const char *text, size_t len);

void kma_symtab_free(struct kma_symtab *st);

/*
 * The text symbol containing @addr, with *offset = addr - sym->addr (offset
 * may be NULL); NULL when @addr is in no symbol. The result lives as long as
 * @st.
 */
const struct kma_sym *kma_symtab_lookup(const struct kma_symtab *st, uint64_t addr,
					uint64_t *offset);

/*
 * Why kma_symtab_lookup(@st, @addr) fails, for the DB: "below the first
 * symbol ...", "in a gap after <sym> (offset 0x... exceeds its size 0x...)",
 * "past the last symbol ...", written into the caller's @buf (@len bytes,
 * KMA_SYMTAB_WHY_MAX is enough) or a constant string. NULL when the lookup
 * succeeds.
 */
#define KMA_SYMTAB_WHY_MAX	768
const char *kma_symtab_why(const struct kma_symtab *st, uint64_t addr, char *buf, size_t len);

/* The text symbols in address order, e.g. to iterate or to count them. */
size_t kma_symtab_count(const struct kma_symtab *st);
const struct kma_sym *kma_symtab_at(const struct kma_symtab *st, size_t i);

#endif /* KMA_SYMTAB_H */
