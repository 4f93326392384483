/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-event.h - the normalized event that flows from the reader to the matcher.
 *
 * The reader is the only layer that knows libtracecmd; everything after it sees
 * these plain structs, which is what lets the matcher be unit-tested on
 * hand-built event sequences.
 */
#ifndef KMA_EVENT_H
#define KMA_EVENT_H

#include <stdint.h>

struct kma_cnt_part;

enum kma_ev_type {
	KMA_EV_KMALLOC,			/* kmem:kmalloc */
	KMA_EV_KMALLOC_NODE,		/* kmem:kmalloc_node (kernels < 6.1) */
	KMA_EV_CACHE_ALLOC,		/* kmem:kmem_cache_alloc */
	KMA_EV_CACHE_ALLOC_NODE,	/* kmem:kmem_cache_alloc_node (kernels < 6.1) */
	KMA_EV_KFREE,			/* kmem:kfree */
	KMA_EV_CACHE_FREE,		/* kmem:kmem_cache_free */
	KMA_EV_NR,			/* the kmem events above */
	KMA_FREE_IMPLICIT = KMA_EV_NR,	/* free kind: a new alloc at a still-live pointer */
	KMA_EV_MARKER,			/* ftrace:print "kma: LABEL" starts a generation */
	KMA_EV_MODULE_LOAD,		/* module:module_load, label = module name */
	KMA_EV_MODULE_FREE,		/* module:module_free, label = module name */
	/*
	 * The page allocator (kma-analyze --pages; see kma-analyze(1), PAGES):
	 * ptr is the pfn (UINT64_MAX: a failed allocation), or the struct page
	 * pointer on kernels whose events carry no pfn (page_by_ptr = 1).
	 * The slab matcher never sees these.
	 */
	KMA_EV_PAGE_ALLOC,		/* kmem:mm_page_alloc: order, gfp_flags, migratetype */
	KMA_EV_PAGE_FREE,		/* kmem:mm_page_free: order */
	KMA_EV_PAGE_FREE_BATCHED,	/* kmem:mm_page_free_batched: no free of its own */
	KMA_EV_PAGE_ZONE_LOCKED,	/* kmem:mm_page_alloc_zone_locked: buddy -> pcp list */
	KMA_EV_PAGE_PCPU_DRAIN,		/* kmem:mm_page_pcpu_drain: pcp list -> buddy */
	/*
	 * A kernel counter marker (kma-slabinfo:, kma-meminfo:, kma-allocinfo:),
	 * parsed: kma_event.counter (lib/kma-cntmark.h). Only --counters reads it.
	 */
	KMA_EV_COUNTER,
	/*
	 * The percpu allocator: ptr is the percpu pointer (ptr field), bytes_req
	 * the size asked (size), bytes_alloc the bytes_alloc field (5.19 on; the
	 * size where the event has none), call_site the call_site field (5.19 on;
	 * 0 where absent), gfp_flags as traced.
	 */
	KMA_EV_PERCPU_ALLOC,		/* percpu:percpu_alloc_percpu */
	KMA_EV_PERCPU_FREE,		/* percpu:percpu_free_percpu: ptr */
	/*
	 * The vmalloc allocator's address space: ptr is the vmap area's start
	 * (addr / va_start), bytes_req = bytes_alloc the area's size; no caller
	 * in the event (call_site 0: the stack names it). A failed allocation
	 * (failed != 0) has ptr 0.
	 */
	KMA_EV_VMAP_ALLOC,		/* vmalloc:alloc_vmap_area */
	KMA_EV_VMAP_FREE,		/* vmalloc:free_vmap_area_noflush: lazily purged, freed here */
};

/*
 * The allocator an event belongs to: every allocator goes through one
 * pipeline, told apart by its kind.
 */
enum kma_kind {
	KMA_KIND_SLAB,
	KMA_KIND_PAGE,
	KMA_KIND_PERCPU,
	KMA_KIND_VMALLOC,
	KMA_KIND_NR,
};

#define KMA_PAGE_FAILED		UINT64_MAX	/* ptr of a failed page allocation */

static inline int kma_ev_is_page(int type)
{
	return type >= KMA_EV_PAGE_ALLOC && type <= KMA_EV_PAGE_PCPU_DRAIN;
}

static inline int kma_ev_is_percpu(int type)
{
	return type == KMA_EV_PERCPU_ALLOC || type == KMA_EV_PERCPU_FREE;
}

static inline int kma_ev_is_vmap(int type)
{
	return type == KMA_EV_VMAP_ALLOC || type == KMA_EV_VMAP_FREE;
}

/* "mm_page_alloc", ... for the page event types, NULL for any other. */
const char *kma_page_ev_name(int type);

static inline int kma_ev_is_alloc(int type)
{
	return type >= KMA_EV_KMALLOC && type <= KMA_EV_CACHE_ALLOC_NODE;
}

static inline int kma_ev_is_kmalloc(int type)
{
	return type == KMA_EV_KMALLOC || type == KMA_EV_KMALLOC_NODE || type == KMA_EV_KFREE;
}

/* The tracepoint name of a kmem event type ("kmalloc", ...; "implicit" for
 * KMA_FREE_IMPLICIT), NULL for any other type. Its system is KMA_EV_SYSTEM. */
const char *kma_ev_name(int type);
#define KMA_EV_SYSTEM		"kmem"

/* Pointers up to ZERO_SIZE_PTR ((void *)16) are kfree(NULL)-style no-ops. */
#define KMA_NULL_PTR_MAX	0x10

