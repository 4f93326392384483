// SPDX-License-Identifier: GPL-2.0
/*
 * kma-reader.c - the reader's lifecycle. A reader reads one source of
 * records through its ops (kma-source-file.c: a trace.dat through
 * libtracecmd; kma-source-tracefs.c: the ring buffer through libtracefs);
 * both hand their records to kma-decode.c, which knows neither.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-huge.h"
#include "kma-reader-int.h"

struct kma_reader *kma_reader_new(const struct kma_source_ops *ops)
{
	struct kma_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->ops = ops;
	r->marker_prefix = strdup(KMA_MARKER_PREFIX);
	r->buffer_idx = -1;
	r->stack_ev = -1;
	r->pool = kma_strpool_alloc();
	if (!r->marker_prefix || !r->pool || kma_map_init(&r->comm_map, 256)) {
		kma_reader_close(r);
		return NULL;
	}
	return r;
}

const struct kma_trace_info *kma_reader_info(const struct kma_reader *r)
{
	return &r->info;
}

int kma_reader_set_marker_prefix(struct kma_reader *r, const char *prefix)
{
	char *p = strdup(prefix);

	if (!p)
		return -1;
	free(r->marker_prefix);
	r->marker_prefix = p;
	return 0;
}

const char *kma_reader_kallsyms(const struct kma_reader *r, size_t *len, const char **why)
{
	*len = r->kallsyms_len;
	if (why)
		*why = r->kallsyms ? NULL : r->kallsyms_err.msg;
	return r->kallsyms;
}

struct tep_handle *kma_reader_tep(const struct kma_reader *r)
{
	return r->tep;
}

int kma_reader_run(struct kma_reader *r, kma_event_fn fn, void *ctx,
		   kma_progress_fn progress, void *pctx, struct kma_err *err)
{
	r->fn = fn;
	r->ctx = ctx;
	r->progress = progress;
	r->pctx = pctx;
	kma_err_clear(err);
	return r->ops->run(r, err);
}

void kma_reader_close(struct kma_reader *r)
{
	if (!r)
		return;
	if (r->ops)
		r->ops->close(r);
	free(r->marker_prefix);
	if (r->kallsyms_lent && r->fopts.kallsyms_done)
		r->fopts.kallsyms_done(r->fopts.kallsyms_ctx);
	kma_huge_free(r->kallsyms, r->kallsyms_size);
	kma_map_release(&r->comm_map);
	free(r->comms);
	kma_map_release(&r->gfp_map);
	free(r->gfp_texts);
	free(r->by_id);
	free(r->tc_last);
	free(r->id_count);
	free(r->info.counts);
	free(r->info.lost);
	free(r->info.damage);
	free(r->stack_buf);
	kma_reader_counters_free(r);
	kma_strpool_free(r->pool);
	free(r);
}

/* Progress, from a second after the start on: the file source and kma-cpubuf-run.c say it. */
void kma_reader_progress(struct kma_reader *r, double fraction)
{
	struct timespec now;

	if (!r->progress)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!r->progress_on && now.tv_sec - r->start.tv_sec < 1)
		return;
	r->progress_on = 1;
	r->progress(r->pctx, fraction);
}
