// SPDX-License-Identifier: GPL-2.0
/*
 * kma-kshark.c - the KernelShark side of plugin_kma.so.
 *
 * The libtraceevent side (plugin_kma.c) pairs allocations and frees as it
 * prints them, which is right only when every record is printed once, in
 * time order, as trace-cmd report does. KernelShark prints a row when it is
 * displayed, in any order. So the same .so is also a KernelShark
 * data-processing plugin (kernelshark -p plugin_kma.so): libkshark calls the
 * event handler below for each kmem record while it loads the trace, which
 * keeps the records' fields in a table; at the first row printed after a
 * load, the table is put in time order and paired once through kma-pairs,
 * the rules plugin_kma.c and kma-analyze use. From then on the printer looks
 * each record up by its file offset (kma_ks_find()).
 *
 * libkshark delivers the records CPU by CPU, not in time order: the order
 * trace-cmd report merges them in (time, then the lower CPU first) is
 * rebuilt by sorting on (ts, cpu, offset).
 *
 * trace-cmd loads this .so too, and has no libkshark: the libkshark
 * functions are weak references, never called there (nothing calls the
 * KernelShark entry points), so the plugin needs no libkshark at run time.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <libkshark.h>
#include <libkshark-plugin.h>
#include <libkshark-tepdata.h>

#include "kma-event.h"
#include "kma-pairs.h"
#include "kma-plugin.h"

#define KMA_EXPORT	__attribute__((visibility("default")))

#pragma weak kshark_get_tep
#pragma weak kshark_register_event_handler
#pragma weak kshark_unregister_event_handler

/* The kmem events one stream has: slab events and the two page events. */
#define KS_MAX_EVENTS	(KMA_EV_NR + 2)

/*
 * The rows of one tep handle: buffer instances of one file share the handle,
 * as they share the libtraceevent side's live sets under trace-cmd report.
 */
struct ks_table {
	struct ks_table		*next;
	struct tep_handle	*tep;
	int			refs;		/* streams bound to it */
	struct kma_ks_row	*rows;		/* file-offset order once paired */
	size_t			nr, cap;
	int			dirty;		/* rows came in since the pairing */
	int			broken;		/* out of memory */
};

/* One stream with the plugin loaded. */
struct ks_bind {
	struct ks_bind			*next;
	struct kshark_data_stream	*stream;
	struct ks_table			*table;
	int				nr;
	int				id[KS_MAX_EVENTS];
	struct tep_event		*event[KS_MAX_EVENTS];
	unsigned char			page[KS_MAX_EVENTS];
	unsigned char			alloc[KS_MAX_EVENTS];
};

/*
 * One lock for all of it: rows load on KernelShark's loading thread, rows
 * print on whichever thread asks for an info string.
 */
static pthread_mutex_t ks_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ks_table *tables;
static struct ks_bind *binds;

static struct ks_bind *bind_of(struct kshark_data_stream *stream)
{
	struct ks_bind *b;

	for (b = binds; b; b = b->next)
		if (b->stream == stream)
			return b;
	return NULL;
}

static struct ks_table *table_of(struct tep_handle *tep)
{
	struct ks_table *t;

	for (t = tables; t; t = t->next)
		if (t->tep == tep)
			return t;
	return NULL;
}

/* Reads what the printer would track; 0 when the record is to be kept. */
static int read_row(struct ks_bind *b, int i, struct tep_record *record,
		    struct kma_ks_row *r)
{
	struct tep_event *event = b->event[i];
	unsigned long long site, ptr, v;
	const char *name;

