// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the pairing rules (lib/kma-pairs): one test per rule, then
 * slot reuse, growth, the walk, the clear, a hand-built sequence whose
 * results are worked out by hand, random events against a reference, and
 * keys whose hashes are the same in the bits the index keeps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kma-event.h"
#include "kma-map.h"
#include "kma-pairs.h"

#define P1	0xffff888000001000ULL
#define P2	0xffff888000002000ULL
#define P3	0xffff888000003000ULL

/* A payload as a caller would have it: what it prints or accounts. */
struct rec {
	uint64_t	call_site;
	uint32_t	tag;
	int		kind;
};

static struct kma_pairs *new_set(size_t hint)
{
	struct kma_pairs *p = kma_pairs_alloc(sizeof(struct rec), hint);

	assert_non_null(p);
	return p;
}

/* Feeds an allocation at ptr and tags the new payload; returns the kind. */
static enum kma_pair_kind alloc_at(struct kma_pairs *p, uint64_t ptr, uint32_t tag,
				   struct kma_pair *pr)
{
	assert_int_equal(kma_pairs_on_alloc(p, ptr, pr), 0);
	if (pr->live)
		((struct rec *)pr->live)->tag = tag;
	return pr->kind;
}

static void test_zero_payload(void **state)
{
	assert_null(kma_pairs_alloc(0, 16));
}

/* an allocation at pointer 0 failed: nothing becomes live */
static void test_failed(void **state)
{
	struct kma_pairs *p = new_set(0);
	struct kma_pair pr;

	assert_int_equal(alloc_at(p, 0, 1, &pr), KMA_PAIR_FAILED);
	assert_null(pr.live);
	assert_null(pr.old);
	assert_int_equal(kma_pairs_count(p), 0);
	assert_null(kma_pairs_find(p, 0));
	kma_pairs_free(p);
}

/* a new allocation is live, its payload writable, found by its pointer */
static void test_new(void **state)
{
	struct kma_pairs *p = new_set(0);
	struct kma_pair pr;
	struct rec *r;

	assert_int_equal(kma_pairs_on_alloc(p, P1, &pr), 0);
	assert_int_equal(pr.kind, KMA_PAIR_NEW);
	assert_null(pr.old);
	assert_non_null(pr.live);
	r = pr.live;
	r->call_site = 0x1234;
	r->tag = 7;
	assert_ptr_equal(kma_pairs_find(p, P1), r);
	assert_null(kma_pairs_find(p, P2));
	assert_int_equal(kma_pairs_count(p), 1);
	kma_pairs_free(p);
}

/* an allocation at a live pointer: the caller gets the old one, the new one takes its place */
static void test_implicit(void **state)
{
	struct kma_pairs *p = new_set(0);
	struct kma_pair pr;
	const struct rec *old;
	struct rec *r;

	alloc_at(p, P1, 1, &pr);
	((struct rec *)pr.live)->call_site = 0xa;
	assert_int_equal(alloc_at(p, P1, 2, &pr), KMA_PAIR_IMPLICIT);
	old = pr.old;
	assert_non_null(old);
	assert_int_equal(old->tag, 1);
	assert_int_equal(old->call_site, 0xa);
	/* the new payload is the caller's to fill, and apart from old */
	r = pr.live;
	assert_non_null(r);
	assert_ptr_not_equal(r, old);
	assert_int_equal(r->tag, 2);
	assert_int_equal(kma_pairs_count(p), 1);
	assert_ptr_equal(kma_pairs_find(p, P1), r);
	/* the next free closes the new one */
	kma_pairs_on_free(p, P1, &pr);
	assert_int_equal(pr.kind, KMA_PAIR_FREED);
	assert_int_equal(((const struct rec *)pr.old)->tag, 2);
	assert_int_equal(kma_pairs_count(p), 0);
	kma_pairs_free(p);
}

