// SPDX-License-Identifier: GPL-2.0
/*
 * kma-diff-load.c - a report.db's per-key numbers for kma-diff (kma-diff-load.h):
 * the views of kma-report.db(5), read only.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sqlite3.h>

#include "kma-store.h"
#include "kma-strpool.h"
#include "match/kma-select.h"
#include "sites/kma-stacks.h"	/* KMA_NO_STACK */
#include "kma-diff-load.h"
#include "kma-diff-int.h"

/*
 * Per key: total, slack, net, allocs, frees (frees: traced frees of the
 * key's allocations, callers.frees). Callers by name, symbol+0xoffset, not
 * by address, which KASLR and a rebuilt kernel move; functions without the
 * offset; stacks by their folded names, so two stacks that differ only in
 * offsets are one key, as in kma-analyze -g stack.
 */
static const char *group_sql(enum kma_group g)
{
	switch (g) {
	case KMA_GROUP_CALLER:
		return "SELECT caller, SUM(total), SUM(slack), SUM(net), SUM(allocs), SUM(frees) "
		       "FROM callers WHERE allocs > 0 GROUP BY 1";
	case KMA_GROUP_FUNCTION:
		return "SELECT COALESCE(symbol, caller), SUM(total), SUM(slack), SUM(net), "
		       "SUM(allocs), SUM(frees) FROM callers WHERE allocs > 0 GROUP BY 1";
	case KMA_GROUP_MODULE:
		return "SELECT module, total, slack, net, allocs, frees FROM module_stats";
	case KMA_GROUP_CACHE:
		return "SELECT cache, total, slack, net, allocs, frees FROM cache_stats";
	case KMA_GROUP_STACK:
		return "SELECT folded, SUM(total), SUM(slack), SUM(net), SUM(allocs), SUM(frees) "
		       "FROM stack_stats GROUP BY 1";
	default:
		return NULL;
	}
}

int kma_diff_schema_version(void)
{
	const char *p = strstr(kma_schema_sql, "PRAGMA user_version = ");

	return p ? atoi(p + strlen("PRAGMA user_version = ")) : -1;
}

/* The first bytes of every SQLite 3 file (https://sqlite.org/fileformat.html). */
static int is_sqlite(const char *path, struct kma_err *why)
{
	static const char magic[16] = "SQLite format 3";
	char h[16];
	/* O_NONBLOCK: a FIFO must not hang us before the check below */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	ssize_t n;

	if (fd < 0) {
		kma_err_errno(why, errno, "cannot open it");
		return 0;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		kma_err_set(why, KMA_ERR_OTHER, "not a regular file");
		close(fd);
		return 0;
	}
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n != (ssize_t)sizeof(h) || memcmp(h, magic, sizeof(magic))) {
		kma_err_set(why, KMA_ERR_OTHER, "not an SQLite database (nor a trace.dat)");
		return 0;
	}
	return 1;
}

