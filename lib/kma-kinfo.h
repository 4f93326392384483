/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-kinfo.h - what a recording says of the kernel it ran on, for naming
 * call sites when the file holds no kallsyms (perf.data): the reader fills
 * it from the file's header (HEADER_OSRELEASE, HEADER_BUILD_ID) and its
 * kernel and module MMAP records; sites/kma-ksyms-src picks the symbols
 * from it. Plain data, no functions: lib/ so that both layers see it.
 */
#ifndef KMA_KINFO_H
#define KMA_KINFO_H

#include <stddef.h>
#include <stdint.h>

/* One module's MMAP record: its text at [start, start + len). */
struct kma_kmap {
	uint64_t	start;
	uint64_t	len;
	uint64_t	pgoff;
	const char	*path;		/* as recorded: "/lib/modules/R/.../ext4.ko" */
};

struct kma_kinfo {
	const char		*release;	/* HEADER_OSRELEASE; NULL: none */
	const unsigned char	*build_id;	/* the kernel's ([kernel.kallsyms]); NULL: none */
	size_t			build_id_len;	/* 0: none, or all zeros as perf 6.1 writes */
	int			has_kmap;	/* a kernel MMAP record was read */
	/*
	 * The kernel MMAP record ("[kernel.kallsyms]_text"): perf puts the
	 * recording boot's address of its reference symbol (the name after
	 * "[kernel.kallsyms]", "_text" on x86) in pgoff, and the map's start in
	 * start; pgoff 0 means the start is that address.
	 */
	uint64_t		kmap_start;
	uint64_t		kmap_pgoff;
	const char		*kmap_ref;	/* NULL or "": "_text" */
	const struct kma_kmap	*mods;
	size_t			nr_mods;
};

#endif /* KMA_KINFO_H */
