// SPDX-License-Identifier: GPL-2.0
/*
 * kma-fleet-stacks.c - a push's call stacks: each keyed by the SHA-256 of its
 * frames, and those the store lacks added to kma_fleet.stacks, one row each
 * with its frames in arrays (a row per frame made the server insert and index
 * six rows a stack: most of a push of 122k new stacks), sent in key order (in
 * a random order, the primary key's inserts were two thirds of the COPY).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <sqlite3.h>

#include "kma-fleet-int.h"

/* Bytes of a stack's row reserved at first (more as needed): 6 frames of short names. */
#define ROW_GUESS	384

/* A stack's frames, gathered until its last to go as one row of arrays. */
struct frames {
	int64_t		*addr, *off;
	unsigned char	*has_fn, *has_off;
	size_t		*fn_at, *fn_len;	/* in names */
	char		*names;
	size_t		n, cap, names_len, names_cap;
	int		null_fn, null_off;
};

/* The frame at @st (frames_sql's row: stack_id, address, function, offset) added. */
static int frames_add(struct kma_push *p, struct frames *fr, sqlite3_stmt *st)
{
	const char *a = (const char *)sqlite3_column_text(st, 1), *fn;
	char back[24];
	size_t n = (size_t)sqlite3_column_bytes(st, 2);
	unsigned long long v;
	char *end;

	if (fr->n == fr->cap) {
		size_t c = fr->cap ? 2 * fr->cap : 64;

		if (!(fr->addr = realloc(fr->addr, c * 8)) || !(fr->off = realloc(fr->off, c * 8)) ||
		    !(fr->has_fn = realloc(fr->has_fn, c)) || !(fr->has_off = realloc(fr->has_off, c)) ||
		    !(fr->fn_at = realloc(fr->fn_at, c * sizeof(size_t))) ||
		    !(fr->fn_len = realloc(fr->fn_len, c * sizeof(size_t))))
			return kma_err_nomem(p->e);
		fr->cap = c;
	}
	/* the address as its 64 bits, exactly: '0x<hex>' as kma-analyze writes it */
	v = a && !strncmp(a, "0x", 2) ? strtoull(a + 2, &end, 16) : 0;
	snprintf(back, sizeof(back), "0x%llx", v);
	if (!a || strcmp(a, back))
		return kma_err_set(p->e, KMA_ERR_BROKEN, "stack frame address '%s' is not 0x<hex>",
				   a ? a : "(null)");
	fr->addr[fr->n] = (int64_t)v;
	fr->has_off[fr->n] = sqlite3_column_type(st, 3) != SQLITE_NULL;
	fr->off[fr->n] = sqlite3_column_int64(st, 3);
	fr->null_off |= !fr->has_off[fr->n];
	fr->has_fn[fr->n] = sqlite3_column_type(st, 2) != SQLITE_NULL;
	fr->null_fn |= !fr->has_fn[fr->n];
	if (fr->names_len + n > fr->names_cap) {
		size_t c = fr->names_cap ? fr->names_cap : 1024;

		while (c < fr->names_len + n)
			c *= 2;
		if (!(fr->names = realloc(fr->names, c)))
			return kma_err_nomem(p->e);
		fr->names_cap = c;
	}
	fn = n ? sqlite3_column_blob(st, 2) : "";
	memcpy(fr->names + fr->names_len, fn, n);
	fr->fn_at[fr->n] = fr->names_len;
	fr->fn_len[fr->n++] = n;
	fr->names_len += n;
	return 0;
}

/* An array field of binary COPY: one dimension (none when empty) of @oid elements. */
static void put_array_head(struct kma_push *p, size_t bytes, int n, int nulls, int32_t oid)
{
	kma_push_put32(p, (int32_t)(12 + (n ? 8 : 0) + bytes));
	kma_push_put32(p, n ? 1 : 0);
	kma_push_put32(p, nulls);
	kma_push_put32(p, oid);
	if (n) {
		kma_push_put32(p, n);
		kma_push_put32(p, 1);
	}
}

