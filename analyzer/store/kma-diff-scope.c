// SPDX-License-Identifier: GPL-2.0
/*
 * kma-diff-scope.c - a report.db's per-key numbers for kma-diff when a filter
 * (--comm, --pid, --caller, --cache, --exclude-self) or a generation narrows
 * them (kma-diff-load.h). report.db's summary tables hold the whole trace, so
 * the numbers are summed again from its allocation rows: counted per
 * (allocation shape, task) in SQL, each such group judged once by the same
 * kma-select rules kma-analyze's filters use, and added to its key.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "kma-err.h"
#include "kma-strpool.h"
#include "match/kma-match.h"
#include "match/kma-select.h"
#include "kma-diff-load.h"

/*
 * One row per (shape, task) of the allocations in scope: the call site, its
 * names, the sizes, the cache, the stack, the task, then allocations, those
 * still live and those closed by a traced free (callers.frees; an implicit free
 * is none).
 */
static const char groups_sql[] =
	"WITH n AS (SELECT shape_id, task_id, COUNT(*) AS allocs, SUM(life IS NULL) AS live, "
	"COUNT(CASE WHEN free_kind < 2 THEN 1 END) AS frees FROM alloc_rows "
	"WHERE ?1 < 0 OR generation = ?1 GROUP BY shape_id, task_id) "
	"SELECT c.caller, c.address, c.symbol, c.module, sh.bytes_alloc, sh.bytes_req, "
	"sh.kmalloc_type, k.name, s.folded, t.pid, t.comm, n.allocs, n.live, n.frees "
	"FROM n JOIN alloc_shapes AS sh ON sh.id = n.shape_id "
	"JOIN callers AS c ON c.id = sh.caller_id JOIN tasks AS t ON t.id = n.task_id "
	"LEFT JOIN caches AS k ON k.id = sh.cache_id LEFT JOIN stacks AS s ON s.id = sh.stack_id";

enum { G_CALLER, G_ADDRESS, G_SYMBOL, G_MODULE, G_BYTES_ALLOC, G_BYTES_REQ, G_KTYPE,
       G_CACHE, G_FOLDED, G_PID, G_COMM, G_ALLOCS, G_LIVE, G_FREES };

