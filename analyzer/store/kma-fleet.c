// SPDX-License-Identifier: GPL-2.0
/*
 * kma-fleet.c - the fleet store's connection: libpq connect, the server's
 * errors in one line, the schema created (--init) and its version checked.
 * SQL is constant text; every value goes as a parameter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-fleet-int.h"
#include "kma-strpool.h"

/* the schema, compiled in (generated from schema/fleet.sql by the Makefile) */
extern const char kma_fleet_schema_sql[];

const char *kma_fleet_server(const struct kma_fleet *f)
{
	return f->server;
}

static void describe(struct kma_fleet *f)
{
	const char *host = PQhost(f->conn), *port = PQport(f->conn), *db = PQdb(f->conn);

	snprintf(f->server, sizeof(f->server), "%s:%s/%s", host && *host ? host : "localhost",
		 port && *port ? port : "5432", db && *db ? db : "?");
}

/*
 * One line out of libpq's words: the first line, without the "connection to
 * server ... failed: " lead (we name the server ourselves) and the severity.
 */
static void one_line(const char *msg, char *out, size_t len)
{
	const char *p = msg ? msg : "", *lead;
	size_t n;

	lead = strstr(p, " failed: ");
	if (!strncmp(p, "connection to server ", 21) && lead && !memchr(p, '\n', lead - p))
		p = lead + 9;
	while (!strncmp(p, "FATAL:  ", 8) || !strncmp(p, "ERROR:  ", 8))
		p += 8;
	n = strcspn(p, "\n");
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\r'))
		n--;
	if (!n) {
		p = "connection lost";
		n = strlen(p);
	}
	snprintf(out, len, "%.*s", (int)n, p);
}

int kma_fleet_pg_err(struct kma_fleet *f, PGresult *res, struct kma_err *e)
{
	const char *msg = NULL;
	char line[600];

	if (res)
		msg = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	if (!msg || !*msg)
		msg = res && *PQresultErrorMessage(res) ? PQresultErrorMessage(res) :
		      PQerrorMessage(f->conn);
	one_line(msg, line, sizeof(line));
	if (PQstatus(f->conn) == CONNECTION_BAD && !strstr(line, "connection"))
		kma_err_set(e, KMA_ERR_OTHER, "%s: connection lost: %s", f->server, line);
	else
		kma_err_set(e, KMA_ERR_OTHER, "%s: %s", f->server, line);
	PQclear(res);
	return -1;
}

int kma_fleet_exec(struct kma_fleet *f, const char *sql, struct kma_err *e)
{
	PGresult *res = PQexec(f->conn, sql);

	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		return kma_fleet_pg_err(f, res, e);
	PQclear(res);
	return 0;
}

PGresult *kma_fleet_query(struct kma_fleet *f, const char *sql, int n, const char *const *params,
			  ExecStatusType want, struct kma_err *e)
{
	PGresult *res = PQexecParams(f->conn, sql, n, NULL, params, NULL, NULL, 0);

	if (PQresultStatus(res) != want) {
		kma_fleet_pg_err(f, res, e);
		return NULL;
	}
	return res;
}

/* A notice (CREATE ... IF NOT EXISTS and the like) is not printed by a store. */
static void quiet(void *arg, const char *msg)
{
}

struct kma_fleet *kma_fleet_connect(const char *url, struct kma_err *e)
{
	/* the URL expanded as libpq does; client_encoding UTF8: text is UTF-8 */
	const char *keys[] = { "dbname", "fallback_application_name", "client_encoding", NULL };
	const char *vals[] = { url, "kma-push", "UTF8", NULL };
	struct kma_fleet *f = calloc(1, sizeof(*f));

	if (!f) {
		kma_err_nomem(e);
		return NULL;
	}
	f->conn = PQconnectdbParams(keys, vals, 1);
	if (!f->conn) {
		free(f);
		kma_err_nomem(e);
		return NULL;
	}
	describe(f);
	if (PQstatus(f->conn) != CONNECTION_OK) {
		char line[600];

		/* not "connection lost": there was none */
		one_line(PQerrorMessage(f->conn), line, sizeof(line));
		kma_err_set(e, KMA_ERR_OTHER, "%s: cannot connect: %s", f->server, line);
		kma_fleet_close(f);
		return NULL;
	}
	PQsetNoticeProcessor(f->conn, quiet, NULL);
	return f;
}

void kma_fleet_close(struct kma_fleet *f)
{
	if (!f)
		return;
	PQfinish(f->conn);
	free(f);
}

/*
 * The schema's version: 1 and *@v, 0 when the database has no kma_fleet
 * schema, -1 and why (a kma_fleet schema without its version is not kma's).
 */
