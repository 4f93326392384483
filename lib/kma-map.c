// SPDX-License-Identifier: GPL-2.0
/*
 * kma-map.c - u64 -> u32 open-addressing hash map.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-map.h"

static inline size_t slot_of(uint64_t key, size_t mask)
{
	/* Kernel pointers share their high bits and are 8..64-byte aligned: mix. */
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & mask;
}

int kma_map_init(struct kma_map *map, size_t hint)
{
	size_t n = 16;

	while (n < hint * 2)
		n *= 2;
	map->keys = malloc(n * sizeof(*map->keys));
	map->vals = malloc(n * sizeof(*map->vals));
	map->used = calloc(n, 1);
	map->nr_slots = n;
	map->nr = 0;
	if (!map->keys || !map->vals || !map->used) {
		kma_map_release(map);
		return -1;
	}
	return 0;
}

void kma_map_release(struct kma_map *map)
{
	free(map->keys);
	free(map->vals);
	free(map->used);
	map->keys = NULL;
	map->vals = NULL;
	map->used = NULL;
	map->nr_slots = 0;
	map->nr = 0;
}

uint32_t *kma_map_find(const struct kma_map *map, uint64_t key)
{
	size_t mask = map->nr_slots - 1, i;

	for (i = slot_of(key, mask); map->used[i]; i = (i + 1) & mask)
		if (map->keys[i] == key)
			return &map->vals[i];
	return NULL;
}

static int grow(struct kma_map *map)
{
	struct kma_map new;
	size_t i, j, mask;

	if (kma_map_init(&new, map->nr_slots))
		return -1;
	mask = new.nr_slots - 1;
	for (i = 0; i < map->nr_slots; i++) {
		if (!map->used[i])
			continue;
		for (j = slot_of(map->keys[i], mask); new.used[j]; j = (j + 1) & mask)
			;
		new.used[j] = 1;
		new.keys[j] = map->keys[i];
		new.vals[j] = map->vals[i];
	}
	new.nr = map->nr;
	kma_map_release(map);
	*map = new;
	return 0;
}

int kma_map_put(struct kma_map *map, uint64_t key, uint32_t val)
{
	size_t mask, i;

	if ((map->nr + 1) * 4 > map->nr_slots * 3 && grow(map))
		return -1;
	mask = map->nr_slots - 1;
	for (i = slot_of(key, mask); map->used[i]; i = (i + 1) & mask) {
		if (map->keys[i] == key) {
			map->vals[i] = val;
			return 0;
		}
	}
	map->used[i] = 1;
	map->keys[i] = key;
	map->vals[i] = val;
	map->nr++;
	return 0;
}

int kma_map_del(struct kma_map *map, uint64_t key)
{
	size_t mask = map->nr_slots - 1, i, j, home;

	for (i = slot_of(key, mask); map->used[i]; i = (i + 1) & mask)
		if (map->keys[i] == key)
			break;
	if (!map->used[i])
		return 0;
	/* Backward-shift: pull later entries of the cluster into the hole. */
	for (j = (i + 1) & mask; map->used[j]; j = (j + 1) & mask) {
		home = slot_of(map->keys[j], mask);
		/* Move j into i if its home is not cyclically in (i, j]. */
		if ((j > i && (home <= i || home > j)) || (j < i && (home <= i && home > j))) {
			map->keys[i] = map->keys[j];
			map->vals[i] = map->vals[j];
			i = j;
		}
	}
	map->used[i] = 0;
	map->nr--;
	return 1;
}

void kma_map_clear(struct kma_map *map)
{
	if (map->used)
		memset(map->used, 0, map->nr_slots);
	map->nr = 0;
}

int kma_map_next(const struct kma_map *map, size_t *pos, uint64_t *key, uint32_t *val)
{
	size_t i;

	for (i = *pos; i < map->nr_slots; i++) {
		if (!map->used[i])
			continue;
		if (key)
			*key = map->keys[i];
		if (val)
			*val = map->vals[i];
		*pos = i + 1;
		return 1;
	}
	*pos = map->nr_slots;
	return 0;
}
