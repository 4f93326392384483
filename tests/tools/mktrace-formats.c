// SPDX-License-Identifier: GPL-2.0
/*
 * mktrace-formats.c - the ftrace:print and kmem event formats as each kernel
 * generation prints them in events/<system>/<event>/format, the header_page and
 * header_event texts, and the encoding of one event's payload.
 *
 * The kmem generations follow linux include/trace/events/kmem.h:
 *   <= 5.11  kmalloc, kmem_cache_alloc (call_site, ptr, bytes_req, bytes_alloc, gfp_t
 *            gfp_flags), kmalloc_node and kmem_cache_alloc_node (+ int node), kfree and
 *            kmem_cache_free (call_site, ptr)
 *   5.12     kmem_cache_free gains __data_loc char[] name
 *   5.16     gfp_flags becomes unsigned long
 *   6.0      bool accounted on every alloc event
 *   6.1      no more *_node events: node on kmalloc and kmem_cache_alloc; kmalloc loses
 *            accounted (its print fmt derives it from __GFP_ACCOUNT)
 *   6.18     (newest) kmem_cache_alloc gains name, between ptr and bytes_req. That
 *            change is from 2025; its exact release is not pinned down here, so
 *            mktrace gives the name from 6.18 on, as this machine's kernel has it.
 *
 * ftrace:kernel_stack (trace-cmd record -T, options/stacktrace) follows
 * kernel/trace/trace_entries.h, FTRACE_STACK_ENTRIES 8. Its history, from the
 * kernel sources and LKML threads (not guessed):
 *   < 3.2    F_STRUCT(__array(unsigned long, caller, FTRACE_STACK_ENTRIES)): no size
 *            field. __ftrace_trace_stack() zeroed caller[] and let save_stack_trace()
 *            fill it with max_entries 8; the arch unwinders (x86 dump_trace, arm,
 *            s390, ...) then append ULONG_MAX when there is room ("if (nr_entries <
 *            max_entries) entries[nr_entries++] = ULONG_MAX"). So a record is always
 *            8 longs: the frames, ULONG_MAX, zeros; 8 frames leave no terminator,
 *            deeper stacks are cut to their innermost 8. Print fmt "\t=> (%08lx)".
 *   3.2      "tracing: Have dynamic size event stack traces": __field(int, size) +
 *            __dynamic_array(unsigned long, caller), which the format file showed
 *            with size 0; the record held max(8, nr) entries.
 *   5.6      "tracing: Set kernel_stacks caller size properly" (Josef Bacik):
 *            __array(unsigned long, caller, FTRACE_STACK_ENTRIES), the format of
 *            today, but the record was reserved as sizeof(*entry) + nr longs, so
 *            it carries 8 stale longs after the size entries.
 *   5.13     "tracing: Fix stack trace event size" (also in the 5.10/5.12 stable
 *            trees): (sizeof(*entry) - sizeof(entry->caller)) + nr longs, exactly
 *            size entries, however many (the per-CPU stack holds far more than 8).
 *   6.x      caller became __stack_array(..., size) (__counted_by); the format file
 *            is unchanged: int size at 8, unsigned long caller[8] at 16 (12 with
 *            4-byte longs), size 8 longs, as /sys/kernel/tracing shows on 6.18.
 * mktrace renders the modern layout for every generation; "stacklayout old" gives
 * the < 3.2 one (the event's fields only: the common_* header stays the
 * generation's, where 2.6 kernels also had common_lock_depth), "stacklayout stale"
 * the 5.6 - 5.12 records with 8 stale longs (copies of the frames, so that a
 * reader going by the record length rather than size gets a wrong stack).
 *
 * The module events are those of linux include/trace/events/module.h, the same
 * in every generation: module_load (unsigned int taints, __data_loc char[] name)
 * and module_free (__data_loc char[] name). mktrace writes the module system
 * only when a description has module events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mktrace.h"

/*
 * show_gfp_flags() tables (include/trace/events/mmflags.h) of a few kernels, short:
 * the composite names first, as the kernel lists them, then the single bits. kma
 * reads __GFP_DMA, __GFP_RECLAIMABLE and __GFP_ACCOUNT from the table, so a layout
 * changes the bits an event carries and the table that names them together.
 *   new       4.10 on (___GFP_* of 5.x/6.x): DMA 0x1, RECLAIMABLE 0x10, ACCOUNT 0x400000
 *   old       4.4 - 4.9: ZERO 0x8000, ACCOUNT 0x100000, DIRECT_RECLAIM 0x400000,
 *             KSWAPD_RECLAIM 0x2000000 (GFP_KERNEL 0x24000c0)
 *   shuffled  no kernel: DMA 0x4000, RECLAIMABLE 0x1, ACCOUNT 0x10, so that a reader
 *             with compiled-in bits gets every family wrong
 *   none      new's bits, but the print fmt prints gfp_flags as a number (no table)
 */
