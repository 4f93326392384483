/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-seqset.h - interned sequences of u64 (call stacks): each distinct
 * sequence is stored once and gets a dense id from 1 up, found again by
 * its hash, so a trace with millions of stacked events keeps one copy of
 * each distinct stack.
 */
#ifndef KMA_SEQSET_H
#define KMA_SEQSET_H

#include <stddef.h>
#include <stdint.h>

#include "kma-map.h"

struct kma_seqset {
	uint64_t	*vals;		/* every sequence, one after the other */
	size_t		nr_vals, cap_vals;
	struct kma_seq	*seqs;		/* [id - 1] */
	size_t		nr, cap;
	struct kma_map	by_hash;	/* hash -> id of the first sequence with it */
};

struct kma_seq {
	size_t		at;		/* first value in vals */
	uint32_t	len;
	uint32_t	next;		/* next id with the same hash, 0: none */
	uint64_t	hash;
};

int kma_seqset_init(struct kma_seqset *set);
void kma_seqset_release(struct kma_seqset *set);
/* The 64-bit hash kma_seqset uses (FNV-1a over the values, then mixed). */
uint64_t kma_seq_hash(const uint64_t *v, uint32_t len);
/*
 * The id of v[0..len) (len may be 0), added when new (*added = 1).
 * 0 when out of memory.
 */
uint32_t kma_seqset_intern(struct kma_seqset *set, const uint64_t *v, uint32_t len, int *added);
/* Sequence @id (1..kma_seqset_count()): its values and length; NULL for a bad id. */
const uint64_t *kma_seqset_get(const struct kma_seqset *set, uint32_t id, uint32_t *len);
uint64_t kma_seqset_hash(const struct kma_seqset *set, uint32_t id);
static inline uint32_t kma_seqset_count(const struct kma_seqset *set)
{
	return (uint32_t)set->nr;
}

#endif /* KMA_SEQSET_H */
