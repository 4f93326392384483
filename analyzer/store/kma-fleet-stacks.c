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
#include "kma-stack-key.h"

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

/*
 * An address as kma-analyze writes it, '0x' and 1-16 lowercase hex digits
 * without a leading zero, into *@v: 0, or -1 when @a is not one (that
 * exactly is what printing the value back with "0x%llx" gives, at a tenth
 * of the cost: 732k frames).
 */
static int addr_of(const unsigned char *a, int n, uint64_t *v)
{
	uint64_t x = 0;
	int i, d;

	if (!a || n < 3 || n > 18 || a[0] != '0' || a[1] != 'x' || (a[2] == '0' && n > 3))
		return -1;
	for (i = 2; i < n; i++) {
		d = a[i] >= '0' && a[i] <= '9' ? a[i] - '0' :
		    a[i] >= 'a' && a[i] <= 'f' ? a[i] - 'a' + 10 : -1;
		if (d < 0)
			return -1;
		x = x << 4 | (uint64_t)d;
	}
	*v = x;
	return 0;
}

/* The frame at @st (frames_sql's row: stack_id, address, function, offset) added. */
static int frames_add(struct kma_push *p, struct frames *fr, sqlite3_stmt *st)
{
	const unsigned char *a = sqlite3_column_text(st, 1);
	const char *fn;
	size_t n = (size_t)sqlite3_column_bytes(st, 2);
	uint64_t v;

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
	if (addr_of(a, sqlite3_column_bytes(st, 1), &v))
		return kma_err_set(p->e, KMA_ERR_BROKEN, "stack frame address '%s' is not 0x<hex>",
				   a ? (const char *)a : "(null)");
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
 * The stack's frames into @k (to hash; NULL: not hashed) and into @fr for its
 * row (NULL: no row). 0, or -1 and p->e.
 */
static int msg_frames(struct kma_push *p, struct kma_stack_key *k, struct frames *fr,
		      sqlite3_stmt *fst, int *frc, int64_t id)
{
	int c;

	while (frame_of(fst, frc, id)) {
		for (c = 1; k && c <= 3; c++)
			if (kma_stack_key_field(k, sqlite3_column_type(fst, c) == SQLITE_NULL ? NULL :
						sqlite3_column_blob(fst, c),
						(size_t)sqlite3_column_bytes(fst, c)))
				return kma_err_nomem(p->e);
		if (fr && frames_add(p, fr, fst))
			return -1;
		*frc = sqlite3_step(fst);
	}
	return 0;
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

/*
 * The stack's key from its @depth and frames (@fst at them) into @out, and
 * with @fr its frames gathered for its row.
 */
static int hash_stack(struct kma_push *p, struct kma_stack_key *k, struct frames *fr,
		      sqlite3_stmt *fst, int *frc, int64_t id, int64_t depth, unsigned char out[32])
{
	kma_stack_key_begin(k, depth);
	if (msg_frames(p, k, fr, fst, frc, id))
		return -1;
	if (kma_stack_key_end(k, out))
		return kma_err_set(p->e, KMA_ERR_OTHER, "libcrypto's SHA-256 failed");
	return 0;
}

/*
 * The stacks' rows, built by a thread of its own on a connection of its own
 * from the moment the keys are known: while the server is asked which keys
 * it lacks, every stack's (most are new in a push that adds any), then only
 * those of the stacks it lacks, none more once it has them all; all while
 * the transaction's first tables go (run_stacks alone is 0.2 s of the
 * server's CPU with 122k stacks) and the client would only wait. A copy of
 * the push, with its own buffer and error.
 */
struct kma_push_rows {
	struct kma_push	q;
	struct kma_err	e;
	int64_t		max;
	int		r;
	int		answered;	/* p->added made (atomic: set by the push) */
	int		none;		/* ... and no stack to add */
	pthread_t	th;
};

/* Whether the thread is to build stack @id's row; *@stop 1: none more. */
static int row_wanted(struct kma_push *p, int64_t id, int *stop)
{
	struct kma_push_rows *j = p->rows_job;

	if (!j || !__atomic_load_n(&j->answered, __ATOMIC_ACQUIRE))
		return 1;
	*stop = j->none;
	return !j->none && p->added[id];
}

/*
 * The added stack @id's row (@st at it), its frames (@fst at them) checked
 * against its key with @k (a key read from the file), into p->buf.
 */
static int stack_row(struct kma_push *p, struct kma_stack_key *k, struct frames *fr,
		     sqlite3_stmt *st, sqlite3_stmt *fst, int *frc, int64_t id)
{
	int64_t depth = sqlite3_column_int64(st, 1);
	unsigned char key[32];

	if (k ? hash_stack(p, k, fr, fst, frc, id, depth, key) :
	    msg_frames(p, NULL, fr, fst, frc, id))
		return -1;
	if (k && memcmp(key, p->key[id], 32))
		return kma_err_set(p->e, KMA_ERR_BROKEN, "stacks.stack_key of stack %lld does not "
				   "match its frames", (long long)id);
	p->row[id].off = p->len;
	/* the folded text read in place: valid until the next step */
	if (frames_row(p, fr, id, depth,
		       sqlite3_column_bytes(st, 2) ? sqlite3_column_blob(st, 2) : "",
		       (size_t)sqlite3_column_bytes(st, 2)))
		return -1;
	p->row[id].len = p->len - p->row[id].off;
	return 0;
}

/*
 * The stacks (@st: id, depth[, folded]) and stack_frames (@fst) read side by
 * side: without @rows, each stack's key hashed with @k; with, the row of each
 * stack in p->added, in p->buf (p->row[id] its place), its key checked with
 * @k when not NULL.
 */
static int read_stacks(struct kma_push *p, int rows, struct kma_stack_key *k, sqlite3_stmt *st,
		       sqlite3_stmt *fst, int64_t max)
{
	struct frames fr = { 0 };
	int64_t id;
	int rc = SQLITE_DONE, frc = sqlite3_step(fst), r = 0, stop = 0;
	size_t cap = 0;

	while (!r && !stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		if (id < 0 || id > max || (rows && !row_wanted(p, id, &stop)))
			continue;	/* their frames skipped by frame_of */
		if (!rows) {
			r = hash_stack(p, k, NULL, fst, &frc, id, sqlite3_column_int64(st, 1),
				       p->key[id]);
			p->has_key[id] = 1;
			continue;
		}
		r = stack_row(p, k, &fr, st, fst, &frc, id);
		if (p->cap != cap) {
			rows_advise(p);
			cap = p->cap;
		}
	}
	frames_free(&fr);
	if (r)
		return -1;
	return stop || (rc == SQLITE_DONE && (frc == SQLITE_ROW || frc == SQLITE_DONE)) ? 0 :
	       kma_push_db_err(p, "cannot read its stacks");
}

/* One pass over the stacks: their keys (!@rows) or the added ones' rows. */
static int stacks_pass(struct kma_push *p, int rows, struct kma_stack_key *k, int64_t max)
{
	sqlite3_stmt *st, *fst;
	int r;

	if (sqlite3_prepare_v2(p->db, !rows ? "SELECT id, depth FROM stacks ORDER BY id" :
			       "SELECT id, depth, folded FROM stacks ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK)
		return kma_push_db_err(p, "cannot read its stacks");
	if (sqlite3_prepare_v2(p->db, frames_sql, -1, &fst, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return kma_push_db_err(p, "cannot read its stacks");
	}
	r = read_stacks(p, rows, k, st, fst, max);
	sqlite3_finalize(st);
	sqlite3_finalize(fst);
	return r;
}

/* By key, then (a key twice) the first stack first. */
static int key_cmp(const struct kma_push_key *x, const struct kma_push_key *y)
{
	int c = memcmp(x->key, y->key, 32);

	return c ? c : (x->id > y->id) - (x->id < y->id);
}

/*
 * @k (@n, in stacks.id order) sorted as key_cmp says: by the keys' first 8
 * bytes a byte at a time, least significant first, each pass stable (so a
 * key twice keeps its first stack first), then the rare runs of keys whose
 * first 8 bytes are the same by the whole key. qsort's calls of key_cmp
 * were 60-80 ms for 122k keys, this is a few.
 */
static int sort_keys(struct kma_push *p, struct kma_push_key *k, size_t n)
{
	struct kma_push_key *tmp = malloc((n ? n : 1) * sizeof(*tmp)), *from = k, *to = tmp, t;
	size_t count[256], i, j, at;
	int b;

	if (!tmp)
		return kma_err_nomem(p->e);
	for (b = 0; b < 64; b += 8) {
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(from[i].hi >> b) & 255]++;
		for (i = at = 0; i < 256; i++) {
			j = count[i];
			count[i] = at;
			at += j;
		}
		for (i = 0; i < n; i++)
			to[count[(from[i].hi >> b) & 255]++] = from[i];
		/* from and to swapped: after 8 passes the keys are back in k */
		from = from == k ? tmp : k;
		to = to == k ? tmp : k;
	}
	free(tmp);
	for (i = 1; i < n; i++)
		for (j = i; j && k[j - 1].hi == k[j].hi && key_cmp(&k[j - 1], &k[j]) > 0; j--) {
			t = k[j];
			k[j] = k[j - 1];
			k[j - 1] = t;
		}
	return 0;
}

/* A key's first 8 bytes as a number, in memcmp's order. */
static uint64_t key_hi(const unsigned char *key)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | key[i];
	return v;
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
		k[n].hi = key_hi(p->key[id]);
		k[n++].id = id;
	}
	p->missing = k;
	if (sort_keys(p, k, n))
		return -1;
	for (i = p->nr_missing = 0; i < n; i++)
		if (!p->nr_missing || memcmp(k[p->nr_missing - 1].key, k[i].key, 32))
			k[p->nr_missing++] = k[i];
	return 0;
}

/*
 * Of the keys in p->missing, those the store lacks kept (in their order),
 * marked in p->added: asked as one bytea parameter, the keys end to end (as
 * a bytea[], the server's array_recv of 122k elements was 90 ms, more than
 * the probes of the primary key), answered by their places in it (binary
 * int8). 0, or -1 and why.
 */
static int missing(struct kma_push *p)
{
	const char *val;
	int len, fmt = 1, i, r = 0;
	Oid type = 17;	/* bytea */
	PGresult *res;
	uint64_t at;
	size_t j, n = p->nr_missing;

	if (!n)
		return 0;
	if (n > INT32_MAX / 32)
		return kma_err_set(p->e, KMA_ERR_OTHER, "%zu stacks: too many for one push", n);
	p->len = 0;
	if (kma_push_reserve(p, n * 32))
		return -1;
	for (j = 0; j < n; j++)
		kma_push_put(p, p->missing[j].key, 32);
	val = p->buf;
	len = (int)p->len;
	/*
	 * Each key probed in the primary key, whatever the planner thinks: a
	 * plan made for the keys at hand (the parameter a 4 MB constant in it:
	 * 66 ms to bind) hashed the whole of stacks (141 ms with 122k stacks,
	 * and more as the store grows).
	 */
	if (kma_fleet_exec(p->f, "SET plan_cache_mode = force_generic_plan; "
			   "SET enable_hashjoin = off; SET enable_mergejoin = off", p->e))
		return -1;
	res = PQexecParams(p->f->conn, "SELECT i FROM generate_series(1::bigint, length($1) / 32) "
			   "AS i WHERE NOT EXISTS (SELECT 1 FROM kma_fleet.stacks AS s WHERE "
			   "s.stack_key = substr($1, (i * 32 - 31)::integer, 32))", 1, &type, &val,
			   &len, &fmt, 1);
	p->len = 0;
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return kma_fleet_pg_err(p->f, res, p->e);
	if (kma_fleet_exec(p->f, "RESET plan_cache_mode; RESET enable_hashjoin; "
			   "RESET enable_mergejoin", p->e)) {
		PQclear(res);
		return -1;
	}
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

static void *rows_main(void *arg)
{
	struct kma_push_rows *j = arg;
	struct kma_stack_key *k = NULL;

	/* keys read from the file checked as their rows are made (those of stored stacks not) */
	if (j->q.keys_read && !(k = kma_stack_key_alloc())) {
		j->r = kma_err_nomem(j->q.e);
		return NULL;
	}
	j->r = kma_push_reserve(&j->q, j->q.nr_keys * ROW_GUESS) ||
	       stacks_pass(&j->q, 1, k, j->max) ? -1 : 0;
	kma_stack_key_free(k);
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
	j->q.rows_job = j;	/* its row_wanted's */
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

/* The thread told which stacks the store lacks (p->added), or to stop (@stop). */
static void rows_answer(struct kma_push *p, int stop)
{
	struct kma_push_rows *j = p->rows_job;

	if (!j)
		return;
	j->none = stop || !p->nr_missing;
	__atomic_store_n(&j->answered, 1, __ATOMIC_RELEASE);
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
	rows_answer(p, 1);
	rows_finish(p);
	*p->e = e;
}

/*
 * The keys kma-analyze wrote in stacks.stack_key (p->keys_read): 1 when the
 * file has them, 0 when it was written before the column (or a stack's is
 * NULL: its frames changed by hand), -1 and why.
 */
static int keys_read(struct kma_push *p, int64_t max)
{
	sqlite3_stmt *st;
	int64_t id;
	int rc, r = 0;

	if (sqlite3_prepare_v2(p->db, "SELECT id, stack_key FROM stacks", -1, &st,
			       NULL) != SQLITE_OK)
		return strstr(sqlite3_errmsg(p->db), "no such column") ? 0 :
		       kma_push_db_err(p, "cannot read its stacks");
	while (!r && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		if (id < 0 || id > max)
			continue;
		if (sqlite3_column_type(st, 1) == SQLITE_NULL)
			break;		/* not all there: each stack hashed here */
		if (sqlite3_column_bytes(st, 1) != 32)
			r = kma_err_set(p->e, KMA_ERR_BROKEN, "stacks.stack_key of stack %lld is "
					"not a 32-byte key", (long long)id);
		else
			memcpy(p->key[id], sqlite3_column_blob(st, 1), 32);
		p->has_key[id] = 1;
	}
	sqlite3_finalize(st);
	if (r)
		return -1;
	if (rc == SQLITE_ROW)
		return 0;
	if (rc != SQLITE_DONE)
		return kma_push_db_err(p, "cannot read its stacks");
	p->keys_read = 1;
	return 1;
}

/*
 * Each stack's key (kma-stack-key.c): read from stacks.stack_key, or hashed
 * here from a report.db written before it; then, before the transaction,
 * while the server has nothing else to do, the keys the store lacks asked
 * once (p->missing), while a thread builds the stacks' rows of
 * kma_fleet.stacks in binary COPY form (p->rows, p->row), those the store
 * lacks in the end (kma_push_stacks waits for it).
 */
int kma_push_stack_keys(struct kma_push *p)
{
	struct kma_stack_key *k;
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
	r = keys_read(p, max);
	if (!r) {
		/* a report.db written before stacks.stack_key: each stack hashed here */
		k = kma_stack_key_alloc();
		r = k ? stacks_pass(p, 0, k, max) : kma_err_nomem(p->e);
		kma_stack_key_free(k);
	}
	/* the rows made while the server is asked which stacks it lacks */
	if (r < 0 || (max && rows_start(p, max)) || sorted_keys(p) || missing(p))
		return -1;
	rows_answer(p, 0);
	return 0;
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
