/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-top.h - the --live view on a terminal: frames (kma-report-top.h)
 * redrawn in place, keys read one at a time without echo, and the terminal
 * put back on every way out (return, exit(), SIGQUIT, Ctrl-Z and fg).
 */
#ifndef KMA_TOP_H
#define KMA_TOP_H

#include <stdio.h>
#include <stdint.h>
#include "report/kma-report-top.h"

struct kma_top;

struct kma_top_opts {
	FILE		*out;
	/* keys are read from it only when it is our terminal, in the foreground */
	int		key_fd;
	enum kma_sort	sort;		/* the first order; keys change it */
	uint64_t	limit;		/* -n; 0: what the terminal shows (20 off a terminal) */
	const char	*filter;	/* one line, or NULL; copied */
	volatile int	*quit;		/* q sets it: stop and write the report, as Ctrl-C */
};

/* NULL when out of memory; the terminal is in key mode until kma_top_end(). */
struct kma_top *kma_top_new(const struct kma_top_opts *o);
/* The fd to poll for keys, or -1: no key handling (stdin not our terminal). */
int kma_top_key_fd(const struct kma_top *t);
/* One key: t s n a f sort, h ? toggle the keys line, q quits. 1: redraw now. */
int kma_top_key(struct kma_top *t, int c);
/* The order the keys chose last (the final report uses it too). */
enum kma_sort kma_top_sort(const struct kma_top *t);
/*
 * Draws a frame of @in (its counts, callers, elapsed, events, lost; the rest
 * is filled here). @redraw 0: an interval's frame, rates over the last
 * interval; 1: the same view again after a key, rates over the last two.
 * 0, or -1 when out of memory.
 */
int kma_top_frame(struct kma_top *t, struct kma_top_in *in, int redraw);
/* The terminal as it was; safe to call twice. */
void kma_top_end(struct kma_top *t);
void kma_top_free(struct kma_top *t);

#endif /* KMA_TOP_H */
