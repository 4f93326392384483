// SPDX-License-Identifier: GPL-2.0
/*
 * kma-fleet-push.c - one report.db pushed into the fleet store as a run, in
 * one transaction: the run's row and labels, one partition per table, filled
 * through binary COPY straight from SQLite's rows, then the call stacks it
 * adds (shared by content, kma-fleet-stacks.c). Nothing is built into SQL but
 * constants; the run's id goes to kma_fleet.add_run_partition as a parameter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "kma-fleet-int.h"

#define KMA_FLEET_APP_ID	1802330450	/* report.db's PRAGMA application_id, "kmaR" */

/* One table of the run: its partition (unless @more: rows of another kind), then its rows. */
struct table {
	const char *name, *copy, *select, *types;
	int allocations;	/* only with --allocations */
	int more;		/* more rows of the table above: no partition */
};

/* The allocations of the allocators beside slab, with ids and values as the view's. */
#define KIND_COPY \
	"COPY kma_fleet.allocations (run_id, id, ptr, caller, alloc_event, bytes_alloc, " \
	"gfp_flags, alloc_ts, alloc_cpu, pid, comm, generation, free_ts, free_cpu, free_pid, " \
	"free_kind, stack_key, free_stack_key, kind, page_order, migratetype, gfp, page_stack) " \
	"FROM STDIN (FORMAT binary)"
#define KIND_ROWS \
	"SELECT r.id + (SELECT COALESCE(MAX(id), 0) FROM alloc_rows), r.ptr, c.caller, " \
	"kd.alloc_event, r.bytes_alloc, r.gfp_flags, r.alloc_ts, r.alloc_cpu, t.pid, t.comm, " \
	"r.generation, r.alloc_ts + r.life, r.free_cpu, r.free_pid, " \
	"CASE r.implicit WHEN 0 THEN kd.free_event WHEN 1 THEN 'implicit' END, r.stack_id, " \
	"r.free_stack_id, kd.name, NULL, NULL, NULL, NULL FROM kind_alloc_rows AS r " \
	"JOIN kind_callers AS c ON c.kind = r.kind AND c.id = r.caller_id " \
	"JOIN kinds AS kd ON kd.id = r.kind JOIN tasks AS t ON t.id = r.task_id ORDER BY r.id"
#define PAGE_ROWS \
	"SELECT r.rowid + (SELECT COALESCE(MAX(id), 0) FROM alloc_rows) + " \
	"(SELECT COALESCE(MAX(id), 0) FROM kind_alloc_rows), r.pfn, " \
	"COALESCE(sh.function, '[no stack]'), 'mm_page_alloc', (1 << sh.page_order) * pt.page_size, " \
	"sh.gfp_flags, r.alloc_ts, NULL, sh.pid, sh.comm, r.generation, r.free_ts, NULL, NULL, " \
	"CASE r.free_kind WHEN 0 THEN 'mm_page_free' WHEN 1 THEN 'implicit' END, NULL, NULL, " \
	"'page', sh.page_order, sh.migratetype, sh.gfp, sh.stack " \
	"FROM page_alloc_rows AS r JOIN page_shapes AS sh ON sh.id = r.shape_id " \
	"CROSS JOIN page_trace AS pt ORDER BY r.rowid"
#define KIND_TYPES "iittiiiiibiiiitkkt" "ddtt"	/* then the page's order .. stack */

/*
 * Per kind and call site: percpu's and vmalloc's from kind_callers, with
 * their module (temp.kma_push_kind_callers, NULL from a report.db that
 * predates it: kind_view()), the page allocator's summed per caller function
 * of its allocations (as page_stats; its frees count the implicit ones too,
 * as the page row of kind_totals).
 */
