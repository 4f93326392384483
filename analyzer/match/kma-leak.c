// SPDX-License-Identifier: GPL-2.0
/*
 * kma-leak.c - leak verdicts, each with its reasons in words, and the caches
 * whose growth with the workload is not a leak.
 */
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-leak.h"

/*
 * Caches the kernel grows with the workload and shrinks only under memory
 * pressure (shrinkers, RCU): their growth over a run is expected, not a leak.
 * Matched against the cache name and the caller's function (kmalloc callers
 * have no cache name). Each one is documented in kma-analyze(1).
 */
const char * const kma_leak_growth_default[] = {
	"*inode*",		/* inode caches and their alloc_inode functions: the icache */
	"dentry", "__d_alloc",	/* the dcache (and long names, kmalloc in __d_alloc) */
	"buffer_head", "alloc_buffer_head",	/* page-cache buffers, freed with the pages */
	"radix_tree_node", "radix_tree_node_alloc", "xas_alloc", "xas_nomem",
				/* page-cache index nodes (xarray) */
	"alloc_slab_obj_exts", "kmem_cache_node", "slab_obj_exts",
				/* slab metadata: grows with the slabs it describes */
	"ext4_extent_status", "ext4_es_alloc_extent", "xfs_ifork",
				/* extent caches of cached inodes, shrunk with them */
	NULL
};

/* Is list one that kma_leak_growth_parse() allocated? */
static int growth_owned(const char * const *list)
{
	return list && list != kma_leak_growth_default;
}

void kma_leak_growth_free(const char * const *list)
{
	if (growth_owned(list))
		free((void *)list);
}

/* Copies s to *buf as a new entry v[i]; returns the entry's length. */
static size_t put(const char **v, size_t i, char **buf, const char *s, size_t len)
{
	memcpy(*buf, s, len);
	(*buf)[len] = '\0';
	v[i] = *buf;
	*buf += len + 1;
	return len;
}

/*
 * One allocation holds the array and all its strings (those kept from the
 * current list too), so that a list is freed with one free().
 */
int kma_leak_growth_parse(const char *arg, const char * const **list)
{
	const char * const *cur = *list ? *list : kma_leak_growth_default;
	int add = arg[0] == '+', none = !strcmp(arg, "none");
	const char *src = arg + add, *p, *q;
	size_t n = 1, k = 0, bytes = strlen(src) + 1, i;
	const char **v;
	char *buf;

	for (p = src; *p; p++)
		n += *p == ',';
	if (none)
		n = 0;
	for (; add && cur[k]; k++)
		bytes += strlen(cur[k]) + 1;
	v = malloc((k + n + 1) * sizeof(*v) + bytes);
	if (!v)
		return -1;
	buf = (char *)(v + k + n + 1);
	for (i = 0; i < k; i++)
		put(v, i, &buf, cur[i], strlen(cur[i]));
	for (p = src; !none && i < k + n; i++, p = q + 1) {
		q = p + strcspn(p, ",");
		if (!put(v, i, &buf, p, (size_t)(q - p))) {
			free(v);	/* an empty pattern: *list is left as it was */
			return -1;
		}
	}
	v[i] = NULL;
	kma_leak_growth_free(*list);
	*list = v;
	return 0;
}

/* The function of a caller name "func+0x1a/0x40 [mod]", into buf. */
static const char *function_of(const char *name, char *buf, size_t len)
{
	size_t n = strcspn(name, "+ ");

	if (n >= len)
		n = len - 1;
	memcpy(buf, name, n);
	buf[n] = '\0';
	return buf;
}

/* The pattern of list that c's cache (*by_cache = 1) or function (0) matches. */
static const char *growth_match(const struct kma_caller *c, const char * const *list,
				int *by_cache)
{
	char fn[256];

	if (!list)
		return NULL;
	function_of(c->name ? c->name : "", fn, sizeof(fn));
	for (; *list; list++) {
		*by_cache = c->cache && !fnmatch(*list, c->cache, 0);
		if (*by_cache || !fnmatch(*list, fn, 0))
			return *list;
	}
	return NULL;
}

const char *kma_leak_growth_match(const struct kma_caller *c, const char * const *list)
{
	int by_cache;

	return growth_match(c, list, &by_cache);
}

