// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store-totals.c - report.db's shape_totals, task_totals, stack_totals
 * and cache_totals: the counts of alloc_rows per shape, per task, per call
 * stack and per cache group, made as the rows are written (one add per row,
 * in the writer thread that gives the row its shape and task ids) and
 * written at the commit.
 * The views shape_counts, cache_stats, task_stats, stack_stats and
 * sizing_advice read them instead of scanning alloc_rows, and kma-push sends
 * them without reading a row (kma-fleet-counts.c).
 */
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-store-int.h"

int kma_row_totals_add(struct kma_row_totals *t, uint32_t shape, uint32_t task,
		       const struct kma_alloc_row *a)
{
	struct kma_shape_count *n;
	int64_t *v;
	/* as alloc_rows.free_kind: 0 kfree, 1 kmem_cache_free, 2 implicit */
	int freed = a->free_kind >= 0, fk = a->free_kind - KMA_EV_KFREE;

	if ((shape >= t->cap_shapes &&
	     kma_grow_zero(&t->shapes, &t->cap_shapes, (size_t)shape + 1, sizeof(*t->shapes),
			   1024)) ||
	    (task >= t->cap_tasks &&
	     kma_grow_zero(&t->tasks, &t->cap_tasks, (size_t)task + 1, sizeof(*t->tasks), 1024)))
		return -1;
	if (shape >= t->nr_shapes)
		t->nr_shapes = shape + 1;
	if (task >= t->nr_tasks)
		t->nr_tasks = task + 1;
	n = &t->shapes[shape];
	n->allocs++;
	n->live += !freed;
	n->frees += freed && fk < 2;
	n->implicit += freed && fk == 2;
	/* task_stats's sums: the shape's sizes once per row (slack may be negative) */
	v = t->tasks[task].v;
	v[0] += (int64_t)a->bytes_alloc;
	v[1] += (int64_t)a->bytes_alloc - (int64_t)a->bytes_req;
	v[2] += freed ? 0 : (int64_t)a->bytes_alloc;
	v[3]++;
	v[4] += freed && fk < 2;
	v[5] += freed && fk == 2;
	return 0;
}

void kma_row_totals_free(struct kma_row_totals *t)
{
	free(t->shapes);
	free(t->tasks);
	memset(t, 0, sizeof(*t));
}

static int ins_rows(sqlite3 *db, const char *sql, sqlite3_stmt **st)
{
	return sqlite3_prepare_v2(db, sql, -1, st, NULL) == SQLITE_OK ? 0 : -1;
}

/*
 * One row of @n integers into @st, from column @from on (those before it
 * bound by the caller: NULLs); 0 or -1.
 */
static int put(sqlite3_stmt *st, const int64_t *v, int n, int from)
{
	int i;

	for (i = from; i < n; i++)
		sqlite3_bind_int64(st, i + 1, v[i]);
	return kma_step(st);
}

static int write_shapes(sqlite3 *db, const struct kma_row_totals *t)
{
	sqlite3_stmt *st;
	int64_t v[5];
	uint32_t i;
	int err;

	if (ins_rows(db, "INSERT INTO shape_totals (shape_id, allocs, live, frees,"
		     " implicit_frees) VALUES (?,?,?,?,?)", &st))
		return -1;
	for (i = 0, err = 0; i < t->nr_shapes && !err; i++) {
		const struct kma_shape_count *n = &t->shapes[i];

		if (!n->allocs)
			continue;
		v[0] = i;
		v[1] = n->allocs;
		v[2] = n->live;
		v[3] = n->frees;
		v[4] = n->implicit;
		err = put(st, v, 5, 0);
	}
	sqlite3_finalize(st);
	return err;
}

static int write_tasks(sqlite3 *db, const struct kma_row_totals *t)
{
	sqlite3_stmt *st;
	int64_t v[7];
	uint32_t i;
	int err;

	if (ins_rows(db, "INSERT INTO task_totals (task_id, total, slack, net, allocs, frees,"
		     " implicit_frees) VALUES (?,?,?,?,?,?,?)", &st))
		return -1;
	for (i = 0, err = 0; i < t->nr_tasks && !err; i++) {
		if (!t->tasks[i].v[3])
			continue;
		v[0] = i;
		memcpy(v + 1, t->tasks[i].v, sizeof(t->tasks[i].v));
		err = put(st, v, 7, 0);
	}
	sqlite3_finalize(st);
	return err;
}

/*
 * stack_totals: the shapes' counts summed per allocation stack (slot 0: none,
 * stack id k in slot k), times the shape's sizes, slack never negative as
 * stack_stats has it; in stack id order, [no stack] (NULL) first.
 */
