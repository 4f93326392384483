/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-ksyms-src.h - where a recording without kallsyms (perf.data) gets its
 * kernel symbols, as kallsyms text for kma_sites_alloc(). In this order:
 *
 *  1. --kallsyms FILE: a copy of the recording boot's /proc/kallsyms. When
 *     the file has a kernel MMAP record and FILE has its reference symbol
 *     (_text), the two addresses must agree, else FILE is refused.
 *  2. The running kernel's /proc/kallsyms, when the recording's release is
 *     the running one's (uname -r), its kernel build id (when it has one:
 *     perf 6.1 writes none for tracepoint-only files) is the one in
 *     /sys/kernel/notes, and its kernel MMAP record puts _text where
 *     /proc/kallsyms has it (not zeros: kptr_restrict).
 *  3. --symbols FILE (or --vmlinux FILE): a System.map or a vmlinux ELF,
 *     every address moved by the KASLR slide, the kernel MMAP record's
 *     address of the reference symbol less FILE's. Modules' text symbols
 *     from the .ko files their MMAP records name, when readable (ELF,
 *     uncompressed), at the record's start.
 *  4. None: no text, and one hint line saying which of these would help.
 */
#ifndef KMA_KSYMS_SRC_H
#define KMA_KSYMS_SRC_H

#include <stddef.h>

#include "kma-err.h"
#include "kma-kinfo.h"

struct kma_ksyms_opts {
	const char	*kallsyms;	/* --kallsyms; NULL: none */
	const char	*symbols;	/* --symbols / --vmlinux: System.map or vmlinux */
	int		perf_aliases;	/* name as perf does: see kma_ksyms_perf_aliases() */
	/* the running kernel; NULL: /proc/kallsyms, /sys/kernel/notes, uname -r */
	const char	*proc_kallsyms;
	const char	*notes;
	const char	*release;
};

struct kma_ksyms {
	char	*text;		/* kallsyms text (malloc'd, NUL-terminated); NULL: none */
	size_t	len;
	char	source[1536];	/* where the symbols came from, for -v and report.db */
	char	hint[1536];	/* text NULL: one line saying what would name the sites */
};

/*
 * Fills @out from @ki and @o by the order above. -1 with a reason in @err
 * when a file the user named cannot be read, is not what it should be, or
 * disagrees with the recording (then nothing is allocated); 0 otherwise,
 * @out->text possibly NULL with @out->hint set.
 */
int kma_ksyms_resolve(const struct kma_kinfo *ki, const struct kma_ksyms_opts *o,
		      struct kma_ksyms *out, struct kma_err *err);

void kma_ksyms_release(struct kma_ksyms *k);

/*
 * perf names an address shared by several symbols (aliases, e.g.
 * __do_sys_vfork, __ia32_sys_vfork, __x64_sys_vfork) by the LAST of them in
 * kallsyms: it gives each symbol the next one's start as its end, so all but
 * the last alias are empty, and drops the empty ones. kma-symtab, as trace-cmd,
 * keeps the first. This reverses every run of lines at one address in
 * @text, in place (@len bytes, lines end in '\n' but perhaps the last), so that
 * kma-symtab's first is perf's last. -1 when out of memory.
 */
int kma_ksyms_perf_aliases(char *text, size_t len);

/*
 * The address of the vmlinux symbol @name (no module) in kallsyms-format
 * @text; 0 when found, -1 when not.
 */
int kma_ksyms_find(const char *text, size_t len, const char *name, unsigned long long *addr);

#endif /* KMA_KSYMS_SRC_H */