#define KIND_CALLERS \
	"SELECT k.name, c.caller, c.address, c.total, c.net, c.allocs, c.frees, c.implicit_frees, " \
	"c.failed_allocs, c.live, c.module FROM temp.kma_push_kind_callers AS c " \
	"JOIN kinds AS k ON k.id = c.kind " \
	"UNION ALL SELECT 'page', COALESCE(sh.function, '[no stack]'), NULL, " \
	"SUM((1 << sh.page_order) * pt.page_size), " \
	"SUM(CASE WHEN r.free_ts IS NULL THEN (1 << sh.page_order) * pt.page_size ELSE 0 END), " \
	"COUNT(*), SUM(r.free_ts IS NOT NULL), COUNT(CASE WHEN r.free_kind = 1 THEN 1 END), NULL, " \
	"SUM(r.free_ts IS NULL), NULL " \
	"FROM page_alloc_rows AS r JOIN page_shapes AS sh ON sh.id = r.shape_id " \
	"CROSS JOIN page_trace AS pt GROUP BY 2"

/*
 * Per kind and call stack, summed as KIND_CALLERS sums per caller: percpu's
 * and vmalloc's by stacks.id (its key), the page allocator's by folded stack.
 */
#define KIND_STACKS \
	"SELECT k.name, r.stack_id, NULL, SUM(r.bytes_alloc), " \
	"COALESCE(SUM(CASE WHEN r.life IS NULL THEN r.bytes_alloc END), 0), COUNT(*), " \
	"COUNT(CASE WHEN r.implicit = 0 THEN 1 END), COUNT(CASE WHEN r.implicit = 1 THEN 1 END), " \
	"COUNT(CASE WHEN r.life IS NULL THEN 1 END) FROM kind_alloc_rows AS r " \
	"JOIN kinds AS k ON k.id = r.kind GROUP BY k.name, r.stack_id " \
	"UNION ALL SELECT 'page', NULL, sh.stack, SUM((1 << sh.page_order) * pt.page_size), " \
	"SUM(CASE WHEN r.free_ts IS NULL THEN (1 << sh.page_order) * pt.page_size ELSE 0 END), " \
	"COUNT(*), SUM(r.free_ts IS NOT NULL), COUNT(CASE WHEN r.free_kind = 1 THEN 1 END), " \
	"SUM(r.free_ts IS NULL) " \
	"FROM page_alloc_rows AS r JOIN page_shapes AS sh ON sh.id = r.shape_id " \
	"CROSS JOIN page_trace AS pt GROUP BY sh.stack"

/*
 * In this order: timeline last, so that a test holding its lock stops a push
 * midway, with the other tables written (the kill test of t-fleet).
 */
