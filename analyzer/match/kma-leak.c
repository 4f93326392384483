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

#include "kma-time.h"
#include "kma-leak.h"
#include "kma-counters.h"

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
	"ext4_extent_status", "extent_status", "ext4_es_alloc_extent", "__es_alloc_extent",
	"__es_insert_extent", "xfs_ifork",
				/* extent caches of cached inodes, shrunk with them (the cache
				 * is "extent_status" since 6.2's KMEM_CACHE) */
	"__filemap_get_folio*", "filemap_alloc_folio*", "__page_cache_alloc*",
	"filemap_create_folio", "page_cache_ra_*", "ra_alloc_folio",
				/* the page cache (--pages): freed under memory pressure */
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

/*
 * The function of @name that pattern @pat matches, into fn: the caller's
 * function, or any frame of a folded stack ("a;b;c"), so that a stack row is
 * judged by the same list as the call site it goes through.
 */
static const char *frame_match(const char *pat, const char *name, char *fn, size_t len)
{
	const char *p = name;

	for (;;) {
		size_t n = strcspn(p, ";");

		function_of(p, fn, len < n + 1 ? len : n + 1);
		if (!fnmatch(pat, fn, 0))
			return fn;
		if (!p[n])
			return NULL;
		p += n + 1;
	}
}

/* The pattern of list that c's cache (*by_cache = 1) or a function (0, in fn) matches. */
static const char *growth_match(const struct kma_caller *c, const char * const *list,
				int *by_cache, char *fn, size_t len)
{
	for (; list && *list; list++) {
		*by_cache = c->cache && !fnmatch(*list, c->cache, 0);
		if (*by_cache || frame_match(*list, c->name ? c->name : "", fn, len))
			return *list;
	}
	return NULL;
}

/* The recorder's ring-buffer paths, in whatever task runs them (splice, reads). */
static const char * const recorder_frames[] = {
	"tracing_buffers_*", "ring_buffer_*", "*rb_allocate_*", "trace_pipe_*",
	"tracing_splice_*", NULL
};

int kma_leak_recorder_frames(const char *name)
{
	const char * const *p;
	char fn[256];

	for (p = recorder_frames; name && *p; p++)
		if (frame_match(*p, name, fn, sizeof(fn)))
			return 1;
	return 0;
}

void kma_leak_phase_add(struct kma_leak_phases *p, uint32_t gen, const char *label)
{
	unsigned int k;
	char end;

	if (!label)
		return;
	if (sscanf(label, "iteration %u%c", &k, &end) == 1 && k == p->iters + 1 &&
	    (!p->iters || gen == p->first_iter + p->iters) && !p->reclaim) {
		if (!p->iters)
			p->first_iter = gen;
		p->iters++;
	} else if (!strcmp(label, "reclaim") && !p->reclaim && gen) {
		p->reclaim = gen;
	}
}

const char *kma_leak_growth_match(const struct kma_caller *c, const char * const *list)
{
	char fn[256];
	int by_cache;

	return growth_match(c, list, &by_cache, fn, sizeof(fn));
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
	kma_fmt_secs(buf, len, ns);
}

static const char *unit_of(const struct kma_leak_rules *r)
{
	return r->unit ? r->unit : "objects";
}

/* The facts every verdict states: growth, frees, age, share freed. */
static void facts(const struct kma_caller *c, const struct kma_leak_rules *r,
		  struct kma_leak *out)
{
	uint64_t freed = c->frees + c->implicit_frees;
	char t[32];

	if (!r->phases.iters)	/* the experiment says it per iteration instead */
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

/*
 * The kernel's count of the cache grew by less than half of what the trace's
 * events say over the same interval: its objects leave through frees the
 * trace does not see (bulk frees, RCU), so what looks live may not be.
 */
static int kernel_disagrees(const struct kma_caller *c, const struct kma_leak_rules *r,
			    struct kma_leak *out)
{
	int64_t kernel, trace;