	memset(r, 0, sizeof(*r));
	r->offset = record->offset;
	r->ts = record->ts;
	r->cpu = record->cpu;
	r->page = b->page[i];
	r->alloc = b->alloc[i];
	if (r->page) {
		if (kma_page_key(event, record, &r->key, &ptr, &name))
			return -1;
		if (!r->alloc)
			return 0;
		if (r->key == PAGE_FAILED)	/* failed: prints "failed" alone */
			return -1;
		r->own.page.ts = record->ts;
		r->own.page.pid = tep_data_pid(event->tep, record);
		r->own.page.has_order = !kma_get_num(event, record, "order", &v);
		r->own.page.order = r->own.page.has_order ? (unsigned int)v : 0;
		return 0;
	}
	if (kma_get_num(event, record, "call_site", &site) ||
	    kma_get_num(event, record, "ptr", &ptr) || (r->alloc && !ptr))
		return -1;
	r->key = ptr;
	if (r->alloc) {
		r->own.slab.call_site = site;
		r->own.slab.ts = record->ts;
		r->own.slab.has_bytes = !kma_get_num(event, record, "bytes_alloc", &v);
		r->own.slab.bytes_alloc = r->own.slab.has_bytes ? v : 0;
	}
	return 0;
}

/* The event handler: called for each kmem record while the trace loads. */
static void ks_event(struct kshark_data_stream *stream, void *rec, struct kshark_entry *entry)
{
	struct kma_ks_row row;
	struct ks_table *t;
	struct ks_bind *b;
	int i;

	pthread_mutex_lock(&ks_lock);
	b = bind_of(stream);
	if (!b || !rec)
		goto out;
	for (i = 0; i < b->nr && b->id[i] != entry->event_id; i++)
		;
	if (i == b->nr || read_row(b, i, rec, &row))
		goto out;
	t = b->table;
	if (t->nr == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 4096;
		struct kma_ks_row *rows = realloc(t->rows, cap * sizeof(*rows));

		if (!rows) {
			t->broken = 1;
			goto out;
		}
		t->rows = rows;
		t->cap = cap;
	}
	t->rows[t->nr++] = row;
	t->dirty = 1;
out:
	pthread_mutex_unlock(&ks_lock);
}

static int by_offset(const void *a, const void *b)
{
	const struct kma_ks_row *x = a, *y = b;

	return (x->offset > y->offset) - (x->offset < y->offset);
}

static const struct kma_ks_row *sort_rows;

/* trace-cmd report's merge order: time, then the lower CPU, then file order. */
static int by_time(const void *a, const void *b)
{
	const struct kma_ks_row *x = &sort_rows[*(const uint32_t *)a];
	const struct kma_ks_row *y = &sort_rows[*(const uint32_t *)b];

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return by_offset(x, y);
}

/* One row through its live set; the payload is the allocation's row index. */
static int pair_row(struct kma_pairs *set, struct kma_ks_row *rows, uint32_t i)
{
	struct kma_ks_row *r = &rows[i];
	struct kma_pair pr;

	if (r->alloc) {
		if (kma_pairs_on_alloc(set, r->key, &pr))
			return -1;
		*(uint32_t *)pr.live = i;
	} else {
		kma_pairs_on_free(set, r->key, &pr);
	}
	r->kind = pr.kind;
	if (pr.old)
		r->closed = *(const uint32_t *)pr.old;
	return 0;
}

/*
 * Pairs every row in time order. A reload (KernelShark reloads a trace when
 * filters or plugins change) hands the same records in again: one row per
 * offset is kept. Called under ks_lock.
 */
