// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store-stacks.c - the call stacks of report.db (schema version 3):
 * stacks and stack_frames, written once at the commit from the interned
 * stacks the rows' stack ids point into.
 *
 * A stack's frames are its addresses innermost first, so stack_frames.depth
 * is the index in kma_stack.addrs: 0 is the allocator. Each frame is named
 * through the store's site lookup, as a caller is (kma_sites keeps one site
 * per address, so a frame shared by many stacks is resolved once). Each
 * stack's fleet key (kma-stack-key.c) is hashed from the very text its
 * frames' rows get, so that kma-push need not read the frames back.
 */
#include <stdio.h>
#include <string.h>

#include "kma-stack-key.h"
#include "kma-store-int.h"

#define I64(v)	((sqlite3_int64)(v))

static const char stacks_sql[] =
	"INSERT INTO stacks (id, depth, hash, folded, stack_key) VALUES (?,?,?,?,?)";
static const char frames_sql[] =
	"INSERT INTO stack_frames (stack_id, depth, address, function, offset)"
	" VALUES (?,?,?,?,?)";

struct stack_stmts {
	sqlite3_stmt		*stack;
	sqlite3_stmt		*frame;
	struct kma_stack_key	*key;
};

/* The frame at depth d of stack id, and its fields into the stack's key; 0 or -1. */
static int write_frame(struct stack_stmts *q, const struct kma_store_results *run, uint32_t id,
		       uint32_t d, uint64_t addr)
{
	const struct kma_site *site = run->site_of ? run->site_of(run->site_ctx, addr) : NULL;
	sqlite3_stmt *st = q->frame;
	char hex[24], off[24];
	int n = kma_hex(hex, addr), m = 0;

	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, d);
	sqlite3_bind_text(st, 3, hex, n, SQLITE_STATIC);
	/* NULL function and offset: unresolved (no site, or no symbol covers it) */
	if (site && site->symbol) {
		sqlite3_bind_text(st, 4, site->symbol, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 5, I64(site->offset));
		/* SQLite's text of the INTEGER column, which kma-push hashed */
		m = snprintf(off, sizeof(off), "%lld", (long long)I64(site->offset));
	} else {
		sqlite3_bind_null(st, 4);
		sqlite3_bind_null(st, 5);
	}
	if (kma_stack_key_field(q->key, hex, (size_t)n) ||
	    kma_stack_key_field(q->key, m ? site->symbol : NULL, m ? strlen(site->symbol) : 0) ||
	    kma_stack_key_field(q->key, m ? off : NULL, (size_t)m))
		return -1;
	return kma_step(st);
}

/* Stack id's row and its frames; 0 or -1. */
static int write_stack(struct stack_stmts *q, const struct kma_store_results *run, uint32_t id)
{
	struct kma_stack stk;
	unsigned char key[32];
	char hash[24];
	uint32_t d;

	if (kma_stacks_get(run->stacks, id, &stk))
		return -1;
	/* the frames first: their text makes the stack's key */
	kma_stack_key_begin(q->key, stk.depth);
	for (d = 0; d < stk.depth; d++)
		if (write_frame(q, run, id, d, stk.addrs[d]))
			return -1;
	if (kma_stack_key_end(q->key, key))
		return -1;
	/* 64 bits: TEXT keeps them exact and in the form of the addresses */
	kma_hex(hash, stk.hash);
	sqlite3_bind_int64(q->stack, 1, id);
	sqlite3_bind_int64(q->stack, 2, stk.depth);
	sqlite3_bind_text(q->stack, 3, hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(q->stack, 4, stk.folded ? stk.folded : "", -1, SQLITE_STATIC);
	sqlite3_bind_blob(q->stack, 5, key, sizeof(key), SQLITE_STATIC);
	return kma_step(q->stack);
}

int kma_store_write_stacks(sqlite3 *db, const struct kma_store_results *run)
{
	struct stack_stmts q = { NULL, NULL, NULL };
	uint32_t id, n;
	int ret = -1;

	if (!run->stacks)
		return 0;
	n = kma_stacks_count(run->stacks);
	if (!n)
		return 0;
	q.key = kma_stack_key_alloc();
	if (!q.key || sqlite3_prepare_v2(db, stacks_sql, -1, &q.stack, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, frames_sql, -1, &q.frame, NULL) != SQLITE_OK)
		goto out;
	for (id = 1; id <= n; id++)
		if (write_stack(&q, run, id))
			goto out;
	ret = 0;
out:
	sqlite3_finalize(q.stack);
	sqlite3_finalize(q.frame);
	kma_stack_key_free(q.key);
	return ret;
}
