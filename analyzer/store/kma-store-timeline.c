// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store-timeline.c - the timeline and timeline_callers tables (issue 16):
 * the matcher's binned series (match/kma-timeline.h), written at commit.
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

static int write_bins(sqlite3 *db, const struct kma_timeline *tl)
{
	const struct kma_tl_bin *b;
	uint64_t start, width;
	uint32_t i, n = kma_timeline_bins(tl, &start, &width, &b);
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(db, "INSERT INTO timeline (bin, ts, width_ns, allocs, alloc_bytes,"
			       " frees, free_bytes, live_bytes, live_max) VALUES"
			       " (?,?,?,?,?,?,?,?,?)", -1, &st, NULL) != SQLITE_OK)
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
		if (step(st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

static int write_callers(sqlite3 *db, const struct kma_timeline *tl,
			 const struct kma_store_run *run)
{
	const struct kma_tl_bin *b;
	const uint32_t *top;
	uint64_t start, width;
	uint32_t i, k, n = kma_timeline_bins(tl, &start, &width, &b);
	uint32_t nr_top = kma_timeline_top(tl, &top);
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(db, "INSERT INTO timeline_callers (bin, rank, caller_id, caller,"
			       " live_bytes) VALUES (?,?,?,?,?)", -1, &st, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < n; i++) {
		for (k = 0; k <= nr_top; k++) {
			sqlite3_bind_int64(st, 1, i);
			sqlite3_bind_int64(st, 2, k);
			if (k < nr_top && top[k] < run->nr_callers) {
				sqlite3_bind_int64(st, 3, top[k] + 1);	/* callers.id */
				kma_bind_text(st, 4, run->callers[top[k]].name);
			} else {
				sqlite3_bind_null(st, 3);
				kma_bind_text(st, 4, "[other]");
			}
			sqlite3_bind_int64(st, 5, I64(kma_timeline_live(tl, k, i)));
			if (step(st))
				goto out;
		}
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

int kma_store_write_timeline(sqlite3 *db, const struct kma_store_run *run)
{
	if (!run->timeline)
		return 0;
	if (write_bins(db, run->timeline) || write_callers(db, run->timeline, run))
		return -1;
	return 0;
}