/* The stack's row: key, depth, folded, addresses, functions, offsets. */
static int frames_row(struct kma_push *p, struct frames *fr, int64_t id, int64_t depth,
		      const char *folded, size_t folded_len)
{
	size_t i, nb = 0, ob = 0;

	for (i = 0; i < fr->n; i++) {
		nb += 4 + (fr->has_fn[i] ? fr->fn_len[i] : 0);
		ob += 4 + (fr->has_off[i] ? 8 : 0);
	}
	if (kma_push_reserve(p, 2 + 36 + 8 + 4 + folded_len + 3 * 20 + fr->n * 12 + nb + ob))
		return -1;
	kma_push_put16(p, 6);
	kma_push_put32(p, 32);
	kma_push_put(p, p->key[id], 32);
	kma_push_put32(p, 4);
	kma_push_put32(p, (int32_t)depth);
	kma_push_put32(p, (int32_t)folded_len);
	kma_push_put(p, folded, folded_len);
	put_array_head(p, fr->n * 12, (int)fr->n, 0, 20);	/* int8 */
	for (i = 0; i < fr->n; i++) {
		kma_push_put32(p, 8);
		kma_push_put64(p, fr->addr[i]);
	}
	put_array_head(p, nb, (int)fr->n, fr->null_fn, 25);	/* text */
	for (i = 0; i < fr->n; i++) {
		kma_push_put32(p, fr->has_fn[i] ? (int32_t)fr->fn_len[i] : -1);
		if (fr->has_fn[i])
			kma_push_put(p, fr->names + fr->fn_at[i], fr->fn_len[i]);
	}
	put_array_head(p, ob, (int)fr->n, fr->null_off, 20);
	for (i = 0; i < fr->n; i++) {
		kma_push_put32(p, fr->has_off[i] ? 8 : -1);
		if (fr->has_off[i])
			kma_push_put64(p, fr->off[i]);
	}
	fr->n = fr->names_len = 0;
	fr->null_fn = fr->null_off = 0;
	return 0;
}

/*
 * The stacks and their frames are read side by side, each table in its own
 * key order, and merged here: a join would look each stack's frames up in
 * stack_frames' B-tree, 122k lookups for as many stacks.
 */
static const char frames_sql[] =
	"SELECT stack_id, address, function, offset FROM stack_frames ORDER BY stack_id, depth";

/*
 * Whether the frame at @fst (*@frc its last sqlite3_step) is one of stack
 * @id's, after the frames of lower ids (of no stack) skipped.
 */
static int frame_of(sqlite3_stmt *fst, int *frc, int64_t id)
{
	while (*frc == SQLITE_ROW && sqlite3_column_int64(fst, 0) < id)
		*frc = sqlite3_step(fst);
	return *frc == SQLITE_ROW && sqlite3_column_int64(fst, 0) == id;
}

/* A stack's bytes to hash, gathered to go to libcrypto in one call. */
struct msg {
	char	*b;
	size_t	n, cap;
};

static int msg_add(struct msg *m, const void *d, size_t n)
{
	if (!n)		/* an empty blob's pointer may be NULL */
		return 0;
	if (m->n + n > m->cap) {
		size_t c = m->cap ? m->cap : 1024;
		char *b;

		while (c < m->n + n)
			c *= 2;
		b = realloc(m->b, c);
		if (!b)
			return -1;
		m->b = b;
		m->cap = c;
	}
	memcpy(m->b + m->n, d, n);
	m->n += n;
	return 0;
}

static void frames_free(struct frames *fr)
{
	free(fr->addr);
	free(fr->off);
	free(fr->has_fn);
	free(fr->has_off);
	free(fr->fn_at);
	free(fr->fn_len);
	free(fr->names);
}

/*
 * The stack's frames into @m (to hash; NULL: not hashed), each field 'n' for
 * NULL, else 'v' and its bytes, tab-ended, or into @fr for its row (NULL: no
 * row). 0, or -1 and p->e.
 */