/* a free of a live pointer closes it; a second free of it is unknown */
static void test_freed_then_unknown(void **state)
{
	struct kma_pairs *p = new_set(0);
	struct kma_pair pr;

	alloc_at(p, P1, 1, &pr);
	alloc_at(p, P2, 2, &pr);
	kma_pairs_on_free(p, P1, &pr);
	assert_int_equal(pr.kind, KMA_PAIR_FREED);
	assert_null(pr.live);
	assert_int_equal(((const struct rec *)pr.old)->tag, 1);
	assert_null(kma_pairs_find(p, P1));
	assert_int_equal(kma_pairs_count(p), 1);
	kma_pairs_on_free(p, P1, &pr);
	assert_int_equal(pr.kind, KMA_PAIR_UNKNOWN);
	assert_null(pr.old);
	assert_null(pr.live);
	/* never allocated at all */
	kma_pairs_on_free(p, P3, &pr);
	assert_int_equal(pr.kind, KMA_PAIR_UNKNOWN);
	assert_int_equal(kma_pairs_count(p), 1);
	kma_pairs_free(p);
}

/* frees up to KMA_NULL_PTR_MAX are null frees, even of something live there */
static void test_null(void **state)
{
	struct kma_pairs *p = new_set(0);
	struct kma_pair pr;
	uint64_t ptr;

	for (ptr = 0; ptr <= KMA_NULL_PTR_MAX; ptr++) {
		kma_pairs_on_free(p, ptr, &pr);
		assert_int_equal(pr.kind, KMA_PAIR_NULL);
		assert_null(pr.old);
	}
	kma_pairs_on_free(p, KMA_NULL_PTR_MAX + 1, &pr);
	assert_int_equal(pr.kind, KMA_PAIR_UNKNOWN);
	/* an allocation at 0x8 (only 0 fails) is live, and a free there is still null */
	assert_int_equal(alloc_at(p, 0x8, 1, &pr), KMA_PAIR_NEW);
	kma_pairs_on_free(p, 0x8, &pr);
	assert_int_equal(pr.kind, KMA_PAIR_NULL);
	assert_int_equal(kma_pairs_count(p), 1);
	kma_pairs_free(p);
}

/* the set never looks at kinds: a kfree closes a kmem_cache_alloc and the other way round */
static void test_any_kind(void **state)
{
	struct kma_pairs *p = new_set(0);
	struct kma_pair pr;

	alloc_at(p, P1, 1, &pr);
	((struct rec *)pr.live)->kind = KMA_EV_CACHE_ALLOC;
	alloc_at(p, P2, 2, &pr);
	((struct rec *)pr.live)->kind = KMA_EV_KMALLOC;
	kma_pairs_on_free(p, P1, &pr);		/* as kfree */
	assert_int_equal(pr.kind, KMA_PAIR_FREED);
	assert_int_equal(((const struct rec *)pr.old)->kind, KMA_EV_CACHE_ALLOC);
	kma_pairs_on_free(p, P2, &pr);		/* as kmem_cache_free */
	assert_int_equal(pr.kind, KMA_PAIR_FREED);
	assert_int_equal(((const struct rec *)pr.old)->kind, KMA_EV_KMALLOC);
	kma_pairs_free(p);
}

