// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store-timeline.c - the over-time tables, written at commit from a
 * matcher's binned series (match/kma-timeline.h): timeline and
 * timeline_callers (slab objects, in bytes), page_timeline,
 * page_timeline_tasks and page_timeline_functions (the page matcher's, fed in
 * pages). One bin writer and one series writer serve them all.
 */
#include <stdlib.h>
#include <string.h>

#include "match/kma-timeline.h"
#include "kma-store-int.h"

#define I64(v)	((sqlite3_int64)(v))

/*
 * Every bin through @sql's nine columns (bin, ts, width, allocs, alloc
 * amount, frees, free amount, live, live max); with @bytes, a tenth: live
 * times @scale (page_timeline's live_bytes).
 */
static int write_bins(sqlite3 *db, const struct kma_timeline *tl, const char *sql,
		      int bytes, uint64_t scale)
{
	const struct kma_tl_bin *b;
	uint64_t start, width;
	uint32_t i, n = kma_timeline_bins(tl, &start, &width, &b);
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, i);
		sqlite3_bind_int64(st, 2, I64(start + i * width));
		sqlite3_bind_int64(st, 3, I64(width));
		sqlite3_bind_int64(st, 4, I64(b[i].allocs));
		sqlite3_bind_int64(st, 5, I64(b[i].alloc_bytes));
		sqlite3_bind_int64(st, 6, I64(b[i].frees));
		sqlite3_bind_int64(st, 7, I64(b[i].free_bytes));
		sqlite3_bind_int64(st, 8, I64(b[i].live));
		sqlite3_bind_int64(st, 9, I64(b[i].live_max));
		if (bytes)
			sqlite3_bind_int64(st, 10, I64(b[i].live * scale));
		if (kma_step(st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/*
 * Binds series @k's key (NULL: the others, "[other]") from @id, the
 * timeline's row id, at parameters @base + 3, ...
 */
typedef void (*bind_series_fn)(sqlite3_stmt *st, int base, const void *ctx, uint32_t id,
			       int top);

/*
 * Every bin's live amount of each top series and of the others: @sql
 * ("INSERT ... VALUES ") then one @tuple of @live_col parameters (bin, rank,
 * key..., live) per series, all of a bin's rows in one statement. A
 * statement per row cost about 8,000 instructions a row (its start, its
 * statement journal, its halt), the rows themselves about a third of that;
 * the table has at most KMA_TL_MAX_BINS * (KMA_TL_TOP + 1) rows on any trace.
 */
static int write_series(sqlite3 *db, const struct kma_timeline *tl, const char *sql,
			const char *tuple, int live_col, bind_series_fn bind, const void *ctx)
{
	const struct kma_tl_bin *b;
	const uint32_t *top;
	uint64_t start, width;
	uint32_t i, k, n = kma_timeline_bins(tl, &start, &width, &b);
	uint32_t nr_top = kma_timeline_top(tl, &top);
	size_t len = strlen(sql), tlen = strlen(tuple);
	char *text = malloc(len + (nr_top + 1) * (tlen + 1) + 1);
	sqlite3_stmt *st = NULL;
	int base, ret = -1;

	if (!text)
		return -1;
	memcpy(text, sql, len);
	for (k = 0; k <= nr_top; k++) {
		if (k)
			text[len++] = ',';
		memcpy(text + len, tuple, tlen);
		len += tlen;
	}
	text[len] = '\0';
	if (sqlite3_prepare_v2(db, text, -1, &st, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < n; i++) {
		for (k = 0; k <= nr_top; k++) {
			base = (int)k * live_col;
			sqlite3_bind_int64(st, base + 1, i);
			sqlite3_bind_int64(st, base + 2, k);
			bind(st, base, ctx, k < nr_top ? top[k] : 0, k < nr_top);
			sqlite3_bind_int64(st, base + live_col, I64(kma_timeline_live(tl, k, i)));
		}
		if (kma_step(st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	free(text);
	return ret;
}

/* timeline_callers: caller_id (callers.id) and caller. */
static void bind_caller(sqlite3_stmt *st, int base, const void *ctx, uint32_t id, int top)
{
	const struct kma_store_results *run = ctx;

	if (top && id < run->nr_callers) {
		sqlite3_bind_int64(st, base + 3, id + 1);
		kma_bind_text(st, base + 4, run->callers[id].name);
	} else {
		sqlite3_bind_null(st, base + 3);
		kma_bind_text(st, base + 4, "[other]");
	}
}

/* page_timeline_tasks: comm (the page matcher's comm rows are the series). */
static void bind_task(sqlite3_stmt *st, int base, const void *ctx, uint32_t id, int top)
{
	const struct kma_store_pages *p = ctx;
	const char *name = "[other]";

	if (top && id < p->nr_series && p->series[id].name)
		name = p->series[id].name;
	kma_bind_text(st, base + 3, name);
}

/*
 * page_timeline_functions: the caller function (the function rows are the
 * series; an allocation without a stack is in the "[no stack]" one).
 */
static void bind_function(sqlite3_stmt *st, int base, const void *ctx, uint32_t id, int top)
{
	const struct kma_store_pages *p = ctx;
	const char *name = "[other]";

	if (top && id < p->nr_fn_series)
		name = p->fn_series[id].name ? p->fn_series[id].name : "[no stack]";
	kma_bind_text(st, base + 3, name);
}

int kma_store_write_timeline(sqlite3 *db, const struct kma_store_results *run)
{
	if (!run->timeline)
		return 0;
	if (write_bins(db, run->timeline, "INSERT INTO timeline (bin, ts, width_ns, allocs,"
		       " alloc_bytes, frees, free_bytes, live_bytes, live_max) VALUES"
		       " (?,?,?,?,?,?,?,?,?)", 0, 0) ||
	    write_series(db, run->timeline, "INSERT INTO timeline_callers (bin, rank, caller_id,"
			 " caller, live_bytes) VALUES ", "(?,?,?,?,?)", 5, bind_caller, run))
		return -1;
	return 0;
}

int kma_store_write_page_timeline(sqlite3 *db, const struct kma_store_results *run)
{
	const struct kma_store_pages *p = run->pages;

	if (!p || !p->timeline)
		return 0;
	/* the page matcher's timeline counts pages where the slab one counts bytes */
	if (write_bins(db, p->timeline, "INSERT INTO page_timeline (bin, ts, width_ns, allocs,"
		       " alloc_pages, frees, free_pages, live_pages, live_max, live_bytes)"
		       " VALUES (?,?,?,?,?,?,?,?,?,?)", 1, p->page_size) ||
	    write_series(db, p->timeline, "INSERT INTO page_timeline_tasks (bin, rank, comm,"
			 " live_pages) VALUES ", "(?,?,?,?)", 4, bind_task, p))
		return -1;
	if (p->fn_timeline &&
	    write_series(db, p->fn_timeline, "INSERT INTO page_timeline_functions (bin, rank,"
			 " function, live_pages) VALUES ", "(?,?,?,?)", 4, bind_function, p))
		return -1;
	return 0;
}
