// SPDX-License-Identifier: GPL-2.0
/*
 * kma-html.c - --html wiring: the rows of each grouping of the
 * page's caller table (caller, function, module, cache, task, stack) are the
 * numbers `kma-analyze -g KEY` prints, from the same code. Caller, cache,
 * task and stack each have a matcher fed every event (their keys are the
 * event's, not only its call site's); the caller one also keeps the timeline
 * and the lifetimes. Function and module rows are the caller rows regrouped
 * at the end (kma_match_regroup): two matchers fewer to feed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "kma-grow.h"
#include "kma-map.h"
#include "report/kma-report-html.h"
#include "kma-signals.h"
#include "store/kma-store.h"
#include "kma-html.h"

struct kma_html {
	struct kma_match	*by[KMA_HTML_NR];
	char			*chartjs;
	const char		*path;		/* the page: replaced only once written whole */
	char			*tmp_path;	/* its temporary beside it, created at the start */
	FILE			*out;		/* the temporary; NULL once written */
	/* (generation, caller) of what is still live at the end: the caller matcher's sink */
	struct kma_map		gl_map;		/* gen << 32 | caller_id -> index in gl */
	struct kma_html_genlive	*gl;
	uint32_t		nr_gl;
	size_t			cap_gl;
	struct kma_html_pages	pages;		/* .totals NULL: no page matcher */
	const struct kma_counters *counters;	/* --counters, else NULL */
	struct kma_match	*kinds[KMA_KIND_NR];	/* percpu, vmalloc: the run's */
};

/* The caller matcher hands every allocation still live at the end here (free_kind -1). */
static int genlive_add(void *ctx, const struct kma_alloc_row *row)
{
	struct kma_html *h = ctx;
	uint64_t key = (uint64_t)row->generation << 32 | row->caller_id;
	uint32_t *idx;
	struct kma_html_genlive *e;

	if (row->free_kind != -1 || !row->selected)
		return 0;
	idx = kma_map_find(&h->gl_map, key);
	if (idx) {
		e = &h->gl[*idx];
	} else {
		if (kma_grow(&h->gl, &h->cap_gl, h->nr_gl, sizeof(*h->gl), 64) ||
		    kma_map_put(&h->gl_map, key, h->nr_gl))
			return -1;
		e = &h->gl[h->nr_gl++];
		memset(e, 0, sizeof(*e));
		e->gen = row->generation;
		e->caller_id = row->caller_id;
	}
	e->allocs++;
	e->bytes += row->bytes_alloc;
	return 0;
}

static const enum kma_group html_groups[KMA_HTML_NR] = {
	KMA_GROUP_CALLER, KMA_GROUP_FUNCTION, KMA_GROUP_MODULE, KMA_GROUP_CACHE,
	KMA_GROUP_COMM, KMA_GROUP_STACK,
};

/* Groupings whose rows are the caller rows regrouped at the end, not fed events. */
static int derived(int g)
{
	return g == KMA_HTML_FUNCTION || g == KMA_HTML_MODULE;
}

/* Chart.js goes inside a <script>: it must not end it. */
static int has_script_end(const char *s)
{
	for (; (s = strchr(s, '<')); s++)
		if (!strncasecmp(s, "</script", 8))
			return 1;
	return 0;
}

struct kma_html *kma_html_open(const struct kma_match_opts *base, const char *path,
			       struct kma_err *err)
{
	struct kma_html *h = calloc(1, sizeof(*h));
	const char *js = kma_html_chartjs_path();
	int g, fd = -1;