static int pair_table(struct ks_table *t)
{
	struct kma_pairs *slab = NULL, *page = NULL;
	uint32_t *order = NULL;
	size_t i, n = 0;
	int ret = -1;

	qsort(t->rows, t->nr, sizeof(*t->rows), by_offset);
	for (i = 0; i < t->nr; i++)
		if (!n || t->rows[i].offset != t->rows[n - 1].offset)
			t->rows[n++] = t->rows[i];
	t->nr = n;
	if (n > UINT32_MAX)
		return -1;
	order = malloc((n ? n : 1) * sizeof(*order));
	slab = kma_pairs_alloc(sizeof(uint32_t), 512);
	page = kma_pairs_alloc(sizeof(uint32_t), 512);
	if (!order || !slab || !page)
		goto out;
	for (i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	sort_rows = t->rows;	/* qsort has no context argument; under ks_lock */
	qsort(order, n, sizeof(*order), by_time);
	for (i = 0; i < n; i++)
		if (pair_row(t->rows[order[i]].page ? page : slab, t->rows, order[i]))
			goto out;
	ret = 0;
out:
	kma_pairs_free(slab);
	kma_pairs_free(page);
	free(order);
	return ret;
}

int kma_ks_find(struct tep_handle *tep, struct tep_record *record,
		const struct kma_ks_row **row, const struct kma_ks_row **closed)
{
	struct kma_ks_row key = { .offset = record->offset };
	struct ks_table *t;
	int ret = -1;

	pthread_mutex_lock(&ks_lock);
	t = table_of(tep);
	if (!t) {
		pthread_mutex_unlock(&ks_lock);
		return 0;
	}
	if (t->dirty && !t->broken) {
		t->broken = pair_table(t) < 0;
		t->dirty = 0;
	}
	if (t->broken) {
		ret = -2;
	} else {
		*row = bsearch(&key, t->rows, t->nr, sizeof(*t->rows), by_offset);
		if (*row) {
			*closed = &t->rows[(*row)->closed];
			ret = 1;
		}
	}
	pthread_mutex_unlock(&ks_lock);
	return ret;
}

/* The kmem events the stream's trace has, into b; how many. */
static int find_events(struct ks_bind *b, struct tep_handle *tep)
{
	struct tep_event *e;
	int t;

	for (t = 0; t < KMA_EV_NR + 2; t++) {
		int page = t >= KMA_EV_NR;
		const char *name = page ? kma_page_ev_name(t == KMA_EV_NR ? KMA_EV_PAGE_ALLOC :
							   KMA_EV_PAGE_FREE) : kma_ev_name(t);

		e = tep_find_event_by_name(tep, KMA_EV_SYSTEM, name);
		if (!e)
			continue;
		b->id[b->nr] = e->id;
		b->event[b->nr] = e;
		b->page[b->nr] = page;
		b->alloc[b->nr] = page ? t == KMA_EV_NR : kma_ev_is_alloc(t);
		b->nr++;
	}
	return b->nr;
}

static struct ks_table *table_get(struct tep_handle *tep)
{
	struct ks_table *t = table_of(tep);

	if (t) {
		t->refs++;
		return t;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tep = tep;
	t->refs = 1;
	t->next = tables;
	tables = t;
	return t;
}

static void table_put(struct ks_table *t)
{
	struct ks_table **p;

	if (--t->refs > 0)
		return;
	for (p = &tables; *p != t; p = &(*p)->next)
		;
	*p = t->next;
	free(t->rows);
	free(t);
}

/* KernelShark loads the plugin for a stream: the number of handlers, 0 if none. */
KMA_EXPORT int KSHARK_PLOT_PLUGIN_INITIALIZER(struct kshark_data_stream *stream)
{
	struct tep_handle *tep;
	struct ks_bind *b;
	int i;

	if (!kshark_get_tep || !kshark_register_event_handler || !kshark_is_tep(stream))
		return 0;
	tep = kshark_get_tep(stream);
	if (!tep)
		return 0;
	pthread_mutex_lock(&ks_lock);
	if (bind_of(stream) || !(b = calloc(1, sizeof(*b))))
		goto fail;
	if (!find_events(b, tep) || !(b->table = table_get(tep))) {
		free(b);
		goto fail;
	}
	b->stream = stream;
	b->next = binds;
	binds = b;
	pthread_mutex_unlock(&ks_lock);
	for (i = 0; i < b->nr; i++)
		kshark_register_event_handler(stream, b->id[i], ks_event);
	return b->nr;
fail:
	pthread_mutex_unlock(&ks_lock);
	return 0;
}

KMA_EXPORT int KSHARK_PLOT_PLUGIN_DEINITIALIZER(struct kshark_data_stream *stream)
{
	struct ks_bind **p, *b;
	int i, n;

	pthread_mutex_lock(&ks_lock);
	for (p = &binds; *p && (*p)->stream != stream; p = &(*p)->next)
		;
	b = *p;
	if (!b) {
		pthread_mutex_unlock(&ks_lock);
		return 0;
	}
	*p = b->next;
	table_put(b->table);
	pthread_mutex_unlock(&ks_lock);
	for (i = 0; i < b->nr; i++)
		if (kshark_unregister_event_handler)
			kshark_unregister_event_handler(stream, b->id[i], ks_event);
	n = b->nr;
	free(b);
	return n;
}
