// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store.c - report.db writer.
 *
 * As SQLite's legacy.c: each statement is prepared once, then bind -> step ->
 * reset for every row, and every function has one cleanup exit.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "kma-huge.h"
#include "kma-store.h"
#include "kma-store-int.h"

#define BATCH_ROWS	4096
#define MAX_QUEUED	16	/* bounds memory: rows wait here, not in RAM forever */

/*
 * A batch's allocation and unknown-free rows: every run writes them. They
 * lie in the store's arena, one mapping in huge pages (kma_huge_alloc) for
 * the most batches that can exist at once (the queue's and the producer's):
 * each batch's rows in 4 KB pages of its own cost ~170 faults at its first
 * use, ~2 ms each on a virtual machine, on the main thread.
 */
struct batch_rows {
	struct kma_alloc_row	allocs[BATCH_ROWS];
	struct kma_free_row	frees[BATCH_ROWS];
};

#define ARENA_BATCHES	(MAX_QUEUED + 1)

struct batch {
	struct batch		*next;
	uint32_t		nr_allocs;
	uint32_t		nr_frees;
	uint32_t		nr_pages;
	uint32_t		nr_kinds;
	struct batch_rows	*rows;		/* in the arena, or malloc'd (own_rows) */
	int			own_rows;
	/* --pages; untouched (so not resident) in a run without page events */
	struct kma_store_page_row pages[BATCH_ROWS];
	/* percpu and vmalloc; as pages, untouched without their events */
	struct kma_alloc_row	kinds[BATCH_ROWS];
};

struct kma_store {
	char			*path;
	char			*tmp_path;
	sqlite3			*db;
	sqlite3_stmt		*ins_allocs;		/* up to KMA_CHUNK rows of chunk */
	struct kma_int_rows	chunk;			/* kma_alloc_batch's rows */
	sqlite3_stmt		*ins_free;
	struct kma_dicts	dicts;			/* the writer thread's */
	struct kma_row_totals	totals;			/* the writer thread's */
	struct kma_page_writer	*pagew;			/* the writer thread's, --pages */
	struct kma_kind_writer	*kindw;			/* the writer thread's: percpu, vmalloc */
	/* producer side */
	struct batch		*cur;
	struct batch_rows	*arena;		/* ARENA_BATCHES batches' rows */
	uint32_t		nr_arena;	/* of them in use */
	/* queue, guarded by lock */
	pthread_mutex_t		lock;
	pthread_cond_t		cond;
	struct batch		*head, *tail;
	struct batch		*spare;		/* written batches for reuse */
	int			queued;
	int			done;		/* no more batches will come */
	int			failed;		/* writer hit an SQLite error */
	struct kma_err		err;		/* why it last failed (kma_store_err) */
	pthread_t		thread;
	int			thread_started;
	int			committed;
};

/*
 * Rows per INSERT ... SELECT from kma_alloc_batch (kma-store-batch.c): the
 * statement's start and end are paid once per chunk, and the chunk's values
 * (1024 * 11 * 8 bytes) stay in the L2 cache: on a real trace 1024 rows took
 * fewer instructions and cache misses than 256 (statement starts) or 4096
 * (LL misses). -DKMA_CHUNK=N to measure another.
 */
#ifndef KMA_CHUNK
#define KMA_CHUNK	1024
#endif
#define KMA_ALLOC_COLS	11

static const char ins_alloc_sql[] =
	"INSERT INTO alloc_rows (ptr, shape_id, alloc_ts, alloc_cpu, task_id, generation, life,"
	" free_cpu, free_pid, free_site_id, free_kind)"
	" SELECT c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 FROM kma_alloc_batch";

static const char ins_free_sql[] =
	"INSERT INTO unknown_free_rows (ts, cpu, task_id, ptr, site_id, kind, stack_id)"
	" VALUES (?,?,?,?,?,?,?)";

/*
 * Is the file system of the temporary file full? SQLite does not always say so:
 * a write that fails with ENOSPC while it spills its page cache can surface later
 * as "database disk image is malformed" when the short page is read back.
 */
static int fs_full(const struct kma_store *s)
{
	struct statvfs v;

	return s->tmp_path && !statvfs(s->tmp_path, &v) && v.f_bavail == 0;
}

/*
 * SQLite's message, and the system's reason when a system call failed under it
 * ("disk I/O error" alone does not say that the disk is full or read-only).
 */
