// SPDX-License-Identifier: GPL-2.0
/*
 * kma-event.c - the names behind the normalized event: kmem tracepoints and
 * groupings, one table each for the analyzer, the live mode and the plugin.
 */
#include <string.h>

#include "kma-event.h"

static const char * const ev_names[] = {
	[KMA_EV_KMALLOC]		= "kmalloc",
	[KMA_EV_KMALLOC_NODE]		= "kmalloc_node",
	[KMA_EV_CACHE_ALLOC]		= "kmem_cache_alloc",
	[KMA_EV_CACHE_ALLOC_NODE]	= "kmem_cache_alloc_node",
	[KMA_EV_KFREE]			= "kfree",
	[KMA_EV_CACHE_FREE]		= "kmem_cache_free",
	[KMA_FREE_IMPLICIT]		= "implicit",
};

const char *kma_ev_name(int type)
{
	if (type < 0 || type > KMA_FREE_IMPLICIT)
		return NULL;
	return ev_names[type];
}

const char *kma_page_ev_name(int type)
{
	static const char * const names[] = {
		"mm_page_alloc", "mm_page_free", "mm_page_free_batched",
		"mm_page_alloc_zone_locked", "mm_page_pcpu_drain",
	};

	if (!kma_ev_is_page(type))
		return NULL;
	return names[type - KMA_EV_PAGE_ALLOC];
}

/* The kernel's kmalloc_info[] names (mm/slab_common.c), without the size. */
const char *kma_kmalloc_prefix(int type)
{
	static const char * const prefixes[KMA_KMALLOC_NR] = {
		[KMA_KMALLOC_NORMAL] = "kmalloc-", [KMA_KMALLOC_CGROUP] = "kmalloc-cg-",
		[KMA_KMALLOC_RECLAIM] = "kmalloc-rcl-", [KMA_KMALLOC_DMA] = "dma-kmalloc-",
	};

	return type > 0 && type < KMA_KMALLOC_NR ? prefixes[type] : prefixes[0];
}

static const char * const group_names[] = {
	[KMA_GROUP_CALLER] = "caller", [KMA_GROUP_FUNCTION] = "function",
	[KMA_GROUP_MODULE] = "module", [KMA_GROUP_FILE] = "file", [KMA_GROUP_CACHE] = "cache",
	[KMA_GROUP_COMM] = "comm", [KMA_GROUP_PID] = "pid", [KMA_GROUP_STACK] = "stack",
	[KMA_GROUP_GFP] = "gfp", [KMA_GROUP_ACCOUNTED] = "accounted",
};

int kma_group_parse(const char *s, enum kma_group *out)
{
	size_t i;

	for (i = 0; i < sizeof(group_names) / sizeof(group_names[0]); i++) {
		if (!strcmp(s, group_names[i])) {
			*out = (enum kma_group)i;
			return 0;
		}
	}
	return -1;
}

const char *kma_group_name(enum kma_group g)
{
	if ((size_t)g >= sizeof(group_names) / sizeof(group_names[0]))
		return NULL;
	return group_names[g];
}
