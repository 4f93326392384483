// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the report filters (kma-select): the rules (same kind OR-ed,
 * kinds AND-ed, exclusions win), each kind of pattern, the recorder's own,
 * the one-line description, the caches, and the matcher's hook. Every
 * expected value is worked out by hand in the comment next to it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "match/kma-match.h"
#include "match/kma-select.h"

#define S_ALLOC	0xffffffff81000100ULL	/* "alloc_thing+0x10" */
#define S_RB	0xffffffff81000200ULL	/* "ring_buffer_alloc_read_page+0x58" */
#define S_TB	0xffffffff81000300ULL	/* "tracing_buffers_splice_read+0x276" */
#define S_OTHER	0xffffffff81000400ULL	/* "other_fn+0x8" */
#define S_NONE	0xffffffff81000500ULL	/* unresolved: "0xffffffff81000500" */

static int resolves;	/* calls of the resolver: the cache must keep them few */

static const char *resolve(void *ctx, uint64_t addr)
{
	resolves++;
	switch (addr) {
	case S_ALLOC:	return "alloc_thing+0x10";
	case S_RB:	return "ring_buffer_alloc_read_page+0x58";
	case S_TB:	return "tracing_buffers_splice_read+0x276";
	case S_OTHER:	return "other_fn+0x8";
	}
	return NULL;
}

static struct kma_event ev_of(const char *comm, int pid, uint64_t site, const char *cache,
			      uint64_t bytes)
{
	struct kma_event ev = {
		.ts = 1, .call_site = site, .ptr = 0xffff888100001000ULL, .bytes_req = bytes,
		.bytes_alloc = bytes, .cache = cache, .comm = comm, .pid = pid,
		.type = cache ? KMA_EV_CACHE_ALLOC : KMA_EV_KMALLOC, .node = -1, .accounted = -1,
	};

	return ev;
}

static unsigned int sel(struct kma_select *s, const char *comm, int pid, uint64_t site,
			const char *cache, uint64_t bytes)
{
	struct kma_event ev = ev_of(comm, pid, site, cache, bytes);

	return kma_select_event(s, &ev);
}

static struct kma_select *new_select(void)
{
	struct kma_select *s = kma_select_alloc();

	assert_non_null(s);
	kma_select_set_resolve(s, resolve, NULL);
	return s;
}

static void add(struct kma_select *s, enum kma_sel_kind k, const char *arg)
{
	struct kma_err why;

	assert_int_equal(kma_select_add(s, k, arg, &why), 0);
}

/* No pattern: everything kept; only the recorder's own carry SELF. */
static void test_none(void **state)
{
	struct kma_select *s = new_select();

	assert_int_equal(kma_select_active(s), 0);
	assert_int_equal(sel(s, "tar", 5, S_ALLOC, "filp", 192), 0);
	assert_int_equal(sel(s, "trace-cmd", 6, S_ALLOC, "filp", 192), KMA_SEL_SELF);
	assert_int_equal(sel(s, "tar", 5, S_RB, NULL, 64), KMA_SEL_SELF);
	kma_select_free(s);
}

/* --comm: globs, OR-ed; an exclusion wins over a matching inclusion. */
static void test_comm(void **state)
{
	struct kma_select *s = new_select();

	add(s, KMA_SELK_COMM, "ta*");
	add(s, KMA_SELK_COMM, "cat");
	add(s, KMA_SELK_COMM, "!tac");
	assert_int_equal(kma_select_active(s), 1);
	assert_int_equal(sel(s, "tar", 1, S_ALLOC, "filp", 8), 0);
	assert_int_equal(sel(s, "cat", 1, S_ALLOC, "filp", 8), 0);
	assert_int_equal(sel(s, "tac", 1, S_ALLOC, "filp", 8), KMA_SEL_OUT);	/* ta* but !tac */
	assert_int_equal(sel(s, "bash", 1, S_ALLOC, "filp", 8), KMA_SEL_OUT);
	assert_int_equal(sel(s, NULL, 1, S_ALLOC, "filp", 8), KMA_SEL_OUT);	/* no comm: "" */
	kma_select_free(s);
}

/* Only exclusions: everything else kept. */
static void test_exclude_only(void **state)
{
	struct kma_select *s = new_select();

	add(s, KMA_SELK_CALLER, "!^ring_buffer");
	assert_int_equal(sel(s, "tar", 1, S_ALLOC, "filp", 8), 0);
	/* excluded; not SELF: the patterns left it out, so --exclude-self did not drop it */
	assert_int_equal(sel(s, "tar", 1, S_RB, "filp", 8), KMA_SEL_OUT);
	assert_int_equal(sel(s, "tar", 1, S_TB, "filp", 8), KMA_SEL_SELF);
	kma_select_free(s);
}

