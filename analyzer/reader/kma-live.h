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
	unsigned int	buffer_kb;	/* per CPU; 0: kma_live_default_buffer_kb() */
	volatile int	*stop;		/* set by a signal handler */
	/*
	 * Called every interval (@redraw 0) with the events so far, the lost
	 * counts of @info read just before, and the seconds since tracing
	 * started; and at once (@redraw 1) after a key asked for it.
	 */
	void		(*refresh)(void *ctx, const struct kma_trace_info *info, double elapsed,
				   int redraw);
	void		*refresh_ctx;
	/*
	 * Keys: the wait between refreshes also polls @key_fd (-1: none) and
	 * hands each byte read to @key, which returns non-zero for a redraw
	 * now. The reader knows nothing of terminals: the caller set the fd up.
	 */
	int		key_fd;
	int		(*key)(void *ctx, int c);
};

/*
 * A reader on a new tracefs instance ("kma-live-<pid>") with the kmem events
 * (and trace markers) enabled. NULL with a one-line reason in @err.
 */
struct kma_reader *kma_live_open(const struct kma_live_opts *o, struct kma_err *err);
/*
 * The ring buffer per CPU that --live takes when not told: 1/64 of the
 * memory available now, shared by the CPUs, within 8 MiB and 64 MiB each
 * (8 MiB lost events under a big tar on two busy CPUs; more than 1/64 of
 * the machine would squeeze the workload under study). In KiB.
 */
unsigned int kma_live_buffer_kb_for(uint64_t mem_available_kb, int cpus);
unsigned int kma_live_default_buffer_kb(void);
/*
 * kma_reader_run() then reads until the duration of @o ends or *o->stop is
 * set (@o must outlive the reader); kma_reader_close() removes the instance.
 */

#endif /* KMA_LIVE_H */
