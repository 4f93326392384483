// SPDX-License-Identifier: GPL-2.0
/*
 * kma-match.c - alloc/free pairing and per-caller accounting.
 *
 * Which free closes which allocation is kma-pairs' (lib/kma-pairs.h): the
 * live set holds a struct live per live allocation; finished ones are handed
 * to the sink and their slot is reused, so memory follows the number of live
 * allocations, not the length of the trace.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-match-int.h"

#define KMA_TEMP_NS_DEFAULT	1000000ULL	/* 1 ms, as heaptrack's "temporary" */

struct kma_match *kma_match_alloc(const struct kma_match_opts *opts)
{
	struct kma_match *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	if (opts)
		m->opts = *opts;
	if (!m->opts.temp_ns)
		m->opts.temp_ns = KMA_TEMP_NS_DEFAULT;
	if (!m->opts.exact_lifetimes)
		m->opts.exact_lifetimes = KMA_QUANT_EXACT_MAX;
	if (!m->opts.page_shift && !m->opts.in_pages)
		m->opts.page_shift = KMA_PAGE_SHIFT_DEFAULT;
	if (m->opts.in_pages)
		m->opts.page_shift = 0;	/* 1 << order pages */
	m->ops = kma_kind_ops(m->opts.kind);
	if (!m->ops) {
		free(m);
		errno = EINVAL;
		return NULL;
	}
	m->life_budget.max = m->opts.exact_lifetimes;
	m->sel_gen = m->opts.filtered ? m->opts.filter.generation : -1;
	m->totals.free_scope = m->opts.free_scope;
	m->names = kma_strpool_alloc();
	m->gens = calloc(16, sizeof(*m->gens));
	m->cap_gens = 16;
	m->nr_gens = 1;		/* generation 0, "start": from the trace start to the first marker */
	if (m->gens)
		m->gens[0].label = "start";
	if (kma_sets_init(m)) {
		kma_match_free(m);
		return NULL;
	}
	/*
	 * With row sets, the kind's data and a row per set follow each struct
	 * live; their set starts small, so that the live allocations walk out
	 * at the end in the order report.db's page rows have always had.
	 */
	m->lives = m->nr_sets ? kma_pairs_alloc(m->rows_off + m->nr_sets * sizeof(uint32_t), 0) :
		   kma_pairs_alloc(sizeof(struct live), 1024);
	if (m->opts.timeline)
		m->tl = kma_timeline_alloc();
	if (!m->names || !m->gens || !m->lives || (m->opts.timeline && !m->tl) ||
	    kma_map_init(&m->caller_map, 256) || kma_map_init(&m->size_map, 256)) {
		kma_match_free(m);
		return NULL;
	}
	return m;
}

const char *kma_free_scope_name(int scope)
{
	return scope == KMA_FREES_FILTERED ? "filter" : "trace";
}

const struct kma_match_opts *kma_match_opts(const struct kma_match *m)
{
	return &m->opts;
}

void kma_match_free(struct kma_match *m)
{
	uint32_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr_callers; i++)
		kma_quant_free(&m->callers[i].life_q);
	kma_sets_free(m);
	kma_pairs_free(m->lives);
	kma_timeline_free(m->tl);
	kma_map_release(&m->caller_map);
	kma_map_release(&m->size_map);
	free(m->sizes);
	free(m->callers);
	free(m->gens);
	free(m->iter_live);
	free(m->modules);
	free(m->leftovers);
	kma_strpool_free(m->names);
	free(m);
}

void kma_match_set_window(struct kma_match *m, uint64_t since, uint64_t until)
{
	m->opts.filter.since = since;
	m->opts.filter.until = until;
}

static const char *default_name(struct kma_match *m, uint64_t addr)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "0x%" PRIx64, addr);

	return kma_strpool_intern(m->names, buf, len);
}

