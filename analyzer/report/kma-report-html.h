/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-html.h - --html: one self-contained page. The data
 * (JSON, every name escaped as data), Chart.js and the page's own script are
 * inlined; the page makes no request.
 */
#ifndef KMA_REPORT_HTML_H
#define KMA_REPORT_HTML_H

#include "kma-chartjs.h"
#include <stdio.h>
#include "match/kma-match.h"
#include "match/kma-pagealloc.h"
#include "match/kma-counters.h"
#include "reader/kma-reader.h"

/*
 * The page's mark, in its <head> within its first KMA_HTML_MARK_WITHIN bytes: the
 * output guard replaces a page that has it (or, from before the mark, the title)
 * and refuses any other file without --force.
 */
#define KMA_HTML_GENERATOR	"<meta name=\"generator\" content=\"kma-analyze\">"
#define KMA_HTML_TITLE		"<title>kma report</title>"
#define KMA_HTML_MARK_WITHIN	1024

/* The groupings the page switches between: one matcher each, the same events. */
enum kma_html_group {
	KMA_HTML_CALLER, KMA_HTML_FUNCTION, KMA_HTML_MODULE, KMA_HTML_CACHE, KMA_HTML_COMM,
	KMA_HTML_STACK, KMA_HTML_NR
};

/* What the allocations of one generation by one caller still held at the end. */
struct kma_html_genlive {
	uint32_t	gen;
	uint32_t	caller_id;	/* in by[KMA_HTML_CALLER] */
	uint64_t	allocs;
	uint64_t	bytes;
};

/* the page allocations (kma-analyze --pages's matcher), for "Live pages over time". */
struct kma_html_pages {
	const struct kma_page_totals	*totals;
	const struct kma_timeline	*tl;		/* in pages */
	/* the comm rows, or with @by_function the function rows, by the timeline's ids */
	const struct kma_caller		*series;
	uint32_t			nr_series;
	int				by_function;	/* a NULL name: "[no stack]" */
	unsigned int			page_size;
	const char			*filter;	/* what is counted, in words, or NULL */
};

struct kma_html_in {
	const struct kma_trace_info	*info;
	/* [KMA_HTML_CALLER] has the timeline and the lifetimes; [STACK] NULL: no stacks */
	struct kma_match		*by[KMA_HTML_NR];
	uint64_t			young_ns;	/* leak verdicts, as --leaks */
	const char * const		*growth;
	const char			*filter;	/* the report filter in words, or NULL */
	struct kma_html_genlive		*genlive;	/* any order; sorted in place */
	uint32_t			nr_genlive;
	const char			*chartjs;	/* Chart.js text (UMD build) */
	const char			*app_js;	/* the page's script (kma-report-html.js) */
	/* NULL, or a trace without page allocations: no page section */
	const struct kma_html_pages	*pages;
	/* --counters: the kernel's counters beside the trace; NULL: no section */
	const struct kma_counters	*counters;
	/* the percpu and vmalloc matchers by enum kma_kind (NULL: none; slab, page: above) */
	struct kma_match		*kinds[KMA_KIND_NR];
};


/* the "pages" member of the page's data (kma-report-html-pages.c); nothing when none. */
void kma_html_write_pages(FILE *out, const struct kma_html_pages *p);

/*
 * the "kinds" member (kma-report-html-kinds.c): with more than one allocator,
 * each one's sums, live bytes over time and (percpu, vmalloc) callers.
 */
void kma_html_write_kinds(FILE *out, const struct kma_html_in *in);

/* the "counters" member (kma-report-html-counters.c); nothing when NULL. 0, -1 oom. */
int kma_html_write_counters(FILE *out, const struct kma_counters *c);

/* Writes the page; 0, or -1 on a write error or out of memory. */
int kma_report_html(FILE *out, const struct kma_html_in *in);

/* The page's script, compiled in from analyzer/report/kma-report-html.js. */
extern const char kma_html_app_js[];

#endif /* KMA_REPORT_HTML_H */
