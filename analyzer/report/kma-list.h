/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-list.h - the --list sink: collects the allocation rows the matcher
 * hands on, then prints them in time order as text, CSV or JSON.
 */
#ifndef KMA_LIST_H
#define KMA_LIST_H

#include <stdio.h>
#include "match/kma-match.h"
#include "kma-table.h"

struct kma_list;

/*
 * outstanding_only: only allocations still live at the end (--outstanding).
 * limit: keep only the first limit rows in the list's order (-n), 0: all of them.
 */
struct kma_list *kma_list_alloc(int outstanding_only, uint64_t limit);
void kma_list_free(struct kma_list *l);
/* A matcher sink (kma_match_opts.sink.alloc_done); list is the kma_list. */
int kma_list_add(void *list, const struct kma_alloc_row *row);
/* end_ts: the trace's last timestamp, for the age of live allocations; limit 0: all rows. */
int kma_list_print(FILE *out, struct kma_list *l, uint64_t end_ts, uint64_t limit,
		   enum kma_fmt fmt);

#endif /* KMA_LIST_H */
