/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-fleet-select.h - run selectors over the fleet store (kma-trend(1),
 * SELECTORS): words such as "host=web1 label:kernel=6.18 last=5" parsed once,
 * then the matching runs' ids read in time order. The store layer: 0/-1 and a
 * struct kma_err, never prints. The SQL is constant text with parameters.
 */
#ifndef KMA_FLEET_SELECT_H
#define KMA_FLEET_SELECT_H

#include <stddef.h>

#include "kma-err.h"

struct kma_fleet;

struct kma_fleet_sel_label {
	char *key, *value;
};

/* Every member set is a condition; all of them must hold. */
struct kma_fleet_sel {
	long long	*runs;		/* run=ID[,ID...]: one of these runs */
	size_t		nr_runs;
	char		*host;		/* host=H */
	char		*kernel;	/* kernel=RELEASE */
	struct kma_fleet_sel_label *labels;	/* label:K=V, each must match */
	size_t		nr_labels;
	char		since[32];	/* since=: "YYYY-MM-DD HH:MM:00+00", "" none */
	char		until[32];	/* until=: the same, inclusive */
	long long	last;		/* last=N / latest: the N latest; 0: all */
};

void kma_fleet_sel_init(struct kma_fleet_sel *s);
void kma_fleet_sel_free(struct kma_fleet_sel *s);

/*
 * One selector word added to @s. -1 and @e (KMA_ERR_OTHER, a message naming
 * the word) when it is not one: the caller's usage error. A second host=,
 * kernel=, since=, until= or last= replaces the first; label: and run= add.
 */
int kma_fleet_sel_add(struct kma_fleet_sel *s, const char *word, struct kma_err *e);

/* The runs @s selects, oldest first (pushed_at, then run_id). */
int kma_fleet_select(struct kma_fleet *f, const struct kma_fleet_sel *s, long long **ids,
		     size_t *nr, struct kma_err *e);

#endif /* KMA_FLEET_SELECT_H */
