/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-crosscpu.h - cross-CPU frees and cross-node allocations per caller
 * (--cross-cpu; perf kmem stat's "Cross CPU allocations").
 *
 * Pure C, no I/O. The counts come from a matcher's finished allocations (its
 * sink), so the grouping and the report filters are the matcher's. The node
 * rule needs the CPU -> node map, which the trace does not hold: kma-record
 * writes it as a marker, --cpu-nodes gives it; the node checks are done at
 * the end, so the map may come from anywhere in the trace.
 */
#ifndef KMA_CROSSCPU_H
#define KMA_CROSSCPU_H

#include <stddef.h>
#include <stdint.h>
#include "kma-match.h"

/* One grouping row; caller_id is the matcher's (kma_match_callers() index). */
struct kma_cross_row {
	uint32_t	caller_id;
	uint64_t	allocs;		/* selected allocations (freed or live) */
	uint64_t	frees;		/* of those, ended by a traced kfree/kmem_cache_free */
	uint64_t	cross_frees;	/* of those, freed on another CPU than allocated */
	uint64_t	node_allocs;	/* allocations asking for a node (node != NUMA_NO_NODE) */
	uint64_t	cross_node;	/* of those, made on a CPU of another node (map known) */
	uint64_t	unmapped;	/* of those, made on a CPU the map does not name */
};

struct kma_cross;

struct kma_cross *kma_cross_alloc(void);
void kma_cross_free(struct kma_cross *x);
/* A struct kma_sink alloc_done: 0, or -1 when out of memory. */
int kma_cross_add(void *ctx, const struct kma_alloc_row *row);
/*
 * Counts cross_node (and unmapped) with node_of[cpu] (-1: not in the map) for
 * nr CPUs; node_of NULL: no map, both stay 0. Call once, after the matcher's
 * kma_match_finish().
 */
void kma_cross_finish(struct kma_cross *x, const int *node_of, int nr);
/* Rows with at least one allocation, in no order; *n set. */
const struct kma_cross_row *kma_cross_rows(const struct kma_cross *x, size_t *n);

/*
 * A CPU -> node map: "0-3=0,4-7=1" (--cpu-nodes) or, marker set, kma-record's
 * "cpu 0-3 node 0; cpu 4-7 node 1". *node_of (malloc'd, caller frees) gets
 * *nr entries, -1 for CPUs not named. 0, or -1 on bad text (*node_of NULL) or
 * out of memory. CPUs and nodes are below KMA_CROSS_MAX.
 */
#define KMA_CROSS_MAX	4096
int kma_cpu_nodes_parse(const char *s, int marker, int **node_of, int *nr);
/*
 * The map of opt (--cpu-nodes) when not NULL, else of the trace's marker text
 * topo (NULL: none): where it came from, "--cpu-nodes" or "the trace", or NULL
 * with *node_of NULL (no map, a marker not understood, or out of memory).
 */
const char *kma_cross_map(const char *opt, const char *topo, int **node_of, int *nr);

#endif /* KMA_CROSSCPU_H */
