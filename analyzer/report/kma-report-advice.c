// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-advice.c - --advice: kmalloc slack per caller and request size, and
 * what a dedicated kmem_cache would save, as text, CSV or JSON.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kma-report-advice.h"

/* SLUB aligns objects of a cache of its own to at least 8 bytes. */
#define KMA_CACHE_ALIGN(x)	(((x) + 7) & ~7ULL)

static uint64_t size_slack(const struct kma_size *s)
{
	return s->allocs * (s->bytes_alloc - s->bytes_req);
}

static int cmp_size_slack(const void *a, const void *b)
{
	const struct kma_size *x = *(const struct kma_size * const *)a;
	const struct kma_size *y = *(const struct kma_size * const *)b;
	uint64_t sx = size_slack(x), sy = size_slack(y);

	if (sx != sy)
		return sx > sy ? -1 : 1;
	if (x->caller_id != y->caller_id)
		return x->caller_id < y->caller_id ? -1 : 1;
	return x->bytes_req < y->bytes_req ? -1 : x->bytes_req > y->bytes_req;
}

/* The sizes a dedicated cache would hold in less, most slack first; NULL: out of memory. */
static const struct kma_size **sorted_sizes(struct kma_match *m, uint32_t *nr)
{
	const struct kma_size *sizes, **v;
	uint32_t i, n = 0;

	sizes = kma_match_sizes(m, nr);
	v = malloc((*nr ? *nr : 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < *nr; i++)
		if (sizes[i].bytes_alloc > KMA_CACHE_ALIGN(sizes[i].bytes_req))
			v[n++] = &sizes[i];
	qsort(v, n, sizeof(*v), cmp_size_slack);
	*nr = n;
	return v;
}

/* One advice row: s, its kmalloc class, and what a dedicated cache would save. */
static int advice_row(struct kma_table *t, const struct kma_size *s, const char *caller)
{
	uint64_t ded = KMA_CACHE_ALIGN(s->bytes_req), per = s->bytes_alloc - ded;
	char cls[32], pct[48], advice[256];
	int err = 0;

	kma_kmalloc_class(cls, sizeof(cls), s->bytes_alloc);
	/* one decimal, truncated, in integers */
	snprintf(pct, sizeof(pct), "%" PRIu64 ".%" PRIu64,
		 (s->bytes_alloc - s->bytes_req) * 1000 / s->bytes_alloc / 10,
		 (s->bytes_alloc - s->bytes_req) * 1000 / s->bytes_alloc % 10);
	snprintf(advice, sizeof(advice), "kmalloc(%" PRIu64 ") -> %s, %s%% slack; a "
		 "dedicated kmem_cache of %" PRIu64 " would save %" PRIu64 " bytes over "
		 "this trace", s->bytes_req, cls, pct, ded, s->allocs * per);
	err |= kma_table_u64(t, size_slack(s));
	err |= kma_table_u64(t, s->allocs);
	err |= kma_table_u64(t, s->live);
	err |= kma_table_u64(t, s->bytes_req);
	err |= kma_table_u64(t, s->bytes_alloc);
	err |= kma_table_str(t, cls);
	err |= kma_table_str(t, pct);
	err |= kma_table_u64(t, ded);
	err |= kma_table_u64(t, s->allocs * per);
	err |= kma_table_u64(t, s->live * per);
	err |= kma_table_str(t, caller);
	err |= kma_table_str(t, advice);
	return err;
}

int kma_report_advice(FILE *out, struct kma_match *m, uint64_t limit, enum kma_fmt fmt)
{
	const struct kma_size **v;
	const struct kma_caller *c;
	struct kma_table *t;
	uint32_t n, nc, i;
	int err = 0;

	c = kma_match_callers(m, &nc);
	v = sorted_sizes(m, &n);
	if (!v)
		return -1;
	if (fmt == KMA_FMT_TEXT)
		fprintf(out, "kmalloc slack by caller and request size. A dedicated kmem_cache "
			"holds objects of the request size\n(aligned to 8), so it would save "
			"(bytes_alloc - aligned size) per allocation.\n");
	t = kma_table_new("slack:n allocs:n live:n req:n alloc:n cache:s slack_pct:n dedicated:n "
			  "saved:n saved_live:n caller:s advice:s");
	for (i = 0; t && !err && i < n && (!limit || i < limit); i++)
		err |= advice_row(t, v[i], c[v[i]->caller_id].name);
	free(v);
	return kma_table_finish(out, t, fmt, "advice", NULL, err);
}