struct gfp_sym {
	const char	*name;
	uint64_t	value;
};

static const struct gfp_sym gfp_layouts[GFP_NR][12] = {
	[GFP_NEW] = {
		{ "GFP_KERNEL_ACCOUNT", 0x400cc0 }, { "GFP_KERNEL", 0xcc0 }, { "GFP_NOFS", 0xc40 },
		{ "GFP_ATOMIC", 0xa20 }, { "GFP_NOWAIT", 0x800 }, { "GFP_DMA", 0x1 },
		{ "__GFP_DMA", 0x1 }, { "__GFP_RECLAIMABLE", 0x10 }, { "__GFP_ZERO", 0x100 },
		{ "__GFP_ACCOUNT", 0x400000 },
	},
	[GFP_OLD] = {
		{ "GFP_KERNEL_ACCOUNT", 0x25000c0 }, { "GFP_KERNEL", 0x24000c0 },
		{ "GFP_NOFS", 0x2400040 }, { "GFP_ATOMIC", 0x2080020 }, { "GFP_NOWAIT", 0x2000000 },
		{ "GFP_DMA", 0x1 }, { "__GFP_DMA", 0x1 }, { "__GFP_RECLAIMABLE", 0x10 },
		{ "__GFP_ZERO", 0x8000 }, { "__GFP_ACCOUNT", 0x100000 },
	},
	[GFP_SHUFFLED] = {
		{ "GFP_KERNEL_ACCOUNT", 0xcd0 }, { "GFP_KERNEL", 0xcc0 }, { "GFP_NOFS", 0xc40 },
		{ "GFP_ATOMIC", 0xa20 }, { "GFP_NOWAIT", 0x800 }, { "GFP_DMA", 0x4000 },
		{ "__GFP_DMA", 0x4000 }, { "__GFP_RECLAIMABLE", 0x1 }, { "__GFP_ZERO", 0x100 },
		{ "__GFP_ACCOUNT", 0x10 },
	},
};

int parse_gfp_layout(const char *s)
{
	if (!strcmp(s, "new"))
		return GFP_NEW;
	if (!strcmp(s, "old"))
		return GFP_OLD;
	if (!strcmp(s, "shuffled"))
		return GFP_SHUFFLED;
	if (!strcmp(s, "none"))
		return GFP_NONE;
	die("bad gfp layout '%s' (want new, old, shuffled or none)", s);
}

/* The value of one name of the layout's table; -1 (all ones) when it has none. */
static uint64_t gfp_sym(const struct target *t, const char *name, size_t len)
{
	const struct gfp_sym *g = gfp_layouts[t->gfp_layout == GFP_NONE ? GFP_NEW : t->gfp_layout];
	int i;

	for (i = 0; g[i].name; i++)
		if (strlen(g[i].name) == len && !strncmp(g[i].name, name, len))
			return g[i].value;
	return ~0ULL;
}

