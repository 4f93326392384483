// SPDX-License-Identifier: GPL-2.0
/*
 * kma-sites.c - call site descriptions, computed once per address.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "kma-dwarf.h"
#include "kma-grow.h"
#include "kma-map.h"
#include "kma-sites.h"
#include "kma-strpool.h"
#include "kma-symtab.h"

struct kma_sites {
	struct kma_symtab	*symtab;	/* NULL: fall back to tep */
	struct tep_handle	*tep;
	struct kma_dwarf	*dwarf;
	struct kma_strpool	*pool;
	struct kma_map		map;		/* address -> index in sites */
	struct kma_site		**sites;	/* pointers: sites never move */
	uint32_t		nr;
	size_t			cap;
	char			source[160];
};

static struct kma_sites *sites_new(struct tep_handle *tep)
{
	struct kma_sites *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->tep = tep;
	s->pool = kma_strpool_alloc();
	if (!s->pool || kma_map_init(&s->map, 1024)) {
		kma_sites_free(s);
		return NULL;
	}
	return s;
}

struct kma_sites *kma_sites_alloc_symtab(struct kma_symtab *st, struct tep_handle *tep)
{
	struct kma_sites *s = sites_new(tep);

	if (!s) {
		kma_symtab_free(st);
		return NULL;
	}
	s->symtab = st;
	snprintf(s->source, sizeof(s->source), "kallsyms");
	return s;
}

struct kma_sites *kma_sites_alloc(const char *text, size_t len, const char *why,
				  struct tep_handle *tep)
{
	struct kma_sites *s = sites_new(tep);

	if (!s)
		return NULL;
	if (text) {
		s->symtab = kma_symtab_from_text(text, len);
		if (!s->symtab) {
			kma_sites_free(s);
			return NULL;
		}
		snprintf(s->source, sizeof(s->source), "kallsyms");
	} else {
		snprintf(s->source, sizeof(s->source), "libtraceevent (kallsyms not read: %s)",
			 why ? why : "unknown reason");
	}
	return s;
}

void kma_sites_free(struct kma_sites *s)
{
	uint32_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr; i++)
		free(s->sites[i]);
	free(s->sites);
	kma_map_release(&s->map);
	kma_symtab_free(s->symtab);
	kma_dwarf_free(s->dwarf);
	kma_strpool_free(s->pool);
	free(s);
}

const char *kma_sites_source(const struct kma_sites *s)
{
	return s->source;
}

int kma_sites_set_debug(struct kma_sites *s, const char *vmlinux, const char *modules_dir,
			const char *release, struct kma_err *err)
{
	char *dv = NULL, *dm = NULL;

	if (!vmlinux && !modules_dir) {
		if (!release || !*release) {
			return kma_err_set(err, KMA_ERR_OTHER, "no debug info: the trace does not "
					   "name its kernel release, so no default path applies "
					   "(use --vmlinux/--modules)");
		}
		/* name every path looked at and the package, so the user can act on it */
		if (kma_dwarf_default_paths(release, &dv, &dm))
			return kma_err_set(err, KMA_ERR_OTHER, "no debug info for kernel %s: "
				"looked for /usr/lib/debug/boot/vmlinux-%s, "
				"/usr/lib/debug/lib/modules/%s/vmlinux and "
				"/usr/lib/debug/lib/modules/%s/; install linux-image-%s-dbg "
				"(Debian) or linux-image-%s-dbgsym (Ubuntu ddebs), or pass "
				"--vmlinux/--modules", release, release, release, release,
				release, release);
		vmlinux = dv;
		modules_dir = dm;
	}
	s->dwarf = kma_dwarf_open(vmlinux, modules_dir, err);
	free(dv);
	free(dm);
	return s->dwarf ? 0 : -1;
}

int kma_sites_has_debug(const struct kma_sites *s)
{
	return s->dwarf != NULL;
}

