// SPDX-License-Identifier: GPL-2.0
/*
 * kma-strpool.c - string interning: an open-addressing set of pointers into
 * arena chunks. Chunks are never reallocated, so interned strings stay put.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kma-strpool.h"

#define CHUNK_SIZE	(64 * 1024)

struct chunk {
	struct chunk	*next;
	size_t		used;
	size_t		size;
	char		data[];
};

struct kma_strpool {
	const char	**slots;
	uint32_t	*hashes;
	size_t		nr_slots;	/* power of two */
	size_t		nr_used;
	struct chunk	*chunks;
};

static uint32_t hash_str(const char *s, size_t len)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (len--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

struct kma_strpool *kma_strpool_alloc(void)
{
	struct kma_strpool *pool = calloc(1, sizeof(*pool));

	if (!pool)
		return NULL;
	pool->nr_slots = 64;
	pool->slots = calloc(pool->nr_slots, sizeof(*pool->slots));
	pool->hashes = calloc(pool->nr_slots, sizeof(*pool->hashes));
	if (!pool->slots || !pool->hashes) {
		kma_strpool_free(pool);
		return NULL;
	}
	return pool;
}

void kma_strpool_free(struct kma_strpool *pool)
{
	struct chunk *c, *n;

	if (!pool)
		return;
	for (c = pool->chunks; c; c = n) {
		n = c->next;
		free(c);
	}
	free(pool->slots);
	free(pool->hashes);
	free(pool);
}

static char *arena_copy(struct kma_strpool *pool, const char *s, size_t len)
{
	struct chunk *c = pool->chunks;
	char *p;

	if (!c || c->size - c->used < len + 1) {
		size_t size = len + 1 > CHUNK_SIZE ? len + 1 : CHUNK_SIZE;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = pool->chunks;
		pool->chunks = c;
	}
	p = c->data + c->used;
	memcpy(p, s, len);
	p[len] = '\0';
	c->used += len + 1;
	return p;
}

static int grow(struct kma_strpool *pool)
{
	size_t nr = pool->nr_slots * 2, i, j;
	const char **slots = calloc(nr, sizeof(*slots));
	uint32_t *hashes = calloc(nr, sizeof(*hashes));

	if (!slots || !hashes) {
		free(slots);
		free(hashes);
		return -1;
	}
	for (i = 0; i < pool->nr_slots; i++) {
		if (!pool->slots[i])
			continue;
		for (j = pool->hashes[i] & (nr - 1); slots[j]; j = (j + 1) & (nr - 1))
			;
		slots[j] = pool->slots[i];
		hashes[j] = pool->hashes[i];
	}
	free(pool->slots);
	free(pool->hashes);
	pool->slots = slots;
	pool->hashes = hashes;
	pool->nr_slots = nr;
	return 0;
}

const char *kma_strpool_intern(struct kma_strpool *pool, const char *s, size_t len)
{
	uint32_t h = hash_str(s, len);
	size_t mask, i;
	char *copy;

	if ((pool->nr_used + 1) * 2 > pool->nr_slots && grow(pool))
		return NULL;
	mask = pool->nr_slots - 1;
	for (i = h & mask; pool->slots[i]; i = (i + 1) & mask) {
		if (pool->hashes[i] == h && !strncmp(pool->slots[i], s, len) &&
		    pool->slots[i][len] == '\0')
			return pool->slots[i];
	}
	copy = arena_copy(pool, s, len);
	if (!copy)
		return NULL;
	pool->slots[i] = copy;
	pool->hashes[i] = h;
	pool->nr_used++;
	return copy;
}
