/* SPDX-License-Identifier: GPL-2.0 */
/* kma-fleet-int.h - what the fleet store's files share (kma-fleet.c has them). */
#ifndef KMA_FLEET_INT_H
#define KMA_FLEET_INT_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

#include <libpq-fe.h>

#include "kma-fleet.h"

struct kma_fleet {
	PGconn	*conn;
	char	server[512];
};

/*
 * The server's reason for @res (NULL: the connection's) into @e, as
 * "SERVER: what", one line; @res is cleared. Returns -1.
 */
int kma_fleet_pg_err(struct kma_fleet *f, PGresult *res, struct kma_err *e);

/* A comm's hex text back into its bytes, interned in @pool (NULL stays NULL); -1: no memory. */
struct kma_strpool;
int kma_fleet_comm_of(const char *hex, struct kma_strpool *pool, const char **out);

/* @sql (no parameters) run; 0, or -1 and the server's reason. */
int kma_fleet_exec(struct kma_fleet *f, const char *sql, struct kma_err *e);

/*
 * @sql with @n text parameters (NULL: SQL NULL); the result when its status is
 * @want, else NULL and the server's reason.
 */
PGresult *kma_fleet_query(struct kma_fleet *f, const char *sql, int n, const char *const *params,
			  ExecStatusType want, struct kma_err *e);

/*
 * The per-cache, per-task and per-stack sums of the report.db at @path
 * (kma-fleet-counts.c): one pass over alloc_rows instead of the views', made
 * by threads of their own (connections of their own) while the push goes on.
 * kma_fleet_counts_start: 0 and *@out, or -1 and @e.
 */
struct sqlite3;
struct kma_fleet_counts;
int kma_fleet_counts_start(const char *path, struct kma_fleet_counts **out, struct kma_err *e);

/*
 * The counts of @h waited for and put in TEMP tables of @db (NULL: only
 * waited for and freed; @h NULL: nothing to do). 0, or -1 and @e
 * (KMA_ERR_BROKEN: the report.db's fault).
 */
int kma_fleet_counts_finish(struct kma_fleet_counts *h, struct sqlite3 *db, struct kma_err *e);

/* A stack's row in kma_push's rows: its offset and length. */
struct kma_push_row {
	size_t	off, len;
};

/* A distinct stack key of the push and its first stacks.id. */
struct kma_push_key {
	const unsigned char	*key;
	uint64_t		hi;	/* its first 8 bytes, big-endian: the sort's */
	int64_t			id;
};

/*
 * One push in progress (kma-fleet-push.c): the report.db read, the run, the
 * stack keys, and the binary COPY data not sent yet, which the helpers below
 * append to (after kma_push_reserve made room) and send.
 */
struct kma_push {
	struct kma_fleet	*f;
	struct sqlite3		*db;
	int			version;	/* the report.db's PRAGMA user_version */
	long long		run;
	char			trace_id[65];	/* SHA-256 hex of the file given */
	unsigned char		(*key)[32];	/* report.db stacks.id -> stack_key */
	unsigned char		*has_key;
	int			keys_read;	/* key from stacks.stack_key, not hashed here */
	unsigned char		*added;		/* stacks.id whose row this push adds */
	int64_t			nr_keys;
	char			*rows;		/* the added stacks' rows for COPY into stacks */
	struct kma_push_row	*row;		/* stacks.id -> its row in rows */
	struct kma_push_key	*missing;	/* the keys the store lacked, sorted */
	const char		*path;		/* the report.db, for a second connection */
	struct kma_push_rows	*rows_job;	/* the added stacks' rows being built */
	size_t			nr_missing;
	struct kma_fleet_counts	*counts;	/* being made; NULL once in TEMP tables */
	char			*buf;		/* the COPY data not sent yet */
	size_t			len, cap;
	struct kma_err		*e;
};

/* kma-fleet-copy.c: room for @n more bytes in p->buf; 0, or -1 and @e (no memory). */
int kma_push_reserve(struct kma_push *p, size_t n);

static inline void kma_push_put(struct kma_push *p, const void *d, size_t n)
{
	memcpy(p->buf + p->len, d, n);
	p->len += n;
}

static inline void kma_push_put16(struct kma_push *p, int16_t v)
{
	uint16_t b = htobe16((uint16_t)v);

	kma_push_put(p, &b, 2);
}

static inline void kma_push_put32(struct kma_push *p, int32_t v)
{
	uint32_t b = htobe32((uint32_t)v);

	kma_push_put(p, &b, 4);
}

static inline void kma_push_put64(struct kma_push *p, int64_t v)
{
	uint64_t b = htobe64((uint64_t)v);

	kma_push_put(p, &b, 8);
}

/* p->buf sent when it holds enough (or, @force, whatever it holds); 0 or -1. */
int kma_push_flush(struct kma_push *p, int force);

/*
 * One field of column @c of @st in binary COPY form into p->buf (room
 * reserved here), by its type letter: i bigint, d integer, t text, b bytea,
 * k a stacks.id as its stack_key (bytea). 0, or -1 and p->e.
 */
struct sqlite3_stmt;
int kma_push_field(struct kma_push *p, struct sqlite3_stmt *st, int c, char type);

/* The report.db is at fault: "@what: SQLite's words" in p->e; returns -1. */
int kma_push_db_err(struct kma_push *p, const char *what);

/* @copy (COPY ... FROM STDIN (FORMAT binary)) started, its header in p->buf. */
int kma_push_copy_begin(struct kma_push *p, const char *copy);

/* The COPY ended: its trailer sent unless @fail (then abandoned); 0, or -1. */
int kma_push_copy_end(struct kma_push *p, int fail);

/*
 * The rows of @select (report.db) into @copy, column by column as @types
 * says; with @run, the run's id first.
 */
int kma_push_copy(struct kma_push *p, const char *copy, const char *select, const char *types,
		  int run);

/* kma-fleet-allocs.c: the slab allocator's rows of the view allocations into @copy. */
int kma_push_allocations(struct kma_push *p, const char *copy);

/* kma-fleet-stacks.c: every stack's key (p->key), before the push's transaction. */
int kma_push_stack_keys(struct kma_push *p);

/* kma-fleet-stacks.c: the run's stacks the store lacks added, last before the commit. */
int kma_push_stacks(struct kma_push *p);

/* The rows' thread joined and dropped, if any (a push that stops before its stacks). */
void kma_push_rows_drop(struct kma_push *p);

#endif /* KMA_FLEET_INT_H */