/* closed slots are reused, the latest closed first: memory follows live allocations */
static void test_slot_reuse(void **state)
{
	struct kma_pairs *p = new_set(4);
	struct kma_pair pr;
	void *a, *b, *c, *d = NULL;
	uint64_t i;

	alloc_at(p, P1, 1, &pr);
	a = pr.live;
	alloc_at(p, P2, 2, &pr);
	b = pr.live;
	alloc_at(p, P3, 3, &pr);
	c = pr.live;
	kma_pairs_on_free(p, P2, &pr);
	alloc_at(p, P2 + 64, 4, &pr);
	assert_ptr_equal(pr.live, b);
	kma_pairs_on_free(p, P1, &pr);
	kma_pairs_on_free(p, P3, &pr);
	alloc_at(p, P1 + 64, 5, &pr);		/* P3's slot: closed last */
	assert_ptr_equal(pr.live, c);
	alloc_at(p, P3 + 64, 6, &pr);		/* then P1's */
	assert_ptr_equal(pr.live, a);
	/* an implicit free hands its slot straight to the new allocation */
	alloc_at(p, P3 + 64, 7, &pr);
	assert_ptr_equal(pr.live, a);
	/* 100000 allocations with never more than 4 live: all of them in one fourth slot */
	for (i = 0; i < 100000; i++) {
		alloc_at(p, 0xffff889000000000ULL + i * 64, (uint32_t)i, &pr);
		if (!i)
			d = pr.live;
		assert_ptr_equal(pr.live, d);
		assert_true(d != a && d != b && d != c);
		kma_pairs_on_free(p, 0xffff889000000000ULL + i * 64, &pr);
		assert_int_equal(pr.kind, KMA_PAIR_FREED);
		assert_int_equal(((const struct rec *)pr.old)->tag, (uint32_t)i);
	}
	assert_int_equal(kma_pairs_count(p), 3);
	kma_pairs_free(p);
}

/* growth from the smallest set keeps every payload with its pointer */
static void test_growth(void **state)
{
	struct kma_pairs *p = new_set(0);
	struct kma_pair pr;
	uint32_t i;

	for (i = 0; i < 50000; i++) {
		assert_int_equal(alloc_at(p, P1 + (uint64_t)i * 32, i, &pr), KMA_PAIR_NEW);
		((struct rec *)pr.live)->call_site = (uint64_t)i * 3;
	}
	assert_int_equal(kma_pairs_count(p), 50000);
	for (i = 0; i < 50000; i++) {
		const struct rec *r = kma_pairs_find(p, P1 + (uint64_t)i * 32);

		assert_non_null(r);
		assert_int_equal(r->tag, i);
		assert_int_equal(r->call_site, (uint64_t)i * 3);
	}
	kma_pairs_free(p);
}

/* the walk: every live allocation once, writable payloads; the same events, the same order */
static void test_walk(void **state)
{
	static uint8_t seen[1000];
	struct kma_pairs *p = new_set(0), *q = new_set(0);
	struct kma_pair pr;
	struct rec *r, *s;
	size_t pos = 0, qpos = 0, nr = 0;
	uint64_t ptr, qptr;
	uint32_t i;

	assert_null(kma_pairs_next(p, &pos, &ptr));
	for (i = 0; i < 1000; i++) {
		alloc_at(p, P1 + (uint64_t)i * 16, i, &pr);
		alloc_at(q, P1 + (uint64_t)i * 16, i, &pr);
	}
	/* every fourth freed, every fifth allocated again (implicit at those still live) */
	for (i = 0; i < 1000; i += 4) {
		kma_pairs_on_free(p, P1 + (uint64_t)i * 16, &pr);
		kma_pairs_on_free(q, P1 + (uint64_t)i * 16, &pr);
	}
	for (i = 0; i < 1000; i += 5) {
		alloc_at(p, P1 + (uint64_t)i * 16, i + 1000, &pr);
		alloc_at(q, P1 + (uint64_t)i * 16, i + 1000, &pr);
	}
	pos = 0;
	while ((r = kma_pairs_next(p, &pos, &ptr))) {
		i = (uint32_t)((ptr - P1) / 16);
		assert_true(i < 1000);
		assert_int_equal(seen[i], 0);
		seen[i] = 1;
		/* allocated again: tag i + 1000; else freed (not walked) or the first tag */
		assert_int_equal(r->tag, i % 5 ? i : i + 1000);
		assert_true(i % 4 || !(i % 5));
		r->call_site = ptr;
		nr++;
	}
	/* 1000 - 250 freed + 50 multiples of 20 allocated again = 800 */
	assert_int_equal(nr, 800);
	assert_int_equal(kma_pairs_count(p), 800);
	/* what the walk wrote is there */
	r = kma_pairs_find(p, P1 + 16);
	assert_non_null(r);
	assert_int_equal(r->call_site, P1 + 16);
	/* q had the same events: the same order; the pointer is optional */
	pos = 0;
	while ((r = kma_pairs_next(p, &pos, &ptr))) {
		s = kma_pairs_next(q, &qpos, &qptr);
		assert_non_null(s);
		assert_int_equal(ptr, qptr);
	}
	assert_null(kma_pairs_next(q, &qpos, NULL));
	kma_pairs_free(p);
	kma_pairs_free(q);
}

