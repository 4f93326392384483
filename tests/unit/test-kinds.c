// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the allocator kinds (match/kma-kind.h) and of the one
 * matcher (match/kma-match.h) running each kind, on hand-built event
 * sequences. Every expected number is worked out by hand in the comment
 * next to it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "match/kma-kind.h"
#include "match/kma-match.h"
#include "match/kma-account.h"
#include "report/kma-report-kinds.h"

#include "test-capture.h"

#define S1 0xffffffff81000100ULL	/* the caller frames of stacks 1 and 2 */
#define S2 0xffffffff81000200ULL

/* Stack id 1's caller frame is S1, 2's S2; any other names none. */
static uint64_t stack_caller(void *ctx, uint32_t id)
{
	(void)ctx;
	return id == 1 ? S1 : id == 2 ? S2 : 0;
}

static struct kma_match *new_kind(struct capture *cap, enum kma_kind k, int with_stacks)
{
	struct kma_match_opts o = {
		.kind = k,
		.stack_caller = with_stacks ? stack_caller : NULL,
		.sink = { .ctx = cap, .alloc_done = cap_alloc, .unknown_free = cap_unknown },
	};
	struct kma_match *m;

	memset(cap, 0, sizeof(*cap));
	m = kma_match_alloc(&o);
	assert_non_null(m);
	return m;
}

static uint64_t now;

static void feed(struct kma_match *m, int type, uint64_t site, uint64_t ptr, uint64_t req,
		 uint64_t got, uint32_t stack)
{
	struct kma_event ev = {
		.ts = ++now, .call_site = site, .ptr = ptr, .bytes_req = req, .bytes_alloc = got,
		.type = type, .pid = 1, .node = -1, .accounted = -1, .stack_id = stack,
	};

	assert_int_equal(kma_match_event(m, &ev), 0);
}

static const struct kma_caller *caller(struct kma_match *m, uint64_t site)
{
	uint32_t nr, i;
	const struct kma_caller *c = kma_match_callers(m, &nr);

	for (i = 0; i < nr; i++)
		if (c[i].address == site)
			return &c[i];
	fail_msg("caller 0x%llx not found", (unsigned long long)site);
	return NULL;
}

/* The table: every allocator event type has its kind and role; names parse back. */
static void test_table(void **state)
{
	enum kma_kind k;
	int i;

	(void)state;
	assert_int_equal(kma_kind_of_event(KMA_EV_KMALLOC), KMA_KIND_SLAB);
	assert_int_equal(kma_kind_of_event(KMA_EV_CACHE_FREE), KMA_KIND_SLAB);
	assert_int_equal(kma_kind_of_event(KMA_EV_PAGE_PCPU_DRAIN), KMA_KIND_PAGE);
	assert_int_equal(kma_kind_of_event(KMA_EV_PERCPU_FREE), KMA_KIND_PERCPU);
	assert_int_equal(kma_kind_of_event(KMA_EV_VMAP_ALLOC), KMA_KIND_VMALLOC);
	assert_int_equal(kma_kind_of_event(KMA_EV_MARKER), -1);
	assert_int_equal(kma_kind_of_event(KMA_EV_COUNTER), -1);
	assert_int_equal(kma_ev_role(KMA_EV_CACHE_ALLOC_NODE), KMA_ROLE_ALLOC);
	assert_int_equal(kma_ev_role(KMA_EV_PAGE_FREE), KMA_ROLE_FREE);
	assert_int_equal(kma_ev_role(KMA_EV_PAGE_FREE_BATCHED), KMA_ROLE_COUNT);
	assert_int_equal(kma_ev_role(KMA_EV_PERCPU_ALLOC), KMA_ROLE_ALLOC);
	assert_int_equal(kma_ev_role(KMA_EV_VMAP_FREE), KMA_ROLE_FREE);
	assert_int_equal(kma_ev_role(KMA_EV_MODULE_FREE), KMA_ROLE_NONE);
	for (i = 0; i < KMA_KIND_NR; i++) {
		assert_int_equal(kma_kind_parse(kma_kind_name(i), &k), 0);
		assert_int_equal(k, i);
		assert_int_equal(kma_kind_ops(k)->kind, i);
	}
	assert_string_equal(kma_kind_name(KMA_KIND_VMALLOC), "vmalloc");
	assert_int_equal(kma_kind_parse("slub", &k), -1);
	assert_null(kma_kind_name(KMA_KIND_NR));
}

