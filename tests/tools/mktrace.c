// SPDX-License-Identifier: GPL-2.0
/*
 * mktrace - write a version 6 trace.dat (see trace-cmd.dat.v6(5)) from a text
 * description, so that kma can be tested on traces of kernels, word sizes and
 * byte orders we cannot record on. The kmem event formats of each kernel
 * generation are in mktrace-formats.c.
 *
 * usage: mktrace [-g GEN] [-l 4|8] [-E little|big] [-S LAYOUT] [-G GFPLAYOUT] -o OUT.dat
 *                DESCRIPTION
 *
 * The description is line based; '#' starts a comment at the start of a line or
 * after a blank. Options given on the command line win over the file's lines.
 *
 *   generation 5.10          kmem formats: 5.10 (any <= 5.11), 5.12, 5.16, 6.0, 6.1, 6.18
 *                            or newest; default newest
 *   long 8                   size of a long: 8 or 4. With 4 every number written into a
 *                            long field or kallsyms is cut to its low 32 bits, so one
 *                            description serves both word sizes
 *   endian little            or big
 *   cpus 2
 *   uname TEXT               default "Linux mktrace <gen>.0-mktrace <machine>"
 *   offset N                 an OFFSET option (trace-cmd record --ts-offset): libtracecmd
 *                            adds N ns to every timestamp it reads
 *   kallsyms ADDR TYPE NAME [MODULE]
 *                            hex ADDR; MODULE as "[mod]". libtraceevent names no address
 *                            past the last symbol, so end the list with one past the
 *                            last symbol used
 *   cmdline PID COMM
 *   stats CPU KEY N...       per-CPU statistics (CPUSTAT option), keys: entries overrun
 *                            commit_overrun bytes dropped read
 *   event CPU TS PID NAME field=value...
 *                            NAME is kmalloc, kmalloc_node, kmem_cache_alloc,
 *                            kmem_cache_alloc_node, kfree or kmem_cache_free; TS in ns.
 *                            A value is a number or SYMBOL[+OFFSET] from the kallsyms
 *                            lines; name= is a cache name; gfp_flags= may be names of
 *                            the gfplayout's table (GFP_KERNEL|__GFP_DMA). An alloc
 *                            with node= is a *_node event before 6.1, plain after.
 *                            NAME may also be module_load (name=MODULE, taints=N,
 *                            default 0) or module_free (name=MODULE): module:* events
 *                            as include/trace/events/module.h has them; the file gets
 *                            the module system only when a description uses it
 *   marker CPU TS PID TEXT   an ftrace print event, as a write to trace_marker (ip is
 *                            tracing_mark_write's address if kallsyms has it)
 *   stack CPU TS PID ADDR... a kernel_stack record (record -T): up to 64 frames,
 *                            innermost first, numbers (-1 is ULONG_MAX) or SYMBOL[+OFF]
 *   kmem pages               the kmem system has the page allocator's formats only, as
 *                            trace-cmd record -e kmem:mm_page_alloc ... writes it (before
 *                            the events; no slab event may follow)
 *   pagelayout pfn           or page: the page allocator events, see mktrace-page.c
 *                            NAME may also be percpu_alloc_percpu, percpu_free_percpu,
 *                            alloc_vmap_area or free_vmap_area_noflush: see mktrace-kinds.c
 *   gfplayout new            or old, shuffled, none, as -G (before the events): the gfp
 *                            bits and their print fmt table, see mktrace-formats.c
 *   stacklayout modern       or old (< 3.2) or stale (5.6 - 5.12), as -S: see
 *                            mktrace-formats.c
 *   missed CPU N             the next page of CPU starts with the missed-events flag and
 *                            the count N stored after its data; N = -1: flag only
 *   page CPU                 start a new ring-buffer page on CPU
 *
 * Names (kallsyms NAME and MODULE, cmdline COMM, name= values, marker TEXT, uname)
 * may carry any byte but NUL as \xNN (two hex digits), e.g. a symbol
 * bad\xe9name or a marker kma: two\x0alines; other backslashes are kept. A
 * kallsyms line refers to its symbol as written, escapes and all. kallsyms names
 * cannot hold blanks, nor COMM a newline: their text formats have no room for them.
 *
 * Events of one CPU must come in time order; CPUs may interleave freely. Each page
 * starts at the time of its first record; a gap of 2^27 ns or more gets a time-extend
 * record, a payload over 112 bytes a length word, as the kernel's ring buffer does.
 */
