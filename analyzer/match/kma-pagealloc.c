// SPDX-License-Identifier: GPL-2.0
/*
 * kma-pagealloc.c - page allocations paired by pfn and accounted per
 * order, migrate type, gfp flags, task, caller function and stack. The
 * rules are in kma-pagealloc.h; the pairing itself is lib/kma-pairs.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-map.h"
#include "kma-pairs.h"
#include "kma-match.h"	/* struct kma_caller, the timeline's ranking */
#include "kma-pagealloc-int.h"
#include "kma-kind.h"	/* the page kind's key and event roles */


static const char * const group_names[KMA_PG_NR] = {
	"order", "migrate", "gfp", "comm", "pid", "function", "stack", "generation",
};

const char *kma_page_group_name(int g)
{
	return g >= 0 && g < KMA_PG_NR ? group_names[g] : NULL;
}

int kma_page_group_parse(const char *s, int *out)
{
	int g;

	for (g = 0; g < KMA_PG_NR; g++)
		if (!strcmp(s, group_names[g])) {
			*out = g;
			return 0;
		}
	if (!strcmp(s, "caller")) {	/* the slab default: a page's caller is its function */
		*out = KMA_PG_FUNCTION;
		return 0;
	}
	return -1;
}

/* enum migratetype (include/linux/mmzone.h): 0..2 never moved; 3 is HighAtomic since 4.4. */
const char *kma_migrate_name(int mt)
{
	static const char * const names[] = { "Unmovable", "Movable", "Reclaimable" };

	return mt >= 0 && mt < 3 ? names[mt] : NULL;
}

struct kma_pagealloc *kma_pagealloc_new(const struct kma_page_opts *o)
{
	struct kma_pagealloc *m = calloc(1, sizeof(*m));
	int g;

	if (!m)
		return NULL;
	m->o = *o;
	m->live = kma_pairs_alloc(sizeof(struct live_page), 0);
	m->out = kma_pairs_alloc(1, 0);
	for (g = 0; m->live && m->out && g < KMA_PG_NR; g++)
		if (kma_map_init(&m->g[g].map, 16))
			break;
	if (!m->live || !m->out || g < KMA_PG_NR || kma_pageleak_init(m)) {
		kma_pagealloc_free(m);
		return NULL;
	}
	return m;
}

void kma_pagealloc_free(struct kma_pagealloc *m)
{
	int g;

	if (!m)
		return;
	for (g = 0; g < KMA_PG_NR; g++) {
		size_t i;

		for (i = 0; i < m->g[g].nr; i++)
			kma_quant_free(&m->g[g].rows[i].life_q);
		kma_map_release(&m->g[g].map);
		free(m->g[g].rows);
	}
	kma_pairs_free(m->live);
	kma_pairs_free(m->out);
	kma_pageleak_free(m);
	free(m->gens);
	free(m);
}

/* The row of key @key in grouping @g, made on first sight: its index, or -1 out of memory. */
static int64_t row_of(struct kma_pagealloc *m, int g, uint64_t key, const char *name)
{
	struct group *gr = &m->g[g];
	uint32_t *idx = kma_map_find(&gr->map, key);

	if (idx)
		return *idx;
	if (kma_grow(&gr->rows, &gr->cap, gr->nr, sizeof(*gr->rows), 16) ||
	    kma_map_put(&gr->map, key, (uint32_t)gr->nr))
		return -1;
	memset(&gr->rows[gr->nr], 0, sizeof(gr->rows[gr->nr]));
	gr->rows[gr->nr].address = key;
	gr->rows[gr->nr].name = name;
	return (int64_t)gr->nr++;
}

