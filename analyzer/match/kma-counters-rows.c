// SPDX-License-Identifier: GPL-2.0
/*
 * kma-counters-rows.c - the rows of --counters, once the trace has been
 * read: slabinfo's caches (a trace cache slabinfo lacks placed in the one
 * cache of its object size, if there is one), meminfo's fields, allocinfo's
 * functions, each with the kernel's change beside the trace's.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-counters-int.h"
#include "kma-grow.h"

static struct snap *snap(struct kma_counters *c, int kind, int phase)
{
	return kma_counters_snap(c, kind, phase);
}

/* The slabinfo row of kernel cache @name (interned), or NULL. */
static struct kma_cnt_slab *slab_row(struct kma_counters *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nr_slab; i++)
		if (c->slab[i].cache == name)
			return &c->slab[i];
	return NULL;
}

static struct kma_cnt_slab *new_slab(struct kma_counters *c, const char *name)
{
	struct kma_cnt_slab *s;

	if (kma_grow(&c->slab, &c->cap_slab, c->nr_slab, sizeof(*c->slab), 128))
		return NULL;
	s = &c->slab[c->nr_slab++];
	memset(s, 0, sizeof(*s));
	s->cache = name;
	return s;
}

/* The kernel's rows: start's caches in its order, then those only in end. */
static int kernel_slab(struct kma_counters *c)
{
	int ph;
	size_t i;

	for (ph = 0; ph < KMA_CNT_PHASES; ph++) {
		struct snap *s = snap(c, KMA_CNT_SLAB, ph);

		for (i = 0; i < s->n; i++) {
			struct kma_cnt_slab *r = slab_row(c, s->e[i].name);

			if (!r && !(r = new_slab(c, s->e[i].name)))
				return -1;
			/* a cache listed twice in a snapshot adds up, as /proc lists it */
			if (ph == KMA_CNT_START) {
				r->k_start += s->e[i].a;
			} else {
				r->k_end += s->e[i].a;
				r->objsize = s->e[i].b;
			}
			if (!r->objsize)
				r->objsize = s->e[i].b;
		}
	}
	return 0;
}

/* The one kernel cache of object size @size, or NULL (none, or several). */
static struct kma_cnt_slab *by_objsize(struct kma_counters *c, size_t nr_kernel, uint64_t size)
{
	struct kma_cnt_slab *found = NULL;
	size_t i;

	for (i = 0; i < nr_kernel && size; i++)
		if (c->slab[i].objsize == size) {
			if (found)
				return NULL;
			found = &c->slab[i];
		}
	return found;
}

static int cmp_slab_name(const void *a, const void *b)
{
	return strcmp(((const struct kma_cnt_slab *)a)->cache,
		      ((const struct kma_cnt_slab *)b)->cache);
}

static int slab_rows(struct kma_counters *c)
{
	size_t i, nr_kernel;

	if (kernel_slab(c))
		return -1;
	nr_kernel = c->nr_slab;
	for (i = 0; i < c->nr_caches; i++) {
		const struct tcache *t = &c->caches[i];
		int64_t d = t->allocs - t->frees - t->implicit;
		struct kma_cnt_slab *r = slab_row(c, t->name), *target = NULL;

		if (!r) {
			if (!t->allocs && !t->frees && !t->implicit)
				continue;	/* nothing in the interval */
			target = by_objsize(c, nr_kernel, t->objsize);
			r = new_slab(c, t->name);
			if (!r)
				return -1;
			r->objsize = t->objsize;
			r->state = target ? KMA_CNT_SLAB_MERGED : KMA_CNT_SLAB_UNKNOWN;
			r->target = target ? target->cache : NULL;
			target = target ? slab_row(c, r->target) : NULL;	/* may have moved */
		}
		r->allocs = t->allocs;
		r->frees = t->frees;
		r->implicit = t->implicit;
		r->t_delta += d;
		if (target)
			target->t_delta += d;
	}
	for (i = 0; i < c->nr_slab; i++) {
		struct kma_cnt_slab *r = &c->slab[i];

		if (r->state != KMA_CNT_SLAB_BOTH)
			continue;
		r->k_delta = r->k_end - r->k_start;
		r->untraced = r->k_delta - r->t_delta;
	}
	qsort(c->slab + nr_kernel, c->nr_slab - nr_kernel, sizeof(*c->slab), cmp_slab_name);
	return 0;
}

static struct kma_cnt_mem *mem_row(struct kma_counters *c, const char *field)
{
	struct kma_cnt_mem *m;
	size_t i;

