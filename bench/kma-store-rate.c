// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store-rate - the report.db writer's speed and size, alone.
 *
 *   kma-store-rate [-n ROWS] [-o FILE]
 *
 * Feeds ROWS synthetic allocation rows (default 4,000,000) through the real
 * store API (kma_store_open, kma_store_alloc_row, kma_store_commit) and
 * prints rows per second, from the open to the renamed file (schema, every
 * row, the summary tables, the commit), in wall time and in the CPU time the
 * store used (the process's, less what generating the rows costs alone), and
 * the file's bytes per row.
 *
 * The rows look like a busy kernel's: pointers in the direct map, 200 call
 * sites with 3 allocation shapes each (event, sizes, gfp, cache), kmalloc and
 * kmem_cache_alloc with a handful of caches, 300 tasks,
 * lifetimes from microseconds to seconds, 10% of frees on another CPU, 5% of
 * rows still live. The values come from a fixed-seed generator: every run
 * writes the same file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "kma-bench-rand.h"
#include "store/kma-store.h"

#define NR_CALLERS	200
#define NR_TASKS	300
#define NR_FREE_SITES	64

static const char *const caches[] = {
	"dentry", "inode_cache", "skbuff_head_cache", "vm_area_struct", "filp",
	"kmalloc-rnd-01-64", "buffer_head", "anon_vma_chain",
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	return kma_bench_rand(&rng);
}

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/* CPU seconds of every thread of the process, the joined writer's included */
static double cpu(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static char names[NR_CALLERS + NR_FREE_SITES + NR_TASKS][32];

static void make_row(struct kma_alloc_row *r, uint64_t i, uint64_t *ts)
{
	static const uint64_t sizes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096 };
	uint64_t x = next(), life;
	int task = (int)(x % NR_TASKS);
	uint32_t shape;

	memset(r, 0, sizeof(*r));
	*ts += 200 + (x >> 40) % 600;
	r->ptr = 0xffff888100000000ull + ((next() >> 20) & 0x3fffffffull) * 64;
	r->caller_id = (uint32_t)((x >> 8) % NR_CALLERS);
	r->caller = names[r->caller_id];
	r->call_site = 0xffffffff81000000ull + r->caller_id * 0x40;
	/*
	 * What repeats per call site (event, sizes, gfp, accounted, cache) is
	 * the caller's, in one of 3 variants: 600 shapes at most, as a kernel
	 * has (big-v6.dat: 302 for 2.87M allocations).
	 */
	shape = r->caller_id * 3 + (uint32_t)((x >> 20) % 3);
	r->alloc_kind = shape & 1 ? KMA_EV_KMALLOC : KMA_EV_CACHE_ALLOC;
	r->bytes_alloc = sizes[shape % 12];
	r->bytes_req = r->bytes_alloc - (shape * 7) % (r->bytes_alloc / 2 + 1);
	r->gfp_flags = (shape >> 1) & 1 ? 0xcc0 : 0x400dc0;
	r->node = -1;
	r->accounted = (int)((shape >> 2) & 1);
	if (r->alloc_kind == KMA_EV_CACHE_ALLOC)
		r->cache = caches[(shape >> 3) % (sizeof(caches) / sizeof(caches[0]))];
	r->alloc_ts = *ts;
	r->alloc_cpu = (int)((x >> 36) & 7);
	r->pid = 1000 + task;
	r->comm = names[NR_CALLERS + NR_FREE_SITES + task];
	r->generation = (uint32_t)(i >> 20);
	r->free_kind = -1;
	r->free_cpu = -1;
	r->free_pid = -1;
	if ((x >> 44) % 20 == 0)
		return;		/* live at the end */
	life = 1000ull << ((x >> 48) % 20);
	r->free_ts = r->alloc_ts + life + (x >> 52);
	r->free_cpu = (x >> 56) % 10 ? r->alloc_cpu : (r->alloc_cpu + 1) & 7;
	r->free_pid = (x >> 60) % 4 ? r->pid : 1000 + (int)((x >> 4) % NR_TASKS);
	if ((x >> 62) == 0) {
		r->free_kind = KMA_FREE_IMPLICIT;
		return;
	}
	r->free_kind = r->alloc_kind == KMA_EV_KMALLOC ? KMA_EV_KFREE : KMA_EV_CACHE_FREE;
	r->free_call_site = 0xffffffff82000000ull + ((x >> 2) % NR_FREE_SITES) * 0x30;
	r->free_caller = names[NR_CALLERS + (x >> 2) % NR_FREE_SITES];
}

/* The callers, free sites and tasks: names as kma gives them, stable until the end. */
static void make_names(struct kma_caller *callers)
{
	unsigned int i;

	for (i = 0; i < NR_CALLERS; i++) {
		snprintf(names[i], sizeof(names[i]), "caller_%u+0x%x", i, i * 4);
		callers[i].name = names[i];
		callers[i].address = 0xffffffff81000000ull + i * 0x40;
	}
	for (i = 0; i < NR_FREE_SITES; i++)
		snprintf(names[NR_CALLERS + i], sizeof(names[0]), "free_site_%u+0x10", i);
	for (i = 0; i < NR_TASKS; i++)
		snprintf(names[NR_CALLERS + NR_FREE_SITES + i], sizeof(names[0]), "task-%u", i);
}

int main(int argc, char **argv)
{
	static struct kma_caller callers[NR_CALLERS];
	struct kma_trace_info info = { .file = "synthetic", .file_version = 7, .cpus = 0 };
	struct kma_totals totals = { 0 };
	struct kma_store_results run = {
		.info = &info, .totals = &totals, .callers = callers, .nr_callers = NR_CALLERS,
		.version = "kma-store-rate",
	};
	const char *out = "/tmp/kma-store-rate.db";
	struct kma_err err;
	uint64_t n = 4000000, i, ts = 1000000000000ull;
	struct kma_alloc_row row;
	struct kma_store *s;
	struct stat st;
	double t0, t1, c0, c1, gen;
	int c;

	while ((c = getopt(argc, argv, "n:o:")) != -1) {
		if (c == 'n')
			n = strtoull(optarg, NULL, 0);
		else if (c == 'o')
			out = optarg;
		else {
			fprintf(stderr, "usage: %s [-n ROWS] [-o FILE]\n", argv[0]);
			return 2;
		}
	}
	make_names(callers);

	/* the generator alone, to take its CPU time out of the store's */
	c0 = cpu();
	for (i = 0; i < n; i++)
		make_row(&row, i, &ts);
	gen = cpu() - c0;
	rng = 0x9e3779b97f4a7c15ull;
	ts = 1000000000000ull;

	unlink(out);
	c0 = cpu();
	t0 = now();
	s = kma_store_open(out, &err);
	if (!s) {
		fprintf(stderr, "kma-store-rate: %s: %s\n", out, err.msg);
		return 1;
	}
	for (i = 0; i < n; i++) {
		make_row(&row, i, &ts);
		if (kma_store_alloc_row(s, &row))
			break;
	}
	if ((i < n && kma_store_err(s, &err)) || kma_store_commit(s, &run, &err)) {
		fprintf(stderr, "kma-store-rate: %s\n", err.msg);
		kma_store_free(s);
		return 1;
	}
	t1 = now();
	kma_store_free(s);
	c1 = cpu() - c0 - gen;
	if (stat(out, &st)) {
		perror(out);
		return 1;
	}
	/*
	 * Wall time is what a user waits; CPU time is what the store costs, the
	 * same on a machine busy with other work (rows per CPU second of the
	 * writer and the producer's side of the store together).
	 */
	printf("kma-store-rate: %llu rows, wall %.3f s: %.2f M rows/s; store CPU %.3f s: "
	       "%.2f M rows/CPU-s; %.1f bytes/row (%s, %lld bytes)\n",
	       (unsigned long long)n, t1 - t0, n / (t1 - t0) / 1e6, c1, n / c1 / 1e6,
	       (double)st.st_size / n, out, (long long)st.st_size);
	return 0;
}
