// SPDX-License-Identifier: GPL-2.0
/*
 * mktrace-page.c - the page allocator's events in mktrace: the description's
 * pagelayout line, the events' formats and how a pfn= value is stored.
 *
 *   pagelayout pfn           or page (before the events): the page allocator events
 *                            (event ... mm_page_alloc pfn=N order=N gfp_flags=...
 *                            migratetype=N, mm_page_free pfn=N order=N,
 *                            mm_page_free_batched pfn=N, mm_page_alloc_zone_locked and
 *                            mm_page_pcpu_drain pfn=N order=N migratetype=N) carry the
 *                            pfn, or (page, kernels before 2015) pfn= written as the
 *                            struct page pointer field; pfn=-1 is a failed allocation
 *
 * The kmem system gets these formats only when a description uses one of them
 * (mktrace.c, parse_kind), so the traces of slab-only descriptions stay as
 * they were.
 */
#include <stdio.h>
#include <string.h>

#include "mktrace.h"

/* "pagelayout pfn|page" of line @line; the caller checks it comes before the events. */
void parse_page_layout(struct target *t, const char *word, int line)
{
	if (strcmp(word, "pfn") && strcmp(word, "page"))
		die("line %d: bad page layout '%s' (want pfn or page)", line, word);
	t->page_by_ptr = !strcmp(word, "page");
}

/*
 * What the old layout stores for pfn= @pfn: vmemmap + pfn * sizeof(struct page),
 * as x86's vmemmap puts it (64 bytes a struct page); -1 (failed) is NULL.
 */
uint64_t page_pointer(const struct target *t, uint64_t pfn)
{
	if (pfn == (uint64_t)-1 || (t->long_size == 4 && pfn == 0xffffffffULL))
		return 0;
	return (t->long_size == 8 ? 0xffffea0000000000ULL : 0xf5000000ULL) + pfn * 64;
}

/*
 * The page allocator's events (include/trace/events/kmem.h). Current kernels
 * record the pfn (-1UL for a failed allocation); older ones, before
 * "tracing, mm: Record pfn instead of pointer to struct page", the struct page
 * pointer (NULL when failed) and, in mm_page_free_batched, an int cold.
 * gfp_flags widened to unsigned long with the slab events (5.16);
 * mm_page_alloc_zone_locked has percpu_refill since 5.13.
 */
void page_event(struct event_fmt *e, const struct target *t, int kind)
{
	const char *key = t->page_by_ptr ? "page" : "pfn";
	char gfp[640];

	if (t->page_by_ptr)
		add_field(e, t, "struct page *", "page", t->long_size, 0, 0);
	else
		add_field(e, t, "unsigned long", "pfn", t->long_size, 0, 0);
	if (kind == K_PAGE_FREE_BATCHED) {
		if (t->page_by_ptr)
			add_field(e, t, "int", "cold", 4, 1, 0);
		snprintf(e->print, sizeof(e->print), "\"%s=%%lx order=0\", REC->%s", key, key);
		return;
	}
	add_field(e, t, "unsigned int", "order", 4, 0, 0);
	if (kind == K_PAGE_FREE) {
		snprintf(e->print, sizeof(e->print), "\"%s=%%lx order=%%d\", REC->%s, REC->order",
			 key, key);
		return;
	}
	if (kind == K_PAGE_ALLOC) {
		gfp_print(gfp, sizeof(gfp), t);
		if (t->gen >= 516)
			add_field(e, t, "unsigned long", "gfp_flags", t->long_size, 0, 0);
		else
			add_field(e, t, "gfp_t", "gfp_flags", 4, 0, 0);
	}
	add_field(e, t, "int", "migratetype", 4, 1, 0);
	if (kind == K_PAGE_ZONE_LOCKED && t->gen >= 513)
		add_field(e, t, "int", "percpu_refill", 4, 1, 0);
	if (kind == K_PAGE_ALLOC)
		snprintf(e->print, sizeof(e->print), "\"%s=%%lx order=%%d migratetype=%%d "
			 "gfp_flags=%s\", REC->%s, REC->order, REC->migratetype, %s", key,
			 t->gfp_layout == GFP_NONE ? "%lx" : "%s", key, gfp);
	else
		snprintf(e->print, sizeof(e->print), "\"%s=%%lx order=%%d migratetype=%%d\", "
			 "REC->%s, REC->order, REC->migratetype", key, key);
}