/* NAME|NAME...: gfp flags by the names of the layout's table; 0 with an unknown name. */
int gfp_value(const struct target *t, const char *s, uint64_t *out)
{
	uint64_t v = 0, one;
	const char *bar;

	for (;; s = bar + 1) {
		bar = strchr(s, '|');
		one = gfp_sym(t, s, bar ? (size_t)(bar - s) : strlen(s));
		if (one == ~0ULL)
			return -1;
		v |= one;
		if (!bar)
			break;
	}
	*out = v;
	return 0;
}

/* The layout's table as show_gfp_flags() prints it. */
void gfp_print(char *p, size_t len, const struct target *t)
{
	const struct gfp_sym *g = gfp_layouts[t->gfp_layout];
	size_t n;
	int i;

	if (t->gfp_layout == GFP_NONE) {
		snprintf(p, len, "REC->gfp_flags");
		return;
	}
	n = snprintf(p, len, "(REC->gfp_flags) ? __print_flags(REC->gfp_flags, \"|\"");
	for (i = 0; g[i].name && n < len; i++)
		n += snprintf(p + n, len - n, ", {( unsigned long)%#llx, \"%s\"}",
			      (unsigned long long)g[i].value, g[i].name);
	if (n < len)
		snprintf(p + n, len - n, ") : \"none\"");
}

static const char * const kind_names[K_NR] = {
	"kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node",
	"kfree", "kmem_cache_free", "print", "module_load", "module_free", "kernel_stack",
	"mm_page_alloc", "mm_page_free", "mm_page_free_batched", "mm_page_alloc_zone_locked",
	"mm_page_pcpu_drain",
	"percpu_alloc_percpu", "percpu_free_percpu", "alloc_vmap_area", "free_vmap_area_noflush",
};

/* Event ids: arbitrary but stable; kernel_stack 4 and print 5 as on every kernel since 4.x. */
static const int kind_ids[K_NR] = { 400, 401, 402, 403, 404, 405, 5, 420, 421, 4,
				     430, 431, 432, 433, 434, 440, 441, 450, 451 };

const char *kind_name(int kind)
{
	return kind >= 0 && kind < K_NR ? kind_names[kind] : NULL;
}

int parse_stack_layout(const char *s)
{
	if (!strcmp(s, "modern"))
		return STACK_MODERN;
	if (!strcmp(s, "old"))
		return STACK_OLD;
	if (!strcmp(s, "stale"))
		return STACK_STALE;
	die("bad stack layout '%s' (want modern, old or stale)", s);
}

int parse_generation(const char *s)
{
	int major, minor;

	if (!strcmp(s, "newest"))
		return 618;
	if (sscanf(s, "%d.%d", &major, &minor) != 2 || major < 4 || minor < 0 || minor > 99)
		die("bad generation '%s' (want e.g. 5.10, 6.1 or newest)", s);
	return major * 100 + minor;
}

/*
 * Adds a field at its natural alignment, as the compiler lays out the kernel's
 * struct trace_event_raw_*: no member of these events is wider than a long.
 */
void add_field(struct event_fmt *e, const struct target *t, const char *type,
	       const char *name, int size, int is_signed, int dynamic)
{
	struct fmt_field *f = &e->f[e->nr++];
	int align = size < 1 ? 1 : size < t->long_size ? size : t->long_size;

	f->type = type;
	f->name = name;
	f->size = size;
	f->is_signed = is_signed;
	f->dynamic = dynamic;
	f->offset = (e->fixed_size + align - 1) / align * align;
	e->fixed_size = f->offset + size;
	if (align > e->align)
		e->align = align;
}

/*
 * show_module_flags() as the format file prints it, the TAINT_* numbers
 * expanded: PROPRIETARY_MODULE 0, OOT_MODULE 12, FORCED_MODULE 1, CRAP 10,
 * UNSIGNED_MODULE 13.
 */
