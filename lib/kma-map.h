/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-map.h - a u64 -> u32 hash map (open addressing, linear probing,
 * backward-shift deletion: no tombstones, so a long trace with heavy pointer
 * reuse does not degrade it).
 */
#ifndef KMA_MAP_H
#define KMA_MAP_H

#include <stddef.h>
#include <stdint.h>

/*
 * The fields are private to kma-map.c: read the map through kma_map_find(),
 * kma_map_next() and kma_map_count(), never through its arrays, so that the
 * layout can change without touching its users.
 */
struct kma_map_slot {
	uint64_t	key;
	uint32_t	val;
	uint32_t	used;
};

/*
 * One array of 16-byte slots, not one array per field: a lookup of a key not
 * in the cache costs one cache miss, not three (used, key, value).
 */
struct kma_map {
	struct kma_map_slot	*slots;
	size_t			nr_slots;	/* power of two; 0: not set up */
	size_t			nr;
};

/*
 * A key's hash: its home slot is the hash masked to the table's size. Kernel
 * pointers share their high bits and are 8..64-byte aligned: mixed.
 */
static inline uint64_t kma_map_mix(uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return key;
}

int kma_map_init(struct kma_map *map, size_t hint);
void kma_map_release(struct kma_map *map);

/* Returns a pointer to the value of key, or NULL. */
uint32_t *kma_map_find(const struct kma_map *map, uint64_t key);
/* Inserts or overwrites; 0 on success, -1 out of memory. */
int kma_map_put(struct kma_map *map, uint64_t key, uint32_t val);
/* Removes key; returns 1 if it was there. */
int kma_map_del(struct kma_map *map, uint64_t key);
/* Removes every key; keeps the table's memory (it cannot fail). */
void kma_map_clear(struct kma_map *map);

/* How many keys the map holds. */
static inline size_t kma_map_count(const struct kma_map *map)
{
	return map->nr;
}

/*
 * Walks the map: start with *pos = 0 and call until it returns 0; each call
 * that returns 1 sets *key and *val (either may be NULL) to the next entry.
 * The order is the table's slot order: it depends only on the sequence of
 * puts and deletes, so a run is repeatable. Do not put or delete during a walk.
 */
int kma_map_next(const struct kma_map *map, size_t *pos, uint64_t *key, uint32_t *val);

#endif /* KMA_MAP_H */
