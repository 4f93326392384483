// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_kma.c - libtraceevent plugin for the kmem slab and page events.
 *
 * trace-cmd report (and anything else that prints events through
 * libtraceevent) shows allocations as
 *
 *   (alloc_pipe_info+0x5d) ptr=0x... bytes_req=160 bytes_alloc=192 slack=32 gfp_flags=GFP_KERNEL
 *
 * and frees with what they freed:
 *
 *   (free_pipe_info+0x9a) ptr=0x... freed 192 bytes from alloc_pipe_info+0x5d, lived 3.20ms
 *
 * The plugin keeps the live allocations of each trace it prints and pairs
 * them through kma's core (lib/kma-pairs.h), the rules kma-analyze uses: a
 * free closes the live allocation at its pointer whatever kinds the two
 * events are, a small pointer is a null free, and an allocation at a
 * pointer that is still live closes the earlier one (an implicit free).
 * Ages print as kma-analyze prints durations (kma_fmt_dur). What is left
 * here is printing.
 *
 * The page allocator's mm_page_alloc and mm_page_free pair by pfn (the
 * struct page pointer on kernels before 2015) with the rules of
 * kma-analyze --pages:
 *
 *   pfn=0x11880d order=2 migratetype=0 gfp_flags=GFP_KERNEL
 *   pfn=0x11880d order=2 freed order-2 (4 pages) allocated by bash/1234, lived 3.20ms
 *
 * pfn -1 (page NULL) is a failed allocation, a free of a page that is not
 * live is "unknown", an allocation at a live pfn implicitly frees it.
 * mm_page_free_batched follows an mm_page_free of the same page and is no
 * second free; it and the buddy-list events print as the kernel prints them.
 *
 * KernelShark prints rows in any order: with this .so also loaded as its
 * plugin (kma-kshark.c, kernelshark -p plugin_kma.so), the pairing is done
 * once at load time and the handlers below print from it (ks_annotate()).
 *
 * Options (trace-cmd report -O kma:NAME=VALUE):
 *   kma:free=0	no free annotation (and no tracking)
 *   kma:ns=1	ages in nanoseconds
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "kma-event.h"
#include "kma-pairs.h"
#include "kma-time.h"
#include "kma-plugin.h"

/* Only the plugin entry points: libkma-core is linked in, hidden. */
#define KMA_EXPORT	__attribute__((visibility("default")))

/* Past this depth a print_fmt argument tree is not worth walking. */
#define KMA_ARG_DEPTH		16

enum {
	OPT_FREE,
	OPT_NS,
};

/*
 * Not exported as TEP_PLUGIN_OPTIONS: libtraceevent applies the -O values to
 * that array every time the .so is loaded for a trace, *and* again when the
 * array is registered, so a bare "-O kma:ns" (a toggle) would flip twice.
 * Registering once, when the first trace loads the plugin, applies each
 * value exactly once and still lists the options in "trace-cmd list -O".
 */
static struct tep_plugin_option kma_options[] = {
	[OPT_FREE] = {
		.name		= "free",
		.plugin_alias	= "kma",
		.description	= "Annotate frees with the allocation they free (kma:free=0 turns it off)",
		.set		= 1,
	},
	[OPT_NS] = {
		.name		= "ns",
		.plugin_alias	= "kma",
		.description	= "Print allocation lifetimes in nanoseconds",
		.set		= 0,
	},
	{ .name = NULL },
};

static const int kma_option_defaults[] = {
	[OPT_FREE]	= 1,
	[OPT_NS]	= 0,
};

/*
 * State of one trace (one tep handle): trace-cmd report may open several
 * files at once, each with its own handle, and all of them share this .so.
 */
struct kma_state {
	struct kma_state	*next;
	struct tep_handle	*tep;
	int			refs;
	struct kma_pairs	*lives;		/* ptr -> struct live */
	struct kma_pairs	*pages;		/* PAGE_KEY -> struct live_page */
	uint64_t		last_ts;
	uint64_t		last_offset;
	int			last_cpu;
	int			seen;
	int			unordered;	/* records came out of time order */
	int			broken;		/* out of memory: stop tracking */
};

static struct kma_state *states;
static int nr_states;

static struct kma_state *state_of(struct tep_handle *tep)
{
	struct kma_state *st;

	for (st = states; st; st = st->next)
		if (st->tep == tep)
			return st;
	return NULL;
}

