// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the call-stack layer: kma_seqset (lib) interning u64
 * sequences, and kma_stacks (sites) dropping the tracing frames, naming
 * frames from a hand-written kallsyms and folding them. The expected ids,
 * depths and names are worked out from the addresses below by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kma-seqset.h"
#include "sites/kma-sites.h"
#include "sites/kma-stacks.h"

static const char ksyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 t trace_event_raw_event_kmalloc\n"
	"ffffffff81000200 T __kmalloc_noprof\n"
	"ffffffff81000300 t alloc_a\n"
	"ffffffff81000400 T sys_x\n"
	"ffffffff81000500 T entry_x\n"
	"ffffffff81000600 t perf_trace_kmalloc\n"
	"ffffffff81000700 T _etext\n";

#define TR(o)	(0xffffffff81000100ULL + (o))	/* trace_event_raw_event_kmalloc */
#define KM(o)	(0xffffffff81000200ULL + (o))	/* __kmalloc_noprof */
#define AA(o)	(0xffffffff81000300ULL + (o))	/* alloc_a */
#define SX(o)	(0xffffffff81000400ULL + (o))	/* sys_x */
#define EN(o)	(0xffffffff81000500ULL + (o))	/* entry_x */
#define PT(o)	(0xffffffff81000600ULL + (o))	/* perf_trace_kmalloc */

static void seqset_interns(void **state)
{
	struct kma_seqset set;
	uint64_t a[] = { 1, 2, 3 }, b[] = { 1, 2, 4 }, big[64];
	const uint64_t *v;
	uint32_t id, len, i;
	int added;

	(void)state;
	assert_int_equal(kma_seqset_init(&set), 0);
	assert_int_equal(kma_seqset_intern(&set, a, 3, &added), 1);
	assert_int_equal(added, 1);
	assert_int_equal(kma_seqset_intern(&set, b, 3, &added), 2);
	assert_int_equal(kma_seqset_intern(&set, a, 3, &added), 1);
	assert_int_equal(added, 0);
	assert_int_equal(kma_seqset_intern(&set, a, 2, &added), 3);	/* a prefix is another */
	assert_int_equal(kma_seqset_intern(&set, NULL, 0, &added), 4);
	v = kma_seqset_get(&set, 2, &len);
	assert_non_null(v);
	assert_int_equal(len, 3);
	assert_int_equal(v[2], 4);
	assert_null(kma_seqset_get(&set, 5, &len));
	assert_null(kma_seqset_get(&set, 0, &len));
	/* growth: 1000 more, each found again with its values */
	for (i = 0; i < 64; i++)
		big[i] = i * 7919;
	for (i = 0; i < 1000; i++) {
		big[0] = 1000000 + i;	/* a first value no other has */
		big[1 + i % 63] ^= i;
		id = kma_seqset_intern(&set, big, 1 + i % 64, &added);
		assert_int_equal(id, 5 + i);
		v = kma_seqset_get(&set, id, &len);
		assert_int_equal(len, 1 + i % 64);
		assert_memory_equal(v, big, len * sizeof(*v));
	}
	assert_int_equal(kma_seqset_count(&set), 1004);
	assert_int_equal(kma_seqset_hash(&set, 1), kma_seq_hash(a, 3));
	kma_seqset_release(&set);
}

static struct kma_sites *sites;

static int setup(void **state)
{
	(void)state;
	sites = kma_sites_alloc(ksyms, strlen(ksyms), NULL, NULL);
	return sites ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	kma_sites_free(sites);
	return 0;
}

static uint32_t intern(struct kma_stacks *st, const uint64_t *a, uint32_t n)
{
	uint32_t id = 99;

	assert_int_equal(kma_stacks_intern(st, a, n, &id), 0);
	return id;
}

static void stacks_trim_and_fold(void **state)
{
	struct kma_stacks *st = kma_stacks_alloc(sites);
	uint64_t s1[] = { TR(0x50), KM(0x20), AA(0x10), SX(0x5), EN(0x8) };
	uint64_t s2[] = { TR(0x54), KM(0x20), AA(0x10), SX(0x5), EN(0x8) };	/* tracing offset */
	uint64_t s3[] = { TR(0x50), KM(0x20), AA(0x18), SX(0x5), EN(0x8) };	/* alloc_a offset */
	uint64_t s4[] = { KM(0x20), AA(0x10) };				/* no tracing frame */
	uint64_t s5[] = { TR(0x50) };						/* all tracing */
	uint64_t s6[] = { PT(0x10), KM(0x20), 0xffffffff90000000ULL };	/* unnamed frame */
	struct kma_stack k;

	(void)state;
	assert_non_null(st);
	assert_int_equal(intern(st, s1, 5), 1);
	assert_int_equal(kma_stacks_get(st, 1, &k), 0);
	assert_int_equal(k.depth, 4);			/* the tracing frame dropped */
	assert_int_equal(k.addrs[0], KM(0x20));
	assert_int_equal(k.addrs[3], EN(0x8));
	assert_string_equal(k.folded, "entry_x;sys_x;alloc_a;__kmalloc_noprof");
	/* the same frames once trimmed: the same stack */
	assert_int_equal(intern(st, s2, 5), 1);
	assert_int_equal(intern(st, s1, 5), 1);
	/* another offset: another stack, the same folded name (one pointer) */
	assert_int_equal(intern(st, s3, 5), 2);
	assert_ptr_equal(kma_stacks_folded(st, 2), kma_stacks_folded(st, 1));
	assert_int_equal(intern(st, s4, 2), 3);
	assert_string_equal(kma_stacks_folded(st, 3), "alloc_a;__kmalloc_noprof");
	assert_int_equal(intern(st, s5, 1), 0);	/* nothing left: no stack */
	assert_int_equal(intern(st, s1, 0), 0);
	assert_int_equal(intern(st, s6, 3), 4);	/* trimmed at the perf_trace_ frame */
	assert_string_equal(kma_stacks_folded(st, 4), "0xffffffff90000000;__kmalloc_noprof");
	assert_int_equal(kma_stacks_count(st), 4);
	assert_string_equal(kma_stacks_folded(st, 0), KMA_NO_STACK);
	assert_int_equal(kma_stacks_get(st, 5, &k), -1);
	assert_int_equal(kma_stacks_get(st, 0, &k), -1);
	kma_stacks_free(st);
}

