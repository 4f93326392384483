/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-fleet-read.h - runs read back from the fleet store: what each run is
 * (host, kernel, push time, labels) and, per key (caller, function, cache or
 * stack), its bytes and allocations in every run, for kma-trend. The store
 * layer: 0/-1 and a struct kma_err, never prints.
 */
#ifndef KMA_FLEET_READ_H
#define KMA_FLEET_READ_H

#include <stddef.h>

#include "kma-err.h"

struct kma_fleet;

struct kma_fleet_run {
	long long	id;
	char		*host;		/* NULL: not recorded */
	char		*kernel;	/* NULL: not recorded */
	char		*pushed_at;	/* "YYYY-MM-DD HH:MM:SS", UTC */
	char		**keys, **values;	/* its labels, by key */
	size_t		nr_labels;
};

/* The runs @ids, in that order; -1 and @e when one of them is not there. */
int kma_fleet_read_runs(struct kma_fleet *f, const long long *ids, size_t nr,
			struct kma_fleet_run **runs, struct kma_err *e);
void kma_fleet_runs_free(struct kma_fleet_run *runs, size_t nr);

enum kma_fleet_key {
	KMA_FLEET_KEY_CALLER,	/* callers.caller */
	KMA_FLEET_KEY_FUNCTION,	/* functions.function (its modules' rows summed) */
	KMA_FLEET_KEY_CACHE,	/* caches.cache; "[no cache]" for NULL */
	KMA_FLEET_KEY_STACK,	/* stacks.folded; "[no stack]"; equal folded names summed */
};

enum kma_fleet_metric {
	KMA_FLEET_NET,
	KMA_FLEET_TOTAL,
	KMA_FLEET_ALLOCS,
	KMA_FLEET_NR_METRICS,
};

/*
 * Every key of the runs and its numbers in each: row-major, key k's value in
 * the run at index r (of the ids given) at [m][k * nr_runs + r]; has[] says
 * whether the run has a row for the key at all (absent: value 0).
 */
struct kma_fleet_series {
	size_t		nr_keys, nr_runs;
	char		**keys;		/* sorted by bytes (C collation) */
	long long	*v[KMA_FLEET_NR_METRICS];
	unsigned char	*has;
};

/*
 * The series of @key over runs @ids for allocator @kind: NULL the slab
 * allocator's (callers, functions, caches, run_stacks); "page", "percpu" or
 * "vmalloc" from kind_callers (caller, function) and kind_stacks (stack; a run
 * pushed before schema version 4 is refused), no cache. -1 and @e.
 */
int kma_fleet_read_series(struct kma_fleet *f, const char *kind, enum kma_fleet_key key,
			  const long long *ids, size_t nr, struct kma_fleet_series *s,
			  struct kma_err *e);
/* Why the store has no series of @key for allocator @kind (NULL: slab), or NULL. */
const char *kma_fleet_kind_refuses(const char *kind, enum kma_fleet_key key);
void kma_fleet_series_free(struct kma_fleet_series *s);

#endif /* KMA_FLEET_READ_H */