/*
 * A numeric field of the record, 0 on success. Unlike tep_get_field_val()
 * this checks the field lies inside the record: a truncated or corrupt
 * record must print '!', not read past its end.
 */
int kma_get_num(struct tep_event *event, struct tep_record *record,
		   const char *name, unsigned long long *val)
{
	struct tep_format_field *field = tep_find_field(event, name);

	if (!field || field->size <= 0 || field->size > 8 || field->offset < 0 ||
	    field->offset + field->size > record->size)
		return -1;
	return tep_read_number_field(field, record->data, val) ? -1 : 0;
}

static void print_num(struct trace_seq *s, const char *name, int err, unsigned long long val)
{
	if (err)
		trace_seq_printf(s, " %s=!", name);
	else
		trace_seq_printf(s, " %s=%llu", name, val);
}

static void print_sym(struct trace_seq *s, struct tep_handle *tep, uint64_t addr)
{
	const char *func = tep_find_function(tep, addr);

	/* The same form as libtraceevent's %pS, which kma-analyze names callers by. */
	if (func)
		trace_seq_printf(s, "%s+0x%llx", func,
				 (unsigned long long)(addr - tep_find_function_address(tep, addr)));
	else
		trace_seq_printf(s, "0x%llx", (unsigned long long)addr);
}

/* tracking() lets only records in time order through, so to >= from. */
static void print_age(struct trace_seq *s, uint64_t from, uint64_t to)
{
	char buf[32];

	if (kma_options[OPT_NS].set) {
		trace_seq_printf(s, "%" PRIu64 "ns", to - from);
		return;
	}
	kma_fmt_dur(buf, sizeof(buf), to - from);
	trace_seq_puts(s, buf);
}

/* " freed 192 bytes from alloc_pipe_info+0x5d, lived 3.20ms" and the like */
static void print_closed(struct trace_seq *s, struct tep_handle *tep, const char *what,
			 const struct live *l, uint64_t ts)
{
	trace_seq_printf(s, " %s ", what);
	if (l->has_bytes)
		trace_seq_printf(s, "%" PRIu64, l->bytes_alloc);
	else
		trace_seq_putc(s, '!');
	trace_seq_puts(s, " bytes from ");
	print_sym(s, tep, l->call_site);
	trace_seq_puts(s, ", lived ");
	print_age(s, l->ts, ts);
}

/* The __print_flags() table of the gfp_flags field in the event's print fmt. */
static struct tep_print_arg *find_flags_arg(struct tep_print_arg *arg, const char *field, int depth)
{
	struct tep_print_arg *found;

	for (; arg && depth < KMA_ARG_DEPTH; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_FLAGS:
			if (arg->flags.field && arg->flags.field->type == TEP_PRINT_FIELD &&
			    arg->flags.field->field.name &&
			    !strcmp(arg->flags.field->field.name, field))
				return arg;
			break;
		case TEP_PRINT_OP:
			found = find_flags_arg(arg->op.left, field, depth + 1);
			if (!found)
				found = find_flags_arg(arg->op.right, field, depth + 1);
			if (found)
				return found;
			break;
		default:
			break;
		}
	}
	return NULL;
}

/* Symbolic gfp flags the way the kernel's print fmt spells them. */
static void print_gfp(struct trace_seq *s, struct tep_event *event, unsigned long long val)
{
	struct tep_print_arg *arg = find_flags_arg(event->print_fmt.args, "gfp_flags", 0);
	struct tep_print_flag_sym *f;
	const char *delim;
	int printed = 0;

	if (!val) {
		trace_seq_puts(s, "none");
		return;
	}
	if (!arg) {
		trace_seq_printf(s, "0x%llx", val);
		return;
	}
	delim = arg->flags.delim ? arg->flags.delim : "|";
	for (f = arg->flags.flags; f && val; f = f->next) {
		unsigned long long fv;
		char *end;

		if (!f->value || !f->str)
			continue;
		fv = strtoull(f->value, &end, 0);
		if (end == f->value || *end || !fv || (val & fv) != fv)
			continue;
		trace_seq_printf(s, "%s%s", printed ? delim : "", f->str);
		printed = 1;
		val &= ~fv;
	}
	if (val)
		trace_seq_printf(s, "%s0x%llx", printed ? delim : "", val);
}