/*
 * The byte counts kma accepts (see kma-analyze(1), LIMITS). One allocation
 * cannot be larger than the address space of the kernel that made it: with
 * 4-byte longs below 2^32; with 8-byte longs at most 2^56 bytes, the kernel
 * half of the largest virtual address space of a 64-bit Linux (57-bit
 * addresses: x86-64 5-level paging, RISC-V Sv57; arm64 has 52 bits). The
 * reader refuses a trace with a larger one, and one whose allocations add
 * up past KMA_SUM_MAX (each counted by the larger of bytes_alloc and
 * bytes_req, so that report.db's SUMs of either fit): every sum kma keeps (totals, net, slack, peaks,
 * timeline bins, generations, groupings) is at most the sum of all
 * allocations, so none can overflow, and each fits report.db's signed
 * 64-bit integers exactly.
 */
#define KMA_BYTES_MAX_32	0xffffffffULL
#define KMA_BYTES_MAX_64	(1ULL << 56)
#define KMA_SUM_MAX		0x7fffffffffffffffULL	/* INT64_MAX, 8 EiB */

static inline uint64_t kma_bytes_max(int long_size)
{
	return long_size == 4 ? KMA_BYTES_MAX_32 : KMA_BYTES_MAX_64;
}

/* Trace markers starting with this start a generation (kma-mark writes them). */
#define KMA_MARKER_PREFIX	"kma:"
/* kma-record's CPU -> node map: "kma-topology: cpu 0-3 node 0; cpu 4-7 node 1". */
#define KMA_TOPOLOGY_PREFIX	"kma-topology:"

/* What the rows of the accounting are: call sites by default. */
enum kma_group {
	KMA_GROUP_CALLER,	/* call_site */
	KMA_GROUP_FUNCTION,	/* the call site's function */
	KMA_GROUP_MODULE,	/* the call site's module ("vmlinux" for the kernel) */
	KMA_GROUP_FILE,		/* the call site's source file */
	KMA_GROUP_CACHE,	/* slab cache, kmalloc-N size class for kmalloc */
	KMA_GROUP_COMM,		/* task name */
	KMA_GROUP_PID,
	KMA_GROUP_STACK,	/* the allocation's call stack, by function names (folded) */
	KMA_GROUP_GFP,		/* gfp_flags as the kernel prints them */
	KMA_GROUP_ACCOUNTED,	/* charged to a memory cgroup or not (kma_event.accounted) */
};

/* "caller", "function", ... as -g takes them; 0, or -1 for an unknown name. */
int kma_group_parse(const char *s, enum kma_group *out);
/* The name of a grouping, as kma_group_parse() takes it. */
const char *kma_group_name(enum kma_group g);


/*
 * The kmalloc cache family an allocation lands in, as the kernel's
 * kmalloc_type() picks it from the gfp flags (see kma-analyze(1), -g cache):
 * kmalloc-N, kmalloc-cg-N, kmalloc-rcl-N, dma-kmalloc-N.
 */
enum kma_kmalloc_type {
	KMA_KMALLOC_NORMAL,
	KMA_KMALLOC_CGROUP,	/* __GFP_ACCOUNT (5.14 on) */
	KMA_KMALLOC_RECLAIM,	/* __GFP_RECLAIMABLE (4.20 on) */
	KMA_KMALLOC_DMA,	/* __GFP_DMA */
	KMA_KMALLOC_NR,
};

/* "kmalloc-", "kmalloc-cg-", "kmalloc-rcl-", "dma-kmalloc-": the name before the size. */
const char *kma_kmalloc_prefix(int type);

struct kma_event {
	uint64_t	ts;		/* trace timestamp, ns */
	uint64_t	call_site;
	uint64_t	ptr;
	uint64_t	bytes_req;	/* alloc only */
	uint64_t	bytes_alloc;	/* alloc only */
	uint64_t	gfp_flags;	/* alloc only */
	const char	*cache;		/* interned cache name or NULL (field absent) */
	const char	*comm;		/* stable task name or NULL */
	const char	*label;		/* marker label or module name (stable) */
	int		type;		/* enum kma_ev_type */
	int		cpu;
	int		pid;
	int		node;		/* -1: NUMA_NO_NODE or field absent */
	int		accounted;	/* 0/1, -1: field absent */
	/* alloc only: __GFP_ACCOUNT in gfp_flags 0/1, -1: the trace's flag table lacks it */
	int		gfp_account;
	/*
	 * alloc only: charged to a memory cgroup, as the event prints it
	 * (accounted=): its accounted field (kmem_cache_alloc, 6.0 on), or
	 * __GFP_ACCOUNT where the print fmt computes accounted= from gfp_flags
	 * (kmalloc, 6.0 on); -1: the event says nothing of it (before 6.0).
	 */
	int		charged;
	int		kmalloc_type;	/* enum kma_kmalloc_type; kmalloc events only */
	/*
	 * The ftrace:kernel_stack record that followed the event on its CPU:
	 * return addresses, innermost first, as recorded (tracing frames
	 * included); valid during the callback only. stack_depth 0: none.
	 */
	const uint64_t	*stack;
	uint32_t	stack_depth;
	/* The interned stack (kma_stacks, set by whoever interns it), 0: none. */
	uint32_t	stack_id;
	/* page events only */
	uint32_t	order;
	int		migratetype;	/* -1: field absent */
	int		page_by_ptr;	/* ptr is a struct page pointer, not a pfn */
	const char	*gfp_text;	/* gfp_flags as the kernel prints them (interned; page
					 * and slab allocations; NULL: out of memory) */
	/* KMA_EV_COUNTER only: the parsed marker, valid during the callback only */
	const struct kma_cnt_part *counter;
};

#endif /* KMA_EVENT_H */