static const char *name_of(struct kma_match *m, uint64_t addr)
{
	/* a kind whose events name no caller, and no stack named one */
	if (!addr && m->ops->caller_from_stack)
		return kma_strpool_intern(m->names, "[no stack]", 10);
	if (m->opts.resolve)
		return m->opts.resolve(m->opts.resolve_ctx, addr);
	return default_name(m, addr);
}

/*
 * SLUB's kmalloc caches: 8..192 bytes as named, then powers of two with a k
 * suffix from 1024 up to 8k; larger kmallocs go to the page allocator, whatever
 * their flags. @type (enum kma_kmalloc_type) picks the family: kmalloc-cg-64.
 */
void kma_kmalloc_cache(char *buf, size_t len, int type, uint64_t bytes_alloc)
{
	const char *pre = kma_kmalloc_prefix(type);

	if (bytes_alloc > 8192)
		snprintf(buf, len, "kmalloc-large");
	else if (bytes_alloc >= 1024)
		snprintf(buf, len, "%s%" PRIu64 "k", pre, bytes_alloc / 1024);
	else
		snprintf(buf, len, "%s%" PRIu64, pre, bytes_alloc);
}

void kma_kmalloc_class(char *buf, size_t len, uint64_t bytes_alloc)
{
	kma_kmalloc_cache(buf, len, KMA_KMALLOC_NORMAL, bytes_alloc);
}

/* The row an allocation is accounted in: key and name by opts.group_by. */
/*
 * -g accounted: what the event prints as accounted= (6.0 on: __GFP_ACCOUNT
 * or a SLAB_ACCOUNT cache); before 6.0, only __GFP_ACCOUNT in gfp_flags,
 * which misses the SLAB_ACCOUNT caches: the rows say which they are.
 */
static const char *accounted_name(struct kma_match *m, const struct kma_event *ev)
{
	const char *s = NULL;

	if (ev->charged >= 0)
		s = ev->charged ? "accounted" : "not accounted";
	else if (ev->gfp_account >= 0)
		s = ev->gfp_account ? "__GFP_ACCOUNT" : "no __GFP_ACCOUNT";
	return s ? kma_strpool_intern(m->names, s, strlen(s)) : NULL;
}

static uint64_t group_key(struct kma_match *m, const struct kma_event *ev, const char **name)
{
	char buf[32];

	*name = NULL;
	switch (m->opts.group_by) {
	case KMA_GROUP_CALLER:
		if (!ev->call_site && m->ops->caller_from_stack)
			*name = name_of(m, 0);
		return ev->call_site;
	case KMA_GROUP_FUNCTION:
	case KMA_GROUP_MODULE:
	case KMA_GROUP_FILE:
		if (m->opts.group_name)
			*name = m->opts.group_name(m->opts.resolve_ctx, ev->call_site,
						   m->opts.group_by);
		break;
	case KMA_GROUP_CACHE:
		*name = ev->cache;
		if (!*name) {
			kma_kmalloc_cache(buf, sizeof(buf), ev->kmalloc_type, ev->bytes_alloc);
			*name = kma_strpool_intern(m->names, buf, strlen(buf));
		}
		break;
	case KMA_GROUP_COMM:
		*name = ev->comm;
		break;
	case KMA_GROUP_STACK:
		if (m->opts.stack_name)
			*name = m->opts.stack_name(m->opts.stack_ctx, ev->stack_id);
		else if (!ev->stack_id)
			*name = kma_strpool_intern(m->names, "[no stack]", 10);
		break;
	case KMA_GROUP_GFP:
		*name = ev->gfp_text;
		break;
	case KMA_GROUP_ACCOUNTED:
		*name = accounted_name(m, ev);
		break;
	case KMA_GROUP_PID:
		snprintf(buf, sizeof(buf), "%d", ev->pid);
		*name = kma_strpool_intern(m->names, buf, strlen(buf));
		return (uint64_t)(uint32_t)ev->pid;
	}
	if (!*name)
		*name = kma_strpool_intern(m->names, "[unknown]", 9);
	/* interned: equal names are one pointer */
	return (uint64_t)(uintptr_t)*name;
}