static const char module_flags_print[] =
	"__print_flags(REC->taints, \"\", { (1UL << 0), \"P\" }, { (1UL << 12), \"O\" }, "
	"{ (1UL << 1), \"F\" }, { (1UL << 10), \"C\" }, { (1UL << 13), \"E\" })";

static void alloc_event(struct event_fmt *e, const struct target *t, int kind)
{
	int cache = kind == K_CACHE_ALLOC || kind == K_CACHE_ALLOC_NODE;
	int node = kind == K_KMALLOC_NODE || kind == K_CACHE_ALLOC_NODE || t->gen >= 601;
	int accounted = t->gen >= 600 && (t->gen < 601 || cache);
	int name = cache && t->gen >= 618;
	int L = t->long_size;
	char gfp[640];

	gfp_print(gfp, sizeof(gfp), t);
	add_field(e, t, "unsigned long", "call_site", L, 0, 0);
	add_field(e, t, "const void *", "ptr", L, 0, 0);
	if (name)
		add_field(e, t, "__data_loc char[]", "name", 4, 0, 1);
	add_field(e, t, "size_t", "bytes_req", L, 0, 0);
	add_field(e, t, "size_t", "bytes_alloc", L, 0, 0);
	if (t->gen >= 516)
		add_field(e, t, "unsigned long", "gfp_flags", L, 0, 0);
	else
		add_field(e, t, "gfp_t", "gfp_flags", 4, 0, 0);
	if (node)
		add_field(e, t, "int", "node", 4, 1, 0);
	if (accounted)
		add_field(e, t, "bool", "accounted", 1, 0, 0);

	snprintf(e->print, sizeof(e->print),
		 "\"call_site=%%pS ptr=%%p%s bytes_req=%%zu bytes_alloc=%%zu gfp_flags=%s%s%s\", "
		 "(void *)REC->call_site, REC->ptr%s, REC->bytes_req, REC->bytes_alloc, %s%s%s",
		 name ? " name=%s" : "", t->gfp_layout == GFP_NONE ? "%lx" : "%s",
		 node ? " node=%d" : "",
		 accounted || t->gen >= 601 ? " accounted=%s" : "",
		 name ? ", __get_str(name)" : "", gfp, node ? ", REC->node" : "",
		 accounted ? ", REC->accounted ? \"true\" : \"false\"" : "");
	if (!accounted && t->gen >= 601)
		snprintf(e->print + strlen(e->print), sizeof(e->print) - strlen(e->print),
			 ", (1 && (REC->gfp_flags & ( unsigned long)%#llx)) ? \"true\" : \"false\"",
			 (unsigned long long)gfp_sym(t, "__GFP_ACCOUNT", 13));
}

/* ftrace:kernel_stack in the layout of t->stack_layout (see the top of this file) */
static void stack_event(struct event_fmt *e, const struct target *t)
{
	static const char modern[] =
		"\"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\" \"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\" "
		"\"\\t=> %ps\\n\\t=> %ps\\n\", (void *)REC->caller[0], (void *)REC->caller[1], "
		"(void *)REC->caller[2], (void *)REC->caller[3], (void *)REC->caller[4], "
		"(void *)REC->caller[5], (void *)REC->caller[6], (void *)REC->caller[7]";
	static const char old[] =
		"\"\\t=> (%08lx)\\n\\t=> (%08lx)\\n\\t=> (%08lx)\\n\\t=> (%08lx)\\n"
		"\\t=> (%08lx)\\n\\t=> (%08lx)\\n\\t=> (%08lx)\\n\\t=> (%08lx)\\n\", "
		"REC->caller[0], REC->caller[1], REC->caller[2], REC->caller[3], "
		"REC->caller[4], REC->caller[5], REC->caller[6], REC->caller[7]";

	if (t->stack_layout != STACK_OLD)
		add_field(e, t, "int", "size", 4, 1, 0);
	add_field(e, t, "unsigned long", "caller[8]", FTRACE_STACK_ENTRIES * t->long_size, 0, 0);
	snprintf(e->print, sizeof(e->print), "%s", t->stack_layout == STACK_OLD ? old : modern);
}

