// SPDX-License-Identifier: GPL-2.0
/*
 * kma-decode-common.c - what the decoders of records share: the slab
 * events' (kma-decode.c) and the page allocator's (kma-decode-page.c).
 * A followed event's format checked and its fixed fields and common_pid
 * looked up; a record's pid and comm; strings interned once; short records
 * counted; the byte counts of allocations kept within what the kernel and
 * report.db can hold. Apart from kma-decode.c so that kma-decode-page.c,
 * which kma-decode.c dispatches to, does not call back into it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-reader-int.h"

/* Interns s into a growable array indexed through a map; returns the stable copy. */
const struct kma_event kma_reader_ev0;

const char *kma_reader_remember(struct kma_reader *r, struct kma_map *map, const char ***arr,
			    size_t *nr, size_t *cap, uint64_t key, const char *s)
{
	const char *copy = kma_strpool_intern(r->pool, s, strlen(s));

	if (!copy)
		return NULL;
	if (kma_grow(arr, cap, *nr, sizeof(**arr), 256))
		return NULL;
	if (kma_map_put(map, key, (uint32_t)*nr))
		return NULL;
	(*arr)[(*nr)++] = copy;
	return copy;
}

const char *kma_reader_comm(struct kma_reader *r, int pid)
{
	uint32_t *idx;
	const char *comm;

	if (pid == r->last_pid && r->last_comm)
		return r->last_comm;
	idx = kma_map_find(&r->comm_map, (uint64_t)(uint32_t)pid);
	if (idx) {
		comm = r->comms[*idx];
	} else {
		comm = pid ? tep_data_comm_from_pid(r->tep, pid) : "<idle>";
		comm = kma_reader_remember(r, &r->comm_map, &r->comms, &r->nr_comms, &r->cap_comms,
				(uint64_t)(uint32_t)pid, comm ? comm : "<...>");
	}
	r->last_pid = pid;
	r->last_comm = comm;
	return comm;
}

int kma_reader_pid(struct kma_reader *r, struct tep_record *rec)
{
	if (r->common_pid && r->common_pid->offset + r->common_pid->size <= rec->size)
		return (int)(int32_t)kma_reader_num(r, r->common_pid, rec->data);
	return tep_data_pid(r->tep, rec);
}

/*
 * The size a field's C type implies: 0 for a long or a pointer (the
 * trace's long size), -1 when the type does not say (arrays, structs,
 * types kma does not know).
 */
static int implied_size(const char *type)
{
	static const struct { const char *name; int size; } types[] = {
		{ "bool", 1 }, { "char", 1 }, { "u8", 1 }, { "s8", 1 },
		{ "short", 2 }, { "unsigned short", 2 }, { "u16", 2 }, { "s16", 2 },
		{ "int", 4 }, { "unsigned int", 4 }, { "u32", 4 }, { "s32", 4 }, { "gfp_t", 4 },
		{ "pid_t", 4 }, { "unsigned char", 1 },
		{ "long", 0 }, { "unsigned long", 0 }, { "size_t", 0 }, { "ssize_t", 0 },
		{ "long long", 8 }, { "unsigned long long", 8 }, { "u64", 8 }, { "s64", 8 },
	};
	size_t i;

	if (!strncmp(type, "const ", 6))
		type += 6;
	if (strstr(type, "__data_loc") || strstr(type, "__rel_loc"))
		return 4;
	if (strchr(type, '['))
		return -1;
	if (strchr(type, '*'))
		return 0;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(type, types[i].name))
			return types[i].size;
	return -1;
}

/* The fields of a followed event, common ones first: in order, apart, of their types' sizes. */
static int check_layout(struct kma_reader *r, struct tep_event *ev)
{
	struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };
	struct tep_format_field *f, *type = tep_find_common_field(ev, "common_type");
	int i, end = 0, want;

	if (!type || type->offset != 0 || type->size != 2) {
		snprintf(r->bad, sizeof(r->bad), "%s:%s has no 2-byte common_type field at offset 0",
			 ev->system, ev->name);
		return -1;
	}
	for (i = 0; i < 2; i++)
		for (f = lists[i]; f; f = f->next) {
			want = implied_size(f->type);
			if (f->offset < end || f->size < 0) {
				snprintf(r->bad, sizeof(r->bad), "%s:%s's field %.64s (offset %d, "
					 "size %d) overlaps the field before it",
					 ev->system, ev->name, f->name, f->offset, f->size);
				return -1;
			}
			if ((want > 0 && f->size != want) ||
			    (want == 0 && f->size != 4 && f->size != 8)) {
				snprintf(r->bad, sizeof(r->bad), "%s:%s's field %.64s is %.64s but "
					 "has size %d", ev->system, ev->name, f->name, f->type,
					 f->size);
				return -1;
			}
			end = f->offset + f->size;
		}
	return 0;
}

/* An event kma follows: its format must have parsed (the print format need not). */
int kma_reader_check_event(struct kma_reader *r, struct tep_event *ev)
{
	if ((ev->flags & TEP_EVENT_FL_FAILED) && !ev->print_fmt.format) {
		snprintf(r->bad, sizeof(r->bad), "the format of %s:%s does not parse",
			 ev->system, ev->name);
		return -1;
	}
	return check_layout(r, ev);
}

/*
 * The lookups every followed event shares (the slab events of kma-decode.c
 * and the page events of kma-decode-page.c): a fixed field widens the record size
 * the event needs, and the first event found gives common_pid.
 */
struct tep_format_field *kma_reader_fixed_field(struct ev_desc *d, struct tep_format_field *f)
{
	if (f && f->offset + f->size > (int)d->min_size)
		d->min_size = f->offset + f->size;
	return f;
}