/* --pid lists; kinds AND-ed. */
static void test_pid_and_kinds(void **state)
{
	struct kma_select *s = new_select();
	struct kma_err why;

	add(s, KMA_SELK_PID, "10,20");
	add(s, KMA_SELK_PID, "30");
	add(s, KMA_SELK_PID, "!20");
	add(s, KMA_SELK_COMM, "tar");
	assert_int_equal(sel(s, "tar", 10, S_ALLOC, "filp", 8), 0);
	assert_int_equal(sel(s, "tar", 30, S_ALLOC, "filp", 8), 0);
	assert_int_equal(sel(s, "tar", 20, S_ALLOC, "filp", 8), KMA_SEL_OUT);	/* !20 wins */
	assert_int_equal(sel(s, "tar", 11, S_ALLOC, "filp", 8), KMA_SEL_OUT);
	assert_int_equal(sel(s, "cat", 10, S_ALLOC, "filp", 8), KMA_SEL_OUT);	/* comm fails */
	assert_int_equal(kma_select_add(s, KMA_SELK_PID, "1,x", &why), -1);
	assert_non_null(strstr(why.msg, "--pid"));
	assert_int_equal(kma_select_add(s, KMA_SELK_PID, "", &why), -1);
	assert_int_equal(kma_select_add(s, KMA_SELK_PID, "1,", &why), -1);
	assert_int_equal(kma_select_add(s, KMA_SELK_PID, "-3", &why), -1);
	kma_select_free(s);
}

/* --caller: ERE anywhere in the name; unresolved sites are "0x<hex>". */
static void test_caller(void **state)
{
	struct kma_select *s = new_select();
	struct kma_err why;

	add(s, KMA_SELK_CALLER, "thing\\+0x1[0-9]$");
	add(s, KMA_SELK_CALLER, "^0xffffffff810005");
	assert_int_equal(sel(s, "a", 1, S_ALLOC, "filp", 8), 0);
	assert_int_equal(sel(s, "a", 1, S_NONE, "filp", 8), 0);
	assert_int_equal(sel(s, "a", 1, S_OTHER, "filp", 8), KMA_SEL_OUT);
	assert_int_equal(kma_select_add(s, KMA_SELK_CALLER, "a(b", &why), -1);
	assert_non_null(strstr(why.msg, "a(b"));
	kma_select_free(s);
}

/* --cache: the cache name, or for kmalloc the size class of bytes_alloc. */
static void test_cache(void **state)
{
	struct kma_select *s = new_select();

	add(s, KMA_SELK_CACHE, "kmalloc-*");
	add(s, KMA_SELK_CACHE, "!kmalloc-1k");
	add(s, KMA_SELK_CACHE, "dentry");
	assert_int_equal(sel(s, "a", 1, S_ALLOC, "dentry", 192), 0);
	assert_int_equal(sel(s, "a", 1, S_ALLOC, "filp", 192), KMA_SEL_OUT);
	assert_int_equal(sel(s, "a", 1, S_ALLOC, NULL, 64), 0);		/* kmalloc-64 */
	assert_int_equal(sel(s, "a", 1, S_ALLOC, NULL, 1024), KMA_SEL_OUT);	/* kmalloc-1k */
	assert_int_equal(sel(s, "a", 1, S_ALLOC, NULL, 2048), 0);		/* kmalloc-2k */
	assert_int_equal(sel(s, "a", 1, S_ALLOC, NULL, 64), 0);		/* cached, same */
	kma_select_free(s);
}

/* --cache on the kmalloc family: kmalloc-64 and kmalloc-cg-64 are two caches, cached apart. */
static void test_cache_family(void **state)
{
	struct kma_select *s = new_select();
	struct kma_event ev = ev_of("a", 1, S_ALLOC, NULL, 64);

	add(s, KMA_SELK_CACHE, "kmalloc-cg-*");
	add(s, KMA_SELK_CACHE, "dma-kmalloc-1k");
	assert_int_equal(kma_select_event(s, &ev), KMA_SEL_OUT);	/* kmalloc-64 */
	ev.kmalloc_type = KMA_KMALLOC_CGROUP;
	assert_int_equal(kma_select_event(s, &ev), 0);			/* kmalloc-cg-64 */
	ev.kmalloc_type = KMA_KMALLOC_RECLAIM;
	assert_int_equal(kma_select_event(s, &ev), KMA_SEL_OUT);	/* kmalloc-rcl-64 */
	ev.kmalloc_type = KMA_KMALLOC_DMA;
	ev.bytes_alloc = 1024;
	assert_int_equal(kma_select_event(s, &ev), 0);			/* dma-kmalloc-1k */
	ev.kmalloc_type = KMA_KMALLOC_NORMAL;
	assert_int_equal(kma_select_event(s, &ev), KMA_SEL_OUT);	/* kmalloc-1k */
	ev.kmalloc_type = KMA_KMALLOC_CGROUP;
	ev.bytes_alloc = 16384;
	assert_int_equal(kma_select_event(s, &ev), KMA_SEL_OUT);	/* kmalloc-large */
	kma_select_free(s);
}

