// SPDX-License-Identifier: GPL-2.0
/*
 * kma-symtab.c - the kallsyms text stored in trace.dat, parsed into a table
 * of text symbols with bounded sizes. See kma-symtab.h for the rules. The
 * text is found in the file by kma-tracedat.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-huge.h"
#include "kma-symtab.h"


/* One parsed kallsyms line (every kept type). */
struct raw {
	uint64_t	addr;
	const char	*name;
	const char	*module;
	uint32_t	line;		/* file order */
	char		type;
	char		marker;		/* section marker: a bound, never a result */
};

/*
 * The text (megabytes) and the tables are written once, in mappings of their
 * own (kma_huge_alloc): in malloc's 4 KB pages every page cost a fault, most
 * of a run's serial start on a virtual machine.
 */
struct kma_symtab {
	size_t		len;
	char		*names;		/* a copy cut into names and modules */
	size_t		lines;		/* raw and syms hold this many */
	struct raw	*raw;		/* every kept symbol, by address */
	size_t		nr_raw;
	struct kma_sym	*syms;		/* text symbols, by address, one per address */
	size_t		nr_syms;
};

/* ---- kallsyms text ---------------------------------------------------- */

static int is_text_type(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

/* Whether @n (@len bytes) ends with @suffix (@slen bytes). */
static int ends_with(const char *n, size_t len, const char *suffix, size_t slen)
{
	return len >= slen && !memcmp(n + len - slen, suffix, slen);
}

#define MARKER(s)	{ s, sizeof(s) - 1 }

/* @n is a name of @len bytes; every marker starts with '_', few names do */
static int is_marker(const char *n, size_t len)
{
	static const struct { const char *s; size_t len; } names[] = {
		MARKER("_stext"), MARKER("_text"), MARKER("_etext"), MARKER("_sinittext"),
		MARKER("_einittext"), MARKER("_sdata"), MARKER("_edata"), MARKER("_end"),
		MARKER("__start_rodata"), MARKER("__end_rodata"), MARKER("__init_begin"),
		MARKER("__init_end"), MARKER("__bss_start"), MARKER("__bss_stop"),
	};
	size_t i;

	if (n[0] != '_')
		return 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (len == names[i].len && !memcmp(n, names[i].s, len))
			return 1;
	return n[1] == '_' && (ends_with(n, len, "_text_start", 11) ||
			       ends_with(n, len, "_text_end", 9));
}

/* A hex digit's value + 1; 0 for any other byte */
static const unsigned char hex1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Cuts one line [p, end) of the names copy in place. Returns 0 and fills @r
 * (name and module pointing into the copy), or -1 for a malformed line.
 */
static int parse_line(char *p, char *end, struct raw *r)
{
	char *lim = end - p > 17 ? p + 17 : end, *digits = p;	/* 17: one too many */
	uint64_t addr = 0;
	int v;
	char *name;

	for (; p < lim && (v = hex1[(unsigned char)*p]); p++)
		addr = addr << 4 | (uint64_t)(v - 1);
	if (p == digits || p - digits > 16 || p >= end || !is_blank(*p))
		return -1;
	while (p < end && is_blank(*p))
		p++;
	if (p + 1 >= end || is_blank(*p) || !is_blank(p[1]))
		return -1;
	r->type = *p;
	p += 2;
	while (p < end && is_blank(*p))
		p++;
	name = p;
	p += strcspn(p, " \t");	/* stops at the line's NUL, *end */
	while (p < end && !is_blank(*p))	/* a NUL inside the line: on to a blank */
		p++;
	if (p == name)
		return -1;
	r->module = NULL;
	if (p < end) {
		*p++ = '\0';
		while (p < end && is_blank(*p))
			p++;
		if (p < end && *p == '[') {
			char *m = ++p;

			while (p < end && *p != ']' && !is_blank(*p))
				p++;
			if (p < end && *p == ']' && p > m) {
				*p = '\0';
				r->module = m;
			}
		}
	}
	r->addr = addr;
	r->name = name;
	return 0;
}

static int raw_cmp(const void *a, const void *b)
{
	const struct raw *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int same_module(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The bounded size of the symbol raw[i], see kma-symtab.h. */
static uint64_t bound(const struct kma_symtab *st, size_t i)
{
	const struct raw *r = &st->raw[i];
	size_t j = i + 1;
	uint64_t d;

	while (j < st->nr_raw && st->raw[j].addr == r->addr)
		j++;
	if (j == st->nr_raw)
		return 0;
	d = st->raw[j].addr - r->addr;
	if (same_module(st->raw[j].module, r->module))
		return d <= KMA_SYMTAB_MAX_SIZE ? d : 0;
	return d <= KMA_SYMTAB_TAIL ? d : 0;
}

struct kma_symtab *kma_symtab_from_text(const char *text, size_t len)
{
	struct kma_symtab *st = calloc(1, sizeof(*st));
	size_t lines = 1, i;
	const char *p;
	char *q, *end, *nl;
	int unsorted = 0;

	if (!st)
		return NULL;
	st->len = len;
	st->names = kma_huge_alloc(len + 1);
	if (!st->names)
		goto fail;
	memcpy(st->names, text, len);
	for (p = memchr(text, '\n', len); p; p = memchr(p + 1, '\n', len - (size_t)(p + 1 - text)))
		lines++;
	st->lines = lines;
	st->raw = kma_huge_alloc(lines * sizeof(*st->raw));
	st->syms = kma_huge_alloc(lines * sizeof(*st->syms));
	if (!st->raw || !st->syms)
		goto fail;

	for (q = st->names, end = q + len, lines = 0; q < end; q = nl + 1, lines++) {
		struct raw r = { .line = (uint32_t)lines };

		nl = memchr(q, '\n', (size_t)(end - q));
		if (!nl)
			nl = end;
		*nl = '\0';
		if (parse_line(q, nl, &r) || r.type == 'a' || r.type == 'A' || r.name[0] == '$')
			continue;
		r.marker = (char)is_marker(r.name, strlen(r.name));
		/* /proc/kallsyms is in address order but for a few lines: sort only then */
		if (st->nr_raw && r.addr < st->raw[st->nr_raw - 1].addr)
			unsorted = 1;
		st->raw[st->nr_raw++] = r;
	}
	if (unsorted)
		qsort(st->raw, st->nr_raw, sizeof(*st->raw), raw_cmp);

	for (i = 0; i < st->nr_raw; i++) {
		const struct raw *r = &st->raw[i];
		struct kma_sym *s;

		if (!is_text_type(r->type) || r->marker)
			continue;
		/* one text symbol per address: the first in the file */
		if (st->nr_syms && st->syms[st->nr_syms - 1].addr == r->addr)
			continue;
		s = &st->syms[st->nr_syms++];
		s->name = r->name;
		s->module = r->module;
		s->addr = r->addr;
		s->size = bound(st, i);
	}
	return st;
fail:
	kma_symtab_free(st);
	return NULL;
}

void kma_symtab_free(struct kma_symtab *st)
{
	if (!st)
		return;
	kma_huge_free(st->names, st->len + 1);
	kma_huge_free(st->raw, st->lines * sizeof(*st->raw));
	kma_huge_free(st->syms, st->lines * sizeof(*st->syms));
	free(st);
}

size_t kma_symtab_count(const struct kma_symtab *st)
{
	return st ? st->nr_syms : 0;
}

const struct kma_sym *kma_symtab_at(const struct kma_symtab *st, size_t i)
{
	return st && i < st->nr_syms ? &st->syms[i] : NULL;
}

/* Index of the last text symbol at or below @addr, or -1. */
static ssize_t below(const struct kma_symtab *st, uint64_t addr)
{
	size_t lo = 0, hi = st->nr_syms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (ssize_t)lo - 1;
}

static uint64_t limit(const struct kma_sym *s)
{
	return s->size ? s->size : KMA_SYMTAB_TAIL;
}

const struct kma_sym *kma_symtab_lookup(const struct kma_symtab *st, uint64_t addr,
					uint64_t *offset)
{
	const struct kma_sym *s;
	ssize_t i;

	if (!st || (i = below(st, addr)) < 0)
		return NULL;
	s = &st->syms[i];
	if (addr - s->addr >= limit(s))
		return NULL;
	if (offset)
		*offset = addr - s->addr;
	return s;
}

const char *kma_symtab_why(const struct kma_symtab *st, uint64_t addr, char *buf, size_t len)
{
	const struct kma_sym *s;
	char size[64], mod[80] = "";
	size_t lo = 0, hi;
	ssize_t i;

	if (!st || !st->nr_syms)
		return "the trace's kallsyms has no text symbols";
	i = below(st, addr);
	if (i < 0) {
		snprintf(buf, len, "below the first symbol (%s at 0x%" PRIx64 ")",
			 st->syms[0].name, st->syms[0].addr);
		return buf;
	}
	s = &st->syms[i];
	if (addr - s->addr < limit(s))
		return NULL;
	if (s->module)
		snprintf(mod, sizeof(mod), " [%.64s]", s->module);
	if (s->size)
		snprintf(size, sizeof(size), "its size 0x%" PRIx64, s->size);
	else
		snprintf(size, sizeof(size), "0x%x, its size is unknown", KMA_SYMTAB_TAIL);

	/* the nearest symbol of any type tells a data address from a gap */
	for (hi = st->nr_raw; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->raw[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == st->nr_raw) {
		snprintf(buf, len, "past the last symbol %.200s%s (offset 0x%" PRIx64
			 " exceeds %s)", s->name, mod, addr - s->addr, size);
	} else if (lo > 0 && st->raw[lo - 1].addr > s->addr) {
		const struct raw *r = &st->raw[lo - 1];

		snprintf(buf, len, "in a gap after %.200s%s (offset 0x%" PRIx64
			 " exceeds %s), at %.200s+0x%" PRIx64 " of type '%c'", s->name, mod,
			 addr - s->addr, size, r->name, addr - r->addr, r->type);
	} else {
		snprintf(buf, len, "in a gap after %.200s%s (offset 0x%" PRIx64
			 " exceeds %s)", s->name, mod, addr - s->addr, size);
	}
	return buf;
}
