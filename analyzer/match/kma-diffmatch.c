// SPDX-License-Identifier: GPL-2.0
/*
 * kma-diffmatch.c - two runs' per-key numbers joined into base / new / delta rows,
 * and the --fail-if conditions (kma-diffmatch.h). No I/O.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-diffmatch.h"

static const char * const metric_names[KMA_DIFF_NR] = {
	"total", "slack", "net", "allocs", "frees",
};

const char *kma_diff_metric_name(enum kma_diff_metric m)
{
	return (unsigned int)m < KMA_DIFF_NR ? metric_names[m] : "?";
}

int kma_diff_metric_parse(const char *s, size_t len, enum kma_diff_metric *out)
{
	int i;

	for (i = 0; i < KMA_DIFF_NR; i++) {
		if (strlen(metric_names[i]) == len && !strncmp(s, metric_names[i], len)) {
			*out = (enum kma_diff_metric)i;
			return 0;
		}
	}
	return -1;
}

int kma_diff_sort_parse(const char *s, enum kma_diff_sort *out)
{
	enum kma_diff_metric m;

	/* the metric sorts have the metrics' numbers */
	if (!kma_diff_metric_parse(s, strlen(s), &m)) {
		*out = (enum kma_diff_sort)m;
		return 0;
	}
	if (!strcmp(s, "caller") || !strcmp(s, "key")) {
		*out = KMA_DIFF_SORT_KEY;
		return 0;
	}
	return -1;
}

void kma_diff_table_init(struct kma_diff_table *t)
{
	memset(t, 0, sizeof(*t));
}

void kma_diff_table_free(struct kma_diff_table *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->e[i].key);
	free(t->e);
	free(t->gen_label);
	kma_diff_table_init(t);
}

int kma_diff_table_add(struct kma_diff_table *t, const char *key, const uint64_t v[KMA_DIFF_NR])
{
	struct kma_diff_entry *e;

	/* duplicates are summed when the rows are joined (sorted by key there) */
	if (kma_grow(&t->e, &t->cap, t->nr, sizeof(*t->e), 64))
		return -1;
	e = &t->e[t->nr];
	e->key = strdup(key);
	if (!e->key)
		return -1;
	memcpy(e->v, v, sizeof(e->v));
	t->nr++;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct kma_diff_entry *x = *(const struct kma_diff_entry * const *)a;
	const struct kma_diff_entry *y = *(const struct kma_diff_entry * const *)b;

	return strcmp(x->key, y->key);
}