static struct kma_caller *get_caller(struct kma_match *m, uint64_t call_site, uint32_t *id,
				     const char *name)
{
	uint32_t *idx = kma_map_find(&m->caller_map, call_site);
	struct kma_caller *c;

	if (idx) {
		*id = *idx;
		return &m->callers[*idx];
	}
	if (kma_grow(&m->callers, &m->cap_callers, m->nr_callers, sizeof(*m->callers), 256))
		return NULL;
	c = &m->callers[m->nr_callers];
	memset(c, 0, sizeof(*c));
	c->address = call_site;
	c->name = name ? name : name_of(m, call_site);
	if (m->opts.module_of && m->opts.group_by == KMA_GROUP_CALLER)
		c->module = m->opts.module_of(m->opts.resolve_ctx, call_site);
	if (!c->name || kma_map_put(&m->caller_map, call_site, m->nr_callers))
		return NULL;
	*id = m->nr_callers++;
	return c;
}

/* get_caller() for kma-match-group.c, which builds rows without events. */
struct kma_caller *kma_match_get_caller(struct kma_match *m, uint64_t key, uint32_t *id,
					const char *name)
{
	return get_caller(m, key, id, name);
}

/* Hand allocation l to the sink with its end (fe NULL, free_kind -1: still live). */
static int emit(struct kma_match *m, const struct live *l, const struct kma_event *fe,
		int free_kind)
{
	static const struct kma_alloc_row row0;	/* copied: a literal is a rep stos */
	struct kma_alloc_row row;

	/* no sink (--no-db): no row to build, no free site to name, per closed allocation */
	if (!m->opts.sink.alloc_done)
		return 0;
	row = row0;
	row.ptr = l->ptr;
	row.call_site = l->call_site;
	row.bytes_req = l->bytes_req;
	row.bytes_alloc = l->bytes_alloc;
	row.gfp_flags = l->gfp_flags;
	row.alloc_ts = l->ts;
	row.caller = m->nr_sets ? NULL : m->callers[l->caller_id].name;
	row.cache = l->cache;
	row.comm = l->comm;
	row.alloc_kind = l->kind;
	row.free_kind = free_kind;
	row.alloc_cpu = l->cpu;
	row.free_cpu = -1;
	row.pid = l->pid;
	row.free_pid = -1;
	row.node = l->node;
	row.accounted = l->accounted;
	row.kmalloc_type = l->kmalloc_type;
	row.caller_id = l->caller_id;
	row.generation = l->generation;
	row.stack_id = l->stack_id;
	row.selected = l->selected;
	row.orphaned = l->orphan_mod != 0;
	row.kind_data = m->nr_sets ? (const char *)l + m->data_off : NULL;

	if (fe) {
		row.free_ts = fe->ts;
		row.free_cpu = fe->cpu;
		row.free_pid = fe->pid;
		if (free_kind != KMA_FREE_IMPLICIT && !m->nr_sets) {
			/* Named, but kept out of the allocating callers' stats. */
			row.free_caller = name_of(m, fe->call_site);
			row.free_call_site = fe->call_site;
			row.free_stack_id = fe->stack_id;
		}
	}
	return m->opts.sink.alloc_done(m->opts.sink.ctx, &row);
}

/* bytes_alloc < bytes_req never happens in a sane trace; count no negative slack. */
static inline uint64_t slack_of(uint64_t req, uint64_t alloc)
{
	return alloc > req ? alloc - req : 0;
}

/* The --html lifetimes chart's decade: [0] under 1 us, [k] under 10^k us, [9] the rest. */
static unsigned int life_decade(uint64_t life)
{
	uint64_t bound = 1000;
	unsigned int d = 0;

	for (; d < 9 && life >= bound; bound *= 10)
		d++;
	return d;
}

