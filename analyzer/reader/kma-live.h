/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-live.h - kmem events straight from the ring buffer (libtracefs), fed
 * through the same decoder, matcher and store as a trace.dat.
 */
#ifndef KMA_LIVE_H
#define KMA_LIVE_H

#include "kma-reader.h"

struct kma_live_opts {
	double		duration;	/* seconds; 0: until stopped */
	double		interval;	/* seconds between refreshes */
	unsigned int	buffer_kb;	/* per CPU */
	volatile int	*stop;		/* set by a signal handler */
	/* called every interval with the events so far */
	void		(*refresh)(void *ctx, const struct kma_trace_info *info);
	void		*refresh_ctx;
};

/*
 * A reader on a new tracefs instance ("kma-live-<pid>") with the kmem events
 * (and trace markers) enabled. NULL with a one-line reason in @err.
 */
struct kma_reader *kma_live_open(const struct kma_live_opts *o, struct kma_err *err);
/*
 * Reads until the duration ends or *stop is set; events go to fn. 0 or -1
 * (*why). The same as kma_reader_run() (which uses the options given to
 * kma_live_open()); kma_reader_close() removes the instance.
 */
int kma_live_run(struct kma_reader *r, const struct kma_live_opts *o, kma_event_fn fn,
		 void *ctx, const char **why);

#endif /* KMA_LIVE_H */