static int version(struct kma_fleet *f, int *v, struct kma_err *e)
{
	PGresult *res;
	int have;

	res = kma_fleet_query(f, "SELECT to_regnamespace('kma_fleet') IS NOT NULL, "
			      "to_regclass('kma_fleet.schema_version') IS NOT NULL",
			      0, NULL, PGRES_TUPLES_OK, e);
	if (!res)
		return -1;
	have = *PQgetvalue(res, 0, 0) == 't';
	if (have && *PQgetvalue(res, 0, 1) != 't') {
		PQclear(res);
		return kma_err_set(e, KMA_ERR_OTHER, "%s: schema kma_fleet is not a kma fleet "
				   "store (it has no schema_version table)", f->server);
	}
	PQclear(res);
	if (!have)
		return 0;
	res = kma_fleet_query(f, "SELECT version FROM kma_fleet.schema_version", 0, NULL,
			      PGRES_TUPLES_OK, e);
	if (!res)
		return -1;
	if (PQntuples(res) != 1) {
		PQclear(res);
		return kma_err_set(e, KMA_ERR_OTHER, "%s: kma_fleet.schema_version has no version",
				   f->server);
	}
	*v = atoi(PQgetvalue(res, 0, 0));
	PQclear(res);
	return 1;
}

/*
 * The steps from each older version to the next, run by --init in its
 * transaction: a store keeps its runs across kma-push upgrades. What a step
 * creates is written as schema/fleet.sql has it (t-fleet compares the two).
 * 1 -> 2: allocations.kmalloc_type; stack_frames without its foreign key
 * (a per-row check was most of a push of many new stacks).
 * 2 -> 3: a stack's frames in arrays of its row (stack_frames a view), the
 * allocators beside slab: allocations.kind, kind_totals, kind_callers.
 * 3 -> 4 (kind keys): a page allocation's order, migrate type, gfp names and
 * folded stack in allocations; kind_stacks.
 * 4 -> 5 (kind modules): kind_callers.module, runs.kind_modules (NULL: the
 * runs pushed before, whose modules are unknown).
 */
#define V3_FRAMES \
	"UPDATE kma_fleet.stacks AS s SET addresses = f.a, functions = f.fn, offsets = f.o " \
	"FROM (SELECT stack_key, array_agg(('x' || lpad(substr(address, 3), 16, '0'))::bit(64)" \
	"::bigint ORDER BY depth) AS a, array_agg(function ORDER BY depth) AS fn, " \
	"array_agg(\"offset\" ORDER BY depth) AS o FROM kma_fleet.stack_frames " \
	"GROUP BY stack_key) AS f WHERE f.stack_key = s.stack_key;" \
	"UPDATE kma_fleet.stacks SET addresses = '{}', functions = '{}', offsets = '{}' " \
	"WHERE addresses IS NULL;"

#define V3_TABLES \
	"CREATE TABLE kma_fleet.kind_totals (run_id bigint NOT NULL, kind text NOT NULL, " \
	"allocs bigint NOT NULL, total bigint NOT NULL, net bigint NOT NULL, " \
	"peak bigint NOT NULL, peak_ts bigint, live bigint NOT NULL, frees bigint NOT NULL, " \
	"implicit_frees bigint NOT NULL, unknown_frees bigint NOT NULL, " \
	"null_frees bigint NOT NULL, failed_allocs bigint NOT NULL) PARTITION BY LIST (run_id);" \
	"CREATE TABLE kma_fleet.kind_callers (run_id bigint NOT NULL, kind text NOT NULL, " \
	"caller text NOT NULL, address text, total bigint NOT NULL, net bigint NOT NULL, " \
	"allocs bigint NOT NULL, frees bigint NOT NULL, implicit_frees bigint NOT NULL, " \
	"failed_allocs bigint, live bigint NOT NULL) PARTITION BY LIST (run_id);"