int kma_diff_query_int(sqlite3 *db, const char *sql, int64_t *out, struct kma_err *why)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		kma_err_set(why, KMA_ERR_OTHER, "cannot read it: %s", sqlite3_errmsg(db));
		return -1;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	else
		kma_err_set(why, KMA_ERR_OTHER, "cannot read it: %s",
			    rc == SQLITE_DONE ? "no row in the trace table" : sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* The rows of sql (key, then the five numbers) into t; with sum, into t->sum only. */
static int load_rows(sqlite3 *db, const char *sql, struct kma_diff_table *t, int sum,
		     struct kma_err *why)
{
	sqlite3_stmt *st;
	uint64_t v[KMA_DIFF_NR];
	int rc, m, neg = 0;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		kma_err_set(why, KMA_ERR_OTHER, "cannot read it: %s", sqlite3_errmsg(db));
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(st, 0);

		for (m = 0; m < KMA_DIFF_NR && !neg; m++) {
			/* kma writes 0 to 2^63 - 1; less is no count of bytes or events */
			neg = sqlite3_column_int64(st, m + !sum) < 0;
			v[m] = (uint64_t)sqlite3_column_int64(st, m + !sum);
		}
		if (neg) {
			kma_err_set(why, KMA_ERR_OTHER, "a negative %s in a kma report.db "
				    "(damaged, or not written by kma-analyze)",
				    kma_diff_metric_name(m - 1));
			break;
		}
		if (sum) {
			memcpy(t->sum, v, sizeof(v));
			continue;
		}
		if (kma_diff_table_add(t, key ? key : "[unknown]", v)) {
			kma_err_nomem(why);
			break;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		kma_err_set(why, KMA_ERR_OTHER, "cannot read it: %s", sqlite3_errmsg(db));
		return -1;
	}
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * The trace's duration into @t and, for -g stack, that the report.db has
 * stacks at all; 0, or -1 and why.
 */
static int duration_and_stacks(sqlite3 *db, enum kma_group g, struct kma_diff_table *t,
			       struct kma_err *why)
{
	int64_t n;

	if (kma_diff_query_int(db, "SELECT MAX(last_ts - first_ts, 0) FROM trace", &n, why))
		return -1;
	t->duration_ns = (uint64_t)n;
	if (g == KMA_GROUP_STACK) {
		if (kma_diff_query_int(db, "SELECT COUNT(*) FROM stacks", &n, why))
			return -1;
		if (!n)
			return kma_err_set(why, KMA_ERR_OTHER, "no call stacks (record with "
					   "trace-cmd record -T or kma-record --stacks) for -g stack");
	}
	return 0;
}

/* The checks before the numbers: version, kmem events, stacks for -g stack. */
static int check_db(sqlite3 *db, enum kma_group g, struct kma_diff_table *t, struct kma_err *why)
{
	int64_t version, n;

	if (kma_diff_query_int(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'trace'", &n, why))
		return -1;
	if (!n) {
		kma_err_set(why, KMA_ERR_OTHER, "an SQLite database, but no kma report.db "
			    "(no trace table)");
		return -1;
	}
	if (kma_diff_query_int(db, "PRAGMA user_version", &version, why))
		return -1;
	/* what kma-diff reads (trace, callers, stacks) has not changed since version 4 */
	if (version < KMA_DIFF_OLDEST_VERSION || version > kma_diff_schema_version()) {
		kma_err_set(why, KMA_ERR_OTHER, "report.db schema version %lld, kma-diff reads "
			    "versions %d to %d (analyze the trace again with this kma-analyze)",
			    (long long)version, KMA_DIFF_OLDEST_VERSION, kma_diff_schema_version());
		return -1;
	}
	if (kma_diff_query_int(db, "SELECT kmem_events FROM trace", &n, why))
		return -1;
	if (!n) {
		kma_err_set(why, KMA_ERR_OTHER, "no kmem allocation or free events in the trace");
		return -1;
	}
	return duration_and_stacks(db, g, t, why);
}

/*
 * An operand is only read: opened immutable, so that nothing is created beside
 * it (a WAL-mode database opened plainly gets -wal and -shm files), unless a
 * -wal file with content is already there: then its committed pages live in
 * it, and only a plain read-only open sees them. 0, or -1 with why.
 */
static int open_operand(const char *path, sqlite3 **db, struct kma_err *why)
{
	char wal[PATH_MAX];
	struct stat st;
	char *uri = NULL;
	int rc;

	if (snprintf(wal, sizeof(wal), "%s-wal", path) < (int)sizeof(wal) &&
	    !stat(wal, &st) && st.st_size > 0) {
		rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL);
	} else {
		uri = kma_store_immutable_uri(path);
		rc = uri ? sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) :
			   SQLITE_NOMEM;
		free(uri);
	}
	if (rc == SQLITE_OK)
		return 0;
	if (!*db)
		return kma_err_set(why, KMA_ERR_NOMEM, "cannot open it: out of memory");
	return kma_err_set(why, KMA_ERR_OTHER, "cannot open it: %s", sqlite3_errmsg(*db));
}

int kma_diff_open(const char *path, sqlite3 **db, struct kma_err *why)
{
	return is_sqlite(path, why) && !open_operand(path, db, why) ? 0 : -1;
}

int kma_diff_load(const char *path, enum kma_group g, const struct kma_diff_scope *scope,
		  struct kma_diff_table *t, struct kma_err *why)
{
	const char *sql = group_sql(g);
	sqlite3 *db = NULL;
	int err = -1;

	if (!sql) {
		kma_err_set(why, KMA_ERR_OTHER, "cannot group by %s", kma_group_name(g));
		return -1;
	}
	if (!is_sqlite(path, why) || open_operand(path, &db, why))
		goto out;
	if (check_db(db, g, t, why))
		goto out;
	if (scope && (scope->generation || (scope->select && kma_select_active(scope->select)))) {
		err = kma_diff_load_scope(db, g, scope, t, why);
		goto out;
	}
	/* the whole trace, as kma-analyze's summary: frees are every free event */
	if (load_rows(db, "SELECT total, slack, net, allocs, frees FROM summary", t, 1, why))
		goto out;
	err = load_rows(db, sql, t, 0, why);
out:
	sqlite3_close(db);
	return err;
}

int kma_diff_load_duration(const char *path, struct kma_diff_table *t, struct kma_err *why)
{
	sqlite3 *db = NULL;
	int64_t dur;
	int err = -1;

	if (is_sqlite(path, why) && !open_operand(path, &db, why) &&
	    !kma_diff_query_int(db, "SELECT MAX(last_ts - first_ts, 0) FROM trace", &dur, why)) {
		t->duration_ns = (uint64_t)dur;
		err = 0;
	}
	sqlite3_close(db);
	return err;
}

/*
 * --kind percpu|vmalloc: one row per (caller, stack, task) of the kind's
 * allocations in the generation (-1: all): the caller's name and address, the
 * folded stack, the task, then bytes, live bytes, allocations and those closed
 * by a traced free (implicit 0; an implicit free is none, as kind_callers.frees);
 * for -g module the caller's module (kind_callers.module, added within
 * version 7: not read from a file without it).
 */
#define KIND_SQL(MODULE) \
	"WITH n AS (SELECT caller_id, stack_id, task_id, SUM(bytes_alloc) AS total, " \
	"COALESCE(SUM(CASE WHEN life IS NULL THEN bytes_alloc END), 0) AS net, " \
	"COUNT(*) AS allocs, COUNT(CASE WHEN implicit = 0 THEN 1 END) AS frees " \
	"FROM kind_alloc_rows WHERE kind = ?2 AND (?1 < 0 OR generation = ?1) " \
	"GROUP BY caller_id, stack_id, task_id) " \
	"SELECT c.caller, c.address, s.folded, t.pid, t.comm, n.total, n.net, n.allocs, n.frees" \
	MODULE " FROM n JOIN kind_callers AS c ON c.kind = ?2 AND c.id = n.caller_id " \
	"JOIN tasks AS t ON t.id = n.task_id LEFT JOIN stacks AS s ON s.id = n.stack_id"
static const char kind_sql[] = KIND_SQL("");
static const char kind_module_sql[] = KIND_SQL(", c.module");

const char *kma_diff_module_name(const char *module, const char *caller)
{
	/* kma-analyze -g module's names (sites/kma-sites.c): no symbol, no module */
	if (module)
		return module;
	if (!caller || !strncmp(caller, "0x", 2) || !strcmp(caller, KMA_NO_STACK))
		return "[unknown]";
	return "vmlinux";
}

/* kma_resolve_fn for kma-select: the caller name of the row being judged. */
static const char *kind_caller_name(void *ctx, uint64_t addr)
{
	(void)addr;
	return ctx;
}

/* Does the filter keep st's row (its caller, pid and comm)? -1 on out of memory. */
static int kind_keep(struct kma_select *sel, struct kma_strpool *pool, sqlite3_stmt *st)
{
	const char *caller = (const char *)sqlite3_column_text(st, KMA_DK_CALLER);
	const char *addr = (const char *)sqlite3_column_text(st, KMA_DK_ADDRESS);
	const char *comm = (const char *)sqlite3_column_text(st, KMA_DK_COMM);
	struct kma_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.call_site = addr ? strtoull(addr, NULL, 16) : 0;
	if (!addr) {
		/* no address (a page row: its caller is a function): kma-select caches
		 * a site's verdict, so the interned name stands for the site, as in
		 * kma-analyze --pages */
		caller = kma_strpool_intern(pool, caller ? caller : KMA_NO_STACK,
					    strlen(caller ? caller : KMA_NO_STACK));
		if (!caller)
			return -1;
		ev.call_site = (uintptr_t)caller;
	}
	ev.pid = sqlite3_column_int(st, KMA_DK_PID);
	/* kma-select caches a comm's verdict by its pointer: interned */
	ev.comm = comm ? kma_strpool_intern(pool, comm, strlen(comm)) : NULL;
	if (comm && !ev.comm)
		return -1;
	kma_select_set_resolve(sel, kind_caller_name, (void *)(caller ? caller : ""));
	return !(kma_select_event(sel, &ev) & KMA_SEL_OUT);
}

/*
 * The row's key in g's key space, as kma-analyze --kind K -g G names it:
 * a function is its caller's symbol, the name without +0xoffset.
 */
static const char *kind_key(sqlite3_stmt *st, int g, char *buf, size_t len)
{
	const char *s = (const char *)sqlite3_column_text(st, KMA_DK_CALLER), *plus;

	if (g == KMA_GROUP_STACK) {
		s = (const char *)sqlite3_column_text(st, KMA_DK_FOLDED);
		return s ? s : "[no stack]";
	}
	if (g == KMA_GROUP_MODULE)
		return kma_diff_module_name((const char *)sqlite3_column_text(st, KMA_DK_NEXT), s);
	if (!s)
		return "[unknown]";
	plus = g == KMA_GROUP_FUNCTION ? strstr(s, "+0x") : NULL;
	if (!plus || (size_t)(plus - s) >= len)
		return s;
	memcpy(buf, s, (size_t)(plus - s));
	buf[plus - s] = '\0';
	return buf;
}

/* Every row of st that sel keeps (NULL: all) into t: its key's entry and the sums. */
static int kind_rows(sqlite3 *db, sqlite3_stmt *st, struct kma_select *sel, kma_diff_key_fn key,
		     int g, struct kma_diff_table *t, struct kma_err *why)
{
	struct kma_strpool *pool = sel ? kma_strpool_alloc() : NULL;
	uint64_t v[KMA_DIFF_NR] = { 0 };	/* the kinds beside slab have no slack */
	char buf[512];
	int rc = SQLITE_DONE, keep = 1, m, err = sel && !pool ? -1 : 0;

	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sel && (keep = kind_keep(sel, pool, st)) < 0)
			err = -1;
		if (keep <= 0)
			continue;
		v[KMA_DIFF_TOTAL] = (uint64_t)sqlite3_column_int64(st, KMA_DK_TOTAL);
		v[KMA_DIFF_NET] = (uint64_t)sqlite3_column_int64(st, KMA_DK_TOTAL + 1);
		v[KMA_DIFF_ALLOCS] = (uint64_t)sqlite3_column_int64(st, KMA_DK_TOTAL + 2);
		v[KMA_DIFF_FREES] = (uint64_t)sqlite3_column_int64(st, KMA_DK_TOTAL + 3);
		for (m = 0; m < KMA_DIFF_NR && !err; m++)
			if (v[m] > KMA_DIFF_MAX || v[m] > KMA_DIFF_MAX - t->sum[m])
				err = -2;
		if (err) {
			kma_err_set(why, KMA_ERR_OTHER, "a negative count or one past 2^63 - 1 "
				    "(damaged, or not written by kma-analyze)");
			break;
		}
		for (m = 0; m < KMA_DIFF_NR; m++)
			t->sum[m] += v[m];
		if (kma_diff_table_add(t, key(st, g, buf, sizeof(buf)), v))
			err = -1;
	}
	if (err == -1)
		kma_err_nomem(why);
	else if (!err && rc != SQLITE_DONE)
		kma_err_set(why, KMA_ERR_OTHER, "cannot read it: %s", sqlite3_errmsg(db));
	kma_strpool_free(pool);
	return err || rc != SQLITE_DONE ? -1 : 0;
}

