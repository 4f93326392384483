/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-fleet.h - the fleet store: report.db runs pushed into a central
 * PostgreSQL database (schema/fleet.sql, kma-fleet(5)) through libpq. The
 * store layer: returns 0/-1 or NULL and a struct kma_err, never prints.
 */
#ifndef KMA_FLEET_H
#define KMA_FLEET_H

#include <stddef.h>
#include <stdint.h>

#include "kma-err.h"

/* The schema version this kma-push creates and writes (schema/fleet.sql). */
#define KMA_FLEET_SCHEMA_VERSION 5

/*
 * The advisory lock (pg_advisory_xact_lock) a push holds from adding rows to
 * kma_fleet.stacks to its commit: the pushes that add stacks take turns.
 */
#define KMA_FLEET_STACKS_LOCK "1802330451"

struct kma_fleet;

/*
 * Connects to @url (a libpq connection string or URI; the password the libpq
 * way: PGPASSWORD, ~/.pgpass, a service file, or in @url; never put in an
 * error message). NULL and @e on failure; @e's message starts with the server
 * (kma_fleet_server's words, as libpq resolved them).
 */
struct kma_fleet *kma_fleet_connect(const char *url, struct kma_err *e);
void kma_fleet_close(struct kma_fleet *f);

/* "SOCKET-OR-HOST:PORT/DATABASE" of the connection: no user, no password. */
const char *kma_fleet_server(const struct kma_fleet *f);

/*
 * --init: creates the schema when the database has none (one transaction);
 * 0 when it exists at this version, -1 when it is newer or not kma's.
 */
int kma_fleet_init(struct kma_fleet *f, struct kma_err *e);

/* The database holds a fleet schema of this version: 0, else -1 and why. */
int kma_fleet_check(struct kma_fleet *f, struct kma_err *e);

struct kma_fleet_label {
	const char *key, *value;
};

struct kma_fleet_push {
	const char *db;		/* the report.db read */
	const char *file;	/* the file as given (a trace or that report.db) */
	const char *source;	/* "trace" or "report.db" */
	const struct kma_fleet_label *labels;
	int nr_labels;
	int allocations;	/* every allocation too */
	int replace;		/* the same trace and options: replaced */
};

enum kma_fleet_pushed {
	KMA_FLEET_NEW = 0,	/* a new run */
	KMA_FLEET_SAME,		/* the same trace and options were there: nothing done */
	KMA_FLEET_REPLACED,	/* ... and replaced (--replace) */
};

/*
 * Pushes one report.db as a run, in one transaction (a failure leaves
 * nothing). Returns enum kma_fleet_pushed with *@run_id (the existing run's
 * for KMA_FLEET_SAME), or -1 and @e. @e's kind is KMA_ERR_BROKEN when the
 * report.db is at fault (its message then does not name the file), else
 * KMA_ERR_OTHER: the server's message.
 */
int kma_fleet_push(struct kma_fleet *f, const struct kma_fleet_push *p, long long *run_id,
		   struct kma_err *e);

/*
 * The hex SHA-256 of a file's content (kma-fleet-sha256.c; a stack's key is
 * kma-stack-key.c's); -1 and @e (errno's words) when unreadable.
 */
int kma_sha256_file(const char *path, char hex[65], struct kma_err *e);

/*
 * The same, made by a thread of its own (a 166 MB report.db: 0.24 s) while
 * the push does other work: NULL when no thread could start. _finish joins
 * it and frees it (NULL @hex and @e: the result dropped).
 */
struct kma_file_id;
struct kma_file_id *kma_file_id_start(const char *path);
int kma_file_id_finish(struct kma_file_id *j, char hex[65], struct kma_err *e);

#endif /* KMA_FLEET_H */