#define V3_FUNCTIONS \
	"CREATE OR REPLACE FUNCTION kma_fleet.add_run_partition(tab text, run bigint) " \
	"RETURNS void LANGUAGE plpgsql AS $$\nBEGIN\n" \
	"\tIF tab NOT IN ('callers', 'functions', 'caches', 'tasks', 'run_stacks', 'generations',\n" \
	"\t\t       'timeline', 'allocations', 'kind_totals', 'kind_callers') THEN\n" \
	"\t\tRAISE EXCEPTION 'kma_fleet.add_run_partition: no such table %', tab;\n" \
	"\tEND IF;\n" \
	"\tEXECUTE format('CREATE TABLE kma_fleet.%I PARTITION OF kma_fleet.%I FOR VALUES IN (%s)',\n" \
	"\t\t       tab || '_r' || run, tab, run);\nEND $$;" \
	"CREATE OR REPLACE FUNCTION kma_fleet.drop_run(run bigint) RETURNS void " \
	"LANGUAGE plpgsql AS $$\nDECLARE\n\ttab text;\nBEGIN\n" \
	"\tFOREACH tab IN ARRAY ARRAY['callers', 'functions', 'caches', 'tasks', 'run_stacks',\n" \
	"\t\t\t\t   'generations', 'timeline', 'allocations', 'kind_totals',\n" \
	"\t\t\t\t   'kind_callers'] LOOP\n" \
	"\t\tEXECUTE format('DROP TABLE IF EXISTS kma_fleet.%I', tab || '_r' || run);\n" \
	"\tEND LOOP;\n\tDELETE FROM kma_fleet.runs WHERE run_id = run;\nEND $$;"

/* 3 -> 4, kind keys: schema/fleet.sql's block "version 4: kind keys" and its functions. */
#define V4_KIND_KEYS \
	"ALTER TABLE kma_fleet.allocations ADD COLUMN page_order integer, " \
	"ADD COLUMN migratetype integer, ADD COLUMN gfp text, ADD COLUMN page_stack text;" \
	"CREATE TABLE kma_fleet.kind_stacks (run_id bigint NOT NULL, kind text NOT NULL, " \
	"stack_key bytea, folded text, total bigint NOT NULL, net bigint NOT NULL, " \
	"allocs bigint NOT NULL, frees bigint NOT NULL, implicit_frees bigint NOT NULL, " \
	"live bigint NOT NULL) PARTITION BY LIST (run_id);" \
	"CREATE OR REPLACE FUNCTION kma_fleet.add_run_partition(tab text, run bigint) " \
	"RETURNS void LANGUAGE plpgsql AS $$\nBEGIN\n" \
	"\tIF tab NOT IN ('callers', 'functions', 'caches', 'tasks', 'run_stacks', 'generations',\n" \
	"\t\t       'timeline', 'allocations', 'kind_totals', 'kind_callers',\n" \
	"\t\t       'kind_stacks') THEN\n" \
	"\t\tRAISE EXCEPTION 'kma_fleet.add_run_partition: no such table %', tab;\n" \
	"\tEND IF;\n" \
	"\tEXECUTE format('CREATE TABLE kma_fleet.%I PARTITION OF kma_fleet.%I FOR VALUES IN (%s)',\n" \
	"\t\t       tab || '_r' || run, tab, run);\nEND $$;" \
	"CREATE OR REPLACE FUNCTION kma_fleet.drop_run(run bigint) RETURNS void " \
	"LANGUAGE plpgsql AS $$\nDECLARE\n\ttab text;\nBEGIN\n" \
	"\tFOREACH tab IN ARRAY ARRAY['callers', 'functions', 'caches', 'tasks', 'run_stacks',\n" \
	"\t\t\t\t   'generations', 'timeline', 'allocations', 'kind_totals',\n" \
	"\t\t\t\t   'kind_callers', 'kind_stacks'] LOOP\n" \
	"\t\tEXECUTE format('DROP TABLE IF EXISTS kma_fleet.%I', tab || '_r' || run);\n" \
	"\tEND LOOP;\n\tDELETE FROM kma_fleet.runs WHERE run_id = run;\nEND $$;"

/* 4 -> 5, kind modules: schema/fleet.sql's block "version 5: kind modules". */
#define V5_KIND_MODULES \
	"ALTER TABLE kma_fleet.kind_callers ADD COLUMN module text;" \
	"ALTER TABLE kma_fleet.runs ADD COLUMN kind_modules boolean;"

