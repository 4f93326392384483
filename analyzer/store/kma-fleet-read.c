// SPDX-License-Identifier: GPL-2.0
/*
 * kma-fleet-read.c - runs and per-key series read back from the fleet store
 * (kma-fleet(5)) for kma-trend. The run ids go as one bigint[] parameter;
 * the SQL is constant text, one statement per key kind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-fleet-int.h"
#include "kma-fleet-read.h"

/* "{1,2,3}" of @ids, malloc'd */
static char *id_array(const long long *ids, size_t nr)
{
	size_t cap = nr * 21 + 3, len = 1, i;
	char *buf = malloc(cap);

	if (!buf)
		return NULL;
	buf[0] = '{';
	for (i = 0; i < nr; i++)
		len += snprintf(buf + len, cap - len, "%s%lld", i ? "," : "", ids[i]);
	snprintf(buf + len, cap - len, "}");
	return buf;
}

/* The index of run @id in @ids (a few dozen: a scan is enough), or -1. */
static long idx_of(const long long *ids, size_t nr, long long id)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (ids[i] == id)
			return (long)i;
	return -1;
}

static char *dup_or_null(PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NULL : strdup(PQgetvalue(res, row, col));
}

void kma_fleet_runs_free(struct kma_fleet_run *runs, size_t nr)
{
	size_t i, j;

	for (i = 0; runs && i < nr; i++) {
		free(runs[i].host);
		free(runs[i].kernel);
		free(runs[i].pushed_at);
		for (j = 0; j < runs[i].nr_labels; j++) {
			free(runs[i].keys[j]);
			free(runs[i].values[j]);
		}
		free(runs[i].keys);
		free(runs[i].values);
	}
	free(runs);
}

static int read_labels(struct kma_fleet *f, const char *arr, const long long *ids, size_t nr,
		       struct kma_fleet_run *runs, struct kma_err *e)
{
	const char *p[1] = { arr };
	PGresult *res;
	int i, n;

	res = kma_fleet_query(f, "SELECT run_id, key, value FROM kma_fleet.run_labels "
			      "WHERE run_id = ANY($1::bigint[]) ORDER BY run_id, key COLLATE \"C\"",
			      1, p, PGRES_TUPLES_OK, e);
	if (!res)
		return -1;
	n = PQntuples(res);
	for (i = 0; i < n; i++) {
		struct kma_fleet_run *r = &runs[idx_of(ids, nr, strtoll(PQgetvalue(res, i, 0),
								       NULL, 10))];
		char **k = realloc(r->keys, (r->nr_labels + 1) * sizeof(*k));
		char **v = k ? realloc(r->values, (r->nr_labels + 1) * sizeof(*v)) : NULL;

		if (k)
			r->keys = k;
		if (v)
			r->values = v;
		if (!k || !v)
			goto nomem;
		k[r->nr_labels] = strdup(PQgetvalue(res, i, 1));
		v[r->nr_labels] = strdup(PQgetvalue(res, i, 2));
		r->nr_labels++;
		if (!k[r->nr_labels - 1] || !v[r->nr_labels - 1])
			goto nomem;
	}
	PQclear(res);
	return 0;
nomem:
	PQclear(res);
	return kma_err_nomem(e);
}

int kma_fleet_read_runs(struct kma_fleet *f, const long long *ids, size_t nr,
			struct kma_fleet_run **out, struct kma_err *e)
{
	char *arr = id_array(ids, nr);
	const char *p[1] = { arr };
	struct kma_fleet_run *runs = calloc(nr ? nr : 1, sizeof(*runs));
	PGresult *res = NULL;
	size_t i;
	int n;

