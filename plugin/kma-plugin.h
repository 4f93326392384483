/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-plugin.h - what plugin_kma.c (the libtraceevent printer) and
 * kma-kshark.c (the KernelShark data-processing side of the same .so)
 * share. Internal to plugin_kma.so: every symbol is hidden.
 */
#ifndef KMA_PLUGIN_H
#define KMA_PLUGIN_H

#include <stdint.h>

#include <event-parse.h>

/* What a free prints of the allocation it closes: the payload in kma-pairs. */
struct live {
	uint64_t	call_site;
	uint64_t	bytes_alloc;
	uint64_t	ts;
	int		has_bytes;	/* bytes_alloc was readable */
};

/* What a page free prints of the allocation it closes. */
struct live_page {
	uint64_t	ts;
	int		pid;
	unsigned int	order;
	int		has_order;	/* order was readable */
};

/*
 * A page's key in its live set: kma-pairs reads keys <= KMA_NULL_PTR_MAX
 * as null frees, but pfn 0..16 are pages like any other, so a pfn goes in
 * with the top bit set, as kma-analyze's matcher (match/kma-pagealloc.c)
 * keys it; struct page pointers stay as they are.
 */
#define PAGE_KEY(v, by_ptr)	((by_ptr) ? (v) : (v) | (1ULL << 63))
#define PAGE_FAILED		UINT64_MAX

/* A numeric field of the record, bounds-checked; 0 on success. */
int kma_get_num(struct tep_event *event, struct tep_record *record,
		const char *name, unsigned long long *val);

/*
 * The page key of a page event (PAGE_FAILED for a failed allocation), its
 * value as recorded in *v and the field's name ("pfn", or "page" on the old
 * layout) in *name. -1 when the field is unreadable.
 */
int kma_page_key(struct tep_event *event, struct tep_record *record,
		 uint64_t *key, unsigned long long *v, const char **name);

/*
 * One kmem record of a trace KernelShark loaded, paired at load time in time
 * order: what its row prints does not depend on the order rows are printed.
 */
struct kma_ks_row {
	uint64_t		offset;		/* the record's file offset: its key */
	uint64_t		ts;
	uint64_t		key;		/* ptr, or PAGE_KEY */
	int			cpu;
	unsigned char		page;		/* mm_page_alloc / mm_page_free */
	unsigned char		alloc;		/* an allocation (else a free) */
	unsigned char		kind;		/* enum kma_pair_kind, once paired */
	uint32_t		closed;		/* IMPLICIT, FREED: the row it closes */
	union {
		struct live		slab;
		struct live_page	page;
	} own;					/* what a later free prints of it */
};

#ifdef KMA_KSHARK
/*
 * The row of record (and in *closed the row it closes, if any) when
 * KernelShark loaded the trace of tep with this plugin: 1 found, 0 tep is
 * not a KernelShark stream of ours (print as trace-cmd report does), -1 the
 * record is not in the table, -2 out of memory while pairing.
 */
int kma_ks_find(struct tep_handle *tep, struct tep_record *record,
		const struct kma_ks_row **row, const struct kma_ks_row **closed);
#else
static inline int kma_ks_find(struct tep_handle *tep, struct tep_record *record,
			      const struct kma_ks_row **row,
			      const struct kma_ks_row **closed)
{
	return 0;
}
#endif

#endif /* KMA_PLUGIN_H */
