/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-trend.h - what kma-trend's files share: the options, the series read
 * from the fleet store with each key's verdicts, and the writers.
 */
#ifndef KMA_TREND_H
#define KMA_TREND_H

#include <stdio.h>

#include "store/kma-fleet-read.h"
#include "store/kma-fleet-select.h"

enum kma_trend_format { KMA_TREND_TEXT, KMA_TREND_CSV, KMA_TREND_JSON };

struct kma_trend_opts {
	const char		*url;
	struct kma_fleet_sel	sel;
	enum kma_fleet_key	key;		/* -k */
	const char		*kind;		/* --kind: page, percpu, vmalloc; NULL slab */
	enum kma_fleet_metric	metric;		/* -m */
	enum kma_trend_format	format;		/* -f */
	const char		*html;		/* --html FILE */
	int			force;		/* --force: --html replaces any file */
	long long		jump_pct;	/* --jump-pct: rise >= this % of the previous */
	long long		jump_min;	/* --jump-min: rise >= this, in the metric's unit */
	long long		top;		/* -n: rows shown; 0 all */
	int			flagged;	/* --flagged: only keys that grow or jumped */
};

/* One key's row: its index in the series and what kma-trend says of it. */
struct kma_trend_row {
	size_t		k;
	long long	change;		/* last run's value - first's (absent: 0) */
	int		grows;		/* rose between every two consecutive runs (>= 3) */
	size_t		nr_jumps;
	size_t		*jumps;		/* the run indexes it jumped at (rise into them) */
};

struct kma_trend {
	const struct kma_trend_opts	*o;
	const char			*server;
	struct kma_fleet_run		*runs;
	size_t				nr_runs;
	struct kma_fleet_series		s;
	struct kma_trend_row		*rows;	/* in the order shown */
	size_t				nr_rows;
};

extern const char *const kma_trend_key_names[];
extern const char *const kma_trend_metric_names[];

/* key k's value in run r, in the chosen metric */
static inline long long kma_trend_v(const struct kma_trend *t, size_t k, size_t r)
{
	return t->s.v[t->o->metric][k * t->s.nr_runs + r];
}

static inline int kma_trend_has(const struct kma_trend *t, size_t k, size_t r)
{
	return t->s.has[k * t->s.nr_runs + r];
}

/* kma-trend-out.c: the report on @out; -1 on a write error */
int kma_trend_text(FILE *out, const struct kma_trend *t);
int kma_trend_csv(FILE *out, const struct kma_trend *t);
int kma_trend_json(FILE *out, const struct kma_trend *t);
/* a JSON string; "<", ">" and "&" escaped too, so that it may sit in a <script> */
void kma_trend_json_str(FILE *out, const char *s);

/* kma-trend-html.c: the page at path; -1 and @why (one line) on failure */
int kma_trend_html(const struct kma_trend *t, const char *path, char *why, size_t len);

#endif /* KMA_TREND_H */