/* an implicit free leaves the walk as a free then an allocation would */
static void test_walk_implicit_order(void **state)
{
	struct kma_pairs *p = new_set(0), *q = new_set(0);
	struct kma_pair pr;
	size_t pp = 0, qp = 0;
	uint64_t a, b;
	uint32_t i;

	for (i = 0; i < 12; i++) {	/* 12 of a 16-slot table: clusters to shift */
		alloc_at(p, P1 + (uint64_t)i * 8, i, &pr);
		alloc_at(q, P1 + (uint64_t)i * 8, i, &pr);
	}
	for (i = 0; i < 12; i += 2) {
		assert_int_equal(alloc_at(p, P1 + (uint64_t)i * 8, i, &pr), KMA_PAIR_IMPLICIT);
		kma_pairs_on_free(q, P1 + (uint64_t)i * 8, &pr);
		assert_int_equal(alloc_at(q, P1 + (uint64_t)i * 8, i, &pr), KMA_PAIR_NEW);
	}
	while (kma_pairs_next(p, &pp, &a)) {
		assert_non_null(kma_pairs_next(q, &qp, &b));
		assert_int_equal(a, b);
	}
	assert_null(kma_pairs_next(q, &qp, &b));
	kma_pairs_free(p);
	kma_pairs_free(q);
}

/* after a clear nothing is live, frees are unknown, and the set works again */
static void test_clear(void **state)
{
	struct kma_pairs *p = new_set(0);
	struct kma_pair pr;
	size_t pos = 0;
	uint32_t i;

	for (i = 0; i < 100; i++)
		alloc_at(p, P1 + (uint64_t)i * 64, i, &pr);
	kma_pairs_clear(p);
	assert_int_equal(kma_pairs_count(p), 0);
	assert_null(kma_pairs_next(p, &pos, NULL));
	pos = 0;
	assert_null(kma_pairs_next_in_memory(p, &pos));
	assert_null(kma_pairs_find(p, P1));
	kma_pairs_on_free(p, P1, &pr);
	assert_int_equal(pr.kind, KMA_PAIR_UNKNOWN);
	assert_int_equal(alloc_at(p, P1, 1, &pr), KMA_PAIR_NEW);
	assert_int_equal(alloc_at(p, P1, 2, &pr), KMA_PAIR_IMPLICIT);
	assert_int_equal(((const struct rec *)pr.old)->tag, 1);
	assert_int_equal(kma_pairs_count(p), 1);
	pos = 0;	/* after a clear the walk in memory sees the new one only */
	assert_int_equal(((const struct rec *)kma_pairs_next_in_memory(p, &pos))->tag, 2);
	assert_null(kma_pairs_next_in_memory(p, &pos));
	kma_pairs_clear(p);
	kma_pairs_clear(p);		/* twice is harmless */
	assert_int_equal(kma_pairs_count(p), 0);
	kma_pairs_free(p);
	kma_pairs_free(NULL);		/* as free(NULL) */
}

/*
 * A trace by hand. Each step: the event, what it must be, the tag of the
 * payload it closes (steps are tagged by their index), and how many are
 * live after it.
 */
