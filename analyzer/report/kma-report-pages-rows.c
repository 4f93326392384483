// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-pages-rows.c - the rows of the page allocator report, as both
 * its tables (kma-report-pages.c) and its --leaks, --peak and --lifetimes
 * (kma-report-pages-time.c) print them: the default grouping, the -s order
 * and its name, the key cell. Apart so that kma-report-pages.c, which
 * dispatches to kma-report-pages-time.c, is not called back by it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-report-pages.h"

int kma_report_pages_group(const struct kma_page_report *r)
{
	if (r->group >= 0)
		return r->group;
	return kma_pagealloc_totals(r->m)->stacked ? KMA_PG_FUNCTION : KMA_PG_ORDER;
}

static uint64_t sort_key(const struct kma_caller *r, enum kma_sort sort)
{
	switch (sort) {
	case KMA_SORT_NET:	return r->net;
	case KMA_SORT_ALLOCS:	return r->allocs;
	case KMA_SORT_FREES:	return r->frees + r->implicit_frees;
	case KMA_SORT_CALLER:	return 0;
	default:		return r->total;
	}
}

/*
 * Descending by the -s key (-s total: then by pages live), then ascending by
 * name, then by key (an order, a pid): the same order on every run.
 */
static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct kma_caller *x = *(const struct kma_caller * const *)a;
	const struct kma_caller *y = *(const struct kma_caller * const *)b;
	enum kma_sort sort = *(const enum kma_sort *)arg;
	uint64_t kx = sort_key(x, sort), ky = sort_key(y, sort);
	int c;

	if (kx != ky)
		return kx > ky ? -1 : 1;
	if (sort == KMA_SORT_TOTAL && x->net != y->net)
		return x->net > y->net ? -1 : 1;
	if (x->name && y->name && (c = strcmp(x->name, y->name)))
		return c;
	return x->address < y->address ? -1 : x->address > y->address;
}

void kma_report_pages_sort(const struct kma_caller **v, uint32_t n, enum kma_sort sort)
{
	qsort_r(v, n, sizeof(*v), cmp_rows, &sort);
}

const char *kma_report_pages_sort_name(enum kma_sort sort)
{
	switch (sort) {
	case KMA_SORT_NET:	return "live pages";
	case KMA_SORT_ALLOCS:	return "allocations";
	case KMA_SORT_FREES:	return "frees";
	case KMA_SORT_CALLER:	return "name";
	default:		return "pages allocated";
	}
}

/* The key cell of a row of grouping @g (NULL @t: the text only). */
int kma_report_pages_key(struct kma_table *t, int g, const struct kma_caller *row,
			 char *buf, size_t len)
{
	const char *s = row->name;

	if (g == KMA_PG_MIGRATE) {
		int mt = (int)(int64_t)row->address;

		s = kma_migrate_name(mt);
		if (!s && mt < 0)
			s = "-";
	}
	if (g == KMA_PG_PID)
		snprintf(buf, len, "%d", (int)(int64_t)row->address);
	else if (!s)
		snprintf(buf, len, "%" PRIu64, row->address);
	else
		snprintf(buf, len, "%s", s);
	return t ? kma_table_str(t, s && g != KMA_PG_PID ? s : buf) : 0;
}