static int msg_frames(struct kma_push *p, struct msg *m, struct frames *fr, sqlite3_stmt *fst,
		      int *frc, int64_t id)
{
	int c, any = 0, err = 0;

	while (!err && frame_of(fst, frc, id)) {
		for (c = 1; m && c <= 3 && !err; c++) {
			if (sqlite3_column_type(fst, c) == SQLITE_NULL) {
				err = msg_add(m, "n\t", 2);
				continue;
			}
			err = msg_add(m, "v", 1) ||
			      msg_add(m, sqlite3_column_blob(fst, c), sqlite3_column_bytes(fst, c)) ||
			      msg_add(m, "\t", 1);
		}
		if (err)
			break;
		if (fr && frames_add(p, fr, fst))
			return -1;
		any = 1;
		*frc = sqlite3_step(fst);
	}
	/* no frame: the three NULLs of the outer join these keys were first made with */
	return err || (m && !any && msg_add(m, "n\tn\tn\t", 6)) ? kma_err_nomem(p->e) : 0;
}

/*
 * p->buf, grown to hold the added stacks' rows, backed by huge pages where
 * the kernel allows it: a fault per 4 KB page of fresh memory (44 MB for 122k
 * stacks) was a tenth of the client's CPU in this VM. Advice only.
 */
static void rows_advise(struct kma_push *p)
{
#ifdef MADV_HUGEPAGE
	uintptr_t a = ((uintptr_t)p->buf + 4095) & ~(uintptr_t)4095;
	uintptr_t b = ((uintptr_t)p->buf + p->cap) & ~(uintptr_t)4095;

	if (b > a)
		madvise((void *)a, b - a, MADV_HUGEPAGE);
#endif
}

/* The stack's key from its @depth and frames (@fst at them), in p->key[@id]. */
static int hash_stack(struct kma_push *p, struct kma_sha256 *sha, struct msg *m,
		      sqlite3_stmt *fst, int *frc, int64_t id, int64_t depth)
{
	char num[24];
	int n = snprintf(num, sizeof(num), "%lld\n", (long long)depth);

	m->n = 0;
	if (msg_add(m, num, n))
		return kma_err_nomem(p->e);
	if (msg_frames(p, m, NULL, fst, frc, id))
		return -1;
	if (kma_sha256(sha, m->b, m->n, p->key[id]))
		return kma_err_set(p->e, KMA_ERR_OTHER, "libcrypto's SHA-256 failed");
	p->has_key[id] = 1;
	return 0;
}

/*
 * The stacks (@st: id, depth[, folded]) and stack_frames (@fst) read side by
 * side: with @sha, each stack's key; without, the row of each stack in
 * p->added, in p->buf (p->row[id] its place).
 */
static int read_stacks(struct kma_push *p, struct kma_sha256 *sha, sqlite3_stmt *st,
		       sqlite3_stmt *fst, int64_t max)
{
	struct msg m = { 0 };
	struct frames fr = { 0 };
	int64_t id, depth;
	int rc, frc = sqlite3_step(fst), r = 0;
	size_t cap = 0;

	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		if (id < 0 || id > max || (!sha && !p->added[id]))
			continue;	/* their frames skipped by frame_of */
		depth = sqlite3_column_int64(st, 1);
		if (sha) {
			r = hash_stack(p, sha, &m, fst, &frc, id, depth);
			continue;
		}
		if (msg_frames(p, NULL, &fr, fst, &frc, id)) {
			r = -1;
			break;
		}
		p->row[id].off = p->len;
		/* the folded text read in place: valid until the next step */
		r = frames_row(p, &fr, id, depth,
			       sqlite3_column_bytes(st, 2) ? sqlite3_column_blob(st, 2) : "",
			       (size_t)sqlite3_column_bytes(st, 2));
		p->row[id].len = p->len - p->row[id].off;
		if (p->cap != cap) {
			rows_advise(p);
			cap = p->cap;
		}
	}
	free(m.b);
	frames_free(&fr);
	if (r)
		return -1;
	return rc == SQLITE_DONE && (frc == SQLITE_ROW || frc == SQLITE_DONE) ? 0 :
	       kma_push_db_err(p, "cannot read its stacks");
}

