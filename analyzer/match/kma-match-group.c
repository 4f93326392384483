// SPDX-License-Identifier: GPL-2.0
/*
 * kma-match-group.c - a call-site matcher's rows regrouped by function,
 * module or file after the end (kma_match_regroup), instead of a second
 * matcher fed every event again.
 *
 * Those groupings' keys depend on the call site alone (group_name of the
 * address), so each of their rows is exactly a set of call-site rows: the
 * counts and sums add up, the minimums and maximums are the min of the mins
 * and the max of the maxes. What does not combine - a row's growth across
 * generations, its median age, the cache of its first allocation - is left
 * 0/NULL; a report that needs it runs its own matcher (-g function --leaks).
 */
#include <errno.h>
#include <string.h>

#include "kma-match-int.h"

/* The key and name of call site @c's row in grouping @g, as group_key() gives them. */
static const char *regroup_name(const struct kma_match *src, struct kma_match *dst,
				const struct kma_caller *c, enum kma_group g)
{
	const char *name = NULL;

	if (src->opts.group_name)
		name = src->opts.group_name(src->opts.resolve_ctx, c->address, g);
	if (!name)
		name = kma_strpool_intern(dst->names, "[unknown]", 9);
	return name;
}

static void min_into(uint64_t *d, uint64_t s, int d_set)
{
	if (!d_set || s < *d)
		*d = s;
}

static void max_into(uint64_t *d, uint64_t s)
{
	if (s > *d)
		*d = s;
}

/* Adds call-site row @s to grouped row @d. */
static void add_row(struct kma_caller *d, const struct kma_caller *s)
{
	if (s->life_n) {
		min_into(&d->life_min, s->life_min, d->life_n != 0);
		max_into(&d->life_max, s->life_max);
	}
	if (s->live) {
		min_into(&d->age_min, s->age_min, d->live != 0);
		max_into(&d->age_max, s->age_max);
	}
	d->total += s->total;
	d->slack += s->slack;
	d->net += s->net;
	d->allocs += s->allocs;
	d->frees += s->frees;
	d->implicit_frees += s->implicit_frees;
	d->failed_allocs += s->failed_allocs;
	d->live += s->live;
	d->live_slack += s->live_slack;
	d->temporary += s->temporary;
	d->life_sum += s->life_sum;
	d->life_n += s->life_n;
	/* every row is snapped at the end (kma_gen_finish): the same moment for all */
	d->net_at_peak += s->net_at_peak;
	d->age_sum += s->age_sum;
	d->orphans += s->orphans;
	d->orphan_bytes += s->orphan_bytes;
	d->orphans_live += s->orphans_live;
	d->orphans_live_bytes += s->orphans_live_bytes;
	d->tail_live += s->tail_live;
	d->tail_live_bytes += s->tail_live_bytes;
	/* the latest free of the group is the latest of its call sites' */
	if (s->last_free_gen > d->last_free_gen)
		d->last_free_gen = s->last_free_gen;
}

struct kma_match *kma_match_regroup(const struct kma_match *src, enum kma_group g)
{
	struct kma_match_opts o = src->opts;
	struct kma_match *m;
	uint32_t i;

	if (src->opts.group_by != KMA_GROUP_CALLER || !src->finished ||
	    (g != KMA_GROUP_FUNCTION && g != KMA_GROUP_MODULE && g != KMA_GROUP_FILE)) {
		errno = EINVAL;
		return NULL;
	}
	memset(&o.sink, 0, sizeof(o.sink));
	o.group_by = g;
	o.timeline = 0;
	o.keep_lifetimes = 0;
	m = kma_match_alloc(&o);
	if (!m)
		return NULL;
	m->totals = src->totals;
	m->totals.callers = 0;
	/* call sites in first-seen order give their groups in first-seen order */
	for (i = 0; i < src->nr_callers; i++) {
		const struct kma_caller *s = &src->callers[i];
		const char *name = regroup_name(src, m, s, g);
		struct kma_caller *d;
		uint32_t id;

		if (!name)
			goto fail;
		/* the key group_key() gives: the interned name's address */
		d = kma_match_get_caller(m, (uint64_t)(uintptr_t)name, &id, name);
		if (!d)
			goto fail;
		if (s->allocs && !d->allocs)
			m->totals.callers++;
		add_row(d, s);
	}
	m->finished = 1;
	return m;
fail:
	kma_match_free(m);
	return NULL;
}
