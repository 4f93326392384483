// SPDX-License-Identifier: GPL-2.0
/*
 * kma-pagealloc.c - the page kind's groupings on the one matcher: page
 * allocations go through kma-match.c as kind KMA_KIND_PAGE, in pages, with
 * a row set per grouping (order, migrate type, gfp flags, task, pid, caller
 * function, stack, generation). Pairing, generations, peak, lifetimes,
 * leak inputs and timelines are the matcher's; what is here is each
 * grouping's key, the recorder's own pages, and the page view of the
 * matcher's totals and generations (kma-pagealloc.h).
 */
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-match.h"
#include "kma-pagealloc.h"
#include "kma-kind.h"	/* the page kind's event roles */
#include "kma-leak.h"	/* the recorder's stack frames */
#include "kma-select.h"	/* the recorder's task and functions */


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

/* What a live page allocation keeps besides the matcher's struct live. */
struct page_data {
	const char	*gfp_text;
	int32_t		migratetype;
	uint32_t	order;
};

/* The page view of the matcher's numbers, made again at each read. */
struct page_view {
	struct kma_page_totals	t;
	struct kma_page_gen	*gens;
	size_t			cap_gens;
};

struct kma_pagealloc {
	struct kma_page_opts	o;
	struct kma_match	*m;
	struct page_view	*v;
};

/* The key and name of an allocation in each grouping (kma_rowsets.keys). */
static void page_keys(void *ctx, const struct kma_event *ev, uint32_t gen, uint64_t *keys,
		      const char **names, void *data)
{
	struct kma_pagealloc *pa = ctx;
	struct page_data *d = data;
	const char *fn = NULL, *stack = NULL;

	if (pa->o.caller_of)
		fn = pa->o.caller_of(pa->o.ctx, ev->stack_id);
	if (pa->o.stack_name)
		stack = pa->o.stack_name(pa->o.ctx, ev->stack_id);
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
	keys[KMA_PG_GENERATION] = gen;
	names[KMA_PG_GENERATION] = NULL;
	d->gfp_text = ev->gfp_text;
	d->migratetype = ev->migratetype;
	d->order = ev->order;
}

/* A page allocation the recorder made: by its task, caller function or stack. */
static int page_is_self(void *ctx, const uint32_t *rows)
{
	struct kma_pagealloc *pa = ctx;
	const struct kma_caller *comm, *fn, *stack;
	uint32_t nr;

	comm = kma_match_set_rows(pa->m, KMA_PG_COMM, &nr);
	fn = kma_match_set_rows(pa->m, KMA_PG_FUNCTION, &nr);
	stack = kma_match_set_rows(pa->m, KMA_PG_STACK, &nr);
	return kma_select_is_self_comm(comm[rows[KMA_PG_COMM]].name) ||
	       kma_select_is_self_function(fn[rows[KMA_PG_FUNCTION]].name) ||
	       kma_leak_recorder_frames(stack[rows[KMA_PG_STACK]].name);
}

/* A finished allocation inside the filter, as report.db's page rows want it. */
static int page_done(void *ctx, const struct kma_alloc_row *r)
{
	struct kma_pagealloc *pa = ctx;
	const struct page_data *d = r->kind_data;
	struct kma_page_alloc a = {
		.pfn = r->ptr, .alloc_ts = r->alloc_ts,
		.free_ts = r->free_kind >= 0 ? r->free_ts : 0,
		.gfp_flags = r->gfp_flags, .gfp_text = d->gfp_text, .comm = r->comm,
		.pid = r->pid, .migratetype = d->migratetype, .order = d->order,
		.stack_id = r->stack_id, .generation = r->generation,
		.free_kind = r->free_kind,
	};

	if (!r->selected)	/* left out by the filter: neither counted nor kept */
		return 0;
	return pa->o.done(pa->o.done_ctx, &a);
}

struct kma_pagealloc *kma_pagealloc_new(const struct kma_page_opts *o)
{
	struct kma_pagealloc *pa = calloc(1, sizeof(*pa));
	struct kma_match_opts mo = {
		.kind = KMA_KIND_PAGE, .in_pages = 1,
		/* the window (kma_pagealloc_set_window) and the filter; no generation */
		.filtered = 1, .filter = { .generation = -1 },
		.rowsets = { .nr = KMA_PG_NR, .keys = page_keys, .self = page_is_self,
			     .data = sizeof(struct page_data) },
	};

	if (!pa)
		return NULL;
	pa->o = *o;
	mo.select = o->select;
	mo.select_ctx = o->select_ctx;
	mo.rowsets.ctx = pa;
	mo.rowsets.timeline[KMA_PG_COMM] = o->timeline;
	mo.rowsets.timeline[KMA_PG_FUNCTION] = o->fn_timeline;
	if (o->done) {
		mo.sink.alloc_done = page_done;
		mo.sink.ctx = pa;
	}
	pa->v = calloc(1, sizeof(*pa->v));
	pa->m = pa->v ? kma_match_alloc(&mo) : NULL;
	if (!pa->m) {
		kma_pagealloc_free(pa);
		return NULL;
	}
	return pa;
}