/* The key and name of an allocation in each grouping. */
static int rows_of(struct kma_pagealloc *m, const struct kma_event *ev, uint32_t *row)
{
	const char *fn = NULL, *stack = NULL;
	uint64_t keys[KMA_PG_NR];
	const char *names[KMA_PG_NR];
	int g;

	if (m->o.caller_of)
		fn = m->o.caller_of(m->o.ctx, ev->stack_id);
	if (m->o.stack_name)
		stack = m->o.stack_name(m->o.ctx, ev->stack_id);
	keys[KMA_PG_ORDER] = ev->order;
	names[KMA_PG_ORDER] = NULL;
	keys[KMA_PG_MIGRATE] = (uint64_t)(int64_t)ev->migratetype;
	names[KMA_PG_MIGRATE] = NULL;
	keys[KMA_PG_GFP] = ev->gfp_flags;
	names[KMA_PG_GFP] = ev->gfp_text;
	keys[KMA_PG_COMM] = (uintptr_t)ev->comm;
	names[KMA_PG_COMM] = ev->comm;
	keys[KMA_PG_PID] = (uint64_t)(int64_t)ev->pid;
	names[KMA_PG_PID] = NULL;
	/* interned names: one pointer per name */
	keys[KMA_PG_FUNCTION] = (uintptr_t)fn;
	names[KMA_PG_FUNCTION] = fn;
	keys[KMA_PG_STACK] = (uintptr_t)stack;
	names[KMA_PG_STACK] = stack;
	keys[KMA_PG_GENERATION] = m->generation;
	names[KMA_PG_GENERATION] = NULL;
	for (g = 0; g < KMA_PG_NR; g++) {
		int64_t r = row_of(m, g, keys[g], names[g]);

		if (r < 0)
			return -1;
		row[g] = (uint32_t)r;
	}
	return 0;
}

/* the timeline hooks (kma_page_opts.timeline, fn_timeline); 0 or -1 out of memory. */
static int timeline_add(struct kma_pagealloc *m, uint64_t ts, const uint32_t *row,
			uint64_t pages, int free)
{
	if (m->o.timeline &&
	    kma_timeline_add(m->o.timeline, ts, row[KMA_PG_COMM], pages, free))
		return -1;
	if (m->o.fn_timeline &&
	    kma_timeline_add(m->o.fn_timeline, ts, row[KMA_PG_FUNCTION], pages, free))
		return -1;
	return 0;
}

/* An allocation ends (@kind: KMA_EV_PAGE_FREE or KMA_FREE_IMPLICIT; -1: live at the end). */
static int close_alloc(struct kma_pagealloc *m, const struct live_page *lp, int kind,
		       uint64_t ts)
{
	uint64_t pages = 1ULL << (lp->a.order & 63);
	struct kma_page_alloc a = lp->a;
	int g;

	if (kind >= 0) {
		for (g = 0; g < KMA_PG_NR; g++)
			kma_row_close(&m->g[g].rows[lp->row[g]], m->peak_epoch, pages,
				      kind == KMA_FREE_IMPLICIT, m->generation);
		m->t.frees++;
		m->t.implicit_frees += kind == KMA_FREE_IMPLICIT;
		m->t.pages_freed += pages;
		m->t.pages_live -= pages;
		m->t.live_allocs--;
		if (kma_pageleak_closed(m, lp, kind, ts))
			return -1;
		a.free_ts = ts;
		if (timeline_add(m, ts, lp->row, pages, 1))
			return -1;
	}
	a.free_kind = kind;
	return m->o.done ? m->o.done(m->o.done_ctx, &a) : 0;
}

void kma_pagealloc_set_window(struct kma_pagealloc *m, uint64_t since, uint64_t until)
{
	m->since = since;
	m->until = until;
}

/* Inside the window and the filter (kma_page_opts.select). */
static int is_selected(const struct kma_pagealloc *m, const struct kma_event *ev)
{
	if (ev->ts < m->since || (m->until && ev->ts >= m->until))
		return 0;
	return !m->o.select || !(m->o.select(m->o.select_ctx, ev) & KMA_SEL_OUT);
}

/*
 * An allocation the filter leaves out: its pfn only, so that its free is not
 * an unknown free. Like any allocation, it ends a counted one live at its pfn.
 */
static int leave_out(struct kma_pagealloc *m, const struct kma_event *ev)
{
	struct kma_pair p;

	kma_pairs_on_free(m->live, kma_page_key(ev), &p);
	if (p.kind == KMA_PAIR_FREED && close_alloc(m, p.old, KMA_FREE_IMPLICIT, ev->ts))
		return -1;
	m->t.unselected++;
	return kma_pairs_on_alloc(m->out, kma_page_key(ev), &p);
}

