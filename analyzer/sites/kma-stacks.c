// SPDX-License-Identifier: GPL-2.0
/*
 * kma-stacks.c - call stacks, interned twice: the raw stacks the reader
 * hands over (tracing frames included) map to trimmed stacks, so the
 * tracing frames are looked for once per distinct raw stack and every
 * frame is named once per distinct address (kma_sites caches sites).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-seqset.h"
#include "kma-strpool.h"
#include "kma-sites.h"
#include "kma-stacks.h"

struct kma_stacks {
	struct kma_sites	*sites;
	struct kma_seqset	raw;		/* as recorded */
	uint32_t		*raw_to;	/* [raw id - 1] -> stack id (0: none left) */
	size_t			cap_raw_to;
	struct kma_seqset	trimmed;	/* the stacks */
	const char		**folded;	/* [stack id - 1] */
	size_t			cap_folded;
	struct kma_strpool	*pool;
	char			*buf;		/* a folded name being built */
	size_t			cap_buf;
	const char		*none;
	const char		**page_caller;	/* [stack id - 1], NULL: not named yet */
	size_t			cap_page_caller;
	const char		**vmap_caller;	/* the same for vmap areas */
	size_t			cap_vmap_caller;
};

struct kma_stacks *kma_stacks_alloc(struct kma_sites *sites)
{
	struct kma_stacks *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->sites = sites;
	st->pool = kma_strpool_alloc();
	if (!st->pool || kma_seqset_init(&st->raw) || kma_seqset_init(&st->trimmed)) {
		kma_stacks_free(st);
		return NULL;
	}
	st->none = kma_strpool_intern(st->pool, KMA_NO_STACK, strlen(KMA_NO_STACK));
	if (!st->none) {
		kma_stacks_free(st);
		return NULL;
	}
	return st;
}

void kma_stacks_free(struct kma_stacks *st)
{
	if (!st)
		return;
	kma_seqset_release(&st->raw);
	kma_seqset_release(&st->trimmed);
	free(st->raw_to);
	free(st->folded);
	free(st->page_caller);
	free(st->vmap_caller);
	free(st->buf);
	kma_strpool_free(st->pool);
	free(st);
}

/* The function name of a frame: its symbol, or 0x<hex> when none covers it. */
static const char *frame_name(struct kma_stacks *st, uint64_t addr)
{
	const struct kma_site *site = kma_sites_get(st->sites, addr);

	if (!site)
		return NULL;
	return site->symbol ? site->symbol : site->name;
}

/* The functions ftrace and perf run to record an event: never the allocation's path. */
static int is_tracing(const char *fn)
{
	return !strncmp(fn, "trace_event_raw_event_", 22) ||
	       !strncmp(fn, "ftrace_raw_event_", 17) || !strncmp(fn, "perf_trace_", 11);
}

/* How many innermost frames are tracing frames: 0 when none is; -1 when out of memory. */
static int tracing_frames(struct kma_stacks *st, const uint64_t *a, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		const char *fn = frame_name(st, a[i]);

		if (!fn)
			return -1;
		if (is_tracing(fn))
			return (int)i + 1;
	}
	return 0;
}

static int put(struct kma_stacks *st, size_t *len, const char *s)
{
	size_t n = strlen(s);

	while (*len + n + 2 > st->cap_buf)
		if (kma_grow(&st->buf, &st->cap_buf, st->cap_buf, 1, 256))
			return -1;
	memcpy(st->buf + *len, s, n);
	*len += n;
	st->buf[*len] = '\0';
	return 0;
}

/* The folded name of a new stack: outermost frame first, ';' between. */
static const char *fold(struct kma_stacks *st, const uint64_t *a, uint32_t n)
{
	size_t len = 0;
	uint32_t i;

	for (i = n; i-- > 0;) {
		const char *fn = frame_name(st, a[i]);

		if (!fn || put(st, &len, fn) || (i && put(st, &len, ";")))
			return NULL;
	}
	return kma_strpool_intern(st->pool, st->buf, len);
}

