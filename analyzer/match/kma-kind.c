// SPDX-License-Identifier: GPL-2.0
/*
 * kma-kind.c - the table of allocator kinds (kma-kind.h): one entry per
 * kind, what is truly its own; the rest is kma-match.c's for all of them.
 */
#include <string.h>

#include "kma-kind.h"

static uint64_t ptr_key(const struct kma_event *ev)
{
	return ev->ptr;
}

static int ptr_failed(const struct kma_event *ev)
{
	return ev->ptr == 0;
}

static uint64_t bytes_alloc(const struct kma_event *ev, unsigned int page_shift)
{
	(void)page_shift;
	return ev->bytes_alloc;
}

static int page_failed(const struct kma_event *ev)
{
	return ev->ptr == KMA_PAGE_FAILED;
}

/* 1 << order pages; the order is masked as the page matcher masks it */
static uint64_t page_bytes(const struct kma_event *ev, unsigned int page_shift)
{
	return (1ULL << (ev->order & 63)) << page_shift;
}

static const char * const slab_columns[] = {
	"cache", "bytes_req", "gfp_flags", "node", "accounted", NULL,
};
static const char * const page_columns[] = { "order", "migratetype", "gfp_flags", NULL };
static const char * const percpu_columns[] = { "bytes_req", "gfp_flags", NULL };
static const char * const vmalloc_columns[] = { NULL };

static const struct kma_kind_ops kinds[KMA_KIND_NR] = {
	[KMA_KIND_SLAB] = {
		.kind = KMA_KIND_SLAB, .name = "slab", .key = ptr_key, .failed = ptr_failed,
		.bytes = bytes_alloc, .slack = 1, .columns = slab_columns,
	},
	[KMA_KIND_PAGE] = {
		.kind = KMA_KIND_PAGE, .name = "page", .key = kma_page_key,
		.failed = page_failed, .bytes = page_bytes, .caller_from_stack = 1,
		.columns = page_columns,
	},
	/* bytes_alloc: what the event reports, for every possible CPU (reader/) */
	[KMA_KIND_PERCPU] = {
		.kind = KMA_KIND_PERCPU, .name = "percpu", .key = ptr_key,
		.failed = ptr_failed, .bytes = bytes_alloc, .caller_from_stack = 1,
		.columns = percpu_columns,
	},
	/* no caller in the event: the stack names it */
	[KMA_KIND_VMALLOC] = {
		.kind = KMA_KIND_VMALLOC, .name = "vmalloc", .key = ptr_key,
		.failed = ptr_failed, .bytes = bytes_alloc, .caller_from_stack = 1,
		.columns = vmalloc_columns,
	},
};

const struct kma_kind_ops *kma_kind_ops(enum kma_kind k)
{
	return (unsigned int)k < KMA_KIND_NR ? &kinds[k] : NULL;
}

const char *kma_kind_name(int k)
{
	return k >= 0 && k < KMA_KIND_NR ? kinds[k].name : NULL;
}

int kma_kind_parse(const char *s, enum kma_kind *out)
{
	int k;

	for (k = 0; k < KMA_KIND_NR; k++)
		if (!strcmp(s, kinds[k].name)) {
			*out = (enum kma_kind)k;
			return 0;
		}
	return -1;
}
