// SPDX-License-Identifier: GPL-2.0
/*
 * kma-fleet-counts.c - the per-cache, per-task and per-stack numbers a push
 * sends. A report.db with cache_totals, task_totals and stack_totals
 * (kma-analyze summed alloc_rows as it wrote them) gives them as they are,
 * through TEMP views; one written before has them counted here, in one pass
 * over its alloc_rows. The views
 * cache_stats, task_stats and stack_stats each scan and sort every row (a
 * 5M-event run with 122k stacks: seconds each); here every row is read once,
 * in rowid order, and added to its shape's and its task's counters, then the
 * shapes are summed per cache group and per stack in C (a GROUP BY over half a
 * million shapes in SQL costs a second more). The pass is made by a thread of
 * its own (kma_fleet_counts_start) while the push hashes the stacks and sends
 * its first tables, above SPLIT_ROWS rows by two, each half of the ids on a
 * connection of its own (the server is mostly idle then: the second core).
 * The groups go into TEMP tables of the push's read-only connection
 * (kma_fleet_counts_finish), from which kma-fleet-push.c names and copies
 * them as the views would: the same rows, the same numbers (t-fleet compares
 * them).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "kma-fleet-int.h"

/* Ids past this are no report.db kma-analyze wrote (its ids count from 1). */
#define MAX_ID	(1 << 28)

/* Fewer rows than this are counted by one thread: a second costs more than it saves. */
#define SPLIT_ROWS	200000

/* A shape's allocations, live ones, traced frees and implicit frees. */
struct cnt {
	int64_t	allocs, live, frees, implicit;
};

struct shape {
	int64_t	ba, br;			/* bytes_alloc, bytes_req */
	int64_t	cache, stack, ktype;	/* -1: NULL */
	int	known;			/* an alloc_shapes row */
};

/* Per task: total, slack, net, allocs, frees, implicit frees (task_stats's g). */
struct task {
	int64_t	v[6];
	int	used;
};

/*
 * One range of alloc_rows' ids, counted on a connection of its own (each
 * thread its own: SQLite's connections are not shared across threads here).
 */
struct part {
	const struct counts	*c;
	const char		*path;
	int64_t			lo, hi;
	struct cnt		*n;	/* per shape */
	struct task		*tk;
	struct kma_err		e;
	int			r;
};

struct counts {
	sqlite3		*db;
	int		totals;		/* the file's cache_, task_ and stack_totals */
	struct shape	*sh;
	struct cnt	*n;		/* per shape, summed over the parts */
	int64_t		nr_sh;
	struct task	*tk;
	int64_t		nr_tk;
	struct kma_err	*e;
};

/* The counts being made by a thread of their own (kma_fleet_counts_start). */
struct kma_fleet_counts {
	pthread_t	th;
	char		*path;
	struct counts	c;
	struct kma_err	e;
	int		r;
};

/*
 * Zeroed memory whose pages are first touched by a write: calloc leaves a
 * fresh mapping untouched, a read of it maps the shared zero page, and the
 * write after that is a copy-on-write fault which, with two threads, flushes
 * the TLB of every CPU (a fifth of the counting's time in a VM).
 */
static void *zalloc(size_t n, size_t size)
{
	/* called through a volatile pointer: the compiler would fold it into calloc */
	static void *(*const volatile zero)(void *, int, size_t) = memset;
	void *p = malloc((n ? n : 1) * size);

	if (p)
		zero(p, 0, (n ? n : 1) * size);
	return p;
}

static int sql_err(sqlite3 *db, struct kma_err *e)
{
	return kma_err_set(e, KMA_ERR_BROKEN, "cannot read it: %s", sqlite3_errmsg(db));
}

static int db_err(struct counts *c)
{
	return sql_err(c->db, c->e);
}

/* @sql's one integer (an aggregate) into *@out. */
static int one_int(struct counts *c, const char *sql, int64_t *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_err(c);
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : db_err(c);
}

/* @sql's one id (MAX over a dictionary) into *@out, checked against MAX_ID. */
static int64_t max_id(struct counts *c, const char *sql, int64_t *out)
{
	if (one_int(c, sql, out))
		return -1;
	if (*out < 0 || *out > MAX_ID)
		return kma_err_set(c->e, KMA_ERR_BROKEN, "an id %lld out of range",
				   (long long)*out);
	return 0;
}

static int64_t col_or(sqlite3_stmt *st, int i, int64_t none)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? none : sqlite3_column_int64(st, i);
}

