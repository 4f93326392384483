// SPDX-License-Identifier: GPL-2.0
/*
 * kma-fleet-diff.c - a fleet store run as a kma-diff operand (kma-fleet-diff.h):
 * the selectors pick exactly one run, then the same numbers kma-diff-load.c
 * reads from a report.db, from the run's rows of kma_fleet (kma-fleet(5)):
 * callers, caches and run_stacks for the whole run, the allocations (pushed
 * with --allocations) when a filter or a generation narrows it, counted per
 * group in SQL and each group judged by kma-select as kma-diff-scope.c does.
 * Every value is a parameter; the SQL is constant text.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-fleet-int.h"
#include "kma-fleet-select.h"
#include "kma-strpool.h"
#include "match/kma-match.h"
#include "match/kma-select.h"
#include "kma-fleet-diff.h"

struct pg {
	struct kma_fleet	*f;
	char			run[24];	/* the run's id, as the parameter $1 */
	struct kma_err		*why;
};

/* Per key: total, slack, net, allocs, frees, as kma-diff-load.c's group_sql. */
static const char *group_sql(enum kma_group g)
{
	switch (g) {
	case KMA_GROUP_CALLER:
		return "SELECT caller, SUM(total), SUM(slack), SUM(net), SUM(allocs), SUM(frees) "
		       "FROM kma_fleet.callers WHERE run_id = $1 AND allocs > 0 GROUP BY 1";
	case KMA_GROUP_FUNCTION:
		return "SELECT COALESCE(symbol, caller), SUM(total), SUM(slack), SUM(net), "
		       "SUM(allocs), SUM(frees) FROM kma_fleet.callers WHERE run_id = $1 AND "
		       "allocs > 0 GROUP BY 1";
	case KMA_GROUP_MODULE:
		return "SELECT CASE WHEN module IS NOT NULL THEN module WHEN symbol IS NOT NULL "
		       "THEN 'vmlinux' ELSE '[unknown]' END, SUM(total), SUM(slack), SUM(net), "
		       "SUM(allocs), SUM(frees) FROM kma_fleet.callers WHERE run_id = $1 AND "
		       "allocs > 0 GROUP BY 1";
	case KMA_GROUP_CACHE:
		return "SELECT cache, total, slack, net, allocs, frees FROM kma_fleet.caches "
		       "WHERE run_id = $1";
	case KMA_GROUP_STACK:
		return "SELECT COALESCE(s.folded, '[no stack]'), SUM(r.total), SUM(r.slack), "
		       "SUM(r.net), SUM(r.allocs), SUM(r.frees) FROM kma_fleet.run_stacks AS r "
		       "LEFT JOIN kma_fleet.stacks AS s USING (stack_key) WHERE r.run_id = $1 "
		       "GROUP BY 1";
	default:
		return NULL;
	}
}

/* A count the store holds: 0 to KMA_DIFF_MAX, else -1. */
static int count(const char *s, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end || *v > KMA_DIFF_MAX ? -1 : 0;
}

static PGresult *query(struct pg *p, const char *sql, int n, const char *const *prm)
{
	return kma_fleet_query(p->f, sql, n, prm, PGRES_TUPLES_OK, p->why);
}

static int bad_number(struct pg *p, int m)
{
	return kma_err_set(p->why, KMA_ERR_OTHER, "run %s: a %s that is no count of 0 to "
			   "2^63 - 1 (a store kma-push did not write)", p->run,
			   m < KMA_DIFF_NR ? kma_diff_metric_name(m) : "number");
}

/* The rows of @res (key, then the five numbers) into t's keys; 0 or -1. */
static int add_rows(struct pg *p, PGresult *res, struct kma_diff_table *t)
{
	uint64_t v[KMA_DIFF_NR];
	int i, m;

	for (i = 0; i < PQntuples(res); i++) {
		const char *key = PQgetisnull(res, i, 0) ? "[unknown]" : PQgetvalue(res, i, 0);

		for (m = 0; m < KMA_DIFF_NR; m++)
			if (count(PQgetvalue(res, i, m + 1), &v[m]))
				return bad_number(p, m);
		if (kma_diff_table_add(t, key, v))
			return kma_err_nomem(p->why);
	}
	return 0;
}

/*
 * The run's facts: its sums (summary: frees are every free event), length,
 * whether it has kmem events, stacks and allocation rows.
 */
enum { F_TOTAL, F_SLACK, F_NET, F_ALLOCS, F_FREES, F_DURATION, F_EVENTS, F_STACKS, F_ROWS };

