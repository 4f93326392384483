// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store-pages.c - the page allocations of report.db (kma-analyze --pages):
 * page_trace (one row of facts), page_shapes (what allocations share: order,
 * gfp flags, migrate type, task, caller function, stack; one row each) and
 * page_alloc_rows (integers: times, pfn, how it ended, its shape). The rows
 * are streamed: the page matcher's finished allocations are queued with the
 * slab rows (kma_store_page_row) and written, with their shapes, by the
 * store's writer thread; page_trace is written at the commit.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-store-int.h"

#define I64(v)	((sqlite3_int64)(v))

struct shape {
	uint32_t	order;
	int		migratetype, pid;
	uint64_t	gfp;
	const char	*gfp_text, *comm, *function, *stack;	/* interned: compared by pointer */
};

struct kma_page_writer {
	struct kma_keyset	shapes;		/* of struct shape */
	sqlite3_stmt		*ins_shape, *row;
};

/* The id of shape @k, its page_shapes row written on first sight: > 0, or 0 on error. */
static uint32_t shape_id(struct kma_page_writer *w, const struct shape *k)
{
	sqlite3_stmt *st = w->ins_shape;
	uint32_t id;
	int added;

	if (kma_keyset_id(&w->shapes, k, &id, &added))
		return 0;
	if (!added)
		return id;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, k->order);
	sqlite3_bind_int64(st, 3, I64(k->gfp));
	kma_bind_text(st, 4, k->gfp_text);
	sqlite3_bind_int64(st, 5, k->migratetype);
	sqlite3_bind_int64(st, 6, k->pid);
	kma_bind_text(st, 7, k->comm);
	kma_bind_text(st, 8, k->function);
	kma_bind_text(st, 9, k->stack);
	return kma_step(st) ? 0 : id;
}

static int write_trace(sqlite3 *db, const struct kma_store_pages *p)
{
	const struct kma_page_totals *t = p->totals;
	sqlite3_stmt *st;
	int rc, i;

	if (sqlite3_prepare_v2(db, "INSERT INTO page_trace VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, p->page_size);
	sqlite3_bind_int64(st, 2, t->by_ptr);
	for (i = 0; i < 5; i++)
		sqlite3_bind_int64(st, 3 + i, I64(t->ev[i]));
	sqlite3_bind_int64(st, 8, I64(t->failed));
	sqlite3_bind_int64(st, 9, I64(t->unknown_frees));
	sqlite3_bind_int64(st, 10, I64(t->unknown_pages));
	sqlite3_bind_int64(st, 11, I64(t->peak_pages));
	if (t->peak_pages)
		sqlite3_bind_int64(st, 12, I64(t->peak_ts));
	else
		sqlite3_bind_null(st, 12);
	sqlite3_bind_int64(st, 13, I64(t->stacked));
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int write_row(sqlite3_stmt *st, const struct kma_page_alloc *a, uint32_t shape)
{
	sqlite3_bind_int64(st, 1, I64(a->alloc_ts));
	if (a->free_kind < 0) {
		sqlite3_bind_null(st, 2);
		sqlite3_bind_null(st, 4);
	} else {
		sqlite3_bind_int64(st, 2, I64(a->free_ts));
		sqlite3_bind_int64(st, 4, a->free_kind == KMA_FREE_IMPLICIT);
	}
	sqlite3_bind_int64(st, 3, I64(a->pfn));
	sqlite3_bind_int64(st, 5, shape);
	sqlite3_bind_int64(st, 6, a->generation);
	return kma_step(st);
}

int kma_store_write_pages(sqlite3 *db, const struct kma_store_results *run)
{
	return write_trace(db, run->pages);
}

void kma_store_page_writer_free(struct kma_page_writer *w)
{
	if (!w)
		return;
	sqlite3_finalize(w->ins_shape);
	sqlite3_finalize(w->row);
	kma_keyset_free(&w->shapes);
	free(w);
}

static struct kma_page_writer *page_writer(sqlite3 *db)
{
	struct kma_page_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	if (kma_keyset_init(&w->shapes, sizeof(struct shape)) ||
	    sqlite3_prepare_v2(db, "INSERT INTO page_shapes VALUES (?,?,?,?,?,?,?,?,?)", -1,
			       &w->ins_shape, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO page_alloc_rows VALUES (?,?,?,?,?,?)", -1,
			       &w->row, NULL) != SQLITE_OK) {
		kma_store_page_writer_free(w);
		return NULL;
	}
	return w;
}

int kma_store_page_rows(sqlite3 *db, struct kma_page_writer **pw,
			const struct kma_store_page_row *rows, uint32_t n)
{
	uint32_t i, id;
	struct shape k;

	if (!n)
		return 0;
	if (!*pw && !(*pw = page_writer(db)))
		return -1;
	for (i = 0; i < n; i++) {
		const struct kma_page_alloc *a = &rows[i].a;

		memset(&k, 0, sizeof(k));	/* compared with memcmp: no stray padding */
		k.order = a->order;
		k.migratetype = a->migratetype;
		k.pid = a->pid;
		k.gfp = a->gfp_flags;
		k.gfp_text = a->gfp_text;
		k.comm = a->comm;
		k.function = rows[i].function;
		k.stack = rows[i].stack;
		id = shape_id(*pw, &k);
		if (!id || write_row((*pw)->row, a, id))
			return -1;
	}
	return 0;
}