static void set_error(struct kma_store *s, const char *what)
{
	int code = s->db ? sqlite3_errcode(s->db) & 0xff : 0;
	/* SQLite keeps the errno of I/O and open errors only; others leave an old one */
	int err = code == SQLITE_IOERR || code == SQLITE_CANTOPEN ? sqlite3_system_errno(s->db) : 0;

	if (code != SQLITE_OK && code != SQLITE_FULL && err != ENOSPC && fs_full(s)) {
		kma_err_errno(&s->err, ENOSPC, "%s: the file system is full", what);
		return;
	}
	/* no SQLite error: a dictionary or a batch could not grow */
	if (!s->db || code == SQLITE_OK)
		kma_err_set(&s->err, KMA_ERR_NOMEM, "%s: out of memory", what);
	else if (err)
		kma_err_errno(&s->err, err, "%s: %s", what, sqlite3_errmsg(s->db));
	else
		kma_err_set(&s->err, KMA_ERR_OTHER, "%s: %s", what, sqlite3_errmsg(s->db));
}

static int exec(struct kma_store *s, const char *sql)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		set_error(s, "SQLite");
		return -1;
	}
	return 0;
}

/* alloc_shapes.id of row a; 0 or -1. */
static int row_shape(struct kma_store *s, const struct kma_alloc_row *a, uint32_t *id)
{
	struct kma_shape k;

	k.bytes_req = a->bytes_req;
	k.bytes_alloc = a->bytes_alloc;
	k.gfp_flags = a->gfp_flags;
	k.caller_id = a->caller_id + 1;
	k.cache_id = 0;
	k.node = a->node >= 0 ? a->node : -1;
	k.alloc_event = (int16_t)a->alloc_kind;
	k.accounted = (int8_t)(a->accounted >= 0 ? !!a->accounted : -1);
	k.kmalloc_type = (int8_t)(a->alloc_kind == KMA_EV_KMALLOC ||
				  a->alloc_kind == KMA_EV_KMALLOC_NODE ? a->kmalloc_type : -1);
	/*
	 * The stacks are part of the shape, not columns of the row: a call
	 * site's allocations come from few paths and are freed by few (on a
	 * recorded trace, 3,871 shapes for 1.2M rows instead of 181), so a row
	 * pays nothing for them, with stacks or without.
	 */
	k.stack_id = a->stack_id;
	k.free_stack_id = a->free_kind >= 0 ? a->free_stack_id : 0;
	if (a->cache && kma_dict_cache(&s->dicts, a->cache, &k.cache_id))
		return -1;
	return kma_dict_shape(&s->dicts, &k, id);
}

/*
 * Row a's 11 columns into v, their NULLs into *nulls (the id is SQLite's
 * next rowid: an explicit one costs a b-tree seek per row). What equals the
 * allocation's own value (free_cpu, free_pid) is NULL, which takes no byte;
 * so is the free kind of a live row, and kfree (0) and kmem_cache_free (1)
 * take none either.
 */
static int fill_alloc(struct kma_store *s, sqlite3_int64 *v, uint32_t *nulls,
		      const struct kma_alloc_row *a)
{
	uint32_t shape, task, site = 0, null = 0;
	int freed = a->free_kind >= 0;

	if (row_shape(s, a, &shape) ||
	    kma_dict_task(&s->dicts, a->pid, a->comm, &task) ||
	    (freed && a->free_caller &&
	     kma_dict_site(&s->dicts, a->free_call_site, a->free_caller, &site)) ||
	    kma_row_totals_add(&s->totals, shape, task, a))
		return -1;
	v[0] = (sqlite3_int64)a->ptr;
	v[1] = shape;
	v[2] = (sqlite3_int64)a->alloc_ts;
	v[3] = a->alloc_cpu;
	v[4] = task;
	v[5] = a->generation;
	/* unsigned difference: exact also when the free's timestamp is the smaller */
	v[6] = (sqlite3_int64)(a->free_ts - a->alloc_ts);
	v[7] = a->free_cpu;
	v[8] = a->free_pid;
	v[9] = site;
	v[10] = a->free_kind - KMA_EV_KFREE;
	if (!freed)
		null |= 1u << 6 | 1u << 10;
	if (!freed || a->free_cpu == a->alloc_cpu)
		null |= 1u << 7;
	if (!freed || a->free_pid == a->pid)
		null |= 1u << 8;
	if (!site)
		null |= 1u << 9;
	*nulls = null;
	return 0;
}

