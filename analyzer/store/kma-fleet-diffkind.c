// SPDX-License-Identifier: GPL-2.0
/*
 * kma-fleet-diffkind.c - a fleet store run as a kma-diff --kind page, percpu
 * or vmalloc operand (kma-fleet-diff.h): the numbers kma-diff-load.c and
 * kma-diff-page.c read from a report.db, from the run's rows of kma_fleet
 * (kma-fleet(5)).
 *
 * The whole run by caller or function: kind_callers, whose rows are those of
 * report.db's kind_callers (page: summed per caller function, frees with the
 * implicit ones, as kma-diff-page.c counts them). A filter, a generation,
 * and the keys kind_callers has not (-g stack; the page allocator's comm,
 * pid, generation) read the kind's allocation rows, which need a run pushed
 * with --allocations, counted per group in SQL and each group judged by
 * kma-select as kma-diff-load.c's kind_keep does; the page allocator's
 * order, migrate type, gfp flag names and folded stack are columns of its
 * rows (schema version 4: a run pushed before has them NULL and is refused
 * for those keys). -g module of percpu and vmalloc reads kind_callers.module
 * (schema version 5), named as kma-diff-load.c names report.db's: a run
 * whose modules are unknown (runs.kind_modules not true: pushed before
 * version 5, or from a report.db that predates the column) is refused. Every
 * value is a parameter.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-fleet-int.h"
#include "kma-strpool.h"
#include "match/kma-match.h"
#include "match/kma-pagealloc.h"
#include "match/kma-select.h"
#include "kma-fleet-diff.h"
#include "kma-diff-int.h"

struct kd {
	struct kma_fleet	*f;
	const char		*run, *kind;
	int			page, g;
	int			narrowed;	/* by a filter or a generation */
	struct kma_err		*why;
	const char		*needs;	/* what wants the allocation rows */
	char			needs_buf[64];
};

/* Whole run, by caller: the kind_callers rows with allocations, as report.db's rows. */
static const char callers_sql[] =
	"SELECT caller, address, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, total, net, "
	"allocs, frees, module FROM kma_fleet.kind_callers WHERE run_id = $1 AND kind = $2 AND "
	"allocs > 0";

/* Whole run, by stack: the kind_stacks rows (schema version 4), in callers_sql's columns. */
static const char stacks_sql[] =
	"SELECT NULL, NULL, COALESCE(k.folded, s.folded), 0, NULL, NULL, NULL, NULL, NULL, NULL, "
	"k.total, k.net, k.allocs, k.frees, NULL FROM kma_fleet.kind_stacks AS k "
	"LEFT JOIN kma_fleet.stacks AS s ON s.stack_key = k.stack_key "
	"WHERE k.run_id = $1 AND k.kind = $2 AND k.allocs > 0";

/*
 * One row per group of the kind's allocations in generation $3 (-1: all):
 * the columns of callers_sql. Closed by a traced free: free_kind other than
 * 'implicit' (page: any free_kind, as its frees count). A row's caller is
 * its name alone: its address and module those of a call site of that name
 * (for -g module, check_module() refuses a run where two modules share one).
 */
static const char rows_sql[] =
	"SELECT a.caller, c.address, COALESCE(a.page_stack, s.folded), a.pid, "
	"encode(a.comm, 'hex'), a.generation, a.page_order, a.migratetype, a.gfp, a.gfp_flags, "
	"SUM(a.bytes_alloc), COALESCE(SUM(a.bytes_alloc) FILTER (WHERE a.free_kind IS NULL), 0), "
	"COUNT(*), COUNT(*) FILTER (WHERE a.free_kind IS NOT NULL AND "
	"(a.kind = 'page' OR a.free_kind <> 'implicit')), MIN(c.module) "
	"FROM kma_fleet.allocations AS a LEFT JOIN (SELECT DISTINCT ON (caller) caller, address, "
	"module "
	"FROM kma_fleet.kind_callers WHERE run_id = $1 AND kind = $2 ORDER BY caller, address) "
	"AS c ON c.caller = a.caller LEFT JOIN kma_fleet.stacks AS s ON s.stack_key = a.stack_key "
	"WHERE a.run_id = $1 AND a.kind = $2 AND ($3::bigint < 0 OR a.generation = $3::bigint) "
	"GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10";

