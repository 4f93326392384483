// SPDX-License-Identifier: GPL-2.0
/*
 * mktrace-seq.c - mktrace's description parser: one line at a time into the
 * target, the symbols, command lines, statistics and the items (events,
 * markers, stacks, missed-event flags, page breaks) that mktrace.c writes.
 * The description language is documented at the top of mktrace.c.
 */
#define _GNU_SOURCE	/* asprintf */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mktrace.h"

struct target tgt = { .gen = 618, .long_size = 8, .page_size = 4096 };
int cpus = 1;
char *uname_text;
char *offset_text;	/* the OFFSET option's number, or NULL */
struct buf kallsyms, cmdlines;
struct sym *syms;
int nr_syms;
struct item *items;
int nr_items;
int has_module_events;
int has_page_events;	/* the kmem system gets the page allocator's formats */
int has_percpu_events, has_vmap_events;	/* the percpu, vmalloc systems are written */
int pages_only;		/* "kmem pages": and no slab formats */
uint64_t stats[MAX_CPUS][6];
static const char * const stat_keys[6] = {
	"entries", "overrun", "commit_overrun", "bytes", "dropped", "read",
};

uint64_t lmask(uint64_t v)
{
	return tgt.long_size == 4 ? v & 0xffffffffULL : v;
}

static uint64_t parse_num(const char *s, int line)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = *s == '-' ? (uint64_t)strtoll(s, &end, 0) : strtoull(s, &end, 0);
	if (errno || end == s || *end)
		die("line %d: bad number '%s'", line, s);
	return v;
}

/* A number, or SYMBOL[+OFFSET] resolved through the description's kallsyms. */
static uint64_t parse_value(const char *s, int line)
{
	const char *plus;
	size_t len;
	int i;

	if (isdigit((unsigned char)*s) || *s == '-')
		return parse_num(s, line);
	plus = strchr(s, '+');
	len = plus ? (size_t)(plus - s) : strlen(s);
	for (i = 0; i < nr_syms; i++)
		if (strlen(syms[i].name) == len && !strncmp(syms[i].name, s, len))
			return syms[i].addr + (plus ? parse_num(plus + 1, line) : 0);
	die("line %d: '%s' is neither a number nor a kallsyms symbol", line, s);
}

static int parse_kind(const char *s, int line)
{
	int k;

	for (k = 0; k < K_NR; k++)
		if (k != K_PRINT && k != K_STACK && !strcmp(s, kind_name(k))) {
			if (k == K_MODULE_LOAD || k == K_MODULE_FREE)
				has_module_events = 1;
			if (is_page_kind(k))
				has_page_events = 1;
			if (k == K_PERCPU_ALLOC || k == K_PERCPU_FREE)
				has_percpu_events = 1;
			if (k == K_VMAP_ALLOC || k == K_VMAP_FREE)
				has_vmap_events = 1;
			if (k < K_PRINT && pages_only)
				die("line %d: '%s' in a 'kmem pages' trace", line, s);
			return k;
		}
	die("line %d: unknown event '%s'", line, s);
}

static int parse_cpu(const char *s, int line)
{
	int cpu = (int)parse_num(s, line);

	if (cpu < 0 || cpu >= cpus)
		die("line %d: CPU %d out of range (cpus %d; put 'cpus' first)", line, cpu, cpus);
	return cpu;
}

static struct item *new_item(enum item_type type, int line)
{
	struct item *it;

	items = realloc(items, (nr_items + 1) * sizeof(*items));
	if (!items)
		die("out of memory");
	it = &items[nr_items++];
	memset(it, 0, sizeof(*it));
	it->type = type;
	it->line = line;
	return it;
}