static int write_stacks(sqlite3 *db, const struct kma_row_totals *t,
			const struct kma_keyset *shapes)
{
	int64_t (*sum)[7] = NULL, v[8];
	size_t cap = 0;
	uint32_t i, nr = 0;
	sqlite3_stmt *st;
	int err = 0;

	for (i = 1; i < t->nr_shapes && i <= shapes->nr && !err; i++) {
		const struct kma_shape *k = (const void *)(shapes->keys +
							   (size_t)(i - 1) * shapes->key_size);
		const struct kma_shape_count *n = &t->shapes[i];
		int64_t ba = (int64_t)k->bytes_alloc, slack = ba - (int64_t)k->bytes_req;

		if (!n->allocs)
			continue;
		if (k->stack_id >= cap &&
		    kma_grow_zero(&sum, &cap, (size_t)k->stack_id + 1, sizeof(*sum), 1024)) {
			err = -1;
			break;
		}
		if (k->stack_id >= nr)
			nr = k->stack_id + 1;
		sum[k->stack_id][0] += n->allocs * ba;
		sum[k->stack_id][1] += n->allocs * (slack < 0 ? 0 : slack);
		sum[k->stack_id][2] += n->live * ba;
		sum[k->stack_id][3] += n->allocs;
		sum[k->stack_id][4] += n->frees;
		sum[k->stack_id][5] += n->implicit;
		sum[k->stack_id][6] += n->live;
	}
	if (err || ins_rows(db, "INSERT INTO stack_totals (stack_id, total, slack, net, allocs,"
			    " frees, implicit_frees, live) VALUES (?,?,?,?,?,?,?,?)", &st)) {
		free(sum);
		return -1;
	}
	for (i = 0; i < nr && !err; i++) {
		if (!sum[i][3])
			continue;
		v[0] = i;
		memcpy(v + 1, sum[i], sizeof(sum[i]));
		kma_bind_int_or_null(st, 1, i != 0, i);
		err = put(st, v, 8, 1);
	}
	sqlite3_finalize(st);
	free(sum);
	return err;
}

/* A cache group of cache_totals: its key, then total, slack, net, allocs, frees, implicit. */
struct group {
	uint64_t	bytes_alloc;
	uint32_t	cache_id;	/* 0: none */
	int32_t		kmalloc_type;	/* -1: none */
	int64_t		v[6];
	int		used;
};

static size_t group_slot(const struct kma_shape *k, size_t mask)
{
	uint64_t h = (k->bytes_alloc * 0x9e3779b97f4a7c15ULL) ^ k->cache_id;

	h = (h ^ (uint64_t)(k->kmalloc_type + 1)) * 0xc2b2ae3d27d4eb4fULL;
	return (size_t)(h ^ h >> 29) & mask;
}

/* The group of shape @k in @g (@cap slots, a power of two), claimed when new. */
static struct group *group_of(struct group *g, size_t cap, const struct kma_shape *k)
{
	size_t at;

	for (at = group_slot(k, cap - 1); g[at].used; at = (at + 1) & (cap - 1))
		if (g[at].bytes_alloc == k->bytes_alloc && g[at].cache_id == k->cache_id &&
		    g[at].kmalloc_type == k->kmalloc_type)
			return &g[at];
	g[at].used = 1;
	g[at].bytes_alloc = k->bytes_alloc;
	g[at].cache_id = k->cache_id;
	g[at].kmalloc_type = k->kmalloc_type;
	return &g[at];
}

/*
 * cache_totals: the shapes' counts summed per (cache_id, kmalloc_type,
 * bytes_alloc), as cache_stats groups them before naming the caches (slack
 * as there: bytes_alloc - bytes_req). Open addressing, at most half full;
 * a few hundred groups.
 */
static int write_caches(sqlite3 *db, const struct kma_row_totals *t,
			const struct kma_keyset *shapes)
{
	size_t cap = 1024, nr = 0, i;
	struct group *g = calloc(cap, sizeof(*g)), *ng, *p;
	sqlite3_stmt *st = NULL;
	int64_t v[9];
	uint32_t id;
	int err = 0;

	for (id = 1; g && id < t->nr_shapes && id <= shapes->nr; id++) {
		const struct kma_shape *k = (const void *)(shapes->keys +
							   (size_t)(id - 1) * shapes->key_size);
		const struct kma_shape_count *n = &t->shapes[id];

		if (!n->allocs)
			continue;
		if (2 * (nr + 1) > cap) {
			ng = calloc(2 * cap, sizeof(*ng));
			for (i = 0; ng && i < cap; i++)
				if (g[i].used)
					*group_of(ng, 2 * cap, &(struct kma_shape){
						.bytes_alloc = g[i].bytes_alloc,
						.cache_id = g[i].cache_id,
						.kmalloc_type = (int8_t)g[i].kmalloc_type }) = g[i];
			free(g);
			g = ng;
			cap *= 2;
			if (!g)
				break;
		}
		p = group_of(g, cap, k);
		nr += !p->v[3];
		p->v[0] += n->allocs * (int64_t)k->bytes_alloc;
		p->v[1] += n->allocs * ((int64_t)k->bytes_alloc - (int64_t)k->bytes_req);
		p->v[2] += n->live * (int64_t)k->bytes_alloc;
		p->v[3] += n->allocs;
		p->v[4] += n->frees;
		p->v[5] += n->implicit;
	}
	if (!g || ins_rows(db, "INSERT INTO cache_totals (cache_id, kmalloc_type, bytes_alloc,"
			   " total, slack, net, allocs, frees, implicit_frees)"
			   " VALUES (?,?,?,?,?,?,?,?,?)", &st))
		err = -1;
	for (i = 0; i < cap && !err; i++) {
		if (!g[i].used)
			continue;
		v[0] = g[i].cache_id;
		v[1] = g[i].kmalloc_type;
		v[2] = (int64_t)g[i].bytes_alloc;
		memcpy(v + 3, g[i].v, sizeof(g[i].v));
		kma_bind_int_or_null(st, 1, v[0] != 0, v[0]);
		kma_bind_int_or_null(st, 2, v[1] >= 0, v[1]);
		err = put(st, v, 9, 2);
	}
	sqlite3_finalize(st);
	free(g);
	return err;
}

int kma_store_write_totals(sqlite3 *db, const struct kma_row_totals *t,
			   const struct kma_keyset *shapes)
{
	return write_shapes(db, t) || write_tasks(db, t) || write_stacks(db, t, shapes) ||
	       write_caches(db, t, shapes) ? -1 : 0;
}