/* The left operand of the print fmt's "X && (gfp_flags & ...)": 0 or 1, -1 if none. */
static int and_atom(struct tep_print_arg *arg, int depth)
{
	int v;

	for (; arg && depth < KMA_ARG_DEPTH; arg = arg->next) {
		if (arg->type != TEP_PRINT_OP)
			continue;
		if (arg->op.op && !strcmp(arg->op.op, "&&") && arg->op.left &&
		    arg->op.left->type == TEP_PRINT_ATOM && arg->op.left->atom.atom)
			return strcmp(arg->op.left->atom.atom, "0") != 0;
		v = and_atom(arg->op.left, depth + 1);
		if (v < 0)
			v = and_atom(arg->op.right, depth + 1);
		if (v >= 0)
			return v;
	}
	return -1;
}

/*
 * accounted= as the stock line shows it: a field of its own (kmem_cache_alloc,
 * kmalloc before 6.0), or, on kmalloc since 6.0, no field but the print fmt's
 * "(IS_ENABLED(CONFIG_MEMCG) && (gfp_flags & __GFP_ACCOUNT)) ? true : false",
 * with the config test already a 0 or 1 and __GFP_ACCOUNT's value in the
 * gfp_flags table of the same print fmt.
 */
static void print_accounted(struct trace_seq *s, struct tep_event *event,
			    struct tep_record *record, int e_gfp, unsigned long long gfp)
{
	struct tep_print_arg *arg;
	struct tep_print_flag_sym *f;
	unsigned long long v;
	int on;

	if (tep_find_field(event, "accounted")) {
		if (!kma_get_num(event, record, "accounted", &v))
			trace_seq_printf(s, " accounted=%s", v ? "true" : "false");
		return;
	}
	if (!event->print_fmt.format || !strstr(event->print_fmt.format, "accounted="))
		return;
	arg = find_flags_arg(event->print_fmt.args, "gfp_flags", 0);
	on = and_atom(event->print_fmt.args, 0);
	if (e_gfp || !arg || on < 0) {
		trace_seq_puts(s, " accounted=!");
		return;
	}
	for (f = arg->flags.flags; f; f = f->next) {
		if (!f->str || !f->value || strcmp(f->str, "__GFP_ACCOUNT"))
			continue;
		v = strtoull(f->value, NULL, 0);
		trace_seq_printf(s, " accounted=%s", on && v && (gfp & v) ? "true" : "false");
		return;
	}
	trace_seq_puts(s, " accounted=!");
}

static void print_cache(struct trace_seq *s, struct tep_event *event, struct tep_record *record)
{
	struct tep_format_field *field = tep_find_field(event, "name");
	const char *name;
	int len;

	if (!field)
		return;
	/* tep_get_field_raw() reads the __data_loc word without a bound check. */
	if (field->offset < 0 || field->offset + field->size > record->size) {
		trace_seq_puts(s, " name=!");
		return;
	}
	name = tep_get_field_raw(NULL, event, "name", record, &len, 0);
	if (!name || len < 0 || (char *)name + len > (char *)record->data + record->size) {
		trace_seq_puts(s, " name=!");
		return;
	}
	trace_seq_printf(s, " name=%.*s", (int)strnlen(name, len), name);
}

/*
 * Tracking is only right while every record goes through here once, in
 * time order (trace-cmd report). A viewer that prints rows on demand
 * (KernelShark without the plugin's KernelShark side) goes back in time or
 * repeats a record: from then on, say nothing rather than something wrong.
 */
static int tracking(struct kma_state *st, struct tep_record *record)
{
	if (!st || st->broken || st->unordered || !kma_options[OPT_FREE].set)
		return 0;
	if (st->seen && (record->ts < st->last_ts ||
			 (record->ts == st->last_ts && record->offset == st->last_offset &&
			  record->cpu == st->last_cpu))) {
		st->unordered = 1;
		kma_pairs_clear(st->lives);
		kma_pairs_clear(st->pages);
		return 0;
	}
	st->seen = 1;
	st->last_ts = record->ts;
	st->last_offset = record->offset;
	st->last_cpu = record->cpu;
	return 1;
}

/* Out of memory: say it once, on the line where it happened, and track no more. */
static void stop_matching(struct trace_seq *s, struct kma_state *st)
{
	st->broken = 1;
	kma_pairs_clear(st->lives);
	kma_pairs_clear(st->pages);
	trace_seq_puts(s, " (kma: out of memory, matching stopped)");
}

static int ks_annotate(struct trace_seq *s, struct tep_event *event, struct tep_record *record);

/*
 * What every kmem line starts with: "(site) ptr=0x... name=cache". -1 when
 * the call site is unreadable; *e_ptr says whether ptr was.
 */
