/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-store-int.h - helpers shared by the report.db writer's files.
 */
#ifndef KMA_STORE_INT_H
#define KMA_STORE_INT_H

#include <stdint.h>
#include <sqlite3.h>

#include "kma-store.h"

/* "0x%llx" without snprintf: this runs for every row. buf: at least 19 bytes. */
static inline int kma_hex(char *buf, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int n = 0, len;

	do {
		tmp[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	buf[0] = '0';
	buf[1] = 'x';
	for (len = 2; n; len++)
		buf[len] = tmp[--n];
	buf[len] = '\0';
	return len;
}

static inline void kma_bind_text(sqlite3_stmt *st, int i, const char *t)
{
	if (t)
		sqlite3_bind_text(st, i, t, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

/* Everything but the streamed rows: callers, generations, modules, losses, trace facts. */
int kma_store_write_tables(sqlite3 *db, const struct kma_store_run *run);

#endif /* KMA_STORE_INT_H */