static const char *text_col(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

/* kma_resolve_fn for kma-select: the name of the group being judged (see judge()). */
static const char *current_name(void *ctx, uint64_t addr)
{
	(void)addr;
	return ctx;
}

/*
 * Does the filter keep the group of st's row? Each kind's verdict is cached by
 * kma-select per call site, comm pointer and cache pointer: comm and cache are
 * interned in pool, and a call site's address names one callers row, whose
 * name the resolver hands over. -1 on out of memory.
 */
static int judge(struct kma_select *sel, struct kma_strpool *pool, sqlite3_stmt *st)
{
	const char *caller = text_col(st, G_CALLER), *addr = text_col(st, G_ADDRESS);
	const char *comm = text_col(st, G_COMM), *cache = text_col(st, G_CACHE);
	struct kma_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.call_site = addr ? strtoull(addr, NULL, 16) : 0;
	ev.pid = sqlite3_column_int(st, G_PID);
	ev.bytes_alloc = (uint64_t)sqlite3_column_int64(st, G_BYTES_ALLOC);
	/* as allocation_caches: a kmalloc of no known family is the normal one */
	ev.kmalloc_type = sqlite3_column_int(st, G_KTYPE);
	ev.comm = comm ? kma_strpool_intern(pool, comm, strlen(comm)) : NULL;
	ev.cache = cache ? kma_strpool_intern(pool, cache, strlen(cache)) : NULL;
	if ((comm && !ev.comm) || (cache && !ev.cache))
		return -1;
	kma_select_set_resolve(sel, current_name, (void *)(caller ? caller : ""));
	return !(kma_select_event(sel, &ev) & KMA_SEL_OUT);
}

/* The group's key in g's key space, as the summary views of report.db name it. */
static const char *group_key(sqlite3_stmt *st, enum kma_group g, char *buf, size_t len)
{
	const char *s;

	switch (g) {
	case KMA_GROUP_FUNCTION:
		s = text_col(st, G_SYMBOL);
		return s ? s : text_col(st, G_CALLER);
	case KMA_GROUP_MODULE:
		s = text_col(st, G_MODULE);
		return s ? s : text_col(st, G_SYMBOL) ? "vmlinux" : "[unknown]";
	case KMA_GROUP_CACHE:
		s = text_col(st, G_CACHE);
		if (s)
			return s;
		kma_kmalloc_cache(buf, len, sqlite3_column_int(st, G_KTYPE),
				  (uint64_t)sqlite3_column_int64(st, G_BYTES_ALLOC));
		return buf;
	case KMA_GROUP_STACK:
		s = text_col(st, G_FOLDED);
		return s ? s : "[no stack]";
	default:
		return text_col(st, G_CALLER);
	}
}

/*
 * The group's numbers: total, slack (never negative, as the matcher counts
 * it), net, allocs, frees. -1 when one is negative or past KMA_DIFF_MAX
 * (not a report.db kma-analyze wrote).
 */
static int group_values(sqlite3_stmt *st, uint64_t v[KMA_DIFF_NR])
{
	int64_t ba = sqlite3_column_int64(st, G_BYTES_ALLOC);
	int64_t br = sqlite3_column_int64(st, G_BYTES_REQ);
	int64_t n = sqlite3_column_int64(st, G_ALLOCS), live = sqlite3_column_int64(st, G_LIVE);
	int64_t r[KMA_DIFF_NR];
	int m;

	if (ba < 0 || br < 0 || live < 0 || live > n)
		return -1;
	if (__builtin_mul_overflow(n, ba, &r[KMA_DIFF_TOTAL]) ||
	    __builtin_mul_overflow(n, ba > br ? ba - br : 0, &r[KMA_DIFF_SLACK]) ||
	    __builtin_mul_overflow(live, ba, &r[KMA_DIFF_NET]))
		return -1;
	r[KMA_DIFF_ALLOCS] = n;
	r[KMA_DIFF_FREES] = sqlite3_column_int64(st, G_FREES);
	for (m = 0; m < KMA_DIFF_NR; m++)
		v[m] = (uint64_t)r[m];
	return 0;
}

/* sum += v, each number at most KMA_DIFF_MAX; -1 past it. */
static int add_sum(uint64_t *sum, const uint64_t *v)
{
	int m;

	for (m = 0; m < KMA_DIFF_NR; m++) {
		if (v[m] > KMA_DIFF_MAX - sum[m])
			return -1;
		sum[m] += v[m];
	}
	return 0;
}

/* Every group in scope into t: its key's entry and the sums. 0, or -1 with why. */
static int load_groups(sqlite3 *db, sqlite3_stmt *st, const struct kma_diff_scope *sc,
		       enum kma_group g, struct kma_diff_table *t, struct kma_err *why)
{
	struct kma_strpool *pool = kma_strpool_alloc();
	uint64_t v[KMA_DIFF_NR];
	char buf[32];
	int rc = SQLITE_DONE, keep = 1, err = pool ? 0 : -1;

	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sc->select && kma_select_active(sc->select))
			keep = judge(sc->select, pool, st);
		if (keep < 0)
			err = -1;
		if (keep <= 0)
			continue;
		if (group_values(st, v) || add_sum(t->sum, v)) {
			kma_err_set(why, KMA_ERR_OTHER, "numbers past 2^63 - 1 (damaged, or not "
				    "written by kma-analyze)");
			err = -2;
		} else if (kma_diff_table_add(t, group_key(st, g, buf, sizeof(buf)), v)) {
			err = -1;
		}
	}
	if (err == -1)
		kma_err_nomem(why);
	else if (!err && rc != SQLITE_DONE)
		kma_err_set(why, KMA_ERR_OTHER, "cannot read it: %s", sqlite3_errmsg(db));
	kma_strpool_free(pool);
	return err || rc != SQLITE_DONE ? -1 : 0;
}