enum { K_CALLER, K_ADDRESS, K_FOLDED, K_PID, K_COMM, K_GEN, K_ORDER, K_MIGRATE, K_GFP,
	K_GFP_FLAGS, K_TOTAL, K_MODULE = K_TOTAL + 4 };

static const char *col(PGresult *res, int i, int c)
{
	return PQgetisnull(res, i, c) ? NULL : PQgetvalue(res, i, c);
}

/* A count the store holds: 0 to KMA_DIFF_MAX, else -1. */
static int count(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	*v = strtoull(s, &end, 10);
	return *end || *v > KMA_DIFF_MAX ? -1 : 0;
}

/* comm's hex back into its bytes, interned; NULL stays NULL. -1 on out of memory. */
static int comm_of(PGresult *res, int i, struct kma_strpool *pool, const char **out)
{
	return kma_fleet_comm_of(col(res, i, K_COMM), pool, out);
}

static const char *site_name(void *ctx, uint64_t addr)
{
	(void)addr;
	return ctx;
}

/*
 * Does the filter keep row i (its caller, pid and comm)? As kma-diff-load.c's
 * kind_keep: a caller without an address (a page's function) is its interned
 * name. -1 on out of memory.
 */
static int keep(struct kma_select *sel, struct kma_strpool *pool, PGresult *res, int i)
{
	const char *caller = col(res, i, K_CALLER), *addr = col(res, i, K_ADDRESS);
	struct kma_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.call_site = addr ? strtoull(addr, NULL, 16) : 0;
	if (!addr) {
		caller = kma_strpool_intern(pool, caller ? caller : "[no stack]",
					    strlen(caller ? caller : "[no stack]"));
		if (!caller)
			return -1;
		ev.call_site = (uintptr_t)caller;
	}
	ev.pid = atoi(PQgetvalue(res, i, K_PID));
	if (comm_of(res, i, pool, &ev.comm))
		return -1;
	kma_select_set_resolve(sel, site_name, (void *)(caller ? caller : ""));
	return !(kma_select_event(sel, &ev) & KMA_SEL_OUT);
}

/* A page key the store has from schema version 4 on: order, migrate, gfp, stack. */
static int page_v4_key(const struct kd *k)
{
	return k->page && (k->g == KMA_PG_ORDER || k->g == KMA_PG_MIGRATE || k->g == KMA_PG_GFP ||
			   k->g == KMA_PG_STACK);
}

/*
 * Row i's page key for order, migrate, gfp and stack, as kma-diff-page.c's
 * page_key names it: a migrate type by name, '-' when the event has none,
 * else its number; gfp flags by the kernel's names, their number without.
 */
static const char *page_key(struct kd *k, PGresult *res, int i, char *buf, size_t len)
{
	const char *s;
	long long n;

	switch (k->g) {
	case KMA_PG_STACK:
		s = col(res, i, K_FOLDED);
		return s ? s : "[no stack]";
	case KMA_PG_MIGRATE:
		n = strtoll(PQgetvalue(res, i, K_MIGRATE), NULL, 10);
		return kma_diff_page_name(k->g, n, NULL, buf, len);
	case KMA_PG_GFP:
		n = strtoll(PQgetvalue(res, i, K_GFP_FLAGS), NULL, 10);
		return kma_diff_page_name(k->g, n, col(res, i, K_GFP), buf, len);
	default:
		n = strtoll(PQgetvalue(res, i, K_ORDER), NULL, 10);
		return kma_diff_page_name(k->g, n, NULL, buf, len);
	}
}

/* Row i's key, as kma-diff-load.c's kind_key and kma-diff-page.c's page_key name it. */
static const char *key_of(struct kd *k, PGresult *res, int i, struct kma_strpool *pool,
			  char *buf, size_t len)
{
	const char *s = col(res, i, K_CALLER), *plus;

	if (page_v4_key(k))
		return page_key(k, res, i, buf, len);
	if (k->page && (k->g == KMA_PG_PID || k->g == KMA_PG_GENERATION)) {
		snprintf(buf, len, "%s", PQgetvalue(res, i, k->g == KMA_PG_PID ? K_PID : K_GEN));
		return buf;
	}
	if (k->page && k->g == KMA_PG_COMM)
		return comm_of(res, i, pool, &s) ? NULL : s ? s : "0";
	if (!k->page && k->g == KMA_GROUP_STACK) {
		s = col(res, i, K_FOLDED);
		return s ? s : "[no stack]";
	}
	if (!k->page && k->g == KMA_GROUP_MODULE)
		return kma_diff_module_name(col(res, i, K_MODULE), s);
	if (!s)
		return "[unknown]";
	plus = !k->page && k->g == KMA_GROUP_FUNCTION ? strstr(s, "+0x") : NULL;
	if (!plus || (size_t)(plus - s) >= len)
		return s;
	memcpy(buf, s, (size_t)(plus - s));
	buf[plus - s] = '\0';
	return buf;
}