static void test_sequence(void **state)
{
	static const struct {
		int		free;
		uint64_t	ptr;
		int		kind;
		int		old_tag;	/* -1: nothing closed */
		size_t		live;
	} steps[] = {
		{ 0, P1,   KMA_PAIR_NEW,      -1, 1 },	/* 0 */
		{ 0, P2,   KMA_PAIR_NEW,      -1, 2 },	/* 1 */
		{ 1, P1,   KMA_PAIR_FREED,     0, 1 },	/* 2: closes step 0 */
		{ 1, P1,   KMA_PAIR_UNKNOWN,  -1, 1 },	/* 3: P1 is gone */
		{ 0, 0,    KMA_PAIR_FAILED,   -1, 1 },	/* 4 */
		{ 1, 0,    KMA_PAIR_NULL,     -1, 1 },	/* 5 */
		{ 0, P2,   KMA_PAIR_IMPLICIT,  1, 1 },	/* 6: P2 still live from step 1 */
		{ 0, P3,   KMA_PAIR_NEW,      -1, 2 },	/* 7 */
		{ 1, 0x10, KMA_PAIR_NULL,     -1, 2 },	/* 8: ZERO_SIZE_PTR */
		{ 1, P2,   KMA_PAIR_FREED,     6, 1 },	/* 9: the allocation of step 6 */
		{ 1, 0x11, KMA_PAIR_UNKNOWN,  -1, 1 },	/* 10: past the null limit */
		{ 0, P1,   KMA_PAIR_NEW,      -1, 2 },	/* 11: P1 again, after its free */
		{ 0, P3,   KMA_PAIR_IMPLICIT,  7, 2 },	/* 12 */
		{ 0, P3,   KMA_PAIR_IMPLICIT, 12, 2 },	/* 13 */
		{ 1, P3,   KMA_PAIR_FREED,    13, 1 },	/* 14 */
		{ 1, P1,   KMA_PAIR_FREED,    11, 0 },	/* 15 */
		{ 1, P2,   KMA_PAIR_UNKNOWN,  -1, 0 },	/* 16 */
	};
	struct kma_pairs *p = new_set(0);
	struct kma_pair pr;
	size_t i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (steps[i].free)
			kma_pairs_on_free(p, steps[i].ptr, &pr);
		else
			alloc_at(p, steps[i].ptr, (uint32_t)i, &pr);
		assert_int_equal(pr.kind, steps[i].kind);
		if (steps[i].old_tag < 0) {
			assert_null(pr.old);
		} else {
			assert_non_null(pr.old);
			assert_int_equal(((const struct rec *)pr.old)->tag, steps[i].old_tag);
		}
		assert_int_equal(kma_pairs_count(p), steps[i].live);
	}
	kma_pairs_free(p);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The walk in memory's order gives every live payload once, none other: the
 * tags it yields, sorted, are the reference's live tags, sorted.
 */
static void check_walk_in_memory(const struct kma_pairs *p, const int32_t *ref, size_t n)
{
	uint32_t *want = calloc(n + 1, sizeof(*want)), *got = calloc(n + 1, sizeof(*got));
	size_t nw = 0, ng = 0, k, pos = 0;
	const struct rec *r;

	assert_non_null(want);
	assert_non_null(got);
	for (k = 0; k < n; k++)
		if (ref[k])
			want[nw++] = (uint32_t)(ref[k] - 1);
	while ((r = kma_pairs_next_in_memory(p, &pos))) {
		assert_true(ng < nw);
		got[ng++] = r->tag;
	}
	assert_null(kma_pairs_next_in_memory(p, &pos));	/* stays at the end */
	assert_int_equal(ng, nw);
	qsort(want, nw, sizeof(*want), cmp_u32);
	qsort(got, ng, sizeof(*got), cmp_u32);
	assert_memory_equal(want, got, nw * sizeof(*want));
	free(want);
	free(got);
}

/*
 * One random event at @ptr, tagged @i, against the reference: *@ref is the
 * tag + 1 of the allocation live there (0: none), *@nr how many are live.
 */