	*out = NULL;
	if (!arr || !runs)
		goto nomem;
	res = kma_fleet_query(f, "SELECT run_id, host, kernel_release, to_char(pushed_at AT TIME "
			      "ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') FROM kma_fleet.runs WHERE "
			      "run_id = ANY($1::bigint[])", 1, p, PGRES_TUPLES_OK, e);
	if (!res)
		goto fail;
	for (i = 0; i < nr; i++)
		runs[i].id = -1;
	n = PQntuples(res);
	for (int row = 0; row < n; row++) {
		long long id = strtoll(PQgetvalue(res, row, 0), NULL, 10);

		/* every place the id is at (a run named twice in run=) */
		for (i = 0; i < nr; i++) {
			struct kma_fleet_run *r = &runs[i];

			if (ids[i] != id)
				continue;
			r->id = id;
			r->host = dup_or_null(res, row, 1);
			r->kernel = dup_or_null(res, row, 2);
			r->pushed_at = strdup(PQgetvalue(res, row, 3));
			if (!r->pushed_at)
				goto nomem;
		}
	}
	PQclear(res);
	res = NULL;
	for (i = 0; i < nr; i++)
		if (runs[i].id < 0) {
			kma_err_set(e, KMA_ERR_OTHER, "%s: no run %lld", kma_fleet_server(f),
				    ids[i]);
			goto fail;
		}
	if (read_labels(f, arr, ids, nr, runs, e))
		goto fail;
	free(arr);
	*out = runs;
	return 0;
nomem:
	kma_err_nomem(e);
fail:
	PQclear(res);
	free(arr);
	kma_fleet_runs_free(runs, nr);
	return -1;
}

/*
 * One statement per key kind: (key, run_id, net, total, allocs) for the runs
 * of $1, one row per key and run ...
 */
static const char *const series_sql[] = {
	[KMA_FLEET_KEY_CALLER] =
		"SELECT caller, run_id, sum(net), sum(total), sum(allocs) FROM kma_fleet.callers "
		"WHERE run_id = ANY($1::bigint[]) GROUP BY 1, 2",
	[KMA_FLEET_KEY_FUNCTION] =
		"SELECT function, run_id, sum(net), sum(total), sum(allocs) FROM "
		"kma_fleet.functions WHERE run_id = ANY($1::bigint[]) GROUP BY 1, 2",
	[KMA_FLEET_KEY_CACHE] =
		"SELECT coalesce(cache, '[no cache]'), run_id, sum(net), sum(total), sum(allocs) "
		"FROM kma_fleet.caches WHERE run_id = ANY($1::bigint[]) GROUP BY 1, 2",
	[KMA_FLEET_KEY_STACK] =
		"SELECT coalesce(s.folded, '[no stack]'), r.run_id, sum(r.net), sum(r.total), "
		"sum(r.allocs) FROM kma_fleet.run_stacks r LEFT JOIN kma_fleet.stacks s "
		"ON s.stack_key = r.stack_key WHERE r.run_id = ANY($1::bigint[]) GROUP BY 1, 2",
};

/*
 * The allocators beside slab ($2: page, percpu, vmalloc): their kind_callers
 * rows by caller, or by function (the caller's name before "+0x", as
 * kma-analyze --kind K -g function names it; a page caller is a function);
 * their kind_stacks rows (schema version 4) by folded stack, as slab's.
 */
static const char *const kind_series_sql[] = {
	[KMA_FLEET_KEY_CALLER] =
		"SELECT caller, run_id, sum(net), sum(total), sum(allocs) FROM "
		"kma_fleet.kind_callers WHERE run_id = ANY($1::bigint[]) AND kind = $2 "
		"GROUP BY 1, 2",
	[KMA_FLEET_KEY_FUNCTION] =
		"SELECT split_part(caller, '+0x', 1), run_id, sum(net), sum(total), sum(allocs) "
		"FROM kma_fleet.kind_callers WHERE run_id = ANY($1::bigint[]) AND kind = $2 "
		"GROUP BY 1, 2",
	[KMA_FLEET_KEY_STACK] =
		"SELECT coalesce(k.folded, s.folded, '[no stack]'), k.run_id, sum(k.net), "
		"sum(k.total), sum(k.allocs) FROM kma_fleet.kind_stacks k LEFT JOIN "
		"kma_fleet.stacks s ON s.stack_key = k.stack_key WHERE k.run_id = ANY($1::bigint[]) "
		"AND k.kind = $2 GROUP BY 1, 2",
};

const char *kma_fleet_kind_refuses(const char *kind, enum kma_fleet_key key)
{
	if (kind && key == KMA_FLEET_KEY_CACHE)
		return "only the slab allocator has caches";
	return NULL;
}

/*
 * Per stack, a kind's series needs each run's kind_stacks: a run pushed
 * before schema version 4 has no partition of it (its sums are not there,
 * which is no zero). 0, or -1 and @e naming the first such run.
 */
static int kind_stacks_there(struct kma_fleet *f, const char *kind, const char *arr,
			     struct kma_err *e)
{
	const char *p[1] = { arr };
	PGresult *res;
	int r = 0;