static int print_head(struct trace_seq *s, struct tep_event *event, struct tep_record *record,
		      unsigned long long *call_site, unsigned long long *ptr, int *e_ptr)
{
	int e_site = kma_get_num(event, record, "call_site", call_site);

	if (e_site) {
		trace_seq_puts(s, "(!)");
	} else {
		trace_seq_putc(s, '(');
		print_sym(s, event->tep, *call_site);
		trace_seq_putc(s, ')');
	}
	*e_ptr = kma_get_num(event, record, "ptr", ptr);
	if (*e_ptr)
		trace_seq_puts(s, " ptr=!");
	else if (!*ptr)
		trace_seq_puts(s, " ptr=(nil)");	/* %p of NULL, as the stock line */
	else
		trace_seq_printf(s, " ptr=0x%llx", *ptr);
	print_cache(s, event, record);
	return e_site;
}

static int alloc_handler(struct trace_seq *s, struct tep_record *record,
			 struct tep_event *event, void *context)
{
	struct kma_state *st = state_of(event->tep);
	unsigned long long call_site = 0, ptr = 0, req = 0, alloc = 0, gfp = 0, node;
	int e_site, e_ptr, e_req, e_alloc, e_gfp;
	struct tep_format_field *field;
	struct kma_pair pr;
	struct live *l;

	e_site = print_head(s, event, record, &call_site, &ptr, &e_ptr);
	e_req = kma_get_num(event, record, "bytes_req", &req);
	e_alloc = kma_get_num(event, record, "bytes_alloc", &alloc);
	e_gfp = kma_get_num(event, record, "gfp_flags", &gfp);
	print_num(s, "bytes_req", e_req, req);
	print_num(s, "bytes_alloc", e_alloc, alloc);
	if (e_req || e_alloc)
		trace_seq_puts(s, " slack=!");
	else
		/* bytes_alloc < bytes_req never happens in a sane trace; do not wrap. */
		trace_seq_printf(s, " slack=%llu", alloc > req ? alloc - req : 0);
	trace_seq_puts(s, " gfp_flags=");
	if (e_gfp)
		trace_seq_putc(s, '!');
	else
		print_gfp(s, event, gfp);
	field = tep_find_field(event, "node");
	if (field && !kma_get_num(event, record, "node", &node)) {
		/* node is a signed int: NUMA_NO_NODE is -1. */
		if ((field->flags & TEP_FIELD_IS_SIGNED) && field->size == 4)
			node = (unsigned long long)(long long)(int)node;
		trace_seq_printf(s, " node=%lld", (long long)node);
	}
	print_accounted(s, event, record, e_gfp, gfp);

	/* A failed allocation prints as one whether or not we are tracking. */
	if (!e_ptr && !ptr) {
		trace_seq_puts(s, " failed");
		return 0;
	}
	if (e_ptr || e_site || ks_annotate(s, event, record) || !tracking(st, record))
		return 0;

	if (kma_pairs_on_alloc(st->lives, ptr, &pr)) {
		stop_matching(s, st);
		return 0;
	}
	if (pr.kind == KMA_PAIR_IMPLICIT)
		print_closed(s, event->tep, "implicitly frees", pr.old, record->ts);
	l = pr.live;
	l->call_site = call_site;
	l->bytes_alloc = alloc;
	l->has_bytes = !e_alloc;
	l->ts = record->ts;
	return 0;
}

static int free_handler(struct trace_seq *s, struct tep_record *record,
			struct tep_event *event, void *context)
{
	struct kma_state *st = state_of(event->tep);
	unsigned long long call_site = 0, ptr = 0;
	int e_site, e_ptr;
	struct kma_pair pr;

	e_site = print_head(s, event, record, &call_site, &ptr, &e_ptr);
	if (e_ptr || e_site || ks_annotate(s, event, record) || !tracking(st, record))
		return 0;
	kma_pairs_on_free(st->lives, ptr, &pr);
	switch (pr.kind) {
	case KMA_PAIR_NULL:
		trace_seq_puts(s, " null");
		break;
	case KMA_PAIR_FREED:
		print_closed(s, event->tep, "freed", pr.old, record->ts);
		break;
	default:
		trace_seq_puts(s, " unknown");
		break;
	}
	return 0;
}

