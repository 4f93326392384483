/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-store-int.h - helpers shared by the report.db writer's files.
 */
#ifndef KMA_STORE_INT_H
#define KMA_STORE_INT_H

#include <stdint.h>
#include <sqlite3.h>

#include "kma-map.h"
#include "kma-store.h"

/* "0x%llx" without snprintf: this runs for every row. buf: at least 19 bytes. */
static inline int kma_hex(char *buf, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0, len;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	buf[0] = '0';
	buf[1] = 'x';
	for (len = 2; n; len++)
		buf[len] = tmp[--n];
	buf[len] = '\0';
	return len;
}

static inline void kma_bind_text(sqlite3_stmt *st, int i, const char *t)
{
	if (t)
		sqlite3_bind_text(st, i, t, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

/* v in column i when valid, else NULL (a u64 is stored as its 64 bits, signed). */
static inline void kma_bind_int_or_null(sqlite3_stmt *st, int i, int valid, sqlite3_int64 v)
{
	if (valid)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* Steps a bound INSERT and makes it ready for the next row, bindings kept: 0 or -1. */
static inline int kma_step(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* kma_step, the bindings cleared: a column the next row leaves unbound stores NULL. */
static inline int kma_step_clear(sqlite3_stmt *st)
{
	int rc = kma_step(st);

	sqlite3_clear_bindings(st);
	return rc;
}

/*
 * Rows of integers that SQLite reads as the eponymous virtual table named at
 * kma_int_rows_register() (kma-store-batch.c), columns c0, c1, ...: the
 * caller fills v and nulls, sets nr, then steps an INSERT ... SELECT.
 */
#define KMA_INT_ROWS_MAX_COLS	32

struct kma_int_rows {
	sqlite3_int64	*v;		/* row r, column c at r * ncols + c */
	uint32_t	*nulls;		/* of row r: bit c set, column c is NULL */
	uint32_t	nr;
	int		ncols;
};

/* 0, or -1 (SQLite error); src must outlive the connection's statements. */
int kma_int_rows_register(sqlite3 *db, const char *name, struct kma_int_rows *src);

/*
 * The shape dictionary of alloc_shapes and page_shapes (kma-store-dict.c):
 * fixed-size keys compared with memcmp (the caller zeroes any padding), ids
 * from 1 in the order first seen, found again through the last id or a hash.
 */
struct kma_keyset {
	size_t		key_size;	/* a multiple of 8: hashed as words */
	unsigned char	*keys;		/* the key of id i at (i - 1) * key_size */
	size_t		nr, cap;
	uint32_t	*slots;		/* open addressing: slot -> id (0 empty), probed linearly */
	size_t		mask;
	uint32_t	last_id;
};

/* 0, or -1 when out of memory. */
int kma_keyset_init(struct kma_keyset *s, size_t key_size);
/*
 * *id of key; *added 1 when it was new (the caller then writes its row).
 * 0, or -1 when out of memory (s as it was).
 */
int kma_keyset_id(struct kma_keyset *s, const void *key, uint32_t *id, int *added);
void kma_keyset_free(struct kma_keyset *s);

/*
 * The dictionaries an allocation row points into (kma-store-dict.c): ids from
 * 1, each new one inserted into its table at once. Used by the writer thread
 * only; the strings are the matcher's and live until the commit.
 */
struct kma_dict_task {
	int		pid;
	const char	*comm;
};

/*
 * An allocation shape: what repeats per call site (schema/kma.sql,
 * alloc_shapes). No padding: compared with memcmp, hashed as 6 words.
 */
struct kma_shape {
	uint64_t	bytes_req;
	uint64_t	bytes_alloc;
	uint64_t	gfp_flags;
	uint32_t	caller_id;	/* callers.id */
	uint32_t	cache_id;	/* caches.id, 0: none */
	int32_t		node;		/* -1: none */
	int16_t		alloc_event;
	int8_t		accounted;	/* -1: none */
	int8_t		kmalloc_type;	/* enum kma_kmalloc_type; -1: not a kmalloc */
	uint32_t	stack_id;	/* stacks.id of the allocation, 0: none */
	uint32_t	free_stack_id;	/* of its traced free, 0: none */
};

struct kma_dicts {
	sqlite3_stmt		*ins_cache, *ins_task, *ins_site, *ins_shape;
	struct kma_map		cache_map;	/* name pointer -> caches.id */
	const char		**caches;
	size_t			nr_caches, cap_caches;
	const char		*last_cache;
	uint32_t		last_cache_id;
	struct kma_map		task_map;	/* pid -> its latest tasks.id */
	struct kma_dict_task	*tasks;
	size_t			nr_tasks, cap_tasks;
	int			last_pid;
	const char		*last_comm;
	uint32_t		last_task_id;
	struct kma_map		site_map;	/* address -> free_sites.id */
	uint32_t		nr_sites;
	uint64_t		last_site;
	uint32_t		last_site_id;
	struct kma_keyset	shapes;		/* of struct kma_shape */
};

/* Prepares the inserts and writes event_kinds; 0, or -1 (kma_dict_free() cleans up). */
int kma_dict_open(struct kma_dicts *d, sqlite3 *db);
void kma_dict_free(struct kma_dicts *d);
/* kmalloc_caches from the shapes in alloc_shapes, at the commit; 0 or -1. */
int kma_dict_kmalloc_caches(sqlite3 *db);
/* Each: 0 with *id set, or -1 (SQLite error or out of memory). */
int kma_dict_cache(struct kma_dicts *d, const char *name, uint32_t *id);
int kma_dict_task(struct kma_dicts *d, int pid, const char *comm, uint32_t *id);
int kma_dict_site(struct kma_dicts *d, uint64_t addr, const char *caller, uint32_t *id);
int kma_dict_shape(struct kma_dicts *d, const struct kma_shape *key, uint32_t *id);

/*
 * alloc_rows counted as the rows are written (kma-store-totals.c): per shape id
 * and per task id, arrays grown as the ids come; written at the commit as
 * shape_totals and task_totals, and summed per stack and cache group into
 * stack_totals and cache_totals (schema/kma.sql).
 */
struct kma_shape_count {
	int64_t		allocs, live, frees, implicit;
};

struct kma_task_sum {
	int64_t		v[6];	/* total, slack, net, allocs, frees, implicit frees */
};

struct kma_row_totals {
	struct kma_shape_count	*shapes;	/* by alloc_shapes.id */
	size_t			cap_shapes;
	uint32_t		nr_shapes;	/* highest id + 1 */
	struct kma_task_sum	*tasks;		/* by tasks.id */
	size_t			cap_tasks;
	uint32_t		nr_tasks;
};

/* Row @a, of shape and task ids @shape and @task, counted; 0, or -1 out of memory. */
int kma_row_totals_add(struct kma_row_totals *t, uint32_t shape, uint32_t task,
		       const struct kma_alloc_row *a);
/* The four tables; @shapes: the shape dictionary (each shape's stack, cache and sizes). */
int kma_store_write_totals(sqlite3 *db, const struct kma_row_totals *t,
			   const struct kma_keyset *shapes);
void kma_row_totals_free(struct kma_row_totals *t);

/* Everything but the streamed rows: callers, generations, modules, losses, trace facts. */
int kma_store_write_tables(sqlite3 *db, const struct kma_store_results *run);
/* stacks and stack_frames from run->stacks (nothing when NULL); 0 or -1. */
int kma_store_write_stacks(sqlite3 *db, const struct kma_store_results *run);
/* timeline and timeline_callers (kma-store-timeline.c), from run->timeline */
int kma_store_write_timeline(sqlite3 *db, const struct kma_store_results *run);
/* counters_* from run->counters (kma-store-counters.c; nothing when NULL); 0 or -1. */
int kma_store_write_counters(sqlite3 *db, const struct kma_store_results *run);
/* page_trace from run->pages at the commit (nothing when NULL); 0 or -1. */
int kma_store_write_pages(sqlite3 *db, const struct kma_store_results *run);
/* page_timeline and page_timeline_tasks (kma-store-timeline.c); 0 or -1. */
int kma_store_write_page_timeline(sqlite3 *db, const struct kma_store_results *run);

/* A page allocation as queued for the writer thread (kma_store_page_row()). */
struct kma_store_page_row {
	struct kma_page_alloc	a;
	const char		*function, *stack;	/* interned, NULL: none */
};

/*
 * The writer thread's page_shapes and page_alloc_rows (kma-store-pages.c):
 * opened on the first rows into *w, freed after the thread stops. 0 or -1.
 */
struct kma_page_writer;
int kma_store_page_rows(sqlite3 *db, struct kma_page_writer **w,
			const struct kma_store_page_row *rows, uint32_t n);
void kma_store_page_writer_free(struct kma_page_writer *w);

/*
 * The writer thread's kind_alloc_rows (kma-store-kinds.c): the percpu and
 * vmalloc allocations, opened on the first rows into *w; 0 or -1.
 */
struct kma_kind_writer;
int kma_store_kind_rows(sqlite3 *db, struct kma_kind_writer **w, struct kma_dicts *d,
			const struct kma_alloc_row *rows, uint32_t n);
void kma_store_kind_writer_free(struct kma_kind_writer *w);
/* kind_totals of every kind and kind_callers of percpu and vmalloc, at the commit. */
int kma_store_write_kinds(sqlite3 *db, const struct kma_store_results *run);

#endif /* KMA_STORE_INT_H */
