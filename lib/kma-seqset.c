// SPDX-License-Identifier: GPL-2.0
/*
 * kma-seqset.c - interned u64 sequences (see kma-seqset.h). The values live
 * in one growing array; ids index a small descriptor array; a hash map
 * finds the first id with a hash and a chain through the descriptors the
 * others (collisions are compared value by value).
 */
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-seqset.h"

int kma_seqset_init(struct kma_seqset *set)
{
	memset(set, 0, sizeof(*set));
	return kma_map_init(&set->by_hash, 256);
}

void kma_seqset_release(struct kma_seqset *set)
{
	free(set->vals);
	free(set->seqs);
	kma_map_release(&set->by_hash);
	memset(set, 0, sizeof(*set));
}

uint64_t kma_seq_hash(const uint64_t *v, uint32_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ len;
	uint32_t i;

	for (i = 0; i < len; i++) {
		h ^= v[i];
		h *= 0x100000001b3ULL;
		h ^= h >> 29;
	}
	/* a final mix: the map probes by the low bits */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

static int same(const struct kma_seqset *set, const struct kma_seq *s, const uint64_t *v,
		uint32_t len)
{
	return s->len == len && !memcmp(set->vals + s->at, v, len * sizeof(*v));
}

uint32_t kma_seqset_intern(struct kma_seqset *set, const uint64_t *v, uint32_t len, int *added)
{
	uint64_t h = kma_seq_hash(v, len);
	uint32_t *first = kma_map_find(&set->by_hash, h);
	uint32_t id = first ? *first : 0, last = 0;
	struct kma_seq *s;

	*added = 0;
	for (; id; id = set->seqs[id - 1].next) {
		if (same(set, &set->seqs[id - 1], v, len))
			return id;
		last = id;
	}
	while (set->nr_vals + len > set->cap_vals)
		if (kma_grow(&set->vals, &set->cap_vals, set->cap_vals, sizeof(*v), 1024))
			return 0;
	if (kma_grow(&set->seqs, &set->cap, set->nr, sizeof(*set->seqs), 256) ||
	    set->nr >= UINT32_MAX - 1)
		return 0;
	id = (uint32_t)set->nr + 1;
	if (!last && kma_map_put(&set->by_hash, h, id))
		return 0;
	s = &set->seqs[set->nr++];
	s->at = set->nr_vals;
	s->len = len;
	s->next = 0;
	s->hash = h;
	if (len)
		memcpy(set->vals + set->nr_vals, v, len * sizeof(*v));
	set->nr_vals += len;
	if (last)
		set->seqs[last - 1].next = id;
	*added = 1;
	return id;
}

const uint64_t *kma_seqset_get(const struct kma_seqset *set, uint32_t id, uint32_t *len)
{
	static const uint64_t none;

	if (!id || id > set->nr)
		return NULL;
	*len = set->seqs[id - 1].len;
	return set->seqs[id - 1].len ? set->vals + set->seqs[id - 1].at : &none;
}

uint64_t kma_seqset_hash(const struct kma_seqset *set, uint32_t id)
{
	return id && id <= set->nr ? set->seqs[id - 1].hash : 0;
}
