// SPDX-License-Identifier: GPL-2.0
/*
 * kma-fleet-push.c - one report.db pushed into the fleet store as a run, in
 * one transaction: the run's row and labels, the call stacks it adds (shared
 * by content), then one partition per table, filled through binary COPY
 * straight from SQLite's rows. Nothing is built into SQL but constants; the
 * run's id goes to kma_fleet.add_run_partition as a parameter.
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "kma-fleet-int.h"

#define KMA_FLEET_APP_ID	1802330450	/* report.db's PRAGMA application_id, "kmaR" */
#define COPY_FLUSH		(256 << 10)

struct push {
	struct kma_fleet	*f;
	sqlite3			*db;
	long long		run;
	unsigned char		(*key)[32];	/* report.db stacks.id -> stack_key */
	unsigned char		*has_key;
	unsigned char		*added;		/* stacks.id whose frames this push writes */
	int64_t			nr_keys;
	char			*buf;		/* the COPY data not sent yet */
	size_t			len, cap;
	struct kma_err		*e;
};

/* The report.db is at fault: its words, without the file's name. */
static int db_err(struct push *p, const char *what)
{
	return kma_err_set(p->e, KMA_ERR_BROKEN, "%s: %s", what, sqlite3_errmsg(p->db));
}

static int reserve(struct push *p, size_t n)
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

static void put(struct push *p, const void *d, size_t n)
{
	memcpy(p->buf + p->len, d, n);
	p->len += n;
}

static void put16(struct push *p, int16_t v)
{
	uint16_t b = htobe16((uint16_t)v);

	put(p, &b, 2);
}

static void put32(struct push *p, int32_t v)
{
	uint32_t b = htobe32((uint32_t)v);

	put(p, &b, 4);
}

static void put64(struct push *p, int64_t v)
{
	uint64_t b = htobe64((uint64_t)v);

	put(p, &b, 8);
}

static int flush(struct push *p, int force)
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
 * i bigint, d integer, t text, b bytea, k a stacks.id as its stack_key (bytea);
 * K as k, first only: the row is skipped unless the push added that stack.
 */
static int field(struct push *p, sqlite3_stmt *st, int c, char type)
{
	int64_t id;
	int n;

	if (sqlite3_column_type(st, c) == SQLITE_NULL) {
		if (reserve(p, 4))
			return -1;
		put32(p, -1);
		return 0;
	}
	switch (type) {
	case 'i':
	case 'd':
		if (reserve(p, 12))
			return -1;
		if (type == 'd') {
			put32(p, 4);
			put32(p, (int32_t)sqlite3_column_int64(st, c));
		} else {
			put32(p, 8);
			put64(p, sqlite3_column_int64(st, c));
		}
		return 0;
	case 'k':
	case 'K':
		id = sqlite3_column_int64(st, c);
		if (reserve(p, 36))
			return -1;
		if (id < 0 || id >= p->nr_keys || !p->has_key[id]) {
			put32(p, -1);
			return 0;
		}
		put32(p, 32);
		put(p, p->key[id], 32);
		return 0;
	default:	/* t, b: the bytes as SQLite holds them, never converted */
		n = sqlite3_column_bytes(st, c);
		if (reserve(p, 4 + (size_t)n))
			return -1;
		put32(p, n);
		put(p, n ? sqlite3_column_blob(st, c) : "", n);
		return 0;
	}
}

/*
 * The rows of @select (report.db) into @copy (COPY ... FROM STDIN (FORMAT
 * binary)), column by column as @types says; with @run, the run's id first.
 */
