// SPDX-License-Identifier: GPL-2.0
/*
 * kma-layout.c - the per-CPU event data locations found by the structure
 * checks, kept for the page reader.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-layout.h"

struct kma_td_buf *kma_layout_add_buf(struct kma_td_layout *l, const char *name,
				      uint32_t page_size, int compressed)
{
	struct kma_td_buf *b, *bufs = l->bufs;

	/* a new array each time: buffers are few, and the cpus arrays move with it */
	bufs = realloc(bufs, (l->nr_bufs + 1) * sizeof(*bufs));
	if (!bufs) {
		l->oom = 1;
		return NULL;
	}
	l->bufs = bufs;
	b = &bufs[l->nr_bufs++];
	memset(b, 0, sizeof(*b));
	if (name) {
		strncpy(b->name, name, sizeof(b->name) - 1);
	}
	b->page_size = page_size;
	b->compressed = compressed;
	return b;
}

int kma_layout_add_cpu(struct kma_td_layout *l, struct kma_td_buf *b, uint32_t cpu,
		       uint64_t off, uint64_t size)
{
	struct kma_td_cpu *c = realloc(b->cpus, (b->nr_cpus + 1) * sizeof(*c));

	if (!c) {
		l->oom = 1;
		return -1;
	}
	b->cpus = c;
	c[b->nr_cpus].cpu = cpu;
	c[b->nr_cpus].off = off;
	c[b->nr_cpus].size = size;
	b->nr_cpus++;
	return 0;
}

/* The bytes a CPU's data takes in the file: [*start, *end). */
static void cpu_span(const struct kma_td_buf *b, const struct kma_td_cpu *c, uint64_t *start,
		     uint64_t *end)
{
	*start = c->off;
	/* compressed data starts with a u32 chunk count that the size does not include */
	*end = c->size ? c->off + c->size + (b->compressed ? 4 : 0) : c->off;
}

static int by_offset(const void *a, const void *b)
{
	const struct kma_td_cpu *x = *(const struct kma_td_cpu * const *)a;
	const struct kma_td_cpu *y = *(const struct kma_td_cpu * const *)b;

	return x->off < y->off ? -1 : x->off > y->off;
}

int kma_layout_overlap(const struct kma_td_buf *b, uint32_t *cpu_a, uint32_t *cpu_b)
{
	const struct kma_td_cpu **v, *last = NULL;
	uint64_t start, end, last_end = 0;
	uint32_t i, n = 0;
	int ret = 0;

	v = malloc((b->nr_cpus ? b->nr_cpus : 1) * sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < b->nr_cpus; i++)
		if (b->cpus[i].size)
			v[n++] = &b->cpus[i];
	/* sorted by where they start, each must start after the farthest end before it */
	qsort(v, n, sizeof(*v), by_offset);
	for (i = 0; i < n && !ret; i++) {
		cpu_span(b, v[i], &start, &end);
		if (last && start < last_end) {
			*cpu_a = last->cpu < v[i]->cpu ? last->cpu : v[i]->cpu;
			*cpu_b = last->cpu < v[i]->cpu ? v[i]->cpu : last->cpu;
			ret = 1;
		}
		if (!last || end > last_end) {
			last = v[i];
			last_end = end;
		}
	}
	free(v);
	return ret;
}

const struct kma_td_buf *kma_layout_find(const struct kma_td_layout *l, const char *name)
{
	int i;

	if (!name)
		name = "";
	for (i = 0; i < l->nr_bufs; i++)
		if (!strncmp(l->bufs[i].name, name, KMA_LAYOUT_NAME - 1))
			return &l->bufs[i];
	return NULL;
}

void kma_layout_clear(struct kma_td_layout *l)
{
	int i;

	for (i = 0; i < l->nr_bufs; i++)
		free(l->bufs[i].cpus);
	free(l->bufs);
	memset(l, 0, sizeof(*l));
}