static const struct table tables[] = {
	{ "callers", "COPY kma_fleet.callers FROM STDIN (FORMAT binary)",
	  "SELECT caller, address, module, symbol, file, line, total, slack, net, allocs, frees, "
	  "implicit_frees, failed_allocs, live, grew_generations, max_growth_run, age_median, "
	  "leak_class, leak_confidence, leak_why FROM callers ORDER BY id",
	  "tttttiiiiiiiiiiiittt", 0, 0 },
	{ "functions", "COPY kma_fleet.functions FROM STDIN (FORMAT binary)",
	  "SELECT function, module, total, slack, net, allocs, frees, implicit_frees "
	  "FROM function_stats", "ttiiiiii", 0, 0 },
	{ "caches", "COPY kma_fleet.caches FROM STDIN (FORMAT binary)",
	  /* cache_stats, task_stats and stack_stats from kma_fleet_counts's sums */
	  "SELECT CASE WHEN g.cache_id IS NOT NULL THEN k.name ELSE kc.name END, SUM(g.total), "
	  "SUM(g.slack), SUM(g.net), SUM(g.allocs), SUM(g.frees), SUM(g.implicit_frees) "
	  "FROM temp.kma_push_caches AS g LEFT JOIN caches AS k ON k.id = g.cache_id "
	  "LEFT JOIN kmalloc_caches AS kc ON kc.kmalloc_type = COALESCE(g.kmalloc_type, 0) "
	  "AND kc.bytes_alloc = g.bytes_alloc GROUP BY 1",
	  "tiiiiii", 0, 0 },
	{ "tasks", "COPY kma_fleet.tasks FROM STDIN (FORMAT binary)",
	  "SELECT t.pid, t.comm, SUM(g.total), SUM(g.slack), SUM(g.net), SUM(g.allocs), "
	  "SUM(g.frees), SUM(g.implicit_frees) FROM temp.kma_push_tasks AS g "
	  "JOIN tasks AS t ON t.id = g.task_id GROUP BY t.pid, t.comm",
	  "ibiiiiii", 0, 0 },
	{ "run_stacks", "COPY kma_fleet.run_stacks FROM STDIN (FORMAT binary)",
	  "SELECT stack_id, total, slack, net, allocs, frees, implicit_frees, live "
	  "FROM temp.kma_push_stack_sums",
	  "kiiiiiii", 0, 0 },
	{ "generations", "COPY kma_fleet.generations FROM STDIN (FORMAT binary)",
	  "SELECT id, ts, label, allocs, bytes, live, live_bytes, frees FROM generations",
	  "iitiiiii", 0, 0 },
	{ "allocations", "COPY kma_fleet.allocations (run_id, id, ptr, caller, alloc_event, "
	  "bytes_req, bytes_alloc, gfp_flags, node, cache, accounted, alloc_ts, alloc_cpu, pid, "
	  "comm, generation, free_ts, free_cpu, free_pid, free_caller, free_kind, stack_key, "
	  "free_stack_key, kmalloc_type) FROM STDIN (FORMAT binary)",
	  /* the view allocations' slab rows: kma-fleet-allocs.c */
	  NULL, NULL, 1, 0 },
	{ "allocations", KIND_COPY, KIND_ROWS, KIND_TYPES, 1, 1 },
	{ "allocations", KIND_COPY, PAGE_ROWS, KIND_TYPES, 1, 1 },
	{ "kind_totals", "COPY kma_fleet.kind_totals FROM STDIN (FORMAT binary)",
	  "SELECT kind, allocs, total, net, peak, peak_ts, live, frees, implicit_frees, "
	  "unknown_frees, null_frees, failed_allocs FROM kind_stats", "tiiiiiiiiiii", 0, 0 },
	{ "kind_callers", "COPY kma_fleet.kind_callers FROM STDIN (FORMAT binary)",
	  KIND_CALLERS, "tttiiiiiiit", 0, 0 },
	{ "kind_stacks", "COPY kma_fleet.kind_stacks FROM STDIN (FORMAT binary)",
	  KIND_STACKS, "tktiiiiii", 0, 0 },
	{ "timeline", "COPY kma_fleet.timeline FROM STDIN (FORMAT binary)",
	  "SELECT bin, ts, width_ns, allocs, alloc_bytes, frees, free_bytes, live_bytes, live_max "
	  "FROM timeline", "iiiiiiiii", 0, 0 },
};

/*
 * The rows of the allocators beside slab: a report.db of version 7 on has
 * them (an older one is pushed with none, its partitions empty).
 */
static int other_kinds(const struct table *t)
{
	return t->more || !strncmp(t->name, "kind_", 5);
}

static int push_tables(struct kma_push *p, int allocations)
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
		res = tables[i].more ? NULL :
		      kma_fleet_query(p->f, "SELECT kma_fleet.add_run_partition($1, $2)", 2, params,
				      PGRES_TUPLES_OK, p->e);
		if (!tables[i].more && !res)
			return -1;
		PQclear(res);
		if (other_kinds(&tables[i]) && p->version < 7)
			continue;
		/* the counts are waited for only now: made while the tables above went */
		if (p->counts && tables[i].select && strstr(tables[i].select, "temp.kma_push_")) {
			struct kma_fleet_counts *h = p->counts;

			p->counts = NULL;
			if (kma_fleet_counts_finish(h, p->db, p->e))
				return -1;
		}
		if (!tables[i].select ? kma_push_allocations(p, tables[i].copy) :
		    kma_push_copy(p, tables[i].copy, tables[i].select, tables[i].types, 1))
			return -1;
	}
	return 0;
}

