// SPDX-License-Identifier: GPL-2.0
/*
 * kma-fleet-allocs.c - kma-push --allocations: the slab allocator's rows of
 * report.db's view allocations, built in C. The view joins seven tables per
 * row (most of the client's time); here the small tables (callers, event
 * kinds, caches, tasks, free sites) are read once, each id's field already in
 * binary COPY form, and alloc_rows is scanned in rowid order beside its shape:
 * the same rows and values as the view (t-fleet compares them).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "kma-fleet-int.h"

/* Ids past this are no report.db kma-analyze wrote (its ids count from 1). */
#define MAX_ID	(1 << 28)

/* Each id's field(s) in binary COPY form, one after another; len 0: no such id. */
struct dict {
	char		*data;
	size_t		*at;
	uint32_t	*len;
	int64_t		n;
	size_t		used, cap;
};

static int dict_put(struct kma_push *p, struct dict *d, int64_t id, const char *b, size_t n)
{
	if (id >= d->n) {
		int64_t c = d->n ? d->n : 64, i;

		while (c <= id)
			c *= 2;
		if (!(d->at = realloc(d->at, c * sizeof(*d->at))) ||
		    !(d->len = realloc(d->len, c * sizeof(*d->len))))
			return kma_err_nomem(p->e);
		for (i = d->n; i < c; i++)
			d->len[i] = 0;
		d->n = c;
	}
	if (d->used + n > d->cap) {
		size_t c = d->cap ? d->cap : 4096;

		while (c < d->used + n)
			c *= 2;
		if (!(d->data = realloc(d->data, c)))
			return kma_err_nomem(p->e);
		d->cap = c;
	}
	memcpy(d->data + d->used, b, n);
	d->at[id] = d->used;
	d->len[id] = (uint32_t)n;
	d->used += n;
	return 0;
}

/*
 * @sql's rows (id, then the fields @types names, as kma_push_field encodes
 * them) into @d; with @pid, column 1 (an integer) also into (*pid)[id].
 */
static int dict_load(struct kma_push *p, struct dict *d, const char *sql, const char *types,
		     int64_t **pid)
{
	int nf = (int)strlen(types), c, rc, fail = 0;
	sqlite3_stmt *st;
	int64_t id;

	if (sqlite3_prepare_v2(p->db, sql, -1, &st, NULL) != SQLITE_OK)
		return kma_push_db_err(p, "cannot read it");
	p->len = 0;
	while (!fail && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		if (id < 0 || id > MAX_ID)
			continue;
		for (c = 0; c < nf && !fail; c++)
			fail = kma_push_field(p, st, c + 1, types[c]);
		if (!fail)
			fail = dict_put(p, d, id, p->buf, p->len);
		p->len = 0;
		if (!fail && pid) {
			int64_t *a = realloc(*pid, d->n * sizeof(**pid));

			if (!a) {
				fail = kma_err_nomem(p->e);
				break;
			}
			*pid = a;
			a[id] = sqlite3_column_int64(st, 1);
		}
	}
	if (!fail && rc != SQLITE_DONE)
		fail = kma_push_db_err(p, "cannot read it");
	sqlite3_finalize(st);
	return fail ? -1 : 0;
}

static void dict_free(struct dict *d)
{
	free(d->data);
	free(d->at);
	free(d->len);
}

enum { D_CALLER, D_EVENT, D_CACHE, D_TASK, D_FREE_SITE, D_NR };

struct allocs {
	struct dict	d[D_NR];
	int64_t		*pid;		/* tasks.id -> pid */
};

/* The field of @id in @d (NULL when @st's column @c is NULL or no such id): 0, or 1 if absent. */
static int put_dict(struct kma_push *p, const struct dict *d, sqlite3_stmt *st, int c, int64_t off)
{
	int64_t id;

	if (sqlite3_column_type(st, c) == SQLITE_NULL)
		goto null;
	id = sqlite3_column_int64(st, c) + off;
	if (id < 0 || id >= d->n || !d->len[id])
		goto null;
	kma_push_put(p, d->data + d->at[id], d->len[id]);
	return 0;
null:
	kma_push_put32(p, -1);
	return 1;
}

static void put_int(struct kma_push *p, sqlite3_stmt *st, int c)
{
	if (sqlite3_column_type(st, c) == SQLITE_NULL) {
		kma_push_put32(p, -1);
		return;
	}
	kma_push_put32(p, 8);
	kma_push_put64(p, sqlite3_column_int64(st, c));
}

static void put_i64(struct kma_push *p, int64_t v)
{
	kma_push_put32(p, 8);
	kma_push_put64(p, v);
}

/* The columns of the scan below. */
enum { A_ID, A_PTR, A_TS, A_CPU, A_TASK, A_GEN, A_LIFE, A_FREE_CPU, A_FREE_PID, A_SITE,
	A_FREE_KIND, S_CALLER, S_EVENT, S_REQ, S_ALLOC, S_GFP, S_NODE, S_CACHE, S_ACCOUNTED,
	S_STACK, S_FREE_STACK, S_KTYPE };