static void random_step(struct kma_pairs *p, uint64_t ptr, uint32_t i, int32_t *ref,
			size_t *nr)
{
	struct kma_pair pr;

	if (rand() % 2) {
		alloc_at(p, ptr, i, &pr);
		assert_int_equal(pr.kind, *ref ? KMA_PAIR_IMPLICIT : KMA_PAIR_NEW);
		if (*ref)
			assert_int_equal(((const struct rec *)pr.old)->tag, *ref - 1);
		*nr += !*ref;
		*ref = (int32_t)i + 1;
	} else {
		kma_pairs_on_free(p, ptr, &pr);
		assert_int_equal(pr.kind, *ref ? KMA_PAIR_FREED : KMA_PAIR_UNKNOWN);
		if (*ref)
			assert_int_equal(((const struct rec *)pr.old)->tag, *ref - 1);
		*nr -= !!*ref;
		*ref = 0;
	}
	assert_int_equal(kma_pairs_count(p), *nr);
}

/* random events against a direct-indexed reference of what is live */
static void test_random(void **state)
{
	enum { N = 2000 };
	static int32_t ref[N];		/* tag + 1 of the live allocation, 0: none */
	struct kma_pairs *p = new_set(0);
	size_t nr = 0;
	uint32_t i;
	int k;

	srand(7);
	for (i = 1; i < 300000; i++) {
		k = rand() % N;
		random_step(p, P1 + (uint64_t)k * 64, i, &ref[k], &nr);
		if (i % 4999 == 0)
			check_walk_in_memory(p, ref, N);
	}
	check_walk_in_memory(p, ref, N);
	for (k = 0; k < N; k++) {
		const struct rec *r = kma_pairs_find(p, P1 + (uint64_t)k * 64);

		if (ref[k]) {
			assert_non_null(r);
			assert_int_equal(r->tag, ref[k] - 1);
		} else {
			assert_null(r);
		}
	}
	kma_pairs_free(p);
}

/* kma_map_mix()'s inverse: the key that hashes to @h */
static uint64_t unmix(uint64_t h)
{
	uint64_t c = 0xff51afd7ed558ccdULL, inv = c;
	int i;

	for (i = 0; i < 6; i++)	/* Newton: c * inv == 1 mod 2^64 */
		inv *= 2 - c * inv;
	h ^= h >> 33;
	h *= inv;
	h ^= h >> 33;
	return h;
}

/*
 * Keys whose hashes differ only in their high 32 bits share the index's
 * stored hash and home slot at every size: told apart by the keys in the
 * slab alone, against a reference, frees shifting the cluster back.
 */
static void test_hash_collision(void **state)
{
	enum { N = 16 };
	uint64_t key[N];
	int32_t ref[N] = { 0 };		/* tag + 1 of the live allocation, 0: none */
	struct kma_pairs *p = new_set(0);
	size_t nr = 0;
	uint32_t i;
	int k;

	for (k = 0; k < N; k++) {
		/* half collide with each other, half are ordinary pointers */
		key[k] = k % 2 ? unmix((uint64_t)(k + 1) << 32 | 0x2468ace0u) : P1 + (uint64_t)k * 64;
		if (k % 2)
			assert_int_equal(kma_map_mix(key[k]), (uint64_t)(k + 1) << 32 | 0x2468ace0u);
	}
	srand(11);
	for (i = 1; i < 50000; i++) {
		k = rand() % N;
		random_step(p, key[k], i, &ref[k], &nr);
		for (k = 0; k < N; k++) {
			const struct rec *r = kma_pairs_find(p, key[k]);

			if (ref[k])
				assert_int_equal(r ? (int32_t)r->tag : -1, ref[k] - 1);
			else
				assert_null(r);
		}
	}
	check_walk_in_memory(p, ref, N);
	kma_pairs_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_payload),
		cmocka_unit_test(test_failed),
		cmocka_unit_test(test_new),
		cmocka_unit_test(test_implicit),
		cmocka_unit_test(test_freed_then_unknown),
		cmocka_unit_test(test_null),
		cmocka_unit_test(test_any_kind),
		cmocka_unit_test(test_slot_reuse),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_walk_implicit_order),
		cmocka_unit_test(test_clear),
		cmocka_unit_test(test_sequence),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_hash_collision),
	};

	return cmocka_run_group_tests_name("pairs", tests, NULL, NULL);
}