static PGresult *run_facts(struct pg *p)
{
	const char *prm[1] = { p->run };

	return query(p, "SELECT total, slack, net, allocs, frees, GREATEST(duration_ns, 0), "
		     "COALESCE(allocs, 0) + COALESCE(failed_allocs, 0) + COALESCE(frees, 0) > 0, "
		     "EXISTS (SELECT 1 FROM kma_fleet.run_stacks WHERE run_id = $1 AND "
		     "stack_key IS NOT NULL), allocations "
		     "FROM kma_fleet.runs WHERE run_id = $1", 1, prm);
}

/* The checks of kma-diff-load.c's check_db, on the run's row. */
static int check_run(struct pg *p, PGresult *res, enum kma_group g, struct kma_diff_table *t)
{
	uint64_t dur = 0;

	if (PQntuples(res) != 1)
		return kma_err_set(p->why, KMA_ERR_OTHER, "run %s vanished", p->run);
	if (*PQgetvalue(res, 0, F_EVENTS) != 't')
		return kma_err_set(p->why, KMA_ERR_OTHER, "run %s: no kmem allocation or free "
				   "events in the trace", p->run);
	if (!PQgetisnull(res, 0, F_DURATION) && count(PQgetvalue(res, 0, F_DURATION), &dur))
		return bad_number(p, KMA_DIFF_NR);
	t->duration_ns = dur;
	if (g == KMA_GROUP_STACK && *PQgetvalue(res, 0, F_STACKS) != 't')
		return kma_err_set(p->why, KMA_ERR_OTHER, "run %s: no call stacks (record with "
				   "trace-cmd record -T or kma-record --stacks) for -g stack",
				   p->run);
	return 0;
}

/* The whole run: the summary from runs, the keys from the per-run tables. */
static int load_whole(struct pg *p, PGresult *facts, enum kma_group g, struct kma_diff_table *t)
{
	const char *prm[1] = { p->run };
	PGresult *res;
	int m, r;

	for (m = 0; m < KMA_DIFF_NR; m++)
		if (count(PQgetvalue(facts, 0, F_TOTAL + m), &t->sum[m]))
			return bad_number(p, m);
	res = query(p, group_sql(g), 1, prm);
	if (!res)
		return -1;
	r = add_rows(p, res, t);
	PQclear(res);
	return r;
}

/*
 * The words after '#', split at commas and blanks; a piece of digits only
 * continues the word before it (run=12,14). -1 and why on a word that is no
 * selector, or none at all.
 */
static int parse_sel(const char *words, struct kma_fleet_sel *s, struct kma_err *why)
{
	char *buf = strdup(words), *w, *save = NULL, *cur = NULL;
	size_t n = 0;
	int r = 0;

	if (!buf)
		return kma_err_nomem(why);
	for (w = strtok_r(buf, ", \t", &save); w && !r; w = strtok_r(NULL, ", \t", &save)) {
		if (cur && w == cur + strlen(cur) + 1 && w[strspn(w, "0123456789")] == '\0') {
			cur[strlen(cur)] = ',';	/* the comma strtok_r cut */
			continue;
		}
		if (cur)
			r = kma_fleet_sel_add(s, cur, why);
		cur = w;
		n++;
	}
	if (!r && cur)
		r = kma_fleet_sel_add(s, cur, why);
	if (!r && !n)
		r = kma_err_set(why, KMA_ERR_OTHER, "no run selector after '#' (run=ID, host=H, "
				"kernel=R, label:K=V, since=, until=, last=N, latest)");
	free(buf);
	return r ? -1 : 0;
}

/*
 * One row per group of the run's allocations in scope ($2: the generation, or
 * -1), as kma-diff-scope.c's groups_sql: the call site and its names (from
 * the run's callers), the sizes, the kmalloc family, the cache, the stack, the
 * task (comm in hex: bytes, not text), then allocations, those still live and
 * those closed by a traced free.
 */
static const char groups_sql[] =
	"SELECT a.caller, c.address, c.symbol, c.module, a.bytes_alloc, a.bytes_req, "
	"a.kmalloc_type, a.cache, s.folded, a.pid, encode(a.comm, 'hex'), COUNT(*), "
	"COUNT(*) FILTER (WHERE a.free_ts IS NULL), "
	"COUNT(*) FILTER (WHERE a.free_kind IN ('kfree', 'kmem_cache_free')) "
	"FROM kma_fleet.allocations AS a LEFT JOIN (SELECT DISTINCT ON (caller) caller, "
	"address, symbol, module FROM kma_fleet.callers WHERE run_id = $1 "
	"ORDER BY caller, address) AS c ON c.caller = a.caller "
	"LEFT JOIN kma_fleet.stacks AS s ON s.stack_key = a.stack_key "
	"WHERE a.run_id = $1 AND a.kind = 'slab' AND ($2::bigint < 0 OR a.generation = $2::bigint) "
	"GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11";