static const char *const upgrade_sql[KMA_FLEET_SCHEMA_VERSION] = {
	[1] = "ALTER TABLE kma_fleet.allocations ADD COLUMN kmalloc_type integer;"
	      "ALTER TABLE kma_fleet.stack_frames DROP CONSTRAINT IF EXISTS "
	      "stack_frames_stack_key_fkey;"
	      "UPDATE kma_fleet.schema_version SET version = 2;",
	[2] = "ALTER TABLE kma_fleet.stacks ADD COLUMN addresses bigint[], "
	      "ADD COLUMN functions text[], ADD COLUMN offsets bigint[];"
	      V3_FRAMES
	      "ALTER TABLE kma_fleet.stacks ALTER COLUMN addresses SET NOT NULL, "
	      "ALTER COLUMN functions SET NOT NULL, ALTER COLUMN offsets SET NOT NULL;"
	      "DROP TABLE kma_fleet.stack_frames;"
	      "CREATE VIEW kma_fleet.stack_frames AS SELECT s.stack_key, (f.n - 1)::integer AS "
	      "depth, '0x' || to_hex(f.address) AS address, f.function, f.\"offset\" "
	      "FROM kma_fleet.stacks AS s, unnest(s.addresses, s.functions, s.offsets) "
	      "WITH ORDINALITY AS f (address, function, \"offset\", n);"
	      "ALTER TABLE kma_fleet.allocations ALTER COLUMN bytes_req DROP NOT NULL, "
	      "ALTER COLUMN gfp_flags DROP NOT NULL, ALTER COLUMN alloc_cpu DROP NOT NULL, "
	      "ADD COLUMN kind text NOT NULL DEFAULT 'slab';"
	      V3_TABLES V3_FUNCTIONS
	      "UPDATE kma_fleet.schema_version SET version = 3;",
	[3] = V4_KIND_KEYS
	      "UPDATE kma_fleet.schema_version SET version = 4;",
	[4] = V5_KIND_MODULES
	      "UPDATE kma_fleet.schema_version SET version = 5;",
};

/* --init on an older store: its steps in order; 0, or -1 and why. */
static int upgrade(struct kma_fleet *f, int v, struct kma_err *e)
{
	if (v < 1)
		return kma_err_set(e, KMA_ERR_OTHER, "%s: the fleet schema is version %d, which "
				   "no kma-push wrote", f->server, v);
	for (; v < KMA_FLEET_SCHEMA_VERSION; v++)
		if (kma_fleet_exec(f, upgrade_sql[v], e))
			return -1;
	return 0;
}

static int check_version(struct kma_fleet *f, int v, struct kma_err *e)
{
	if (v > KMA_FLEET_SCHEMA_VERSION)
		return kma_err_set(e, KMA_ERR_OTHER, "%s: the fleet schema is version %d, newer "
				   "than this kma-push knows (%d): use a newer kma-push", f->server,
				   v, KMA_FLEET_SCHEMA_VERSION);
	if (v < KMA_FLEET_SCHEMA_VERSION)
		return kma_err_set(e, KMA_ERR_OTHER, "%s: the fleet schema is version %d, older "
				   "than this kma-push writes (%d): kma-push --init upgrades it",
				   f->server, v,
				   KMA_FLEET_SCHEMA_VERSION);
	return 0;
}

int kma_fleet_check(struct kma_fleet *f, struct kma_err *e)
{
	int v = 0, r = version(f, &v, e);

	if (r < 0)
		return -1;
	if (!r)
		return kma_err_set(e, KMA_ERR_OTHER, "%s: not a kma fleet store (no schema "
				   "kma_fleet; kma-push --init creates it)", f->server);
	return check_version(f, v, e);
}

int kma_fleet_init(struct kma_fleet *f, struct kma_err *e)
{
	int v = 0, r;

	/*
	 * One transaction, and one --init at a time: a second waits on the lock,
	 * then finds the schema made.
	 */
	if (kma_fleet_exec(f, "BEGIN", e))
		return -1;
	if (kma_fleet_exec(f, "SELECT pg_advisory_xact_lock(1802330450)", e))
		goto fail;
	r = version(f, &v, e);
	if (r < 0)
		goto fail;
	if (r > 0 && v < KMA_FLEET_SCHEMA_VERSION && (upgrade(f, v, e) || version(f, &v, e) < 0))
		goto fail;
	if (r > 0 && check_version(f, v, e))
		goto fail;
	if (!r && kma_fleet_exec(f, kma_fleet_schema_sql, e))
		goto fail;
	return kma_fleet_exec(f, "COMMIT", e);
fail:
	PQclear(PQexec(f->conn, "ROLLBACK"));
	return -1;
}

/* A comm's hex (the store keeps it as bytea) back into its bytes, interned; NULL stays NULL. */
int kma_fleet_comm_of(const char *hex, struct kma_strpool *pool, const char **out)
{
	size_t n, k;
	char *b;

	*out = NULL;
	if (!hex)
		return 0;
	n = strlen(hex) / 2;
	b = malloc(n + 1);
	if (!b)
		return -1;
	for (k = 0; k < n; k++) {
		unsigned int x;

		sscanf(hex + 2 * k, "%2x", &x);
		b[k] = (char)x;
	}
	b[n] = '\0';
	*out = kma_strpool_intern(pool, b, n);
	free(b);
	return *out ? 0 : -1;
}
