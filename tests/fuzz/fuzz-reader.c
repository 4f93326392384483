// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-reader.c - libFuzzer target over the reader and the matcher.
 *
 * Each input is written to a memfd and opened through /proc/self/fd/N, then
 * run as kma-analyze does with --generation 1 --lifetimes --no-db: the
 * reader feeds an unfiltered matcher (whose sink drops the rows, standing in
 * for the store) and a filtered one keeping lifetimes. Only the store and the
 * printing are left out. Built and run by tests/fuzz/Makefile.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "match/kma-leak.h"
#include "match/kma-match.h"
#include "reader/kma-reader.h"
#include "sites/kma-sites.h"

struct run {
	struct kma_reader	*reader;
	struct kma_match	*match;
	struct kma_match	*view;
	int			window_set;
};

/* The sinks touch the strings the store would copy. */
static volatile size_t touched;

static int drop_alloc(void *ctx, const struct kma_alloc_row *row)
{
	size_t n = 0;

	if (row->caller)
		n += row->caller[0];
	if (row->free_caller)
		n += row->free_caller[0];
	if (row->cache)
		n += row->cache[0];
	if (row->comm)
		n += row->comm[0];
	touched += n;
	(void)ctx;
	return 0;
}

static int drop_free(void *ctx, const struct kma_free_row *row)
{
	size_t n = 0;

	if (row->caller)
		n += row->caller[0];
	if (row->comm)
		n += row->comm[0];
	touched += n;
	(void)ctx;
	return 0;
}

static int feed(void *ctx, const struct kma_event *ev)
{
	struct run *r = ctx;

	if (!r->window_set) {
		r->window_set = 1;
		kma_match_set_window(r->view, kma_reader_info(r->reader)->first_ts, 0);
	}
	if (kma_match_event(r->match, ev) || kma_match_event(r->view, ev))
		return -1;
	return 0;
}

static void inspect(struct kma_match *m, uint64_t lost)
{
	const struct kma_caller *c;
	struct kma_leak_rules r = { .lost = lost, .young_ns = KMA_LEAK_YOUNG_NS, .gens = 4,
				    .growth = kma_leak_growth_default };
	struct kma_leak leak;
	uint32_t i, nr;
	uint64_t n;

	c = kma_match_callers(m, &nr);
	for (i = 0; i < nr; i++) {
		kma_leak_assess(&c[i], &r, &leak);
		kma_match_lifetimes(m, i, &n);
	}
	kma_match_generations(m, &nr);
	kma_match_modules(m, &nr);
	kma_match_totals(m);
}

static int fd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fd = memfd_create("kma-fuzz", 0);
	if (fd < 0) {
		perror("memfd_create");
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kma_match_opts mo = { 0 }, vo;
	struct run r = { 0 };
	const struct kma_trace_info *info;
	const char *why = NULL;
	struct kma_err err;
	struct kma_sites *sites = NULL;
	const char *ksyms;
	size_t len;
	uint64_t lost = 0;
	int cpu;

	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();

	r.reader = kma_reader_open(path, &err);
	if (!r.reader)
		return 0;
	if (kma_reader_set_marker_prefix(r.reader, "kma:"))
		goto out;
	/* call sites as kma-analyze names them: the trace's kallsyms, owned here */
	ksyms = kma_reader_kallsyms(r.reader, &len, &why);
	sites = kma_sites_alloc(ksyms, len, why, kma_reader_tep(r.reader));
	if (!sites)
		goto out;
	mo.resolve = kma_sites_symbol;
	mo.resolve_ctx = sites;
	mo.module_of = kma_sites_module;
	mo.sink.alloc_done = drop_alloc;
	mo.sink.unknown_free = drop_free;
	r.match = kma_match_alloc(&mo);
	vo = mo;
	vo.sink.alloc_done = NULL;
	vo.sink.unknown_free = NULL;
	vo.keep_lifetimes = 1;
	vo.filtered = 1;
	vo.filter.generation = 1;
	r.view = kma_match_alloc(&vo);
	if (!r.match || !r.view)
		goto out;
	if (kma_reader_run(r.reader, feed, &r, NULL, NULL, &why))
		goto out;
	info = kma_reader_info(r.reader);
	for (cpu = 0; cpu < info->cpus; cpu++)
		lost += kma_lost_total(&info->lost[cpu]);
	if (kma_match_finish(r.match, info->last_ts) || kma_match_finish(r.view, info->last_ts))
		goto out;
	inspect(r.match, lost);
	inspect(r.view, lost);
out:
	kma_match_free(r.view);
	kma_match_free(r.match);
	kma_sites_free(sites);
	kma_reader_close(r.reader);
	return 0;
}