/* Pointers to t's entries sorted by key; NULL on out of memory (or none). */
static const struct kma_diff_entry **by_key(const struct kma_diff_table *t)
{
	const struct kma_diff_entry **v = malloc((t->nr ? t->nr : 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < t->nr; i++)
		v[i] = &t->e[i];
	qsort(v, t->nr, sizeof(*v), cmp_entry);
	return v;
}

/* 1 / duration in seconds with rate, else 1; -1 for a zero duration. */
static double scale_of(const struct kma_diff_table *t, int rate)
{
	if (!rate)
		return 1.0;
	if (!t->duration_ns)
		return -1.0;
	return 1e9 / (double)t->duration_ns;
}

/* Both sides are 0 to KMA_DIFF_MAX, so new - base fits int64_t. */
static void set_delta(struct kma_diff_row *r)
{
	int m;

	for (m = 0; m < KMA_DIFF_NR; m++) {
		r->delta[m] = r->new[m] - r->base[m];
		r->idelta[m] = r->inew[m] - r->ibase[m];
	}
}

/* qsort_r's comparator: the order travels in its argument, as in kma-caller-sort.c */
static int cmp_row(const void *a, const void *b, void *arg)
{
	const struct kma_diff_row *x = a, *y = b;
	enum kma_diff_sort sort_key = *(const enum kma_diff_sort *)arg;
	uint64_t ix, iy;
	double dx, dy;

	if (sort_key != KMA_DIFF_SORT_KEY) {
		dx = fabs(x->delta[sort_key]);
		dy = fabs(y->delta[sort_key]);
		if (dx != dy)
			return dx > dy ? -1 : 1;
		/* past 2^53 two deltas may be one double: the exact ones decide */
		ix = x->idelta[sort_key] < 0 ? -(uint64_t)x->idelta[sort_key] :
					      (uint64_t)x->idelta[sort_key];
		iy = y->idelta[sort_key] < 0 ? -(uint64_t)y->idelta[sort_key] :
					      (uint64_t)y->idelta[sort_key];
		if (ix != iy)
			return ix > iy ? -1 : 1;
	}
	return strcmp(x->key, y->key);
}

/*
 * Adds entries [*i, end) of v that carry key to row side s, scaled, and
 * exactly to isum; advances *i. -1 when the exact sum passes KMA_DIFF_MAX.
 */
static int take(const struct kma_diff_entry **v, size_t n, size_t *i, const char *key,
		double *side, int64_t *isum, double scale)
{
	int64_t sum;
	int m, err = 0;

	for (; *i < n && !strcmp(v[*i]->key, key); (*i)++) {
		for (m = 0; m < KMA_DIFF_NR; m++) {
			side[m] += (double)v[*i]->v[m] * scale;
			/* isum stays 0 to KMA_DIFF_MAX, so that new - base cannot overflow */
			if (v[*i]->v[m] > KMA_DIFF_MAX ||
			    __builtin_add_overflow(isum[m], (int64_t)v[*i]->v[m], &sum))
				err = -1;
			else
				isum[m] = sum;
		}
	}
	return err;
}

int kma_diff_rows(const struct kma_diff_table *base, const struct kma_diff_table *new,
		  enum kma_diff_sort sort, int rate, struct kma_diff_row **rows, size_t *nr)
{
	const struct kma_diff_entry **b = by_key(base), **n = by_key(new);
	double sb = scale_of(base, rate), sn = scale_of(new, rate);
	struct kma_diff_row *out = calloc(base->nr + new->nr + 1, sizeof(*out));
	size_t i = 0, j = 0, k = 0;
	int range = 0;

	if (!b || !n || !out || sb < 0 || sn < 0) {
		free(b);
		free(n);
		free(out);
		return -1;
	}
	/* a merge join of the two key orders */
	while (i < base->nr || j < new->nr) {
		struct kma_diff_row *r = &out[k++];
		int c = i == base->nr ? 1 : j == new->nr ? -1 : strcmp(b[i]->key, n[j]->key);

		r->key = c <= 0 ? b[i]->key : n[j]->key;
		r->sides = c < 0 ? KMA_DIFF_BASE : c > 0 ? KMA_DIFF_NEW : KMA_DIFF_BOTH;
		if (c <= 0 && take(b, base->nr, &i, r->key, r->base, r->ibase, sb))
			range = -2;
		if (c >= 0 && take(n, new->nr, &j, r->key, r->new, r->inew, sn))
			range = -2;
		set_delta(r);
	}
	free(b);
	free(n);
	if (range) {
		free(out);
		return range;
	}
	qsort_r(out, k, sizeof(*out), cmp_row, &sort);
	*rows = out;
	*nr = k;
	return 0;
}

int kma_diff_summary(const struct kma_diff_table *base, const struct kma_diff_table *new,
		     int rate, struct kma_diff_row *out)
{
	double sb = scale_of(base, rate), sn = scale_of(new, rate);
	int m;

	if (sb < 0 || sn < 0)
		return -1;
	memset(out, 0, sizeof(*out));
	out->sides = KMA_DIFF_BOTH;
	for (m = 0; m < KMA_DIFF_NR; m++) {
		if (base->sum[m] > KMA_DIFF_MAX || new->sum[m] > KMA_DIFF_MAX)
			return -2;
		out->base[m] = (double)base->sum[m] * sb;
		out->new[m] = (double)new->sum[m] * sn;
		out->ibase[m] = (int64_t)base->sum[m];
		out->inew[m] = (int64_t)new->sum[m];
	}
	set_delta(out);
	return 0;
}

static const char *skip_blanks(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* The unit after a --fail-if number: its factor, 0 for %, -1 unknown. */
static double unit_factor(const char *u, size_t len)
{
	static const struct { const char *name; double f; } units[] = {
		{ "", 1 }, { "%", 0 }, { "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 },
		{ "GiB", 1073741824.0 },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == len && !strncmp(u, units[i].name, len))
			return units[i].f;
	return -1;
}

int kma_diff_cond_parse(const char *s, struct kma_diff_cond *c, char *why, size_t len)
{
	const char *p = skip_blanks(s), *w = p, *u;
	double f;
	char *end;

	while (isalpha((unsigned char)*p))
		p++;
	if (kma_diff_metric_parse(w, (size_t)(p - w), &c->metric)) {
		snprintf(why, len, "'%s': starts with no metric (total, slack, net, allocs, frees)",
			 s);
		return -1;
	}
	p = skip_blanks(p);
	if (*p != '>' && *p != '<') {
		snprintf(why, len, "'%s': wants > or < after %s", s, kma_diff_metric_name(c->metric));
		return -1;
	}
	c->op = *p++;
	p = skip_blanks(p);
	/* strtod would also take "inf", "nan", hex and exponents: a plain number only */
	c->value = strtod(p, &end);
	if (end == p || strspn(p, "+-0123456789.") < (size_t)(end - p) ||
	    !strpbrk(p, "0123456789") || strpbrk(p, "0123456789") >= end || !isfinite(c->value)) {
		snprintf(why, len, "'%s': wants a number after %c (e.g. +10%%, +1MiB)", s, c->op);
		return -1;
	}
	u = skip_blanks(end);
	for (p = u; *p && !isspace((unsigned char)*p); p++)
		;
	f = unit_factor(u, (size_t)(p - u));
	if (f < 0 || *skip_blanks(p)) {
		snprintf(why, len, "'%s': unknown unit '%s' (%%, KiB, MiB, GiB or none)", s, u);
		return -1;
	}
	if (f > 1 && (c->metric == KMA_DIFF_ALLOCS || c->metric == KMA_DIFF_FREES)) {
		snprintf(why, len, "'%s': %s counts events, not bytes: no %.*s", s,
			 kma_diff_metric_name(c->metric), (int)(p - u), u);
		return -1;
	}
	c->percent = f == 0;
	if (f > 0)
		c->value *= f;
	return 0;
}

int kma_diff_cond_holds(const struct kma_diff_cond *c, const struct kma_diff_row *sum,
			double *seen)
{
	double d = sum->delta[c->metric], b = sum->base[c->metric];

	if (!c->percent)
		*seen = d;
	else if (b != 0)
		*seen = d * 100.0 / b;
	else
		*seen = d > 0 ? INFINITY : d < 0 ? -INFINITY : 0;
	return c->op == '>' ? *seen > c->value : *seen < c->value;
}