/* Decodes \xNN escapes in place, so that names can carry any byte but NUL. */
static char *unescape(char *s, int line)
{
	char *r = s, *w = s;

	while (*r) {
		if (r[0] == '\\' && r[1] == 'x' && isxdigit((unsigned char)r[2]) &&
		    isxdigit((unsigned char)r[3])) {
			char hex[3] = { r[2], r[3], '\0' };

			*w = (char)strtol(hex, NULL, 16);
			if (!*w)
				die("line %d: \\x00: a name cannot hold a NUL byte", line);
			w++;
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return s;
}

/* Splits s at blanks into at most max words; returns how many. */
static int split(char *s, char **w, int max)
{
	int n = 0;

	while (n < max) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		w[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

/* stack CPU TS PID FRAME...: one kernel_stack record, frames innermost first */
static void parse_stack(char **w, int n, int line)
{
	struct item *it = new_item(I_STACK, line);
	int i;

	it->cpu = parse_cpu(w[1], line);
	it->ts = parse_num(w[2], line);
	it->pid = (int)parse_num(w[3], line);
	if (n - 4 > MAX_FRAMES)
		die("line %d: more than %d frames", line, MAX_FRAMES);
	it->frames = calloc(n - 4, sizeof(*it->frames));
	if (!it->frames)
		die("out of memory");
	for (i = 4; i < n; i++)
		it->frames[it->nr_frames++] = lmask(parse_value(w[i], line));
}

/* The settings of a description: generation, long, ..., cpus. 0: not one. */
static int parse_setting(char **w, int n, int line, const int set[5])
{
	if (n != 2)
		return 0;
	if (!strcmp(w[0], "generation")) {
		if (!set[0])
			tgt.gen = parse_generation(w[1]);
	} else if (!strcmp(w[0], "long")) {
		if (!set[1])
			tgt.long_size = (int)parse_num(w[1], line);
	} else if (!strcmp(w[0], "endian")) {
		if (!set[2])
			tgt.big_endian = !strcmp(w[1], "big");
	} else if (!strcmp(w[0], "gfplayout")) {
		if (nr_items)
			die("line %d: 'gfplayout' must come before the events", line);
		if (!set[4])
			tgt.gfp_layout = parse_gfp_layout(w[1]);
	} else if (!strcmp(w[0], "kmem") && !strcmp(w[1], "pages")) {
		if (nr_items)
			die("line %d: 'kmem pages' must come before the events", line);
		pages_only = 1;
	} else if (!strcmp(w[0], "pagelayout")) {
		if (nr_items)
			die("line %d: 'pagelayout' must come before the events", line);
		parse_page_layout(&tgt, w[1], line);
	} else if (!strcmp(w[0], "stacklayout")) {
		if (!set[3])
			tgt.stack_layout = parse_stack_layout(w[1]);
	} else if (!strcmp(w[0], "cpus")) {
		cpus = (int)parse_num(w[1], line);
		if (cpus < 1 || cpus > MAX_CPUS)
			die("line %d: cpus must be 1..%d", line, MAX_CPUS);
	} else {
		return 0;
	}
	return 1;
}

/* kallsyms ADDR TYPE NAME [MODULE] */
static void parse_kallsyms(char **w, int n, int line)
{
	char *end, *name;

	syms = realloc(syms, (nr_syms + 1) * sizeof(*syms));
	if (!syms)
		die("out of memory");
	syms[nr_syms].addr = strtoull(w[1], &end, 16);
	if (*end || end == w[1])
		die("line %d: bad kallsyms address '%s'", line, w[1]);
	syms[nr_syms].name = strdup(w[3]);
	name = unescape(w[3], line);
	if (n == 5)
		unescape(w[4], line);
	if (name[strcspn(name, " \t\n")] || (n == 5 && w[4][strcspn(w[4], " \t\n")]))
		die("line %d: a kallsyms name cannot hold a blank", line);
	/* /proc/kallsyms puts a tab before a module's [name] */
	buf_printf(&kallsyms, "%0*llx %s %s%s%s\n", tgt.long_size * 2,
		   (unsigned long long)lmask(syms[nr_syms].addr), w[2], name,
		   n == 5 ? "\t" : "", n == 5 ? w[4] : "");
	nr_syms++;
}

/* stats CPU KEY N... */
static void parse_stats(char **w, int n, int line)
{
	int cpu = parse_cpu(w[1], line), i, k;

	for (i = 2; i < n; i += 2) {
		for (k = 0; k < 6 && strcmp(w[i], stat_keys[k]); k++)
			;
		if (k == 6)
			die("line %d: unknown stats key '%s'", line, w[i]);
		stats[cpu][k] = parse_num(w[i + 1], line);
	}
}

/* event CPU TS PID NAME field=value... */
static void parse_event(char **w, int n, int line)
{
	struct item *it = new_item(I_EVENT, line);
	int i;

	it->cpu = parse_cpu(w[1], line);
	it->ts = parse_num(w[2], line);
	it->pid = (int)parse_num(w[3], line);
	it->kind = parse_kind(w[4], line);
	if (n - 5 > MAX_VALUES)
		die("line %d: too many fields", line);
	for (i = 5; i < n; i++) {
		struct value *v = &it->v[it->nv++];
		char *eq = strchr(w[i], '=');

		if (!eq)
			die("line %d: want field=value, got '%s'", line, w[i]);
		*eq = '\0';
		v->name = strdup(w[i]);
		if (!strcmp(v->name, "name"))
			v->str = strdup(unescape(eq + 1, line));
		else if (!strcmp(v->name, "gfp_flags") && isalpha((unsigned char)eq[1]) &&
			 !strchr(eq + 1, '+')) {
			if (gfp_value(&tgt, eq + 1, &v->num))
				die("line %d: '%s' names a flag the gfp layout lacks", line, eq + 1);
		} else
			v->num = parse_value(eq + 1, line);
		if (!strcmp(v->name, "node"))
			it->has_node = 1;
	}
}

/* marker CPU TS PID TEXT: text is the rest of the line (end: its end) */
static void parse_marker(char **w, char *end, int line)
{
	char *text = w[3] + strlen(w[3]) + 1;
	struct item *it = new_item(I_MARKER, line);
	int i;

	it->cpu = parse_cpu(w[1], line);
	it->ts = parse_num(w[2], line);
	/* split() stopped after the pid: the rest of the line is the text */
	it->pid = (int)parse_num(w[3], line);
	if (text > end)
		text = end;
	text += strspn(text, " \t");
	it->kind = K_PRINT;
	it->nv = 1;
	it->v[0].name = "buf";
	/* as echo > trace_marker stores it: with the newline */
	while (*text && isspace((unsigned char)text[strlen(text) - 1]))
		text[strlen(text) - 1] = '\0';
	unescape(text, line);
	if (asprintf((char **)&it->v[0].str, "%s\n", text) < 0)
		die("out of memory");
	for (i = 0; i < nr_syms; i++)
		if (!strcmp(syms[i].name, "tracing_mark_write")) {
			it->v[it->nv].name = "ip";
			it->v[it->nv++].num = syms[i].addr;
		}
}

/* The lines that take the rest of the line as it is: offset N, uname TEXT. 1: it was one. */
static int parse_rest(const char *s, int line)
{
	char **dst;
	size_t k;

	if (!strncmp(s, "offset", 6) && isspace((unsigned char)s[6]))
		dst = &offset_text, k = 7;
	else if (!strncmp(s, "uname", 5) && isspace((unsigned char)s[5]))
		dst = &uname_text, k = 6;	/* blanks and all */
	else
		return 0;
	free(*dst);
	*dst = strdup(s + k + strspn(s + k, " \t"));
	if (!*dst)
		die("out of memory");
	if (dst == &uname_text)
		unescape(uname_text, line);
	return 1;
}

/* Parses one line; set_* flags say which settings the command line already fixed. */
void parse_line(char *s, int line, const int set[5])
{
	char *w[MAX_FRAMES + 8], *hash;
	struct item *it;
	size_t len0;
	int n;

	for (hash = s; (hash = strchr(hash, '#')); hash++)
		if (hash == s || isspace((unsigned char)hash[-1])) {
			*hash = '\0';
			break;
		}
	while (isspace((unsigned char)*s))
		s++;
	s[strcspn(s, "\r\n")] = '\0';
	if (parse_rest(s, line))
		return;
	len0 = strlen(s);
	n = split(s, w, !strncmp(s, "marker", 6) ? 4 : (int)(sizeof(w) / sizeof(w[0])));
	if (!n || parse_setting(w, n, line, set))
		return;
	if (!strcmp(w[0], "kallsyms") && (n == 4 || n == 5)) {
		parse_kallsyms(w, n, line);
	} else if (!strcmp(w[0], "cmdline") && n == 3) {
		if (strchr(unescape(w[2], line), '\n'))
			die("line %d: a comm cannot hold a newline", line);
		buf_printf(&cmdlines, "%d %s\n", (int)parse_num(w[1], line), w[2]);
	} else if (!strcmp(w[0], "stats") && n >= 2 && n % 2 == 0) {
		parse_stats(w, n, line);
	} else if (!strcmp(w[0], "event") && n >= 5) {
		parse_event(w, n, line);
	} else if (!strcmp(w[0], "marker") && n == 4) {
		parse_marker(w, s + len0, line);
	} else if (!strcmp(w[0], "stack") && n >= 5) {
		parse_stack(w, n, line);
	} else if (!strcmp(w[0], "missed") && n == 3) {
		it = new_item(I_MISSED, line);
		it->cpu = parse_cpu(w[1], line);
		it->missed = (int64_t)parse_num(w[2], line);
		if (it->missed == 0 || it->missed < -1)
			die("line %d: missed count must be > 0 or -1", line);
	} else if (!strcmp(w[0], "page") && n == 2) {
		it = new_item(I_PAGE, line);
		it->cpu = parse_cpu(w[1], line);
	} else {
		die("line %d: cannot parse '%s'", line, w[0]);
	}
}
