// SPDX-License-Identifier: GPL-2.0
/*
 * kma-huge.c - transparent huge pages for the big tables.
 *
 * The live sets' pointer indexes and slabs, the matcher's arrays and the
 * reader's blocks are megabytes written at random or copied into once. On
 * 4 KB pages each page costs a fault at its first write, and in a virtual
 * machine a fault costs microseconds (on this project's test machine the
 * kernel's share of a 5M-event run was a fifth of its CPU time, most of it
 * faults); the pointer index's random lookups miss the TLB as well. Where
 * the system's THP mode is "madvise" (Debian's default), only memory
 * advised so gets huge pages: one fault per 2 MB. Only the 2 MB-aligned
 * stretches of a mapping can be huge pages, and malloc's mappings are
 * aligned to 4 KB: the tables that matter most (the map and the slab) are
 * mappings of their own, aligned (kma_huge_alloc); other big arrays are
 * advised where they lie (kma_huge_advise).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kma-huge.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define KMA_HUGE_OWN_MAPS	0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define KMA_HUGE_OWN_MAPS	0
#endif
#endif
#ifndef KMA_HUGE_OWN_MAPS
#define KMA_HUGE_OWN_MAPS	1
#endif

void kma_huge_advise(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	/*
	 * Outward to whole pages, as glibc's own advice does: a big chunk is
	 * a mapping of its own, and advice on part of it would split it in
	 * two, after which realloc can no longer move it by mremap and
	 * copies it instead.
	 */
	uintptr_t ps = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)p / ps * ps;
	uintptr_t end = ((uintptr_t)p + len + ps - 1) / ps * ps;

	if (len < KMA_HUGE_MIN)
		return;
	(void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
	(void)p;
	(void)len;
#endif
}

static int own_map(size_t len)
{
	return KMA_HUGE_OWN_MAPS && len >= KMA_HUGE_MIN && len <= SIZE_MAX - 2 * KMA_HUGE_MIN;
}

static size_t map_len(size_t len)
{
	return (len + KMA_HUGE_MIN - 1) / KMA_HUGE_MIN * KMA_HUGE_MIN;
}

void *kma_huge_alloc(size_t len)
{
	size_t al = map_len(len);
	char *m, *p;

	if (!own_map(len))
		return calloc(1, len);
	/* one huge page more than needed, then the unaligned ends cut off */
	m = mmap(NULL, al + KMA_HUGE_MIN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	p = (char *)(((uintptr_t)m + KMA_HUGE_MIN - 1) / KMA_HUGE_MIN * KMA_HUGE_MIN);
	if (p > m)
		munmap(m, (size_t)(p - m));
	if (m + al + KMA_HUGE_MIN > p + al)
		munmap(p + al, (size_t)(m + al + KMA_HUGE_MIN - (p + al)));
	kma_huge_advise(p, al);
	return p;
}

void kma_huge_free(void *p, size_t len)
{
	if (!p)
		return;
	if (own_map(len))
		munmap(p, map_len(len));
	else
		free(p);
}

/*
 * A big table is fresh mmap'd memory. Probed (read) first, each of its pages
 * maps the shared zero page, and the first write then faults again and
 * flushes the TLB of every CPU running one of the process's threads: an IPI
 * per page, a tenth of a big run's CPU in a VM. A write first maps a page of
 * its own at once. (volatile: GCC turns malloc + memset into calloc.)
 */
void kma_huge_touch(void *p, size_t len)
{
	volatile char *c = p;
	size_t off;

	for (off = 0; len >= 128 * 1024 && off < len; off += 4096)
		c[off] = 0;
}

size_t kma_huge_grow_len(size_t len)
{
	if (KMA_HUGE_OWN_MAPS && len >= KMA_HUGE_MIN / 8 && len < KMA_HUGE_MIN)
		return KMA_HUGE_MIN;
	return len;
}

void *kma_huge_realloc(void *p, size_t old_len, size_t new_len)
{
	char *n;

	if (!own_map(new_len)) {
		n = realloc(p, new_len);
		if (n && new_len > old_len)
			memset(n + old_len, 0, new_len - old_len);
		return n;
	}
	if (p && own_map(old_len) && map_len(old_len) == map_len(new_len))
		return p;
	n = kma_huge_alloc(new_len);
	if (!n || !p)
		return n;
	/*
	 * The old pages moved into the start of the new, aligned mapping: no
	 * copy, and no fault and zeroing of new pages for the old bytes.
	 */
	if (!own_map(old_len) ||
	    mremap(p, map_len(old_len), map_len(old_len), MREMAP_MAYMOVE | MREMAP_FIXED,
		   n) == MAP_FAILED) {
		memcpy(n, p, old_len);
		kma_huge_free(p, old_len);
	}
	return n;
}