/* Every row of res that sel keeps (NULL: all) into t: its key's entry and the sums. */
static int add_rows(struct kd *k, PGresult *res, struct kma_select *sel, struct kma_diff_table *t)
{
	struct kma_strpool *pool = kma_strpool_alloc();
	uint64_t v[KMA_DIFF_NR] = { 0 };	/* the kinds beside slab have no slack */
	static const int m_of[4] = { KMA_DIFF_TOTAL, KMA_DIFF_NET, KMA_DIFF_ALLOCS, KMA_DIFF_FREES };
	const char *key;
	char buf[512];
	int i, m, kept = 1, err = pool ? 0 : kma_err_nomem(k->why);

	for (i = 0; i < PQntuples(res) && !err; i++) {
		if (sel && (kept = keep(sel, pool, res, i)) < 0)
			err = kma_err_nomem(k->why);
		if (kept <= 0)
			continue;
		for (m = 0; m < 4 && !err; m++)
			if (count(col(res, i, K_TOTAL + m), &v[m_of[m]]) ||
			    v[m_of[m]] > KMA_DIFF_MAX - t->sum[m_of[m]])
				err = kma_err_set(k->why, KMA_ERR_OTHER, "run %s: a %s that is no "
						  "count of 0 to 2^63 - 1 (a store kma-push did "
						  "not write)", k->run,
						  kma_diff_metric_name(m_of[m]));
		if (err)
			break;
		for (m = 0; m < KMA_DIFF_NR; m++)
			t->sum[m] += v[m];
		key = key_of(k, res, i, pool, buf, sizeof(buf));
		if (!key || kma_diff_table_add(t, key, v))
			err = kma_err_nomem(k->why);
	}
	kma_strpool_free(pool);
	return err;
}

/* Generation @gen of the run, as kma-diff-scope.c's find_generation (every kind's). */
int kma_fleet_find_generation(struct kma_fleet *f, const char *run, const char *gen,
			      struct kma_diff_table *t, struct kma_err *why)
{
	const char *prm[1] = { run };
	char list[sizeof(why->msg)], *end;
	long long n = strtoll(gen, &end, 10);
	int by_number = *gen && !*end && n >= 0, i;
	size_t at, len = sizeof(list);
	PGresult *res;

	res = kma_fleet_query(f, "SELECT g.generation, g.label, COALESCE((SELECT MIN(h.ts) "
			      "FROM kma_fleet.generations AS h WHERE h.run_id = $1 AND "
			      "h.generation > g.generation), r.start_ns + r.duration_ns) - g.ts "
			      "FROM kma_fleet.generations AS g, kma_fleet.runs AS r WHERE "
			      "g.run_id = $1 AND r.run_id = $1 ORDER BY g.generation", 1, prm,
			      PGRES_TUPLES_OK, why);
	if (!res)
		return -1;
	at = (size_t)snprintf(list, len, "run %s: no generation '%s' in the trace; it has:",
			      run, gen);
	for (i = 0; i < PQntuples(res); i++) {
		long long id = atoll(PQgetvalue(res, i, 0)), dur = atoll(PQgetvalue(res, i, 2));
		const char *label = col(res, i, 1);

		if (by_number ? id == n : id > 0 && label && !strcmp(label, gen)) {
			t->generation = id;
			t->gen_label = strdup(label ? label : "");
			t->duration_ns = dur > 0 ? (uint64_t)dur : 0;
			PQclear(res);
			return t->gen_label ? 0 : kma_err_nomem(why);
		}
		if (at < len)
			at += (size_t)snprintf(list + at, len - at, "%s %lld %s", i ? "," : "", id,
					       label ? label : "");
	}
	PQclear(res);
	return kma_err_set(why, KMA_ERR_OTHER, "%s", list);
}

/* Why the store cannot give key g of this kind, or NULL when it can. */
static const char *refused(const struct kd *k)
{
	if (k->page)
		return NULL;
	return k->g == KMA_GROUP_CACHE ? "the allocator has no caches" : NULL;
}