/* One pass over the stacks: their keys (@sha) or the added ones' rows (NULL). */
static int stacks_pass(struct kma_push *p, struct kma_sha256 *sha, int64_t max)
{
	sqlite3_stmt *st, *fst;
	int r;

	if (sqlite3_prepare_v2(p->db, sha ? "SELECT id, depth FROM stacks ORDER BY id" :
			       "SELECT id, depth, folded FROM stacks ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK)
		return kma_push_db_err(p, "cannot read its stacks");
	if (sqlite3_prepare_v2(p->db, frames_sql, -1, &fst, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return kma_push_db_err(p, "cannot read its stacks");
	}
	r = read_stacks(p, sha, st, fst, max);
	sqlite3_finalize(st);
	sqlite3_finalize(fst);
	return r;
}

/* By key, then (a key twice) the first stack first. */
static int key_cmp(const void *a, const void *b)
{
	const struct kma_push_key *x = a, *y = b;
	int c = memcmp(x->key, y->key, 32);

	return c ? c : (x->id > y->id) - (x->id < y->id);
}

/*
 * The run's distinct stack keys in p->missing, sorted (each key's first
 * stack): the server probes the primary key for them in its order, and the
 * rows of those it lacks go in that order, each insert right of the last in
 * the B-tree (in a random order the inserts were two thirds of the COPY).
 */
static int sorted_keys(struct kma_push *p)
{
	struct kma_push_key *k = malloc((p->nr_keys ? p->nr_keys : 1) * sizeof(*k));
	size_t i, n = 0;
	int64_t id;

	if (!k)
		return kma_err_nomem(p->e);
	for (id = 0; id < p->nr_keys; id++) {
		if (!p->has_key[id])
			continue;
		k[n].key = p->key[id];
		k[n++].id = id;
	}
	qsort(k, n, sizeof(*k), key_cmp);
	p->missing = k;
	for (i = p->nr_missing = 0; i < n; i++)
		if (!p->nr_missing || memcmp(k[p->nr_missing - 1].key, k[i].key, 32))
			k[p->nr_missing++] = k[i];
	return 0;
}

/* The keys of p->missing as a bytea[] parameter in binary form, in p->buf. */
static int keys_param(struct kma_push *p)
{
	size_t i, n = p->nr_missing;

	if (n > INT32_MAX / 36)
		return kma_err_set(p->e, KMA_ERR_OTHER, "%zu stacks: too many for one push", n);
	p->len = 0;
	if (kma_push_reserve(p, 20 + n * 36))
		return -1;
	kma_push_put32(p, 1);		/* one dimension */
	kma_push_put32(p, 0);		/* no NULL */
	kma_push_put32(p, 17);		/* bytea */
	kma_push_put32(p, (int32_t)n);
	kma_push_put32(p, 1);
	for (i = 0; i < n; i++) {
		kma_push_put32(p, 32);
		kma_push_put(p, p->missing[i].key, 32);
	}
	return 0;
}

/*
 * Of the keys in p->missing, those the store lacks kept (in their order),
 * marked in p->added: asked as one bytea[] parameter, answered by their
 * places in it (binary int8). 0, or -1 and why.
 */
static int missing(struct kma_push *p)
{
	const char *val;
	int len, fmt = 1, i, r = 0;
	Oid type = 1001;	/* bytea[] */
	PGresult *res;
	uint64_t at;
	size_t j, n = p->nr_missing;

	if (!n)
		return 0;
	if (keys_param(p))
		return -1;
	val = p->buf;
	len = (int)p->len;
	res = PQexecParams(p->f->conn, "SELECT k.i FROM unnest($1::bytea[]) WITH ORDINALITY "
			   "AS k(key, i) WHERE NOT EXISTS (SELECT 1 FROM kma_fleet.stacks AS s "
			   "WHERE s.stack_key = k.key)", 1, &type, &val, &len, &fmt, 1);
	p->len = 0;
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return kma_fleet_pg_err(p->f, res, p->e);
	for (j = 0; j < n; j++)
		p->added[p->missing[j].id] = 0;
	for (i = 0; i < PQntuples(res) && !r; i++) {
		at = 0;
		if (PQgetlength(res, i, 0) == 8)
			memcpy(&at, PQgetvalue(res, i, 0), sizeof(at));
		at = be64toh(at);
		if (at < 1 || at > n)
			r = kma_err_set(p->e, KMA_ERR_OTHER, "%s: the stacks it lacks: an answer "
					"out of range", p->f->server);
		else
			p->added[p->missing[at - 1].id] = 1;
	}
	PQclear(res);
	for (j = p->nr_missing = 0; j < n && !r; j++)
		if (p->added[p->missing[j].id])
			p->missing[p->nr_missing++] = p->missing[j];
	return r;
}

/*
 * Each stack's key, the SHA-256 of its depth and frames, innermost first;
 * then, before the transaction, while the server has nothing else to do,
 * the keys the store lacks asked once (p->missing), and only their stacks'
 * rows of kma_fleet.stacks built, in binary COPY form (p->rows, p->row), by
 * a thread of their own while the transaction's tables go (kma_push_stacks
 * waits for it): a push whose stacks are stored builds none.
 */
/*
 * The added stacks' rows, built by a thread of its own, on a connection of
 * its own, while the transaction's first tables go: the server is busy with
 * them (run_stacks alone is 0.2 s of its CPU with 122k stacks) and the
 * client would only wait. A copy of the push, with its own buffer and error.
 */
struct kma_push_rows {
	struct kma_push	q;
	struct kma_err	e;
	int64_t		max;
	int		r;
	pthread_t	th;
};

static void *rows_main(void *arg)
{
	struct kma_push_rows *j = arg;

	j->r = kma_push_reserve(&j->q, j->q.nr_missing * ROW_GUESS) ||
	       stacks_pass(&j->q, NULL, j->max) ? -1 : 0;
	return NULL;
}

static int rows_start(struct kma_push *p, int64_t max)
{
	struct kma_push_rows *j = calloc(1, sizeof(*j));

	if (!j)
		return kma_err_nomem(p->e);
	j->q = *p;
	j->q.buf = NULL;
	j->q.len = j->q.cap = 0;
	j->q.e = &j->e;
	j->q.counts = NULL;
	j->q.rows_job = NULL;
	j->max = max;
	if (sqlite3_open_v2(p->path, &j->q.db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		sqlite3_close(j->q.db);
		free(j);
		return kma_push_db_err(p, "cannot open it again");
	}
	if (pthread_create(&j->th, NULL, rows_main, j)) {
		sqlite3_close(j->q.db);
		free(j);
		return kma_err_set(p->e, KMA_ERR_OTHER, "cannot start a thread");
	}
	p->rows_job = j;
	return 0;
}

/* The thread's rows (p->rows, p->row) once it ended; 0, or -1 with its error. */
static int rows_finish(struct kma_push *p)
{
	struct kma_push_rows *j = p->rows_job;
	int r;

	if (!j)
		return 0;
	pthread_join(j->th, NULL);
	p->rows_job = NULL;
	sqlite3_close(j->q.db);
	r = j->r;
	if (r) {
		*p->e = j->e;
		free(j->q.buf);
	} else {
		p->rows = j->q.buf;
	}
	free(j);
	return r;
}

void kma_push_rows_drop(struct kma_push *p)
{
	struct kma_err e;

	if (!p->rows_job)
		return;
	e = *p->e;	/* the reason the push stopped, kept */
	rows_finish(p);
	*p->e = e;
}

int kma_push_stack_keys(struct kma_push *p)
{
	struct kma_sha256 *sha;
	sqlite3_stmt *st;
	int64_t max = 0;
	int r;

	if (sqlite3_prepare_v2(p->db, "SELECT COALESCE(MAX(id), 0) FROM stacks", -1, &st,
			       NULL) != SQLITE_OK)
		return kma_push_db_err(p, "cannot read its stacks");
	if (sqlite3_step(st) == SQLITE_ROW)
		max = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (max < 0 || max > (1 << 30))
		return kma_err_set(p->e, KMA_ERR_BROKEN, "stacks.id %lld out of range",
				   (long long)max);
	p->nr_keys = max + 1;
	p->key = calloc(p->nr_keys, sizeof(*p->key));
	p->has_key = calloc(p->nr_keys, 1);
	p->added = calloc(p->nr_keys, 1);
	p->row = calloc(p->nr_keys, sizeof(*p->row));
	if (!p->key || !p->has_key || !p->added || !p->row)
		return kma_err_nomem(p->e);
	sha = kma_sha256_new();
	r = sha ? stacks_pass(p, sha, max) : kma_err_nomem(p->e);
	kma_sha256_free(sha);
	if (r || sorted_keys(p) || missing(p))
		return -1;
	return p->nr_missing ? rows_start(p, max) : 0;
}

/*
 * The rows of p->missing (in their order) sent by COPY into stacks; *@dup 1
 * when the server refused one as a key it has (nothing else said in p->e).
 */
static int send_rows(struct kma_push *p, int *dup)
{
	PGresult *res;
	const char *state;
	size_t i;
	int r = 0;
	int64_t id;

	*dup = 0;
	if (kma_push_copy_begin(p, "COPY kma_fleet.stacks FROM STDIN (FORMAT binary)"))
		return -1;
	for (i = 0; i < p->nr_missing && !r; i++) {
		id = p->missing[i].id;
		r = kma_push_reserve(p, p->row[id].len);
		if (!r) {
			kma_push_put(p, p->rows + p->row[id].off, p->row[id].len);
			r = kma_push_flush(p, 0);
		}
	}
	if (r || kma_push_reserve(p, 2))
		return kma_push_copy_end(p, 1);
	kma_push_put16(p, -1);
	if (kma_push_flush(p, 1))
		return kma_push_copy_end(p, 1);
	if (PQputCopyEnd(p->f->conn, NULL) != 1)
		return kma_fleet_pg_err(p->f, NULL, p->e);
	while ((res = PQgetResult(p->f->conn))) {
		if (!r && PQresultStatus(res) != PGRES_COMMAND_OK) {
			state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
			*dup = state && !strcmp(state, "23505");	/* unique_violation */
			r = kma_fleet_pg_err(p->f, res, p->e);
			continue;
		}
		PQclear(res);
	}
	return r;
}

/*
 * The lock KMA_FLEET_STACKS_LOCK, held to the commit: *@got 1 when taken at
 * once (@wait 0) or after waiting (@wait 1), 0 when another push holds it
 * (@wait 0). 0, or -1 and why.
 */
static int stacks_lock(struct kma_push *p, int wait, int *got)
{
	PGresult *res;

	res = kma_fleet_query(p->f, wait ? "SELECT pg_advisory_xact_lock(" KMA_FLEET_STACKS_LOCK
			      ")" : "SELECT pg_try_advisory_xact_lock(" KMA_FLEET_STACKS_LOCK ")",
			      0, NULL, PGRES_TUPLES_OK, p->e);
	if (!res)
		return -1;
	*got = wait || !strcmp(PQgetvalue(res, 0, 0), "t");
	PQclear(res);
	return 0;
}

/*
 * The run's stacks the store lacks, added once for all runs, last before the
 * commit, their rows (built before the transaction) sent in key order by COPY
 * straight into stacks. The lock KMA_FLEET_STACKS_LOCK, held to the commit,
 * makes the pushes that add stacks take turns, so that no conflict is left
 * to resolve row by row; it is taken only when the store lacked some of the
 * stacks before the transaction (a push whose stacks are all there never
 * waits). Free at once, the rows go without asking again (another push has
 * rarely added any of them since: asking was 40 ms of the server's CPU for
 * 122k stacks), in a savepoint: a key the store has by then rolls it back,
 * and they go again as below. Held by another push, which is likely adding
 * some of them, the keys are asked again once it is ours, and the rows of
 * those still missing sent. Stacks are never deleted, so none missing under
 * the lock was there before the transaction.
 */
int kma_push_stacks(struct kma_push *p)
{
	int locked, dup;

	if (rows_finish(p))
		return -1;
	if (!p->nr_missing)
		return 0;
	if (stacks_lock(p, 0, &locked))
		return -1;
	if (locked) {
		if (kma_fleet_exec(p->f, "SAVEPOINT kma_stacks", p->e))
			return -1;
		if (!send_rows(p, &dup))
			return kma_fleet_exec(p->f, "RELEASE SAVEPOINT kma_stacks", p->e);
		if (!dup || kma_fleet_exec(p->f, "ROLLBACK TO SAVEPOINT kma_stacks", p->e))
			return -1;
	} else if (stacks_lock(p, 1, &locked)) {
		return -1;
	}
	if (missing(p))
		return -1;
	return p->nr_missing ? send_rows(p, &dup) : 0;
}