static int on_alloc(struct kma_pagealloc *m, const struct kma_event *ev)
{
	uint64_t pages = 1ULL << (ev->order & 63);
	struct live_page lp = { .a = { .pfn = ev->ptr, .alloc_ts = ev->ts,
				       .gfp_flags = ev->gfp_flags, .gfp_text = ev->gfp_text,
				       .comm = ev->comm, .pid = ev->pid,
				       .migratetype = ev->migratetype, .order = ev->order,
				       .stack_id = ev->stack_id, .generation = m->generation } };
	struct kma_pair p;
	int g;

	int in = is_selected(m, ev);

	if (kma_kind_ops(KMA_KIND_PAGE)->failed(ev)) {
		m->t.failed += in;
		return 0;
	}
	if (!in)
		return leave_out(m, ev);
	kma_pairs_on_free(m->out, kma_page_key(ev), &p);	/* one left out ends here, uncounted */
	if (rows_of(m, ev, lp.row) || kma_pairs_on_alloc(m->live, kma_page_key(ev), &p))
		return -1;
	/* the old allocation's payload is a copy, the new slot is ours: close first */
	if (p.kind == KMA_PAIR_IMPLICIT && close_alloc(m, p.old, KMA_FREE_IMPLICIT, ev->ts))
		return -1;
	memcpy(p.live, &lp, sizeof(lp));
	for (g = 0; g < KMA_PG_NR; g++)
		kma_row_alloc(&m->g[g].rows[lp.row[g]], m->peak_epoch, pages);
	m->t.allocs++;
	m->t.stacked += ev->stack_id != 0;
	m->t.pages_alloc += pages;
	m->t.pages_live += pages;
	m->t.live_allocs++;
	if (timeline_add(m, ev->ts, lp.row, pages, 0))
		return -1;
	if (m->t.pages_live > m->t.peak_pages) {
		m->t.peak_pages = m->t.pages_live;
		m->t.peak_ts = ev->ts;
		m->peak_epoch++;	/* every row's live pages now are its pages at the peak */
	}
	return 0;
}

int kma_pagealloc_event(struct kma_pagealloc *m, const struct kma_event *ev)
{
	struct kma_pair p;

	if (ev->type == KMA_EV_MARKER)
		return kma_pageleak_marker(m, ev);
	if (!kma_ev_is_page(ev->type))
		return 0;
	m->t.ev[ev->type - KMA_EV_PAGE_ALLOC]++;
	m->t.by_ptr |= ev->page_by_ptr;
	/* bin 0 starts at the first page event, whatever its kind */
	if ((m->o.timeline && kma_timeline_tick(m->o.timeline, ev->ts)) ||
	    (m->o.fn_timeline && kma_timeline_tick(m->o.fn_timeline, ev->ts)))
		return -1;
	if (kma_ev_role(ev->type) == KMA_ROLE_ALLOC)
		return on_alloc(m, ev);
	if (kma_ev_role(ev->type) != KMA_ROLE_FREE)
		return 0;	/* batched, zone_locked, pcpu_drain: no user's alloc or free */
	kma_pairs_on_free(m->live, kma_page_key(ev), &p);
	if (p.kind == KMA_PAIR_FREED) {
		kma_pageleak_free_event(m);
		return close_alloc(m, p.old, KMA_EV_PAGE_FREE, ev->ts);
	}
	kma_pairs_on_free(m->out, kma_page_key(ev), &p);
	if (p.kind == KMA_PAIR_FREED)
		return 0;	/* of an allocation left out: not counted either */
	kma_pageleak_free_event(m);
	m->t.unknown_frees++;
	m->t.unknown_pages += 1ULL << (ev->order & 63);
	return 0;
}

int kma_pagealloc_finish(struct kma_pagealloc *m)
{
	struct live_page *lp;
	size_t pos = 0;

	if (kma_pageleak_end(m))
		return -1;
	if (!m->o.done)
		return 0;
	while ((lp = kma_pairs_next(m->live, &pos, NULL)))
		if (close_alloc(m, lp, -1, 0))
			return -1;
	return 0;
}

const struct kma_page_totals *kma_pagealloc_totals(const struct kma_pagealloc *m)
{
	return &m->t;
}

const struct kma_caller *kma_pagealloc_rows(const struct kma_pagealloc *m, int g,
					   uint32_t *nr)
{
	*nr = g >= 0 && g < KMA_PG_NR ? (uint32_t)m->g[g].nr : 0;
	return *nr ? m->g[g].rows : NULL;
}

int kma_pagealloc_finish_timeline(const struct kma_pagealloc *m, struct kma_timeline *tl,
				  int g, uint64_t end_ts)
{
	uint32_t nr;
	const struct kma_caller *rows = kma_pagealloc_rows(m, g, &nr);

	/* the timeline ranks rows by net, then total: live and allocated pages */
	return kma_timeline_finish(tl, end_ts, rows, nr);
}
