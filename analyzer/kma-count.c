// SPDX-License-Identifier: GPL-2.0
/*
 * kma-count.c - kma-analyze --count: the records of a trace.dat per event,
 * its generation markers and its lost events, in one pass of the reader and
 * nothing else (no call-site names, no matching, no report.db). kma-record
 * says with it what the file it wrote holds: a whole `trace-cmd report`
 * took 15 times longer for the same numbers.
 */
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "reader/kma-reader.h"
#include "kma-options.h"
#include "kma-signals.h"
#include "kma-count.h"

struct count {
	uint64_t	markers;
};

static int count_event(void *ctx, const struct kma_event *ev)
{
	struct count *c = ctx;

	if (ev->type == KMA_EV_MARKER)
		c->markers++;
	return kma_interrupted != 0;	/* Ctrl-C ends the count */
}

static void count_progress(void *ctx, double fraction)
{
	fprintf(stderr, "\rkma-analyze: %s: counting %3.0f%%", (const char *)ctx,
		fraction * 100.0);
}

/*
 * The counts on standard output, one "KEY VALUE" line each, in this order
 * (docs/kma-analyze.1, --count): records, kmem, markers, lost, lost_unknown_pages,
 * one "lost_cpu CPU N" per CPU that lost any, one "event SYSTEM:NAME N" per
 * event the file has records of.
 */
static void count_print(const struct kma_trace_info *info, const struct count *c)
{
	uint64_t unknown = 0, lost = kma_trace_lost(info, &unknown);
	int i;

	printf("records %" PRIu64 "\n", info->events);
	printf("kmem %" PRIu64 "\n", info->kmem_events);
	printf("markers %" PRIu64 "\n", c->markers);
	printf("lost %" PRIu64 "\n", lost);
	printf("lost_unknown_pages %" PRIu64 "\n", unknown);
	for (i = 0; info->lost && i < info->cpus; i++) {
		uint64_t n = kma_lost_total(&info->lost[i]);

		if (n)
			printf("lost_cpu %d %" PRIu64 "\n", i, n);
	}
	for (i = 0; i < info->nr_counts; i++)
		if (info->counts[i].count)
			printf("event %s %" PRIu64 "\n", info->counts[i].name,
			       info->counts[i].count);
}

int kma_count_main(struct kma_opts *o)
{
	struct kma_file_opts fo = {
		.buffer = o->buffer, .jobs = o->jobs, .libtracecmd = o->libtracecmd,
	};
	struct kma_reader *r;
	struct kma_err err;
	struct count c = { 0 };
	int tty = !o->quiet && isatty(STDERR_FILENO), ret;

	r = kma_reader_open_file(o->input, &fo, &err);
	if (!r) {
		fprintf(stderr, "kma-analyze: %s: %s\n", o->input, err.msg);
		return 1;
	}
	if (kma_reader_set_marker_prefix(r, o->marker_prefix)) {
		fprintf(stderr, "kma-analyze: out of memory\n");
		kma_reader_close(r);
		return 1;
	}
	kma_signals_progress_line(tty);
	ret = kma_reader_run(r, count_event, &c, tty ? count_progress : NULL,
			     (void *)o->input, &err);
	if (tty)
		fputs("\r\033[K", stderr);
	kma_signals_progress_line(0);
	if (ret || kma_interrupted) {
		if (!kma_interrupted)
			fprintf(stderr, "kma-analyze: %s: %s\n", o->input,
				err.kind != KMA_ERR_NONE ? err.msg : "out of memory");
		kma_reader_close(r);
		return 1;
	}
	count_print(kma_reader_info(r), &c);
	kma_reader_close(r);
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