/* The run's facts, as text (NULL: SQL NULL), from the report.db's trace and summary. */
enum { R_RELEASE, R_UNAME, R_START, R_DURATION, R_KMA_VERSION, R_EVENTS, R_TOTAL, R_SLACK,
	R_NET, R_ALLOCS, R_FREES, R_UNKNOWN, R_FAILED, R_LOST, R_PEAK, R_KMALLOC_ONLY,
	R_TEMPORARY, R_PREFIX, R_BUFFER, R_KIND_MODULES, R_NR };

static int run_facts(struct kma_push *p, char **v)
{
	static const char sql[] =
		"SELECT t.kernel_release, t.uname, t.first_ts, t.last_ts - t.first_ts, t.kma_version, "
		"t.events, s.total, s.slack, s.net, s.allocs, s.frees, s.unknown_frees, "
		"s.failed_allocs, s.lost_events, t.peak_bytes, t.kmalloc_only, t.temporary_ns, "
		"t.marker_prefix, t.buffer, EXISTS (SELECT 1 FROM pragma_table_info('kind_callers') "
		"WHERE name = 'module') FROM trace AS t, summary AS s";
	sqlite3_stmt *st;
	int i, rc;

	if (sqlite3_prepare_v2(p->db, sql, -1, &st, NULL) != SQLITE_OK)
		return kma_push_db_err(p, "not a kma report.db");
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		if (rc == SQLITE_DONE)
			return kma_err_set(p->e, KMA_ERR_BROKEN, "no row in its trace table");
		return kma_push_db_err(p, "cannot read it");
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
static int insert_run(struct kma_push *p, const struct kma_fleet_push *in, char **v)
{
	static const char sql[] =
		"INSERT INTO kma_fleet.runs (trace_id, source, options, host, kernel_release, uname, "
		"start_ns, duration_ns, file, kma_version, push_version, allocations, events, total, "
		"slack, net, allocs, frees, unknown_frees, failed_allocs, lost_events, peak_bytes, "
		"kind_modules) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, "
		"$15, $16, $17, $18, $19, $20, $21, $22, $23) "
		"ON CONFLICT (trace_id, options) DO NOTHING RETURNING run_id";
	char *options = NULL, *host = host_of(v[R_UNAME]);
	const char *prm[23], *two[2];
	PGresult *res;
	int r = -1;

	if (asprintf(&options, "kmalloc_only=%s temporary_ns=%s marker_prefix=%s buffer=%s",
		     v[R_KMALLOC_ONLY] ? v[R_KMALLOC_ONLY] : "", v[R_TEMPORARY] ? v[R_TEMPORARY] : "",
		     v[R_PREFIX] ? v[R_PREFIX] : "", v[R_BUFFER] ? v[R_BUFFER] : "") < 0) {
		free(host);
		return kma_err_nomem(p->e);
	}
	two[0] = p->trace_id;
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
	prm[0] = p->trace_id; prm[1] = in->source; prm[2] = options; prm[3] = host;
	prm[4] = v[R_RELEASE]; prm[5] = v[R_UNAME]; prm[6] = v[R_START]; prm[7] = v[R_DURATION];
	prm[8] = in->file; prm[9] = v[R_KMA_VERSION]; prm[10] = KMA_VERSION;
	prm[11] = in->allocations ? "true" : "false";
	prm[12] = v[R_EVENTS]; prm[13] = v[R_TOTAL]; prm[14] = v[R_SLACK]; prm[15] = v[R_NET];
	prm[16] = v[R_ALLOCS]; prm[17] = v[R_FREES]; prm[18] = v[R_UNKNOWN];
	prm[19] = v[R_FAILED]; prm[20] = v[R_LOST]; prm[21] = v[R_PEAK];
	/* were the callers' modules in the report.db ('1'), or is every one NULL ('0') */
	prm[22] = v[R_KIND_MODULES];
	res = kma_fleet_query(p->f, sql, 23, prm, PGRES_TUPLES_OK, p->e);
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

static int push_labels(struct kma_push *p, const struct kma_fleet_push *in)
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

/*
 * temp.kma_push_kind_callers, which KIND_CALLERS reads: kind_callers with its
 * module, NULL for each caller when the report.db predates the column
 * (@known '0'). Nothing for a report.db before version 7: no kind_callers.
 */
static int kind_view(struct kma_push *p, const char *known)
{
	const char *sql = *known == '1' ?
		"CREATE TEMP VIEW kma_push_kind_callers AS SELECT kind, caller, address, total, "
		"net, allocs, frees, implicit_frees, failed_allocs, live, module "
		"FROM main.kind_callers" :
		"CREATE TEMP VIEW kma_push_kind_callers AS SELECT kind, caller, address, total, "
		"net, allocs, frees, implicit_frees, failed_allocs, live, NULL AS module "
		"FROM main.kind_callers";

	if (p->version < 7 || sqlite3_exec(p->db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	return kma_push_db_err(p, "cannot read it");
}

/* The report.db opened read only, if it is one kma-analyze wrote (its application id). */
static int open_db(struct kma_push *p, const char *path)
{
	sqlite3_stmt *st;
	int id = 0;

	/* one thread: no mutex around each of the millions of column calls */
	if (sqlite3_open_v2(path, &p->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK)
		return kma_push_db_err(p, "cannot open it");
	if (sqlite3_prepare_v2(p->db, "PRAGMA application_id", -1, &st, NULL) != SQLITE_OK)
		return kma_push_db_err(p, "not an SQLite database");
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (id != KMA_FLEET_APP_ID)
		return kma_err_set(p->e, KMA_ERR_BROKEN, "not a report.db written by kma-analyze");
	if (sqlite3_prepare_v2(p->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return kma_push_db_err(p, "cannot read it");
	if (sqlite3_step(st) == SQLITE_ROW)
		p->version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

int kma_fleet_push(struct kma_fleet *f, const struct kma_fleet_push *in, long long *run_id,
		   struct kma_err *e)
{
	struct kma_push p = { .f = f, .e = e };
	struct kma_file_id *id;
	char *v[R_NR] = { NULL };
	int r = -1, i, began = 0;

	/*
	 * The trace id (the file's SHA-256) and alloc_rows' counts made by
	 * threads of their own while the stacks' keys are read and asked for.
	 */
	id = kma_file_id_start(in->file);
	if (!id) {
		kma_err_nomem(e);
		goto out;
	}
	p.path = in->db;
	if (open_db(&p, in->db) || kma_fleet_counts_start(in->db, &p.counts, e) ||
	    run_facts(&p, v) || kind_view(&p, v[R_KIND_MODULES]) || kma_push_stack_keys(&p))
		goto out;
	r = kma_file_id_finish(id, p.trace_id, e);
	id = NULL;
	if (r || kma_fleet_exec(f, "BEGIN", e)) {
		r = -1;
		goto out;
	}
	began = 1;
	r = insert_run(&p, in, v);
	if (r <= 0) {
		if (!r)
			r = KMA_FLEET_SAME;
		goto out;
	}
	r = r == 2 ? KMA_FLEET_REPLACED : KMA_FLEET_NEW;
	if (push_labels(&p, in) || push_tables(&p, in->allocations) || kma_push_stacks(&p) ||
	    kma_fleet_exec(f, "COMMIT", e))
		r = -1;
	began = r < 0;
out:
	if (began)
		PQclear(PQexec(f->conn, "ROLLBACK"));
	kma_file_id_finish(id, NULL, NULL);
	kma_fleet_counts_finish(p.counts, NULL, NULL);
	kma_push_rows_drop(&p);
	*run_id = p.run;
	for (i = 0; i < R_NR; i++)
		free(v[i]);
	free(p.key);
	free(p.has_key);
	free(p.added);
	free(p.missing);
	free(p.rows);
	free(p.row);
	free(p.buf);
	sqlite3_close(p.db);
	return r;
}