int kma_page_key(struct tep_event *event, struct tep_record *record,
		 uint64_t *key, unsigned long long *v, const char **name)
{
	struct tep_format_field *f = tep_find_field(event, "pfn");
	int by_ptr = !f && tep_find_field(event, "page");

	*name = by_ptr ? "page" : "pfn";
	if (kma_get_num(event, record, *name, v))
		return -1;
	f = tep_find_field(event, *name);
	if ((by_ptr && !*v) || *v == UINT64_MAX || (f->size == 4 && *v == UINT32_MAX))
		*key = PAGE_FAILED;
	else
		*key = PAGE_KEY(*v, by_ptr);
	return 0;
}

/*
 * "pfn=0x... order=N" of a page event (page=0x... on the old layout). The
 * page's key in *key, read as kma-analyze's reader reads it: PAGE_FAILED for
 * pfn -1UL (a 32-bit kernel's too) or page NULL. -1 when the pfn is unreadable.
 */
static int print_page_head(struct trace_seq *s, struct tep_event *event,
			   struct tep_record *record, uint64_t *key,
			   unsigned long long *order, int *e_order)
{
	const char *name;
	unsigned long long v;
	int e_key = kma_page_key(event, record, key, &v, &name);

	if (e_key)
		trace_seq_printf(s, "%s=!", name);
	else
		trace_seq_printf(s, "%s=0x%llx", name, v);
	*e_order = kma_get_num(event, record, "order", order);
	print_num(s, "order", *e_order, *order);
	return e_key;
}

/* " freed order-2 (4 pages) allocated by bash/1234, lived 3.20ms" and the like */
static void print_page_closed(struct trace_seq *s, struct tep_handle *tep, const char *what,
			      const struct live_page *l, uint64_t ts)
{
	uint64_t pages = 1ULL << (l->order & 63);

	trace_seq_printf(s, " %s order-", what);
	if (l->has_order)
		trace_seq_printf(s, "%u (%" PRIu64 " page%s)", l->order, pages,
				 pages == 1 ? "" : "s");
	else
		trace_seq_putc(s, '!');
	/* the comm of the pid as kma-analyze names tasks: the trace's saved cmdlines */
	trace_seq_printf(s, " allocated by %s/%d, lived ", tep_data_comm_from_pid(tep, l->pid),
			 l->pid);
	print_age(s, l->ts, ts);
}

/*
 * Under KernelShark rows print in any order, so the annotation comes from
 * the pairing done once in time order while the trace loaded (kma-kshark.c):
 * 1 when it did (printed or deliberately left out), 0 to track here.
 */
static int ks_annotate(struct trace_seq *s, struct tep_event *event, struct tep_record *record)
{
	const struct kma_ks_row *row, *old;
	int ret = kma_ks_find(event->tep, record, &row, &old);

	if (!ret)
		return 0;
	if (!kma_options[OPT_FREE].set || ret == -1)
		return 1;
	if (ret < 0) {
		trace_seq_puts(s, " (kma: out of memory, matching stopped)");
		return 1;
	}
	switch (row->kind) {
	case KMA_PAIR_IMPLICIT:
		if (row->page)
			print_page_closed(s, event->tep, "implicitly frees", &old->own.page, row->ts);
		else
			print_closed(s, event->tep, "implicitly frees", &old->own.slab, row->ts);
		break;
	case KMA_PAIR_FREED:
		if (row->page)
			print_page_closed(s, event->tep, "freed", &old->own.page, row->ts);
		else
			print_closed(s, event->tep, "freed", &old->own.slab, row->ts);
		break;
	case KMA_PAIR_NULL:
		trace_seq_puts(s, row->page ? " unknown" : " null");
		break;
	case KMA_PAIR_UNKNOWN:
		trace_seq_puts(s, " unknown");
		break;
	default:	/* a new allocation says nothing */
		break;
	}
	return 1;
}

static int page_alloc_handler(struct trace_seq *s, struct tep_record *record,
			      struct tep_event *event, void *context)
{
	struct kma_state *st = state_of(event->tep);
	unsigned long long order = 0, mt, gfp;
	uint64_t key = 0;
	int e_key, e_order;
	struct kma_pair pr;
	struct live_page *l;

