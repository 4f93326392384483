// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_kma.c - libtraceevent plugin for the kmem slab events.
 *
 * trace-cmd report (and anything else that prints events through
 * libtraceevent) shows allocations as
 *
 *   (alloc_pipe_info+0x5d) ptr=0x... bytes_req=160 bytes_alloc=192 slack=32 gfp_flags=GFP_KERNEL
 *
 * and frees with what they freed:
 *
 *   (free_pipe_info+0x9a) ptr=0x... freed 192 bytes from alloc_pipe_info+0x5d, lived 3.2ms
 *
 * The plugin keeps the live allocations of each trace it prints, matched
 * with the rules of kma-analyze: a free closes the live allocation at its
 * pointer whatever kinds the two events are (kfree may free a slab-cache
 * object), a pointer <= 0x10 is a null free, and an allocation at a pointer
 * that is still live closes the earlier one (an "implicit free": the object
 * went away through a path with no tracepoint).
 *
 * Options (trace-cmd report -O kma:NAME=VALUE):
 *   kma:free=0	no free annotation (and no tracking)
 *   kma:ns=1	ages in nanoseconds
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#define KMA_EXPORT	__attribute__((visibility("default")))

/* Pointers up to ZERO_SIZE_PTR ((void *)16) are kfree(NULL)-style no-ops. */
#define KMA_NULL_PTR_MAX	0x10

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

struct live {
	uint64_t	ptr;		/* 0: empty slot */
	uint64_t	call_site;
	uint64_t	bytes_alloc;
	uint64_t	ts;
	int		has_bytes;	/* bytes_alloc was readable */
};

/*
 * State of one trace (one tep handle): trace-cmd report may open several
 * files at once, each with its own handle, and all of them share this .so.
 */
struct kma_state {
	struct kma_state	*next;
	struct tep_handle	*tep;
	int			refs;
	struct live		*slots;		/* open addressing, linear probing */
	size_t			nr_slots;	/* power of two, or 0 */
	size_t			nr;
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

static size_t slot_of(uint64_t key, size_t mask)
{
	/* Kernel pointers share their high bits and are aligned: mix them. */
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & mask;
}

static struct live *live_find(struct kma_state *st, uint64_t ptr)
{
	size_t mask = st->nr_slots - 1, i;