/* Caller row of allocation l, just closed by a traced free (fe) or an implicit one. */
static int close_caller(struct kma_match *m, const struct live *l, const struct kma_event *fe,
			int kind)
{
	struct kma_caller *c = &m->callers[l->caller_id];

	kma_row_close(c, m->peak_epoch, l->bytes_alloc, kind == KMA_FREE_IMPLICIT, m->generation);
	c->live_slack -= slack_of(l->bytes_req, l->bytes_alloc);
	/* made before the reclaim marker, freed by the reclaim: a cache's (the
	 * recorder's own frees then are its own business: its runner's pipes) */
	if (m->phases.reclaim && m->generation == m->phases.reclaim &&
	    l->generation < m->phases.reclaim && kind != KMA_FREE_IMPLICIT && !l->self)
		c->reclaim_freed++;
	if (m->tl && kma_timeline_add(m->tl, fe->ts, l->caller_id, l->bytes_alloc, 1))
		return -1;
	if (kind != KMA_FREE_IMPLICIT) {
		uint64_t life = fe->ts - l->ts;

		if (!c->life_n || life < c->life_min)
			c->life_min = life;
		if (life > c->life_max)
			c->life_max = life;
		c->life_sum += life;
		c->life_n++;
		if (life < m->opts.temp_ns) {
			c->temporary++;
			m->totals.temporary++;
		}
		m->totals.life_decades[life_decade(life)]++;
		if (m->opts.keep_lifetimes &&
		    kma_rows_keep_life(m->callers, m->nr_callers, l->caller_id, life,
				       &m->life_budget))
			return -1;
	}
	return 0;
}

/* Account allocation l, just closed by a traced free (fe) or an implicit one. */
static int close_live(struct kma_match *m, const struct live *l, const struct kma_event *fe,
		      int kind)
{
	if (l->selected) {
		if (m->nr_sets ? kma_sets_close(m, l, kind, fe->ts) : close_caller(m, l, fe, kind))
			return -1;
		m->totals.net -= l->bytes_alloc;
		m->totals.live--;
		m->gens[l->generation].live--;
		m->gens[l->generation].live_bytes -= l->bytes_alloc;
		if (kind == KMA_FREE_IMPLICIT)
			m->totals.implicit_frees++;
		else
			m->totals.matched_frees++;
	}
	if (emit(m, l, fe, kind))
		return -1;
	if (l->size_idx) {
		kma_size_snap(m, &m->sizes[l->size_idx - 1]);
		m->sizes[l->size_idx - 1].live--;
	}
	return 0;
}

/*
 * Count kmalloc allocations per (caller, bytes_req, bytes_alloc), for sizing
 * advice. Sizes that do not fit the packed key (over 8 MB) are not tracked.
 */
static int track_size(struct kma_match *m, struct live *l, uint32_t caller_id)
{
	uint64_t key;
	uint32_t *idx;
	struct kma_size *sz;

	if (l->bytes_req >= (1u << 23) || l->bytes_alloc >= (1u << 23) || caller_id >= (1u << 18))
		return 0;
	key = (uint64_t)caller_id << 46 | l->bytes_req << 23 | l->bytes_alloc;
	idx = kma_map_find(&m->size_map, key);
	if (!idx) {
		if (kma_grow(&m->sizes, &m->cap_sizes, m->nr_sizes, sizeof(*m->sizes), 256))
			return -1;
		sz = &m->sizes[m->nr_sizes];
		memset(sz, 0, sizeof(*sz));
		sz->caller_id = caller_id;
		sz->bytes_req = l->bytes_req;
		sz->bytes_alloc = l->bytes_alloc;
		if (kma_map_put(&m->size_map, key, m->nr_sizes))
			return -1;
		l->size_idx = ++m->nr_sizes;
	} else {
		l->size_idx = *idx + 1;
	}
	sz = &m->sizes[l->size_idx - 1];
	kma_size_snap(m, sz);
	sz->allocs++;
	sz->live++;
	return 0;
}

static int is_selected(struct kma_match *m, uint64_t ts)
{
	const struct kma_filter *f = &m->opts.filter;

	if (!m->opts.filtered)
		return 1;
	if (ts < f->since || (f->until && ts >= f->until))
		return 0;
	if (f->generation < 0 && !f->gen_label)
		return 1;
	return m->sel_gen == (int64_t)m->generation;
}

