// SPDX-License-Identifier: GPL-2.0
/*
 * kma-list.c - the --list sink and its table.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "kma-grow.h"
#include "kma-list.h"

/* A row and its arrival number: rows of equal time and pointer keep the order they came in. */
struct list_row {
	struct kma_alloc_row	row;
	uint64_t		seq;
};

/*
 * With a limit the list keeps only the first `limit` rows in its order, as a
 * max-heap on that order (its root the row to drop next), so that memory
 * follows -n and not the number of allocations; total counts every row.
 */
struct kma_list {
	struct list_row		*rows;
	size_t			nr, cap;
	uint64_t		total;
	uint64_t		limit;		/* 0: every row */
	int			outstanding_only;
};

struct kma_list *kma_list_alloc(int outstanding_only, uint64_t limit)
{
	struct kma_list *l = calloc(1, sizeof(*l));

	if (l) {
		l->outstanding_only = outstanding_only;
		l->limit = limit;
	}
	return l;
}

void kma_list_free(struct kma_list *l)
{
	if (!l)
		return;
	free(l->rows);
	free(l);
}

/* By allocation time, then pointer, then arrival. */
static int cmp_rows(const void *a, const void *b)
{
	const struct list_row *x = a, *y = b;

	if (x->row.alloc_ts != y->row.alloc_ts)
		return x->row.alloc_ts < y->row.alloc_ts ? -1 : 1;
	if (x->row.ptr != y->row.ptr)
		return x->row.ptr < y->row.ptr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Restore the max-heap below slot i. */
static void sift_down(struct list_row *h, size_t n, size_t i)
{
	for (;;) {
		size_t c = 2 * i + 1;
		struct list_row t;

		if (c >= n)
			return;
		if (c + 1 < n && cmp_rows(&h[c + 1], &h[c]) > 0)
			c++;
		if (cmp_rows(&h[c], &h[i]) <= 0)
			return;
		t = h[c];
		h[c] = h[i];
		h[i] = t;
		i = c;
	}
}

static void sift_up(struct list_row *h, size_t i)
{
	while (i) {
		size_t p = (i - 1) / 2;
		struct list_row t;

		if (cmp_rows(&h[i], &h[p]) <= 0)
			return;
		t = h[p];
		h[p] = h[i];
		h[i] = t;
		i = p;
	}
}

int kma_list_add(void *list, const struct kma_alloc_row *row)
{
	struct kma_list *l = list;
	struct list_row r = { .row = *row };

	if (!row->selected || (l->outstanding_only && row->free_kind >= 0))
		return 0;
	r.seq = l->total++;
	if (l->limit && l->nr == l->limit) {
		/* full: the new row replaces the last of the kept ones if it comes before it */
		if (cmp_rows(&r, &l->rows[0]) < 0) {
			l->rows[0] = r;
			sift_down(l->rows, l->nr, 0);
		}
		return 0;
	}
	if (kma_grow(&l->rows, &l->cap, l->nr, sizeof(*l->rows),
		     l->limit && l->limit < 1024 ? l->limit : 1024))
		return -1;
	l->rows[l->nr++] = r;
	if (l->limit)
		sift_up(l->rows, l->nr - 1);
	return 0;
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
		fprintf(out, "%" PRIu64 " allocations%s\n", l->total,
			l->outstanding_only ? ", still live at the end of the trace" : "");
	t = kma_table_new(l->outstanding_only ?
		"time:t gen:n ptr:s bytes:n req:n cache:s pid:n comm:s age:t caller:s" :
		"time:t gen:n ptr:s bytes:n req:n cache:s pid:n comm:s lifetime:t caller:s");
	for (i = 0; t && !err && i < n; i++) {
		const struct kma_alloc_row *r = &l->rows[i].row;

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
	snprintf(head, sizeof(head), "\"allocations\": %" PRIu64, l->total);
	return kma_table_finish(out, t, fmt, "list", head, err);
}
