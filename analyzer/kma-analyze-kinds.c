// SPDX-License-Identifier: GPL-2.0
/*
 * kma-analyze-kinds.c - the caller tables of the allocators beside slab
 * (percpu, vmalloc) in a run: one matcher per kind --kind selects, with the
 * report's filters and grouping (the slab view's options), fed the kind's
 * events and every marker; which selected kinds the trace lacks.
 *
 * These are the report's matchers; r->kinds[] beside them count the whole
 * trace for the kernel memory by allocator, whatever the filters.
 */
#include <stdio.h>
#include <string.h>

#include "match/kma-kind.h"
#include "match/kma-match.h"
#include "reader/kma-reader.h"
#include "sites/kma-stacks.h"
#include "kma-options.h"
#include "kma-analyze-int.h"

/* The kinds the report's own matchers (r->kview) are for. */
static int has_view(int k)
{
	return k == KMA_KIND_PERCPU || k == KMA_KIND_VMALLOC;
}

int kma_pipeline_open_kinds(struct kma_pipeline *r)
{
	int k;

	for (k = 0; k < KMA_KIND_NR; k++) {
		struct kma_match_opts vo;

		if (!has_view(k) || !(r->o->kinds & 1u << k) || !r->view)
			continue;
		vo = *kma_match_opts(r->view);	/* the same filters and grouping */
		memset(&vo.sink, 0, sizeof(vo.sink));
		vo.timeline = 0;
		vo.keep_lifetimes = 0;
		vo.kmalloc_only = 0;
		vo.kind = (enum kma_kind)k;
		vo.stack_ctx = r->stacks;
		/* the caller of a vmap area (and of an old percpu event) is a stack frame */
		vo.stack_caller = k == KMA_KIND_VMALLOC ? kma_stacks_vmap_caller_addr :
							  kma_stacks_percpu_caller_addr;
		r->kview[k] = kma_match_alloc(&vo);
		if (!r->kview[k]) {
			fprintf(stderr, "kma-analyze: out of memory\n");
			return -1;
		}
	}
	return 0;
}

int kma_pipeline_kinds_event(struct kma_pipeline *r, const struct kma_event *ev)
{
	int k;

	for (k = 0; k < KMA_KIND_NR; k++)
		if (r->kview[k] && kma_match_event(r->kview[k], ev))
			return -1;
	return 0;
}

void kma_pipeline_kinds_window(struct kma_pipeline *r, uint64_t since, uint64_t until)
{
	int k;

	for (k = 0; k < KMA_KIND_NR; k++)
		if (r->kview[k])
			kma_match_set_window(r->kview[k], since, until);
}

int kma_pipeline_kind_present(const struct kma_pipeline *r, int k)
{
	if (k == KMA_KIND_SLAB)
		return kma_reader_info(r->reader)->kmem_events > 0;
	if (k == KMA_KIND_PAGE)
		return 1;	/* --pages says it when the trace has none */
	return r->kinds[k] != NULL;
}

/*
 * After the run: each kind --kind names that the trace lacks, in one line
 * (on stderr, so that CSV and JSON stay whole); none of them present is an
 * error. Then the report matchers' end. 0, or -1 said.
 */
int kma_pipeline_finish_kinds(struct kma_pipeline *r, uint64_t end_ts)
{
	const char *input = r->o->input;
	int k, present = 0;

	for (k = 0; k < KMA_KIND_NR; k++) {
		if (!(r->o->kinds & 1u << k))
			continue;
		if (kma_pipeline_kind_present(r, k))
			present++;
		else if (r->o->kind_arg)
			fprintf(stderr, "kma-analyze: %s: no %s allocations or frees in this trace\n",
				input, kma_kind_name(k));
	}
	if (!present && r->o->kind_arg)
		return -1;
	for (k = 0; k < KMA_KIND_NR; k++)
		if (r->kview[k] && kma_match_finish(r->kview[k], end_ts)) {
			fprintf(stderr, "kma-analyze: out of memory\n");
			return -1;
		}
	return 0;
}

void kma_pipeline_free_kinds(struct kma_pipeline *r)
{
	int k;

	for (k = 0; k < KMA_KIND_NR; k++)
		kma_match_free(r->kview[k]);
}
