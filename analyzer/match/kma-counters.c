// SPDX-License-Identifier: GPL-2.0
/*
 * kma-counters.c - the trace beside the kernel's own counters
 * (kma-analyze --counters): per slab cache, meminfo field and allocinfo
 * function, what the kernel's snapshots say changed next to what the
 * trace's kmem events say changed over the same interval. The difference
 * is what moved through paths without a kmem event.
 *
 * Allocations pair with frees through kma-pairs over the whole trace, as
 * the matcher does, so a free in an interval finds an allocation made
 * before it; only the events between a kind's start and end snapshots are
 * counted, in stream order.
 *
 * Until the first counter marker nothing is counted, so a trace without
 * markers (trace-cmd record, kma-record without --markers) need not pay for
 * a second live set: given a slab matcher that pairs the same events by the
 * same rules, the tracker takes that matcher's live set at the first marker,
 * which is the set it would have built itself, and pairs on its own from
 * there. Only each cache's largest object is kept before it (a cache's
 * object size places a cache slabinfo lacks).
 */
#include <stdlib.h>
#include <string.h>

#include "kma-counters-int.h"
#include "kma-grow.h"
#include "kma-pairs.h"

/* What the live set keeps of an allocation. */
struct live {
	uint32_t	cache;		/* index in c->caches, UINT32_MAX: none */
	uint32_t	site;		/* index in c->sites */
	uint64_t	bytes;		/* bytes_alloc */
	int		slab;		/* in a slab cache (not kmalloc-large) */
};

struct kma_counters *kma_counters_alloc(const struct kma_match *pairs)
{
	const struct kma_match_opts *mo = pairs ? kma_match_opts(pairs) : NULL;
	struct kma_counters *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->names = kma_strpool_alloc();
	c->lives = kma_pairs_alloc(sizeof(struct live), 1024);
	if (!c->names || !c->lives || kma_map_init(&c->cache_map, 64) ||
	    kma_map_init(&c->cache_memo, 64) || kma_map_init(&c->site_map, 256)) {
		kma_counters_free(c);
		return NULL;
	}
	if (mo && mo->kind == KMA_KIND_SLAB && !mo->kmalloc_only)
		c->follow = pairs;
	return c;
}

void kma_counters_free(struct kma_counters *c)
{
	if (!c)
		return;
	kma_counters_free_snaps(c);
	kma_pairs_free(c->lives);
	kma_map_release(&c->cache_map);
	kma_map_release(&c->cache_memo);
	kma_map_release(&c->site_map);
	free(c->caches);
	free(c->sites);
	free(c->slab);
	free(c->mem);
	free(c->alloc);
	kma_strpool_free(c->names);
	free(c);
}

/* The index of cache @name (any string; interned here), UINT32_MAX: out of memory. */
static uint32_t cache_idx(struct kma_counters *c, const char *name)
{
	const char *s = kma_strpool_intern(c->names, name, strlen(name));
	uint32_t *idx;

	if (!s)
		return UINT32_MAX;
	idx = kma_map_find(&c->cache_map, (uint64_t)(uintptr_t)s);
	if (idx)
		return *idx;
	if (kma_grow(&c->caches, &c->cap_caches, c->nr_caches, sizeof(*c->caches), 64) ||
	    kma_map_put(&c->cache_map, (uint64_t)(uintptr_t)s, c->nr_caches))
		return UINT32_MAX;
	memset(&c->caches[c->nr_caches], 0, sizeof(*c->caches));
	c->caches[c->nr_caches].name = s;
	return c->nr_caches++;
}

static uint32_t site_idx(struct kma_counters *c, uint64_t call_site)
{
	uint32_t *idx = kma_map_find(&c->site_map, call_site);

	if (idx)
		return *idx;
	if (kma_grow(&c->sites, &c->cap_sites, c->nr_sites, sizeof(*c->sites), 256) ||
	    kma_map_put(&c->site_map, call_site, c->nr_sites))
		return UINT32_MAX;
	memset(&c->sites[c->nr_sites], 0, sizeof(*c->sites));
	c->sites[c->nr_sites].call_site = call_site;
	return c->nr_sites++;
}

/* An allocation's end (a traced free, or implicit) in each interval it falls in. */
static void closed(struct kma_counters *c, const struct live *l, int implicit)
{
	if (c->iv[KMA_CNT_SLAB] == IV_IN && l->cache != UINT32_MAX) {
		if (implicit)
			c->caches[l->cache].implicit++;
		else
			c->caches[l->cache].frees++;
	}
	if (c->iv[KMA_CNT_MEM] == IV_IN && l->slab)
		c->slab_bytes -= (int64_t)l->bytes;
	if (c->iv[KMA_CNT_ALLOC] == IV_IN)
		c->sites[l->site].net -= (int64_t)l->bytes;
}

/* The cache an allocation lands in: its event's, or kmalloc's by the kernel's rule. */
static const char *cache_of(const struct kma_event *ev, char *buf, size_t len, int *slab)
{
	*slab = 1;
	if (ev->cache)
		return ev->cache;
	if (ev->type != KMA_EV_KMALLOC && ev->type != KMA_EV_KMALLOC_NODE)
		return NULL;	/* a cache event without its name (very old kernels) */
	kma_kmalloc_cache(buf, len, ev->kmalloc_type, ev->bytes_alloc);
	*slab = ev->bytes_alloc <= 8192;	/* kmalloc-large: the page allocator */
	return buf;
}