/*
 * Inside the time window and generation, then the filters of kma-select.h
 * (opts.select). The recorder's own allocations that the filters keep are
 * counted whether --exclude-self then drops them or not; a failed
 * allocation (the kind's failed(): ptr 0, pfn -1) is no allocation.
 */
static int select_alloc(struct kma_match *m, const struct kma_event *ev, uint64_t bytes,
			int *self)
{
	unsigned int sel;

	*self = 0;
	if (!is_selected(m, ev->ts))
		return 0;
	if (!m->opts.select)
		return 1;
	sel = m->opts.select(m->opts.select_ctx, ev);
	*self = !!(sel & KMA_SEL_SELF);
	if ((sel & KMA_SEL_SELF) && !m->ops->failed(ev)) {
		m->totals.self_allocs++;
		m->totals.self_bytes += bytes;
	}
	return !(sel & KMA_SEL_OUT);
}

/* The caller row of an allocation (opts.group_by); NULL: out of memory. */
static struct kma_caller *alloc_caller(struct kma_match *m, const struct kma_event *ev,
				       uint32_t *id)
{
	const char *gname;
	uint64_t key = group_key(m, ev, &gname);

	if (m->opts.group_by != KMA_GROUP_CALLER && !gname)
		return NULL;
	return get_caller(m, key, id, gname);
}

/* A selected allocation, live as l, in its caller row @c (@id). */
static int account_caller(struct kma_match *m, const struct kma_event *ev, struct live *l,
			  struct kma_caller *c, uint32_t id, uint64_t slack)
{
	if ((ev->type == KMA_EV_KMALLOC || ev->type == KMA_EV_KMALLOC_NODE) &&
	    track_size(m, l, id))
		return -1;
	if (!c->allocs)
		m->totals.callers++;
	kma_row_alloc(c, m->peak_epoch, l->bytes_alloc);
	if (!c->cache && ev->cache)
		c->cache = ev->cache;	/* stable: the live set keeps it too */
	c->slack += slack;
	c->live_slack += slack;
	m->totals.slack += slack;
	if (m->tl && kma_timeline_add(m->tl, ev->ts, id, l->bytes_alloc, 0))
		return -1;
	return 0;
}

static void fill_live(struct kma_match *m, struct live *l, const struct kma_event *ev,
		      uint64_t req, uint64_t bytes, uint32_t id)
{
	l->ptr = ev->ptr;
	l->call_site = ev->call_site;
	l->bytes_req = req;
	l->bytes_alloc = bytes;
	l->gfp_flags = ev->gfp_flags;
	l->ts = ev->ts;
	l->cache = ev->cache;
	l->comm = ev->comm;
	l->caller_id = id;
	l->generation = m->generation;
	l->cpu = ev->cpu;
	l->pid = ev->pid;
	l->node = (int16_t)ev->node;
	l->kind = (int8_t)ev->type;
	l->accounted = (int8_t)ev->accounted;
	l->kmalloc_type = (int8_t)ev->kmalloc_type;
	l->orphan_mod = 0;
	l->size_idx = 0;
	l->stack_id = ev->stack_id;
}