int kma_diff_check_kinds_db(sqlite3 *db, const char *name, struct kma_err *why)
{
	int64_t version, n;

	if (kma_diff_query_int(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'trace'", &n, why))
		return -1;
	if (!n)
		return kma_err_set(why, KMA_ERR_OTHER, "an SQLite database, but no kma report.db "
				   "(no trace table)");
	if (kma_diff_query_int(db, "PRAGMA user_version", &version, why))
		return -1;
	if (version < KMA_DIFF_KINDS_VERSION || version > kma_diff_schema_version())
		return kma_err_set(why, KMA_ERR_OTHER, "report.db schema version %lld, kma-diff "
				   "--kind %s reads versions %d to %d (analyze the trace again "
				   "with this kma-analyze)", (long long)version, name,
				   KMA_DIFF_KINDS_VERSION, kma_diff_schema_version());
	return 0;
}

/*
 * The checks before a kind's numbers: version, the kind's events, stacks for
 * -g stack, kind_callers.module for -g module.
 */
static int check_kind_db(sqlite3 *db, int kind, const char *name, enum kma_group g,
			 struct kma_diff_table *t, struct kma_err *why)
{
	char sql[96];
	int64_t n;

	if (kma_diff_check_kinds_db(db, name, why))
		return -1;
	snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM kind_totals WHERE kind = %d", kind);
	if (kma_diff_query_int(db, sql, &n, why))
		return -1;
	if (!n)
		return kma_err_set(why, KMA_ERR_OTHER, "no %s allocations or frees in the trace",
				   name);
	if (g == KMA_GROUP_MODULE) {
		if (kma_diff_query_int(db, "SELECT COUNT(*) FROM pragma_table_info('kind_callers') "
				       "WHERE name = 'module'", &n, why))
			return -1;
		if (!n)
			return kma_err_set(why, KMA_ERR_OTHER, "report.db written before "
					   "kind_callers had the callers' module, so no -g module "
					   "of the %s callers (analyze the trace again with this "
					   "kma-analyze)", name);
	}
	return duration_and_stacks(db, g, t, why);
}

int kma_diff_kind_query(sqlite3 *db, const char *sql, int kind, kma_diff_key_fn key, int g,
			const struct kma_diff_scope *sc, struct kma_diff_table *t,
			struct kma_err *why)
{
	struct kma_select *sel = sc && sc->select && kma_select_active(sc->select) ?
				 sc->select : NULL;
	sqlite3_stmt *st = NULL;
	int err;

	if (sc && sc->generation && kma_diff_find_generation(db, sc->generation, t, why))
		return -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return kma_err_set(why, KMA_ERR_OTHER, "cannot read it: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, sc && sc->generation ? t->generation : -1);
	if (kind >= 0)
		sqlite3_bind_int(st, 2, kind);
	err = kind_rows(db, st, sel, key, g, t, why);
	sqlite3_finalize(st);
	return err;
}

int kma_diff_load_kind(const char *path, int kind, const char *kind_name, enum kma_group g,
		       const struct kma_diff_scope *sc, struct kma_diff_table *t,
		       struct kma_err *why)
{
	sqlite3 *db = NULL;
	int err = -1;

	if (g != KMA_GROUP_CALLER && g != KMA_GROUP_FUNCTION && g != KMA_GROUP_STACK &&
	    g != KMA_GROUP_MODULE) {
		kma_err_set(why, KMA_ERR_OTHER, "report.db keeps no %s of the %s callers",
			    kma_group_name(g), kind_name);
		return -1;
	}
	if (!kma_diff_open(path, &db, why) && !check_kind_db(db, kind, kind_name, g, t, why))
		err = kma_diff_kind_query(db, g == KMA_GROUP_MODULE ? kind_module_sql : kind_sql,
					  kind, kind_key, g, sc, t, why);
	sqlite3_close(db);
	return err;
}