	if (!r->kernel_growth || !c->cache ||
	    r->kernel_growth(r->kernel_ctx, c->cache, &kernel, &trace))
		return 0;
	if (trace <= 0 || kernel * 2 >= trace)
		return 0;
	add_reason(out, "the kernel counts %+" PRId64 " %s objects over the trace, the trace "
		   "%+" PRId64 ": objects leave through untraced frees", kernel, c->cache, trace);
	return 1;
}

/* A suspect: how far to trust it. */
static const char *confidence(const struct kma_caller *c, const struct kma_leak_rules *r,
			      int level, struct kma_leak *out)
{
	static const char * const levels[] = { "low", "low", "medium", "high" };
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
	if (kernel_disagrees(c, r, out))
		level--;
	return levels[level < 0 ? 0 : level];
}

/* The recorder's own: most of what it holds was allocated by the recorder's tasks. */
static int recorder(const struct kma_caller *c, const struct kma_leak_rules *r,
		    struct kma_leak *out)
{
	if (!c->self_live || c->self_live * 2 <= c->live)
		return 0;
	out->class = KMA_LEAK_RECORDER;
	add_reason(out, "%" PRIu64 " of its %" PRIu64 " live %s are the recorder's own "
		   "(trace-cmd, kma-record(-run), kma-analyze, kma-mark, or the ring buffer's paths)",
		   c->self_live, c->live, unit_of(r));
	return 1;
}

/* The reclaim phase (sync, drop_caches) freed at least half of what it held: a cache. */
static int reclaimable(const struct kma_caller *c, const struct kma_leak_rules *r,
		       struct kma_leak *out)
{
	if (!r->phases.reclaim || !c->reclaim_freed ||
	    c->reclaim_freed * KMA_LEAK_RECLAIM_SHARE < c->reclaim_live)
		return 0;
	out->class = KMA_LEAK_RECLAIMABLE;
	add_reason(out, "the reclaim freed %" PRIu64 " of its %" PRIu64 " %s live at the "
		   "reclaim marker: a cache the kernel shrinks", c->reclaim_freed,
		   c->reclaim_live, unit_of(r));
	return 1;
}

/*
 * The median of iterations 2..N (iteration 1 may hold a warm-up on top): the
 * lower middle one of an even count. By counting, without a copy: N is small.
 */
static uint64_t later_median(const uint64_t *v, uint32_t n)
{
	uint32_t k = n - 1, rank = (k - 1) / 2 + 1, i, j, le;
	uint64_t best = UINT64_MAX;

	for (i = 1; i < n; i++) {
		for (le = 0, j = 1; j < n; j++)
			le += v[j] <= v[i];
		if (le >= rank && v[i] < best)
			best = v[i];
	}
	return best;
}

static uint64_t max_later(const uint64_t *v, uint32_t n)
{
	uint64_t m = 0;
	uint32_t i;

	for (i = 1; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

/* "20, 20, 19" into buf: the objects each iteration left behind. */
static void per_iter(const struct kma_caller *c, char *buf, size_t len)
{
	size_t at = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < c->nr_iters && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%" PRIu64, i ? ", " : "",
				       c->iter_live[i]);
}

/*
 * Growth with each iteration: live objects left by most iterations, about
 * as many each time (within half of the median of iterations 2..N; the first
 * may leave more). Returns the confidence level to start from (3 high) for
 * a suspect, -1 for none.
 */
static int iterations(const struct kma_caller *c, const struct kma_leak_rules *r,
		      struct kma_leak *out)
{
	uint32_t n = c->nr_iters, steady = 0, i;
	uint64_t med, tol;
	char v[256];
	int level = 3;

	per_iter(c, v, sizeof(v));
	if (n < KMA_LEAK_MIN_ITERS) {
		out->class = KMA_LEAK_TOO_FEW;
		add_reason(out, "too few iterations for a verdict (%u, needs %d)", n,
			   KMA_LEAK_MIN_ITERS);
		return -1;
	}
	med = later_median(c->iter_live, n);
	tol = med / 2;
	for (i = 0; i < n; i++) {
		uint64_t x = c->iter_live[i];

		steady += x && x + tol >= med && (i == 0 || x <= med + tol);
	}
	if (med && steady * 2 > n) {
		out->class = KMA_LEAK_SUSPECT;
		out->suspect = 1;
		add_reason(out, "iterations 1-%u left %s live %s (%u of %u within %" PRIu64
			   " +- %" PRIu64 ")", n, v, unit_of(r), steady, n, med, tol);
		if (steady < n)
			level--;
		if (c->reclaim_freed) {
			level--;
			add_reason(out, "the reclaim freed %" PRIu64 " of its %" PRIu64 " %s",
				   c->reclaim_freed, c->reclaim_live, unit_of(r));
		}
		return level;
	}
	if (c->iter_live[0] && !med && c->iter_live[0] > max_later(c->iter_live, n)) {
		out->class = KMA_LEAK_WARMUP;
		add_reason(out, "iterations 1-%u left %s live %s: only the first grew (warm-up)",
			   n, v, unit_of(r));
	} else {
		add_reason(out, "iterations 1-%u left %s live %s: not about as many in most "
			   "iterations (%u of %u within %" PRIu64 " +- %" PRIu64 ")", n, v,
			   unit_of(r), steady, n, med, tol);
	}
	return -1;
}

/* Today's rules without iterations: growth over the generations, the cache list. */
static void generations(const struct kma_caller *c, const struct kma_leak_rules *r,
			struct kma_leak *out, const char **pat)
{
	char t[32], fn[256];
	int by_cache = 0;

	/* the name list only when no reclaim phase shows what is a cache */
	*pat = r->phases.reclaim ? NULL : growth_match(c, r->growth, &by_cache, fn, sizeof(fn));
	if (*pat) {
		out->class = KMA_LEAK_CACHE_GROWTH;
		add_reason(out, "cache growth: %s '%s' matches '%s'", by_cache ? "cache" :
			   "function", by_cache ? c->cache : fn, *pat);
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
}

void kma_leak_assess(const struct kma_caller *c, const struct kma_leak_rules *r,
		     struct kma_leak *out)
{
	const char *pat = NULL;
	int level = 3;
	char t[32];

	memset(out, 0, sizeof(*out));
	out->class = KMA_LEAK_NONE;
	out->confidence = "none";
	if (!c->net)
		return;
	if (recorder(c, r, out) || reclaimable(c, r, out)) {
		facts(c, r, out);
		return;
	}
	if (r->phases.iters)
		level = iterations(c, r, out);
	else
		generations(c, r, out, &pat);
	facts(c, r, out);
	if (c->tail_live_bytes && !pat && !r->phases.iters) {
		secs(t, sizeof(t), r->tail_ns);
		add_reason(out, "%" PRIu64 " bytes made in the %s tail discounted",
			   c->tail_live_bytes, t);
	}
	if (out->suspect)
		out->confidence = confidence(c, r, level, out);
}

int kma_leak_kernel_counts(void *ctx, const char *cache, int64_t *kernel, int64_t *trace)
{
	return kma_counters_cache_delta(ctx, cache, kernel, trace);
}

int kma_leak_rank(const struct kma_leak *l)
{
	static const char * const order[] = {
		KMA_LEAK_SUSPECT, KMA_LEAK_CACHE_GROWTH, KMA_LEAK_RECLAIMABLE, KMA_LEAK_WARMUP,
		KMA_LEAK_TOO_FEW, KMA_LEAK_RECORDER, KMA_LEAK_NONE,
	};
	int i;

	for (i = 0; i < (int)(sizeof(order) / sizeof(order[0])); i++)
		if (!strcmp(l->class, order[i]))
			return i;
	return i;
}