	for (i = 0; i < c->nr_mem; i++)
		if (c->mem[i].field == field)
			return &c->mem[i];
	if (kma_grow(&c->mem, &c->cap_mem, c->nr_mem, sizeof(*c->mem), 8))
		return NULL;
	m = &c->mem[c->nr_mem++];
	memset(m, 0, sizeof(*m));
	m->field = field;
	return m;
}

static int mem_rows(struct kma_counters *c)
{
	int ph;
	size_t i;

	for (ph = 0; ph < KMA_CNT_PHASES; ph++) {
		struct snap *s = snap(c, KMA_CNT_MEM, ph);

		for (i = 0; i < s->n; i++) {
			struct kma_cnt_mem *m = mem_row(c, s->e[i].name);

			if (!m)
				return -1;
			if (ph == KMA_CNT_START)
				m->k_start = s->e[i].a;
			else
				m->k_end = s->e[i].a;
		}
	}
	for (i = 0; i < c->nr_mem; i++) {
		struct kma_cnt_mem *m = &c->mem[i];

		m->k_delta = (m->k_end - m->k_start) * 1024;
		if (!strcmp(m->field, "Slab")) {
			m->has_trace = 1;
			m->t_delta = c->slab_bytes;
			m->untraced = m->k_delta - m->t_delta;
		}
	}
	return 0;
}

static struct kma_cnt_alloc *alloc_row(struct kma_counters *c, struct kma_map *map,
				       const char *func)
{
	uint32_t *idx = kma_map_find(map, (uint64_t)(uintptr_t)func);
	struct kma_cnt_alloc *a;

	if (idx)
		return &c->alloc[*idx];
	if (kma_grow(&c->alloc, &c->cap_alloc, c->nr_alloc, sizeof(*c->alloc), 256) ||
	    kma_map_put(map, (uint64_t)(uintptr_t)func, c->nr_alloc))
		return NULL;
	a = &c->alloc[c->nr_alloc++];
	memset(a, 0, sizeof(*a));
	a->func = func;
	return a;
}

/* A tag's function: its "func:NAME", or the tag itself when it has none. */
static const char *tag_func(const struct kma_cnt_entry *e)
{
	return e->func ? e->func : e->name;
}

static int kernel_alloc(struct kma_counters *c, struct kma_map *map)
{
	struct kma_map tags;	/* interned tag -> 1, to count a function's tags once */
	int ph;
	size_t i;

	if (kma_map_init(&tags, 256))
		return -1;
	for (ph = 0; ph < KMA_CNT_PHASES; ph++) {
		struct snap *s = snap(c, KMA_CNT_ALLOC, ph);
		int64_t sign = ph == KMA_CNT_START ? -1 : 1;

		for (i = 0; i < s->n; i++) {
			struct kma_cnt_alloc *a = alloc_row(c, map, tag_func(&s->e[i]));

			if (!a)
				goto oom;
			if (ph == KMA_CNT_START)
				a->k_start += s->e[i].a;
			else
				a->k_end += s->e[i].a;
			a->k_calls += sign * s->e[i].b;
			if (!kma_map_find(&tags, (uint64_t)(uintptr_t)s->e[i].name)) {
				if (kma_map_put(&tags, (uint64_t)(uintptr_t)s->e[i].name, 1))
					goto oom;
				a->tags++;
			}
		}
	}
	kma_map_release(&tags);
	return 0;
oom:
	kma_map_release(&tags);
	return -1;
}

static int cmp_alloc(const void *a, const void *b)
{
	return strcmp(((const struct kma_cnt_alloc *)a)->func,
		      ((const struct kma_cnt_alloc *)b)->func);
}

static int alloc_rows(struct kma_counters *c, kma_group_fn func_of, void *ctx)
{
	struct kma_map map;	/* interned function -> index in c->alloc */
	size_t i, keep = 0;

	if (kma_map_init(&map, 256))
		return -1;
	if (kernel_alloc(c, &map))
		goto oom;
	for (i = 0; func_of && i < c->nr_sites; i++) {
		const struct tsite *t = &c->sites[i];
		const char *f;
		struct kma_cnt_alloc *a;

		if (!t->net && !t->allocs)
			continue;
		f = func_of(ctx, t->call_site, KMA_GROUP_FUNCTION);
		f = f ? kma_strpool_intern(c->names, f, strlen(f)) : NULL;
		a = f ? alloc_row(c, &map, f) : NULL;
		if (!a)
			goto oom;
		a->t_net += t->net;
		a->t_allocs += t->allocs;
	}
	kma_map_release(&map);
	/* functions where nothing changed on either side say nothing */
	for (i = 0; i < c->nr_alloc; i++) {
		struct kma_cnt_alloc *a = &c->alloc[i];

		a->k_bytes = a->k_end - a->k_start;
		if (!a->k_bytes && !a->k_calls && !a->t_net && !a->t_allocs)
			continue;
		a->untraced = a->k_bytes - a->t_net;
		c->alloc[keep++] = *a;
	}
	c->nr_alloc = keep;
	qsort(c->alloc, c->nr_alloc, sizeof(*c->alloc), cmp_alloc);
	return 0;
oom:
	kma_map_release(&map);
	return -1;
}