/* The trimmed stack of a new raw stack: its id, 0 when nothing is left, -1 out of memory. */
static int64_t trim(struct kma_stacks *st, const uint64_t *a, uint32_t n)
{
	int skip = tracing_frames(st, a, n);
	uint32_t id;
	int added;

	if (skip < 0)
		return -1;
	if ((uint32_t)skip >= n)
		return 0;
	id = kma_seqset_intern(&st->trimmed, a + skip, n - (uint32_t)skip, &added);
	if (!id)
		return -1;
	if (added) {
		if (kma_grow(&st->folded, &st->cap_folded, id - 1, sizeof(*st->folded), 256))
			return -1;
		st->folded[id - 1] = fold(st, a + skip, n - (uint32_t)skip);
		if (!st->folded[id - 1])
			return -1;
	}
	return id;
}

int kma_stacks_intern(struct kma_stacks *st, const uint64_t *addrs, uint32_t n, uint32_t *id)
{
	uint32_t raw;
	int64_t t;
	int added;

	*id = 0;
	if (!n)
		return 0;
	raw = kma_seqset_intern(&st->raw, addrs, n, &added);
	if (!raw)
		return -1;
	if (added) {
		if (kma_grow(&st->raw_to, &st->cap_raw_to, raw - 1, sizeof(*st->raw_to), 256))
			return -1;
		t = trim(st, addrs, n);
		if (t < 0)
			return -1;
		st->raw_to[raw - 1] = (uint32_t)t;
	}
	*id = st->raw_to[raw - 1];
	return 0;
}

uint32_t kma_stacks_count(const struct kma_stacks *st)
{
	return st ? kma_seqset_count(&st->trimmed) : 0;
}

int kma_stacks_get(const struct kma_stacks *st, uint32_t id, struct kma_stack *out)
{
	out->addrs = st ? kma_seqset_get(&st->trimmed, id, &out->depth) : NULL;
	if (!out->addrs)
		return -1;
	out->hash = kma_seqset_hash(&st->trimmed, id);
	out->folded = st->folded[id - 1];
	return 0;
}

const char *kma_stacks_folded(void *ctx, uint32_t id)
{
	struct kma_stacks *st = ctx;

	if (!id || id > kma_seqset_count(&st->trimmed))
		return st->none;
	return st->folded[id - 1];
}

uint32_t kma_stacks_frames(const struct kma_stacks *st)
{
	return st ? (uint32_t)st->trimmed.nr_vals : 0;
}

/* Whether @fn, its leading underscores dropped, starts with one of @pfx[0..@n). */
static int starts_with_any(const char *fn, const char * const *pfx, size_t n)
{
	size_t i;

	while (*fn == '_')
		fn++;
	for (i = 0; i < n; i++)
		if (!strncmp(fn, pfx[i], strlen(pfx[i])))
			return 1;
	return 0;
}

/*
 * The page allocator's own functions, leading underscores aside: a page's
 * caller is the first frame outside them, as perf kmem --page skips its
 * allocator functions (alloc_pages*, get_free_pages*, ...); the folio and
 * mempolicy wrappers and the internals of mm/page_alloc.c are added here.
 */
static int is_page_allocator(const char *fn)
{
	static const char * const pfx[] = {
		"alloc_pages", "alloc_frozen_pages", "folio_alloc", "get_free_pages",
		"get_zeroed_page", "get_page_from_freelist", "rmqueue", "post_alloc_hook",
		"prep_new_page", "vma_alloc_folio", "alloc_hugetlb_folio",
	};

	return starts_with_any(fn, pfx, sizeof(pfx) / sizeof(pfx[0]));
}

