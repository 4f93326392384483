// SPDX-License-Identifier: GPL-2.0
/*
 * kma-diff-page.c - kma-diff --kind page: a report.db's page allocations
 * (page_alloc_rows, page_shapes and page_trace, written by kma-analyze
 * --pages) grouped as kma-analyze --pages -g KEY groups them, for every key
 * it has: order, migrate, gfp, comm, pid, function, stack, generation.
 *
 * A row's numbers are those of kma-analyze --pages -f csv: total the bytes
 * allocated (pages x PAGE_SIZE, page_trace.page_size), net the bytes of
 * those still live, allocs, and frees the allocations closed by an
 * mm_page_free or implicitly by a new allocation at their pfn (its frees
 * column, which counts implicit frees too; the other kinds' count traced
 * frees only). The filters and the generation narrow the allocations as
 * they do in kma-analyze --pages; the sums are the rows'.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "match/kma-pagealloc.h"	/* the groupings, migrate type names */
#include "sites/kma-stacks.h"		/* KMA_NO_STACK */
#include "kma-diff-load.h"
#include "kma-diff-int.h"

/*
 * One row per (shape, generation) of the allocations in generation ?1 (-1:
 * all), in the columns of enum kma_diff_kcol, then the key columns below.
 * An allocation with a free_kind is closed: by mm_page_free (0) or
 * implicitly (1); without one it is live at the end. A product past 2^63 - 1
 * (SQLite makes it a real) is -1, which kma_diff_kind_query refuses.
 */
static const char page_sql[] =
	"WITH n AS (SELECT shape_id, generation, COUNT(*) AS allocs, "
	"COUNT(free_kind) AS frees, COUNT(*) - COUNT(free_kind) AS live "
	"FROM page_alloc_rows WHERE ?1 < 0 OR generation = ?1 GROUP BY shape_id, generation), "
	"b AS (SELECT sh.*, n.*, n.allocs * (1 << sh.page_order) * pt.page_size AS total, "
	"n.live * (1 << sh.page_order) * pt.page_size AS net "
	"FROM n JOIN page_shapes AS sh ON sh.id = n.shape_id CROSS JOIN page_trace AS pt) "
	"SELECT function, NULL, stack, pid, comm, "
	"CASE WHEN typeof(total) = 'integer' THEN total ELSE -1 END, "
	"CASE WHEN typeof(net) = 'integer' THEN net ELSE -1 END, allocs, frees, "
	"page_order, migratetype, gfp, gfp_flags, generation FROM b";

enum { P_ORDER = KMA_DK_NEXT, P_MIGRATE, P_GFP, P_GFP_FLAGS, P_GENERATION };

/* A text column, or NULL. */
static const char *text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

const char *kma_diff_page_name(int g, int64_t n, const char *text, char *buf, size_t len)
{
	const char *s;

	if (g == KMA_PG_MIGRATE) {
		s = kma_migrate_name((int)n);
		if (s)
			return s;
		if (n < 0)
			return "-";
	} else if (g == KMA_PG_GFP && text) {
		return text;
	}
	snprintf(buf, len, "%" PRIu64, (uint64_t)n);
	return buf;
}

/*
 * The row's key in grouping g (enum kma_page_group), as kma-analyze --pages
 * prints it (report/kma-report-pages-rows.c): a migrate type by name, '-'
 * when the event has none, else its number; gfp flags as the kernel prints
 * them, their number without the text; no stack is '[no stack]'.
 */
static const char *page_key(sqlite3_stmt *st, int g, char *buf, size_t len)
{
	const char *s;
	int64_t n;

	switch (g) {
	case KMA_PG_MIGRATE:
		return kma_diff_page_name(g, sqlite3_column_int64(st, P_MIGRATE), NULL, buf, len);
	case KMA_PG_GFP:
		return kma_diff_page_name(g, sqlite3_column_int64(st, P_GFP_FLAGS), text(st, P_GFP),
					  buf, len);
	case KMA_PG_COMM:
		/* a task without a name is row 0, as kma-analyze keys it */
		s = text(st, KMA_DK_COMM);
		return s ? s : "0";
	case KMA_PG_PID:
		snprintf(buf, len, "%d", (int)sqlite3_column_int64(st, KMA_DK_PID));
		return buf;
	case KMA_PG_FUNCTION:
	case KMA_PG_STACK:
		s = text(st, g == KMA_PG_STACK ? KMA_DK_FOLDED : KMA_DK_CALLER);
		return s ? s : KMA_NO_STACK;
	default:
		n = sqlite3_column_int64(st, g == KMA_PG_ORDER ? P_ORDER : P_GENERATION);
		return kma_diff_page_name(g, n, NULL, buf, len);
	}
}

/*
 * The page allocator's rows are there: report.db has them when kma-analyze
 * ran with --pages, and with a page event in the trace. For -g stack, some
 * allocation has a stack. The trace's duration into t. 0, or -1 with why.
 */
static int check_page_db(sqlite3 *db, int g, struct kma_diff_table *t, struct kma_err *why)
{
	int64_t n;

	if (kma_diff_check_kinds_db(db, "page", why) ||
	    kma_diff_query_int(db, "SELECT COUNT(*) FROM page_trace", &n, why))
		return -1;
	if (!n)
		return kma_err_set(why, KMA_ERR_OTHER, "no page allocator rows (written without "
				   "--pages: give the trace.dat, or analyze it with kma-analyze "
				   "--pages)");
	if (kma_diff_query_int(db, "SELECT alloc_events + free_events FROM page_trace", &n, why))
		return -1;
	if (!n)
		return kma_err_set(why, KMA_ERR_OTHER, "no page allocations or frees in the trace");
	/* an order kma-analyze never writes would shift the page count away */
	if (kma_diff_query_int(db, "SELECT (SELECT COUNT(*) FROM page_shapes WHERE page_order "
			       "NOT BETWEEN 0 AND 62) + (SELECT COUNT(*) FROM page_trace "
			       "WHERE page_size <= 0)", &n, why))
		return -1;
	if (n)
		return kma_err_set(why, KMA_ERR_OTHER, "a page order or page size out of range "
				   "(damaged, or not written by kma-analyze)");
	if (g == KMA_PG_STACK) {
		if (kma_diff_query_int(db, "SELECT stacks FROM page_trace", &n, why))
			return -1;
		if (!n)
			return kma_err_set(why, KMA_ERR_OTHER, "no call stacks on its page "
					   "allocations (record with trace-cmd record -T or "
					   "kma-record --stacks) for -g stack");
	}
	if (kma_diff_query_int(db, "SELECT MAX(last_ts - first_ts, 0) FROM trace", &n, why))
		return -1;
	t->duration_ns = (uint64_t)n;
	return 0;
}

int kma_diff_load_page(const char *path, int g, const struct kma_diff_scope *sc,
		       struct kma_diff_table *t, struct kma_err *why)
{
	sqlite3 *db = NULL;
	int err = -1;

	if (!kma_page_group_name(g))
		return kma_err_set(why, KMA_ERR_OTHER, "no page grouping %d", g);
	if (!kma_diff_open(path, &db, why) && !check_page_db(db, g, t, why))
		err = kma_diff_kind_query(db, page_sql, -1, page_key, g, sc, t, why);
	sqlite3_close(db);
	return err;
}