#define A 0xffffffff81000300ULL		/* percpu call sites */
#define B 0xffffffff81000400ULL
#define C 0xffffffff81000500ULL
#define X1 0x3a0c0ULL			/* percpu pointers */
#define X2 0x3a0e0ULL
#define X3 0x3a200ULL
#define X9 0x3b000ULL

/*
 * percpu, paired by ptr; bytes are bytes_alloc (here 4 CPUs: size * 4), no
 * slack. A slab event in between is another matcher's.
 *   alloc A X1 8/32    net 32
 *   alloc B X2 16/64   net 96
 *   kmalloc (slab)     ignored
 *   alloc A X3 100/400 net 496  <- peak
 *   free X1            net 464
 *   alloc A X2 8/32    X2 live: B's 64 implicitly freed (400), then 432
 *   free X9            unknown
 *   free 0             null
 *   alloc C 0          failed
 * allocs 4, total 32 + 64 + 400 + 32 = 528, net 432, peak 496 at the 3rd
 * alloc; frees: 1 matched + 1 unknown + 1 null = 3, 1 implicit, 1 failed.
 * A: 3 allocs, 464 total, 432 net, 1 free; B: 1 alloc, 64, net 0, 1 implicit.
 */
static void test_percpu(void **state)
{
	struct capture cap;
	struct kma_match *m = new_kind(&cap, KMA_KIND_PERCPU, 0);
	const struct kma_totals *t;
	uint64_t peak_ts;

	(void)state;
	feed(m, KMA_EV_PERCPU_ALLOC, A, X1, 8, 32, 0);
	feed(m, KMA_EV_PERCPU_ALLOC, B, X2, 16, 64, 0);
	feed(m, KMA_EV_KMALLOC, A, 0xffff888100001000ULL, 8, 8, 0);
	feed(m, KMA_EV_PERCPU_ALLOC, A, X3, 100, 400, 0);
	peak_ts = now;
	feed(m, KMA_EV_PERCPU_FREE, 0, X1, 0, 0, 0);
	feed(m, KMA_EV_PERCPU_ALLOC, A, X2, 8, 32, 0);
	feed(m, KMA_EV_PERCPU_FREE, 0, X9, 0, 0, 0);
	feed(m, KMA_EV_PERCPU_FREE, 0, 0, 0, 0, 0);
	feed(m, KMA_EV_PERCPU_ALLOC, C, 0, 8, 32, 0);
	t = kma_match_totals(m);
	assert_int_equal(t->allocs, 4);
	assert_int_equal(t->total, 528);
	assert_int_equal(t->slack, 0);
	assert_int_equal(t->net, 432);
	assert_int_equal(t->peak_net, 496);
	assert_int_equal(t->peak_ts, peak_ts);
	assert_int_equal(t->matched_frees, 1);
	assert_int_equal(t->implicit_frees, 1);
	assert_int_equal(t->unknown_frees, 1);
	assert_int_equal(t->null_frees, 1);
	assert_int_equal(t->frees, 3);
	assert_int_equal(t->failed_allocs, 1);
	assert_int_equal(t->live, 2);
	assert_int_equal(caller(m, A)->allocs, 3);
	assert_int_equal(caller(m, A)->total, 464);
	assert_int_equal(caller(m, A)->net, 432);
	assert_int_equal(caller(m, A)->frees, 1);
	assert_int_equal(caller(m, B)->total, 64);
	assert_int_equal(caller(m, B)->net, 0);
	assert_int_equal(caller(m, B)->implicit_frees, 1);
	assert_int_equal(caller(m, C)->failed_allocs, 1);
	assert_int_equal(cap.nr_unknown, 1);
	assert_int_equal(cap.unknown[0].ptr, X9);
	/* rows: X1 freed, X2 (B) implicitly; then the 2 live at the end */
	assert_int_equal(cap.nr, 2);
	assert_int_equal(cap.rows[0].ptr, X1);
	assert_int_equal(cap.rows[0].free_kind, KMA_EV_PERCPU_FREE);
	assert_int_equal(cap.rows[1].bytes_alloc, 64);
	assert_int_equal(cap.rows[1].free_kind, KMA_FREE_IMPLICIT);
	assert_int_equal(kma_match_finish(m, now), 0);
	assert_int_equal(cap.nr, 4);
	assert_int_equal(cap.rows[2].free_kind, -1);
	assert_int_equal(cap.rows[2].bytes_req, cap.rows[2].bytes_alloc);	/* no slack */
	kma_match_free(m);
}

