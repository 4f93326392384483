/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-analyze-int.h - kma-analyze's pipeline (struct kma_pipeline), shared by the
 * wiring (kma-analyze.c) and the report dispatch (kma-analyze-print.c).
 */
#ifndef KMA_ANALYZE_INT_H
#define KMA_ANALYZE_INT_H

#include <stdio.h>

#include "kma-err.h"
#include "reader/kma-live.h"
#include "match/kma-match.h"

struct kma_opts;
struct kma_reader;
struct kma_sites;
struct kma_symtab_job;
struct kma_stacks;
struct kma_store;
struct kma_list;
struct kma_select;
struct kma_top;
struct kma_html;
struct kma_pagepipe;
struct kma_cross;
struct kma_counters;

/* The pipeline: what main() builds, runs and frees. */
struct kma_pipeline {
	struct kma_opts		*o;
	struct kma_reader	*reader;
	struct kma_sites	*sites;		/* call-site names: matcher and store */
	struct kma_symtab_job	*symjob;	/* the trace's kallsyms parsed on a thread */
	struct kma_stacks	*stacks;	/* call stacks: matcher, store, reports */
	char			*sym_note;	/* why call sites are addresses: after the run */
	struct kma_match	*sview;		/* --leaks by stack, beside view */
	struct kma_match	*match;		/* everything: report.db and the default report */
	struct kma_match	*view;		/* the filtered report, or == match */
	int			window_set;
	struct kma_err		err;		/* why feed() stopped the run */
	struct kma_store	*store;		/* NULL with --no-db */
	struct kma_list		*list;		/* --list */
	struct kma_match_opts	mo;		/* of match; view's start from them */
	struct kma_live_opts	lo;
	char			*real_output;	/* -o a symbolic link: its target */
	char			*real_html;	/* --html a symbolic link: its target */
	int			show_progress;
	int			filtered;	/* --generation, --since or --until */
	struct kma_select	*select;	/* the view's filters (--comm ...) */
	struct kma_select	*self;		/* match's: no pattern, finds the recorder's own */
	struct kma_top		*top;		/* --live without -q: the frames and keys */
	struct kma_html		*html;		/* --html: its matchers (kma-html.c) */
	struct kma_pagepipe	*pages;		/* --pages, else NULL */
	int			page_filtered;	/* the report's filter applies to pages */
	struct kma_cross	*cross;		/* --cross-cpu, the view's sink */
	int			*node_map, nr_nodes;	/* CPU -> node, NULL: none */
	const char		*map_from;		/* where it came from */
	struct kma_counters	*counters;	/* --counters, else NULL */
	/*
	 * The allocators beside slab and page (percpu, vmalloc), one matcher
	 * each, made at the kind's first event: the summary by allocator
	 */
	struct kma_match	*kinds[KMA_KIND_NR];
	/*
	 * The report's matchers of those kinds (--kind), with the slab view's
	 * filters and grouping: their caller tables (kma-analyze-kinds.c)
	 */
	struct kma_match	*kview[KMA_KIND_NR];
};

/* Damage found in the trace's ring-buffer data, one warning line per kind, on stderr. */
void kma_run_warn_damage(const char *input, const struct kma_trace_info *info);
/* The report the options ask for, on stdout (after the run is finished). 0 or -1. */
/* --html: its matchers, then the page (kma-analyze-html.c); 0, or -1 said. */
int kma_pipeline_open_html(struct kma_pipeline *r);
int kma_pipeline_write_html(struct kma_pipeline *r);
/* The filter option page allocations cannot take (--cache, --kmalloc-only), or NULL. */
const char *kma_pipeline_page_unfit(const struct kma_opts *o);
/*
 * report.db in the run (kma-analyze-store.c): the store opened with the
 * signals blocked, NULL with @err; the run's results committed into it and
 * the file renamed into place, 0 (also without a store), or -1 said.
 */
struct kma_err;
struct kma_store *kma_pipeline_open_store(const char *path, struct kma_err *err);
int kma_pipeline_commit_store(struct kma_pipeline *r);

/* The call sites' names and stacks of the run (kma-analyze-sites.c); 0, or -1 said. */
int kma_pipeline_open_sites(struct kma_pipeline *r);
/*
 * The reader's kallsyms_read callback (@ctx the pipeline): the text's symbol
 * table built on a thread while libtracecmd opens the trace, taken by
 * kma_pipeline_open_sites(). Its kallsyms_done waits for the thread (the
 * reader frees the text after it); kma_pipeline_close_sites() frees a
 * table not taken.
 */
void kma_pipeline_kallsyms_read(void *ctx, const char *text, size_t len);
void kma_pipeline_kallsyms_done(void *ctx);
void kma_pipeline_close_sites(struct kma_pipeline *r);
int kma_pipeline_print(struct kma_pipeline *r);
/*
 * The report's percpu and vmalloc matchers (kma-analyze-kinds.c): opened
 * after the slab view (0, or -1 said), fed their kinds' events, markers and
 * module events (0, or -1 out of memory), their window, finished after the
 * run with a line for each kind --kind names that the trace lacks (0, or -1
 * said: none of them is in it), freed.
 */
int kma_pipeline_open_kinds(struct kma_pipeline *r);
int kma_pipeline_kinds_event(struct kma_pipeline *r, const struct kma_event *ev);
void kma_pipeline_kinds_window(struct kma_pipeline *r, uint64_t since, uint64_t until);
int kma_pipeline_finish_kinds(struct kma_pipeline *r, uint64_t end_ts);
void kma_pipeline_free_kinds(struct kma_pipeline *r);
/* Kind @k (enum kma_kind) has events in the trace. */
int kma_pipeline_kind_present(const struct kma_pipeline *r, int k);
/*
 * The page report's filter line ("# page allocations since ... (filter: ...); ...")
 * on @out, names escaped as in text with @text: 1, or 0 and nothing without a filter.
 */
int kma_pipeline_page_filter(struct kma_pipeline *r, FILE *out, int text);

#endif /* KMA_ANALYZE_INT_H */