static int load_shapes(struct counts *c)
{
	sqlite3_stmt *st;
	int64_t id;
	int rc;

	if (max_id(c, "SELECT COALESCE(MAX(id), 0) FROM alloc_shapes", &c->nr_sh) ||
	    max_id(c, "SELECT COALESCE(MAX(id), 0) FROM tasks", &c->nr_tk))
		return -1;
	c->nr_sh++;
	c->nr_tk++;
	c->sh = calloc(c->nr_sh, sizeof(*c->sh));
	c->n = zalloc(c->nr_sh, sizeof(*c->n));
	c->tk = zalloc(c->nr_tk, sizeof(*c->tk));
	if (!c->sh || !c->n || !c->tk)
		return kma_err_nomem(c->e);
	if (sqlite3_prepare_v2(c->db, "SELECT id, bytes_alloc, bytes_req, cache_id, stack_id, "
			       "kmalloc_type FROM alloc_shapes", -1, &st, NULL) != SQLITE_OK)
		return db_err(c);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct shape *s;

		id = sqlite3_column_int64(st, 0);
		if (id < 0 || id >= c->nr_sh)
			continue;
		s = &c->sh[id];
		s->ba = sqlite3_column_int64(st, 1);
		s->br = sqlite3_column_int64(st, 2);
		s->cache = col_or(st, 3, -1);
		s->stack = col_or(st, 4, -1);
		s->ktype = col_or(st, 5, -1);
		s->known = 1;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_err(c);
}

/*
 * Every allocation row of @pt's range once: its shape's counts (shape_counts)
 * and its task's sums (task_stats: counted per shape, times the shape's
 * sizes). A row whose shape is missing counts nowhere, as the views' inner
 * joins drop it.
 */
static int scan_rows(struct part *pt, sqlite3 *db)
{
	const struct counts *c = pt->c;
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT shape_id, task_id, life, free_kind FROM alloc_rows "
			       "WHERE id BETWEEN ?1 AND ?2", -1, &st, NULL) != SQLITE_OK)
		return sql_err(db, &pt->e);
	sqlite3_bind_int64(st, 1, pt->lo);
	sqlite3_bind_int64(st, 2, pt->hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t sid = sqlite3_column_int64(st, 0), tid = sqlite3_column_int64(st, 1);
		int live = sqlite3_column_type(st, 2) == SQLITE_NULL, fk = 3;
		const struct shape *s;
		struct cnt *n;
		struct task *t;

		if (sid < 0 || sid >= c->nr_sh || !c->sh[sid].known)
			continue;
		s = &c->sh[sid];
		n = &pt->n[sid];
		/* free_kind NULL (live) is neither a free (< 2) nor implicit (2) */
		if (sqlite3_column_type(st, 3) != SQLITE_NULL)
			fk = sqlite3_column_int(st, 3);
		n->allocs++;
		n->live += live;
		n->frees += fk < 2;
		n->implicit += fk == 2;
		if (tid < 0 || tid >= c->nr_tk)
			continue;
		t = &pt->tk[tid];
		t->used = 1;
		t->v[0] += s->ba;
		t->v[1] += s->ba - s->br;
		t->v[2] += live ? s->ba : 0;
		t->v[3]++;
		t->v[4] += fk < 2;
		t->v[5] += fk == 2;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_err(db, &pt->e);
}