void formats_init(const struct target *t, struct event_fmt fmts[K_NR])
{
	int k;

	memset(fmts, 0, sizeof(*fmts) * K_NR);
	for (k = 0; k < K_NR; k++) {
		struct event_fmt *e = &fmts[k];

		/* *_node events were folded into the plain ones in 6.1 */
		if ((k == K_KMALLOC_NODE || k == K_CACHE_ALLOC_NODE) && t->gen >= 601)
			continue;
		e->system = k == K_PRINT || k == K_STACK ? "ftrace" :
			    k >= K_VMAP_ALLOC ? "vmalloc" : k >= K_PERCPU_ALLOC ? "percpu" :
			    k >= K_PAGE_ALLOC ? "kmem" : k >= K_MODULE_LOAD ? "module" : "kmem";
		e->name = kind_names[k];
		e->id = kind_ids[k];
		e->fixed_size = 8;	/* the common_* fields */
		e->align = 4;		/* struct trace_entry: an int */
		switch (k) {
		case K_KFREE:
		case K_CACHE_FREE:
			add_field(e, t, "unsigned long", "call_site", t->long_size, 0, 0);
			add_field(e, t, "const void *", "ptr", t->long_size, 0, 0);
			if (k == K_CACHE_FREE && t->gen >= 512)
				add_field(e, t, "__data_loc char[]", "name", 4, 0, 1);
			snprintf(e->print, sizeof(e->print),
				 "\"call_site=%%pS ptr=%%p%s\", (void *)REC->call_site, REC->ptr%s",
				 e->nr > 2 ? " name=%s" : "", e->nr > 2 ? ", __get_str(name)" : "");
			break;
		case K_PRINT:
			add_field(e, t, "unsigned long", "ip", t->long_size, 0, 0);
			add_field(e, t, "char", "buf", 0, 0, 0);
			snprintf(e->print, sizeof(e->print), "\"%%ps: %%s\", (void *)REC->ip, REC->buf");
			break;
		case K_MODULE_LOAD:
			add_field(e, t, "unsigned int", "taints", 4, 0, 0);
			add_field(e, t, "__data_loc char[]", "name", 4, 0, 1);
			snprintf(e->print, sizeof(e->print), "\"%%s %%s\", __get_str(name), %s",
				 module_flags_print);
			break;
		case K_MODULE_FREE:
			add_field(e, t, "__data_loc char[]", "name", 4, 0, 1);
			snprintf(e->print, sizeof(e->print), "\"%%s\", __get_str(name)");
			break;
		case K_STACK:
			stack_event(e, t);
			break;
		case K_PAGE_ALLOC:
		case K_PAGE_FREE:
		case K_PAGE_FREE_BATCHED:
		case K_PAGE_ZONE_LOCKED:
		case K_PAGE_PCPU_DRAIN:
			page_event(e, t, k);
			break;
		case K_PERCPU_ALLOC:
		case K_PERCPU_FREE:
		case K_VMAP_ALLOC:
		case K_VMAP_FREE:
			kinds_event(e, t, k);
			break;
		default:
			alloc_event(e, t, k);
		}
		/* the struct ends padded to its widest member */
		e->fixed_size = (e->fixed_size + e->align - 1) / e->align * e->align;
	}
}