static const char *intern(struct kma_sites *s, const char *str)
{
	return str ? kma_strpool_intern(s->pool, str, strlen(str)) : NULL;
}

/* Fills site from the trace's kallsyms, or libtraceevent's lookup without them. */
static int describe(struct kma_sites *s, uint64_t addr, struct kma_site *site)
{
	char buf[512];
	const char *file = NULL, *inlined = NULL;
	int line = 0;

	if (s->symtab) {
		uint64_t off;
		const struct kma_sym *sym = kma_symtab_lookup(s->symtab, addr, &off);

		if (sym) {
			site->symbol = intern(s, sym->name);
			site->module = intern(s, sym->module);
			site->offset = off;
		} else {
			char why[KMA_SYMTAB_WHY_MAX];

			site->note = intern(s, kma_symtab_why(s->symtab, addr, why, sizeof(why)));
		}
	} else {
		/* The same rule as libtraceevent's print_function() for %pS; no tep: no names */
		const char *func = s->tep ? tep_find_function(s->tep, addr) : NULL;

		if (func) {
			site->symbol = intern(s, func);
			site->offset = addr - tep_find_function_address(s->tep, addr);
		} else {
			site->note = intern(s, "not in the trace's kallsyms");
		}
	}
	if (site->symbol) {
		snprintf(buf, sizeof(buf), "%s+0x%" PRIx64, site->symbol, site->offset);
		if (s->dwarf && !kma_dwarf_lookup(s->dwarf, site->module, site->symbol,
						  site->offset, &file, &line, &inlined)) {
			site->file = intern(s, file);
			site->line = line;
			site->inlined = intern(s, inlined);
		} else if (s->dwarf) {
			site->line_note = intern(s, site->module ?
				"no line: the module's debug file lacks this symbol, has it more than "
				"once, or has no line for this offset" :
				"no line: vmlinux lacks this symbol, has it more than once (a static "
				"name), or has no line for this offset");
		}
	} else {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, addr);
	}
	site->name = intern(s, buf);
	if (!site->name || (site->symbol == NULL && site->note == NULL))
		return -1;
	return 0;
}

const struct kma_site *kma_sites_get(struct kma_sites *s, uint64_t addr)
{
	uint32_t *idx = kma_map_find(&s->map, addr);
	struct kma_site *site;

	if (idx)
		return s->sites[*idx];
	if (kma_grow(&s->sites, &s->cap, s->nr, sizeof(*s->sites), 256))
		return NULL;
	site = calloc(1, sizeof(*site));
	if (!site || describe(s, addr, site) || kma_map_put(&s->map, addr, s->nr)) {
		free(site);
		return NULL;
	}
	s->sites[s->nr++] = site;
	return site;
}

const struct kma_site *kma_sites_site(void *sites, uint64_t addr)
{
	return kma_sites_get(sites, addr);
}

const char *kma_sites_symbol(void *sites, uint64_t addr)
{
	const struct kma_site *site = kma_sites_get(sites, addr);

	return site ? site->name : NULL;
}

const char *kma_sites_module(void *sites, uint64_t addr)
{
	const struct kma_site *site = kma_sites_get(sites, addr);

	return site ? site->module : NULL;
}

const char *kma_sites_group_name(void *sites, uint64_t addr, enum kma_group g)
{
	const struct kma_site *site = kma_sites_get(sites, addr);
	const char *name;

	if (!site)
		return NULL;
	switch (g) {
	case KMA_GROUP_FUNCTION:
		name = site->symbol ? site->symbol : site->name;
		break;
	case KMA_GROUP_MODULE:
		name = site->module ? site->module : site->symbol ? "vmlinux" : "[unknown]";
		break;
	case KMA_GROUP_FILE:
		name = site->file ? site->file : "[unknown]";
		break;
	default:
		name = site->name;
		break;
	}
	/* interned here too, so that equal names are one pointer */
	return intern(sites, name);
}