	res = kma_fleet_query(f, "SELECT min(id) FROM unnest($1::bigint[]) AS id WHERE "
			      "to_regclass(format('kma_fleet.%I', 'kind_stacks_r' || id)) IS NULL",
			      1, p, PGRES_TUPLES_OK, e);
	if (!res)
		return -1;
	if (!PQgetisnull(res, 0, 0))
		r = kma_err_set(e, KMA_ERR_OTHER, "%s: --kind %s -k stack: run %s was pushed by a "
				"kma-push before fleet schema version 4, which kept no stacks of "
				"this allocator (push it again with --replace)",
				kma_fleet_server(f), kind, PQgetvalue(res, 0, 0));
	PQclear(res);
	return r;
}

/* ... each as q(k, run_id, net, total, allocs), by key in bytes order */
static const char series_order[] = ") q (k, run_id, net, total, allocs) "
				   "ORDER BY k COLLATE \"C\", run_id";

void kma_fleet_series_free(struct kma_fleet_series *s)
{
	size_t i;

	for (i = 0; s->keys && i < s->nr_keys; i++)
		free(s->keys[i]);
	free(s->keys);
	for (i = 0; i < KMA_FLEET_NR_METRICS; i++)
		free(s->v[i]);
	free(s->has);
	memset(s, 0, sizeof(*s));
}

/* Room for @nk keys of @nr runs each, zeroed. */
static int alloc_series(struct kma_fleet_series *s, size_t nk, size_t nr)
{
	size_t cells = (nk ? nk : 1) * (nr ? nr : 1), m;

	s->nr_runs = nr;
	s->keys = calloc(nk ? nk : 1, sizeof(*s->keys));
	s->has = calloc(cells, 1);
	for (m = 0; m < KMA_FLEET_NR_METRICS; m++)
		s->v[m] = calloc(cells, sizeof(long long));
	for (m = 0; m < KMA_FLEET_NR_METRICS; m++)
		if (!s->v[m])
			return -1;
	return s->keys && s->has ? 0 : -1;
}

int kma_fleet_read_series(struct kma_fleet *f, const char *kind, enum kma_fleet_key key,
			  const long long *ids, size_t nr, struct kma_fleet_series *s,
			  struct kma_err *e)
{
	char *arr = id_array(ids, nr);
	const char *p[2] = { arr, kind }, *why = kma_fleet_kind_refuses(kind, key);
	PGresult *res;
	char *sql;
	int i, n, m;

	memset(s, 0, sizeof(*s));
	if (why) {
		free(arr);
		return kma_err_set(e, KMA_ERR_OTHER, "--kind %s: no key %s: %s", kind,
				   key == KMA_FLEET_KEY_CACHE ? "cache" : "stack", why);
	}
	if (!arr)
		return kma_err_nomem(e);
	if (kind && key == KMA_FLEET_KEY_STACK && kind_stacks_there(f, kind, arr, e)) {
		free(arr);
		return -1;
	}
	if (asprintf(&sql, "SELECT * FROM (%s%s", kind ? kind_series_sql[key] : series_sql[key],
		     series_order) < 0) {
		free(arr);
		return kma_err_nomem(e);
	}
	res = kma_fleet_query(f, sql, kind ? 2 : 1, p, PGRES_TUPLES_OK, e);
	free(sql);
	free(arr);
	if (!res)
		return -1;
	n = PQntuples(res);
	/* the rows come by key: the keys are the changes of the first column */
	for (i = 0, m = 0; i < n; i++)
		m += !i || strcmp(PQgetvalue(res, i - 1, 0), PQgetvalue(res, i, 0));
	if (alloc_series(s, m, nr))
		goto nomem;
	for (i = 0; i < n; i++) {
		const char *k = PQgetvalue(res, i, 0);
		long r = idx_of(ids, nr, strtoll(PQgetvalue(res, i, 1), NULL, 10));
		size_t cell;

		if (!s->nr_keys || strcmp(s->keys[s->nr_keys - 1], k)) {
			s->keys[s->nr_keys] = strdup(k);
			if (!s->keys[s->nr_keys++])
				goto nomem;
		}
		if (r < 0)
			continue;
		cell = (s->nr_keys - 1) * nr + r;
		s->has[cell] = 1;
		for (m = 0; m < KMA_FLEET_NR_METRICS; m++)
			s->v[m][cell] = strtoll(PQgetvalue(res, i, 2 + m), NULL, 10);
	}
	PQclear(res);
	return 0;
nomem:
	PQclear(res);
	kma_fleet_series_free(s);
	return kma_err_nomem(e);
}