	if (!h || kma_map_init(&h->gl_map, 256)) {
		free(h);
		kma_err_nomem(err);
		return NULL;
	}
	h->chartjs = kma_html_slurp(js);
	if (!h->chartjs) {
		kma_err_set(err, KMA_ERR_OTHER, "%s: %s (install Debian's libjs-chart.js, or set "
			    "KMA_CHARTJS to Chart.js's UMD build)", js, strerror(errno));
		goto fail;
	}
	if (has_script_end(h->chartjs)) {
		kma_err_set(err, KMA_ERR_OTHER, "%s: contains '</script', cannot be inlined", js);
		goto fail;
	}
	/*
	 * A page that cannot be written is said before the trace is read. It is
	 * written to a temporary beside it and renamed over it once whole: an
	 * error, a full disk or a signal leaves the old page as it was.
	 */
	h->path = path;
	fd = kma_tmpfile_beside(path, &h->tmp_path);
	if (fd < 0 || !(h->out = fdopen(fd, "w"))) {
		kma_err_errno(err, errno, "%s: cannot create a temporary file next to it", path);
		if (fd >= 0)
			close(fd);
		goto fail;
	}
	kma_signals_arm(KMA_SIGNALS_PAGE, h->tmp_path);
	for (g = 0; g < KMA_HTML_NR; g++) {
		struct kma_match_opts o = *base;

		if (derived(g))
			continue;

		memset(&o.sink, 0, sizeof(o.sink));
		o.group_by = html_groups[g];
		o.keep_lifetimes = 0;	/* the chart's decades are counted in the totals */
		o.timeline = g == KMA_HTML_CALLER;
		if (g == KMA_HTML_CALLER) {
			o.sink.ctx = h;
			o.sink.alloc_done = genlive_add;
		}
		h->by[g] = kma_match_alloc(&o);
		if (!h->by[g]) {
			kma_err_nomem(err);
			goto fail;
		}
	}
	return h;
fail:
	kma_html_free(h);
	return NULL;
}

int kma_html_event(struct kma_html *h, const struct kma_event *ev)
{
	int g;

	for (g = 0; g < KMA_HTML_NR; g++)
		if (h->by[g] && kma_match_event(h->by[g], ev))
			return -1;
	return 0;
}

int kma_html_finish(struct kma_html *h, uint64_t end_ts)
{
	int g;

	for (g = 0; g < KMA_HTML_NR; g++)
		if (h->by[g] && kma_match_finish(h->by[g], end_ts))
			return -1;
	for (g = 0; g < KMA_HTML_NR; g++) {
		if (!derived(g) || h->by[g])
			continue;
		h->by[g] = kma_match_regroup(h->by[KMA_HTML_CALLER], html_groups[g]);
		if (!h->by[g])
			return -1;
	}
	return 0;
}

int kma_html_write(struct kma_html *h, const struct kma_trace_info *info,
		   uint64_t young_ns, const char * const *growth, const char *filter,
		   struct kma_err *err)
{
	struct kma_html_in in = {
		.info = info, .young_ns = young_ns, .growth = growth, .filter = filter,
		.chartjs = h->chartjs, .app_js = kma_html_app_js,
		.genlive = h->gl, .nr_genlive = h->nr_gl,
		.pages = h->pages.totals ? &h->pages : NULL,
		.counters = h->counters,
	};
	FILE *f = h->out;
	int g, ret;

	h->out = NULL;
	for (g = 0; g < KMA_HTML_NR; g++)
		in.by[g] = h->by[g];
	for (g = 0; g < KMA_KIND_NR; g++)
		in.kinds[g] = h->kinds[g];
	if (!info->stacked)
		in.by[KMA_HTML_STACK] = NULL;	/* no flame graph of one [no stack] frame */
	errno = 0;
	ret = kma_report_html(f, &in);
	if (fclose(f))
		ret = -1;
	if (ret && errno)
		return kma_err_set(err, KMA_ERR_OTHER, "%s", strerror(errno));
	if (ret)
		return kma_err_nomem(err);
	if (rename(h->tmp_path, h->path))
		return kma_err_errno(err, errno, "cannot rename %s to it", h->tmp_path);
	kma_signals_arm(KMA_SIGNALS_PAGE, NULL);	/* in place: a signal now leaves it */
	free(h->tmp_path);
	h->tmp_path = NULL;
	return 0;
}

void kma_html_set_counters(struct kma_html *h, const struct kma_counters *c)
{
	h->counters = c;
}

void kma_html_set_kinds(struct kma_html *h, struct kma_match *const kinds[KMA_KIND_NR])
{
	int k;

	for (k = KMA_KIND_PERCPU; k < KMA_KIND_NR; k++)
		h->kinds[k] = kinds[k];
}

void kma_html_set_pages(struct kma_html *h, const struct kma_html_pages *p)
{
	h->pages = *p;
}

void kma_html_free(struct kma_html *h)
{
	int g;

	if (!h)
		return;
	if (h->out)
		fclose(h->out);
	if (h->tmp_path) {
		/* never written whole: the temporary goes, the page there before stays */
		kma_signals_arm(KMA_SIGNALS_PAGE, NULL);
		unlink(h->tmp_path);
		free(h->tmp_path);
	}
	for (g = 0; g < KMA_HTML_NR; g++)
		kma_match_free(h->by[g]);
	free(h->chartjs);
	kma_map_release(&h->gl_map);
	free(h->gl);
	free(h);
}
