// SPDX-License-Identifier: GPL-2.0
/*
 * kma-decode-page.c - the page allocator's kmem events -> kma events.
 *
 * mm_page_alloc (pfn, order, gfp_flags, migratetype), mm_page_free (pfn,
 * order), mm_page_free_batched (pfn), mm_page_alloc_zone_locked and
 * mm_page_pcpu_drain. Kernels from before Namhyung Kim's "tracing, mm: Record
 * pfn instead of pointer to struct page" (2015, for perf kmem --page) carry a
 * `page` pointer instead of `pfn`; the
 * pointer is as good a key (one struct page per pfn), and a failed
 * allocation is NULL there, -1UL in pfn.
 *
 * As for the slab events, every field is looked up once per event id. The
 * records are always counted (info.page_count) and handed on only when the
 * caller asked (kma_reader_want_pages): without --pages nothing downstream
 * changes. gfp_flags are rendered as the kernel renders them, from the
 * trace's own __print_flags() table (its values already evaluated by
 * libtraceevent), once per distinct value.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-reader-int.h"

enum { PG_KEY, PG_ORDER, PG_GFP, PG_MIGRATE };

void kma_reader_want_pages(struct kma_reader *r, int on)
{
	r->want_pages = on;
}

/* A numeric field of at most 8 bytes (the record must hold it), or NULL. */
static struct tep_format_field *field(struct ev_desc *d, struct tep_event *ev, const char *name)
{
	struct tep_format_field *f = tep_find_field(ev, name);

	if (!f || f->size < 1 || f->size > 8 || (f->flags & TEP_FIELD_IS_DYNAMIC))
		return NULL;
	return kma_reader_fixed_field(d, f);
}

/* One page event: followed when it has its key field (pfn, or page) and is well formed. */
static void follow(struct kma_reader *r, int type)
{
	struct tep_event *ev = tep_find_event_by_name(r->tep, KMA_EV_SYSTEM,
						      kma_page_ev_name(type));
	struct ev_desc *d;
	char keep[sizeof(r->bad)];
	int k, by_ptr = 0;

	if (!ev || ev->id < 0 || ev->id > r->max_id || r->by_id[ev->id].type >= 0)
		return;
	memcpy(keep, r->bad, sizeof(keep));
	k = !kma_reader_check_event(r, ev);
	memcpy(r->bad, keep, sizeof(keep));	/* a bad page format only leaves it out */
	if (!k)
		return;
	d = &r->by_id[ev->id];
	d->pg[PG_KEY] = field(d, ev, "pfn");
	if (!d->pg[PG_KEY]) {
		d->pg[PG_KEY] = field(d, ev, "page");
		by_ptr = 1;
	}
	if (!d->pg[PG_KEY])
		return;
	d->pg[PG_ORDER] = field(d, ev, "order");
	d->pg[PG_GFP] = field(d, ev, "gfp_flags");
	d->pg[PG_MIGRATE] = field(d, ev, "migratetype");
	if (d->pg[PG_GFP])
		d->gfp_table = kma_gfp_table(ev->print_fmt.args);
	d->type = type;
	d->page_by_ptr = by_ptr;
	if (by_ptr)
		r->info.page_by_ptr = 1;
	kma_reader_follow_pid(r, ev);
}

void kma_page_setup(struct kma_reader *r)
{
	int t;

	if (!r->info.sys_page_size)
		r->info.sys_page_size = r->page_size ? r->page_size : 4096;
	for (t = KMA_EV_PAGE_ALLOC; t <= KMA_EV_PAGE_PCPU_DRAIN; t++)
		follow(r, t);
}

/* gfp_flags as trace_print_flags_seq() prints them: names in table order, then the rest in hex. */
static void render_gfp(const struct tep_print_arg_flags *fl, uint64_t v, char *buf, size_t len)
{
	const struct tep_print_flag_sym *s;
	size_t n = 0;

	buf[0] = '\0';
	if (!v) {
		snprintf(buf, len, "none");
		return;
	}
	for (s = fl ? fl->flags : NULL; s && v; s = s->next) {
		char *end;
		unsigned long long m = s->value ? strtoull(s->value, &end, 0) : 0;

		if (!s->str || !m || *end || (v & m) != m)
			continue;
		v &= ~(uint64_t)m;
		n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "", s->str);
		if (n >= len)
			return;
	}
	if (v)
		snprintf(buf + n, len - n, "%s0x%" PRIx64, n ? "|" : "", v);
}

const char *kma_gfp_text(struct kma_reader *r, const struct ev_desc *d, uint64_t v)
{
	uint32_t *idx;
	const char *text;
	char buf[512];

	/* runs of one value (GFP_KERNEL) are the rule: no map lookup for them */
	if (r->gfp_last_text && v == r->gfp_last)
		return r->gfp_last_text;
	if (!r->gfp_map.slots && kma_map_init(&r->gfp_map, 64))
		return NULL;
	idx = kma_map_find(&r->gfp_map, v);
	if (idx) {
		text = r->gfp_texts[*idx];
	} else {
		render_gfp(d->gfp_table, v, buf, sizeof(buf));
		text = kma_reader_remember(r, &r->gfp_map, &r->gfp_texts, &r->nr_gfp,
					   &r->cap_gfp, v, buf);
	}
	r->gfp_last = v;
	r->gfp_last_text = text;
	return text;
}

const struct tep_format_field *kma_page_key_field(const struct kma_reader *r,
						  const struct ev_desc *d)
{
	return r->want_pages ? d->pg[PG_KEY] : NULL;
}

int kma_page_decode(struct kma_reader *r, const struct ev_desc *d, struct tep_record *rec)
{
	struct kma_event ev;

	if ((unsigned int)rec->size < d->min_size) {
		kma_reader_short_record(r, rec->cpu);
		return 0;
	}
	r->info.page_count[d->type - KMA_EV_PAGE_ALLOC]++;
	if (!r->want_pages)
		return 0;
	kma_reader_ev_start(&ev, d->type, rec);	/* not before: a slab run stops above */
	ev.ptr = kma_reader_num(r, d->pg[PG_KEY], rec->data);
	if (d->pg[PG_KEY]->size == 4 && ev.ptr == UINT32_MAX)
		ev.ptr = KMA_PAGE_FAILED;	/* -1UL of a 32-bit kernel */
	ev.page_by_ptr = d->page_by_ptr;
	if (ev.page_by_ptr && !ev.ptr)
		ev.ptr = KMA_PAGE_FAILED;
	if (d->pg[PG_ORDER])
		ev.order = (uint32_t)kma_reader_num(r, d->pg[PG_ORDER], rec->data);
	if (d->pg[PG_MIGRATE])
		ev.migratetype = (int)(int32_t)kma_reader_num(r, d->pg[PG_MIGRATE], rec->data);
	if (d->pg[PG_GFP]) {
		ev.gfp_flags = kma_reader_num(r, d->pg[PG_GFP], rec->data);
		ev.gfp_text = kma_gfp_text(r, d, ev.gfp_flags);
		if (!ev.gfp_text)
			r->oom = 1;
	}
	/* a page event's stack is counted apart: info.stacked is the slab events' */
	return kma_reader_hand_on(r, rec, &ev, &r->info.page_stacked);
}
