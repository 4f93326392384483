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
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mktrace.h"

#define TS_BITS		27	/* time_delta bits of a record header */

/* commit word flags of a ring-buffer page (kernel RB_MISSED_*) */
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_MISSED_STORED	(1ULL << 30)

enum { T_PADDING = 29, T_TIME_EXTEND = 30 };

/* trace-cmd option ids (trace-cmd.h TRACECMD_OPTION_*) */
enum { OPT_DONE, OPT_DATE, OPT_CPUSTAT, OPT_BUFFER, OPT_TRACECLOCK, OPT_UNAME, OPT_OFFSET = 7,
       OPT_CPUCOUNT = 8 };

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

/* One format text with its 8-byte size, as the header's format lists hold them. */
static void put_format(struct buf *b, struct buf *t, const struct event_fmt *e)
{
	t->len = 0;
	format_text(t, e);
	buf_num(b, &tgt, t->len, 8);
	buf_add(b, t->p, t->len);
}

/*
 * The header up to the CPU count: header_page, header_event, the ftrace formats
 * (kernel_stack and print, in the directory order trace-cmd reads them: it writes
 * every ftrace format, stacks recorded or not), the event systems (kmem; module,
 * percpu and vmalloc if used), kallsyms, printk formats, command lines.
 */
static void write_header(struct buf *b, struct buf *t, const struct event_fmt *fmts)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	unsigned char c;
	int k, n;

	buf_add(b, magic, sizeof(magic));
	buf_add(b, "6", 2);
	c = tgt.big_endian;
	buf_add(b, &c, 1);
	c = tgt.long_size;
	buf_add(b, &c, 1);
	buf_num(b, &tgt, tgt.page_size, 4);
	t->len = 0;
	header_page_text(t, &tgt);
	buf_add(b, "header_page", 12);
	buf_num(b, &tgt, t->len, 8);
	buf_add(b, t->p, t->len);
	buf_add(b, "header_event", 13);
	buf_num(b, &tgt, strlen(header_event_text), 8);
	buf_add(b, header_event_text, strlen(header_event_text));

	buf_num(b, &tgt, 2, 4);
	put_format(b, t, &fmts[K_STACK]);
	put_format(b, t, &fmts[K_PRINT]);
	buf_num(b, &tgt, 1 + has_module_events + has_percpu_events + has_vmap_events, 4);
	buf_add(b, "kmem", 5);
	for (k = 0, n = 0; k < K_NR; k++)
		n += fmts[k].name && ((k < K_PRINT && !pages_only) ||
				      (is_page_kind(k) && has_page_events));
	buf_num(b, &tgt, n, 4);
	for (k = 0; k < K_NR; k++)
		if (fmts[k].name && !(k >= K_PRINT && (!is_page_kind(k) || !has_page_events)) &&
		    !(k < K_PRINT && pages_only))
			put_format(b, t, &fmts[k]);
	if (has_module_events) {
		buf_add(b, "module", 7);
		buf_num(b, &tgt, 2, 4);
		for (k = K_MODULE_LOAD; k <= K_MODULE_FREE; k++)
			put_format(b, t, &fmts[k]);
	}
	for (k = K_PERCPU_ALLOC; k < K_NR; k += 2) {
		if (!(k == K_PERCPU_ALLOC ? has_percpu_events : has_vmap_events))
			continue;
		buf_add(b, fmts[k].system, strlen(fmts[k].system) + 1);
		buf_num(b, &tgt, 2, 4);
		for (n = k; n < k + 2; n++)
			put_format(b, t, &fmts[n]);
	}
	buf_num(b, &tgt, kallsyms.len, 4);
	buf_add(b, kallsyms.p, kallsyms.len);
	buf_num(b, &tgt, 0, 4);			/* printk formats */
	buf_num(b, &tgt, cmdlines.len, 8);
	buf_add(b, cmdlines.p, cmdlines.len);
	buf_num(b, &tgt, cpus, 4);
}

/* The options as trace-cmd record writes them: text options end with a NUL. */
static void write_options(struct buf *b, struct buf *t)
{
	static const char clocks[] = "[local] global counter uptime perf mono mono_raw boot\n";
	int cpu;

	buf_add(b, "options  ", 10);
	option(b, OPT_TRACECLOCK, clocks, sizeof(clocks));
	t->len = 0;
	if (uname_text)
		buf_printf(t, "%s", uname_text);
	else
		buf_printf(t, "Linux mktrace %d.%d.0-mktrace %s", tgt.gen / 100, tgt.gen % 100,
			   tgt.big_endian ? (tgt.long_size == 8 ? "s390x" : "ppc") :
			   tgt.long_size == 8 ? "x86_64" : "i686");
	buf_add(t, "", 1);
	option(b, OPT_UNAME, t->p, t->len);
	if (offset_text)
		option(b, OPT_OFFSET, offset_text, strlen(offset_text) + 1);
	for (cpu = 0; cpu < cpus; cpu++) {
		uint64_t *s = stats[cpu];

		t->len = 0;
		buf_printf(t, "CPU: %d\nentries: %llu\noverrun: %llu\ncommit overrun: %llu\n"
			   "bytes: %llu\noldest event ts:     0.000000\nnow ts:     0.000000\n"
			   "dropped events: %llu\nread events: %llu\n", cpu,
			   (unsigned long long)s[0], (unsigned long long)s[1],
			   (unsigned long long)s[2], (unsigned long long)s[3],
			   (unsigned long long)s[4], (unsigned long long)s[5]);
		buf_add(t, "", 1);
		option(b, OPT_CPUSTAT, t->p, t->len);
	}
	t->len = 0;
	buf_num(t, &tgt, cpus, 4);
	option(b, OPT_CPUCOUNT, t->p, t->len);
	buf_num(b, &tgt, OPT_DONE, 2);
}

/* flyrecord: the CPU table, the clock, then each CPU's pages from a page boundary. */
static void write_data(struct buf *b, const struct event_fmt *fmts)
{
	struct buf cpu_data[MAX_CPUS];
	size_t cpu_table, off;
	int cpu;

	buf_add(b, "flyrecord", 10);
	cpu_table = b->len;
	for (cpu = 0; cpu < cpus; cpu++) {
		buf_num(b, &tgt, 0, 8);
		buf_num(b, &tgt, 0, 8);
	}
	/* v6 keeps the trace clock after the CPU table */
	buf_num(b, &tgt, 7, 8);
	buf_add(b, "[local]", 7);
	for (cpu = 0; cpu < cpus; cpu++) {
		memset(&cpu_data[cpu], 0, sizeof(cpu_data[cpu]));
		write_cpu(&cpu_data[cpu], cpu, fmts);
	}
	off = (b->len + tgt.page_size - 1) / tgt.page_size * tgt.page_size;
	for (cpu = 0; cpu < cpus; cpu++) {
		put_num(b->p + cpu_table + 16 * cpu, &tgt, off, 8);
		put_num(b->p + cpu_table + 16 * cpu + 8, &tgt, cpu_data[cpu].len, 8);
		off += cpu_data[cpu].len;
	}
	while (b->len % tgt.page_size)
		buf_add(b, "", 1);
	for (cpu = 0; cpu < cpus; cpu++) {
		buf_add(b, cpu_data[cpu].p, cpu_data[cpu].len);
		free(cpu_data[cpu].p);
	}
}

static void write_file(const char *path)
{
	struct event_fmt fmts[K_NR];
	struct buf b = { 0 }, t = { 0 };
	FILE *f;

	formats_init(&tgt, fmts);
	write_header(&b, &t, fmts);
	write_options(&b, &t);
	write_data(&b, fmts);
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
