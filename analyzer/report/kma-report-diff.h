/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-diff.h - kma-diff's output: the whole-trace summary and one row
 * per key with base / new / delta of total, slack, net, allocs and frees, as
 * aligned text with signed deltas, CSV or JSON (through kma-table.h).
 */
#ifndef KMA_REPORT_DIFF_H
#define KMA_REPORT_DIFF_H

#include <stdio.h>
#include "match/kma-diffmatch.h"
#include "kma-table.h"

struct kma_diff_report_in {
	const char			*base_name, *new_name;	/* the operands as given */
	const char			*key;		/* grouping name: caller, function, ... */
	const struct kma_diff_row	*rows;
	size_t				nr_rows;
	const struct kma_diff_row	*summary;
	enum kma_diff_sort		sort;
	uint64_t			limit;		/* 0: every row */
	int				rate;		/* numbers are per second */
	uint64_t			base_ns, new_ns;	/* the traces' durations */
	const char			*filter;	/* kma_select_describe's, or NULL */
	const char			*gen_label[2];	/* BASE's, NEW's generation, or NULL */
	int64_t				gen[2];		/* and its number */
};

/*
 * Text: a summary table (base, new, delta, change in percent), the key
 * counts (changed, new, gone, unchanged), then the rows. CSV: the rows, columns
 * key, base_total, new_total, delta_total, ... delta_frees; a side without the
 * key is an empty cell (text "-", JSON null). JSON: {"report": "diff", "key",
 * "rate", "base", "new", "summary": {...}, "rows": [...]}; a filter adds "filter"
 * (its description), a generation "generation" and "generation_label" to
 * "base" or "new", and the text says them in its head. 0, or -1.
 */
int kma_report_diff(FILE *out, const struct kma_diff_report_in *in, enum kma_fmt fmt);

/* A number as the outputs print it: an integer, or with rate one decimal;
 * signed: always with its sign (+0 is "0"). */
void kma_diff_num(char *buf, size_t len, double v, int rate, int sign);
/* An exact number (no --rate), with a sign (+12, -3, 0) when @sign. */
void kma_diff_inum(char *buf, size_t len, int64_t v, int sign);

#endif /* KMA_REPORT_DIFF_H */
