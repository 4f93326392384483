// SPDX-License-Identifier: GPL-2.0
/*
 * kma-list.c - the --list sink and its table.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "kma-grow.h"
#include "kma-list.h"

struct kma_list {
	struct kma_alloc_row	*rows;
	size_t			nr, cap;
	int			outstanding_only;
};

struct kma_list *kma_list_alloc(int outstanding_only)
{
	struct kma_list *l = calloc(1, sizeof(*l));

	if (l)
		l->outstanding_only = outstanding_only;
	return l;
}

void kma_list_free(struct kma_list *l)
{
	if (!l)
		return;
	free(l->rows);
	free(l);
}

int kma_list_add(void *list, const struct kma_alloc_row *row)
{
	struct kma_list *l = list;

	if (!row->selected || (l->outstanding_only && row->free_kind >= 0))
		return 0;
	if (kma_grow(&l->rows, &l->cap, l->nr, sizeof(*l->rows), 1024))
		return -1;
	l->rows[l->nr++] = *row;
	return 0;
}

/* By allocation time, then pointer. */
static int cmp_rows(const void *a, const void *b)
{
	const struct kma_alloc_row *x = a, *y = b;

	if (x->alloc_ts != y->alloc_ts)
		return x->alloc_ts < y->alloc_ts ? -1 : 1;
	return x->ptr < y->ptr ? -1 : x->ptr > y->ptr;
}

int kma_list_print(FILE *out, struct kma_list *l, uint64_t end_ts, uint64_t limit,
		   enum kma_fmt fmt)
{
	struct kma_table *t;
	size_t i, n;
	char ptr[24], head[64], kcache[32];
	int err = 0;

	if (l->nr)	/* an empty list has no rows array: qsort must not see NULL */
		qsort(l->rows, l->nr, sizeof(*l->rows), cmp_rows);
	n = limit && limit < l->nr ? limit : l->nr;
	if (fmt == KMA_FMT_TEXT)
		fprintf(out, "%zu allocations%s\n", l->nr,
			l->outstanding_only ? ", still live at the end of the trace" : "");
	t = kma_table_new(l->outstanding_only ?
		"time:t gen:n ptr:s bytes:n req:n cache:s pid:n comm:s age:t caller:s" :
		"time:t gen:n ptr:s bytes:n req:n cache:s pid:n comm:s lifetime:t caller:s");
	for (i = 0; t && !err && i < n; i++) {
		const struct kma_alloc_row *r = &l->rows[i];

		snprintf(ptr, sizeof(ptr), "0x%" PRIx64, r->ptr);
		err |= kma_table_ts(t, fmt, r->alloc_ts);
		err |= kma_table_u64(t, r->generation);
		err |= kma_table_str(t, ptr);
		err |= kma_table_u64(t, r->bytes_alloc);
		err |= kma_table_u64(t, r->bytes_req);
		if (!r->cache) {
			/* a kmalloc: the cache -g cache and --cache name, from its flags */
			kma_kmalloc_cache(kcache, sizeof(kcache), r->kmalloc_type, r->bytes_alloc);
			err |= kma_table_str(t, kcache);
		} else {
			err |= kma_table_str(t, r->cache);
		}
		err |= kma_table_u64(t, (uint64_t)(uint32_t)r->pid);
		err |= kma_table_str(t, r->comm);
		if (r->free_kind >= 0)
			err |= kma_table_dur(t, fmt, r->free_ts - r->alloc_ts);
		else if (l->outstanding_only)
			err |= kma_table_dur(t, fmt, end_ts - r->alloc_ts);
		else
			err |= kma_table_null(t);	/* still live */
		err |= kma_table_str(t, r->caller);
	}
	snprintf(head, sizeof(head), "\"allocations\": %zu", l->nr);
	return kma_table_finish(out, t, fmt, "list", head, err);
}
