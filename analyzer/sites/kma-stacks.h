/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-stacks.h - call stacks of allocations: the ftrace:kernel_stack
 * addresses the reader paired with a kmem event, interned, with the
 * tracing frames dropped and every frame named through kma_sites (once per
 * distinct address).
 *
 * A stack (id 1..kma_stacks_count()) is the exact sequence of return
 * addresses from the allocator out, innermost first, as the kernel
 * recorded it minus the innermost tracing frames (up to and including
 * trace_event_raw_event_*, ftrace_raw_event_* or perf_trace_*). Id 0 is
 * "no stack". Its folded name is Brendan Gregg's folded form: the frames'
 * function names, outermost first, joined by ';' (stacks that differ only
 * in offsets share one folded name, interned: one pointer).
 */
#ifndef KMA_STACKS_H
#define KMA_STACKS_H

#include <stdint.h>

struct kma_sites;
struct kma_stacks;

/* The folded name of "no stack". */
#define KMA_NO_STACK	"[no stack]"

struct kma_stack {
	const uint64_t	*addrs;		/* innermost first */
	uint32_t	depth;
	uint64_t	hash;		/* of addrs, kma_seq_hash() */
	const char	*folded;	/* interned */
};

/* NULL when out of memory. */
struct kma_stacks *kma_stacks_alloc(struct kma_sites *sites);
void kma_stacks_free(struct kma_stacks *st);
/*
 * The stack id of raw addresses @addrs[0..@n) as recorded (innermost
 * first, tracing frames included): 0 (no stack) when n is 0 or nothing is
 * left once the tracing frames are dropped. -1 when out of memory.
 */
int kma_stacks_intern(struct kma_stacks *st, const uint64_t *addrs, uint32_t n, uint32_t *id);
/* Distinct stacks: ids 1..count. */
uint32_t kma_stacks_count(const struct kma_stacks *st);
/* Stack @id (1..count) into @out; -1 for a bad id. */
int kma_stacks_get(const struct kma_stacks *st, uint32_t id, struct kma_stack *out);
/*
 * The folded name of stack @id (KMA_NO_STACK for 0), interned: a callback
 * for the matcher (kma_stack_name_fn, @st as its context).
 */
const char *kma_stacks_folded(void *st, uint32_t id);
/*
 * The caller of a page allocation with stack @id: the function of its first
 * frame outside the page allocator (the outermost when all are in it),
 * interned; KMA_NO_STACK for 0, NULL when out of memory. A callback for
 * match/kma-pagealloc (@st as its context).
 */
const char *kma_stacks_page_caller(void *st, uint32_t id);
/*
 * The caller of a vmap area (vmalloc:alloc_vmap_area, whose event names
 * none) with stack @id: the function of its first frame outside the vmalloc
 * allocator (alloc_vmap_area, get_vm_area*, vmalloc*, vzalloc*, vmap*,
 * vm_map_ram, kvmalloc*, execmem_*, ...: kma-stacks.c, is_vmalloc_allocator;
 * docs/supported-traces.md), the outermost when all are in it, interned;
 * KMA_NO_STACK for 0, NULL when out of memory. The same callback shape as
 * kma_stacks_page_caller.
 */
const char *kma_stacks_vmap_caller(void *st, uint32_t id);
/*
 * The same frame's address, for a matcher that names it as a call site
 * (kma_match_opts.stack_caller): vmalloc by the rule above; percpu (traces
 * whose event has no call_site) the first frame outside mm/percpu.c's
 * pcpu_*, alloc_percpu*, __alloc_percpu*, __alloc_reserved_percpu. 0: no stack.
 */
uint64_t kma_stacks_vmap_caller_addr(void *st, uint32_t id);
uint64_t kma_stacks_percpu_caller_addr(void *st, uint32_t id);
/* Frames named so far (distinct addresses; for the benchmark's notes). */
uint32_t kma_stacks_frames(const struct kma_stacks *st);

#endif /* KMA_STACKS_H */