enum { G_CALLER, G_ADDRESS, G_SYMBOL, G_MODULE, G_BYTES_ALLOC, G_BYTES_REQ, G_KTYPE,
       G_CACHE, G_FOLDED, G_PID, G_COMM, G_ALLOCS, G_LIVE, G_FREES };

static const char *col(PGresult *res, int i, int c)
{
	return PQgetisnull(res, i, c) ? NULL : PQgetvalue(res, i, c);
}

static const char *current_name(void *ctx, uint64_t addr)
{
	(void)addr;
	return ctx;
}

static int comm_of(PGresult *res, int i, struct kma_strpool *pool, const char **out)
{
	return kma_fleet_comm_of(col(res, i, G_COMM), pool, out);
}

/* Does the filter keep row i's group? As kma-diff-scope.c's judge(). -1: no memory. */
static int judge(struct kma_select *sel, struct kma_strpool *pool, PGresult *res, int i)
{
	const char *caller = col(res, i, G_CALLER), *addr = col(res, i, G_ADDRESS);
	const char *cache = col(res, i, G_CACHE);
	struct kma_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.call_site = addr ? strtoull(addr, NULL, 16) : 0;
	ev.pid = atoi(PQgetvalue(res, i, G_PID));
	ev.bytes_alloc = strtoull(PQgetvalue(res, i, G_BYTES_ALLOC), NULL, 10);
	ev.kmalloc_type = col(res, i, G_KTYPE) ? atoi(col(res, i, G_KTYPE)) : 0;
	if (comm_of(res, i, pool, &ev.comm))
		return -1;
	ev.cache = cache ? kma_strpool_intern(pool, cache, strlen(cache)) : NULL;
	if (cache && !ev.cache)
		return -1;
	kma_select_set_resolve(sel, current_name, (void *)(caller ? caller : ""));
	return !(kma_select_event(sel, &ev) & KMA_SEL_OUT);
}

static const char *group_key(PGresult *res, int i, enum kma_group g, char *buf, size_t len)
{
	const char *s;

	switch (g) {
	case KMA_GROUP_FUNCTION:
		s = col(res, i, G_SYMBOL);
		return s ? s : col(res, i, G_CALLER);
	case KMA_GROUP_MODULE:
		s = col(res, i, G_MODULE);
		return s ? s : col(res, i, G_SYMBOL) ? "vmlinux" : "[unknown]";
	case KMA_GROUP_CACHE:
		s = col(res, i, G_CACHE);
		if (s)
			return s;
		s = col(res, i, G_KTYPE);
		kma_kmalloc_cache(buf, len, s ? atoi(s) : 0,
				  strtoull(PQgetvalue(res, i, G_BYTES_ALLOC), NULL, 10));
		return buf;
	case KMA_GROUP_STACK:
		s = col(res, i, G_FOLDED);
		return s ? s : "[no stack]";
	default:
		return col(res, i, G_CALLER);
	}
}

/* Row i's numbers, as kma-diff-scope.c's group_values; -1 out of range. */
static int group_values(PGresult *res, int i, uint64_t v[KMA_DIFF_NR])
{
	uint64_t ba, br, n, live, frees, r[3];

	if (count(PQgetvalue(res, i, G_BYTES_ALLOC), &ba) ||
	    count(PQgetvalue(res, i, G_BYTES_REQ), &br) || count(PQgetvalue(res, i, G_ALLOCS), &n) ||
	    count(PQgetvalue(res, i, G_LIVE), &live) || count(PQgetvalue(res, i, G_FREES), &frees) ||
	    live > n)
		return -1;
	if (__builtin_mul_overflow(n, ba, &r[0]) ||
	    __builtin_mul_overflow(n, ba > br ? ba - br : 0, &r[1]) ||
	    __builtin_mul_overflow(live, ba, &r[2]) || r[0] > KMA_DIFF_MAX ||
	    r[1] > KMA_DIFF_MAX || r[2] > KMA_DIFF_MAX)
		return -1;
	v[KMA_DIFF_TOTAL] = r[0];
	v[KMA_DIFF_SLACK] = r[1];
	v[KMA_DIFF_NET] = r[2];
	v[KMA_DIFF_ALLOCS] = n;
	v[KMA_DIFF_FREES] = frees;
	return 0;
}

static int add_groups(struct pg *p, PGresult *res, const struct kma_diff_scope *sc,
		      enum kma_group g, struct kma_diff_table *t)
{
	struct kma_strpool *pool = kma_strpool_alloc();
	uint64_t v[KMA_DIFF_NR];
	char buf[32];
	int i, m, keep = 1, err = pool ? 0 : kma_err_nomem(p->why);