	if (!st->nr_slots)
		return NULL;
	for (i = slot_of(ptr, mask); st->slots[i].ptr; i = (i + 1) & mask)
		if (st->slots[i].ptr == ptr)
			return &st->slots[i];
	return NULL;
}

static int live_grow(struct kma_state *st)
{
	size_t n = st->nr_slots ? st->nr_slots * 2 : 1024, i, j;
	struct live *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -1;
	for (i = 0; i < st->nr_slots; i++) {
		if (!st->slots[i].ptr)
			continue;
		for (j = slot_of(st->slots[i].ptr, n - 1); slots[j].ptr; j = (j + 1) & (n - 1))
			;
		slots[j] = st->slots[i];
	}
	free(st->slots);
	st->slots = slots;
	st->nr_slots = n;
	return 0;
}

/* Caller makes sure ptr is not in the table. */
static int live_add(struct kma_state *st, const struct live *l)
{
	size_t mask, i;

	/* Keep the load under 1/2 so that probe runs stay short. */
	if ((st->nr + 1) * 2 > st->nr_slots && live_grow(st))
		return -1;
	mask = st->nr_slots - 1;
	for (i = slot_of(l->ptr, mask); st->slots[i].ptr; i = (i + 1) & mask)
		;
	st->slots[i] = *l;
	st->nr++;
	return 0;
}

/*
 * Backward-shift deletion: no tombstones, so heavy pointer reuse in a long
 * trace does not fill the table with dead slots.
 */
static void live_del(struct kma_state *st, struct live *l)
{
	size_t mask = st->nr_slots - 1;
	size_t hole = (size_t)(l - st->slots), i = hole, home;

	for (;;) {
		i = (i + 1) & mask;
		if (!st->slots[i].ptr)
			break;
		home = slot_of(st->slots[i].ptr, mask);
		/* Move the entry back only if the hole lies on its probe path. */
		if (((i - home) & mask) >= ((i - hole) & mask)) {
			st->slots[hole] = st->slots[i];
			hole = i;
		}
	}
	st->slots[hole].ptr = 0;
	st->nr--;
}

static void live_clear(struct kma_state *st)
{
	free(st->slots);
	st->slots = NULL;
	st->nr_slots = 0;
	st->nr = 0;
}

/*
 * A numeric field of the record, 0 on success. Unlike tep_get_field_val()
 * this checks the field lies inside the record: a truncated or corrupt
 * record must print '!', not read past its end.
 */
static int get_num(struct tep_event *event, struct tep_record *record,
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

static void print_age(struct trace_seq *s, uint64_t from, uint64_t to)
{
	long long d = (long long)(to - from);
	double a = d < 0 ? -(double)d : (double)d;
	const char *sign = d < 0 ? "-" : "";

	if (kma_options[OPT_NS].set)
		trace_seq_printf(s, "%lldns", d);
	else if (a < 1e3)
		trace_seq_printf(s, "%lldns", d);
	else if (a < 1e6)
		trace_seq_printf(s, "%s%.1fus", sign, a / 1e3);
	else if (a < 1e9)
		trace_seq_printf(s, "%s%.1fms", sign, a / 1e6);
	else
		trace_seq_printf(s, "%s%.3fs", sign, a / 1e9);
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
 * (KernelShark scrolling) goes back in time or repeats a record: from then
 * on, say nothing rather than something wrong.
 */
static int tracking(struct kma_state *st, struct tep_record *record)
{
	if (!st || st->broken || st->unordered || !kma_options[OPT_FREE].set)
		return 0;
	if (st->seen && (record->ts < st->last_ts ||
			 (record->ts == st->last_ts && record->offset == st->last_offset &&
			  record->cpu == st->last_cpu))) {
		st->unordered = 1;
		live_clear(st);
		return 0;
	}
	st->seen = 1;
	st->last_ts = record->ts;
	st->last_offset = record->offset;
	st->last_cpu = record->cpu;
	return 1;
}

static int print_call_site(struct trace_seq *s, struct tep_event *event,
			   struct tep_record *record, unsigned long long *call_site)
{
	if (get_num(event, record, "call_site", call_site)) {
		trace_seq_puts(s, "(!)");
		return -1;
	}
	trace_seq_putc(s, '(');
	print_sym(s, event->tep, *call_site);
	trace_seq_putc(s, ')');
	return 0;
}

static int alloc_handler(struct trace_seq *s, struct tep_record *record,
			 struct tep_event *event, void *context)
{
	struct kma_state *st = state_of(event->tep);
	unsigned long long call_site = 0, ptr = 0, req = 0, alloc = 0, gfp = 0, node;
	int e_site, e_ptr, e_req, e_alloc, e_gfp;
	struct tep_format_field *field;
	struct live *old;

	e_site = print_call_site(s, event, record, &call_site);
	e_ptr = get_num(event, record, "ptr", &ptr);
	e_req = get_num(event, record, "bytes_req", &req);
	e_alloc = get_num(event, record, "bytes_alloc", &alloc);
	e_gfp = get_num(event, record, "gfp_flags", &gfp);

	if (e_ptr)
		trace_seq_puts(s, " ptr=!");
	else
		trace_seq_printf(s, " ptr=0x%llx", ptr);
	print_cache(s, event, record);
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
	if (field && !get_num(event, record, "node", &node)) {
		/* node is a signed int: NUMA_NO_NODE is -1. */
		if ((field->flags & TEP_FIELD_IS_SIGNED) && field->size == 4)
			node = (unsigned long long)(long long)(int)node;
		trace_seq_printf(s, " node=%lld", (long long)node);
	}
	if (tep_find_field(event, "accounted") && !get_num(event, record, "accounted", &node))
		trace_seq_printf(s, " accounted=%s", node ? "true" : "false");

	if (!e_ptr && !ptr) {
		trace_seq_puts(s, " failed");
		return 0;
	}
	if (e_ptr || e_site || !tracking(st, record))
		return 0;

	old = live_find(st, ptr);
	if (old) {
		trace_seq_puts(s, " implicitly frees ");
		if (old->has_bytes)
			trace_seq_printf(s, "%llu", (unsigned long long)old->bytes_alloc);
		else
			trace_seq_putc(s, '!');
		trace_seq_puts(s, " bytes from ");
		print_sym(s, event->tep, old->call_site);
		trace_seq_puts(s, ", lived ");
		print_age(s, old->ts, record->ts);
		old->call_site = call_site;
		old->bytes_alloc = alloc;
		old->has_bytes = !e_alloc;
		old->ts = record->ts;
		return 0;
	}

	{
		struct live l = {
			.ptr		= ptr,
			.call_site	= call_site,
			.bytes_alloc	= alloc,
			.ts		= record->ts,
			.has_bytes	= !e_alloc,
		};

		if (live_add(st, &l)) {
			st->broken = 1;
			live_clear(st);
			trace_seq_puts(s, " (kma: out of memory, matching stopped)");
		}
	}
	return 0;
}

static int free_handler(struct trace_seq *s, struct tep_record *record,
			struct tep_event *event, void *context)
{
	struct kma_state *st = state_of(event->tep);
	unsigned long long call_site = 0, ptr = 0;
	int e_site, e_ptr;
	struct live *l;

	e_site = print_call_site(s, event, record, &call_site);
	e_ptr = get_num(event, record, "ptr", &ptr);
	if (e_ptr)
		trace_seq_puts(s, " ptr=!");
	else
		trace_seq_printf(s, " ptr=0x%llx", ptr);
	print_cache(s, event, record);

	if (e_ptr || e_site || !tracking(st, record))
		return 0;
	if (ptr <= KMA_NULL_PTR_MAX) {
		trace_seq_puts(s, " null");
		return 0;
	}
	l = live_find(st, ptr);
	if (!l) {
		trace_seq_puts(s, " unknown");
		return 0;
	}
	trace_seq_puts(s, " freed ");
	if (l->has_bytes)
		trace_seq_printf(s, "%llu", (unsigned long long)l->bytes_alloc);
	else
		trace_seq_putc(s, '!');
	trace_seq_puts(s, " bytes from ");
	print_sym(s, event->tep, l->call_site);
	trace_seq_puts(s, ", lived ");
	print_age(s, l->ts, record->ts);
	live_del(st, l);
	return 0;
}

static const struct {
	const char		*name;
	tep_event_handler_func	handler;
} kma_events[] = {
	{ "kmalloc",			alloc_handler },
	{ "kmalloc_node",		alloc_handler },
	{ "kmem_cache_alloc",		alloc_handler },
	{ "kmem_cache_alloc_node",	alloc_handler },
	{ "kfree",			free_handler },
	{ "kmem_cache_free",		free_handler },
};

KMA_EXPORT int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	struct kma_state *st = state_of(tep);
	size_t i;

	/* A handle shared by several inputs (buffer instances) loads us again. */
	if (st) {
		st->refs++;
		return 0;
	}
	st = calloc(1, sizeof(*st));
	if (!st)
		return -1;
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

	for (i = 0; i < sizeof(kma_events) / sizeof(kma_events[0]); i++)
		tep_register_event_handler(tep, -1, "kmem", kma_events[i].name,
					   kma_events[i].handler, NULL);
	return 0;
}

KMA_EXPORT void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	struct kma_state **p, *st;
	size_t i;

	for (p = &states; *p; p = &(*p)->next)
		if ((*p)->tep == tep)
			break;
	st = *p;
	if (!st || --st->refs > 0)
		return;

	for (i = 0; i < sizeof(kma_events) / sizeof(kma_events[0]); i++)
		tep_unregister_event_handler(tep, -1, "kmem", kma_events[i].name,
					     kma_events[i].handler, NULL);
	*p = st->next;
	live_clear(st);
	free(st);
	if (!--nr_states)
		tep_plugin_remove_options(kma_options);
}