/* The columns of check_sql. */
enum { C_KIND, C_DURATION, C_ALLOCATIONS, C_STACKS, C_PAGE_STACKS, C_OLD_PAGE, C_KIND_STACKS,
	C_MODULES, C_SHARED };

/*
 * Has the run the kind's rows; its duration; was it pushed with
 * --allocations; any stack (report.db's check for -g stack: a stack of any
 * allocation); a page allocation with a stack (page_trace.stacks); a page row
 * pushed before version 4 (no order); kind_stacks rows (its partition);
 * runs.kind_modules; a caller name of the kind at call sites in two modules.
 */
static const char check_sql[] =
	"SELECT EXISTS (SELECT 1 FROM kma_fleet.kind_totals WHERE run_id = $1 AND kind = $2), "
	"GREATEST(duration_ns, 0), allocations, "
	"EXISTS (SELECT 1 FROM kma_fleet.run_stacks WHERE run_id = $1 AND stack_key IS NOT NULL) "
	"OR EXISTS (SELECT 1 FROM kma_fleet.allocations WHERE run_id = $1 AND "
	"stack_key IS NOT NULL) OR EXISTS (SELECT 1 FROM kma_fleet.kind_stacks WHERE "
	"run_id = $1 AND stack_key IS NOT NULL), "
	"EXISTS (SELECT 1 FROM kma_fleet.kind_stacks WHERE run_id = $1 AND kind = 'page' AND "
	"folded IS NOT NULL) OR EXISTS (SELECT 1 FROM kma_fleet.allocations WHERE run_id = $1 "
	"AND kind = 'page' AND page_stack IS NOT NULL), "
	"EXISTS (SELECT 1 FROM kma_fleet.allocations WHERE run_id = $1 AND kind = 'page' AND "
	"page_order IS NULL), "
	"to_regclass(format('kma_fleet.%I', 'kind_stacks_r' || $1)) IS NOT NULL, kind_modules, "
	"EXISTS (SELECT 1 FROM kma_fleet.kind_callers WHERE run_id = $1 AND kind = $2 "
	"GROUP BY caller HAVING COUNT(DISTINCT COALESCE(module, '')) > 1) "
	"FROM kma_fleet.runs WHERE run_id = $1";

/* Column c of check_sql's row is true. */
static int yes(PGresult *res, int c)
{
	return *PQgetvalue(res, 0, c) == 't';
}

/*
 * -g module of percpu or vmalloc: the run's modules are known (kma-push set
 * runs.kind_modules: NULL before schema version 5, false from a report.db
 * without kind_callers.module, whose NULLs would read as vmlinux), and
 * unless @agg each caller name is one module's. 0, or -1 with why.
 */
static int check_module(struct kd *k, PGresult *res, int agg)
{
	if (PQgetisnull(res, 0, C_MODULES))
		return kma_err_set(k->why, KMA_ERR_OTHER, "run %s was pushed by a kma-push before "
				   "fleet schema version 5, which kept no module of the %s callers "
				   "(push it again with --replace)", k->run, k->kind);
	if (!yes(res, C_MODULES))
		return kma_err_set(k->why, KMA_ERR_OTHER, "run %s was pushed from a report.db "
				   "written before kind_callers had the callers' module, so no -g "
				   "module of the %s callers (analyze the trace again and push it "
				   "with --replace)", k->run, k->kind);
	if (!agg && yes(res, C_SHARED))
		return kma_err_set(k->why, KMA_ERR_OTHER, "run %s: call sites in different "
				   "modules share a %s caller name, which its allocation rows keep "
				   "alone: no -g module with a filter or --generation", k->run,
				   k->kind);
	return 0;
}

/*
 * The run has the kind's rows, its allocations unless @whole, and stacks
 * for -g stack; its length into t. *@by_stack: the run has kind_stacks.
 */