/*
 * Generation G of the trace: a number it has, or the first marker's label
 * equal to G, as kma-analyze --generation takes it. Sets t's generation, its
 * label and its length for --rate. 0, or -1 with why listing the generations.
 */
int kma_diff_find_generation(sqlite3 *db, const char *gen, struct kma_diff_table *t,
			     struct kma_err *why)
{
	char list[sizeof(why->msg)];
	size_t len = sizeof(list);
	sqlite3_stmt *st;
	char *end;
	long long n = strtoll(gen, &end, 10);
	int by_number = *gen && !*end && n >= 0, rc;
	size_t at;

	/* a generation ends at the next one's marker, the last at the trace's end */
	if (sqlite3_prepare_v2(db, "SELECT g.id, g.label, COALESCE((SELECT MIN(h.ts) FROM "
			       "generations AS h WHERE h.id > g.id), t.last_ts) - g.ts "
			       "FROM generations AS g, trace AS t ORDER BY g.id", -1, &st,
			       NULL) != SQLITE_OK) {
		return kma_err_set(why, KMA_ERR_OTHER, "cannot read it: %s", sqlite3_errmsg(db));
	}
	at = (size_t)snprintf(list, len, "no generation '%s' in the trace; it has:", gen);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0), dur = sqlite3_column_int64(st, 2);
		const char *label = text_col(st, 1);

		if (by_number ? id == n : id > 0 && label && !strcmp(label, gen)) {
			t->generation = id;
			t->gen_label = strdup(label ? label : "");
			t->duration_ns = dur > 0 ? (uint64_t)dur : 0;
			break;
		}
		if (at < len)
			at += (size_t)snprintf(list + at, len - at, "%s %" PRId64 " %s",
					       id ? "," : "", id, label ? label : "");
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return t->gen_label ? 0 : kma_err_nomem(why);
	if (rc != SQLITE_DONE)
		return kma_err_set(why, KMA_ERR_OTHER, "cannot read it: %s", sqlite3_errmsg(db));
	return kma_err_set(why, KMA_ERR_OTHER, "%s", list);
}

/*
 * The allocation rows are there: a report.db whose alloc_rows were deleted
 * (to make it smaller) keeps only whole-trace numbers, which no filter can
 * narrow. 0, or -1 with why.
 */
static int have_rows(sqlite3 *db, const struct kma_diff_scope *sc, struct kma_err *why)
{
	sqlite3_stmt *st;
	int ok = 0;

	if (sqlite3_prepare_v2(db, "SELECT (SELECT COUNT(*) FROM alloc_rows) > 0 OR "
			       "(SELECT COALESCE(SUM(allocs), 0) FROM callers) = 0", -1, &st,
			       NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		ok = sqlite3_column_int(st, 0) ? 1 : -1;
	sqlite3_finalize(st);
	if (!ok)
		kma_err_set(why, KMA_ERR_OTHER, "cannot read its allocation rows: %s",
			    sqlite3_errmsg(db));
	else if (ok < 0)
		kma_err_set(why, KMA_ERR_OTHER, "no allocation rows (alloc_rows is empty), so no %s: "
			 "give the trace.dat, or a report.db kma-analyze -o wrote whole",
			 sc->select && kma_select_active(sc->select) ? "filter" : "--generation");
	return ok > 0 ? 0 : -1;
}

int kma_diff_load_scope(struct sqlite3 *db, enum kma_group g, const struct kma_diff_scope *sc,
			struct kma_diff_table *t, struct kma_err *why)
{
	sqlite3_stmt *st;
	int err;

	if (have_rows(db, sc, why))
		return -1;
	if (sc->generation && kma_diff_find_generation(db, sc->generation, t, why))
		return -1;
	if (sqlite3_prepare_v2(db, groups_sql, -1, &st, NULL) != SQLITE_OK)
		return kma_err_set(why, KMA_ERR_OTHER, "cannot read it: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, sc->generation ? t->generation : -1);
	err = load_groups(db, st, sc, g, t, why);
	sqlite3_finalize(st);
	return err;
}
