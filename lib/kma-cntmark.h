/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-cntmark.h - the kernel's own counters as kma-record writes them into a
 * trace (trace_marker writes, ftrace:print), parsed by the reader into these
 * plain structs and handed on as KMA_EV_COUNTER events (kma_event.counter).
 *
 *   kma-slabinfo: PHASE PART/PARTS NAME ACTIVE_OBJS OBJSIZE ...
 *   kma-meminfo: PHASE Slab=KB SReclaimable=KB ...
 *   kma-allocinfo: PHASE PART/PARTS BYTES CALLS TAG;BYTES CALLS TAG;...
 *
 * PHASE is "start" or "end"; a snapshot is complete when all PARTS parts of
 * its phase are in the trace (meminfo is one part). See kma-analyze(1),
 * --counters.
 */
#ifndef KMA_CNTMARK_H
#define KMA_CNTMARK_H

#include <stddef.h>
#include <stdint.h>

#define KMA_SLABINFO_PREFIX	"kma-slabinfo:"
#define KMA_MEMINFO_PREFIX	"kma-meminfo:"
#define KMA_ALLOCINFO_PREFIX	"kma-allocinfo:"

enum kma_cnt_kind {
	KMA_CNT_SLAB,		/* /proc/slabinfo: name, active_objs, objsize */
	KMA_CNT_MEM,		/* /proc/meminfo: field, kB */
	KMA_CNT_ALLOC,		/* /proc/allocinfo: bytes, calls, tag */
	KMA_CNT_KINDS,
};

enum kma_cnt_phase {
	KMA_CNT_START,
	KMA_CNT_END,
	KMA_CNT_PHASES,
};

/* One counter of a part. */
struct kma_cnt_entry {
	const char	*name;	/* slab: cache; mem: field ("Slab"); alloc: the whole tag */
	const char	*func;	/* alloc: NAME of the tag's "func:NAME", NULL: none */
	int64_t		a;	/* slab: active objects; mem: kB; alloc: bytes */
	int64_t		b;	/* slab: objsize; alloc: calls; mem: 0 */
};

/* One marker (one part of one snapshot). */
struct kma_cnt_part {
	int		kind;	/* enum kma_cnt_kind */
	int		phase;	/* enum kma_cnt_phase; -1 when bad says the phase is wrong */
	uint32_t	part;	/* 1 .. parts; meminfo: 1/1 */
	uint32_t	parts;
	const struct kma_cnt_entry *e;
	size_t		n;
	const char	*bad;	/* NULL, or why the marker is malformed (then n is 0) */
};

/* "slabinfo", "meminfo", "allocinfo"; "start", "end". */
const char *kma_cnt_kind_name(int kind);
const char *kma_cnt_phase_name(int phase);

#endif /* KMA_CNTMARK_H */
