// SPDX-License-Identifier: GPL-2.0
/*
 * kma-decode-kinds.c - the percpu and vmalloc allocators' events -> kma events.
 *
 * percpu:percpu_alloc_percpu and percpu:percpu_free_percpu, paired by ptr
 * (the percpu pointer); vmalloc:alloc_vmap_area and
 * vmalloc:free_vmap_area_noflush, paired by the vmap area's start address.
 *
 * percpu bytes. In mm/percpu.c, pcpu_alloc() traces `size` after aligning it
 * to PCPU_MIN_ALLOC_SIZE: the bytes of ONE CPU's copy. bytes_alloc is
 * pcpu_obj_full_size(size) (mm/percpu-internal.h): size * num_possible_cpus()
 * plus, when kmem accounting is on, one struct obj_cgroup pointer per
 * PCPU_MIN_ALLOC_SIZE unit: the bytes of ALL possible CPUs' copies, as memcg
 * charges them. So bytes_req is per CPU and bytes_alloc for all CPUs.
 * Kernels before 5.19 ("percpu: improve percpu_alloc_percpu event trace")
 * trace neither call_site, bytes_alloc nor gfp_flags: the event then gives
 * the per-CPU size only, bytes_alloc is set to it (the CPU count is not in
 * the trace), call_site is 0, and info.percpu_missing names what is missing.
 *
 * vmalloc bytes. alloc_vmap_area() traces the size of the virtual area it
 * reserved, the guard page included (__get_vm_area_node() adds PAGE_SIZE
 * unless VM_NO_GUARD): address space, not the pages mapped into it (those
 * are page allocations of their own). A failed reservation (failed != 0, its
 * addr an error value) is handed on with ptr 0. The area counts as freed at
 * free_vmap_area_noflush, even though the kernel purges its mapping lazily.
 * The events carry no caller: the stack names it (sites/kma-stacks.c,
 * kma_stacks_vmap_caller()).
 *
 * As for the page events, every field is looked up once per event id, the
 * records are always counted (info.kind_count) and handed on only when the
 * caller asked (kma_reader_want_kinds).
 */
#include <stdio.h>
#include <string.h>

#include "kma-reader-int.h"

void kma_reader_want_kinds(struct kma_reader *r, unsigned int kinds)
{
	r->want_kinds = kinds;
}

static int kind_of(int type)
{
	return kma_ev_is_percpu(type) ? KMA_KIND_PERCPU : KMA_KIND_VMALLOC;
}

/* A numeric field of at most 8 bytes (the record must hold it), or NULL. */
static struct tep_format_field *field(struct ev_desc *d, struct tep_event *ev, const char *name)
{
	struct tep_format_field *f = tep_find_field(ev, name);

	if (!f || f->size < 1 || f->size > 8 || (f->flags & TEP_FIELD_IS_DYNAMIC))
		return NULL;
	return kma_reader_fixed_field(d, f);
}

/* The event of @type in the formats, well formed and not followed yet, or NULL. */
static struct tep_event *find(struct kma_reader *r, int type)
{
	const char *sys = kma_ev_is_percpu(type) ? "percpu" : "vmalloc";
	struct tep_event *ev = tep_find_event_by_name(r->tep, sys, kma_kinds_ev_name(type));
	char keep[sizeof(r->bad)];
	int ok;

	if (!ev || ev->id < 0 || ev->id > r->max_id || r->by_id[ev->id].type >= 0)
		return NULL;
	memcpy(keep, r->bad, sizeof(keep));
	ok = !kma_reader_check_event(r, ev);
	memcpy(r->bad, keep, sizeof(keep));	/* a bad format only leaves it out */
	return ok ? ev : NULL;
}

/* The percpu alloc event's optional fields: what its layout lacks goes to info. */
static void percpu_alloc_fields(struct kma_reader *r, struct ev_desc *d, struct tep_event *ev)
{
	static const char * const opt[] = { "call_site", "bytes_alloc", "gfp_flags" };
	struct tep_format_field *got[3];
	size_t i, n = 0;

	got[0] = d->f[F_CALL_SITE] = field(d, ev, "call_site");
	got[1] = d->f[F_BYTES_ALLOC] = field(d, ev, "bytes_alloc");
	got[2] = d->f[F_GFP] = field(d, ev, "gfp_flags");
	r->percpu_missing[0] = '\0';
	for (i = 0; i < 3; i++)
		if (!got[i])
			n += snprintf(r->percpu_missing + n, sizeof(r->percpu_missing) - n,
				      "%s%s", n ? "," : "", opt[i]);
	r->info.percpu_missing = n ? r->percpu_missing : NULL;
	if (d->f[F_GFP])
		d->gfp_table = kma_gfp_table(ev->print_fmt.args);
}

