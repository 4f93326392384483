// SPDX-License-Identifier: GPL-2.0
/*
 * kma-caller-sort.c - the order of callers in the reports.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-caller-sort.h"

static const char * const sort_names[] = {
	[KMA_SORT_TOTAL] = "total", [KMA_SORT_SLACK] = "slack", [KMA_SORT_NET] = "net",
	[KMA_SORT_ALLOCS] = "allocs", [KMA_SORT_FREES] = "frees", [KMA_SORT_CALLER] = "caller",
};

int kma_sort_parse(const char *s, enum kma_sort *out)
{
	size_t i;

	for (i = 0; i < sizeof(sort_names) / sizeof(sort_names[0]); i++) {
		if (!strcmp(s, sort_names[i])) {
			*out = (enum kma_sort)i;
			return 0;
		}
	}
	return -1;
}

const char *kma_sort_name(enum kma_sort sort)
{
	if ((size_t)sort >= sizeof(sort_names) / sizeof(sort_names[0]))
		return "total";
	return sort_names[sort];
}

uint64_t kma_caller_net(const struct kma_caller *c)
{
	return c->net;
}

static uint64_t total_of(const struct kma_caller *c)
{
	return c->total;
}

static uint64_t slack_of(const struct kma_caller *c)
{
	return c->slack;
}

static uint64_t allocs_of(const struct kma_caller *c)
{
	return c->allocs;
}

static uint64_t frees_of(const struct kma_caller *c)
{
	return c->frees;
}

/* Descending by the key; ties (and --sort caller) by name, then address: stable output. */
void kma_sort_order(enum kma_sort sort, struct kma_caller_order *o)
{
	o->by_address = 1;
	switch (sort) {
	case KMA_SORT_SLACK:	o->key = slack_of; break;
	case KMA_SORT_NET:	o->key = kma_caller_net; break;
	case KMA_SORT_ALLOCS:	o->key = allocs_of; break;
	case KMA_SORT_FREES:	o->key = frees_of; break;
	case KMA_SORT_CALLER:	o->key = NULL; break;
	default:		o->key = total_of; break;
	}
}

static int cmp_callers(const void *a, const void *b, void *arg)
{
	const struct kma_caller *x = *(const struct kma_caller * const *)a;
	const struct kma_caller *y = *(const struct kma_caller * const *)b;
	const struct kma_caller_order *o = arg;
	int r;

	if (o->key) {
		uint64_t kx = o->key(x), ky = o->key(y);

		if (kx != ky)
			return kx > ky ? -1 : 1;
	}
	r = strcmp(x->name, y->name);
	if (r || !o->by_address)
		return r;
	return x->address < y->address ? -1 : x->address > y->address;
}

void kma_callers_sort(const struct kma_caller **v, uint32_t n,
		      const struct kma_caller_order *order)
{
	qsort_r(v, n, sizeof(*v), cmp_callers, (void *)order);
}

const struct kma_caller **kma_callers_sorted(const struct kma_caller *c, uint32_t nr,
					     int (*keep)(const struct kma_caller *),
					     const struct kma_caller_order *order,
					     uint32_t *kept)
{
	const struct kma_caller **v = malloc((nr ? nr : 1) * sizeof(*v));
	uint32_t i, n = 0;

	if (!v)
		return NULL;
	for (i = 0; i < nr; i++)
		if (keep(&c[i]))
			v[n++] = &c[i];
	kma_callers_sort(v, n, order);
	*kept = n;
	return v;
}