static const char scan_sql[] =
	"SELECT r.id, r.ptr, r.alloc_ts, r.alloc_cpu, r.task_id, r.generation, r.life, "
	"r.free_cpu, r.free_pid, r.free_site_id, r.free_kind, sh.caller_id, sh.alloc_event, "
	"sh.bytes_req, sh.bytes_alloc, sh.gfp_flags, sh.node, sh.cache_id, sh.accounted, "
	"sh.stack_id, sh.free_stack_id, sh.kmalloc_type "
	"FROM alloc_rows AS r CROSS JOIN alloc_shapes AS sh ON sh.id = r.shape_id ORDER BY r.id";

/*
 * One allocation's row, in the table's column order; 1 (nothing added) when
 * the view would have no row: its call site, event or task unknown.
 */
static int alloc_row(struct kma_push *p, struct allocs *a, sqlite3_stmt *st)
{
	size_t start = p->len;
	int64_t task = sqlite3_column_int64(st, A_TASK);
	int live = sqlite3_column_type(st, A_LIFE) == SQLITE_NULL, c;

	kma_push_put16(p, 24);
	put_i64(p, p->run);
	put_int(p, st, A_ID);
	put_int(p, st, A_PTR);
	if (put_dict(p, &a->d[D_CALLER], st, S_CALLER, 0) ||
	    put_dict(p, &a->d[D_EVENT], st, S_EVENT, 0))
		goto none;
	for (c = S_REQ; c <= S_NODE; c++)
		put_int(p, st, c);
	put_dict(p, &a->d[D_CACHE], st, S_CACHE, 0);
	put_int(p, st, S_ACCOUNTED);
	put_int(p, st, A_TS);
	put_int(p, st, A_CPU);
	if (put_dict(p, &a->d[D_TASK], st, A_TASK, 0))	/* pid, comm */
		goto none;
	put_int(p, st, A_GEN);
	if (live) {
		kma_push_put32(p, -1);
		kma_push_put32(p, -1);
		kma_push_put32(p, -1);
	} else {
		put_i64(p, sqlite3_column_int64(st, A_TS) + sqlite3_column_int64(st, A_LIFE));
		put_int(p, st, sqlite3_column_type(st, A_FREE_CPU) == SQLITE_NULL ? A_CPU :
			A_FREE_CPU);
		if (sqlite3_column_type(st, A_FREE_PID) == SQLITE_NULL)
			put_i64(p, a->pid[task]);
		else
			put_int(p, st, A_FREE_PID);
	}
	put_dict(p, &a->d[D_FREE_SITE], st, A_SITE, 0);
	put_dict(p, &a->d[D_EVENT], st, A_FREE_KIND, 4);	/* event_kinds.id - 4 */
	kma_push_field(p, st, S_STACK, 'k');
	kma_push_field(p, st, S_FREE_STACK, 'k');
	kma_push_field(p, st, S_KTYPE, 'd');
	return 0;
none:
	p->len = start;
	return 1;
}

/* The longest row: its fixed fields and the longest field of each dictionary. */
static size_t row_max(const struct allocs *a)
{
	size_t n = 2 + 18 * 12 + 2 * 36 + 8, m;
	int64_t i;
	int k;

	for (k = 0; k < D_NR; k++) {
		for (m = 4, i = 0; i < a->d[k].n; i++)
			if (a->d[k].len[i] > m)
				m = a->d[k].len[i];
		n += m * (k == D_EVENT ? 2 : 1);
	}
	return n;
}

static int scan(struct kma_push *p, struct allocs *a)
{
	size_t max = row_max(a);
	sqlite3_stmt *st;
	int rc, fail = 0;

	if (sqlite3_prepare_v2(p->db, scan_sql, -1, &st, NULL) != SQLITE_OK)
		return kma_push_copy_end(p, kma_push_db_err(p, "cannot read it"));
	while (!fail && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		fail = kma_push_reserve(p, max);
		if (!fail && !alloc_row(p, a, st))
			fail = kma_push_flush(p, 0);
	}
	if (!fail && rc != SQLITE_DONE)
		fail = kma_push_db_err(p, "cannot read it");
	sqlite3_finalize(st);
	return kma_push_copy_end(p, fail);
}

int kma_push_allocations(struct kma_push *p, const char *copy)
{
	struct allocs a = { 0 };
	int r = -1, k;

	if (dict_load(p, &a.d[D_CALLER], "SELECT id, caller FROM callers", "t", NULL) ||
	    dict_load(p, &a.d[D_EVENT], "SELECT id, name FROM event_kinds", "t", NULL) ||
	    dict_load(p, &a.d[D_CACHE], "SELECT id, name FROM caches", "t", NULL) ||
	    dict_load(p, &a.d[D_TASK], "SELECT id, pid, comm FROM tasks", "ib", &a.pid) ||
	    dict_load(p, &a.d[D_FREE_SITE], "SELECT id, caller FROM free_sites", "t", NULL))
		goto out;
	if (kma_push_copy_begin(p, copy))
		goto out;
	r = scan(p, &a);
out:
	for (k = 0; k < D_NR; k++)
		dict_free(&a.d[k]);
	free(a.pid);
	return r;
}