/*
 * percpu before 5.19: no call_site (0): the stack's caller frame names the
 * row, "[no stack]" without a stack.
 *   alloc 0 X1 16/16 stack 1 -> S1;  alloc 0 X2 8/8 no stack -> [no stack]
 */
static void test_percpu_old_layout(void **state)
{
	struct capture cap;
	struct kma_match *m = new_kind(&cap, KMA_KIND_PERCPU, 1);

	(void)state;
	feed(m, KMA_EV_PERCPU_ALLOC, 0, X1, 16, 16, 1);
	feed(m, KMA_EV_PERCPU_ALLOC, 0, X2, 8, 8, 0);
	assert_int_equal(caller(m, S1)->total, 16);
	assert_string_equal(caller(m, S1)->name, "0xffffffff81000100");
	assert_int_equal(caller(m, 0)->total, 8);
	assert_string_equal(caller(m, 0)->name, "[no stack]");
	assert_int_equal(kma_match_totals(m)->callers, 2);
	kma_match_free(m);
}

#define V1 0xffffc90000100000ULL	/* vmap areas */
#define V2 0xffffc90000200000ULL
#define V3 0xffffc90000300000ULL
#define V7 0xffffc90000700000ULL

/*
 * vmalloc, paired by address; no caller in the event: stack 1 -> S1,
 * stack 2 -> S2, stack 0 -> "[no stack]" (key 0).
 *   alloc V1 8192  s1     net 8192
 *   alloc V2 20480 s2     net 28672
 *   page alloc            ignored (another kind)
 *   alloc V3 12288 s0     net 40960  <- peak
 *   free V1               net 32768
 *   alloc V1 4096 s1      net 36864 (V1 was freed: a new area)
 *   alloc V2 8192 s2      V2 live: 20480 implicitly freed (16384), then 24576
 *   alloc 0 s1            failed
 *   free V7               unknown
 * allocs 5, total 8192 + 20480 + 12288 + 4096 + 8192 = 53248, net 24576
 * (12288 + 4096 + 8192), peak 40960; 1 matched, 1 implicit, 1 unknown, 1 failed.
 * S1: 2 allocs, 12288 total, 4096 net, 1 free, 1 failed; S2: 2 allocs, 28672,
 * net 8192, 1 implicit; [no stack]: 1 alloc, 12288, net 12288.
 */