static int do_alloc(struct kma_match *m, const struct kma_event *ev)
{
	struct kma_caller *c = NULL;
	struct kma_pair pr;
	struct live *l;
	uint32_t id = 0;
	/* the kind's size; bytes_req only where the kind has slack */
	uint64_t bytes = m->ops->bytes(ev, m->opts.page_shift);
	uint64_t req = m->ops->slack ? ev->bytes_req : bytes;
	uint64_t slack = slack_of(req, bytes);
	int self, selected = select_alloc(m, ev, bytes, &self);

	/* row sets: rows only for the selected allocations that did not fail */
	if (!m->nr_sets && !(c = alloc_caller(m, ev, &id)))
		return -1;
	if (m->ops->failed(ev)) {
		if (selected) {
			if (c)
				c->failed_allocs++;
			m->totals.failed_allocs++;
		}
		return 0;
	}
	if (kma_pairs_on_alloc(m->lives, m->ops->key(ev), &pr))
		return -1;
	if (pr.kind == KMA_PAIR_IMPLICIT && close_live(m, pr.old, ev, KMA_FREE_IMPLICIT))
		return -1;
	l = pr.live;
	fill_live(m, l, ev, req, bytes, id);
	l->selected = (uint8_t)selected;
	l->self = (uint8_t)self;
	if (!selected) {
		m->totals.unselected++;
		return 0;
	}
	if (m->nr_sets ? kma_sets_alloc(m, ev, l) : account_caller(m, ev, l, c, id, slack))
		return -1;
	m->totals.allocs++;
	m->totals.live++;
	m->totals.total += bytes;
	m->totals.net += bytes;
	m->totals.stacked += ev->stack_id != 0;
	m->gens[m->generation].allocs++;
	m->gens[m->generation].bytes += bytes;
	m->gens[m->generation].live++;
	m->gens[m->generation].live_bytes += bytes;
	if (m->totals.net > m->totals.peak_net) {
		m->totals.peak_net = m->totals.net;
		m->totals.peak_ts = ev->ts;
		m->peak_epoch++;
	}
	return 0;
}

/* Does a filtered report count an unknown or null free (kma_free_scope)? */
static int free_selected(struct kma_match *m, const struct kma_event *ev)
{
	if (m->opts.free_scope != KMA_FREES_FILTERED)
		return 1;
	if (!is_selected(m, ev->ts))
		return 0;
	return !m->opts.select_free ||
	       !(m->opts.select_free(m->opts.select_ctx, ev) & KMA_SEL_OUT);
}

static int do_free(struct kma_match *m, const struct kma_event *ev)
{
	struct kma_pair pr;

	kma_pairs_on_free(m->lives, m->ops->key(ev), &pr);
	if (pr.kind == KMA_PAIR_FREED) {
		const struct live *l = pr.old;

		/* a free of an allocation outside the filter is not counted */
		if (l->selected) {
			m->totals.frees++;
			m->gens[m->generation].frees++;
		}
		return close_live(m, l, ev, ev->type);
	}
	if (!free_selected(m, ev))
		return 0;
	if (m->opts.free_scope != KMA_FREES_WHOLE) {
		m->totals.frees++;
		m->gens[m->generation].frees++;
	}
	m->totals.unknown_size += m->ops->bytes(ev, m->opts.page_shift);
	if (pr.kind == KMA_PAIR_NULL) {
		m->totals.null_frees++;
		return 0;
	}
	m->totals.unknown_frees++;
	if (m->opts.sink.unknown_free) {
		struct kma_free_row row = {
			.ts		= ev->ts,
			.ptr		= ev->ptr,
			.call_site	= ev->call_site,
			.comm		= ev->comm,
			.kind		= ev->type,
			.cpu		= ev->cpu,
			.pid		= ev->pid,
			.stack_id	= ev->stack_id,
		};

		row.caller = name_of(m, ev->call_site);
		if (!row.caller)
			return -1;
		return m->opts.sink.unknown_free(m->opts.sink.ctx, &row);
	}
	return 0;
}

/* An event whose caller is a stack frame (kma_kind_ops.caller_from_stack). */
static int stack_caller_event(struct kma_match *m, const struct kma_event *ev,
			      enum kma_ev_role role)
{
	struct kma_event e = *ev;

	if (m->opts.stack_caller && ev->stack_id)
		e.call_site = m->opts.stack_caller(m->opts.stack_ctx, ev->stack_id);
	return role == KMA_ROLE_ALLOC ? do_alloc(m, &e) : do_free(m, &e);
}

void kma_match_prefetch(const struct kma_match *m, const struct kma_event *ev)
{
	kma_pairs_prefetch(m->lives, m->ops->key(ev));
}