static void add_reason(struct kma_leak *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_reason(struct kma_leak *out, const char *fmt, ...)
{
	size_t len = strlen(out->why);
	va_list ap;

	if (len && len + 2 < sizeof(out->why)) {
		memcpy(out->why + len, "; ", 3);
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(out->why + len, sizeof(out->why) - len, fmt, ap);
	va_end(ap);
}

/* Seconds with the unit, as the text reports print times. */
static void secs(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64 "s", ns / 1000000000,
		 ns % 1000000000 / 1000);
}

/* The facts every verdict states: growth, frees, age, share freed. */
static void facts(const struct kma_caller *c, const struct kma_leak_rules *r,
		  struct kma_leak *out)
{
	uint64_t freed = c->frees + c->implicit_frees;
	char t[32];

	add_reason(out, "grew in %u of %u generations (longest run %u)", c->grew_gens,
		   r->gens, c->max_grow_run);
	if (!c->last_free_gen)
		add_reason(out, "never freed");
	else if (c->last_free_gen < r->gens)
		add_reason(out, "never freed after generation %u", c->last_free_gen - 1);
	if (c->live) {
		secs(t, sizeof(t), c->age_median);
		add_reason(out, "median age %s", t);
	}
	add_reason(out, "%" PRIu64 "%% freed (%" PRIu64 " of %" PRIu64 ")",
		   c->allocs ? freed * 100 / c->allocs : 0, freed, c->allocs);
}

/* A suspect: how far to trust it. */
static const char *confidence(const struct kma_caller *c, const struct kma_leak_rules *r,
			      struct kma_leak *out)
{
	static const char * const levels[] = { "low", "low", "medium", "high" };
	int level = 3;
	char t[32], y[32];

	if (r->lost) {
		level--;
		add_reason(out, "the trace lost %" PRIu64 " events", r->lost);
	}
	if (c->implicit_frees) {
		level--;
		add_reason(out, "%" PRIu64 " implicit frees: its objects are also freed by "
			   "untraced paths (bulk frees, kfree_rcu)", c->implicit_frees);
	}
	if (c->live && c->age_median < r->young_ns) {
		level--;
		secs(t, sizeof(t), c->age_median);
		secs(y, sizeof(y), r->young_ns);
		add_reason(out, "its live allocations are young (median age %s, threshold %s)",
			   t, y);
	}
	return levels[level < 0 ? 0 : level];
}

void kma_leak_assess(const struct kma_caller *c, const struct kma_leak_rules *r,
		     struct kma_leak *out)
{
	const char *pat;
	char t[32], fn[256];
	int by_cache = 0;

	memset(out, 0, sizeof(*out));
	out->class = KMA_LEAK_NONE;
	out->confidence = "none";
	if (!c->net)
		return;
	pat = growth_match(c, r->growth, &by_cache);
	if (pat) {
		out->class = KMA_LEAK_CACHE_GROWTH;
		add_reason(out, "cache growth: %s '%s' matches '%s'", by_cache ? "cache" :
			   "function", by_cache ? c->cache :
			   function_of(c->name ? c->name : "", fn, sizeof(fn)), pat);
	} else if (c->net <= c->tail_live_bytes) {
		secs(t, sizeof(t), r->tail_ns);
		add_reason(out, "all its live bytes were allocated in the %s after the last "
			   "marker", t);
	} else if (r->gens < KMA_LEAK_MIN_GENS) {
		out->class = KMA_LEAK_TOO_FEW;
		add_reason(out, "too few generations for a verdict (%u, needs %d)", r->gens,
			   KMA_LEAK_MIN_GENS);
	} else if (c->max_grow_run >= KMA_LEAK_MIN_RUN) {
		out->class = KMA_LEAK_SUSPECT;
		out->suspect = 1;
	}
	facts(c, r, out);
	if (c->tail_live_bytes && !pat) {
		secs(t, sizeof(t), r->tail_ns);
		add_reason(out, "%" PRIu64 " bytes made in the %s tail discounted",
			   c->tail_live_bytes, t);
	}
	if (out->suspect)
		out->confidence = confidence(c, r, out);
}
