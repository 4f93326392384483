// SPDX-License-Identifier: GPL-2.0
/*
 * kma-pairs.c - the live set behind the pairing rules (kma-pairs.h).
 *
 * Payloads sit in a slab of fixed-size slots indexed by a ptr -> slot
 * index. A closed allocation's slot goes on a stack of free slots and the
 * next new allocation takes the top one, so the slab only grows with the
 * number of allocations live at once.
 *
 * The index is kma_map's table (open addressing, linear probing,
 * backward-shift deletion, the same hash, sizes and growth, so the same
 * slot order for kma_pairs_next()) in 8 bytes a slot instead of 16: the
 * key's hash and the slab slot, the key itself kept in the slab beside its
 * payload. Every event probes the index at random, and it is the biggest
 * table a run touches that way: half the bytes keep twice the live
 * allocations within the caches' and the TLB's reach. A key is compared
 * only where the hash matches, that is where it is found (a free then
 * reads its payload next to it anyway), or on a hash collision.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kma-event.h"
#include "kma-huge.h"
#include "kma-map.h"
#include "kma-pairs.h"

#define SLAB_MIN	16
/* bytes of a bitmap of n slots */
#define BITS_LEN(n)	(((size_t)(n) + 63) / 64 * sizeof(uint64_t))

/*
 * The low half of the hash is the whole home: the slab stops short of 2^31
 * slots, so the index, at most three quarters full, never passes 2^32.
 */
struct ix_slot {
	uint32_t	hash;		/* kma_map_mix(key)'s low half: its home slot */
	uint32_t	slot1;		/* the slab slot + 1; 0: empty */
};

struct kma_pairs {
	struct ix_slot	*ix;		/* ptr -> slot */
	size_t		nr_ix;		/* a power of two */
	size_t		nr;		/* live allocations: used index slots */
	unsigned char	*slab;		/* cap slots of stride bytes: the ptr, the payload */
	uint32_t	*free_slots;	/* closed slots, most recent last */
	uint32_t	fcap;		/* free_slots' room (kma_huge_alloc) */
	uint64_t	*live_bits;	/* bit per slot: holds a live allocation */
	uint32_t	nr_free;
	uint32_t	nr_used;	/* slots handed out at least once */
	uint32_t	cap;
	size_t		size;		/* payload bytes */
	size_t		stride;		/* 8 + size, a multiple of 8 */
	size_t		hint;
	unsigned char	*closed;	/* the copy behind kma_pair.old */
};

static inline uint64_t *key_at(const struct kma_pairs *p, uint32_t slot)
{
	return (uint64_t *)(void *)(p->slab + (size_t)slot * p->stride);
}

static inline void *slot_at(const struct kma_pairs *p, uint32_t slot)
{
	return p->slab + (size_t)slot * p->stride + sizeof(uint64_t);
}

static inline uint32_t hash_of(uint64_t ptr)
{
	return (uint32_t)kma_map_mix(ptr);
}

/* An index of at least 16 slots, twice @hint or more. */
static struct ix_slot *ix_alloc(size_t hint, size_t *n)
{
	struct ix_slot *ix;

	for (*n = 16; *n < hint * 2; *n *= 2)
		;
	/* random lookups in megabytes: on huge pages (kma-huge.c) */
	ix = kma_huge_alloc(*n * sizeof(*ix));
	if (ix)
		kma_huge_touch(ix, *n * sizeof(*ix));
	return ix;
}

/* The index slot of @ptr, or NULL. */
static struct ix_slot *ix_find(const struct kma_pairs *p, uint64_t ptr)
{
	size_t mask = p->nr_ix - 1, i;
	uint32_t h = hash_of(ptr);
	struct ix_slot *s;

	for (i = h & mask; (s = &p->ix[i])->slot1; i = (i + 1) & mask)
		if (s->hash == h && *key_at(p, s->slot1 - 1) == ptr)
			return s;
	return NULL;
}

/* Twice the slots, each entry at its home or the first free slot after. */
static int ix_grow(struct kma_pairs *p)
{
	size_t n, mask, i, j;
	struct ix_slot *ix = ix_alloc(p->nr_ix, &n);

	if (!ix)
		return -1;
	mask = n - 1;
	for (i = 0; i < p->nr_ix; i++) {
		if (!p->ix[i].slot1)
			continue;
		for (j = p->ix[i].hash & mask; ix[j].slot1; j = (j + 1) & mask)
			;
		ix[j] = p->ix[i];
	}
	kma_huge_free(p->ix, p->nr_ix * sizeof(*p->ix));
	p->ix = ix;
	p->nr_ix = n;
	return 0;
}