int kma_match_event(struct kma_match *m, const struct kma_event *ev)
{
	if (m->finished) {
		errno = EINVAL;
		return -1;
	}
	int kind = kma_kind_of_event(ev->type);
	enum kma_ev_role role;

	if (ev->type == KMA_EV_MARKER)
		return kma_gen_marker(m, ev);
	if (ev->type == KMA_EV_MODULE_LOAD || ev->type == KMA_EV_MODULE_FREE)
		return kma_gen_module(m, ev);
	if (kind < 0) {
		errno = EINVAL;
		return -1;
	}
	if (kind != (int)m->opts.kind)
		return 0;	/* another allocator's: its own matcher counts it */
	if ((m->tl && kma_timeline_tick(m->tl, ev->ts)) || (m->nr_sets && kma_sets_tick(m, ev->ts)))
		return -1;
	if (m->opts.kmalloc_only && kind == KMA_KIND_SLAB && !kma_ev_is_kmalloc(ev->type)) {
		m->totals.ignored++;
		return 0;
	}
	role = kma_ev_role(ev->type);
	if (role == KMA_ROLE_COUNT) {
		m->totals.counted++;
		return 0;
	}
	if (m->ops->caller_from_stack && !ev->call_site && !m->nr_sets)
		return stack_caller_event(m, ev, role);
	if (role == KMA_ROLE_ALLOC)
		return do_alloc(m, ev);
	return do_free(m, ev);
}

int kma_match_finish(struct kma_match *m, uint64_t end_ts)
{
	const struct live *l;
	size_t pos = 0;

	if (m->finished)
		return 0;
	m->finished = 1;
	if (kma_gen_finish(m, end_ts))
		return -1;
	if (m->tl && kma_timeline_finish(m->tl, end_ts, m->callers, m->nr_callers))
		return -1;
	/* In the live set's order, which depends only on the events: repeatable. */
	while ((l = kma_pairs_next(m->lives, &pos, NULL)))
		if (emit(m, l, NULL, -1))
			return -1;
	return 0;
}

int kma_match_live_next(const struct kma_match *m, size_t *pos, struct kma_event *ev)
{
	const struct live *l = kma_pairs_next_in_memory(m->lives, pos);

	if (!l)
		return 0;
	memset(ev, 0, sizeof(*ev));
	ev->type = l->kind;
	ev->ptr = l->ptr;
	ev->call_site = l->call_site;
	ev->bytes_alloc = l->bytes_alloc;
	ev->cache = l->cache;
	ev->kmalloc_type = l->kmalloc_type;
	return 1;
}

struct kma_quant *kma_match_lifetimes(struct kma_match *m, uint32_t caller_id)
{
	return caller_id < m->nr_callers ? &m->callers[caller_id].life_q : NULL;
}

int kma_match_lifetimes_bucketed(const struct kma_match *m)
{
	return m->life_budget.over;
}

const struct kma_timeline *kma_match_timeline(const struct kma_match *m)
{
	return m->tl;
}

const struct kma_totals *kma_match_totals(const struct kma_match *m)
{
	return &m->totals;
}

const struct kma_caller *kma_match_callers(const struct kma_match *m, uint32_t *nr)
{
	*nr = m->nr_callers;
	return m->callers;
}

const struct kma_generation *kma_match_generations(const struct kma_match *m, uint32_t *nr)
{
	*nr = m->nr_gens;
	return m->gens;
}

const struct kma_size *kma_match_sizes(const struct kma_match *m, uint32_t *nr)
{
	*nr = m->nr_sizes;
	return m->sizes;
}

const struct kma_leftover *kma_match_leftovers(const struct kma_match *m, uint32_t *nr)
{
	*nr = m->nr_leftovers;
	return m->leftovers;
}

const struct kma_module *kma_match_modules(const struct kma_match *m, uint32_t *nr)
{
	*nr = m->nr_modules;
	return m->modules;
}

int64_t kma_match_selected_generation(const struct kma_match *m)
{
	return m->sel_gen;
}