/* --exclude-self: the recorder's tasks and ring buffer call sites are OUT and SELF. */
static void test_exclude_self(void **state)
{
	struct kma_select *s = new_select();

	kma_select_exclude_self(s, 1);
	assert_int_equal(kma_select_active(s), 1);
	assert_int_equal(sel(s, "trace-cmd", 1, S_ALLOC, "filp", 8), KMA_SEL_OUT | KMA_SEL_SELF);
	assert_int_equal(sel(s, "kma-record", 1, S_ALLOC, "filp", 8), KMA_SEL_OUT | KMA_SEL_SELF);
	assert_int_equal(sel(s, "kma-analyze", 1, S_ALLOC, "filp", 8), KMA_SEL_OUT | KMA_SEL_SELF);
	assert_int_equal(sel(s, "kma-mark", 1, S_ALLOC, "filp", 8), KMA_SEL_OUT | KMA_SEL_SELF);
	assert_int_equal(sel(s, "kworker/0:1", 1, S_RB, NULL, 32), KMA_SEL_OUT | KMA_SEL_SELF);
	assert_int_equal(sel(s, "kworker/0:1", 1, S_TB, NULL, 32), KMA_SEL_OUT | KMA_SEL_SELF);
	assert_int_equal(sel(s, "trace-cmdx", 1, S_ALLOC, "filp", 8), 0);	/* exact names */
	assert_int_equal(sel(s, "kworker/0:1", 1, S_OTHER, NULL, 32), 0);
	assert_int_equal(kma_select_is_self_function("trace_pipe_open+0x10"), 1);
	assert_int_equal(kma_select_is_self_function("tracepoint_probe+0x10"), 0);
	assert_int_equal(kma_select_is_self_function("xring_buffer_x+0x1"), 0);
	kma_select_free(s);
}

/* A call site is named once, whatever the number of its events. */
static void test_cached(void **state)
{
	struct kma_select *s = new_select();
	int i;

	add(s, KMA_SELK_CALLER, "alloc");
	resolves = 0;
	for (i = 0; i < 100; i++) {
		assert_int_equal(sel(s, "a", 1, S_ALLOC, "filp", 8), 0);
		assert_int_equal(sel(s, "a", 1, S_OTHER, "filp", 8), KMA_SEL_OUT);
	}
	assert_int_equal(resolves, 2);
	kma_select_free(s);
}

static void test_describe(void **state)
{
	struct kma_select *s = new_select();
	char buf[256], small[8];
	int n;

	kma_select_describe(s, buf, sizeof(buf));
	assert_string_equal(buf, "");
	add(s, KMA_SELK_COMM, "tar");
	add(s, KMA_SELK_CALLER, "!ring_buffer");
	add(s, KMA_SELK_COMM, "cat");
	add(s, KMA_SELK_PID, "1,2");
	add(s, KMA_SELK_CACHE, "!kmalloc-*");
	add(s, KMA_SELK_CALLER, "^f");
	kma_select_exclude_self(s, 1);
	n = kma_select_describe(s, buf, sizeof(buf));
	assert_string_equal(buf, "comm 'tar' or 'cat', pid 1,2, caller ~ '^f', "
			    "caller !~ 'ring_buffer', cache !'kmalloc-*', not the recorder's own");
	assert_int_equal(n, (int)strlen(buf));
	/* too small: cut, terminated, and the length it needed */
	assert_int_equal(kma_select_describe(s, small, sizeof(small)), n);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	kma_select_free(s);
}

/* The matcher's hook: OUT events are unselected, SELF counted either way. */
static void test_match_hook(void **state)
{
	struct kma_select *s = new_select();
	struct kma_match_opts o = { .select = kma_select_event, .select_ctx = s };
	struct kma_match *m;
	const struct kma_totals *t;
	struct kma_event ev;

	kma_select_exclude_self(s, 1);
	add(s, KMA_SELK_COMM, "!bash");
	m = kma_match_alloc(&o);
	assert_non_null(m);
	ev = ev_of("tar", 1, S_ALLOC, "filp", 192);		/* kept */
	assert_int_equal(kma_match_event(m, &ev), 0);
	ev = ev_of("trace-cmd", 2, S_ALLOC, "filp", 192);	/* self: dropped */
	ev.ptr += 0x100;
	assert_int_equal(kma_match_event(m, &ev), 0);
	ev = ev_of("tar", 1, S_RB, NULL, 64);			/* self: dropped */
	ev.ptr += 0x200;
	assert_int_equal(kma_match_event(m, &ev), 0);
	ev = ev_of("bash", 3, S_RB, NULL, 64);			/* !bash: out, not self */
	ev.ptr += 0x300;
	assert_int_equal(kma_match_event(m, &ev), 0);
	ev = ev_of("trace-cmd", 2, S_ALLOC, "filp", 192);	/* failed: not counted */
	ev.ptr = 0;
	assert_int_equal(kma_match_event(m, &ev), 0);
	t = kma_match_totals(m);
	assert_int_equal(t->allocs, 1);
	assert_int_equal(t->total, 192);
	assert_int_equal(t->unselected, 3);
	assert_int_equal(t->self_allocs, 2);
	assert_int_equal(t->self_bytes, 192 + 64);
	kma_match_free(m);
	kma_select_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_comm),
		cmocka_unit_test(test_exclude_only),
		cmocka_unit_test(test_pid_and_kinds),
		cmocka_unit_test(test_caller),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_cache_family),
		cmocka_unit_test(test_exclude_self),
		cmocka_unit_test(test_cached),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_match_hook),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