	e_key = print_page_head(s, event, record, &key, &order, &e_order);
	if (tep_find_field(event, "migratetype")) {
		if (kma_get_num(event, record, "migratetype", &mt))
			trace_seq_puts(s, " migratetype=!");
		else
			trace_seq_printf(s, " migratetype=%d", (int)mt);
	}
	if (tep_find_field(event, "gfp_flags")) {
		trace_seq_puts(s, " gfp_flags=");
		if (kma_get_num(event, record, "gfp_flags", &gfp))
			trace_seq_putc(s, '!');
		else
			print_gfp(s, event, gfp);
	}
	/* A failed allocation prints as one whether or not we are tracking. */
	if (!e_key && key == PAGE_FAILED) {
		trace_seq_puts(s, " failed");
		return 0;
	}
	if (e_key || ks_annotate(s, event, record) || !tracking(st, record))
		return 0;
	if (kma_pairs_on_alloc(st->pages, key, &pr)) {
		stop_matching(s, st);
		return 0;
	}
	if (pr.kind == KMA_PAIR_IMPLICIT)
		print_page_closed(s, event->tep, "implicitly frees", pr.old, record->ts);
	l = pr.live;
	l->ts = record->ts;
	l->pid = tep_data_pid(event->tep, record);
	l->order = (unsigned int)order;
	l->has_order = !e_order;
	return 0;
}

static int page_free_handler(struct trace_seq *s, struct tep_record *record,
			     struct tep_event *event, void *context)
{
	struct kma_state *st = state_of(event->tep);
	unsigned long long order = 0;
	uint64_t key = 0;
	int e_key, e_order;
	struct kma_pair pr;

	e_key = print_page_head(s, event, record, &key, &order, &e_order);
	if (e_key || ks_annotate(s, event, record) || !tracking(st, record))
		return 0;
	kma_pairs_on_free(st->pages, key, &pr);
	if (pr.kind == KMA_PAIR_FREED)
		print_page_closed(s, event->tep, "freed", pr.old, record->ts);
	else
		trace_seq_puts(s, " unknown");
	return 0;
}

/* The handler of kmem event type t (enum kma_ev_type, t < KMA_EV_NR). */
static tep_event_handler_func handler_of(int t)
{
	return kma_ev_is_alloc(t) ? alloc_handler : free_handler;
}

KMA_EXPORT int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	struct kma_state *st = state_of(tep);
	size_t i;
	int t;

	/* A handle shared by several inputs (buffer instances) loads us again. */
	if (st) {
		st->refs++;
		return 0;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return -1;
	st->lives = kma_pairs_alloc(sizeof(struct live), 512);
	st->pages = kma_pairs_alloc(sizeof(struct live_page), 512);
	if (!st->lives || !st->pages) {
		kma_pairs_free(st->lives);
		kma_pairs_free(st->pages);
		free(st);
		return -1;
	}
	st->tep = tep;
	st->refs = 1;
	st->next = states;
	states = st;

	if (!nr_states++) {
		/* Defaults first: a plugin reloaded in the same process starts clean. */
		for (i = 0; kma_options[i].name; i++)
			kma_options[i].set = kma_option_defaults[i];
		tep_plugin_add_options("kma", kma_options);
	}

	for (t = 0; t < KMA_EV_NR; t++)
		tep_register_event_handler(tep, -1, KMA_EV_SYSTEM, kma_ev_name(t),
					   handler_of(t), NULL);
	tep_register_event_handler(tep, -1, KMA_EV_SYSTEM, kma_page_ev_name(KMA_EV_PAGE_ALLOC),
				   page_alloc_handler, NULL);
	tep_register_event_handler(tep, -1, KMA_EV_SYSTEM, kma_page_ev_name(KMA_EV_PAGE_FREE),
				   page_free_handler, NULL);
	return 0;
}

KMA_EXPORT void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	struct kma_state **p, *st;
	int t;

	for (p = &states; *p; p = &(*p)->next)
		if ((*p)->tep == tep)
			break;
	st = *p;
	if (!st || --st->refs > 0)
		return;

	for (t = 0; t < KMA_EV_NR; t++)
		tep_unregister_event_handler(tep, -1, KMA_EV_SYSTEM, kma_ev_name(t),
					     handler_of(t), NULL);
	tep_unregister_event_handler(tep, -1, KMA_EV_SYSTEM, kma_page_ev_name(KMA_EV_PAGE_ALLOC),
				     page_alloc_handler, NULL);
	tep_unregister_event_handler(tep, -1, KMA_EV_SYSTEM, kma_page_ev_name(KMA_EV_PAGE_FREE),
				     page_free_handler, NULL);
	*p = st->next;
	kma_pairs_free(st->lives);
	kma_pairs_free(st->pages);
	free(st);
	if (!--nr_states)
		tep_plugin_remove_options(kma_options);
}
