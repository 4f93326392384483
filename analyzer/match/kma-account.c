// SPDX-License-Identifier: GPL-2.0
/*
 * kma-account.c - each kind's line of the kernel memory by allocator
 * (kma-account.h).
 */
#include "kma-account.h"

void kma_account_match(struct kma_kind_sum *s, int kind, const struct kma_totals *t)
{
	s->kind = kind;
	s->allocs = t->allocs;
	s->bytes = t->total;
	s->net = t->net;
	s->peak = t->peak_net;
	s->peak_ts = t->peak_ts;
}

/*
 * Pages times the page size: every page sum is at most the trace's page
 * allocations, which the reader holds to KMA_SUM_MAX bytes.
 */
void kma_account_pages(struct kma_kind_sum *s, const struct kma_page_totals *t,
		       uint64_t page_size)
{
	s->kind = KMA_KIND_PAGE;
	s->allocs = t->allocs;
	s->bytes = t->pages_alloc * page_size;
	s->net = t->pages_live * page_size;
	s->peak = t->peak_pages * page_size;
	s->peak_ts = t->peak_ts;
}

unsigned int kma_account_present(const struct kma_kind_sum *s, unsigned int n)
{
	unsigned int i, k = 0;

	for (i = 0; i < n; i++)
		k += s[i].allocs != 0;
	return k;
}