static void test_vmalloc(void **state)
{
	struct capture cap;
	struct kma_match *m = new_kind(&cap, KMA_KIND_VMALLOC, 1);
	const struct kma_totals *t;
	struct kma_event pg = { .type = KMA_EV_PAGE_ALLOC, .ptr = 5, .order = 3, .node = -1 };

	(void)state;
	feed(m, KMA_EV_VMAP_ALLOC, 0, V1, 8192, 8192, 1);
	feed(m, KMA_EV_VMAP_ALLOC, 0, V2, 20480, 20480, 2);
	pg.ts = ++now;
	assert_int_equal(kma_match_event(m, &pg), 0);
	feed(m, KMA_EV_VMAP_ALLOC, 0, V3, 12288, 12288, 0);
	feed(m, KMA_EV_VMAP_FREE, 0, V1, 0, 0, 0);
	feed(m, KMA_EV_VMAP_ALLOC, 0, V1, 4096, 4096, 1);
	feed(m, KMA_EV_VMAP_ALLOC, 0, V2, 8192, 8192, 2);
	feed(m, KMA_EV_VMAP_ALLOC, 0, 0, 4096, 4096, 1);
	feed(m, KMA_EV_VMAP_FREE, 0, V7, 0, 0, 0);
	t = kma_match_totals(m);
	assert_int_equal(t->allocs, 5);
	assert_int_equal(t->total, 53248);
	assert_int_equal(t->net, 24576);
	assert_int_equal(t->peak_net, 40960);
	assert_int_equal(t->matched_frees, 1);
	assert_int_equal(t->implicit_frees, 1);
	assert_int_equal(t->unknown_frees, 1);
	assert_int_equal(t->null_frees, 0);
	assert_int_equal(t->failed_allocs, 1);
	assert_int_equal(t->callers, 3);
	assert_int_equal(caller(m, S1)->allocs, 2);
	assert_int_equal(caller(m, S1)->total, 12288);
	assert_int_equal(caller(m, S1)->net, 4096);
	assert_int_equal(caller(m, S1)->frees, 1);
	assert_int_equal(caller(m, S1)->failed_allocs, 1);
	assert_int_equal(caller(m, S2)->total, 28672);
	assert_int_equal(caller(m, S2)->net, 8192);
	assert_int_equal(caller(m, S2)->implicit_frees, 1);
	assert_int_equal(caller(m, 0)->total, 12288);
	assert_string_equal(caller(m, 0)->name, "[no stack]");
	/* the free has no caller either */
	assert_int_equal(cap.rows[0].ptr, V1);
	assert_string_equal(cap.rows[0].free_caller, "[no stack]");
	assert_string_equal(cap.unknown[0].caller, "[no stack]");
	kma_match_free(m);
}

/*
 * pages through the same matcher, 4 KiB pages: bytes = pages << 12.
 *   alloc pfn 5 order 0 (4096); alloc pfn 0 order 2 (16384: pfn 0 is a page,
 *   no null); free pfn 5; batched free pfn 5 (counted only); free pfn 0;
 *   alloc failed (pfn -1); free pfn 9 (unknown)
 * allocs 2, total 20480, peak 20480, net 0; 2 matched frees, 1 unknown,
 * no null free, 1 failed, 1 counted.
 */