/*
 * The vmalloc allocator's own functions, leading underscores aside (Linux
 * 6.18's mm/vmalloc.c, mm/execmem.c and the kvmalloc family of mm/slub.c):
 * alloc_vmap_area (the traced function), the vm area getters
 * (__get_vm_area_node, get_vm_area_caller, ...), the vmalloc entry points and
 * their _noprof bodies (__vmalloc_node_range_noprof, __vmalloc_node_noprof,
 * vmalloc_noprof, vzalloc, vmalloc_user, vmalloc_huge, ...), vmap and
 * vm_map_ram with its vmap blocks, kvmalloc/kvzalloc/kvcalloc/kvrealloc
 * (kmalloc falling back to vmalloc) and execmem_* (the executable memory of
 * modules, BPF and kprobes). A vmap area's caller is the first frame outside
 * them; a stack of them only names its outermost frame.
 */
static int is_vmalloc_allocator(const char *fn)
{
	static const char * const pfx[] = {
		"alloc_vmap_area", "get_vm_area", "vmalloc", "vzalloc", "vmap", "vm_map_ram",
		"new_vmap_block", "vb_alloc", "kvmalloc", "kvzalloc", "kvcalloc", "kvrealloc",
		"execmem_",
	};

	return starts_with_any(fn, pfx, sizeof(pfx) / sizeof(pfx[0]));
}

/*
 * The function of stack @id's first frame for which @inside is false (the
 * outermost when it holds for all), interned and kept in @cache; KMA_NO_STACK
 * for 0, NULL when out of memory.
 */
static const char *caller_outside(struct kma_stacks *st, uint32_t id, const char ***cache,
				  size_t *cap, int (*inside)(const char *fn))
{
	const uint64_t *a;
	const char *fn = NULL;
	uint32_t n, i;

	if (!id || id > kma_seqset_count(&st->trimmed))
		return st->none;
	if (kma_grow_zero(cache, cap, id, sizeof(**cache), 64))
		return NULL;
	if ((*cache)[id - 1])
		return (*cache)[id - 1];
	a = kma_seqset_get(&st->trimmed, id, &n);
	for (i = 0; a && i < n; i++) {
		fn = frame_name(st, a[i]);
		if (!fn || !inside(fn))
			break;
	}
	if (fn)
		fn = kma_strpool_intern(st->pool, fn, strlen(fn));
	(*cache)[id - 1] = fn;
	return fn;
}

const char *kma_stacks_page_caller(void *ctx, uint32_t id)
{
	struct kma_stacks *st = ctx;

	return caller_outside(st, id, &st->page_caller, &st->cap_page_caller, is_page_allocator);
}

const char *kma_stacks_vmap_caller(void *ctx, uint32_t id)
{
	struct kma_stacks *st = ctx;

	return caller_outside(st, id, &st->vmap_caller, &st->cap_vmap_caller,
			      is_vmalloc_allocator);
}

/*
 * The percpu allocator's own functions (mm/percpu.c): pcpu_alloc and its
 * helpers, __alloc_percpu*, alloc_percpu*, __alloc_reserved_percpu.
 */
static int is_percpu_allocator(const char *fn)
{
	static const char * const pfx[] = { "pcpu_", "alloc_percpu", "alloc_reserved_percpu" };

	return starts_with_any(fn, pfx, sizeof(pfx) / sizeof(pfx[0]));
}

/* The address of stack @id's first frame outside @inside (the outermost when none is), 0 for none. */
static uint64_t frame_outside(struct kma_stacks *st, uint32_t id, int (*inside)(const char *fn))
{
	const uint64_t *a;
	const char *fn;
	uint32_t n, i;

	if (!id || id > kma_seqset_count(&st->trimmed))
		return 0;
	a = kma_seqset_get(&st->trimmed, id, &n);
	if (!a || !n)
		return 0;
	for (i = 0; i < n - 1; i++) {
		fn = frame_name(st, a[i]);
		if (!fn || !inside(fn))
			break;
	}
	return a[i];
}

uint64_t kma_stacks_vmap_caller_addr(void *ctx, uint32_t id)
{
	return frame_outside(ctx, id, is_vmalloc_allocator);
}

uint64_t kma_stacks_percpu_caller_addr(void *ctx, uint32_t id)
{
	return frame_outside(ctx, id, is_percpu_allocator);
}
