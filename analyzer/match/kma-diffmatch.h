/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-diffmatch.h - what changed between two runs (kma-diff(1)), with no I/O: two
 * tables of per-key numbers (filled by store/kma-diff-load.c from report.db
 * files, or by hand in tests/unit/test-diff.c) joined by key into rows of
 * base / new / delta, sorted; and the --fail-if conditions on the whole-trace
 * sums. Printing is report/kma-report-diff.c.
 */
#ifndef KMA_DIFFMATCH_H
#define KMA_DIFFMATCH_H

#include <stddef.h>
#include <stdint.h>

/* The numbers compared, in the order of every output's columns. */
enum kma_diff_metric {
	KMA_DIFF_TOTAL, KMA_DIFF_SLACK, KMA_DIFF_NET, KMA_DIFF_ALLOCS, KMA_DIFF_FREES,
	KMA_DIFF_NR
};

/* "total" ... "frees"; kma_diff_metric_parse: 0, or -1 for another word. */
const char *kma_diff_metric_name(enum kma_diff_metric m);
int kma_diff_metric_parse(const char *s, size_t len, enum kma_diff_metric *out);

/* One side: keys (malloc'd copies) and their numbers; sum: the whole trace. */
struct kma_diff_entry {
	char		*key;
	uint64_t	v[KMA_DIFF_NR];
};

struct kma_diff_table {
	struct kma_diff_entry	*e;
	size_t			nr, cap;
	uint64_t		sum[KMA_DIFF_NR];
	uint64_t		duration_ns;	/* of the trace, for --rate */
	char			*gen_label;	/* one generation only: its label, else NULL */
	int64_t			generation;	/* and its number */
};

void kma_diff_table_init(struct kma_diff_table *t);
void kma_diff_table_free(struct kma_diff_table *t);
/*
 * Adds v to key's numbers (a key given twice is summed when the rows are
 * joined); each number must be at most KMA_DIFF_MAX. 0, or -1 on out of memory.
 */
#define KMA_DIFF_MAX	INT64_MAX
int kma_diff_table_add(struct kma_diff_table *t, const char *key, const uint64_t v[KMA_DIFF_NR]);

/* Which side holds a key. */
enum { KMA_DIFF_BASE = 1, KMA_DIFF_NEW = 2, KMA_DIFF_BOTH = 3 };

/*
 * One key: its numbers on each side (0 where the side lacks it) and new - base.
 * Doubles, so that --rate (numbers per second of each trace) is the same row;
 * without --rate the exact integers are the i* members (report.db's numbers
 * are 0 to 2^63 - 1, so a delta fits int64_t), which is what is printed:
 * a double is exact only up to 2^53.
 */
struct kma_diff_row {
	const char	*key;		/* points into a table */
	int		sides;		/* KMA_DIFF_BASE (gone), _NEW (new) or _BOTH */
	double		base[KMA_DIFF_NR], new[KMA_DIFF_NR], delta[KMA_DIFF_NR];
	int64_t		ibase[KMA_DIFF_NR], inew[KMA_DIFF_NR], idelta[KMA_DIFF_NR];
};

/* Row order: descending by |delta| of a metric, or by key; ties by key. */
enum kma_diff_sort {
	KMA_DIFF_SORT_TOTAL, KMA_DIFF_SORT_SLACK, KMA_DIFF_SORT_NET, KMA_DIFF_SORT_ALLOCS,
	KMA_DIFF_SORT_FREES, KMA_DIFF_SORT_KEY
};

/* total|slack|net|allocs|frees as kma-analyze -s, and caller or key for the name order. */
int kma_diff_sort_parse(const char *s, enum kma_diff_sort *out);

/*
 * The rows of every key of either table, sorted; with rate, each side's
 * numbers divided by its trace's duration in seconds (-1 when a duration is
 * 0). *rows is malloc'd (the caller frees it; its keys point into the
 * tables, which must outlive it). 0, or -1 (out of memory, zero duration),
 * or -2: the numbers of a key given twice add up past KMA_DIFF_MAX.
 */
int kma_diff_rows(const struct kma_diff_table *base, const struct kma_diff_table *new,
		  enum kma_diff_sort sort, int rate, struct kma_diff_row **rows, size_t *nr);

/*
 * The whole-trace sums as one row (key NULL), scaled as kma_diff_rows does;
 * -2 when a sum is past KMA_DIFF_MAX.
 */
int kma_diff_summary(const struct kma_diff_table *base, const struct kma_diff_table *new,
		     int rate, struct kma_diff_row *out);

/*
 * A --fail-if condition: METRIC OP VALUE, e.g. "net>+10%", "net > +1MiB",
 * "allocs<-5%". OP is > or <; VALUE a signed number, then % (of the base's
 * value), or for the byte metrics (total, slack, net) KiB, MiB or GiB (or
 * nothing: bytes, or a count for allocs and frees). It holds when the
 * summary's delta is above (>) or below (<) the value.
 */
struct kma_diff_cond {
	enum kma_diff_metric	metric;
	int			op;		/* '>' or '<' */
	int			percent;
	double			value;		/* percent, or bytes / count */
};

/* 0, or -1 with why[len] saying what is wrong with s. */
int kma_diff_cond_parse(const char *s, struct kma_diff_cond *c, char *why, size_t len);

/*
 * Does c hold for the summary row? 1 or 0; *seen is the number compared:
 * the delta, or the percent change (a change from 0 is +infinity: any
 * growth from nothing exceeds every percentage).
 */
int kma_diff_cond_holds(const struct kma_diff_cond *c, const struct kma_diff_row *sum,
			double *seen);

#endif /* KMA_DIFFMATCH_H */
