// SPDX-License-Identifier: GPL-2.0
/*
 * kma-map.c - u64 -> u32 open-addressing hash map.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-huge.h"
#include "kma-map.h"

static inline size_t slot_of(uint64_t key, size_t mask)
{
	return (size_t)kma_map_mix(key) & mask;
}

int kma_map_init(struct kma_map *map, size_t hint)
{
	size_t n = 16;

	while (n < hint * 2)
		n *= 2;
	/* random lookups in tens of MB: on huge pages (kma-huge.c) */
	map->slots = kma_huge_alloc(n * sizeof(*map->slots));
	if (map->slots)
		kma_huge_touch(map->slots, n * sizeof(*map->slots));
	map->nr_slots = map->slots ? n : 0;
	map->nr = 0;
	return map->slots ? 0 : -1;
}

void kma_map_release(struct kma_map *map)
{
	kma_huge_free(map->slots, map->nr_slots * sizeof(*map->slots));
	map->slots = NULL;
	map->nr_slots = 0;
	map->nr = 0;
}

uint32_t *kma_map_find(const struct kma_map *map, uint64_t key)
{
	size_t mask = map->nr_slots - 1, i;
	struct kma_map_slot *s;

	for (i = slot_of(key, mask); (s = &map->slots[i])->used; i = (i + 1) & mask)
		if (s->key == key)
			return &s->val;
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
		if (!map->slots[i].used)
			continue;
		for (j = slot_of(map->slots[i].key, mask); new.slots[j].used; j = (j + 1) & mask)
			;
		new.slots[j] = map->slots[i];
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
	for (i = slot_of(key, mask); map->slots[i].used; i = (i + 1) & mask) {
		if (map->slots[i].key == key) {
			map->slots[i].val = val;
			return 0;
		}
	}
	map->slots[i].used = 1;
	map->slots[i].key = key;
	map->slots[i].val = val;
	map->nr++;
	return 0;
}

static void del_at(struct kma_map *map, size_t i)
{
	size_t mask = map->nr_slots - 1, j, home;

	/* Backward-shift: pull later entries of the cluster into the hole. */
	for (j = (i + 1) & mask; map->slots[j].used; j = (j + 1) & mask) {
		home = slot_of(map->slots[j].key, mask);
		/* Move j into i if its home is not cyclically in (i, j]. */
		if ((j > i && (home <= i || home > j)) || (j < i && (home <= i && home > j))) {
			map->slots[i] = map->slots[j];
			i = j;
		}
	}
	map->slots[i].used = 0;
	map->nr--;
}

int kma_map_del(struct kma_map *map, uint64_t key)
{
	size_t mask = map->nr_slots - 1, i;

	for (i = slot_of(key, mask); map->slots[i].used; i = (i + 1) & mask)
		if (map->slots[i].key == key)
			break;
	if (!map->slots[i].used)
		return 0;
	del_at(map, i);
	return 1;
}

void kma_map_clear(struct kma_map *map)
{
	if (map->slots)
		memset(map->slots, 0, map->nr_slots * sizeof(*map->slots));
	map->nr = 0;
}

int kma_map_next(const struct kma_map *map, size_t *pos, uint64_t *key, uint32_t *val)
{
	size_t i;

	for (i = *pos; i < map->nr_slots; i++) {
		if (!map->slots[i].used)
			continue;
		if (key)
			*key = map->slots[i].key;
		if (val)
			*val = map->slots[i].val;
		*pos = i + 1;
		return 1;
	}
	*pos = map->nr_slots;
	return 0;
}
