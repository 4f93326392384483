/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-callers.h - the per-caller report (the /proc/kmalloc layout of the 2005 seed).
 */
#ifndef KMA_REPORT_H
#define KMA_REPORT_H

#include <stdio.h>
#include "match/kma-match.h"
#include "reader/kma-reader.h"

enum kma_sort { KMA_SORT_TOTAL, KMA_SORT_SLACK, KMA_SORT_NET, KMA_SORT_ALLOCS,
		KMA_SORT_FREES, KMA_SORT_CALLER };

int kma_sort_parse(const char *s, enum kma_sort *out);
/* "total", "net", ...: what -s takes, for the headers that say a table's order. */
const char *kma_sort_name(enum kma_sort sort);

/* What --leaks shows of its rows, slab or pages (kma-report-leaks.h). */
struct kma_leak_show {
	int		fmt;		/* enum kma_fmt */
	enum kma_sort	sort;		/* the order within suspects, and within the others */
	uint64_t	limit;		/* rows, 0: all */
	int		all;		/* --all: the rows that are not suspects too */
	uint64_t	min_bytes;	/* --min-bytes: rows holding fewer bytes left out */
};

/*
 * One allocator kind's rows in a table of several (kma_report_in.kinds): the
 * rows callers[end of the kind before, end).
 */
struct kma_report_kind {
	const char	*name;		/* "percpu": the kind column, --kind's name */
	uint32_t	end;
	int		slack;		/* bytes_alloc - bytes_req is slack for it (slab) */
};

struct kma_report_in {
	const struct kma_trace_info	*info;
	const struct kma_totals		*totals;
	const struct kma_caller		*callers;
	uint32_t			nr_callers;
	enum kma_sort			sort;
	uint64_t			limit;	/* 0: every caller */
	const char			*key;	/* heading of the name column; NULL: "caller" */
	/*
	 * NULL: the rows of slab alone, as the report always was. Else the
	 * kinds of the rows, in order: a kind column (text: with two or more),
	 * slack cells empty for a kind without slack, no slack columns when
	 * none has it; the text summary without the slab-only lines.
	 */
	const struct kma_report_kind	*kinds;
	unsigned int			nr_kinds;
};

/* Writes the report to out; 0, or -1 on out of memory / write error. */
int kma_report_text(FILE *out, const struct kma_report_in *in);

/* Only the text table ("Sorted by ...", heading, rows): a table of several kinds. */
int kma_report_text_rows(FILE *out, const struct kma_report_in *in);

/* The same as CSV (the rows, one header row) or JSON (summary and rows). */
enum kma_fmt;
int kma_report_table(FILE *out, const struct kma_report_in *in, enum kma_fmt fmt);

#endif /* KMA_REPORT_H */
