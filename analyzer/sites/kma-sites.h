/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-sites.h - what a call site is: its name as trace-cmd prints it, its
 * symbol, module and, with debug info, its source line. Built from the
 * kernel's kallsyms text that the reader hands out (kma-symtab) and
 * vmlinux/.ko DWARF (kma-dwarf), with libtraceevent's lookup as the
 * fallback. Owned by main, which hands the callbacks below to the matcher
 * and the store.
 */
#ifndef KMA_SITES_H
#define KMA_SITES_H

#include <stddef.h>
#include <stdint.h>

#include "kma-err.h"
#include "kma-event.h"

struct tep_handle;
struct kma_sites;
struct kma_symtab;

struct kma_site {
	const char	*name;		/* "symbol+0xoffset", or "0x<hex>" when unresolved */
	const char	*symbol;	/* NULL when unresolved */
	uint64_t	offset;
	const char	*module;	/* NULL: vmlinux (or unresolved) */
	const char	*file;		/* source file, with debug info only */
	int		line;
	const char	*inlined;	/* inlined function the call site is in, or NULL */
	const char	*note;		/* why the address is unresolved, or NULL */
	const char	*line_note;	/* why there is no source line despite debug info */
};

/*
 * @text: the kernel's kallsyms text (@len bytes, copied), or NULL with @why
 * it could not be read: tep's lookup is used then. NULL: out of memory.
 */
struct kma_sites *kma_sites_alloc(const char *text, size_t len, const char *why,
				  struct tep_handle *tep);
/* The same from the symbol table of that text, @st (taken: freed with the sites, or here on failure). */
struct kma_sites *kma_sites_alloc_symtab(struct kma_symtab *st, struct tep_handle *tep);
void kma_sites_free(struct kma_sites *s);

/*
 * Source lines: vmlinux / modules_dir, or (both NULL) Debian's debug
 * packages for release when installed. 0, or -1 with a reason (nothing found)
 * in the caller's @err.
 */
int kma_sites_set_debug(struct kma_sites *s, const char *vmlinux, const char *modules_dir,
			const char *release, struct kma_err *err);

/* Whether kma_sites_set_debug found debug info (file and line columns can be filled). */
int kma_sites_has_debug(const struct kma_sites *s);

/* The site of addr (stable until kma_sites_free), or NULL when out of memory. */
const struct kma_site *kma_sites_get(struct kma_sites *s, uint64_t addr);

/* Where names came from: "kallsyms", or why libtraceevent's lookup is used. */
const char *kma_sites_source(const struct kma_sites *s);

/*
 * Callbacks for the matcher and the store, with the kma_sites as @sites:
 * the site (a kma_site_fn), its name as trace-cmd report prints %pS
 * ("sym+0xoff", or "0x<hex>" unresolved; a kma_resolve_fn), its module
 * (NULL for vmlinux; a kma_resolve_fn), and its function, module or file
 * (a kma_group_fn: equal names are one pointer).
 */
const struct kma_site *kma_sites_site(void *sites, uint64_t addr);
const char *kma_sites_symbol(void *sites, uint64_t addr);
const char *kma_sites_module(void *sites, uint64_t addr);
const char *kma_sites_group_name(void *sites, uint64_t addr, enum kma_group g);

#endif /* KMA_SITES_H */
