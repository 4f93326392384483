// SPDX-License-Identifier: GPL-2.0
/*
 * kma-pairs.c - the live set behind the pairing rules (kma-pairs.h).
 *
 * Payloads sit in a slab of fixed-size slots indexed by a ptr -> slot map.
 * A closed allocation's slot goes on a stack of free slots and the next new
 * allocation takes the top one, so the slab only grows with the number of
 * allocations live at once.
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

struct kma_pairs {
	struct kma_map	map;		/* ptr -> slot */
	unsigned char	*slab;		/* cap slots of size bytes */
	uint32_t	*free_slots;	/* closed slots, most recent last */
	uint32_t	fcap;		/* free_slots' room (kma_huge_alloc) */
	uint64_t	*live_bits;	/* bit per slot: holds a live allocation */
	uint32_t	nr_free;
	uint32_t	nr_used;	/* slots handed out at least once */
	uint32_t	cap;
	size_t		size;		/* payload bytes */
	size_t		hint;
	unsigned char	*closed;	/* the copy behind kma_pair.old */
};

static inline void *slot_at(const struct kma_pairs *p, uint32_t slot)
{
	return p->slab + (size_t)slot * p->size;
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
	p->hint = hint;
	p->closed = malloc(payload_size);
	if (!p->closed || kma_map_init(&p->map, hint)) {
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
	kma_map_release(&p->map);
	kma_huge_free(p->slab, (size_t)p->cap * p->size);
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
		want = kma_huge_grow_len((size_t)cap * p->size);
		cap = (uint32_t)((want + p->size - 1) / p->size);
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
		slab = kma_huge_realloc(p->slab, (size_t)p->cap * p->size, (size_t)cap * p->size);
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
static void close_slot(struct kma_pairs *p, uint32_t *found, struct kma_pair *out, int copy)
{
	uint32_t slot = *found;

	if (copy) {
		memcpy(p->closed, slot_at(p, slot), p->size);
		out->old = p->closed;
	} else {
		out->old = slot_at(p, slot);
	}
	kma_map_del_found(&p->map, found);
	p->free_slots[p->nr_free++] = slot;
	p->live_bits[slot / 64] &= ~(1ULL << (slot % 64));
}

int kma_pairs_on_alloc(struct kma_pairs *p, uint64_t ptr, struct kma_pair *out)
{
	uint32_t *found, slot;

	out->live = NULL;
	out->old = NULL;
	if (!ptr) {
		out->kind = KMA_PAIR_FAILED;
		return 0;
	}
	found = kma_map_find(&p->map, ptr);
	out->kind = found ? KMA_PAIR_IMPLICIT : KMA_PAIR_NEW;
	/*
	 * Close, then insert anew (not an overwrite in place): the map's slot
	 * order, which kma_pairs_next() walks, is then the same as for a free
	 * followed by an allocation.
	 */
	if (found)
		close_slot(p, found, out, 1);
	if (take_slot(p, &slot))
		return -1;
	if (kma_map_put_new(&p->map, ptr, slot)) {
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
	uint32_t *found;

	out->live = NULL;
	out->old = NULL;
	if (ptr <= KMA_NULL_PTR_MAX) {
		out->kind = KMA_PAIR_NULL;
		return;
	}
	found = kma_map_find(&p->map, ptr);
	if (!found) {
		out->kind = KMA_PAIR_UNKNOWN;
		return;
	}
	out->kind = KMA_PAIR_FREED;
	close_slot(p, found, out, 0);
}

void *kma_pairs_find(const struct kma_pairs *p, uint64_t ptr)
{
	uint32_t *slot = kma_map_find(&p->map, ptr);

	return slot ? slot_at(p, *slot) : NULL;
}

void kma_pairs_prefetch(const struct kma_pairs *p, uint64_t ptr)
{
	kma_map_prefetch(&p->map, ptr);
}

size_t kma_pairs_count(const struct kma_pairs *p)
{
	return kma_map_count(&p->map);
}

void *kma_pairs_next(const struct kma_pairs *p, size_t *pos, uint64_t *ptr)
{
	uint32_t slot;

	if (!kma_map_next(&p->map, pos, ptr, &slot))
		return NULL;
	return slot_at(p, slot);
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
	kma_map_clear(&p->map);
	kma_huge_free(p->slab, (size_t)p->cap * p->size);
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
