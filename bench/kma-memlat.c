// SPDX-License-Identifier: GPL-2.0
/*
 * kma-memlat - the machine's latency of a load that misses the cache.
 *
 * kma's cost per event on a big trace is set less by its instructions than by
 * the loads of its pointer map and live set, tens of MB read at random: one
 * whose allocation was made long ago misses every cache. This prints, for
 * working sets of 1 MB to 256 MB on huge pages (as kma's tables are), the time
 * of one load that depends on the one before (a random cycle through 64-byte
 * lines: no prefetcher helps), so that the figures of two machines compare.
 *
 * Usage: bench/kma-memlat [MAX_MB]     (default 256)
 * Output: one line per size, "memlat MB ns".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "kma-bench-rand.h"

#define LINE	64
#define HUGE	(2u << 20)

/* the cycle must not follow an order a prefetcher could guess */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	return kma_bench_rand(&rnd_state);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ns per load over a random cycle through @n lines of @mem */
static double chase(size_t *mem, size_t n)
{
	const size_t per = LINE / sizeof(size_t);
	size_t *order = malloc(n * sizeof(*order));
	size_t i, p = 0;
	long k, loads = 4000000;
	double t;

	if (!order)
		return -1;
	for (i = 0; i < n; i++)
		order[i] = i;
	/* the lines in a random order, each pointing at the next: one cycle through all */
	for (i = n - 1; i > 0; i--) {
		size_t j = rnd() % (i + 1), x = order[i];

		order[i] = order[j];
		order[j] = x;
	}
	for (i = 0; i < n; i++)
		mem[order[i] * per] = order[(i + 1) % n] * per;
	free(order);
	for (k = 0; k < (long)n; k++)		/* one lap to warm the TLB and caches */
		p = mem[p];
	t = now();
	for (k = 0; k < loads; k++)
		p = mem[p];
	t = now() - t;
	/* p printed nowhere but used: the loop is not optimised away */
	return p == (size_t)-1 ? -1 : t * 1e9 / loads;
}

int main(int argc, char **argv)
{
	char *end = NULL;
	size_t max_mb = argc > 1 ? strtoul(argv[1], &end, 10) : 256, mb;

	/* whole megabytes, 1 to 64 GB: a size past that is a typing error */
	if (argc > 2 || (end && (*end || end == argv[1])) || !max_mb || max_mb > 65536) {
		fprintf(stderr, "usage: kma-memlat [MAX_MB]   (1 to 65536)\n");
		return 2;
	}
	for (mb = 1; mb <= max_mb; mb *= 2) {
		size_t len = mb << 20;
		size_t *mem = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		size_t *al;
		double ns;

		if (mem == MAP_FAILED) {
			perror("kma-memlat: mmap");
			return 1;
		}
		al = (size_t *)(((uintptr_t)mem + HUGE - 1) / HUGE * HUGE);
		madvise(al, len, MADV_HUGEPAGE);
		memset(al, 0, len);
		ns = chase(al, len / LINE);
		munmap(mem, len + HUGE);
		if (ns < 0) {
			fprintf(stderr, "kma-memlat: out of memory\n");
			return 1;
		}
		printf("memlat %zu %.1f\n", mb, ns);
	}
	return 0;
}