/* One part counted on a connection of its own (a thread's start routine). */
static void *part_run(void *arg)
{
	struct part *pt = arg;
	sqlite3 *db = NULL;

	pt->r = -1;
	if (sqlite3_open_v2(pt->path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK)
		sql_err(db, &pt->e);
	else
		pt->r = scan_rows(pt, db);
	sqlite3_close(db);
	return NULL;
}


/*
 * The first and last ids of alloc_rows (0, 0 when it has none): two queries,
 * each answered from the B-tree's edge (MIN and MAX in one scan every row).
 */
static int row_range(struct counts *c, int64_t *lo, int64_t *hi)
{
	return one_int(c, "SELECT COALESCE(MIN(id), 0) FROM alloc_rows", lo) ||
	       one_int(c, "SELECT COALESCE(MAX(id), 0) FROM alloc_rows", hi) ? -1 : 0;
}

/*
 * alloc_rows counted in two halves of its ids, the upper one by a second
 * thread on a connection of its own (the second core: the server is mostly
 * idle while the client reads), and the halves' counts summed.
 */
static int count_rows(struct counts *c, const char *path)
{
	struct part pt[2] = { { .c = c, .path = path }, { .c = c, .path = path } };
	int64_t lo = 0, hi = 0, i, k;
	pthread_t th;
	int two, r;

	if (row_range(c, &lo, &hi))
		return -1;
	pt[0].n = c->n;
	pt[0].tk = c->tk;
	pt[0].lo = lo;
	pt[0].hi = hi;
	two = hi - lo >= SPLIT_ROWS;
	if (two) {
		pt[0].hi = lo + (hi - lo) / 2;
		pt[1].lo = pt[0].hi + 1;
		pt[1].hi = hi;
		pt[1].n = zalloc(c->nr_sh, sizeof(*pt[1].n));
		pt[1].tk = zalloc(c->nr_tk, sizeof(*pt[1].tk));
		two = pt[1].n && pt[1].tk && !pthread_create(&th, NULL, part_run, &pt[1]);
		if (!two) {	/* no second thread: the first counts it all */
			pt[0].hi = hi;
			free(pt[1].n);
			free(pt[1].tk);
		}
	}
	r = scan_rows(&pt[0], c->db);
	if (r)
		*c->e = pt[0].e;
	if (two) {
		pthread_join(th, NULL);
		for (i = 0; i < c->nr_sh; i++) {
			c->n[i].allocs += pt[1].n[i].allocs;
			c->n[i].live += pt[1].n[i].live;
			c->n[i].frees += pt[1].n[i].frees;
			c->n[i].implicit += pt[1].n[i].implicit;
		}
		for (i = 0; i < c->nr_tk; i++) {
			c->tk[i].used |= pt[1].tk[i].used;
			for (k = 0; k < 6; k++)
				c->tk[i].v[k] += pt[1].tk[i].v[k];
		}
		free(pt[1].n);
		free(pt[1].tk);
		if (!r && pt[1].r) {
			*c->e = pt[1].e;
			r = -1;
		}
	}
	return r;
}

static int exec(struct counts *c, const char *sql)
{
	if (sqlite3_exec(c->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_err(c);
	return 0;
}

static void bind_or_null(sqlite3_stmt *st, int i, int64_t v)
{
	if (v < 0)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

/* One row of @n values into the prepared INSERT @st; -1 on error. */
static int put_row(struct counts *c, sqlite3_stmt *st, const int64_t *v, int n, int nulls)
{
	int i;

	sqlite3_reset(st);
	for (i = 0; i < n; i++) {
		if (i < nulls)
			bind_or_null(st, i + 1, v[i]);
		else
			sqlite3_bind_int64(st, i + 1, v[i]);
	}
	return sqlite3_step(st) == SQLITE_DONE ? 0 : db_err(c);
}

static int prepare(struct counts *c, const char *sql, sqlite3_stmt **st)
{
	return sqlite3_prepare_v2(c->db, sql, -1, st, NULL) == SQLITE_OK ? 0 : db_err(c);
}

/*
 * v += shape @s's numbers (@n its counts): total, slack (@clamp: never
 * negative), net, allocs, frees, implicit, live.
 */
static void add_shape(int64_t *v, const struct shape *s, const struct cnt *n, int clamp)
{
	int64_t slack = s->ba - s->br;

	v[0] += n->allocs * s->ba;
	v[1] += n->allocs * (clamp && slack < 0 ? 0 : slack);
	v[2] += n->live * s->ba;
	v[3] += n->allocs;
	v[4] += n->frees;
	v[5] += n->implicit;
	v[6] += n->live;
}

/* A cache group: cache_stats's g, one per (cache_id, bytes_alloc, kmalloc_type). */
struct group {
	int64_t	v[10];		/* cache_id, kmalloc_type, bytes_alloc, then add_shape's 7 */
	int	used;
};

/* Where group @v (cache_id, kmalloc_type, bytes_alloc first) starts its search. */
static size_t group_hash(const int64_t *v, size_t mask)
{
	uint64_t h = (uint64_t)v[0] * 0x9e3779b97f4a7c15ULL;

	h = (h ^ (uint64_t)v[1]) * 0xc2b2ae3d27d4eb4fULL;
	h = (h ^ (uint64_t)v[2]) * 0x165667b19e3779f9ULL;
	return (size_t)(h ^ h >> 29) & mask;
}

/*
 * temp.kma_push_caches: cache_stats's g, one row per (cache_id, bytes_alloc,
 * kmalloc_type) of the shapes with allocations, summed in a hash table (a
 * few hundred groups: no sort of half a million shapes).
 */
static int write_caches(struct counts *c, sqlite3_stmt *ins)
{
	size_t cap = 1024, mask, at, n = 0, i;
	struct group *g = calloc(cap, sizeof(*g)), *ng;
	int64_t k, key[3];
	int err = 0;

	for (k = 0; k < c->nr_sh && g; k++) {
		const struct shape *s = &c->sh[k];

		if (!c->n[k].allocs)
			continue;
		if (2 * (n + 1) > cap) {	/* at most half full */
			ng = calloc(2 * cap, sizeof(*ng));
			for (i = 0; ng && i < cap; i++) {
				if (!g[i].used)
					continue;
				at = group_hash(g[i].v, 2 * cap - 1);
				while (ng[at].used)
					at = (at + 1) & (2 * cap - 1);
				ng[at] = g[i];
			}
			free(g);
			g = ng;
			cap *= 2;
			if (!g)
				break;
		}
		key[0] = s->cache;
		key[1] = s->ktype;
		key[2] = s->ba;
		mask = cap - 1;
		for (at = group_hash(key, mask); g[at].used; at = (at + 1) & mask)
			if (!memcmp(g[at].v, key, sizeof(key)))
				break;
		if (!g[at].used) {
			g[at].used = 1;
			memcpy(g[at].v, key, sizeof(key));
			n++;
		}
		add_shape(g[at].v + 3, s, &c->n[k], 0);
	}
	if (!g)
		return kma_err_nomem(c->e);
	for (i = 0; i < cap && !err; i++)
		if (g[i].used)
			err = put_row(c, ins, g[i].v, 9, 2);
	free(g);
	return err;
}

/* temp.kma_push_stacks_sums: stack_stats's g, one row per stack_id (NULL: none). */
static int write_stacks(struct counts *c, sqlite3_stmt *ins)
{
	int64_t max = -1, i, v[8], (*sum)[7];
	char *used;
	int err = 0;

	for (i = 0; i < c->nr_sh; i++)
		if (c->n[i].allocs && c->sh[i].stack > max)
			max = c->sh[i].stack;
	if (max > MAX_ID)
		return kma_err_set(c->e, KMA_ERR_BROKEN, "a stack_id %lld out of range",
				   (long long)max);
	/* slot 0: no stack; stack id k in slot k + 1 */
	sum = zalloc(max + 2, sizeof(*sum));
	used = zalloc(max + 2, 1);
	if (!sum || !used) {
		free(sum);
		free(used);
		return kma_err_nomem(c->e);
	}
	for (i = 0; i < c->nr_sh; i++) {
		const struct shape *s = &c->sh[i];
		int64_t k = s->stack < 0 ? 0 : s->stack + 1;

		if (!c->n[i].allocs)
			continue;
		add_shape(sum[k], s, &c->n[i], 1);
		used[k] = 1;
	}
	for (i = 0; i < max + 2 && !err; i++) {
		if (!used[i])
			continue;
		v[0] = i - 1;
		memcpy(v + 1, sum[i], sizeof(sum[i]));
		err = put_row(c, ins, v, 8, 1);
	}
	free(sum);
	free(used);
	return err;
}

static int write_tasks(struct counts *c, sqlite3_stmt *ins)
{
	int64_t i, v[7];
	int err = 0;

	for (i = 0; i < c->nr_tk && !err; i++) {
		if (!c->tk[i].used)
			continue;
		v[0] = i;
		memcpy(v + 1, c->tk[i].v, sizeof(c->tk[i].v));
		err = put_row(c, ins, v, 7, 0);
	}
	return err;
}

static const char *const temp_sql[][2] = {
	{ "CREATE TEMP TABLE kma_push_caches (cache_id INTEGER, kmalloc_type INTEGER, "
	  "bytes_alloc INTEGER, total INTEGER, slack INTEGER, net INTEGER, allocs INTEGER, "
	  "frees INTEGER, implicit_frees INTEGER)",
	  "INSERT INTO temp.kma_push_caches VALUES (?,?,?,?,?,?,?,?,?)" },
	{ "CREATE TEMP TABLE kma_push_stack_sums (stack_id INTEGER, total INTEGER, "
	  "slack INTEGER, net INTEGER, allocs INTEGER, frees INTEGER, implicit_frees INTEGER, "
	  "live INTEGER)",
	  "INSERT INTO temp.kma_push_stack_sums VALUES (?,?,?,?,?,?,?,?)" },
	{ "CREATE TEMP TABLE kma_push_tasks (task_id INTEGER PRIMARY KEY, total INTEGER, "
	  "slack INTEGER, net INTEGER, allocs INTEGER, frees INTEGER, implicit_frees INTEGER)",
	  "INSERT INTO temp.kma_push_tasks VALUES (?,?,?,?,?,?,?)" },
};

/*
 * With the totals tables, the sums are theirs as they are: TEMP views over
 * them, in temp_sql's order, no row read.
 */
static const char *const temp_views[] = {
	"CREATE TEMP VIEW kma_push_caches AS SELECT cache_id, kmalloc_type, bytes_alloc, total, "
	"slack, net, allocs, frees, implicit_frees FROM main.cache_totals",
	"CREATE TEMP VIEW kma_push_stack_sums AS SELECT stack_id, total, slack, net, allocs, "
	"frees, implicit_frees, live FROM main.stack_totals",
	"CREATE TEMP VIEW kma_push_tasks AS SELECT task_id, total, slack, net, allocs, frees, "
	"implicit_frees FROM main.task_totals",
};

/* The three TEMP tables (or views), in one transaction of the temp database. */
static int write_temp(struct counts *c)
{
	int (*const fill[])(struct counts *, sqlite3_stmt *) = {
		write_caches, write_stacks, write_tasks,
	};
	sqlite3_stmt *ins;
	size_t i;
	int err = exec(c, "BEGIN");

	for (i = 0; i < sizeof(fill) / sizeof(fill[0]) && !err; i++) {
		if (c->totals) {
			err = exec(c, temp_views[i]);
			continue;
		}
		err = exec(c, temp_sql[i][0]) || prepare(c, temp_sql[i][1], &ins);
		if (!err) {
			err = fill[i](c, ins);
			sqlite3_finalize(ins);
		}
	}
	if (err) {
		sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return exec(c, "COMMIT");
}

/*
 * Has the report.db the sums kma-analyze made as it wrote alloc_rows
 * (cache_totals, task_totals and stack_totals, added within version 7)?
 * 1, 0 (a file written before: its rows are counted here), or -1.
 */
static int has_totals(struct counts *c)
{
	int64_t n;

	if (one_int(c, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' "
		    "AND name IN ('cache_totals', 'task_totals', 'stack_totals')", &n))
		return -1;
	return n == 3;
}

/*
 * The counting thread, on a connection of its own: nothing to count when the
 * totals tables are there, else the shapes loaded and the rows counted.
 */
static void *counts_run(void *arg)
{
	struct kma_fleet_counts *h = arg;
	struct counts *c = &h->c;
	int tot;

	h->r = -1;
	if (sqlite3_open_v2(h->path, &c->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK)
		db_err(c);
	else if ((tot = has_totals(c)) >= 0) {
		c->totals = tot;
		h->r = !tot && (load_shapes(c) || count_rows(c, h->path)) ? -1 : 0;
	}
	sqlite3_close(c->db);
	c->db = NULL;
	return NULL;
}

static void counts_free(struct kma_fleet_counts *h)
{
	free(h->path);
	free(h->c.sh);
	free(h->c.n);
	free(h->c.tk);
	free(h);
}

int kma_fleet_counts_start(const char *path, struct kma_fleet_counts **out, struct kma_err *e)
{
	struct kma_fleet_counts *h = calloc(1, sizeof(*h));

	*out = NULL;
	if (!h || !(h->path = strdup(path))) {
		free(h);
		return kma_err_nomem(e);
	}
	h->c.e = &h->e;
	if (pthread_create(&h->th, NULL, counts_run, h)) {
		counts_free(h);
		return kma_err_set(e, KMA_ERR_OTHER, "cannot start a thread");
	}
	*out = h;
	return 0;
}

int kma_fleet_counts_finish(struct kma_fleet_counts *h, sqlite3 *db, struct kma_err *e)
{
	int r;

	if (!h)
		return 0;
	pthread_join(h->th, NULL);
	r = h->r;
	if (r && e)
		*e = h->e;
	if (!r && db) {
		h->c.db = db;
		h->c.e = e;
		r = write_temp(&h->c);
	}
	counts_free(h);
	return r;
}