void kma_pagealloc_free(struct kma_pagealloc *pa)
{
	if (!pa)
		return;
	kma_match_free(pa->m);
	if (pa->v)
		free(pa->v->gens);
	free(pa->v);
	free(pa);
}

void kma_pagealloc_set_window(struct kma_pagealloc *pa, uint64_t since, uint64_t until)
{
	kma_match_set_window(pa->m, since, until);
}

void kma_pagealloc_prefetch(const struct kma_pagealloc *pa, const struct kma_event *ev)
{
	kma_match_prefetch(pa->m, ev);
}

int kma_pagealloc_event(struct kma_pagealloc *pa, const struct kma_event *ev)
{
	if (kma_ev_is_page(ev->type)) {
		pa->v->t.ev[ev->type - KMA_EV_PAGE_ALLOC]++;
		pa->v->t.by_ptr |= ev->page_by_ptr;
	} else if (ev->type != KMA_EV_MARKER) {
		return 0;
	}
	return kma_match_event(pa->m, ev);
}

int kma_pagealloc_finish(struct kma_pagealloc *pa)
{
	/* the page rows' ages are asked for with their end: kma_pagealloc_ages */
	return kma_match_finish(pa->m, 0);
}

const struct kma_page_totals *kma_pagealloc_totals(const struct kma_pagealloc *pa)
{
	const struct kma_totals *mt = kma_match_totals(pa->m);
	struct kma_page_totals *t = &pa->v->t;

	t->allocs = mt->allocs;
	t->failed = mt->failed_allocs;
	t->frees = mt->matched_frees + mt->implicit_frees;
	t->implicit_frees = mt->implicit_frees;
	/* a struct page pointer up to KMA_NULL_PTR_MAX is no null free: unknown */
	t->unknown_frees = mt->unknown_frees + mt->null_frees;
	t->pages_alloc = mt->total;
	t->pages_freed = mt->total - mt->net;
	t->pages_live = mt->net;
	t->live_allocs = mt->live;
	t->unknown_pages = mt->unknown_size;
	t->peak_pages = mt->peak_net;
	t->peak_ts = mt->peak_ts;
	t->stacked = mt->stacked;
	t->unselected = mt->unselected;
	return t;
}

const struct kma_caller *kma_pagealloc_rows(const struct kma_pagealloc *pa, int g,
					   uint32_t *nr)
{
	if (g < 0) {
		*nr = 0;
		return NULL;
	}
	return kma_match_set_rows(pa->m, (uint32_t)g, nr);
}

const struct kma_page_gen *kma_pagealloc_gens(const struct kma_pagealloc *pa, uint32_t *nr)
{
	const struct kma_generation *g = kma_match_generations(pa->m, nr);
	struct page_view *v = pa->v;
	uint32_t i;

	if (kma_grow_zero(&v->gens, &v->cap_gens, *nr, sizeof(*v->gens), 8)) {
		*nr = 0;
		return NULL;
	}
	for (i = 0; i < *nr; i++)
		v->gens[i] = (struct kma_page_gen){
			.ts = g[i].ts, .label = g[i].label, .allocs = g[i].allocs,
			.pages = g[i].bytes, .live = g[i].live, .live_pages = g[i].live_bytes,
			.frees = g[i].frees,
		};
	return v->gens;
}

int kma_pagealloc_ages(struct kma_pagealloc *pa, int g, uint64_t end_ts,
		       struct kma_page_age *out)
{
	const struct kma_caller *rows;
	uint32_t nr, i;

	if (g < 0 || kma_match_set_ages(pa->m, (uint32_t)g, end_ts))
		return -1;
	rows = kma_match_set_rows(pa->m, (uint32_t)g, &nr);
	for (i = 0; i < nr; i++) {
		out[i].min = rows[i].age_min;
		out[i].median = rows[i].age_median;
		out[i].max = rows[i].age_max;
	}
	return 0;
}

int kma_pagealloc_finish_timeline(const struct kma_pagealloc *pa, struct kma_timeline *tl,
				  int g, uint64_t end_ts)
{
	uint32_t nr;
	const struct kma_caller *rows = kma_pagealloc_rows(pa, g, &nr);

	/* the timeline ranks rows by net, then total: live and allocated pages */
	return kma_timeline_finish(tl, end_ts, rows, nr);
}

void kma_pagealloc_keep_lifetimes(struct kma_pagealloc *pa, int g, uint64_t exact)
{
	if (g >= 0 && g < KMA_PG_NR)
		kma_match_set_keep_lifetimes(pa->m, (uint32_t)g, exact);
}

struct kma_quant *kma_pagealloc_lifetimes(const struct kma_pagealloc *pa, int g, uint32_t row)
{
	return g < 0 ? NULL : kma_match_set_lifetimes(pa->m, (uint32_t)g, row);
}

int kma_pagealloc_lifetimes_bucketed(const struct kma_pagealloc *pa, int g)
{
	return g >= 0 && kma_match_set_lifetimes_bucketed(pa->m, (uint32_t)g);
}