void format_text(struct buf *b, const struct event_fmt *e)
{
	int i;

	buf_printf(b, "name: %s\nID: %d\nformat:\n", e->name, e->id);
	buf_printf(b, "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		      "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		      "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		      "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
	for (i = 0; i < e->nr; i++) {
		const struct fmt_field *f = &e->f[i];
		/* the array brackets of a flexible char[] go after the name */
		const char *arr = !f->dynamic && f->size == 0 ? "[]" : "";

		buf_printf(b, "\tfield:%s %s%s;\toffset:%d;\tsize:%d;\tsigned:%d;\n",
			   f->type, f->name, arr, f->offset, f->size, f->is_signed);
	}
	buf_printf(b, "\nprint fmt: %s\n", e->print);
}

/*
 * As ring_buffer_print_page_header() prints it: a u64 timestamp, the commit
 * word (a long, whose top bits flag missed events), the data. On 32-bit
 * kernels the data follows the 4-byte commit directly (RB_ARCH_ALIGNMENT 4).
 */
void header_page_text(struct buf *b, const struct target *t)
{
	int hdr = 8 + t->long_size;

	buf_printf(b, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		      "\tfield: local_t commit;\toffset:8;\tsize:%d;\tsigned:1;\n"
		      "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		      "\tfield: char data;\toffset:%d;\tsize:%d;\tsigned:0;\n",
		   t->long_size, hdr, t->page_size - hdr);
}

const char header_event_text[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

/*
 * Which event of this generation a logical event becomes: an allocation with
 * a node is a *_node event before 6.1, and every *_node event is the plain
 * event (with its node field) from 6.1 on.
 */
int render_kind(const struct target *t, int logical, int has_node)
{
	if (t->gen >= 601) {
		if (logical == K_KMALLOC_NODE)
			return K_KMALLOC;
		if (logical == K_CACHE_ALLOC_NODE)
			return K_CACHE_ALLOC;
		return logical;
	}
	if (has_node && logical == K_KMALLOC)
		return K_KMALLOC_NODE;
	if (has_node && logical == K_CACHE_ALLOC)
		return K_CACHE_ALLOC_NODE;
	return logical;
}

static const struct value *find_value(const struct value *v, int nv, const char *name)
{
	int i;

	for (i = 0; i < nv; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

/*
 * Values a description may leave out, as a typical GFP_KERNEL allocation; accounted
 * as the kernel sets it from the flags (memcg on).
 */
static int default_value(const struct target *t, const char *name, const struct value *v,
			 int nv, uint64_t *num, const char **str)
{
	const struct value *gfp = find_value(v, nv, "gfp_flags");

	*str = NULL;
	if (!strcmp(name, "gfp_flags"))
		*num = gfp_sym(t, "GFP_KERNEL", 10);
	else if (!strcmp(name, "node"))
		*num = (uint64_t)-1;	/* NUMA_NO_NODE */
	else if (!strcmp(name, "accounted"))
		*num = gfp && (gfp->num & gfp_sym(t, "__GFP_ACCOUNT", 13));
	else if (!strcmp(name, "name"))
		*str = "mktrace_cache";
	else if (!strcmp(name, "ip") || !strcmp(name, "taints") || !strcmp(name, "cold") ||
		 !strcmp(name, "percpu_refill") || !strcmp(name, "order") ||
		 !strcmp(name, "migratetype"))
		*num = 0;
	else if (kinds_default(name, num))
		return -1;
	return 0;
}

/*
 * The record payload: common_* fields, the fixed fields, then the strings of
 * __data_loc fields (offset | length << 16, offset from the payload start,
 * length with the NUL) and of a trailing char[] (the print event's buf).
 * Values of fields this generation lacks are dropped; that is the point.
 */
void encode_payload(struct buf *b, const struct target *t, const struct event_fmt *e, int pid,
		    const struct value *v, int nv, int line)
{
	unsigned char fixed[256] = { 0 };
	struct buf dyn = { 0 };
	int i;

	put_num(fixed, t, (uint64_t)e->id, 2);
	put_num(fixed + 4, t, (uint64_t)(uint32_t)pid, 4);
	for (i = 0; i < nv; i++)
		if (strcmp(v[i].name, "call_site") && strcmp(v[i].name, "ptr") &&
		    strcmp(v[i].name, "bytes_req") && strcmp(v[i].name, "bytes_alloc") &&
		    strcmp(v[i].name, "gfp_flags") && strcmp(v[i].name, "node") &&
		    strcmp(v[i].name, "accounted") && strcmp(v[i].name, "name") &&
		    strcmp(v[i].name, "ip") && strcmp(v[i].name, "buf") &&
		    strcmp(v[i].name, "taints") && strcmp(v[i].name, "pfn") &&
		    strcmp(v[i].name, "order") && strcmp(v[i].name, "migratetype") &&
		    !kinds_field(v[i].name))
			die("line %d: unknown field '%s'", line, v[i].name);
	/* a module's name is what the event is about: no default */
	if (!strcmp(e->system, "module") && !find_value(v, nv, "name"))
		die("line %d: %s needs name=MODULE", line, e->name);
	for (i = 0; i < e->nr; i++) {
		const struct fmt_field *f = &e->f[i];
		/* a description says pfn=; the old layout stores it as the page pointer */
		const struct value *val = find_value(v, nv, strcmp(f->name, "page") ? f->name : "pfn");
		const char *str = val ? val->str : NULL;
		uint64_t num = val ? val->num : 0;

		if (!val && default_value(t, f->name, v, nv, &num, &str))
			die("line %d: %s needs a value for %s", line, e->name, f->name);
		if (f->dynamic || f->size == 0) {
			size_t len = strlen(str ? str : "") + 1;
			size_t off = e->fixed_size + dyn.len;

			if (len > 0xffff || off > 0xffff)
				die("line %d: string of %s too long", line, f->name);
			buf_add(&dyn, str ? str : "", len);
			if (f->dynamic)
				put_num(fixed + f->offset, t, off | len << 16, 4);
			continue;
		}
		if (str)
			die("line %d: %s wants a number", line, f->name);
		if (!strcmp(f->name, "page"))
			num = page_pointer(t, num);
		put_num(fixed + f->offset, t, num, f->size);
	}
	/* the print event's char[] buf starts right after ip, inside the padded struct */
	if (e->nr && e->f[e->nr - 1].size == 0 && !e->f[e->nr - 1].dynamic)
		buf_add(b, fixed, e->f[e->nr - 1].offset);
	else
		buf_add(b, fixed, e->fixed_size);
	buf_add(b, dyn.p, dyn.len);
	free(dyn.p);
}

/*
 * A kernel_stack record: common_* fields, size (not in the old layout), then the
 * frames, innermost first, as the layout stores them (see the top of this file).
 */
void encode_stack(struct buf *b, const struct target *t, const struct event_fmt *e, int pid,
		  const uint64_t *frames, int nr)
{
	const struct fmt_field *caller = &e->f[e->nr - 1];
	uint64_t ones = t->long_size == 4 ? 0xffffffffULL : ~0ULL;
	unsigned char head[32] = { 0 };
	int i, slots = nr;

	put_num(head, t, (uint64_t)e->id, 2);
	put_num(head + 4, t, (uint64_t)(uint32_t)pid, 4);
	if (t->stack_layout != STACK_OLD)
		put_num(head + e->f[0].offset, t, (uint64_t)nr, 4);
	buf_add(b, head, caller->offset);
	if (t->stack_layout == STACK_OLD) {
		/* the unwinder writes at most 8 and terminates if there is room */
		slots = FTRACE_STACK_ENTRIES;
		if (nr > slots)
			nr = slots;
	} else if (t->stack_layout == STACK_STALE) {
		slots = nr + FTRACE_STACK_ENTRIES;
	}
	for (i = 0; i < slots; i++) {
		uint64_t v = 0;

		if (i < nr)
			v = frames[i];
		else if (t->stack_layout == STACK_OLD && i == nr)
			v = ones;
		else if (t->stack_layout == STACK_STALE && nr)
			v = frames[(i - nr) % nr];	/* what an earlier record left */
		buf_num(b, t, v & ones, t->long_size);
	}
}
