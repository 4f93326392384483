// SPDX-License-Identifier: GPL-2.0
/*
 * kma-store-dict.c - the dictionaries of report.db: slab caches, tasks, free
 * call sites and allocation shapes get small integer ids, so that an allocation row holds integers
 * only (schema/kma.sql, alloc_rows).
 *
 * Run by the writer thread for every row: the last id of each dictionary is
 * kept (consecutive rows mostly share a task and a cache), then a hash lookup;
 * a new entry is one INSERT into its table, in the open transaction.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-store-int.h"

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

int kma_dict_open(struct kma_dicts *d, sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int i, ret = -1;

	memset(d, 0, sizeof(*d));
	if (kma_map_init(&d->cache_map, 64) || kma_map_init(&d->task_map, 1024) ||
	    kma_map_init(&d->site_map, 1024))
		return -1;
	if (sqlite3_prepare_v2(db, "INSERT INTO caches (id, name) VALUES (?,?)", -1,
			       &d->ins_cache, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO tasks (id, pid, comm) VALUES (?,?,?)", -1,
			       &d->ins_task, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO free_sites (id, caller, address) VALUES (?,?,?)",
			       -1, &d->ins_site, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO alloc_shapes (id, caller_id, alloc_event, accounted,"
			       " bytes_req, bytes_alloc, gfp_flags, node, cache_id, stack_id,"
			       " free_stack_id, kmalloc_type) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", -1, &d->ins_shape,
			       NULL) != SQLITE_OK)
		return -1;
	_Static_assert(sizeof(struct kma_shape) == 48, "struct kma_shape has padding");
	if (kma_keyset_init(&d->shapes, sizeof(struct kma_shape)))
		return -1;
	/* the names come from lib, so the table cannot disagree with the code */
	if (sqlite3_prepare_v2(db, "INSERT INTO event_kinds (id, name) VALUES (?,?)", -1, &st,
			       NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i <= KMA_FREE_IMPLICIT; i++) {
		sqlite3_bind_int(st, 1, i);
		sqlite3_bind_text(st, 2, kma_ev_name(i), -1, SQLITE_STATIC);
		if (kma_step(st))
			goto out;
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

void kma_dict_free(struct kma_dicts *d)
{
	sqlite3_finalize(d->ins_cache);
	sqlite3_finalize(d->ins_task);
	sqlite3_finalize(d->ins_site);
	sqlite3_finalize(d->ins_shape);
	d->ins_cache = d->ins_task = d->ins_site = d->ins_shape = NULL;
	kma_map_release(&d->cache_map);
	kma_map_release(&d->task_map);
	kma_map_release(&d->site_map);
	free(d->caches);
	free(d->tasks);
	kma_keyset_free(&d->shapes);
	d->caches = NULL;
	d->tasks = NULL;
}

/*
 * caches.id of name (not NULL). The names are stable pointers, usually
 * interned; an equal name at a new pointer gets the id of the first.
 */
int kma_dict_cache(struct kma_dicts *d, const char *name, uint32_t *id)
{
	uint32_t *idx;
	size_t i;

	if (name == d->last_cache && d->last_cache_id) {
		*id = d->last_cache_id;
		return 0;
	}
	idx = kma_map_find(&d->cache_map, (uint64_t)(uintptr_t)name);
	if (idx) {
		*id = *idx;
		goto found;
	}
	for (i = 0; i < d->nr_caches; i++)
		if (!strcmp(d->caches[i], name))
			break;
	if (i == d->nr_caches) {
		if (kma_grow(&d->caches, &d->cap_caches, d->nr_caches, sizeof(*d->caches), 16))
			return -1;
		sqlite3_bind_int64(d->ins_cache, 1, (sqlite3_int64)i + 1);
		sqlite3_bind_text(d->ins_cache, 2, name, -1, SQLITE_STATIC);
		if (kma_step(d->ins_cache))
			return -1;
		d->caches[d->nr_caches++] = name;
	}
	*id = (uint32_t)i + 1;
	if (kma_map_put(&d->cache_map, (uint64_t)(uintptr_t)name, *id))
		return -1;
found:
	d->last_cache = name;
	d->last_cache_id = *id;
	return 0;
}

/* The id of a (pid, comm) seen before, 0 if none; a pid whose comm changed is rare. */
static uint32_t find_task(const struct kma_dicts *d, int pid, const char *comm)
{
	const uint32_t *idx = kma_map_find(&d->task_map, (uint64_t)(uint32_t)pid);
	size_t i;

	if (idx && same_str(d->tasks[*idx - 1].comm, comm))
		return *idx;
	for (i = 0; idx && i < d->nr_tasks; i++)
		if (d->tasks[i].pid == pid && same_str(d->tasks[i].comm, comm))
			return (uint32_t)i + 1;
	return 0;
}

/* tasks.id of (pid, comm); comm may be NULL (no saved cmdline). */
int kma_dict_task(struct kma_dicts *d, int pid, const char *comm, uint32_t *id)
{
	uint32_t t;

	if (d->last_task_id && pid == d->last_pid && comm == d->last_comm) {
		*id = d->last_task_id;
		return 0;
	}
	t = find_task(d, pid, comm);
	if (!t) {
		if (kma_grow(&d->tasks, &d->cap_tasks, d->nr_tasks, sizeof(*d->tasks), 256))
			return -1;
		t = (uint32_t)d->nr_tasks + 1;
		sqlite3_bind_int64(d->ins_task, 1, t);
		sqlite3_bind_int(d->ins_task, 2, pid);
		kma_bind_text(d->ins_task, 3, comm);
		if (kma_step(d->ins_task))
			return -1;
		d->tasks[d->nr_tasks].pid = pid;
		d->tasks[d->nr_tasks++].comm = comm;
	}
	/* the pid's latest task: the next row of that pid most likely has it */
	if (kma_map_put(&d->task_map, (uint64_t)(uint32_t)pid, t))
		return -1;
	d->last_pid = pid;
	d->last_comm = comm;
	d->last_task_id = t;
	*id = t;
	return 0;
}

/* free_sites.id of the free call site addr, named caller (a function of addr). */
int kma_dict_site(struct kma_dicts *d, uint64_t addr, const char *caller, uint32_t *id)
{
	uint32_t *idx;
	char hex[24];

	if (d->last_site_id && addr == d->last_site) {
		*id = d->last_site_id;
		return 0;
	}
	idx = kma_map_find(&d->site_map, addr);
	if (idx) {
		*id = *idx;
	} else {
		*id = ++d->nr_sites;
		kma_hex(hex, addr);
		sqlite3_bind_int64(d->ins_site, 1, *id);
		sqlite3_bind_text(d->ins_site, 2, caller, -1, SQLITE_STATIC);
		sqlite3_bind_text(d->ins_site, 3, hex, -1, SQLITE_STATIC);
		if (kma_step(d->ins_site) || kma_map_put(&d->site_map, addr, *id))
			return -1;
	}
	d->last_site = addr;
	d->last_site_id = *id;
	return 0;
}

/* Multiplicative hashing of the key's words (key_size is a multiple of 8). */
static size_t key_hash(const struct kma_keyset *s, const void *key)
{
	const unsigned char *p = key;
	uint64_t w, h = 0;
	size_t i;

	for (i = 0; i < s->key_size; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	}
	return (size_t)(h ^ h >> 29);
}

static const void *key_of(const struct kma_keyset *s, uint32_t id)
{
	return s->keys + (id - 1) * s->key_size;
}

/* The slot of key: its id's, or the empty one where it would go. */
static uint32_t *key_slot(const struct kma_keyset *s, const void *key)
{
	size_t i = key_hash(s, key) & s->mask;

	while (s->slots[i] && memcmp(key_of(s, s->slots[i]), key, s->key_size))
		i = (i + 1) & s->mask;
	return &s->slots[i];
}

/* Doubles the slots when half full (a few hundred shapes: it rarely runs). */
static int key_rehash(struct kma_keyset *s)
{
	size_t n = (s->mask + 1) * 2;
	uint32_t *old = s->slots, i;

	s->slots = calloc(n, sizeof(*s->slots));
	if (!s->slots) {
		s->slots = old;
		return -1;
	}
	s->mask = n - 1;
	for (i = 1; i <= s->nr; i++)
		*key_slot(s, key_of(s, i)) = i;
	free(old);
	return 0;
}

int kma_keyset_init(struct kma_keyset *s, size_t key_size)
{
	memset(s, 0, sizeof(*s));
	if (!key_size || key_size % 8)
		return -1;
	s->key_size = key_size;
	s->slots = calloc(1024, sizeof(*s->slots));
	if (!s->slots)
		return -1;
	s->mask = 1023;
	return 0;
}

int kma_keyset_id(struct kma_keyset *s, const void *key, uint32_t *id, int *added)
{
	uint32_t *slot;

	*added = 0;
	if (s->last_id && !memcmp(key_of(s, s->last_id), key, s->key_size)) {
		*id = s->last_id;
		return 0;
	}
	slot = key_slot(s, key);
	if (!*slot) {
		/* half full: double first, so that the new key's slot stays valid */
		if (s->nr + 1 > (s->mask + 1) / 2 && key_rehash(s))
			return -1;
		if (kma_grow(&s->keys, &s->cap, s->nr, s->key_size, 256))
			return -1;
		slot = key_slot(s, key);
		memcpy(s->keys + s->nr * s->key_size, key, s->key_size);
		*slot = (uint32_t)++s->nr;
		*added = 1;
	}
	*id = s->last_id = *slot;
	return 0;
}

void kma_keyset_free(struct kma_keyset *s)
{
	free(s->slots);
	free(s->keys);
	memset(s, 0, sizeof(*s));
}

static int insert_shape(struct kma_dicts *d, const struct kma_shape *k, uint32_t id)
{
	sqlite3_stmt *st = d->ins_shape;

	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, k->caller_id);
	sqlite3_bind_int(st, 3, k->alloc_event);
	if (k->accounted >= 0)
		sqlite3_bind_int(st, 4, k->accounted);
	else
		sqlite3_bind_null(st, 4);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)k->bytes_req);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)k->bytes_alloc);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)k->gfp_flags);
	if (k->node >= 0)
		sqlite3_bind_int(st, 8, k->node);
	else
		sqlite3_bind_null(st, 8);
	if (k->cache_id)
		sqlite3_bind_int64(st, 9, k->cache_id);
	else
		sqlite3_bind_null(st, 9);
	if (k->stack_id)
		sqlite3_bind_int64(st, 10, k->stack_id);
	else
		sqlite3_bind_null(st, 10);
	if (k->free_stack_id)
		sqlite3_bind_int64(st, 11, k->free_stack_id);
	else
		sqlite3_bind_null(st, 11);
	if (k->kmalloc_type >= 0)
		sqlite3_bind_int(st, 12, k->kmalloc_type);
	else
		sqlite3_bind_null(st, 12);
	return kma_step(st);
}

