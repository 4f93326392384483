/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-diff-int.h - what kma-diff-load.c lends the other kma-diff store files
 * (kma-diff-page.c): opening an operand, the kinds' schema check and the
 * query that sums a kind's rows into a struct kma_diff_table. Calls go one
 * way: kma-diff-load.c calls none of its borrowers.
 */
#ifndef KMA_DIFF_INT_H
#define KMA_DIFF_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "kma-err.h"
#include "match/kma-diffmatch.h"

struct kma_select;

/* The operand at @path, an SQLite file, opened read-only; 0, or -1 with why (*db to close). */
int kma_diff_open(const char *path, sqlite3 **db, struct kma_err *why);

/* One integer of a one-row query; 0, or -1 with why. */
int kma_diff_query_int(sqlite3 *db, const char *sql, int64_t *out, struct kma_err *why);

/*
 * A kma report.db (a trace table) of a schema version with the allocators'
 * rows (KMA_DIFF_KINDS_VERSION on); 0, or -1 with why naming --kind @name.
 */
int kma_diff_check_kinds_db(sqlite3 *db, const char *name, struct kma_err *why);

/*
 * The columns of a kind's row query: what the filters judge (the caller's
 * name; its address as '0x<hex>', or NULL when the caller is a function
 * name, as a page's; the folded stack; the task), then bytes, live bytes,
 * allocations and frees; a kind may add its key's columns after these.
 */
enum kma_diff_kcol {
	KMA_DK_CALLER, KMA_DK_ADDRESS, KMA_DK_FOLDED, KMA_DK_PID, KMA_DK_COMM, KMA_DK_TOTAL,
	KMA_DK_NEXT = KMA_DK_TOTAL + 4,
};

/* The key of @st's row in grouping @g, in @buf (of @len) or a string of the row. */
typedef const char *(*kma_diff_key_fn)(sqlite3_stmt *st, int g, char *buf, size_t len);

/*
 * The rows of @sql (columns enum kma_diff_kcol; ?1 bound to @sc's generation,
 * -1 without one; ?2 to @kind unless it is -1) that @sc's filter keeps, into
 * @t: each row's entry (@key in grouping @g) and the sums. 0, or -1 with why
 * (no such generation, a negative count or one past 2^63 - 1, out of memory).
 */
struct kma_diff_scope;
int kma_diff_kind_query(sqlite3 *db, const char *sql, int kind, kma_diff_key_fn key, int g,
			const struct kma_diff_scope *sc, struct kma_diff_table *t,
			struct kma_err *why);

/*
 * A percpu or vmalloc caller's module as kma-analyze -g module names it
 * (sites/kma-sites.c), from kind_callers' module and caller: the module,
 * else "[unknown]" for a caller without a symbol ('0x<hex>', "[no stack]"),
 * else "vmlinux". Both report.db and store operands (kma-fleet-diffkind.c).
 */
const char *kma_diff_module_name(const char *module, const char *caller);

/*
 * A page key's name from its value @n (and for gfp its text): a migrate type
 * by name, '-' when the event has none, else its number; gfp flags by the
 * kernel's names, their number without; order and the others their number.
 * The names of report.db operands and of the store's (kma-fleet-diffkind.c).
 */
const char *kma_diff_page_name(int g, int64_t n, const char *text, char *buf, size_t len);

#endif /* KMA_DIFF_INT_H */