int kma_counters_finish(struct kma_counters *c, kma_group_fn func_of, void *ctx)
{
	static const int kinds[] = { KMA_CNT_SLAB, KMA_CNT_MEM, KMA_CNT_ALLOC };
	uint64_t *iv[] = { &c->tot.slab_from, &c->tot.mem_from, &c->tot.alloc_from };
	size_t k;

	if (c->finished)
		return 0;
	c->finished = 1;
	kma_counters_check_snaps(c);
	for (k = 0; k < 3; k++)
		if (kma_counters_usable(c, kinds[k])) {
			iv[k][0] = snap(c, kinds[k], KMA_CNT_START)->pub.ts;
			iv[k][1] = snap(c, kinds[k], KMA_CNT_END)->pub.ts;
		}
	if (kma_counters_usable(c, KMA_CNT_SLAB) && slab_rows(c))
		return -1;
	if (kma_counters_usable(c, KMA_CNT_MEM) && mem_rows(c))
		return -1;
	if (kma_counters_usable(c, KMA_CNT_ALLOC) && alloc_rows(c, func_of, ctx))
		return -1;
	return 0;
}

int kma_counters_cache_delta(const struct kma_counters *c, const char *cache,
			     int64_t *kernel, int64_t *trace)
{
	const struct kma_cnt_slab *r = NULL;
	size_t i;

	if (!c || !cache || !c->finished || !kma_counters_usable(c, KMA_CNT_SLAB))
		return -1;
	for (i = 0; i < c->nr_slab && !r; i++)
		if (!strcmp(c->slab[i].cache, cache))
			r = &c->slab[i];
	if (r && r->state == KMA_CNT_SLAB_MERGED)
		for (i = 0, cache = r->target, r = NULL; i < c->nr_slab && !r; i++)
			if (c->slab[i].state == KMA_CNT_SLAB_BOTH && !strcmp(c->slab[i].cache, cache))
				r = &c->slab[i];
	if (!r || r->state != KMA_CNT_SLAB_BOTH)
		return -1;
	*kernel = r->k_delta;
	*trace = r->t_delta;
	return 0;
}

const struct kma_cnt_totals *kma_counters_totals(const struct kma_counters *c)
{
	return &c->tot;
}

const char *kma_cnt_slab_state_name(int state)
{
	static const char *const names[] = { "slabinfo", "merged", "merged-unknown" };

	return state >= 0 && state <= KMA_CNT_SLAB_UNKNOWN ? names[state] : "?";
}

const struct kma_cnt_slab *kma_counters_slab(const struct kma_counters *c, size_t *n)
{
	*n = c->nr_slab;
	return c->slab;
}

static uint64_t mag(int64_t v)
{
	return v < 0 ? -(uint64_t)v : (uint64_t)v;
}

static int cmp_shown(const void *a, const void *b)
{
	const struct kma_cnt_slab *x = *(const struct kma_cnt_slab * const *)a;
	const struct kma_cnt_slab *y = *(const struct kma_cnt_slab * const *)b;

	if (mag(x->untraced) != mag(y->untraced))
		return mag(x->untraced) > mag(y->untraced) ? -1 : 1;
	return strcmp(x->cache, y->cache);
}

const struct kma_cnt_slab **kma_counters_slab_shown(const struct kma_counters *c, size_t *n)
{
	const struct kma_cnt_slab **v = malloc((c->nr_slab ? c->nr_slab : 1) * sizeof(*v));
	const struct kma_cnt_slab *s = c->slab;
	size_t i;

	if (!v)
		return NULL;
	for (*n = 0, i = 0; i < c->nr_slab; i++)
		if (s[i].state != KMA_CNT_SLAB_BOTH || s[i].k_delta || s[i].allocs ||
		    s[i].frees || s[i].implicit || s[i].t_delta)
			v[(*n)++] = &s[i];
	qsort(v, *n, sizeof(*v), cmp_shown);
	return v;
}

const struct kma_cnt_mem *kma_counters_mem(const struct kma_counters *c, size_t *n)
{
	*n = c->nr_mem;
	return c->mem;
}

const struct kma_cnt_alloc *kma_counters_alloc_rows(const struct kma_counters *c, size_t *n)
{
	*n = c->nr_alloc;
	return c->alloc;
}