/*
 * alloc_shapes.id of key (padding-free, node and accounted -1 when absent):
 * the last one, else a hash lookup; a new shape is written at once.
 */
int kma_dict_shape(struct kma_dicts *d, const struct kma_shape *key, uint32_t *id)
{
	int added;

	if (kma_keyset_id(&d->shapes, key, id, &added))
		return -1;
	return added ? insert_shape(d, key, *id) : 0;
}

/*
 * kmalloc_caches: the name of every (family, size) the views may ask for,
 * from kma_kmalloc_cache(), so that the size classes and kmalloc-large are
 * written in C only. At the commit, when every shape is in alloc_shapes.
 */
int kma_dict_kmalloc_caches(sqlite3 *db)
{
	sqlite3_stmt *sel = NULL, *ins = NULL;
	char name[64];
	int rc, ret = -1;

	if (sqlite3_prepare_v2(db, "SELECT DISTINCT COALESCE(kmalloc_type, 0), bytes_alloc "
			       "FROM alloc_shapes WHERE cache_id IS NULL OR alloc_event IN (0, 1) "
			       "ORDER BY 1, 2", -1, &sel, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO kmalloc_caches (kmalloc_type, bytes_alloc, name) "
			       "VALUES (?,?,?)", -1, &ins, NULL) != SQLITE_OK)
		goto out;
	while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
		int type = sqlite3_column_int(sel, 0);
		sqlite3_int64 bytes = sqlite3_column_int64(sel, 1);

		kma_kmalloc_cache(name, sizeof(name), type, (uint64_t)bytes);
		sqlite3_bind_int(ins, 1, type);
		sqlite3_bind_int64(ins, 2, bytes);
		sqlite3_bind_text(ins, 3, name, -1, SQLITE_STATIC);	/* stepped before reuse */
		if (kma_step(ins))
			goto out;
	}
	ret = rc == SQLITE_DONE ? 0 : -1;
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(ins);
	return ret;
}
