/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-html.h - --html wiring: one matcher per grouping the page
 * switches between, fed the same events as the report, then the page written
 * by report/kma-report-html.c.
 */
#ifndef KMA_HTML_H
#define KMA_HTML_H

#include "kma-err.h"
#include "match/kma-match.h"
#include "reader/kma-reader.h"
#include "report/kma-report-html.h"

struct kma_html;

/*
 * Reads Chart.js (kma_html_chartjs_path()), creates the page @path (removed
 * again by kma_html_free() unless written) and opens the matchers from the
 * report's options @base (filters included). NULL with the reason in @err.
 */
struct kma_html *kma_html_open(const struct kma_match_opts *base, const char *path,
			       struct kma_err *err);
int kma_html_event(struct kma_html *h, const struct kma_event *ev);
int kma_html_finish(struct kma_html *h, uint64_t end_ts);
/* Writes the page; 0, or -1 with the reason in @err. */
int kma_html_write(struct kma_html *h, const struct kma_trace_info *info,
		   uint64_t young_ns, const char * const *growth, const char *filter,
		   struct kma_err *err);
/* the page allocations the page shows (copied; the pointers must outlive the write). */
/* --counters: the page gets their tables (a finished tracker, kept by the caller). */
void kma_html_set_counters(struct kma_html *h, const struct kma_counters *c);
/* the percpu and vmalloc matchers (finished, kept by the caller; NULL: none). */
void kma_html_set_kinds(struct kma_html *h, struct kma_match *const kinds[KMA_KIND_NR]);
void kma_html_set_pages(struct kma_html *h, const struct kma_html_pages *p);
void kma_html_free(struct kma_html *h);

#endif /* KMA_HTML_H */
