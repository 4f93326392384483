// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store-batch.c - a batch of integer rows as a table SQLite reads, so
 * that the writer thread inserts a batch with one statement:
 *
 *	INSERT INTO alloc_rows (...) SELECT c0, c1, ... FROM kma_alloc_batch
 *
 * An eponymous virtual table (nothing is written to the schema) whose rows
 * are a C array the caller fills before each step. Against a bound multi-row
 * INSERT ... VALUES (?,...), (?,...) this saves, per column, the bind call
 * (its mutex calls and the release of the old value) and two register copies
 * (Variable, then SCopy out of the VALUES co-routine); per row the
 * co-routine's Yield. The rows reach the table in the array's order, so the
 * ids SQLite gives them are the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-store-int.h"

struct batch_vtab {
	sqlite3_vtab		base;		/* first: SQLite's view of it */
	struct kma_int_rows	*src;
};

struct batch_cursor {
	sqlite3_vtab_cursor	base;		/* first */
	const struct kma_int_rows *src;
	uint32_t		i;
	/* row i's values and NULL bits, set as the cursor moves: xColumn only reads */
	uint32_t		nulls;
	const sqlite3_int64	*row;
};

/* Points the cursor at row i (when there is one). */
static void batch_seek(struct batch_cursor *cur, uint32_t i)
{
	const struct kma_int_rows *src = cur->src;

	cur->i = i;
	if (i < src->nr) {
		cur->row = src->v + (size_t)i * (size_t)src->ncols;
		cur->nulls = src->nulls[i];
	}
}

static int batch_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
			 sqlite3_vtab **out, char **err)
{
	struct kma_int_rows *src = aux;
	struct batch_vtab *t;
	char sql[16 + KMA_INT_ROWS_MAX_COLS * 6];
	int c, len, rc;

	len = snprintf(sql, sizeof(sql), "CREATE TABLE x(");
	for (c = 0; c < src->ncols; c++)
		len += snprintf(sql + len, sizeof(sql) - (size_t)len, "%sc%d", c ? "," : "", c);
	snprintf(sql + len, sizeof(sql) - (size_t)len, ")");
	rc = sqlite3_declare_vtab(db, sql);
	if (rc != SQLITE_OK)
		return rc;
	t = sqlite3_malloc(sizeof(*t));
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->src = src;
	*out = &t->base;
	return SQLITE_OK;
}

static int batch_disconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return SQLITE_OK;
}

/* One plan: every row, in order; no constraint is used. */
static int batch_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	info->estimatedCost = 1000;
	info->estimatedRows = 1000;
	return SQLITE_OK;
}

static int batch_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct batch_cursor *cur = sqlite3_malloc(sizeof(*cur));

	if (!cur)
		return SQLITE_NOMEM;
	memset(cur, 0, sizeof(*cur));
	cur->src = ((struct batch_vtab *)vt)->src;
	*out = &cur->base;
	return SQLITE_OK;
}

static int batch_close(sqlite3_vtab_cursor *c)
{
	sqlite3_free(c);
	return SQLITE_OK;
}

static int batch_filter(sqlite3_vtab_cursor *c, int idx, const char *idx_str, int argc,
			sqlite3_value **argv)
{
	batch_seek((struct batch_cursor *)c, 0);
	return SQLITE_OK;
}

static int batch_next(sqlite3_vtab_cursor *c)
{
	struct batch_cursor *cur = (struct batch_cursor *)c;

	batch_seek(cur, cur->i + 1);
	return SQLITE_OK;
}

static int batch_eof(sqlite3_vtab_cursor *c)
{
	const struct batch_cursor *cur = (const struct batch_cursor *)c;

	return cur->i >= cur->src->nr;
}

static int batch_column(sqlite3_vtab_cursor *c, sqlite3_context *ctx, int col)
{
	const struct batch_cursor *cur = (const struct batch_cursor *)c;

	/* called for every column of every row: no index arithmetic here */
	if (cur->nulls >> col & 1)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, cur->row[col]);
	return SQLITE_OK;
}

static int batch_rowid(sqlite3_vtab_cursor *c, sqlite3_int64 *rowid)
{
	*rowid = ((const struct batch_cursor *)c)->i;
	return SQLITE_OK;
}

static const sqlite3_module batch_module = {
	.iVersion	= 0,
	.xCreate	= NULL,		/* eponymous only: no CREATE VIRTUAL TABLE */
	.xConnect	= batch_connect,
	.xBestIndex	= batch_best_index,
	.xDisconnect	= batch_disconnect,
	.xOpen		= batch_open,
	.xClose		= batch_close,
	.xFilter	= batch_filter,
	.xNext		= batch_next,
	.xEof		= batch_eof,
	.xColumn	= batch_column,
	.xRowid		= batch_rowid,
};

int kma_int_rows_register(sqlite3 *db, const char *name, struct kma_int_rows *src)
{
	if (src->ncols < 1 || src->ncols > KMA_INT_ROWS_MAX_COLS)
		return -1;
	return sqlite3_create_module(db, name, &batch_module, src) == SQLITE_OK ? 0 : -1;
}