#define _GNU_SOURCE	/* asprintf */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mktrace.h"

#define MAX_CPUS	64
#define MAX_VALUES	10
#define TS_BITS		27	/* time_delta bits of a record header */

/* commit word flags of a ring-buffer page (kernel RB_MISSED_*) */
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_MISSED_STORED	(1ULL << 30)

enum { T_PADDING = 29, T_TIME_EXTEND = 30 };

/* trace-cmd option ids (trace-cmd.h TRACECMD_OPTION_*) */
enum { OPT_DONE, OPT_DATE, OPT_CPUSTAT, OPT_BUFFER, OPT_TRACECLOCK, OPT_UNAME, OPT_OFFSET = 7,
       OPT_CPUCOUNT = 8 };

enum item_type { I_EVENT, I_MARKER, I_MISSED, I_PAGE, I_STACK };

struct item {
	enum item_type	type;
	int		cpu, pid, kind, has_node, line;
	uint64_t	ts;
	int64_t		missed;
	int		nv;
	struct value	v[MAX_VALUES];
	uint64_t	*frames;	/* I_STACK: innermost first */
	int		nr_frames;
};

struct sym {
	uint64_t	addr;
	char		*name;
};

static struct target tgt = { .gen = 618, .long_size = 8, .page_size = 4096 };
static int cpus = 1;
static char *uname_text;
static char *offset_text;	/* the OFFSET option's number, or NULL */
static struct buf kallsyms, cmdlines;
static struct sym *syms;
static int nr_syms;
static struct item *items;
static int nr_items;
static int has_module_events;
static int has_page_events;	/* the kmem system gets the page allocator's formats */
static int has_percpu_events, has_vmap_events;	/* the percpu, vmalloc systems are written */
static int pages_only;		/* "kmem pages": and no slab formats */
static uint64_t stats[MAX_CPUS][6];
static const char * const stat_keys[6] = {
	"entries", "overrun", "commit_overrun", "bytes", "dropped", "read",
};

static uint64_t lmask(uint64_t v)
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