/* @ptr, known to be absent, into @slot: its key written beside the payload. */
static int ix_put_new(struct kma_pairs *p, uint64_t ptr, uint32_t slot)
{
	size_t mask, i;
	uint32_t h = hash_of(ptr);

	if ((p->nr + 1) * 4 > p->nr_ix * 3 && ix_grow(p))
		return -1;
	mask = p->nr_ix - 1;
	for (i = h & mask; p->ix[i].slot1; i = (i + 1) & mask)
		;
	p->ix[i].hash = h;
	p->ix[i].slot1 = slot + 1;
	p->nr++;
	*key_at(p, slot) = ptr;
	return 0;
}

static void ix_del(struct kma_pairs *p, struct ix_slot *s)
{
	size_t mask = p->nr_ix - 1, i = (size_t)(s - p->ix), j, home;

	/* Backward-shift: pull later entries of the cluster into the hole. */
	for (j = (i + 1) & mask; p->ix[j].slot1; j = (j + 1) & mask) {
		home = p->ix[j].hash & mask;
		/* Move j into i if its home is not cyclically in (i, j]. */
		if ((j > i && (home <= i || home > j)) || (j < i && (home <= i && home > j))) {
			p->ix[i] = p->ix[j];
			i = j;
		}
	}
	p->ix[i].slot1 = 0;
	p->nr--;
}

struct kma_pairs *kma_pairs_alloc(size_t payload_size, size_t hint)
{
	struct kma_pairs *p;

