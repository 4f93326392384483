/* SPDX-License-Identifier: GPL-2.0 */
/* kma-fleet-int.h - what the fleet store's files share (kma-fleet.c has them). */
#ifndef KMA_FLEET_INT_H
#define KMA_FLEET_INT_H

#include <libpq-fe.h>

#include "kma-fleet.h"

struct kma_fleet {
	PGconn	*conn;
	char	server[512];
};

/*
 * The server's reason for @res (NULL: the connection's) into @e, as
 * "SERVER: what", one line; @res is cleared. Returns -1.
 */
int kma_fleet_pg_err(struct kma_fleet *f, PGresult *res, struct kma_err *e);

/* @sql (no parameters) run; 0, or -1 and the server's reason. */
int kma_fleet_exec(struct kma_fleet *f, const char *sql, struct kma_err *e);

/*
 * @sql with @n text parameters (NULL: SQL NULL); the result when its status is
 * @want, else NULL and the server's reason.
 */
PGresult *kma_fleet_query(struct kma_fleet *f, const char *sql, int n, const char *const *params,
			  ExecStatusType want, struct kma_err *e);

/*
 * The per-cache, per-task and per-stack sums of report.db @db in TEMP tables
 * (kma-fleet-counts.c): one pass over alloc_rows instead of the views'. 0, or
 * -1 and @e (KMA_ERR_BROKEN: the report.db's fault).
 */
struct sqlite3;
int kma_fleet_counts(struct sqlite3 *db, struct kma_err *e);

#endif /* KMA_FLEET_INT_H */
