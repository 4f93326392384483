// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store-kinds.c - the percpu and vmalloc allocators in report.db:
 * kind_alloc_rows (integers, streamed by the store's writer thread as the
 * slab allocator's alloc_rows are: the kind matchers' finished allocations
 * are queued with them, kma_store_kind_row()), and at the commit
 * kind_callers (with each caller's module, its site's, as the slab
 * callers') and kind_totals, the numbers of every kind that the text
 * report's "Kernel memory by allocator" prints (match/kma-account.h).
 * The view allocations of schema/kma.sql shows the rows beside the slab
 * allocator's; kind_stats and kind_caller_stats the tables.
 */
#include <stdlib.h>

#include "match/kma-account.h"
#include "kma-store-int.h"

#define I64(v)	((sqlite3_int64)(v))

struct kma_kind_writer {
	sqlite3_stmt	*row;
};

void kma_store_kind_writer_free(struct kma_kind_writer *w)
{
	if (!w)
		return;
	sqlite3_finalize(w->row);
	free(w);
}

static struct kma_kind_writer *kind_writer(sqlite3 *db)
{
	struct kma_kind_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	if (sqlite3_prepare_v2(db, "INSERT INTO kind_alloc_rows (kind, ptr, caller_id, bytes_alloc,"
			       " gfp_flags, alloc_ts, alloc_cpu, task_id, generation,"
			       " life, free_cpu, free_pid, implicit, stack_id, free_stack_id)"
			       " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &w->row,
			       NULL) != SQLITE_OK) {
		kma_store_kind_writer_free(w);
		return NULL;
	}
	return w;
}

/* One finished allocation of kind @kind; 0 or -1. */
static int write_row(struct kma_kind_writer *w, struct kma_dicts *d, int kind,
		     const struct kma_alloc_row *a)
{
	sqlite3_stmt *st = w->row;
	int freed = a->free_kind >= 0;
	uint32_t task;

	if (kma_dict_task(d, a->pid, a->comm, &task))
		return -1;
	sqlite3_bind_int(st, 1, kind);
	sqlite3_bind_int64(st, 2, I64(a->ptr));
	sqlite3_bind_int64(st, 3, a->caller_id + 1);
	sqlite3_bind_int64(st, 4, I64(a->bytes_alloc));
	/* vmalloc:alloc_vmap_area has no gfp flags */
	kma_bind_int_or_null(st, 5, kind != KMA_KIND_VMALLOC, I64(a->gfp_flags));
	sqlite3_bind_int64(st, 6, I64(a->alloc_ts));
	sqlite3_bind_int(st, 7, a->alloc_cpu);
	sqlite3_bind_int64(st, 8, task);
	sqlite3_bind_int64(st, 9, a->generation);
	/* unsigned difference: exact also when the free's timestamp is the smaller */
	kma_bind_int_or_null(st, 10, freed, I64(a->free_ts - a->alloc_ts));
	kma_bind_int_or_null(st, 11, freed, a->free_cpu);
	kma_bind_int_or_null(st, 12, freed, a->free_pid);
	kma_bind_int_or_null(st, 13, freed, a->free_kind == KMA_FREE_IMPLICIT);
	kma_bind_int_or_null(st, 14, a->stack_id != 0, a->stack_id);
	kma_bind_int_or_null(st, 15, freed && a->free_stack_id, a->free_stack_id);
	return kma_step(st);
}

int kma_store_kind_rows(sqlite3 *db, struct kma_kind_writer **pw, struct kma_dicts *d,
			const struct kma_alloc_row *rows, uint32_t n)
{
	uint32_t i;

	if (!n)
		return 0;
	if (!*pw && !(*pw = kind_writer(db)))
		return -1;
	for (i = 0; i < n; i++)
		if (write_row(*pw, d, kma_kind_of_event(rows[i].alloc_kind), &rows[i]))
			return -1;
	return 0;
}

/*
 * The module of the caller at @addr, as callers.module is a slab caller's:
 * its site's (kma_sites_module's), NULL for vmlinux or unresolved.
 */
static const char *module_of(const struct kma_store_results *run, uint64_t addr)
{
	const struct kma_site *site = run->site_of ? run->site_of(run->site_ctx, addr) : NULL;

	return site ? site->module : NULL;
}

/* kind_callers of kind @kind from its matcher's rows; 0 or -1. */
static int write_callers(sqlite3 *db, int kind, const struct kma_store_kind *k,
			 const struct kma_store_results *run)
{
	sqlite3_stmt *st;
	char addr[20];
	uint32_t i;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "INSERT INTO kind_callers VALUES"
			       " (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &st, NULL) != SQLITE_OK)
		return -1;
	for (i = 0; !rc && i < k->nr_callers; i++) {
		const struct kma_caller *c = &k->callers[i];

		kma_hex(addr, c->address);
		sqlite3_bind_int(st, 1, kind);
		sqlite3_bind_int64(st, 2, i + 1);
		sqlite3_bind_text(st, 3, c->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, addr, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 5, I64(c->total));
		sqlite3_bind_int64(st, 6, I64(c->net));
		sqlite3_bind_int64(st, 7, I64(c->allocs));
		sqlite3_bind_int64(st, 8, I64(c->frees));
		sqlite3_bind_int64(st, 9, I64(c->implicit_frees));
		sqlite3_bind_int64(st, 10, I64(c->failed_allocs));
		sqlite3_bind_int64(st, 11, I64(c->live));
		kma_bind_int_or_null(st, 12, c->life_n > 0, I64(c->life_min));
		kma_bind_int_or_null(st, 13, c->life_n > 0,
				     c->life_n ? I64(c->life_sum / c->life_n) : 0);
		kma_bind_int_or_null(st, 14, c->life_n > 0, I64(c->life_max));
		sqlite3_bind_int64(st, 15, I64(c->net_at_peak));
		kma_bind_text(st, 16, module_of(run, c->address));
		rc = kma_step(st);
	}
	sqlite3_finalize(st);
	return rc;
}

/* One kind_totals row: the summary's numbers (@s) and the frees (@t, NULL: pages @p). */
static int write_totals(sqlite3_stmt *st, const struct kma_kind_sum *s,
			const struct kma_totals *t, const struct kma_page_totals *p)
{
	sqlite3_bind_int(st, 1, s->kind);
	sqlite3_bind_int64(st, 2, I64(s->allocs));
	sqlite3_bind_int64(st, 3, I64(s->bytes));
	sqlite3_bind_int64(st, 4, I64(s->net));
	sqlite3_bind_int64(st, 5, I64(t ? t->live : p->live_allocs));
	sqlite3_bind_int64(st, 6, I64(s->peak));
	kma_bind_int_or_null(st, 7, s->peak > 0, I64(s->peak_ts));
	sqlite3_bind_int64(st, 8, I64(t ? t->matched_frees : p->frees));
	sqlite3_bind_int64(st, 9, I64(t ? t->implicit_frees : p->implicit_frees));
	sqlite3_bind_int64(st, 10, I64(t ? t->unknown_frees : p->unknown_frees));
	sqlite3_bind_int64(st, 11, I64(t ? t->null_frees : 0));
	sqlite3_bind_int64(st, 12, I64(t ? t->failed_allocs : p->failed));
	return kma_step(st);
}

int kma_store_write_kinds(sqlite3 *db, const struct kma_store_results *run)
{
	struct kma_kind_sum s;
	sqlite3_stmt *st;
	int k, rc = 0;

	if (sqlite3_prepare_v2(db, "INSERT INTO kind_totals VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	/* the slab allocator when the trace has its events, as the others */
	kma_account_match(&s, KMA_KIND_SLAB, run->totals);
	if (run->info->kmem_events)
		rc = write_totals(st, &s, run->totals, NULL);
	if (!rc && run->pages) {
		/* as the text report's summary: 4 KiB pages when the trace does not say */
		kma_account_pages(&s, run->pages->totals,
				  run->pages->page_size ? run->pages->page_size : 4096);
		rc = write_totals(st, &s, NULL, run->pages->totals);
	}
	for (k = KMA_KIND_PERCPU; !rc && k < KMA_KIND_NR; k++) {
		if (!run->kinds[k].totals)
			continue;
		kma_account_match(&s, k, run->kinds[k].totals);
		rc = write_totals(st, &s, run->kinds[k].totals, NULL) ||
		     write_callers(db, k, &run->kinds[k], run);
	}
	sqlite3_finalize(st);
	return rc;
}
