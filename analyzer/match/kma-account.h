/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-account.h - the kernel memory by allocator: one line per kind that
 * allocated in the trace (allocations, bytes, net, peak), from the
 * matcher of each kind (kma-match.h; the page kind's from kma-pagealloc.h).
 */
#ifndef KMA_ACCOUNT_H
#define KMA_ACCOUNT_H

#include <stdint.h>

#include "kma-kind.h"
#include "kma-match.h"
#include "kma-pagealloc.h"

struct kma_kind_sum {
	int		kind;		/* enum kma_kind */
	uint64_t	allocs;		/* successful allocations */
	uint64_t	bytes;		/* their bytes */
	uint64_t	net;		/* bytes live at the end */
	uint64_t	peak;		/* the kind's own highest net */
	uint64_t	peak_ts;	/* when first reached */
};

/* The sums of kind @kind from its matcher's totals. */
void kma_account_match(struct kma_kind_sum *s, int kind, const struct kma_totals *t);
/* The page kind's from the page matcher's totals, pages of @page_size bytes. */
void kma_account_pages(struct kma_kind_sum *s, const struct kma_page_totals *t,
		       uint64_t page_size);

/* How many of the @n sums have allocations: a summary is worth printing from 2. */
unsigned int kma_account_present(const struct kma_kind_sum *s, unsigned int n);

#endif /* KMA_ACCOUNT_H */