static int copy(struct push *p, const char *copy, const char *select, const char *types, int run)
{
	static const char head[11] = "PGCOPY\n\377\r\n";
	int nf = (int)strlen(types), c, rc, fail = 0;
	sqlite3_stmt *st;
	PGresult *res;

	if (sqlite3_prepare_v2(p->db, select, -1, &st, NULL) != SQLITE_OK)
		return db_err(p, "cannot read it");
	if (sqlite3_column_count(st) != nf) {
		sqlite3_finalize(st);
		return kma_err_set(p->e, KMA_ERR_OTHER, "internal error: %d columns, %d types",
				   sqlite3_column_count(st), nf);
	}
	res = PQexec(p->f->conn, copy);
	if (PQresultStatus(res) != PGRES_COPY_IN) {
		sqlite3_finalize(st);
		return kma_fleet_pg_err(p->f, res, p->e);
	}
	PQclear(res);
	p->len = 0;
	if (reserve(p, 19))
		fail = 1;
	else {
		put(p, head, 11);
		put32(p, 0);
		put32(p, 0);
	}
	while (!fail && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (types[0] == 'K') {
			int64_t id = sqlite3_column_int64(st, 0);

			if (id < 0 || id >= p->nr_keys || !p->added[id])
				continue;
		}
		if (reserve(p, 14)) {
			fail = 1;
			break;
		}
		put16(p, (int16_t)(nf + !!run));
		if (run) {
			put32(p, 8);
			put64(p, p->run);
		}
		for (c = 0; c < nf && !fail; c++)
			fail = field(p, st, c, types[c]);
		if (!fail)
			fail = flush(p, 0);
	}
	if (!fail && rc != SQLITE_DONE)
		fail = db_err(p, "cannot read it");
	sqlite3_finalize(st);
	if (!fail && !reserve(p, 2)) {
		put16(p, -1);
		fail = flush(p, 1);
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

/* Each stack's key: the SHA-256 of its depth and frames, innermost first. */
static int stack_keys(struct push *p)
{
	static const char sql[] =
		"SELECT s.id, s.depth, f.address, f.function, f.offset FROM stacks AS s "
		"LEFT JOIN stack_frames AS f ON f.stack_id = s.id ORDER BY s.id, f.depth";
	struct kma_sha256 h;
	sqlite3_stmt *st;
	int64_t id, cur = -1, max = 0;
	char num[48];
	int rc, c;

	if (sqlite3_prepare_v2(p->db, "SELECT COALESCE(MAX(id), 0) FROM stacks", -1, &st,
			       NULL) != SQLITE_OK)
		return db_err(p, "cannot read its stacks");
	if (sqlite3_step(st) == SQLITE_ROW)
		max = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (max < 0 || max > (1 << 30))
		return kma_err_set(p->e, KMA_ERR_BROKEN, "stacks.id %lld out of range",
				   (long long)max);
	p->nr_keys = max + 1;
	p->key = calloc(p->nr_keys, sizeof(*p->key));
	p->has_key = calloc(p->nr_keys, 1);
	if (!p->key || !p->has_key)
		return kma_err_nomem(p->e);
	if (sqlite3_prepare_v2(p->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_err(p, "cannot read its stacks");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		if (id < 0 || id > max)
			continue;
		if (id != cur) {
			if (cur >= 0)
				kma_sha256_end(&h, p->key[cur]);
			kma_sha256_init(&h);
			snprintf(num, sizeof(num), "%lld\n", (long long)sqlite3_column_int64(st, 1));
			kma_sha256_add(&h, num, strlen(num));
			p->has_key[id] = 1;
			cur = id;
		}
		/* each field: 'n' for NULL, else 'v' and its bytes; tab-ended */
		for (c = 2; c <= 4; c++) {
			if (sqlite3_column_type(st, c) == SQLITE_NULL) {
				kma_sha256_add(&h, "n\t", 2);
				continue;
			}
			kma_sha256_add(&h, "v", 1);
			kma_sha256_add(&h, sqlite3_column_blob(st, c), sqlite3_column_bytes(st, c));
			kma_sha256_add(&h, "\t", 1);
		}
	}
	if (cur >= 0)
		kma_sha256_end(&h, p->key[cur]);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_err(p, "cannot read its stacks");
}

struct key_id {
	unsigned char	key[32];
	int64_t		id;
};

static int cmp_key_id(const void *a, const void *b)
{
	const struct key_id *x = a, *y = b;
	int r = memcmp(x->key, y->key, 32);

	return r ? r : (x->id > y->id) - (x->id < y->id);
}

/*
 * The stacks the INSERT of @res added (their keys, binary): the first
 * stacks.id of each such key in p->added, so that its frames go once.
 */
static int mark_added(struct push *p, PGresult *res)
{
	struct key_id *all = malloc((p->nr_keys ? p->nr_keys : 1) * sizeof(*all)), k, *at;
	int64_t n = 0, id, lo, hi;
	int i;

	p->added = calloc(p->nr_keys ? p->nr_keys : 1, 1);
	if (!all || !p->added) {
		free(all);
		return kma_err_nomem(p->e);
	}
	for (id = 0; id < p->nr_keys; id++) {
		if (!p->has_key[id])
			continue;
		memcpy(all[n].key, p->key[id], 32);
		all[n++].id = id;
	}
	qsort(all, n, sizeof(*all), cmp_key_id);
	for (i = 0; i < PQntuples(res); i++) {
		if (PQgetlength(res, i, 0) != 32)
			continue;
		memcpy(k.key, PQgetvalue(res, i, 0), 32);
		k.id = -1;	/* before every id: the search ends at the key's first */
		lo = 0;
		hi = n;
		while (lo < hi) {
			int64_t mid = lo + (hi - lo) / 2;

			if (cmp_key_id(&all[mid], &k) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		at = all + lo;
		if (at < all + n && !memcmp(at->key, k.key, 32))
			p->added[at->id] = 1;
	}
	free(all);
	return 0;
}

/*
 * The run's stacks that the store lacks, added once for all runs (ordered: no
 * deadlock), then only their frames, by COPY straight into stack_frames: the
 * frames of a stack already there, or added meanwhile by a push that committed
 * first (our INSERT waited for it and added nothing), are there.
 */
static int push_stacks(struct push *p)
{
	PGresult *res;
	int r;

	if (kma_fleet_exec(p->f, "CREATE TEMP TABLE kma_push_stacks (stack_key bytea, "
			   "depth integer, folded text) ON COMMIT DROP", p->e) ||
	    copy(p, "COPY kma_push_stacks FROM STDIN (FORMAT binary)",
		 "SELECT id, depth, folded FROM stacks", "kdt", 0))
		return -1;
	res = PQexecParams(p->f->conn, "INSERT INTO kma_fleet.stacks SELECT * FROM "
			   "kma_push_stacks WHERE stack_key IS NOT NULL ORDER BY stack_key "
			   "ON CONFLICT DO NOTHING RETURNING stack_key", 0, NULL, NULL, NULL,
			   NULL, 1);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return kma_fleet_pg_err(p->f, res, p->e);
	r = mark_added(p, res);
	PQclear(res);
	if (r)
		return -1;
	return copy(p, "COPY kma_fleet.stack_frames FROM STDIN (FORMAT binary)",
		    "SELECT stack_id, depth, address, function, offset FROM stack_frames "
		    "ORDER BY stack_id, depth", "Kdtti", 0);
}

/* One table of the run: its partition, then its rows. */
struct table {
	const char *name, *copy, *select, *types;
	int allocations;	/* only with --allocations */
};

/*
 * In this order: timeline last, so that a test holding its lock stops a push
 * midway, with the other tables written (the kill test of t-fleet).
 */
static const struct table tables[] = {
	{ "callers", "COPY kma_fleet.callers FROM STDIN (FORMAT binary)",
	  "SELECT caller, address, module, symbol, file, line, total, slack, net, allocs, frees, "
	  "implicit_frees, failed_allocs, live, grew_generations, max_growth_run, age_median, "
	  "leak_class, leak_confidence, leak_why FROM callers ORDER BY id",
	  "tttttiiiiiiiiiiiittt", 0 },
	{ "functions", "COPY kma_fleet.functions FROM STDIN (FORMAT binary)",
	  "SELECT function, module, total, slack, net, allocs, frees, implicit_frees "
	  "FROM function_stats", "ttiiiiii", 0 },
	{ "caches", "COPY kma_fleet.caches FROM STDIN (FORMAT binary)",
	  /* cache_stats, task_stats and stack_stats from kma_fleet_counts's sums */
	  "SELECT CASE WHEN g.cache_id IS NOT NULL THEN k.name ELSE kc.name END, SUM(g.total), "
	  "SUM(g.slack), SUM(g.net), SUM(g.allocs), SUM(g.frees), SUM(g.implicit_frees) "
	  "FROM temp.kma_push_caches AS g LEFT JOIN caches AS k ON k.id = g.cache_id "
	  "LEFT JOIN kmalloc_caches AS kc ON kc.kmalloc_type = COALESCE(g.kmalloc_type, 0) "
	  "AND kc.bytes_alloc = g.bytes_alloc GROUP BY 1",
	  "tiiiiii", 0 },
	{ "tasks", "COPY kma_fleet.tasks FROM STDIN (FORMAT binary)",
	  "SELECT t.pid, t.comm, SUM(g.total), SUM(g.slack), SUM(g.net), SUM(g.allocs), "
	  "SUM(g.frees), SUM(g.implicit_frees) FROM temp.kma_push_tasks AS g "
	  "JOIN tasks AS t ON t.id = g.task_id GROUP BY t.pid, t.comm",
	  "ibiiiiii", 0 },
	{ "run_stacks", "COPY kma_fleet.run_stacks FROM STDIN (FORMAT binary)",
	  "SELECT stack_id, total, slack, net, allocs, frees, implicit_frees, live "
	  "FROM temp.kma_push_stack_sums",
	  "kiiiiiii", 0 },
	{ "generations", "COPY kma_fleet.generations FROM STDIN (FORMAT binary)",
	  "SELECT id, ts, label, allocs, bytes, live, live_bytes, frees FROM generations",
	  "iitiiiii", 0 },
	{ "allocations", "COPY kma_fleet.allocations FROM STDIN (FORMAT binary)",
	  /* the view allocations, with the pointer as its integer */
	  "SELECT r.id, r.ptr, c.caller, ae.name, sh.bytes_req, sh.bytes_alloc, sh.gfp_flags, "
	  "sh.node, k.name, sh.accounted, r.alloc_ts, r.alloc_cpu, t.pid, t.comm, r.generation, "
	  "r.alloc_ts + r.life, "
	  "CASE WHEN r.life IS NOT NULL THEN COALESCE(r.free_cpu, r.alloc_cpu) END, "
	  "CASE WHEN r.life IS NOT NULL THEN COALESCE(r.free_pid, t.pid) END, "
	  "s.caller, fk.name, sh.stack_id, sh.free_stack_id, sh.kmalloc_type "
	  "FROM alloc_rows AS r CROSS JOIN alloc_shapes AS sh ON sh.id = r.shape_id "
	  "JOIN callers AS c ON c.id = sh.caller_id JOIN event_kinds AS ae ON ae.id = sh.alloc_event "
	  "JOIN tasks AS t ON t.id = r.task_id LEFT JOIN caches AS k ON k.id = sh.cache_id "
	  "LEFT JOIN free_sites AS s ON s.id = r.free_site_id "
	  "LEFT JOIN event_kinds AS fk ON fk.id = r.free_kind + 4 ORDER BY r.id",
	  "iittiiiitiiiibiiiittkkd", 1 },
	{ "timeline", "COPY kma_fleet.timeline FROM STDIN (FORMAT binary)",
	  "SELECT bin, ts, width_ns, allocs, alloc_bytes, frees, free_bytes, live_bytes, live_max "
	  "FROM timeline", "iiiiiiiii", 0 },
};

static int push_tables(struct push *p, int allocations)
{
	char run[24];
	const char *params[2] = { NULL, run };
	PGresult *res;
	size_t i;

	snprintf(run, sizeof(run), "%lld", p->run);
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		if (tables[i].allocations && !allocations)
			continue;
		params[0] = tables[i].name;
		res = kma_fleet_query(p->f, "SELECT kma_fleet.add_run_partition($1, $2)", 2, params,
				      PGRES_TUPLES_OK, p->e);
		if (!res)
			return -1;
		PQclear(res);
		if (copy(p, tables[i].copy, tables[i].select, tables[i].types, 1))
			return -1;
	}
	return 0;
}

/* The run's facts, as text (NULL: SQL NULL), from the report.db's trace and summary. */
enum { R_RELEASE, R_UNAME, R_START, R_DURATION, R_KMA_VERSION, R_EVENTS, R_TOTAL, R_SLACK,
	R_NET, R_ALLOCS, R_FREES, R_UNKNOWN, R_FAILED, R_LOST, R_PEAK, R_KMALLOC_ONLY,
	R_TEMPORARY, R_PREFIX, R_BUFFER, R_NR };

static int run_facts(struct push *p, char **v)
{
	static const char sql[] =
		"SELECT t.kernel_release, t.uname, t.first_ts, t.last_ts - t.first_ts, t.kma_version, "
		"t.events, s.total, s.slack, s.net, s.allocs, s.frees, s.unknown_frees, "
		"s.failed_allocs, s.lost_events, t.peak_bytes, t.kmalloc_only, t.temporary_ns, "
		"t.marker_prefix, t.buffer FROM trace AS t, summary AS s";
	sqlite3_stmt *st;
	int i, rc;

	if (sqlite3_prepare_v2(p->db, sql, -1, &st, NULL) != SQLITE_OK)
		return db_err(p, "not a kma report.db");
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		if (rc == SQLITE_DONE)
			return kma_err_set(p->e, KMA_ERR_BROKEN, "no row in its trace table");
		return db_err(p, "cannot read it");
	}
	for (i = 0; i < R_NR; i++) {
		const char *t = (const char *)sqlite3_column_text(st, i);

		if (t && !(v[i] = strdup(t))) {
			sqlite3_finalize(st);
			return kma_err_nomem(p->e);
		}
	}
	sqlite3_finalize(st);
	return 0;
}

/* The traced machine's node name: uname's second word ("Linux HOST RELEASE ..."). */
static char *host_of(const char *uname)
{
	const char *h;
	size_t n;

	if (!uname)
		return NULL;
	h = strchr(uname, ' ');
	if (!h)
		return NULL;
	h += strspn(h, " ");
	n = strcspn(h, " ");
	return n ? strndup(h, n) : NULL;
}

/*
 * The run's row: 1 and p->run when new, 0 and the existing run's id in
 * p->run when the same trace and options are there (nothing inserted).
 */
static int insert_run(struct push *p, const struct kma_fleet_push *in, char **v)
{
	static const char sql[] =
		"INSERT INTO kma_fleet.runs (trace_id, source, options, host, kernel_release, uname, "
		"start_ns, duration_ns, file, kma_version, push_version, allocations, events, total, "
		"slack, net, allocs, frees, unknown_frees, failed_allocs, lost_events, peak_bytes) "
		"VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, "
		"$18, $19, $20, $21, $22) ON CONFLICT (trace_id, options) DO NOTHING RETURNING run_id";
	char *options = NULL, *host = host_of(v[R_UNAME]);
	const char *prm[22], *two[2];
	PGresult *res;
	int r = -1;

	if (asprintf(&options, "kmalloc_only=%s temporary_ns=%s marker_prefix=%s buffer=%s",
		     v[R_KMALLOC_ONLY] ? v[R_KMALLOC_ONLY] : "", v[R_TEMPORARY] ? v[R_TEMPORARY] : "",
		     v[R_PREFIX] ? v[R_PREFIX] : "", v[R_BUFFER] ? v[R_BUFFER] : "") < 0) {
		free(host);
		return kma_err_nomem(p->e);
	}
	two[0] = in->trace_id;
	two[1] = options;
	if (in->replace) {
		res = kma_fleet_query(p->f, "SELECT kma_fleet.drop_run(run_id) FROM kma_fleet.runs "
				      "WHERE trace_id = $1 AND options = $2", 2, two,
				      PGRES_TUPLES_OK, p->e);
		if (!res)
			goto out;
		r = PQntuples(res) ? 2 : 1;
		PQclear(res);
	}
	prm[0] = in->trace_id; prm[1] = in->source; prm[2] = options; prm[3] = host;
	prm[4] = v[R_RELEASE]; prm[5] = v[R_UNAME]; prm[6] = v[R_START]; prm[7] = v[R_DURATION];
	prm[8] = in->file; prm[9] = v[R_KMA_VERSION]; prm[10] = KMA_VERSION;
	prm[11] = in->allocations ? "true" : "false";
	prm[12] = v[R_EVENTS]; prm[13] = v[R_TOTAL]; prm[14] = v[R_SLACK]; prm[15] = v[R_NET];
	prm[16] = v[R_ALLOCS]; prm[17] = v[R_FREES]; prm[18] = v[R_UNKNOWN];
	prm[19] = v[R_FAILED]; prm[20] = v[R_LOST]; prm[21] = v[R_PEAK];
	res = kma_fleet_query(p->f, sql, 22, prm, PGRES_TUPLES_OK, p->e);
	if (!res) {
		r = -1;
		goto out;
	}
	if (PQntuples(res) == 1) {
		p->run = atoll(PQgetvalue(res, 0, 0));
		r = r == 2 ? 2 : 1;
		PQclear(res);
		goto out;
	}
	PQclear(res);
	/* there already: the run it is */
	res = kma_fleet_query(p->f, "SELECT run_id FROM kma_fleet.runs WHERE trace_id = $1 AND "
			      "options = $2", 2, two, PGRES_TUPLES_OK, p->e);
	r = -1;
	if (res && PQntuples(res) == 1) {
		p->run = atoll(PQgetvalue(res, 0, 0));
		r = 0;
	} else if (res) {
		kma_err_set(p->e, KMA_ERR_OTHER, "%s: the run vanished while pushing", p->f->server);
	}
	PQclear(res);
out:
	free(options);
	free(host);
	return r;
}

static int push_labels(struct push *p, const struct kma_fleet_push *in)
{
	char run[24];
	const char *prm[3] = { run };
	PGresult *res;
	int i;

	snprintf(run, sizeof(run), "%lld", p->run);
	for (i = 0; i < in->nr_labels; i++) {
		prm[1] = in->labels[i].key;
		prm[2] = in->labels[i].value;
		res = kma_fleet_query(p->f, "INSERT INTO kma_fleet.run_labels VALUES ($1, $2, $3) "
				      "ON CONFLICT (run_id, key) DO UPDATE SET value = EXCLUDED.value",
				      3, prm, PGRES_COMMAND_OK, p->e);
		if (!res)
			return -1;
		PQclear(res);
	}
	return 0;
}

/* The report.db opened read only, if it is one kma-analyze wrote (its application id). */
static int open_db(struct push *p, const char *path)
{
	sqlite3_stmt *st;
	int id = 0;

	if (sqlite3_open_v2(path, &p->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		return db_err(p, "cannot open it");
	if (sqlite3_prepare_v2(p->db, "PRAGMA application_id", -1, &st, NULL) != SQLITE_OK)
		return db_err(p, "not an SQLite database");
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (id != KMA_FLEET_APP_ID)
		return kma_err_set(p->e, KMA_ERR_BROKEN, "not a report.db written by kma-analyze");
	return 0;
}

int kma_fleet_push(struct kma_fleet *f, const struct kma_fleet_push *in, long long *run_id,
		   struct kma_err *e)
{
	struct push p = { .f = f, .e = e };
	char *v[R_NR] = { NULL };
	int r = -1, i, began = 0;

	if (open_db(&p, in->db) || run_facts(&p, v) || stack_keys(&p) ||
	    kma_fleet_counts(p.db, e))
		goto out;
	if (kma_fleet_exec(f, "BEGIN", e))
		goto out;
	began = 1;
	/* the stacks' sorts fit in memory: a spill to disk doubles their time */
	if (kma_fleet_exec(f, "SET LOCAL work_mem = '64MB'", e))
		goto out;
	r = insert_run(&p, in, v);
	if (r <= 0) {
		if (!r)
			r = KMA_FLEET_SAME;
		goto out;
	}
	r = r == 2 ? KMA_FLEET_REPLACED : KMA_FLEET_NEW;
	if (push_labels(&p, in) || push_stacks(&p) || push_tables(&p, in->allocations) ||
	    kma_fleet_exec(f, "COMMIT", e))
		r = -1;
	began = r < 0;
out:
	if (began)
		PQclear(PQexec(f->conn, "ROLLBACK"));
	*run_id = p.run;
	for (i = 0; i < R_NR; i++)
		free(v[i]);
	free(p.key);
	free(p.has_key);
	free(p.added);
	free(p.buf);
	sqlite3_close(p.db);
	return r;
}
