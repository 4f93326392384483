// SPDX-License-Identifier: GPL-2.0
/*
 * kma-analyze-html.c - --html in the run: the page's matchers opened with
 * the view's filters, and the page written after report.db with the page
 * allocations' section (what the --pages report counts, its filter in words)
 * and the counters.
 */
#include <stdio.h>
#include <stdlib.h>

#include "kma-analyze-int.h"
#include "kma-html.h"
#include "kma-options.h"
#include "kma-pagepipe.h"
#include "match/kma-select.h"
#include "reader/kma-reader.h"
#include "report/kma-report-html.h"

static int oom(void)
{
	fprintf(stderr, "kma-analyze: out of memory\n");
	return -1;
}

/* --html: the matchers of the page, with the view's filters; Chart.js read first. */
int kma_pipeline_open_html(struct kma_pipeline *r)
{
	struct kma_err err;

	if (!r->o->html)
		return 0;
	r->html = kma_html_open(kma_match_opts(r->view), r->real_html ? r->real_html : r->o->html,
				&err);
	if (!r->html) {
		fprintf(stderr, "kma-analyze: --html: %s\n", err.msg);
		return -1;
	}
	return 0;
}

/*
 * The page section's filter in words into @buf ("" for none): the --pages
 * report's line, or why the section has every page allocation. 0 or -1.
 */
static int page_filter_words(struct kma_pipeline *r, char *buf, size_t len)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f;

	buf[0] = '\0';
	if (!r->page_filtered) {
		snprintf(buf, len, "every page allocation of the trace: %s does not apply to "
			 "page allocations", kma_pipeline_page_unfit(r->o));
		return 0;
	}
	f = open_memstream(&s, &n);
	if (!f)
		return -1;
	kma_pipeline_page_filter(r, f, 0);
	if (fclose(f))
		return -1;
	/* without the text report's "# " and its line end */
	snprintf(buf, len, "%.*s", n > 3 ? (int)(n - 3) : 0, n > 3 ? s + 2 : "");
	free(s);
	return 0;
}

/* --html FILE: the page, after report.db. */
int kma_pipeline_write_html(struct kma_pipeline *r)
{
	struct kma_opts *o = r->o;
	struct kma_err err;
	char desc[1024], page_desc[1280];
	const char *filter = NULL;

	if (!r->html)
		return 0;
	if (kma_select_active(r->select)) {
		kma_select_describe(r->select, desc, sizeof(desc));
		filter = desc;
	}
	if (r->pages) {		/* the live pages chart: what the --pages report counts */
		const struct kma_store_pages *sp = kma_pagepipe_view(r->pages,
								    kma_reader_info(r->reader));
		struct kma_html_pages hp = {
			.totals = sp->totals, .tl = sp->timeline, .series = sp->series,
			.nr_series = sp->nr_series, .page_size = sp->page_size,
		};

		if (page_filter_words(r, page_desc, sizeof(page_desc)))
			return oom();
		hp.filter = page_desc[0] ? page_desc : NULL;

		if (sp->fn_timeline) {	/* with stacks: who allocated, not which task */
			hp.tl = sp->fn_timeline;
			hp.series = sp->fn_series;
			hp.nr_series = sp->nr_fn_series;
			hp.by_function = 1;
		}

		kma_html_set_pages(r->html, &hp);
	}
	if (o->report == KMA_REPORT_COUNTERS && r->counters)
		kma_html_set_counters(r->html, r->counters);
	kma_html_set_kinds(r->html, r->kinds);	/* the allocators' section and chart */
	if (kma_html_write(r->html, kma_reader_info(r->reader), o->young_ns,
			   o->cache_growth, filter, &err)) {
		fprintf(stderr, "kma-analyze: %s: %s\n", o->html, err.msg);
		return -1;
	}
	return 0;
}

