// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store-page-timeline.c - page_timeline and page_timeline_tasks (H2,
 * issues 16+17): the page matcher's binned series (match/kma-timeline.h fed
 * in pages, not bytes), written at commit as the slab timeline is.
 */
#include "match/kma-timeline.h"
#include "kma-store-int.h"

#define I64(v)	((sqlite3_int64)(v))

static int step(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int write_bins(sqlite3 *db, const struct kma_timeline *tl, uint64_t page_size)
{
	const struct kma_tl_bin *b;
	uint64_t start, width;
	uint32_t i, n = kma_timeline_bins(tl, &start, &width, &b);
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(db, "INSERT INTO page_timeline (bin, ts, width_ns, allocs,"
			       " alloc_pages, frees, free_pages, live_pages, live_max,"
			       " live_bytes) VALUES (?,?,?,?,?,?,?,?,?,?)", -1, &st,
			       NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, i);
		sqlite3_bind_int64(st, 2, I64(start + i * width));
		sqlite3_bind_int64(st, 3, I64(width));
		sqlite3_bind_int64(st, 4, I64(b[i].allocs));
		sqlite3_bind_int64(st, 5, I64(b[i].alloc_bytes));	/* pages: see above */
		sqlite3_bind_int64(st, 6, I64(b[i].frees));
		sqlite3_bind_int64(st, 7, I64(b[i].free_bytes));
		sqlite3_bind_int64(st, 8, I64(b[i].live));
		sqlite3_bind_int64(st, 9, I64(b[i].live_max));
		sqlite3_bind_int64(st, 10, I64(b[i].live * page_size));
		if (step(st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

static int write_tasks(sqlite3 *db, const struct kma_timeline *tl,
		       const struct kma_store_pages *p)
{
	const struct kma_tl_bin *b;
	const uint32_t *top;
	uint64_t start, width;
	uint32_t i, k, n = kma_timeline_bins(tl, &start, &width, &b);
	uint32_t nr_top = kma_timeline_top(tl, &top);
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(db, "INSERT INTO page_timeline_tasks (bin, rank, comm,"
			       " live_pages) VALUES (?,?,?,?)", -1, &st, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < n; i++) {
		for (k = 0; k <= nr_top; k++) {
			const char *name = "[other]";

			if (k < nr_top && top[k] < p->nr_series && p->series[top[k]].name)
				name = p->series[top[k]].name;
			sqlite3_bind_int64(st, 1, i);
			sqlite3_bind_int64(st, 2, k);
			kma_bind_text(st, 3, name);
			sqlite3_bind_int64(st, 4, I64(kma_timeline_live(tl, k, i)));
			if (step(st))
				goto out;
		}
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

int kma_store_write_page_timeline(sqlite3 *db, const struct kma_store_run *run)
{
	const struct kma_store_pages *p = run->pages;

	if (!p || !p->timeline)
		return 0;
	if (write_bins(db, p->timeline, p->page_size) || write_tasks(db, p->timeline, p))
		return -1;
	return 0;
}
