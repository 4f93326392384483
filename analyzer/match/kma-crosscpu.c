// SPDX-License-Identifier: GPL-2.0
/*
 * kma-crosscpu.c - cross-CPU frees and cross-node allocations per caller.
 *
 * perf kmem stat's rule for a cross allocation: an allocation asking for a
 * node (NUMA_NO_NODE, -1, is no request) made on a CPU that belongs to
 * another node. The node each allocation asked for is kept per (caller, CPU,
 * node) so that the map can be applied once at the end.
 */
#include <stdlib.h>
#include <string.h>
#include "kma-grow.h"
#include "kma-map.h"
#include "kma-crosscpu.h"

struct node_count {
	uint32_t	caller_id;
	int		cpu;
	int		node;
	uint64_t	count;
};

struct kma_cross {
	struct kma_cross_row	*rows;		/* by caller_id; allocs 0: unused */
	size_t			nr_rows, cap_rows;
	struct kma_cross_row	*out;		/* the used rows, for kma_cross_rows() */
	struct node_count	*nc;
	size_t			nr_nc, cap_nc;
	struct kma_map		nc_of;		/* (caller, cpu, node) -> index in nc */
};

struct kma_cross *kma_cross_alloc(void)
{
	struct kma_cross *x = calloc(1, sizeof(*x));

	if (x && kma_map_init(&x->nc_of, 64)) {
		free(x);
		return NULL;
	}
	return x;
}

void kma_cross_free(struct kma_cross *x)
{
	if (!x)
		return;
	kma_map_release(&x->nc_of);
	free(x->rows);
	free(x->out);
	free(x->nc);
	free(x);
}

static struct kma_cross_row *row_of(struct kma_cross *x, uint32_t id)
{
	while (x->nr_rows <= id) {
		if (kma_grow(&x->rows, &x->cap_rows, x->nr_rows, sizeof(*x->rows), 64))
			return NULL;
		memset(&x->rows[x->nr_rows], 0, sizeof(*x->rows));
		x->rows[x->nr_rows].caller_id = (uint32_t)x->nr_rows;
		x->nr_rows++;
	}
	return &x->rows[id];
}

static int count_node(struct kma_cross *x, const struct kma_alloc_row *a)
{
	/* CPU and node fit 16 bits each: the reader's ints, the kernel's limits */
	uint64_t key = (uint64_t)a->caller_id << 32 | (uint64_t)(a->alloc_cpu & 0xffff) << 16 |
		       (uint64_t)(a->node & 0xffff);
	uint32_t *i = kma_map_find(&x->nc_of, key);

	if (i) {
		x->nc[*i].count++;
		return 0;
	}
	if (kma_grow(&x->nc, &x->cap_nc, x->nr_nc, sizeof(*x->nc), 64))
		return -1;
	x->nc[x->nr_nc] = (struct node_count){ a->caller_id, a->alloc_cpu, a->node, 1 };
	if (kma_map_put(&x->nc_of, key, (uint32_t)x->nr_nc))
		return -1;
	x->nr_nc++;
	return 0;
}

int kma_cross_add(void *ctx, const struct kma_alloc_row *a)
{
	struct kma_cross *x = ctx;
	struct kma_cross_row *r;

	if (!a->selected)
		return 0;
	r = row_of(x, a->caller_id);
	if (!r)
		return -1;
	r->allocs++;
	if (a->free_kind == KMA_EV_KFREE || a->free_kind == KMA_EV_CACHE_FREE) {
		r->frees++;
		if (a->free_cpu != a->alloc_cpu)
			r->cross_frees++;
	}
	if (a->node >= 0) {
		r->node_allocs++;
		if (count_node(x, a))
			return -1;
	}
	return 0;
}

void kma_cross_finish(struct kma_cross *x, const int *node_of, int nr)
{
	size_t i;

	if (!node_of)
		return;
	for (i = 0; i < x->nr_nc; i++) {
		const struct node_count *c = &x->nc[i];
		struct kma_cross_row *r = &x->rows[c->caller_id];

		if (c->cpu < 0 || c->cpu >= nr || node_of[c->cpu] < 0)
			r->unmapped += c->count;
		else if (node_of[c->cpu] != c->node)
			r->cross_node += c->count;
	}
}