void kma_reader_follow_pid(struct kma_reader *r, struct tep_event *ev)
{
	if (r->common_pid)
		return;
	r->common_pid = tep_find_common_field(ev, "common_pid");
	if (r->common_pid && r->common_pid->size != 4)
		r->common_pid = NULL;
}

void kma_reader_short_record(struct kma_reader *r, int cpu)
{
	r->info.bad_records++;
	if (cpu >= 0 && cpu < r->info.cpus)
		r->info.damage[cpu].short_records++;
}

/* Here, not in kma-decode-kinds.c: refuse() names the events, and that file calls this one. */
const char *kma_kinds_ev_name(int type)
{
	switch (type) {
	case KMA_EV_PERCPU_ALLOC:
		return "percpu_alloc_percpu";
	case KMA_EV_PERCPU_FREE:
		return "percpu_free_percpu";
	case KMA_EV_VMAP_ALLOC:
		return "alloc_vmap_area";
	case KMA_EV_VMAP_FREE:
		return "free_vmap_area_noflush";
	}
	return NULL;
}

static int __attribute__((format(printf, 3, 4)))
refuse(struct kma_reader *r, const struct kma_event *ev, const char *fmt, ...)
{
	char what[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(r->refused, sizeof(r->refused), "cpu %d, ts %" PRIu64 " ns: %s %s", ev->cpu,
		 ev->ts, kma_ev_is_page(ev->type) ? kma_page_ev_name(ev->type) :
		 kma_kinds_ev_name(ev->type) ? kma_kinds_ev_name(ev->type) :
		 kma_ev_name(ev->type), what);
	r->stopped = 1;
	return -1;
}

/* The page allocator's share of kma_reader_check_bytes(). */
static int check_page_bytes(struct kma_reader *r, const struct kma_event *ev)
{
	uint64_t max = kma_bytes_max(r->info.long_size), psz = r->info.sys_page_size;
	uint64_t *sum = ev->type == KMA_EV_PAGE_ALLOC ? &r->page_alloc_sum : &r->page_free_sum;
	uint64_t bytes;

	if ((ev->type != KMA_EV_PAGE_ALLOC && ev->type != KMA_EV_PAGE_FREE) ||
	    (ev->type == KMA_EV_PAGE_ALLOC && ev->ptr == KMA_PAGE_FAILED))
		return 0;
	if (!psz)
		psz = 4096;
	if (ev->order >= 64 || psz > max >> ev->order)
		return refuse(r, ev, "order %u: 2^%u pages of %" PRIu64 " bytes are more than "
			      "one allocation of a %d-bit kernel can be (%s bytes)", ev->order,
			      ev->order, psz, r->info.long_size * 8,
			      r->info.long_size == 4 ? "2^32 - 1" : "2^56");
	bytes = psz << ev->order;
	if (bytes > KMA_SUM_MAX - *sum)
		return refuse(r, ev, "order %u: the page %s of the trace add up past 2^63 - 1 "
			      "bytes (8 EiB)", ev->order,
			      ev->type == KMA_EV_PAGE_ALLOC ? "allocations" : "frees");
	*sum += bytes;
	return 0;
}

int kma_reader_check_bytes(struct kma_reader *r, const struct kma_event *ev)
{
	uint64_t max = kma_bytes_max(r->info.long_size);
	const char *bits = r->info.long_size == 4 ? "2^32 - 1" : "2^56";
	int lbits = r->info.long_size * 8;
	uint64_t big;

	if (kma_ev_is_page(ev->type))
		return check_page_bytes(r, ev);
	/* a failed allocation's sizes enter no sum: kmalloc(SIZE_MAX) is traced as it is */
	if ((!kma_ev_is_alloc(ev->type) && ev->type != KMA_EV_PERCPU_ALLOC &&
	     ev->type != KMA_EV_VMAP_ALLOC) || !ev->ptr)
		return 0;
	if (ev->bytes_alloc > max)
		return refuse(r, ev, "bytes_alloc %" PRIu64 " is more than one allocation of a "
			      "%d-bit kernel can be (%s bytes)", ev->bytes_alloc, lbits, bits);
	if (ev->bytes_req > max)
		return refuse(r, ev, "bytes_req %" PRIu64 " is more than one allocation of a "
			      "%d-bit kernel can be (%s bytes)", ev->bytes_req, lbits, bits);
	/* the larger of the two, so that a sum of either column of report.db fits */
	big = ev->bytes_alloc > ev->bytes_req ? ev->bytes_alloc : ev->bytes_req;
	if (big > KMA_SUM_MAX - r->alloc_sum)
		return refuse(r, ev, "bytes_alloc %" PRIu64 ", bytes_req %" PRIu64 ": the "
			      "allocations of the trace add up past 2^63 - 1 bytes (8 EiB)",
			      ev->bytes_alloc, ev->bytes_req);
	r->alloc_sum += big;
	return 0;
}

/*
 * The end of decoding a page, percpu or vmalloc record: its task, its stack
 * (counted in *@stacked: info.stacked is the slab events'), the byte checks,
 * then @ev to the consumer. 0, or -1 to stop.
 */
int kma_reader_hand_on(struct kma_reader *r, struct tep_record *rec, struct kma_event *ev,
		       uint64_t *stacked)
{
	uint64_t before = r->info.stacked;

	ev->pid = kma_reader_pid(r, rec);
	ev->comm = kma_reader_comm(r, ev->pid);
	kma_stack_attach(r, rec, ev);
	*stacked += r->info.stacked - before;
	r->info.stacked = before;
	if (!ev->comm || r->oom) {
		r->oom = 1;
		r->stopped = 1;
		return -1;
	}
	if (kma_reader_check_bytes(r, ev))
		return -1;
	if (r->fn(r->ctx, ev)) {
		r->stopped = 1;
		return -1;
	}
	return 0;
}
