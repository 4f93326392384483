// SPDX-License-Identifier: GPL-2.0
/*
 * kma-fleet-copy.c - a push's binary COPY: the data built in one buffer and
 * sent in pieces, report.db's values put in PostgreSQL's binary form (text
 * and bytea as SQLite holds the bytes, never converted).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "kma-fleet-int.h"

/*
 * CopyData messages well under a Unix socket's send buffer (~208 KB). With
 * 256 KB messages, more than the socket holds, client and server took turns
 * instead of working at once (top: their CPU summed to one core, pinned to
 * two or not): --allocations of 2.5M rows took 7.0-7.2 s, 4.3 s with 32 KB
 * (bench/fleet.sh, paired); 8 KB costs the client more system calls.
 */
#define COPY_FLUSH		(32 << 10)

/* The report.db is at fault: its words, without the file's name. */
int kma_push_db_err(struct kma_push *p, const char *what)
{
	return kma_err_set(p->e, KMA_ERR_BROKEN, "%s: %s", what, sqlite3_errmsg(p->db));
}

int kma_push_reserve(struct kma_push *p, size_t n)
{
	size_t cap = p->cap ? p->cap : 1 << 16;
	char *b;

	if (p->len + n <= p->cap)
		return 0;
	while (cap < p->len + n)
		cap *= 2;
	b = realloc(p->buf, cap);
	if (!b)
		return kma_err_nomem(p->e);
	p->buf = b;
	p->cap = cap;
	return 0;
}

int kma_push_flush(struct kma_push *p, int force)
{
	if (!p->len || (!force && p->len < COPY_FLUSH))
		return 0;
	if (PQputCopyData(p->f->conn, p->buf, p->len) != 1)
		return kma_fleet_pg_err(p->f, NULL, p->e);
	p->len = 0;
	return 0;
}

/*
 * One field of column @c of @st in binary COPY form, by its type letter:
 * i bigint, d integer, t text, b bytea, k a stacks.id as its stack_key (bytea).
 */
int kma_push_field(struct kma_push *p, sqlite3_stmt *st, int c, char type)
{
	int64_t id;
	int n;

	if (sqlite3_column_type(st, c) == SQLITE_NULL) {
		if (kma_push_reserve(p, 4))
			return -1;
		kma_push_put32(p, -1);
		return 0;
	}
	switch (type) {
	case 'i':
	case 'd':
		if (kma_push_reserve(p, 12))
			return -1;
		if (type == 'd') {
			kma_push_put32(p, 4);
			kma_push_put32(p, (int32_t)sqlite3_column_int64(st, c));
		} else {
			kma_push_put32(p, 8);
			kma_push_put64(p, sqlite3_column_int64(st, c));
		}
		return 0;
	case 'k':
		id = sqlite3_column_int64(st, c);
		if (kma_push_reserve(p, 36))
			return -1;
		if (id < 0 || id >= p->nr_keys || !p->has_key[id]) {
			kma_push_put32(p, -1);
			return 0;
		}
		kma_push_put32(p, 32);
		kma_push_put(p, p->key[id], 32);
		return 0;
	default:	/* t, b: the bytes as SQLite holds them, never converted */
		n = sqlite3_column_bytes(st, c);
		if (kma_push_reserve(p, 4 + (size_t)n))
			return -1;
		kma_push_put32(p, n);
		kma_push_put(p, n ? sqlite3_column_blob(st, c) : "", n);
		return 0;
	}
}

/* @copy (COPY ... FROM STDIN (FORMAT binary)) started, its header in p->buf. */
int kma_push_copy_begin(struct kma_push *p, const char *copy)
{
	static const char head[11] = "PGCOPY\n\377\r\n";
	PGresult *res = PQexec(p->f->conn, copy);

	if (PQresultStatus(res) != PGRES_COPY_IN)
		return kma_fleet_pg_err(p->f, res, p->e);
	PQclear(res);
	p->len = 0;
	if (kma_push_reserve(p, 19)) {
		PQputCopyEnd(p->f->conn, "kma-push: out of memory");
		while ((res = PQgetResult(p->f->conn)))
			PQclear(res);
		return -1;
	}
	kma_push_put(p, head, 11);
	kma_push_put32(p, 0);
	kma_push_put32(p, 0);
	return 0;
}

/* The COPY ended: its trailer sent unless @fail (then abandoned); 0, or -1. */
int kma_push_copy_end(struct kma_push *p, int fail)
{
	PGresult *res;

	if (!fail && !kma_push_reserve(p, 2)) {
		kma_push_put16(p, -1);
		fail = kma_push_flush(p, 1);
	} else {
		fail = 1;
	}
	if (PQputCopyEnd(p->f->conn, fail ? "kma-push: input failed" : NULL) != 1 && !fail)
		return kma_fleet_pg_err(p->f, NULL, p->e);
	while ((res = PQgetResult(p->f->conn))) {
		if (!fail && PQresultStatus(res) != PGRES_COMMAND_OK) {
			fail = 1;
			kma_fleet_pg_err(p->f, res, p->e);
			continue;
		}
		PQclear(res);
	}
	return fail ? -1 : 0;
}

/*
 * The rows of @select (report.db) into @copy (COPY ... FROM STDIN (FORMAT
 * binary)), column by column as @types says; with @run, the run's id first.
 */
int kma_push_copy(struct kma_push *p, const char *copy, const char *select, const char *types, int run)
{
	int nf = (int)strlen(types), c, rc = SQLITE_DONE, fail = 0;
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(p->db, select, -1, &st, NULL) != SQLITE_OK)
		return kma_push_db_err(p, "cannot read it");
	if (sqlite3_column_count(st) != nf) {
		sqlite3_finalize(st);
		return kma_err_set(p->e, KMA_ERR_OTHER, "internal error: %d columns, %d types",
				   sqlite3_column_count(st), nf);
	}
	if (kma_push_copy_begin(p, copy)) {
		sqlite3_finalize(st);
		return -1;
	}
	while (!fail && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (kma_push_reserve(p, 14)) {
			fail = 1;
			break;
		}
		kma_push_put16(p, (int16_t)(nf + !!run));
		if (run) {
			kma_push_put32(p, 8);
			kma_push_put64(p, p->run);
		}
		for (c = 0; c < nf && !fail; c++)
			fail = kma_push_field(p, st, c, types[c]);
		if (!fail)
			fail = kma_push_flush(p, 0);
	}
	if (!fail && rc != SQLITE_DONE)
		fail = kma_push_db_err(p, "cannot read it");
	sqlite3_finalize(st);
	return kma_push_copy_end(p, fail);
}