static int check(struct kd *k, struct kma_diff_table *t, int whole, int *by_stack)
{
	const char *prm[2] = { k->run, k->kind };
	PGresult *res;
	int ok, agg, stack = k->page ? k->g == KMA_PG_STACK : k->g == KMA_GROUP_STACK;

	res = kma_fleet_query(k->f, check_sql, 2, prm, PGRES_TUPLES_OK, k->why);
	if (!res)
		return -1;
	ok = PQntuples(res) == 1;
	*by_stack = ok && yes(res, C_KIND_STACKS);
	/* what the run's sums give: no allocation rows needed */
	agg = whole || (stack && *by_stack && !k->narrowed);
	if (!ok)
		kma_err_set(k->why, KMA_ERR_OTHER, "run %s vanished", k->run);
	else if (!yes(res, C_KIND))
		ok = !kma_err_set(k->why, KMA_ERR_OTHER, k->page ? "run %s: no page allocator "
				  "rows (pushed from a report.db written without --pages)" :
				  "run %s: no %s allocations or frees in the trace", k->run, k->kind);
	else if (!agg && !yes(res, C_ALLOCATIONS))
		ok = !kma_err_set(k->why, KMA_ERR_OTHER, "run %s was pushed without --allocations, "
				  "so no %s (push it again with --allocations --replace)", k->run,
				  k->needs);
	else if (page_v4_key(k) && !agg && yes(res, C_OLD_PAGE))
		ok = !kma_err_set(k->why, KMA_ERR_OTHER, "run %s was pushed by a kma-push before "
				  "fleet schema version 4, which kept no page %s (push it again "
				  "with --replace)", k->run, kma_page_group_name(k->g));
	else if (k->page && stack && !yes(res, C_PAGE_STACKS))
		ok = !kma_err_set(k->why, KMA_ERR_OTHER, "run %s: no call stacks on its page "
				  "allocations (record with trace-cmd record -T or kma-record "
				  "--stacks) for -g stack", k->run);
	else if (!k->page && stack && !yes(res, C_STACKS))
		ok = !kma_err_set(k->why, KMA_ERR_OTHER, "run %s: no call stacks (record with "
				  "trace-cmd record -T or kma-record --stacks) for -g stack",
				  k->run);
	if (ok && !k->page && k->g == KMA_GROUP_MODULE && check_module(k, res, agg))
		ok = 0;
	if (ok)
		t->duration_ns = PQgetisnull(res, 0, C_DURATION) ? 0 :
				 strtoull(PQgetvalue(res, 0, C_DURATION), NULL, 10);
	PQclear(res);
	return ok ? 0 : -1;
}

int kma_fleet_diff_kind(struct kma_fleet *f, const char *run, const char *kind, int g,
			const struct kma_diff_scope *sc, struct kma_diff_table *t,
			struct kma_err *why)
{
	struct kd k = { .f = f, .run = run, .kind = kind, .page = !strcmp(kind, "page"), .g = g,
			.why = why };
	struct kma_select *sel = sc && sc->select && kma_select_active(sc->select) ?
				 sc->select : NULL;
	int whole, stack, by_stack, r;
	const char *no = refused(&k), *prm[3] = { run, kind, NULL }, *sql;
	char gen[24];
	PGresult *res;

	if (no)
		return kma_err_set(why, KMA_ERR_OTHER, "run %s: -g %s: %s", run,
				   kma_group_name((enum kma_group)g), no);
	stack = k.page ? g == KMA_PG_STACK : g == KMA_GROUP_STACK;
	/* by caller or function from kind_callers, by stack from kind_stacks */
	k.narrowed = sel || (sc && sc->generation);
	whole = !k.narrowed && (k.page ? g == KMA_PG_FUNCTION : g != KMA_GROUP_STACK);
	if (k.narrowed) {
		k.needs = sel ? "filter" : "--generation";
	} else if (k.page) {
		snprintf(k.needs_buf, sizeof(k.needs_buf), "-g %s of the page allocator",
			 kma_page_group_name(g));
		k.needs = k.needs_buf;
	} else {
		k.needs = "-g stack";
	}
	if (check(&k, t, whole, &by_stack))
		return -1;
	if (sc && sc->generation && kma_fleet_find_generation(f, run, sc->generation, t, why))
		return -1;
	snprintf(gen, sizeof(gen), "%lld", sc && sc->generation ? (long long)t->generation : -1LL);
	prm[2] = gen;
	sql = whole ? callers_sql : rows_sql;
	if (!whole && stack && by_stack && !k.narrowed) {
		whole = 1;
		sql = stacks_sql;
	}
	res = kma_fleet_query(f, sql, whole ? 2 : 3, prm, PGRES_TUPLES_OK, why);
	if (!res)
		return -1;
	r = add_rows(&k, res, sel, t);
	PQclear(res);
	return r;
}