const struct kma_cross_row *kma_cross_rows(const struct kma_cross *x, size_t *n)
{
	struct kma_cross *w = (struct kma_cross *)x;	/* the out array is a cache */
	size_t i;

	*n = 0;
	free(w->out);
	w->out = malloc((x->nr_rows ? x->nr_rows : 1) * sizeof(*w->out));
	if (!w->out)
		return NULL;
	for (i = 0; i < x->nr_rows; i++)
		if (x->rows[i].allocs)
			w->out[(*n)++] = x->rows[i];
	return w->out;
}

/* A number below KMA_CROSS_MAX at *s; *s moved past it. -1: none. */
static int num(const char **s)
{
	long v = 0;
	const char *p = *s;

	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (*p++ - '0');
		if (v >= KMA_CROSS_MAX)
			return -1;
	}
	*s = p;
	return (int)v;
}

static const char *skip_sp(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return s;
}

/* CPUs lo..hi to node; the map grows to cover hi. */
static int set_range(int **map, int *nr, int lo, int hi, int node)
{
	int i;

	if (hi < lo)
		return -1;
	if (hi >= *nr) {
		int *m = realloc(*map, (size_t)(hi + 1) * sizeof(int));

		if (!m)
			return -1;
		for (i = *nr; i <= hi; i++)
			m[i] = -1;
		*map = m;
		*nr = hi + 1;
	}
	for (i = lo; i <= hi; i++)
		(*map)[i] = node;
	return 0;
}

/* "a" or "a-b" at *s into lo, hi. */
static int range(const char **s, int *lo, int *hi)
{
	*lo = num(s);
	*hi = *lo;
	if (**s == '-') {
		(*s)++;
		*hi = num(s);
	}
	return *lo < 0 || *hi < *lo ? -1 : 0;
}

/* One "cpu LIST node N" of the marker at *s. */
static int marker_item(const char **s, int **map, int *nr)
{
	int lo[64], hi[64], n = 0, node, i;
	const char *p = skip_sp(*s);

	if (strncmp(p, "cpu ", 4))
		return -1;
	p = skip_sp(p + 4);
	do {
		if (n == 64 || range(&p, &lo[n], &hi[n]))
			return -1;
		n++;
	} while (*p == ',' && p++);
	p = skip_sp(p);
	if (strncmp(p, "node ", 5))
		return -1;
	p = skip_sp(p + 5);
	node = num(&p);
	if (node < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (set_range(map, nr, lo[i], hi[i], node))
			return -1;
	*s = skip_sp(p);
	return 0;
}

/* One "LO-HI=N" of --cpu-nodes at *s. */
static int option_item(const char **s, int **map, int *nr)
{
	int lo, hi, node;
	const char *p = *s;

	if (range(&p, &lo, &hi) || *p++ != '=')
		return -1;
	node = num(&p);
	if (node < 0 || set_range(map, nr, lo, hi, node))
		return -1;
	*s = p;
	return 0;
}

const char *kma_cross_map(const char *opt, const char *topo, int **node_of, int *nr)
{
	*node_of = NULL;
	*nr = 0;
	if (opt)
		return kma_cpu_nodes_parse(opt, 0, node_of, nr) ? NULL : "--cpu-nodes";
	if (topo && !kma_cpu_nodes_parse(topo, 1, node_of, nr))
		return "the trace";
	return NULL;
}

int kma_cpu_nodes_parse(const char *s, int marker, int **node_of, int *nr)
{
	char sep = marker ? ';' : ',';

	*node_of = NULL;
	*nr = 0;
	s = skip_sp(s);
	for (;;) {
		if (marker ? marker_item(&s, node_of, nr) : option_item(&s, node_of, nr))
			break;
		if (!*s)
			return 0;
		if (*s++ != sep)
			break;
		if (marker && !*skip_sp(s))	/* a trailing "; " */
			return 0;
	}
	free(*node_of);
	*node_of = NULL;
	*nr = 0;
	return -1;
}
