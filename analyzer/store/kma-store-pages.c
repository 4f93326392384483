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

struct shapes {
	struct kma_map	map;	/* hash -> index; a collision probes hash + 1 */
	struct shape	*v;
	size_t		nr, cap;
	sqlite3_stmt	*ins;
};

struct kma_page_writer {
	struct shapes	sh;
	sqlite3_stmt	*row;
};

static uint64_t shape_hash(const struct shape *s)
{
	uint64_t h = 1469598103934665603ULL, w[8] = {
		s->order, (uint64_t)(int64_t)s->migratetype, (uint64_t)(int64_t)s->pid, s->gfp,
		(uintptr_t)s->gfp_text, (uintptr_t)s->comm, (uintptr_t)s->function,
		(uintptr_t)s->stack,
	};
	int i;

	for (i = 0; i < 8; i++)
		h = (h ^ w[i]) * 1099511628211ULL;
	return h;
}

static int bind_text(sqlite3_stmt *st, int i, const char *s)
{
	return s ? sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC) : sqlite3_bind_null(st, i);
}

/* The id of shape @k, inserted on first sight: > 0, or 0 on error. */
static uint32_t shape_id(struct shapes *sh, const struct shape *k)
{
	uint64_t h = shape_hash(k);
	uint32_t *idx;
	sqlite3_stmt *st = sh->ins;
	int rc;

	while ((idx = kma_map_find(&sh->map, h))) {
		if (!memcmp(&sh->v[*idx], k, sizeof(*k)))
			return *idx + 1;
		h++;
	}
	if (sh->nr == sh->cap) {
		size_t cap = sh->cap ? sh->cap * 2 : 64;
		struct shape *n = realloc(sh->v, cap * sizeof(*n));

		if (!n)
			return 0;
		sh->v = n;
		sh->cap = cap;
	}
	if (kma_map_put(&sh->map, h, (uint32_t)sh->nr))
		return 0;
	sh->v[sh->nr++] = *k;
	sqlite3_bind_int64(st, 1, I64(sh->nr));
	sqlite3_bind_int64(st, 2, k->order);
	sqlite3_bind_int64(st, 3, I64(k->gfp));
	bind_text(st, 4, k->gfp_text);
	sqlite3_bind_int64(st, 5, k->migratetype);
	sqlite3_bind_int64(st, 6, k->pid);
	bind_text(st, 7, k->comm);
	bind_text(st, 8, k->function);
	bind_text(st, 9, k->stack);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? (uint32_t)sh->nr : 0;
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
	int rc;

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
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int kma_store_write_pages(sqlite3 *db, const struct kma_store_results *run)
{
	return write_trace(db, run->pages);
}

void kma_store_page_writer_free(struct kma_page_writer *w)
{
	if (!w)
		return;
	sqlite3_finalize(w->sh.ins);
	sqlite3_finalize(w->row);
	kma_map_release(&w->sh.map);
	free(w->sh.v);
	free(w);
}

static struct kma_page_writer *page_writer(sqlite3 *db)
{
	struct kma_page_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	if (kma_map_init(&w->sh.map, 64) ||
	    sqlite3_prepare_v2(db, "INSERT INTO page_shapes VALUES (?,?,?,?,?,?,?,?,?)", -1,
			       &w->sh.ins, NULL) != SQLITE_OK ||
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
		id = shape_id(&(*pw)->sh, &k);
		if (!id || write_row((*pw)->row, a, id))
			return -1;
	}
	return 0;
}