/* Bit 63 of a memo key: a kmalloc size, not a pointer (user space: below 2^47). */
#define COUNTERS_KMALLOC	(1ULL << 63)

/*
 * cache_idx() of the allocation's cache, remembered per event cache name or
 * kmalloc (type, size): the same index cache_of() and cache_idx() give, and
 * the caches are numbered in the same order (a miss numbers them).
 * 0, or -1 out of memory; l->cache UINT32_MAX and l->slab 0 as cache_of() says.
 */
static int alloc_cache(struct kma_counters *c, const struct kma_event *ev, struct live *l)
{
	uint64_t key = ev->cache ? (uint64_t)(uintptr_t)ev->cache :
		       COUNTERS_KMALLOC | (uint64_t)(uint32_t)ev->kmalloc_type << 32 |
		       (ev->bytes_alloc & 0xffffffffULL);
	const uint32_t *memo = NULL;
	const char *name;
	char buf[40];
	int kmalloc = ev->type == KMA_EV_KMALLOC || ev->type == KMA_EV_KMALLOC_NODE;

	l->slab = 1;
	if (!ev->cache && kmalloc && ev->bytes_alloc > 8192) {
		l->slab = 0;	/* kmalloc-large: the page allocator, no cache */
		return 0;
	}
	if ((ev->cache || kmalloc) && ev->bytes_alloc <= 0xffffffffULL)
		memo = kma_map_find(&c->cache_memo, key);
	if (memo) {
		l->cache = *memo;
		return 0;
	}
	name = cache_of(ev, buf, sizeof(buf), &l->slab);
	if (!name || !l->slab)
		return 0;
	l->cache = cache_idx(c, name);
	if (l->cache == UINT32_MAX)
		return -1;
	if (ev->bytes_alloc <= 0xffffffffULL && kma_map_put(&c->cache_memo, key, l->cache))
		return -1;
	return 0;
}

static int on_alloc(struct kma_counters *c, const struct kma_event *ev)
{
	struct kma_pair pr;
	struct live l = { .cache = UINT32_MAX, .bytes = ev->bytes_alloc };

	if (ev->ptr == 0)
		return 0;	/* failed: kma-pairs keeps nothing */
	if (alloc_cache(c, ev, &l))
		return -1;
	if (l.cache != UINT32_MAX) {
		if (ev->bytes_alloc > c->caches[l.cache].objsize)
			c->caches[l.cache].objsize = ev->bytes_alloc;
	}
	if (c->follow)
		return 0;	/* paired by c->follow until the first marker */
	l.site = site_idx(c, ev->call_site);
	if (l.site == UINT32_MAX || kma_pairs_on_alloc(c->lives, ev->ptr, &pr))
		return -1;
	if (pr.kind == KMA_PAIR_IMPLICIT)
		closed(c, pr.old, 1);
	*(struct live *)pr.live = l;
	if (c->iv[KMA_CNT_SLAB] == IV_IN && l.cache != UINT32_MAX)
		c->caches[l.cache].allocs++;
	if (c->iv[KMA_CNT_MEM] == IV_IN && l.slab)
		c->slab_bytes += (int64_t)l.bytes;
	if (c->iv[KMA_CNT_ALLOC] == IV_IN) {
		c->sites[l.site].net += (int64_t)l.bytes;
		c->sites[l.site].allocs++;
	}
	return 0;
}

static int on_free(struct kma_counters *c, const struct kma_event *ev)
{
	struct kma_pair pr;
	uint32_t idx;

	if (c->follow)
		return 0;
	kma_pairs_on_free(c->lives, ev->ptr, &pr);
	if (pr.kind == KMA_PAIR_FREED) {
		closed(c, pr.old, 0);
		return 0;
	}
	if (pr.kind != KMA_PAIR_UNKNOWN)
		return 0;
	/* older than the trace: kmem_cache_free names its cache, kfree does not */
	if (c->iv[KMA_CNT_SLAB] == IV_IN) {
		if (ev->cache) {
			idx = cache_idx(c, ev->cache);
			if (idx == UINT32_MAX)
				return -1;
			c->caches[idx].frees++;
		} else {
			c->tot.unknown_frees++;
		}
	}
	if (c->iv[KMA_CNT_MEM] == IV_IN)
		c->tot.mem_unknown_frees++;
	return 0;
}

/*
 * The first counter marker: the allocations live now, as the matcher
 * followed so far holds them, become the tracker's own. No interval is open
 * yet, so on_alloc() counts nothing for them.
 */
static int stop_following(struct kma_counters *c)
{
	const struct kma_match *m = c->follow;
	struct kma_event ev;
	size_t pos = 0;

	c->follow = NULL;
	while (kma_match_live_next(m, &pos, &ev))
		if (on_alloc(c, &ev))
			return -1;
	return 0;
}

int kma_counters_event(struct kma_counters *c, const struct kma_event *ev)
{
	if (ev->type == KMA_EV_COUNTER) {
		if (c->follow && stop_following(c))
			return -1;
		return kma_counters_part(c, ev);
	}
	if (kma_ev_is_alloc(ev->type))
		return on_alloc(c, ev);
	if (ev->type == KMA_EV_KFREE || ev->type == KMA_EV_CACHE_FREE)
		return on_free(c, ev);
	return 0;
}
