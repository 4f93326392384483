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
	uint64_t	bytes[KMA_KIND_NR];	/* percpu, vmalloc: successful allocations' */
};

static int count_event(void *ctx, const struct kma_event *ev)
{
	struct count *c = ctx;

	if (ev->type == KMA_EV_MARKER)
		c->markers++;
	else if (ev->type == KMA_EV_PERCPU_ALLOC)
		c->bytes[KMA_KIND_PERCPU] += ev->bytes_alloc;
	else if (ev->type == KMA_EV_VMAP_ALLOC && ev->ptr)
		c->bytes[KMA_KIND_VMALLOC] += ev->bytes_alloc;
	return kma_interrupted != 0;	/* Ctrl-C ends the count */
}

static void count_progress(void *ctx, double fraction)
{
	fprintf(stderr, "\rkma-analyze: %s: counting %3.0f%%", (const char *)ctx,
		fraction * 100.0);
}

/*
 * The percpu and vmalloc lines, each kind's only when the trace has records of
 * its events (traces recorded without them print what they always did, even
 * where trace-cmd stored the events' formats): records
 * decoded per event, the bytes of the allocations (the sum kma-check-db and
 * the checkers compare), failed vmap reservations, and the percpu fields the
 * trace's layout lacks.
 */
static void count_kinds(const struct kma_trace_info *info, const struct count *c)
{
	const uint64_t *k = info->kind_count;

	if (k[0] + k[1]) {
		printf("percpu_alloc %" PRIu64 "\n", k[KMA_EV_PERCPU_ALLOC - KMA_EV_PERCPU_ALLOC]);
		printf("percpu_free %" PRIu64 "\n", k[KMA_EV_PERCPU_FREE - KMA_EV_PERCPU_ALLOC]);
		printf("percpu_bytes %" PRIu64 "\n", c->bytes[KMA_KIND_PERCPU]);
		if (info->percpu_missing)
			printf("percpu_missing %s\n", info->percpu_missing);
	}
	if (k[2] + k[3]) {
		printf("vmap_alloc %" PRIu64 "\n", k[KMA_EV_VMAP_ALLOC - KMA_EV_PERCPU_ALLOC]);
		printf("vmap_failed %" PRIu64 "\n", info->vmap_failed);
		printf("vmap_free %" PRIu64 "\n", k[KMA_EV_VMAP_FREE - KMA_EV_PERCPU_ALLOC]);
		printf("vmap_bytes %" PRIu64 "\n", c->bytes[KMA_KIND_VMALLOC]);
	}
}

/*
 * The counts on standard output, one "KEY VALUE" line each, in this order
 * (docs/kma-analyze.1, --count): records, kmem, markers, lost, lost_unknown_pages,
 * one "lost_cpu CPU N" per CPU that lost any, the percpu and vmalloc lines
 * (count_kinds), one "event SYSTEM:NAME N" per event the file has records of.
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
	count_kinds(info, c);
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

	r = kma_reader_open_file(o->input_path ? o->input_path : o->input, &fo, &err);
	if (!r) {
		fprintf(stderr, "kma-analyze: %s: %s\n", o->input, err.msg);
		return 1;
	}
	if (kma_reader_set_marker_prefix(r, o->marker_prefix)) {
		fprintf(stderr, "kma-analyze: out of memory\n");
		kma_reader_close(r);
		return 1;
	}
	kma_reader_want_kinds(r, 1u << KMA_KIND_PERCPU | 1u << KMA_KIND_VMALLOC);
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