static void test_pages(void **state)
{
	struct capture cap;
	struct kma_match *m = new_kind(&cap, KMA_KIND_PAGE, 0);
	const struct kma_totals *t;
	struct kma_event e = { .node = -1, .accounted = -1 };
	static const struct { int type; uint64_t pfn; uint32_t order; } seq[] = {
		{ KMA_EV_PAGE_ALLOC, 5, 0 }, { KMA_EV_PAGE_ALLOC, 0, 2 },
		{ KMA_EV_PAGE_FREE, 5, 0 }, { KMA_EV_PAGE_FREE_BATCHED, 5, 0 },
		{ KMA_EV_PAGE_FREE, 0, 2 }, { KMA_EV_PAGE_ALLOC, KMA_PAGE_FAILED, 1 },
		{ KMA_EV_PAGE_FREE, 9, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		e.ts = ++now;
		e.type = seq[i].type;
		e.ptr = seq[i].pfn;
		e.order = seq[i].order;
		assert_int_equal(kma_match_event(m, &e), 0);
	}
	t = kma_match_totals(m);
	assert_int_equal(t->allocs, 2);
	assert_int_equal(t->total, 20480);
	assert_int_equal(t->peak_net, 20480);
	assert_int_equal(t->net, 0);
	assert_int_equal(t->matched_frees, 2);
	assert_int_equal(t->unknown_frees, 1);
	assert_int_equal(t->null_frees, 0);
	assert_int_equal(t->failed_allocs, 1);
	assert_int_equal(t->counted, 1);
	assert_int_equal(cap.rows[1].ptr, 0);		/* pfn 0, freed */
	assert_int_equal(cap.rows[1].bytes_alloc, 16384);
	kma_match_free(m);
}

/* A slab matcher leaves the other kinds' events alone: no error, nothing counted. */
static void test_slab_ignores_others(void **state)
{
	struct capture cap;
	struct kma_match *m = new_kind(&cap, KMA_KIND_SLAB, 0);
	const struct kma_totals *t;

	(void)state;
	feed(m, KMA_EV_PERCPU_ALLOC, A, X1, 8, 32, 0);
	feed(m, KMA_EV_VMAP_ALLOC, 0, V1, 4096, 4096, 0);
	feed(m, KMA_EV_VMAP_FREE, 0, V7, 0, 0, 0);
	feed(m, KMA_EV_KMALLOC, A, X1, 8, 8, 0);	/* the same key as the percpu one */
	t = kma_match_totals(m);
	assert_int_equal(t->allocs, 1);
	assert_int_equal(t->total, 8);
	assert_int_equal(t->implicit_frees, 0);
	assert_int_equal(t->unknown_frees, 0);
	assert_int_equal(t->frees, 0);
	kma_match_free(m);
}

/*
 * The summary by allocator: slab 2 allocations 8 + 64 (64 freed: net 8,
 * peak 72); vmalloc 1 of 4096 live (peak 4096); pages: 3 allocations, 5
 * pages allocated, 1 live, peak 4, at 4096 bytes a page: 20480, 4096,
 * 16384; percpu none: left out of the table and of the count.
 */
#define P1 0xffff888100001000ULL	/* pointers */
#define P2 0xffff888100002000ULL
#define P3 0xffff888100003000ULL

/* Row sets (kma_rowsets): set 0 keyed by pid, set 1 by generation. */
static void rs_keys(void *ctx, const struct kma_event *ev, uint32_t gen, uint64_t *keys,
		    const char **names, void *data)
{
	(void)ctx;
	keys[0] = (uint64_t)ev->pid;
	keys[1] = gen;
	names[0] = names[1] = NULL;
	*(uint64_t *)data = ev->bytes_req;	/* kept for the sink */
}

/* pid 99's row, the third of set 0, is the recorder's */
static int rs_self(void *ctx, const uint32_t *rows)
{
	(void)ctx;
	return rows[0] == 2;
}

static void rs_feed(struct kma_match *m, uint64_t ts, int type, uint64_t ptr, uint64_t bytes,
		    int pid)
{
	struct kma_event ev = { .ts = ts, .type = type, .ptr = ptr, .bytes_alloc = bytes,
				.bytes_req = bytes / 10, .pid = pid, .node = -1, .accounted = -1 };

	assert_int_equal(kma_match_event(m, &ev), 0);
}

/*
 * t1 pid 1 P1 100; t2 pid 2 P2 50; t3 pid 1 P1 30 (implicit free of t1's);
 * t4 marker; t5 free P2 (life 3); t6 free P3 (unknown, 8); t7 pid 99 P3 20;
 * t8 pid 5 failed. Peak 150 at t2; at the end (t10) P1 (t3) and P3 (t7) live.
 */
static void test_rowsets(void **state)
{
	struct kma_match_opts o = {
		.kind = KMA_KIND_PERCPU,
		.rowsets = { .nr = 2, .keys = rs_keys, .self = rs_self, .data = sizeof(uint64_t) },
	};
	struct kma_event mark = { .ts = 4, .type = KMA_EV_MARKER, .label = "m1" };
	const struct kma_caller *pid, *gen;
	const struct kma_totals *t;
	struct capture cap;
	struct kma_match *m;
	uint32_t nr, nr_gen;

	(void)state;
	memset(&cap, 0, sizeof(cap));
	o.sink = (struct kma_sink){ .ctx = &cap, .alloc_done = cap_alloc };
	m = kma_match_alloc(&o);
	assert_non_null(m);
	kma_match_set_keep_lifetimes(m, 0, 0);
	rs_feed(m, 1, KMA_EV_PERCPU_ALLOC, P1, 100, 1);
	rs_feed(m, 2, KMA_EV_PERCPU_ALLOC, P2, 50, 2);
	rs_feed(m, 3, KMA_EV_PERCPU_ALLOC, P1, 30, 1);
	assert_int_equal(kma_match_event(m, &mark), 0);
	rs_feed(m, 5, KMA_EV_PERCPU_FREE, P2, 0, 3);
	rs_feed(m, 6, KMA_EV_PERCPU_FREE, P3, 8, 3);
	rs_feed(m, 7, KMA_EV_PERCPU_ALLOC, P3, 20, 99);
	rs_feed(m, 8, KMA_EV_PERCPU_ALLOC, 0, 40, 5);
	assert_int_equal(kma_match_finish(m, 10), 0);

	t = kma_match_totals(m);
	assert_int_equal(t->allocs, 4);
	assert_int_equal(t->failed_allocs, 1);
	assert_int_equal(t->implicit_frees, 1);
	assert_int_equal(t->matched_frees, 1);
	assert_int_equal(t->unknown_frees, 1);
	assert_int_equal(t->unknown_size, 8);
	assert_int_equal(t->net, 50);		/* 30 + 20 */
	assert_int_equal(t->peak_net, 150);	/* 100 + 50 at t2 */
	assert_int_equal(t->peak_ts, 2);
	kma_match_callers(m, &nr);
	assert_int_equal(nr, 0);		/* no caller rows beside the sets */

	pid = kma_match_set_rows(m, 0, &nr);
	assert_int_equal(nr, 3);		/* pids 1, 2, 99: none for the failed pid 5 */
	assert_int_equal(pid[0].address, 1);
	assert_int_equal(pid[0].allocs, 2);
	assert_int_equal(pid[0].total, 130);
	assert_int_equal(pid[0].net, 30);
	assert_int_equal(pid[0].implicit_frees, 1);
	assert_int_equal(pid[0].net_at_peak, 100);
	assert_int_equal(pid[1].frees, 1);
	assert_int_equal(pid[1].net_at_peak, 50);
	assert_int_equal(pid[1].last_free_gen, 2);	/* freed in generation 1 */
	assert_int_equal(pid[2].net, 20);
	assert_int_equal(pid[2].self_live, 1);
	assert_int_equal(pid[0].self_live, 0);
	assert_int_equal(pid[2].tail_live, 1);	/* made after the last marker */
	assert_int_equal(pid[2].tail_live_bytes, 20);
	assert_int_equal(pid[0].tail_live, 0);

	gen = kma_match_set_rows(m, 1, &nr_gen);
	assert_int_equal(nr_gen, 2);
	assert_int_equal(gen[0].allocs, 3);
	assert_int_equal(gen[0].total, 180);
	assert_int_equal(gen[0].net, 30);
	assert_int_equal(gen[1].address, 1);
	assert_int_equal(gen[1].net, 20);

	/* set 0's lifetimes: pid 2's traced free only (3 ns); the implicit one is none */
	assert_non_null(kma_match_set_lifetimes(m, 0, 1));
	assert_int_equal(kma_match_set_lifetimes(m, 0, 1)->n, 1);
	assert_null(kma_match_set_lifetimes(m, 0, 0));
	assert_null(kma_match_set_lifetimes(m, 1, 0));	/* not kept for set 1 */

	assert_int_equal(kma_match_set_ages(m, 0, 10), 0);
	assert_int_equal(pid[0].age_max, 7);		/* P1 from t3 */
	assert_int_equal(pid[2].age_min, 3);		/* P3 from t7 */
	assert_int_equal(pid[1].age_max, 0);

	/* the sink: t1's (implicit, its kept bytes_req 10), t2's (freed), then the live two */
	assert_int_equal(cap.nr, 4);
	assert_int_equal(cap.rows[0].free_kind, KMA_FREE_IMPLICIT);
	assert_int_equal(*(const uint64_t *)cap.rows[0].kind_data, 10);
	assert_int_equal(cap.rows[1].free_kind, KMA_EV_PERCPU_FREE);
	assert_int_equal(cap.rows[1].free_ts, 5);
	assert_int_equal(cap.rows[2].free_kind, -1);
	kma_match_free(m);
}

static void test_account(void **state)
{
	struct capture cap, cap2;
	struct kma_match *slab = new_kind(&cap, KMA_KIND_SLAB, 0);
	struct kma_match *vm = new_kind(&cap2, KMA_KIND_VMALLOC, 0);
	struct kma_page_totals pt = { .allocs = 3, .pages_alloc = 5, .pages_live = 1,
				      .peak_pages = 4 };
	struct kma_kind_sum s[KMA_KIND_NR] = { { 0 } };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	feed(slab, KMA_EV_KMALLOC, A, 0xffff888100001000ULL, 8, 8, 0);
	feed(slab, KMA_EV_KMALLOC, A, 0xffff888100002000ULL, 60, 64, 0);
	feed(slab, KMA_EV_KFREE, A, 0xffff888100002000ULL, 0, 0, 0);
	feed(vm, KMA_EV_VMAP_ALLOC, 0, V1, 4096, 4096, 0);
	kma_account_match(&s[KMA_KIND_SLAB], KMA_KIND_SLAB, kma_match_totals(slab));
	kma_account_pages(&s[KMA_KIND_PAGE], &pt, 4096);
	kma_account_match(&s[KMA_KIND_VMALLOC], KMA_KIND_VMALLOC, kma_match_totals(vm));
	s[KMA_KIND_PERCPU].kind = KMA_KIND_PERCPU;
	assert_int_equal(kma_account_present(s, KMA_KIND_NR), 3);
	assert_int_equal(s[KMA_KIND_SLAB].bytes, 72);
	assert_int_equal(s[KMA_KIND_SLAB].net, 8);
	assert_int_equal(s[KMA_KIND_SLAB].peak, 72);
	assert_int_equal(s[KMA_KIND_PAGE].bytes, 20480);
	assert_int_equal(s[KMA_KIND_PAGE].net, 4096);
	assert_int_equal(s[KMA_KIND_PAGE].peak, 16384);
	assert_int_equal(s[KMA_KIND_VMALLOC].peak, 4096);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(kma_report_kinds(f, s, KMA_KIND_NR, KMA_FMT_CSV), 0);
	fclose(f);
	assert_string_equal(buf, "kind,allocs,bytes,net,peak\n"
			    "slab,2,72,8,72\n"
			    "page,3,20480,4096,16384\n"
			    "vmalloc,1,4096,4096,4096\n");
	free(buf);
	kma_match_free(slab);
	kma_match_free(vm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_percpu),
		cmocka_unit_test(test_percpu_old_layout),
		cmocka_unit_test(test_vmalloc),
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_slab_ignores_others),
		cmocka_unit_test(test_account),
		cmocka_unit_test(test_rowsets),
	};

	return cmocka_run_group_tests_name("kinds", tests, NULL, NULL);
}