/* The vmalloc functions of Linux 6.18 and their callers, 0x100 apart from 0xffffffff82000000. */
static const char vsyms[] =
	"ffffffff82000000 T _stext\n"
	"ffffffff82000100 t trace_event_raw_event_alloc_vmap_area\n"
	"ffffffff82000200 t alloc_vmap_area\n"
	"ffffffff82000300 t __get_vm_area_node\n"
	"ffffffff82000400 T __vmalloc_node_range_noprof\n"
	"ffffffff82000500 T __vmalloc_node_noprof\n"
	"ffffffff82000600 T copy_process\n"
	"ffffffff82000700 T get_vm_area_caller\n"
	"ffffffff82000800 T __ioremap_caller\n"
	"ffffffff82000900 T vm_map_ram\n"
	"ffffffff82000a00 T __kvmalloc_node_noprof\n"
	"ffffffff82000b00 T execmem_alloc\n"
	"ffffffff82000c00 T module_memory_alloc\n"
	"ffffffff82000d00 T vmap_nothing_alike\n"
	"ffffffff82000e00 T vmallocinfo_user\n"
	"ffffffff82000f00 T _etext\n";

#define VF(i, o)	(0xffffffff82000000ULL + (i) * 0x100 + (o))

/* kma_stacks_vmap_caller: the first frame outside the vmalloc allocator. */
static void stacks_vmap_caller(void **state)
{
	struct kma_sites *vs = kma_sites_alloc(vsyms, strlen(vsyms), NULL, NULL);
	struct kma_stacks *st = vs ? kma_stacks_alloc(vs) : NULL;
	/* fork's thread stack: tracing, alloc_vmap_area, 3 vmalloc frames, copy_process */
	uint64_t fork[] = { VF(1, 8), VF(2, 8), VF(3, 8), VF(4, 8), VF(5, 8), VF(6, 8) };
	uint64_t io[] = { VF(1, 8), VF(2, 8), VF(3, 8), VF(7, 8), VF(8, 8) };
	uint64_t kv[] = { VF(2, 8), VF(4, 8), VF(10, 8), VF(6, 8) };
	uint64_t ex[] = { VF(2, 8), VF(4, 8), VF(11, 8), VF(12, 8) };
	uint64_t ram[] = { VF(1, 8), VF(2, 8), VF(9, 8) };	/* all inside: the outermost */
	uint64_t alike[] = { VF(2, 8), VF(13, 8), VF(6, 8) };
	uint64_t nosym[] = { VF(2, 8), 0xffffffff90000000ULL, VF(6, 8) };

	(void)state;
	assert_non_null(st);
	assert_string_equal(kma_stacks_vmap_caller(st, intern(st, fork, 6)), "copy_process");
	assert_string_equal(kma_stacks_vmap_caller(st, intern(st, io, 5)), "__ioremap_caller");
	assert_string_equal(kma_stacks_vmap_caller(st, intern(st, kv, 4)), "copy_process");
	assert_string_equal(kma_stacks_vmap_caller(st, intern(st, ex, 4)), "module_memory_alloc");
	assert_string_equal(kma_stacks_vmap_caller(st, intern(st, ram, 3)), "vm_map_ram");
	/* a prefix match: vmap* is the allocator's, whatever follows */
	assert_string_equal(kma_stacks_vmap_caller(st, intern(st, alike, 3)), "copy_process");
	/* an address no symbol covers is outside the allocator: the caller */
	assert_string_equal(kma_stacks_vmap_caller(st, intern(st, nosym, 3)),
			    "0xffffffff90000000");
	assert_string_equal(kma_stacks_vmap_caller(st, 0), KMA_NO_STACK);
	/* asked twice: one pointer */
	assert_ptr_equal(kma_stacks_vmap_caller(st, 1), kma_stacks_vmap_caller(st, 1));
	/* the page allocator's rule is another: fork's stack names alloc_vmap_area there */
	assert_string_equal(kma_stacks_page_caller(st, 1), "alloc_vmap_area");
	kma_stacks_free(st);
	kma_sites_free(vs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seqset_interns),
		cmocka_unit_test_setup_teardown(stacks_trim_and_fold, setup, teardown),
		cmocka_unit_test(stacks_vmap_caller),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