	for (i = 0; i < PQntuples(res) && !err; i++) {
		if (sc->select && kma_select_active(sc->select))
			keep = judge(sc->select, pool, res, i);
		if (keep < 0)
			err = kma_err_nomem(p->why);
		if (keep <= 0)
			continue;
		if (group_values(res, i, v))
			err = bad_number(p, KMA_DIFF_NR);
		for (m = 0; m < KMA_DIFF_NR && !err; m++) {
			if (v[m] > KMA_DIFF_MAX - t->sum[m])
				err = bad_number(p, m);
			else
				t->sum[m] += v[m];
		}
		if (!err && kma_diff_table_add(t, group_key(res, i, g, buf, sizeof(buf)), v))
			err = kma_err_nomem(p->why);
	}
	kma_strpool_free(pool);
	return err;
}

static int load_scope(struct pg *p, PGresult *facts, enum kma_group g,
		      const struct kma_diff_scope *sc, struct kma_diff_table *t)
{
	char gen[24];
	const char *prm[2] = { p->run, gen };
	PGresult *res;
	int r;

	if (*PQgetvalue(facts, 0, F_ROWS) != 't')
		return kma_err_set(p->why, KMA_ERR_OTHER, "run %s was pushed without "
				   "--allocations, so no %s (push it again with --allocations "
				   "--replace)", p->run,
				   sc->select && kma_select_active(sc->select) ? "filter" :
				   "--generation");
	if (sc->generation && kma_fleet_find_generation(p->f, p->run, sc->generation, t, p->why))
		return -1;
	snprintf(gen, sizeof(gen), "%lld", sc->generation ? (long long)t->generation : -1LL);
	res = query(p, groups_sql, 2, prm);
	if (!res)
		return -1;
	r = add_groups(p, res, sc, g, t);
	PQclear(res);
	return r;
}

/* The one run @s selects into p->run; -1 and why when none or several do. */
static int one_run(struct pg *p, const struct kma_fleet_sel *s, const char *words)
{
	long long *ids = NULL;
	size_t nr = 0;

	if (kma_fleet_check(p->f, p->why) || kma_fleet_select(p->f, s, &ids, &nr, p->why))
		return -1;
	if (nr == 1)
		snprintf(p->run, sizeof(p->run), "%lld", ids[0]);
	else if (!nr)
		kma_err_set(p->why, KMA_ERR_OTHER, "no run matches '%s'", words);
	else
		kma_err_set(p->why, KMA_ERR_OTHER, "%zu runs match '%s', one is needed "
			    "(add selectors, or latest)", nr, words);
	free(ids);
	return nr == 1 ? 0 : -1;
}

/* The store's errors start with the server, which @name holds by now: dropped. */
static void unlead(struct kma_err *why, const char *server)
{
	size_t n = strlen(server);

	if (!strncmp(why->msg, server, n) && !strncmp(why->msg + n, ": ", 2))
		memmove(why->msg, why->msg + n + 2, strlen(why->msg + n + 2) + 1);
}

int kma_diff_load_pg(const char *spec, const char *kind, int g,
		     const struct kma_diff_scope *scope, struct kma_diff_table *t, char *name,
		     size_t name_len, struct kma_err *why)
{
	const char *hash = strchr(spec, '#'), *words = hash ? hash + 1 : "";
	struct pg p = { .why = why };
	struct kma_fleet_sel s;
	PGresult *facts = NULL;
	char *conninfo;
	int r = -1;

	snprintf(name, name_len, KMA_DIFF_PG_PREFIX "#%s", words);
	if (!hash)
		return kma_err_set(why, KMA_ERR_OTHER, "no '#' and run selectors after the "
				   "connection string (pg:CONNINFO#run=ID)") - 1;
	kma_fleet_sel_init(&s);
	if (parse_sel(words, &s, why)) {
		kma_fleet_sel_free(&s);
		return -2;
	}
	conninfo = strndup(spec, hash - spec);
	if (!conninfo) {
		kma_fleet_sel_free(&s);
		return kma_err_nomem(why);
	}
	p.f = kma_fleet_connect(conninfo, why);
	free(conninfo);
	if (!p.f)
		goto out;
	snprintf(name, name_len, KMA_DIFF_PG_PREFIX "%s#%s", kma_fleet_server(p.f), words);
	if (one_run(&p, &s, words))
		goto out;
	if (kind) {
		r = kma_fleet_diff_kind(p.f, p.run, kind, g, scope, t, why);
		goto out;
	}
	facts = run_facts(&p);
	if (!facts || check_run(&p, facts, g, t))
		goto out;
	if (scope && (scope->generation || (scope->select && kma_select_active(scope->select))))
		r = load_scope(&p, facts, g, scope, t);
	else
		r = load_whole(&p, facts, g, t);
out:
	PQclear(facts);
	if (r && p.f)
		unlead(why, kma_fleet_server(p.f));
	kma_fleet_close(p.f);
	kma_fleet_sel_free(&s);
	return r;
}