/* One event: followed when it has its key and size fields. */
static void follow(struct kma_reader *r, int type)
{
	struct tep_event *ev = find(r, type);
	struct ev_desc *d;

	if (!ev)
		return;
	d = &r->by_id[ev->id];
	switch (type) {
	case KMA_EV_PERCPU_ALLOC:
		d->f[F_PTR] = field(d, ev, "ptr");
		d->f[F_BYTES_REQ] = field(d, ev, "size");
		break;
	case KMA_EV_PERCPU_FREE:
		d->f[F_PTR] = field(d, ev, "ptr");
		break;
	case KMA_EV_VMAP_ALLOC:
		d->f[F_PTR] = field(d, ev, "addr");
		d->f[F_BYTES_REQ] = field(d, ev, "size");
		d->failed = field(d, ev, "failed");
		break;
	case KMA_EV_VMAP_FREE:
		d->f[F_PTR] = field(d, ev, "va_start");
		break;
	}
	if (!d->f[F_PTR] || ((type == KMA_EV_PERCPU_ALLOC || type == KMA_EV_VMAP_ALLOC) &&
			     !d->f[F_BYTES_REQ])) {
		memset(d, 0, sizeof(*d));
		d->type = -1;
		return;
	}
	if (type == KMA_EV_PERCPU_ALLOC)
		percpu_alloc_fields(r, d, ev);
	d->type = type;
	r->info.kinds |= 1u << kind_of(type);
	kma_reader_follow_pid(r, ev);
}

void kma_kinds_setup(struct kma_reader *r)
{
	int t;

	for (t = KMA_EV_PERCPU_ALLOC; t <= KMA_EV_VMAP_FREE; t++)
		follow(r, t);
}

/* The fields of a record (at least d->min_size bytes) into @ev. */
static void kinds_fields(struct kma_reader *r, const struct ev_desc *d, struct tep_record *rec,
			 struct kma_event *ev)
{
	ev->ptr = kma_reader_num(r, d->f[F_PTR], rec->data);
	if (d->type == KMA_EV_PERCPU_ALLOC) {
		ev->bytes_req = kma_reader_num(r, d->f[F_BYTES_REQ], rec->data);
		ev->bytes_alloc = d->f[F_BYTES_ALLOC] ?
				  kma_reader_num(r, d->f[F_BYTES_ALLOC], rec->data) : ev->bytes_req;
		if (d->f[F_CALL_SITE])
			ev->call_site = kma_reader_num(r, d->f[F_CALL_SITE], rec->data);
		if (d->f[F_GFP]) {
			ev->gfp_flags = kma_reader_num(r, d->f[F_GFP], rec->data);
			ev->gfp_text = kma_gfp_text(r, d, ev->gfp_flags);
			if (!ev->gfp_text)
				r->oom = 1;
		}
	} else if (d->type == KMA_EV_VMAP_ALLOC) {
		ev->bytes_req = ev->bytes_alloc = kma_reader_num(r, d->f[F_BYTES_REQ], rec->data);
		if (d->failed && kma_reader_num(r, d->failed, rec->data))
			ev->ptr = 0;
	}
}

int kma_kinds_decode(struct kma_reader *r, const struct ev_desc *d, struct tep_record *rec)
{
	struct kma_event ev;

	if ((unsigned int)rec->size < d->min_size) {
		kma_reader_short_record(r, rec->cpu);
		return 0;
	}
	r->info.kind_count[d->type - KMA_EV_PERCPU_ALLOC]++;
	if (!(r->want_kinds & (1u << kind_of(d->type))))
		return 0;
	kma_reader_ev_start(&ev, d->type, rec);
	ev.gfp_account = -1;
	ev.charged = -1;
	kinds_fields(r, d, rec, &ev);
	if (d->type == KMA_EV_VMAP_ALLOC && !ev.ptr)
		r->info.vmap_failed++;
	return kma_reader_hand_on(r, rec, &ev, &r->info.kind_stacked);
}