/* KMA_CHUNK rows (or what is left) per INSERT ... SELECT. */
static int write_allocs(struct kma_store *s, const struct kma_alloc_row *a, uint32_t n)
{
	struct kma_int_rows *c = &s->chunk;
	uint32_t j;

	while (n) {
		c->nr = n < KMA_CHUNK ? n : KMA_CHUNK;
		for (j = 0; j < c->nr; j++)
			if (fill_alloc(s, c->v + (size_t)j * KMA_ALLOC_COLS, &c->nulls[j], &a[j]))
				goto fail;
		if (kma_step(s->ins_allocs))
			goto fail;
		a += c->nr;
		n -= c->nr;
	}
	return 0;
fail:
	set_error(s, "writing allocations");
	return -1;
}

static int write_free(struct kma_store *s, const struct kma_free_row *f)
{
	sqlite3_stmt *st = s->ins_free;
	uint32_t task, site;

	if (kma_dict_task(&s->dicts, f->pid, f->comm, &task) ||
	    kma_dict_site(&s->dicts, f->call_site, f->caller, &site))
		goto fail;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)f->ts);
	sqlite3_bind_int(st, 2, f->cpu);
	sqlite3_bind_int64(st, 3, task);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)f->ptr);
	sqlite3_bind_int64(st, 5, site);
	sqlite3_bind_int(st, 6, f->kind);
	kma_bind_int_or_null(st, 7, f->stack_id != 0, f->stack_id);
	if (!kma_step(st))
		return 0;
fail:
	set_error(s, "writing unknown_frees");
	return -1;
}

static int open_db(struct kma_store *s);

static void *writer(void *arg)
{
	struct kma_store *s = arg;
	struct batch *b;
	uint32_t i;
	int failed = 0;

	/*
	 * The schema is made here, not in kma_store_open(): its ~28M
	 * instructions and the file's first writes then overlap the first
	 * events' reading instead of delaying it. A failure is the store's
	 * like any other: the next kma_store_*() row call or the commit
	 * returns -1, and kma_store_err() says why.
	 */
	if (open_db(s)) {
		set_error(s, "cannot create the database");
		pthread_mutex_lock(&s->lock);
		s->failed = 1;
		pthread_cond_broadcast(&s->cond);
		pthread_mutex_unlock(&s->lock);
		return NULL;
	}
	for (;;) {
		pthread_mutex_lock(&s->lock);
		while (!s->head && !s->done)
			pthread_cond_wait(&s->cond, &s->lock);
		b = s->head;
		if (b) {
			s->head = b->next;
			if (!s->head)
				s->tail = NULL;
		}
		pthread_mutex_unlock(&s->lock);
		if (!b)
			break;
		failed = write_allocs(s, b->rows->allocs, b->nr_allocs);
		for (i = 0; !failed && i < b->nr_frees; i++)
			failed = write_free(s, &b->rows->frees[i]);
		if (!failed && kma_store_page_rows(s->db, &s->pagew, b->pages, b->nr_pages)) {
			set_error(s, "writing page allocations");
			failed = 1;
		}
		if (!failed && kma_store_kind_rows(s->db, &s->kindw, &s->dicts, b->kinds,
						   b->nr_kinds)) {
			set_error(s, "writing percpu and vmalloc allocations");
			failed = 1;
		}
		pthread_mutex_lock(&s->lock);
		b->next = s->spare;
		s->spare = b;
		s->queued--;
		if (failed)
			s->failed = 1;
		pthread_cond_broadcast(&s->cond);
		pthread_mutex_unlock(&s->lock);
	}
	return NULL;
}

/* Hands the current batch to the writer; waits while the queue is full. */
static int flush_batch(struct kma_store *s)
{
	struct batch *b = s->cur;
	int failed;

	if (!b || (!b->nr_allocs && !b->nr_frees && !b->nr_pages && !b->nr_kinds))
		return 0;
	s->cur = NULL;
	pthread_mutex_lock(&s->lock);
	while (s->queued >= MAX_QUEUED && !s->failed)
		pthread_cond_wait(&s->cond, &s->lock);
	b->next = NULL;
	if (s->tail)
		s->tail->next = b;
	else
		s->head = b;
	s->tail = b;
	s->queued++;
	failed = s->failed;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return failed ? -1 : 0;
}

/* A batch with its rows in the arena while it has room (a failed writer lets more queue). */
static struct batch *new_batch(struct kma_store *s)
{
	struct batch *b = malloc(sizeof(*b));

	if (!b)
		return NULL;
	if (!s->arena)
		s->arena = kma_huge_alloc(ARENA_BATCHES * sizeof(*s->arena));
	b->own_rows = !s->arena || s->nr_arena == ARENA_BATCHES;
	b->rows = b->own_rows ? malloc(sizeof(*b->rows)) : &s->arena[s->nr_arena++];
	if (!b->rows) {
		free(b);
		return NULL;
	}
	return b;
}