	if (!payload_size) {
		errno = EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->size = payload_size;
	p->stride = sizeof(uint64_t) + (payload_size + 7) / 8 * 8;
	p->hint = hint;
	p->closed = malloc(payload_size);
	p->ix = p->closed ? ix_alloc(hint, &p->nr_ix) : NULL;
	if (!p->ix) {
		free(p->closed);
		free(p);
		return NULL;
	}
	return p;
}

void kma_pairs_free(struct kma_pairs *p)
{
	if (!p)
		return;
	kma_huge_free(p->ix, p->nr_ix * sizeof(*p->ix));
	kma_huge_free(p->slab, (size_t)p->cap * p->stride);
	kma_huge_free(p->free_slots, (size_t)p->fcap * sizeof(*p->free_slots));
	free(p->live_bits);
	free(p->closed);
	free(p);
}

/* A slot for a new allocation: the latest closed one, else a fresh one. */
static int take_slot(struct kma_pairs *p, uint32_t *slot)
{
	if (p->nr_free) {
		*slot = p->free_slots[--p->nr_free];
		return 0;
	}
	if (p->nr_used == p->cap) {
		uint32_t cap;
		size_t want;
		unsigned char *slab;
		uint32_t *f;
		uint64_t *b;

		if (p->cap >= UINT32_MAX / 2) {
			errno = ENOMEM;
			return -1;
		}
		cap = p->cap ? p->cap * 2 : (p->hint > SLAB_MIN && p->hint < UINT32_MAX / 2 ?
					     (uint32_t)p->hint : SLAB_MIN);
		/* on huge pages from 2 MB on, and from a growing 256 KB (kma-huge.c) */
		want = kma_huge_grow_len((size_t)cap * p->stride);
		cap = (uint32_t)((want + p->stride - 1) / p->stride);
		/*
		 * free_slots never holds more than cap entries. Each array's
		 * size is recorded as it grows, the slab's (cap) last: a
		 * failure leaves every size true.
		 */
		if (cap > p->fcap) {
			size_t fl = kma_huge_grow_len((size_t)cap * sizeof(*f));
			uint32_t fcap = (uint32_t)(fl / sizeof(*f));

			f = kma_huge_realloc(p->free_slots, (size_t)p->fcap * sizeof(*f),
					     (size_t)fcap * sizeof(*f));
			if (!f)
				return -1;
			p->free_slots = f;
			p->fcap = fcap;
		}
		b = realloc(p->live_bits, BITS_LEN(cap));
		if (!b)
			return -1;
		memset((char *)b + BITS_LEN(p->cap), 0, BITS_LEN(cap) - BITS_LEN(p->cap));
		p->live_bits = b;
		slab = kma_huge_realloc(p->slab, (size_t)p->cap * p->stride,
					(size_t)cap * p->stride);
		if (!slab)
			return -1;
		p->slab = slab;
		p->cap = cap;
	}
	*slot = p->nr_used++;
	return 0;
}

/*
 * Takes the live allocation in slot out of the set. out->old is the slot
 * itself after a free: it is not reused before the next kma_pairs_on_alloc().
 * An implicit free hands the slot straight to the new allocation (the free
 * list is a stack), so there out->old is a copy.
 */
static void close_slot(struct kma_pairs *p, struct ix_slot *found, struct kma_pair *out,
		       int copy)
{
	uint32_t slot = found->slot1 - 1;

	if (copy) {
		memcpy(p->closed, slot_at(p, slot), p->size);
		out->old = p->closed;
	} else {
		out->old = slot_at(p, slot);
	}
	ix_del(p, found);
	p->free_slots[p->nr_free++] = slot;
	p->live_bits[slot / 64] &= ~(1ULL << (slot % 64));
}

int kma_pairs_on_alloc(struct kma_pairs *p, uint64_t ptr, struct kma_pair *out)
{
	struct ix_slot *found;
	uint32_t slot;

	out->live = NULL;
	out->old = NULL;
	if (!ptr) {
		out->kind = KMA_PAIR_FAILED;
		return 0;
	}
	found = ix_find(p, ptr);
	out->kind = found ? KMA_PAIR_IMPLICIT : KMA_PAIR_NEW;
	/*
	 * Close, then insert anew (not an overwrite in place): the index's slot
	 * order, which kma_pairs_next() walks, is then the same as for a free
	 * followed by an allocation.
	 */
	if (found)
		close_slot(p, found, out, 1);
	if (take_slot(p, &slot))
		return -1;
	if (ix_put_new(p, ptr, slot)) {
		p->free_slots[p->nr_free++] = slot;
		return -1;
	}
	p->live_bits[slot / 64] |= 1ULL << (slot % 64);
	/* not zeroed: the caller writes every field (a memset here cost 3 % of a run) */
	out->live = slot_at(p, slot);
	return 0;
}

void kma_pairs_on_free(struct kma_pairs *p, uint64_t ptr, struct kma_pair *out)
{
	struct ix_slot *found;

	out->live = NULL;
	out->old = NULL;
	if (ptr <= KMA_NULL_PTR_MAX) {
		out->kind = KMA_PAIR_NULL;
		return;
	}
	found = ix_find(p, ptr);
	if (!found) {
		out->kind = KMA_PAIR_UNKNOWN;
		return;
	}
	out->kind = KMA_PAIR_FREED;
	close_slot(p, found, out, 0);
}

void *kma_pairs_find(const struct kma_pairs *p, uint64_t ptr)
{
	struct ix_slot *s = ix_find(p, ptr);

	return s ? slot_at(p, s->slot1 - 1) : NULL;
}

void kma_pairs_prefetch(const struct kma_pairs *p, uint64_t ptr)
{
	__builtin_prefetch(&p->ix[hash_of(ptr) & (p->nr_ix - 1)]);
}

size_t kma_pairs_count(const struct kma_pairs *p)
{
	return p->nr;
}

void *kma_pairs_next(const struct kma_pairs *p, size_t *pos, uint64_t *ptr)
{
	size_t i;
	uint32_t slot;

	for (i = *pos; i < p->nr_ix; i++) {
		if (!p->ix[i].slot1)
			continue;
		slot = p->ix[i].slot1 - 1;
		if (ptr)
			*ptr = *key_at(p, slot);
		*pos = i + 1;
		return slot_at(p, slot);
	}
	*pos = p->nr_ix;
	return NULL;
}

void *kma_pairs_next_in_memory(const struct kma_pairs *p, size_t *pos)
{
	size_t i = *pos;
	uint64_t w;

	while (i < p->nr_used) {
		w = p->live_bits[i / 64] >> (i % 64);
		if (!w) {	/* none live in the rest of this word */
			i = (i / 64 + 1) * 64;
			continue;
		}
		i += (size_t)__builtin_ctzll(w);
		if (i >= p->nr_used)
			break;
		*pos = i + 1;
		return slot_at(p, (uint32_t)i);
	}
	*pos = i;
	return NULL;
}

void kma_pairs_clear(struct kma_pairs *p)
{
	memset(p->ix, 0, p->nr_ix * sizeof(*p->ix));
	p->nr = 0;
	kma_huge_free(p->slab, (size_t)p->cap * p->stride);
	kma_huge_free(p->free_slots, (size_t)p->fcap * sizeof(*p->free_slots));
	free(p->live_bits);
	p->live_bits = NULL;
	p->slab = NULL;
	p->free_slots = NULL;
	p->fcap = 0;
	p->nr_free = 0;
	p->nr_used = 0;
	p->cap = 0;
}
