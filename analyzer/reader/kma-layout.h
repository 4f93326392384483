/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-layout.h - where each buffer's per-CPU event data lies in a trace.dat,
 * as the structure checks (kma-check-v6.c for v6, kma-check-v7.c for v7)
 * find it on their walk. The page reader (kma-cpubuf.c) reads from it.
 */
#ifndef KMA_LAYOUT_H
#define KMA_LAYOUT_H

#include <stdint.h>

#define KMA_LAYOUT_NAME	64	/* instance names are cut to this */

struct kma_td_cpu {
	uint32_t	cpu;		/* the CPU's id */
	uint64_t	off;		/* v6 and plain v7: the first page; compressed: the chunk count */
	uint64_t	size;		/* bytes of pages (compressed: of chunks, after the count) */
};

struct kma_td_buf {
	char		name[KMA_LAYOUT_NAME];	/* "": the top-level buffer */
	uint32_t	page_size;
	int		compressed;	/* v7: the data section is compressed */
	uint32_t	nr_cpus;
	struct kma_td_cpu *cpus;	/* in the file's order (libtracecmd's merge order) */
};

struct kma_td_layout {
	int		nr_bufs;
	struct kma_td_buf *bufs;
	/*
	 * The file has an option that makes libtracecmd shift or scale the
	 * timestamps it reads (date, offset, time shift, tsc2nsec): the page
	 * reader does not repeat that arithmetic, so such files go through
	 * libtracecmd.
	 */
	int		ts_options;
	int		oom;
	/* in: pages are left to the page reader when it alone reads them */
	int		defer_pages;
	/* out: every page's commit word was checked */
	int		pages_checked;
};

/* Option ids (trace-cmd's TRACECMD_OPTION_*) that change timestamps. */
static inline int kma_layout_ts_option(unsigned int id)
{
	return id == 1 || id == 7 || id == 12 || id == 14;
}

/* A new buffer named @name (NULL or "" for the top level); NULL when out of memory. */
struct kma_td_buf *kma_layout_add_buf(struct kma_td_layout *l, const char *name,
				      uint32_t page_size, int compressed);
int kma_layout_add_cpu(struct kma_td_layout *l, struct kma_td_buf *b, uint32_t cpu,
		       uint64_t off, uint64_t size);
/* The buffer named @name ("" or NULL: the top level), NULL if none. */
const struct kma_td_buf *kma_layout_find(const struct kma_td_layout *l, const char *name);
/*
 * Whether two CPUs' data in @b overlap (their ids into *cpu_a < *cpu_b): 1,
 * 0 when none do, -1 out of memory. The kernel gives each CPU a ring buffer
 * of its own, so overlapping data is a corrupt file: read twice, it would be
 * counted twice.
 */
int kma_layout_overlap(const struct kma_td_buf *b, uint32_t *cpu_a, uint32_t *cpu_b);
void kma_layout_clear(struct kma_td_layout *l);

#endif /* KMA_LAYOUT_H */