static void free_batch(struct batch *b)
{
	if (b && b->own_rows)
		free(b->rows);
	free(b);
}

static struct batch *get_batch(struct kma_store *s)
{
	struct batch *b;

	if (s->cur)
		return s->cur;
	pthread_mutex_lock(&s->lock);
	b = s->spare;
	if (b)
		s->spare = b->next;
	pthread_mutex_unlock(&s->lock);
	if (!b && !(b = new_batch(s)))
		return NULL;
	b->nr_allocs = 0;
	b->nr_frees = 0;
	b->nr_pages = 0;
	b->nr_kinds = 0;
	s->cur = b;
	return b;
}

int kma_store_alloc_row(void *store, const struct kma_alloc_row *row)
{
	struct kma_store *s = store;
	struct batch *b = get_batch(s);

	if (!b)
		return -1;
	b->rows->allocs[b->nr_allocs++] = *row;
	if (b->nr_allocs == BATCH_ROWS)
		return flush_batch(s);
	return 0;
}

int kma_store_kind_row(void *store, const struct kma_alloc_row *row)
{
	struct kma_store *s = store;
	struct batch *b = get_batch(s);

	if (!b)
		return -1;
	b->kinds[b->nr_kinds++] = *row;
	if (b->nr_kinds == BATCH_ROWS)
		return flush_batch(s);
	return 0;
}

int kma_store_unknown_free(void *store, const struct kma_free_row *row)
{
	struct kma_store *s = store;
	struct batch *b = get_batch(s);

	if (!b)
		return -1;
	b->rows->frees[b->nr_frees++] = *row;
	if (b->nr_frees == BATCH_ROWS)
		return flush_batch(s);
	return 0;
}

int kma_store_page_row(struct kma_store *s, const struct kma_page_alloc *a,
		       const char *function, const char *stack)
{
	struct batch *b = get_batch(s);
	struct kma_store_page_row *r;

	if (!b)
		return -1;
	r = &b->pages[b->nr_pages++];
	r->a = *a;
	r->function = function;
	r->stack = stack;
	if (b->nr_pages == BATCH_ROWS)
		return flush_batch(s);
	return 0;
}

/* kma_alloc_batch over s->chunk, and the insert that reads it; 0 or -1. */
static int prepare_inserts(struct kma_store *s)
{
	struct kma_int_rows *c = &s->chunk;

	c->ncols = KMA_ALLOC_COLS;
	c->v = malloc(sizeof(*c->v) * KMA_CHUNK * KMA_ALLOC_COLS);
	c->nulls = malloc(sizeof(*c->nulls) * KMA_CHUNK);
	if (!c->v || !c->nulls || kma_int_rows_register(s->db, "kma_alloc_batch", c))
		return -1;
	return sqlite3_prepare_v2(s->db, ins_alloc_sql, -1, &s->ins_allocs, NULL) != SQLITE_OK ?
		-1 : 0;
}

/*
 * The temporary file next to path, with the mode any new file would get; 0,
 * or -1 with the reason in @err.
 */
static int create_tmp(struct kma_store *s, const char *path, struct kma_err *err)
{
	int fd = kma_tmpfile_beside(path, &s->tmp_path);

	if (fd < 0)
		return kma_err_errno(err, errno, "cannot create a temporary file next to it");
	close(fd);
	return 0;
}