/* Parses one line; set_* flags say which settings the command line already fixed. */
static void parse_line(char *s, int line, const int set[5])
{
	char *w[MAX_FRAMES + 8], *hash;
	struct item *it;
	size_t len0;
	int n, i;

	for (hash = s; (hash = strchr(hash, '#')); hash++)
		if (hash == s || isspace((unsigned char)hash[-1])) {
			*hash = '\0';
			break;
		}
	while (isspace((unsigned char)*s))
		s++;
	s[strcspn(s, "\r\n")] = '\0';
	if (!strncmp(s, "offset", 6) && isspace((unsigned char)s[6])) {
		free(offset_text);
		offset_text = strdup(s + 7 + strspn(s + 7, " \t"));
		if (!offset_text)
			die("out of memory");
		return;
	}
	if (!strncmp(s, "uname", 5) && isspace((unsigned char)s[5])) {
		/* the rest of the line as it is, blanks and all */
		free(uname_text);
		uname_text = strdup(s + 6 + strspn(s + 6, " \t"));
		if (!uname_text)
			die("out of memory");
		unescape(uname_text, line);
		return;
	}
	len0 = strlen(s);
	n = split(s, w, !strncmp(s, "marker", 6) ? 4 : (int)(sizeof(w) / sizeof(w[0])));
	if (!n)
		return;
	if (!strcmp(w[0], "generation") && n == 2) {
		if (!set[0])
			tgt.gen = parse_generation(w[1]);
	} else if (!strcmp(w[0], "long") && n == 2) {
		if (!set[1])
			tgt.long_size = (int)parse_num(w[1], line);
	} else if (!strcmp(w[0], "endian") && n == 2) {
		if (!set[2])
			tgt.big_endian = !strcmp(w[1], "big");
	} else if (!strcmp(w[0], "gfplayout") && n == 2) {
		if (nr_items)
			die("line %d: 'gfplayout' must come before the events", line);
		if (!set[4])
			tgt.gfp_layout = parse_gfp_layout(w[1]);
	} else if (!strcmp(w[0], "kmem") && n == 2 && !strcmp(w[1], "pages")) {
		if (nr_items)
			die("line %d: 'kmem pages' must come before the events", line);
		pages_only = 1;
	} else if (!strcmp(w[0], "pagelayout") && n == 2) {
		if (nr_items)
			die("line %d: 'pagelayout' must come before the events", line);
		parse_page_layout(&tgt, w[1], line);
	} else if (!strcmp(w[0], "stacklayout") && n == 2) {
		if (!set[3])
			tgt.stack_layout = parse_stack_layout(w[1]);
	} else if (!strcmp(w[0], "cpus") && n == 2) {
		cpus = (int)parse_num(w[1], line);
		if (cpus < 1 || cpus > MAX_CPUS)
			die("line %d: cpus must be 1..%d", line, MAX_CPUS);
	} else if (!strcmp(w[0], "kallsyms") && (n == 4 || n == 5)) {
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
	} else if (!strcmp(w[0], "cmdline") && n == 3) {
		if (strchr(unescape(w[2], line), '\n'))
			die("line %d: a comm cannot hold a newline", line);
		buf_printf(&cmdlines, "%d %s\n", (int)parse_num(w[1], line), w[2]);
	} else if (!strcmp(w[0], "stats") && n >= 2 && n % 2 == 0) {
		int cpu = parse_cpu(w[1], line), k;

		for (i = 2; i < n; i += 2) {
			for (k = 0; k < 6 && strcmp(w[i], stat_keys[k]); k++)
				;
			if (k == 6)
				die("line %d: unknown stats key '%s'", line, w[i]);
			stats[cpu][k] = parse_num(w[i + 1], line);
		}
	} else if (!strcmp(w[0], "event") && n >= 5) {
		it = new_item(I_EVENT, line);
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
					die("line %d: '%s' names a flag the gfp layout lacks", line,
					    eq + 1);
			} else
				v->num = parse_value(eq + 1, line);
			if (!strcmp(v->name, "node"))
				it->has_node = 1;
		}
	} else if (!strcmp(w[0], "marker") && n == 4) {
		char *text = w[3] + strlen(w[3]) + 1;

		it = new_item(I_MARKER, line);
		it->cpu = parse_cpu(w[1], line);
		it->ts = parse_num(w[2], line);
		/* split() stopped after the pid: the rest of the line is the text */
		it->pid = (int)parse_num(w[3], line);
		if (text > s + len0)
			text = s + len0;
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

/* One CPU's ring buffer, page by page, as the kernel fills it. */
struct rb {
	struct buf	*out;
	unsigned char	*page;
	int		open;
	size_t		used;
	uint64_t	page_ts;	/* page header timestamp: its first record's time */
	uint64_t	last_ts;	/* deltas count from the previous record */
	int64_t		missed;		/* flag of the open page: 0, -1 or a count */
	int64_t		pending;	/* for the next page */
};

static size_t rb_capacity(const struct rb *rb)
{
	size_t cap = tgt.page_size - 8 - tgt.long_size;

	/* a stored count sits after the data, so it takes room from it */
	return rb->missed > 0 ? cap - tgt.long_size : cap;
}

static void rb_open(struct rb *rb, uint64_t ts)
{
	memset(rb->page, 0, tgt.page_size);
	rb->open = 1;
	rb->used = 0;
	rb->page_ts = rb->last_ts = ts;
	rb->missed = rb->pending;
	rb->pending = 0;
}

static void rb_flush(struct rb *rb)
{
	unsigned char *data = rb->page + 8 + tgt.long_size;
	uint64_t commit = rb->used;

	if (!rb->open)
		return;
	if (rb->missed)
		commit |= RB_MISSED_EVENTS;
	if (rb->missed > 0) {
		commit |= RB_MISSED_STORED;
		put_num(data + rb->used, &tgt, lmask((uint64_t)rb->missed), tgt.long_size);
	}
	put_num(rb->page, &tgt, rb->page_ts, 8);
	put_num(rb->page + 8, &tgt, commit, tgt.long_size);
	buf_add(rb->out, rb->page, tgt.page_size);
	rb->open = 0;
}

/* Record header word: type_len in the low 5 bits, or the top 5 on big-endian. */
static void put_header(unsigned char *p, unsigned int type_len, uint64_t delta)
{
	uint32_t w = tgt.big_endian ? type_len << 27 | (uint32_t)delta
				    : (uint32_t)delta << 5 | type_len;

	put_num(p, &tgt, w, 4);
}

/* The record payload of an event, marker or stack line. */
static void encode_item(struct buf *payload, const struct item *it, const struct event_fmt *fmts)
{
	int kind = it->type == I_MARKER ? K_PRINT : render_kind(&tgt, it->kind, it->has_node);
	const struct event_fmt *e = &fmts[kind];
	struct value v[MAX_VALUES];
	int i;

	if (it->type == I_STACK) {
		encode_stack(payload, &tgt, &fmts[K_STACK], it->pid, it->frames, it->nr_frames);
		return;
	}
	if (!e->name)
		die("line %d: this generation has no event for this line", it->line);
	for (i = 0; i < it->nv; i++) {
		v[i] = it->v[i];
		v[i].num = lmask(v[i].num);
	}
	encode_payload(payload, &tgt, e, it->pid, v, it->nv, it->line);
}

static void rb_add(struct rb *rb, const struct item *it, const struct event_fmt *fmts)
{
	struct buf payload = { 0 };
	size_t pad, hlen, need;
	unsigned char *p;
	uint64_t delta;

	encode_item(&payload, it, fmts);
	pad = (payload.len + 3) / 4 * 4;
	/* up to 28 words the length fits type_len; longer ones carry it in array[0] */
	hlen = pad <= 28 * 4 ? 4 : 8;

	if (rb->open && it->ts < rb->last_ts)
		die("line %d: time goes backwards on CPU %d", it->line, it->cpu);
	delta = rb->open ? it->ts - rb->last_ts : 0;
	need = hlen + pad + (delta >> TS_BITS ? 8 : 0);
	if (rb->open && rb->used + need > rb_capacity(rb))
		rb_flush(rb);
	if (!rb->open) {
		rb_open(rb, it->ts);
		delta = 0;
	}
	if (hlen + pad > rb_capacity(rb))
		die("line %d: event does not fit a page", it->line);
	p = rb->page + 8 + tgt.long_size + rb->used;
	if (delta >> TS_BITS) {
		/* a time extend: the low 27 bits in the header, the rest in array[0] */
		if (delta >> (TS_BITS + 32))
			die("line %d: time gap too large", it->line);
		put_header(p, T_TIME_EXTEND, delta & ((1u << TS_BITS) - 1));
		put_num(p + 4, &tgt, delta >> TS_BITS, 4);
		p += 8;
		rb->used += 8;
		delta = 0;
	}
	if (hlen == 4) {
		put_header(p, pad / 4, delta);
	} else {
		put_header(p, 0, delta);
		put_num(p + 4, &tgt, pad + 4, 4);
	}
	memcpy(p + hlen, payload.p, payload.len);
	rb->used += hlen + pad;
	rb->last_ts = it->ts;
	free(payload.p);
}

static void write_cpu(struct buf *out, int cpu, const struct event_fmt *fmts)
{
	struct rb rb = { .out = out };
	int i;

	rb.page = malloc(tgt.page_size);
	if (!rb.page)
		die("out of memory");
	for (i = 0; i < nr_items; i++) {
		const struct item *it = &items[i];

		if (it->cpu != cpu)
			continue;
		if (it->type == I_EVENT || it->type == I_MARKER || it->type == I_STACK) {
			rb_add(&rb, it, fmts);
			continue;
		}
		rb_flush(&rb);
		if (it->type == I_MISSED)
			rb.pending = it->missed;
	}
	/* missed events at the very end: an empty page that carries the flag */
	if (!rb.open && rb.pending)
		rb_open(&rb, rb.last_ts);
	rb_flush(&rb);
	free(rb.page);
}

static void option(struct buf *b, int id, const void *data, size_t len)
{
	buf_num(b, &tgt, id, 2);
	buf_num(b, &tgt, len, 4);
	buf_add(b, data, len);
}

static void write_file(const char *path)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	static const char clocks[] = "[local] global counter uptime perf mono mono_raw boot\n";
	struct event_fmt fmts[K_NR];
	struct buf b = { 0 }, t = { 0 }, cpu_data[MAX_CPUS];
	size_t cpu_table, off;
	unsigned char c;
	int k, n, cpu;
	FILE *f;

	formats_init(&tgt, fmts);
	buf_add(&b, magic, sizeof(magic));
	buf_add(&b, "6", 2);
	c = tgt.big_endian;
	buf_add(&b, &c, 1);
	c = tgt.long_size;
	buf_add(&b, &c, 1);
	buf_num(&b, &tgt, tgt.page_size, 4);

	header_page_text(&t, &tgt);
	buf_add(&b, "header_page", 12);
	buf_num(&b, &tgt, t.len, 8);
	buf_add(&b, t.p, t.len);
	buf_add(&b, "header_event", 13);
	buf_num(&b, &tgt, strlen(header_event_text), 8);
	buf_add(&b, header_event_text, strlen(header_event_text));

	/*
	 * ftrace formats: kernel_stack and print, in the directory order trace-cmd
	 * reads them (it writes every ftrace format, stacks recorded or not); then
	 * the event systems: kmem, module if used
	 */
	buf_num(&b, &tgt, 2, 4);
	for (k = 0; k < 2; k++) {
		t.len = 0;
		format_text(&t, &fmts[k ? K_PRINT : K_STACK]);
		buf_num(&b, &tgt, t.len, 8);
		buf_add(&b, t.p, t.len);
	}
	buf_num(&b, &tgt, 1 + has_module_events + has_percpu_events + has_vmap_events, 4);
	buf_add(&b, "kmem", 5);
	for (k = 0, n = 0; k < K_NR; k++)
		n += fmts[k].name && ((k < K_PRINT && !pages_only) ||
				      (is_page_kind(k) && has_page_events));
	buf_num(&b, &tgt, n, 4);
	for (k = 0; k < K_NR; k++) {
		if (!fmts[k].name || (k >= K_PRINT && (!is_page_kind(k) || !has_page_events)) ||
		    (k < K_PRINT && pages_only))
			continue;
		t.len = 0;
		format_text(&t, &fmts[k]);
		buf_num(&b, &tgt, t.len, 8);
		buf_add(&b, t.p, t.len);
	}
	if (has_module_events) {
		buf_add(&b, "module", 7);
		buf_num(&b, &tgt, 2, 4);
		for (k = K_MODULE_LOAD; k <= K_MODULE_FREE; k++) {
			t.len = 0;
			format_text(&t, &fmts[k]);
			buf_num(&b, &tgt, t.len, 8);
			buf_add(&b, t.p, t.len);
		}
	}
	for (k = K_PERCPU_ALLOC; k < K_NR; k += 2) {
		if (!(k == K_PERCPU_ALLOC ? has_percpu_events : has_vmap_events))
			continue;
		buf_add(&b, fmts[k].system, strlen(fmts[k].system) + 1);
		buf_num(&b, &tgt, 2, 4);
		for (n = k; n < k + 2; n++) {
			t.len = 0;
			format_text(&t, &fmts[n]);
			buf_num(&b, &tgt, t.len, 8);
			buf_add(&b, t.p, t.len);
		}
	}

	buf_num(&b, &tgt, kallsyms.len, 4);
	buf_add(&b, kallsyms.p, kallsyms.len);
	buf_num(&b, &tgt, 0, 4);			/* printk formats */
	buf_num(&b, &tgt, cmdlines.len, 8);
	buf_add(&b, cmdlines.p, cmdlines.len);
	buf_num(&b, &tgt, cpus, 4);

	/* options as trace-cmd record writes them: text options end with a NUL */
	buf_add(&b, "options  ", 10);
	option(&b, OPT_TRACECLOCK, clocks, sizeof(clocks));
	t.len = 0;
	if (uname_text)
		buf_printf(&t, "%s", uname_text);
	else
		buf_printf(&t, "Linux mktrace %d.%d.0-mktrace %s", tgt.gen / 100, tgt.gen % 100,
			   tgt.big_endian ? (tgt.long_size == 8 ? "s390x" : "ppc") :
			   tgt.long_size == 8 ? "x86_64" : "i686");
	buf_add(&t, "", 1);
	option(&b, OPT_UNAME, t.p, t.len);
	if (offset_text)
		option(&b, OPT_OFFSET, offset_text, strlen(offset_text) + 1);
	for (cpu = 0; cpu < cpus; cpu++) {
		uint64_t *s = stats[cpu];

		t.len = 0;
		buf_printf(&t, "CPU: %d\nentries: %llu\noverrun: %llu\ncommit overrun: %llu\n"
			   "bytes: %llu\noldest event ts:     0.000000\nnow ts:     0.000000\n"
			   "dropped events: %llu\nread events: %llu\n", cpu,
			   (unsigned long long)s[0], (unsigned long long)s[1],
			   (unsigned long long)s[2], (unsigned long long)s[3],
			   (unsigned long long)s[4], (unsigned long long)s[5]);
		buf_add(&t, "", 1);
		option(&b, OPT_CPUSTAT, t.p, t.len);
	}
	t.len = 0;
	buf_num(&t, &tgt, cpus, 4);
	option(&b, OPT_CPUCOUNT, t.p, t.len);
	buf_num(&b, &tgt, OPT_DONE, 2);

	buf_add(&b, "flyrecord", 10);
	cpu_table = b.len;
	for (cpu = 0; cpu < cpus; cpu++) {
		buf_num(&b, &tgt, 0, 8);
		buf_num(&b, &tgt, 0, 8);
	}
	/* v6 keeps the trace clock after the CPU table */
	buf_num(&b, &tgt, 7, 8);
	buf_add(&b, "[local]", 7);

	/* each CPU's pages start page aligned */
	for (cpu = 0; cpu < cpus; cpu++) {
		memset(&cpu_data[cpu], 0, sizeof(cpu_data[cpu]));
		write_cpu(&cpu_data[cpu], cpu, fmts);
	}
	off = (b.len + tgt.page_size - 1) / tgt.page_size * tgt.page_size;
	for (cpu = 0; cpu < cpus; cpu++) {
		put_num(b.p + cpu_table + 16 * cpu, &tgt, off, 8);
		put_num(b.p + cpu_table + 16 * cpu + 8, &tgt, cpu_data[cpu].len, 8);
		off += cpu_data[cpu].len;
	}
	while (b.len % tgt.page_size)
		buf_add(&b, "", 1);
	for (cpu = 0; cpu < cpus; cpu++) {
		buf_add(&b, cpu_data[cpu].p, cpu_data[cpu].len);
		free(cpu_data[cpu].p);
	}

	f = fopen(path, "wb");
	if (!f || fwrite(b.p, 1, b.len, f) != b.len || fclose(f))
		die("cannot write %s: %s", path, strerror(errno));
	free(b.p);
	free(t.p);
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	int set[5] = { 0 }, line = 0, opt;
	char s[4096];
	FILE *f;

	while ((opt = getopt(argc, argv, "g:l:E:S:G:o:")) != -1) {
		switch (opt) {
		case 'g':
			tgt.gen = parse_generation(optarg);
			set[0] = 1;
			break;
		case 'l':
			tgt.long_size = atoi(optarg);
			set[1] = 1;
			break;
		case 'E':
			tgt.big_endian = !strcmp(optarg, "big");
			set[2] = 1;
			break;
		case 'S':
			tgt.stack_layout = parse_stack_layout(optarg);
			set[3] = 1;
			break;
		case 'G':
			tgt.gfp_layout = parse_gfp_layout(optarg);
			set[4] = 1;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (!out || optind != argc - 1)
		goto usage;
	prog_file = argv[optind];
	f = strcmp(prog_file, "-") ? fopen(prog_file, "r") : stdin;
	if (!f)
		die("cannot open: %s", strerror(errno));
	while (fgets(s, sizeof(s), f)) {
		line++;
		/* long and endian shape kallsyms lines: they must come first */
		if (nr_syms && set[1] == 0 && !strncmp(s, "long", 4))
			die("line %d: 'long' must come before 'kallsyms'", line);
		parse_line(s, line, set);
	}
	if (tgt.long_size != 4 && tgt.long_size != 8)
		die("long must be 4 or 8");
	write_file(out);
	return 0;
usage:
	fprintf(stderr, "usage: mktrace [-g GEN] [-l 4|8] [-E little|big] [-S modern|old|stale] "
		"[-G new|old|shuffled] -o OUT.dat DESCRIPTION\n");
	return 2;
}
