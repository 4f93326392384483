/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-top.h - one frame of the --live view: a header (elapsed time,
 * events, lost events, filter, order), the overall totals and rates, and
 * the callers with their totals and per-interval rates. Pure: the rates
 * come from the snapshot of the previous frame, not from a clock.
 */
#ifndef KMA_REPORT_TOP_H
#define KMA_REPORT_TOP_H

#include <stdio.h>
#include <stdint.h>
#include "match/kma-match.h"
#include "kma-report-callers.h"

/* What one caller (by its index in the matcher's array) had at a frame. */
struct kma_top_count {
	uint64_t	allocs;
	uint64_t	frees;
	uint64_t	net;
};

/* The previous frame: its time, the overall counts and each caller's. */
struct kma_top_snap {
	double			elapsed;	/* seconds since the start */
	struct kma_top_count	all;
	struct kma_top_count	*c;		/* [nr]; callers are never reordered */
	uint32_t		nr, cap;
};

struct kma_top_in {
	double				elapsed;	/* seconds since the start */
	uint64_t			events;
	uint64_t			lost;		/* events the ring buffer lost */
	unsigned int			buffer_kb;	/* its size per CPU, for the advice */
	const char			*filter;	/* one line, or NULL: none */
	const char			*keys;		/* the keys line, or NULL: none */
	const struct kma_totals		*totals;
	const struct kma_caller		*callers;	/* first-seen order */
	uint32_t			nr_callers;
	enum kma_sort			sort;
	uint64_t			limit;		/* rows; 0: every caller */
	unsigned int			width;		/* columns; 0: names never cut */
};

/*
 * Writes a frame; rates are (count - prev's) / (elapsed - prev's elapsed),
 * with prev NULL meaning "all zero at elapsed 0". 0, or -1 on out of memory.
 */
int kma_top_render(FILE *out, const struct kma_top_in *in, const struct kma_top_snap *prev);
/* Remembers the counts of @in for the next frame's rates; 0 or -1 (no memory). */
int kma_top_snap_take(struct kma_top_snap *s, const struct kma_top_in *in);
void kma_top_snap_free(struct kma_top_snap *s);
/* "total", "slack", ... : the word the header and table headings use. */
const char *kma_top_sort_name(enum kma_sort sort);

#endif /* KMA_REPORT_TOP_H */