/* The connection, the schema, the open transaction and the prepared inserts; 0 or -1. */
static int open_db(struct kma_store *s)
{
	/*
	 * One connection, used by one thread at a time (the writer thread,
	 * which opens it, then the main thread after the writer has ended):
	 * no per-call mutex needed.
	 */
	if (sqlite3_open_v2(s->tmp_path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return -1;
	/*
	 * A half-written report.db is never renamed into place, so durability
	 * features would only cost time. Rows are only appended: a small page
	 * cache costs no speed, and the file grows while rows are written.
	 */
	if (exec(s, "PRAGMA page_size=65536; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
		    "PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-2048;") ||
	    exec(s, kma_schema_sql) || exec(s, "BEGIN"))
		return -1;
	if (prepare_inserts(s) || kma_dict_open(&s->dicts, s->db) ||
	    sqlite3_prepare_v2(s->db, ins_free_sql, -1, &s->ins_free, NULL) != SQLITE_OK)
		return -1;
	return 0;
}

struct kma_store *kma_store_open(const char *path, struct kma_err *err)
{
	struct kma_store *s = calloc(1, sizeof(*s));
	int ret;

	if (!s) {
		kma_err_nomem(err);
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	s->path = strdup(path);
	if (!s->path) {
		kma_err_nomem(err);
		goto fail;
	}
	if (create_tmp(s, path, err))
		goto fail;
	ret = pthread_create(&s->thread, NULL, writer, s);
	if (ret) {
		kma_err_errno(err, ret, "cannot start the writer thread");
		goto fail;
	}
	s->thread_started = 1;
	return s;
fail:
	kma_store_free(s);
	return NULL;
}

/* Stops the writer thread after it has written everything queued. */
static int stop_writer(struct kma_store *s)
{
	if (!s->thread_started)
		return s->failed ? -1 : 0;
	pthread_mutex_lock(&s->lock);
	s->done = 1;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	s->thread_started = 0;
	return s->failed ? -1 : 0;
}

int kma_store_commit(struct kma_store *s, const struct kma_store_results *run, struct kma_err *err)
{
	int ret = -1;

	if (flush_batch(s) || stop_writer(s))
		goto out;
	kma_store_page_writer_free(s->pagew);
	s->pagew = NULL;
	kma_store_kind_writer_free(s->kindw);
	s->kindw = NULL;
	if (kma_store_write_tables(s->db, run)) {
		set_error(s, "writing report tables");
		goto out;
	}
	if (kma_store_write_stacks(s->db, run)) {
		set_error(s, "writing stacks");
		goto out;
	}
	if (kma_store_write_timeline(s->db, run)) {
		set_error(s, "writing the timeline");
		goto out;
	}
	if (run->counters && kma_store_write_counters(s->db, run)) {
		set_error(s, "writing the kernel counters");
		goto out;
	}
	if (run->pages && kma_store_write_pages(s->db, run)) {
		set_error(s, "writing page allocations");
		goto out;
	}
	if (run->pages && kma_store_write_page_timeline(s->db, run)) {
		set_error(s, "writing the page timeline");
		goto out;
	}
	if (kma_store_write_kinds(s->db, run)) {
		set_error(s, "writing the allocators' totals");
		goto out;
	}
	if (kma_store_write_totals(s->db, &s->totals, &s->dicts.shapes)) {
		set_error(s, "writing the totals per shape, task, stack and cache");
		goto out;
	}
	if (exec(s, "COMMIT"))
		goto out;
	sqlite3_finalize(s->ins_allocs);
	sqlite3_finalize(s->ins_free);
	s->ins_allocs = s->ins_free = NULL;
	kma_dict_free(&s->dicts);
	if (sqlite3_close(s->db) != SQLITE_OK) {
		set_error(s, "closing the database");
		goto out;
	}
	s->db = NULL;
	if (rename(s->tmp_path, s->path)) {
		kma_err_errno(&s->err, errno, "cannot rename %s into place", s->tmp_path);
		goto out;
	}
	s->committed = 1;
	ret = 0;
out:
	if (ret)
		kma_store_err(s, err);
	return ret;
}

const char *kma_store_tmp_path(const struct kma_store *s)
{
	return s->tmp_path;
}

int kma_store_err(const struct kma_store *s, struct kma_err *err)
{
	if (s->err.kind == KMA_ERR_NONE && s->failed)
		return kma_err_set(err, KMA_ERR_OTHER, "cannot write the database");
	if (s->err.kind == KMA_ERR_NONE)
		return kma_err_nomem(err);
	return kma_err_copy(err, &s->err);
}

void kma_store_free(struct kma_store *s)
{
	struct batch *b, *n;

	if (!s)
		return;
	stop_writer(s);
	kma_store_page_writer_free(s->pagew);
	kma_store_kind_writer_free(s->kindw);
	sqlite3_finalize(s->ins_allocs);
	sqlite3_finalize(s->ins_free);
	kma_dict_free(&s->dicts);
	kma_row_totals_free(&s->totals);
	if (s->db)
		sqlite3_close(s->db);
	free(s->chunk.v);
	free(s->chunk.nulls);
	if (s->tmp_path && !s->committed)
		unlink(s->tmp_path);
	free_batch(s->cur);
	for (b = s->head; b; b = n) {
		n = b->next;
		free_batch(b);
	}
	for (b = s->spare; b; b = n) {
		n = b->next;
		free_batch(b);
	}
	kma_huge_free(s->arena, ARENA_BATCHES * sizeof(*s->arena));
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s->tmp_path);
	free(s->path);
	free(s);
}
