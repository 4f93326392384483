// SPDX-License-Identifier: GPL-2.0
/*
 * kma-analyze - match kmem allocations to frees in a trace.dat, print the
 * per-caller report and write report.db.
 *
 * main() is wiring only: the options (kma-options.c), then one function per
 * step of the pipeline (check the output, open the reader, the matchers and
 * the store, run, finish, commit, print), each printing its own error and
 * returning -1, then the one cleanup.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <signal.h>

#include "match/kma-leak.h"
#include "reader/kma-live.h"
#include "match/kma-match.h"
#include "match/kma-kind.h"
#include "match/kma-select.h"
#include "kma-top.h"
#include "reader/kma-reader.h"
#include "sites/kma-ksyms-src.h"
#include "sites/kma-sites.h"
#include "sites/kma-stacks.h"
#include "report/kma-report-callers.h"
#include "report/kma-list.h"
#include "report/kma-report-leaks.h"
#include "report/kma-report-advice.h"
#include "report/kma-report-cross.h"
#include "match/kma-counters.h"
#include "report/kma-report-time.h"
#include "kma-pagepipe.h"
#include "store/kma-store.h"
#include "report/kma-table.h"
#include "kma-options.h"
#include "kma-output.h"
#include "kma-signals.h"
#include "kma-stdin.h"
#include "kma-html.h"
#include "kma-time.h"
#include "kma-analyze-int.h"
#include "kma-count.h"

/* The filter's time window, once the trace's first timestamp is known. */
static int set_window(struct kma_pipeline *r)
{
	uint64_t first = kma_reader_info(r->reader)->first_ts, since = 0, until = 0, v;
	int abs;

	r->window_set = 1;
	if (r->o->since && !kma_parse_time(r->o->since, &v, &abs))
		since = abs ? v : first + v;
	if (r->o->until && !kma_parse_time(r->o->until, &v, &abs))
		until = abs ? v : first + v;
	if (r->o->until && until <= since)
		return kma_err_set(&r->err, KMA_ERR_OTHER,
				   "--until is not after --since: the window is empty");
	kma_match_set_window(r->view, since, until);
	kma_pipeline_kinds_window(r, since, until);
	if (r->pages && r->page_filtered)	/* --pages, or --html's page section */
		kma_pagepipe_set_window(r->pages, since, until);
	return 0;
}

static int feed_all(struct kma_pipeline *r, const struct kma_event *ev)
{
	int i;

	if (r->match && kma_match_event(r->match, ev))
		return -1;
	if (r->view != r->match && kma_match_event(r->view, ev))
		return -1;
	if (r->sview && kma_match_event(r->sview, ev))
		return -1;
	if (r->html && kma_html_event(r->html, ev))
		return -1;
	for (i = 0; ev->type == KMA_EV_MARKER && i < KMA_KIND_NR; i++)
		if (r->kinds[i] && kma_match_event(r->kinds[i], ev))
			return -1;	/* the other kinds' generations */
	return 0;
}

/* Why a matcher failed: its sink, report.db's store, said so, else out of memory. */
static int sink_err(struct kma_pipeline *r, struct kma_err *err)
{
	return r->store ? kma_store_err(r->store, err) : kma_err_nomem(err);
}

/* A matcher of the report failed: report.db named with the reason, in r->err. */
static int feed_fail(struct kma_pipeline *r)
{
	struct kma_err why;

	sink_err(r, &why);
	return kma_err_set(&r->err, why.kind, "%s: %s", r->o->output, why.msg);
}

/*
 * A percpu or vmalloc event: to its kind's matcher, made at the first one,
 * named as the slab matcher names call sites, its rows to report.db, its
 * live bytes binned for --html, and given the generations so far. 0, or -1
 * out of memory or a report.db error (sink_err() says which).
 */
static int feed_kind(struct kma_pipeline *r, const struct kma_event *ev)
{
	int k = kma_kind_of_event(ev->type);
	const struct kma_generation *g;
	uint32_t i, n = 0;

	if (!r->kinds[k]) {	/* built once, not per event */
		struct kma_match_opts mo = { .kind = (enum kma_kind)k, .resolve = r->mo.resolve,
			.resolve_ctx = r->mo.resolve_ctx, .stack_ctx = r->stacks,
			.stack_caller = k == KMA_KIND_VMALLOC ?
				kma_stacks_vmap_caller_addr : kma_stacks_percpu_caller_addr,
			.timeline = r->o->html != NULL, .sink = { .ctx = r->store,
			.alloc_done = r->store ? kma_store_kind_row : NULL } };

		if (!(r->kinds[k] = kma_match_alloc(&mo)))
			return -1;
		g = kma_match_generations(r->match ? r->match : r->view, &n);
		for (i = 1; i < n; i++) {
			struct kma_event m = { .type = KMA_EV_MARKER, .ts = g[i].ts,
					       .label = g[i].label };

			if (kma_match_event(r->kinds[k], &m))
				return -1;
		}
	}
	if (r->kview[k] && kma_match_event(r->kview[k], ev))	/* the report's, --kind */
		return -1;
	return kma_match_event(r->kinds[k], ev);
}

/*
 * One event to every consumer. Returns -1 with the reason in r->err (the
 * reader then says none of its own), or -1 alone when interrupted.
 */
static int feed(void *ctx, const struct kma_event *ev)
{
	struct kma_pipeline *r = ctx;

	if (kma_interrupted)
		return -1;
	if (!r->window_set && set_window(r))
		return -1;
	if (ev->type == KMA_EV_MARKER && r->pages && kma_pagepipe_feed(r->pages, ev))
		return kma_err_nomem(&r->err);	/* page generations */
	/* --counters: kmem events and the counter markers (which go nowhere else) */
	if (r->counters && kma_counters_event(r->counters, ev))
		return kma_err_nomem(&r->err);
	if (ev->type == KMA_EV_COUNTER)
		return 0;
	/* the percpu and vmalloc tables' generations and module unloads */
	if ((ev->type == KMA_EV_MARKER || ev->type == KMA_EV_MODULE_LOAD ||
	     ev->type == KMA_EV_MODULE_FREE) && kma_pipeline_kinds_event(r, ev))
		return kma_err_nomem(&r->err);
	if (kma_ev_is_percpu(ev->type) || kma_ev_is_vmap(ev->type)) {
		struct kma_event e = *ev;

		/* the caller of a vmap area (and of an old percpu event) is a stack frame */
		if (ev->stack_depth &&
		    kma_stacks_intern(r->stacks, ev->stack, ev->stack_depth, &e.stack_id))
			return kma_err_nomem(&r->err);
		return feed_kind(r, &e) ? feed_fail(r) : 0;
	}
	if (kma_ev_is_page(ev->type)) {	/* to the page matcher only */
		/* a page row that reaches report.db may fail there */
		if (r->pages && kma_pagepipe_feed(r->pages, ev))
			return sink_err(r, &r->err);
		return 0;
	}
	if (ev->stack_depth) {
		/* the stack is interned once here, for every matcher */
		struct kma_event e = *ev;

		if (kma_stacks_intern(r->stacks, ev->stack, ev->stack_depth, &e.stack_id))
			return kma_err_nomem(&r->err);
		return feed_all(r, &e) ? feed_fail(r) : 0;
	}
	return feed_all(r, ev) ? feed_fail(r) : 0;
}

/*
 * The pointer indexes' slots of an event a few records ahead, fetched while
 * this one is matched (kma_reader_set_hint()): a lookup in an index of megabytes
 * is a cache miss, about the whole budget of an event, and the reader
 * knows the next events' keys before the matchers need them.
 */
static void hint(void *ctx, const struct kma_event *sketch)
{
	struct kma_pipeline *r = ctx;

	if (kma_ev_is_page(sketch->type)) {
		if (r->pages)
			kma_pagepipe_prefetch(r->pages, sketch);
		return;
	}
	if (r->match)
		kma_match_prefetch(r->match, sketch);
	if (r->view && r->view != r->match)
		kma_match_prefetch(r->view, sketch);
}

static int oom(void);

/* The top-style view, redrawn every interval (and on keys) while tracing live. */
static void live_refresh(void *ctx, const struct kma_trace_info *info, double elapsed, int redraw)
{
	struct kma_pipeline *r = ctx;
	struct kma_top_in in = { .elapsed = elapsed, .events = info->events,
				 .lost = kma_trace_lost(info, NULL), .buffer_kb = info->buffer_kb };

	in.totals = kma_match_totals(r->view);
	in.callers = kma_match_callers(r->view, &in.nr_callers);
	kma_top_frame(r->top, &in, redraw);	/* out of memory: a frame missed */
}

static int live_key(void *ctx, int c)
{
	struct kma_pipeline *r = ctx;

	return kma_top_key(r->top, c);
}

/* The view's filter, one line for the frame header; the view is open by then. */
static int open_top(struct kma_pipeline *r)
{
	struct kma_opts *o = r->o;
	struct kma_top_opts to = { .out = stdout, .key_fd = STDIN_FILENO, .sort = o->sort,
				   .limit = o->limit, .quit = &kma_live_stop };
	char desc[1024];

	if (!o->live || o->quiet)
		return 0;
	if (kma_select_active(r->select)) {
		kma_select_describe(r->select, desc, sizeof(desc));
		to.filter = desc;
	}
	r->top = kma_top_new(&to);
	if (!r->top)
		return oom();
	r->lo.refresh = live_refresh;
	r->lo.key = live_key;
	r->lo.key_fd = kma_top_key_fd(r->top);
	return 0;
}

static void progress(void *ctx, double fraction)
{
	fprintf(stderr, "\rkma-analyze: %s: %3.0f%%", (const char *)ctx, fraction * 100.0);
}

static int oom(void)
{
	fprintf(stderr, "kma-analyze: out of memory\n");
	return -1;
}

/* The temporaries of an output that a killed run left: removed, and said. */
static void sweep_orphans(const char *path)
{
	int n = kma_tmpfile_sweep(path);

	if (n > 0)
		fprintf(stderr, "kma-analyze: %s: note: removed %d temporary file%s left by a "
			"run that no longer exists\n", path, n, n > 1 ? "s" : "");
}

/* -o and --html: through the output guard (kma-output.h) before any work. */
static int check_output(struct kma_pipeline *r)
{
	struct kma_opts *o = r->o;
	const char *inputs[] = { o->live ? NULL : o->input, NULL };
	char reason[KMA_OUTPUT_WHY_LEN];

	if (!o->no_db && kma_output_check(o->output, KMA_OUTPUT_DB, inputs, o->force,
					  &r->real_output, reason, sizeof(reason))) {
		fprintf(stderr, "kma-analyze: %s: %s\n", o->output, reason);
		return -1;
	}
	if (o->html && kma_output_check(o->html, KMA_OUTPUT_HTML, inputs, o->force,
					&r->real_html, reason, sizeof(reason))) {
		fprintf(stderr, "kma-analyze: %s: %s\n", o->html, reason);
		return -1;
	}
	if (!o->no_db)
		sweep_orphans(r->real_output ? r->real_output : o->output);
	if (o->html)
		sweep_orphans(r->real_html ? r->real_html : o->html);
	return 0;
}

/* The trace.dat, or the ring buffer with --live, and the names of call sites. */
static int open_reader(struct kma_pipeline *r)
{
	struct kma_opts *o = r->o;
	struct kma_err err;

	if (o->live) {
		r->lo.duration = o->duration;
		r->lo.interval = o->interval;
		r->lo.buffer_kb = o->buffer_kb;	/* 0: sized to the machine */
		r->lo.stop = &kma_live_stop;
		r->lo.refresh_ctx = r;		/* refresh and keys: open_top() */
		r->lo.key_fd = -1;
		o->input = "live";
		r->reader = kma_live_open(&r->lo, &err);
	} else {
		struct kma_file_opts fo = {
			.buffer = o->buffer, .jobs = o->jobs, .libtracecmd = o->libtracecmd,
			.no_probe = o->no_probe,
			.kallsyms_read = kma_pipeline_kallsyms_read,
			.kallsyms_done = kma_pipeline_kallsyms_done, .kallsyms_ctx = r,
		};

		r->reader = kma_reader_open_file(o->input_path ? o->input_path : o->input,
						  &fo, &err);
	}
	if (!r->reader) {
		fprintf(stderr, "kma-analyze: %s: %s\n", o->input, err.msg);
		return -1;
	}
	if (kma_reader_info(r->reader)->buffer_auto)
		fprintf(stderr, "kma-analyze: %s: reading buffer '%s' (the top-level buffer has no "
			"kmem events)\n", o->input, kma_reader_info(r->reader)->buffer);
	/* the slow path, when the user did not ask for it: say why */
	if (!o->live && !o->libtracecmd && !o->quiet && kma_reader_info(r->reader)->why_libtracecmd)
		fprintf(stderr, "kma-analyze: %s: note: read through libtracecmd on one thread (%s)\n",
			o->input, kma_reader_info(r->reader)->why_libtracecmd);
	/* percpu and vmalloc: "kernel memory by allocator" when the trace has them */
	if (!o->live)
		kma_reader_want_kinds(r->reader, 1u << KMA_KIND_PERCPU | 1u << KMA_KIND_VMALLOC);
	if (kma_reader_set_marker_prefix(r->reader, o->marker_prefix))
		return oom();
	return 0;
}

/*
 * --pages: the page matcher; the reader hands page events on. --html runs
 * it too, for its live pages chart (a trace without page events: no section).
 */
static int open_pages(struct kma_pipeline *r)
{
	int db = r->o->pages && !r->o->no_db;
	char why[256];

	if (!r->o->pages && !r->o->html)
		return 0;
	r->pages = kma_pagepipe_open(r->reader, r->sites, (db ? KMA_PAGEPIPE_ROWS : 0) |
				    (db || r->o->html ? KMA_PAGEPIPE_TIMELINE : 0));
	if (!r->pages)
		return oom();
	/* --html alone: its page section follows the filter where the filter can apply */
	r->page_filtered = r->o->pages || !kma_pipeline_page_unfit(r->o);
	if (r->page_filtered && r->o->generation)
		kma_pagepipe_generation(r->pages, r->o->generation);
	if (r->page_filtered && kma_pagepipe_filter(r->pages, r->o->sel, r->o->nr_sel,
					      r->o->exclude_self, r->o->since || r->o->until,
					      why, sizeof(why))) {
		fprintf(stderr, "kma-analyze: %s\n", why);
		return -1;
	}
	if (r->o->report == KMA_REPORT_LIFETIMES)	/* the -g one, or both defaults */
		kma_pagepipe_lifetimes(r->pages, r->o->page_group, r->o->exact_lifetimes);
	return 0;
}

/* The view's filters, and the pattern-less one that only finds the recorder's own. */
static int open_selects(struct kma_pipeline *r)
{
	struct kma_opts *o = r->o;
	struct kma_err err;
	int i;

	r->select = kma_select_alloc();
	r->self = kma_select_alloc();
	if (!r->select || !r->self)
		return oom();
	kma_select_set_resolve(r->select, kma_sites_symbol, r->sites);
	kma_select_set_resolve(r->self, kma_sites_symbol, r->sites);
	kma_select_exclude_self(r->select, o->exclude_self);
	for (i = 0; i < o->nr_sel; i++) {
		/* checked by kma-options already: only out of memory is left */
		if (kma_select_add(r->select, (enum kma_sel_kind)o->sel[i].kind, o->sel[i].arg,
				   &err)) {
			fprintf(stderr, "kma-analyze: %s\n", err.msg);
			return -1;
		}
	}
	return 0;
}

/* The matcher of everything, feeding report.db; none with --no-db. */
static int open_match(struct kma_pipeline *r)
{
	struct kma_opts *o = r->o;
	struct kma_match_opts *mo = &r->mo;

	mo->kmalloc_only = o->kmalloc_only;
	mo->resolve = kma_sites_symbol;
	mo->module_of = kma_sites_module;
	mo->group_name = kma_sites_group_name;
	mo->resolve_ctx = r->sites;
	mo->stack_name = kma_stacks_folded;
	mo->stack_ctx = r->stacks;
	mo->temp_ns = o->temp_ns;
	mo->exact_lifetimes = o->exact_lifetimes;
	if (open_selects(r))
		return -1;
	mo->select = kma_select_event;	/* no pattern: only counts the recorder's own */
	mo->select_ctx = r->self;
	if (!o->no_db) {
		/* -o a symbolic link: its target is replaced */
		struct kma_err err;

		r->store = kma_pipeline_open_store(r->real_output ? r->real_output : o->output, &err);
		if (!r->store) {
			fprintf(stderr, "kma-analyze: %s: %s\n", o->output, err.msg);
			return -1;
		}
		mo->sink.ctx = r->store;
		if (r->pages)	/* page rows stream through the store's writer */
			kma_pagepipe_stream(r->pages, r->store);
		mo->sink.alloc_done = kma_store_alloc_row;
		mo->sink.unknown_free = kma_store_unknown_free;
		mo->timeline = 1;	/* report.db's timeline table */
		r->match = kma_match_alloc(mo);
		mo->timeline = 0;
		if (!r->match)
			return oom();
	}
	return 0;
}

/* The text --leaks by caller is followed by the same by stack: a matcher grouped so. */
static int open_stack_view(struct kma_pipeline *r)
{
	struct kma_match_opts vo;

	if (r->o->report != KMA_REPORT_LEAKS || r->o->format != KMA_FMT_TEXT ||
	    r->o->group_by == KMA_GROUP_STACK)
		return 0;
	vo = *kma_match_opts(r->view);	/* the same filter */
	memset(&vo.sink, 0, sizeof(vo.sink));
	vo.group_by = KMA_GROUP_STACK;
	r->sview = kma_match_alloc(&vo);
	return r->sview ? 0 : oom();
}

/* A second matcher for a filtered report, a list or exact lifetimes. */
static int open_view(struct kma_pipeline *r)
{
	struct kma_opts *o = r->o;

	r->filtered = o->generation || o->since || o->until;
	/* --counters, the leak verdicts' kernel counts (report.db, --leaks) */
	if ((o->report == KMA_REPORT_COUNTERS || o->report == KMA_REPORT_LEAKS || r->match) &&
	    !(r->counters = kma_counters_alloc(r->match)))
		return oom();
	if (r->filtered || kma_select_active(r->select) || o->report == KMA_REPORT_LIST ||
	    o->report == KMA_REPORT_LIFETIMES || o->report == KMA_REPORT_CROSS_CPU ||
	    o->group_by != KMA_GROUP_CALLER || !r->match) {
		struct kma_match_opts vo = r->mo;

		vo.select_ctx = r->select;	/* the filters: this view only, never report.db */
		memset(&vo.sink, 0, sizeof(vo.sink));
		vo.keep_lifetimes = o->report == KMA_REPORT_LIFETIMES;
		vo.group_by = o->group_by;
		vo.filtered = r->filtered;
		if (r->filtered || kma_select_active(r->select)) {
			vo.free_scope = kma_select_frees_apply(r->select) ? KMA_FREES_FILTERED :
									    KMA_FREES_WHOLE;
			vo.select_free = kma_select_free_event;
		}
		vo.filter.generation = -1;
		if (o->generation) {
			char *end;
			long long g = strtoll(o->generation, &end, 10);

			if (*end || g < 0)
				vo.filter.gen_label = o->generation;
			else
				vo.filter.generation = g;
		}
		if (o->report == KMA_REPORT_LIST) {
			r->list = kma_list_alloc(o->outstanding, o->limit);
			if (!r->list)
				return oom();
			vo.sink.ctx = r->list;
			vo.sink.alloc_done = kma_list_add;
		}
		if (o->report == KMA_REPORT_CROSS_CPU) {
			r->cross = kma_cross_alloc();
			if (!r->cross)
				return oom();
			vo.sink.ctx = r->cross;
			vo.sink.alloc_done = kma_cross_add;
		}
		r->view = kma_match_alloc(&vo);
		if (!r->view)
			return oom();
	} else {
		r->view = r->match;
	}
	return open_stack_view(r);
}

/*
 * Every event through feed(); a signal ends it with -1 and no message. The
 * reader's reason names the trace; feed()'s, in r->err, names what it is about.
 */
static int run_trace(struct kma_pipeline *r)
{
	struct kma_opts *o = r->o;
	struct kma_err err;
	int ret;

	r->show_progress = !o->quiet && !o->live && isatty(STDERR_FILENO);
	kma_signals_progress_line(r->show_progress);
	/* either source: --live reads until its duration ends or a signal stops it */
	if (open_top(r))
		return -1;
	kma_err_clear(&r->err);
	kma_reader_set_hint(r->reader, hint, r);
	ret = kma_reader_run(r->reader, feed, r, r->show_progress ? progress : NULL,
			     (void *)o->input, &err);
	if (r->top) {
		/* the terminal back now: what follows may ask nothing, but is read */
		kma_top_end(r->top);
		o->sort = kma_top_sort(r->top);	/* the final report in the order last seen */
	}
	if (ret) {
		if (r->show_progress)
			fputc('\n', stderr);
		if (kma_interrupted)
			return -1;
		if (err.kind != KMA_ERR_NONE)
			fprintf(stderr, "kma-analyze: %s: %s\n", o->input, err.msg);
		else
			fprintf(stderr, "kma-analyze: %s\n", r->err.msg);
		return -1;
	}
	if (r->show_progress)
		fputs("\r\033[K", stderr);
	kma_signals_progress_line(0);
	if (kma_interrupted)
		return -1;
	return 0;
}

/*
 * --generation names a generation the trace has: else an error listing them
 * (a report of nothing would read as "nothing was allocated then").
 */
static int check_generation(struct kma_pipeline *r)
{
	const struct kma_generation *g;
	uint32_t nr, i;
	int64_t sel;

	if (!r->o->generation || !r->view)
		return 0;
	g = kma_match_generations(r->view, &nr);
	sel = kma_match_selected_generation(r->view);
	if (sel >= 0 && sel < (int64_t)nr)
		return 0;
	fprintf(stderr, "kma-analyze: %s: no generation '", r->o->input);
	kma_text_str(stderr, r->o->generation);
	fprintf(stderr, "' in the trace; it has %u:", nr);
	for (i = 0; i < nr && i < 32; i++) {
		fprintf(stderr, "%s %u ", i ? "," : "", i);
		kma_text_str(stderr, g[i].label ? g[i].label : "");
	}
	fprintf(stderr, "%s\n", i < nr ? ", ..." : "");
	return -1;
}

/* A trace without kmem events is an error; then the warnings, then the matchers' end. */
static int finish_run(struct kma_pipeline *r)
{
	struct kma_opts *o = r->o;
	const struct kma_trace_info *info = kma_reader_info(r->reader);
	int k;

	if (o->pages && !info->page_count[0] && !info->page_count[1]) {
		fprintf(stderr, "kma-analyze: %s: no page allocator events in %s; record with "
			"-e kmem:mm_page_alloc -e kmem:mm_page_free\n", o->input,
			o->buffer ? o->buffer : "this trace");
		return -1;
	}
	if (!info->kmem_events && !o->pages && info->page_count[0]) {
		fprintf(stderr, "kma-analyze: %s: no slab allocation or free events, but %" PRIu64
			" page allocations: try --pages\n", o->input, info->page_count[0]);
		return -1;
	}
	/* percpu or vmalloc alone: the kernel memory by allocator says it */
	if (!info->kmem_events && !o->pages &&
	    !r->kinds[KMA_KIND_PERCPU] && !r->kinds[KMA_KIND_VMALLOC]) {
		fprintf(stderr, "kma-analyze: %s: no kmem allocation or free events in %s%s%s; "
			"record with -e kmem:kmalloc -e kmem:kfree -e kmem:kmem_cache_alloc "
			"-e kmem:kmem_cache_free\n", o->input, o->buffer ? "buffer '" : "this trace",
			o->buffer ? o->buffer : "", o->buffer ? "' of this trace" : "");
		return -1;
	}
	/* after the run, so that an error stays the one line on stderr */
	if (info->warning)
		fprintf(stderr, "kma-analyze: %s: warning: %s\n", o->input, info->warning);
	if (info->records_warning)
		fprintf(stderr, "kma-analyze: %s: warning: %s\n", o->input, info->records_warning);
	kma_run_warn_damage(o->input, info);
	if (r->sym_note)
		fprintf(stderr, "kma-analyze: %s: note: %s\n", o->input, r->sym_note);
	if (info->kmalloc_warning &&
	    info->ev_count[KMA_EV_KMALLOC] + info->ev_count[KMA_EV_KMALLOC_NODE])
		fprintf(stderr, "kma-analyze: %s: warning: %s\n", o->input, info->kmalloc_warning);
	r->map_from = kma_cross_map(o->cpu_nodes, info->topology, &r->node_map, &r->nr_nodes);
	if (info->topology && !o->cpu_nodes && !r->map_from)
		fprintf(stderr, "kma-analyze: %s: warning: CPU -> node marker not understood: %s\n",
			o->input, info->topology);
	for (k = KMA_KIND_PERCPU; k < KMA_KIND_NR; k++)
		if (r->kinds[k] && kma_match_finish(r->kinds[k], info->last_ts))
			break;
	if (k < KMA_KIND_NR ||
	    (r->pages && kma_pagepipe_finish(r->pages, info->last_ts)) ||
	    (r->match && kma_match_finish(r->match, info->last_ts)) ||
	    (r->view != r->match && kma_match_finish(r->view, info->last_ts)) ||
	    (r->sview && kma_match_finish(r->sview, info->last_ts)) ||
	    (r->html && kma_html_finish(r->html, info->last_ts)) ||
	    (r->counters && kma_counters_finish(r->counters, kma_sites_group_name, r->sites))) {
		feed_fail(r);
		fprintf(stderr, "kma-analyze: %s\n", r->err.msg);
		return -1;
	}
	if (kma_interrupted)
		return -1;	/* --live: a second Ctrl-C while finishing abandons the report */
	if (kma_pipeline_finish_kinds(r, info->last_ts))
		return -1;
	return check_generation(r);
}

/* The report (or the list) on stdout, unless -q. */
static int print_output(struct kma_pipeline *r)
{
	struct kma_opts *o = r->o;
	const struct kma_trace_info *info = kma_reader_info(r->reader);

	if (o->quiet)
		return 0;
	errno = 0;
	if (kma_pipeline_print(r) || (r->list && kma_list_print(stdout, r->list, info->last_ts,
							  o->limit, o->format)) || fflush(stdout)) {
		fprintf(stderr, "kma-analyze: cannot write the report to stdout: %s\n",
			errno ? strerror(errno) : "out of memory");
		return -1;
	}
	return 0;
}

static void close_run(struct kma_pipeline *r)
{
	int i;

	kma_store_free(r->store);
	if (r->view != r->match)
		kma_match_free(r->view);
	kma_match_free(r->match);
	for (i = 0; i < KMA_KIND_NR; i++)
		kma_match_free(r->kinds[i]);
	kma_pipeline_free_kinds(r);
	kma_list_free(r->list);
	kma_cross_free(r->cross);
	kma_counters_free(r->counters);
	free(r->node_map);
	kma_match_free(r->sview);
	kma_html_free(r->html);
	kma_stacks_free(r->stacks);
	free(r->sym_note);
	kma_sites_free(r->sites);
	kma_select_free(r->select);
	kma_select_free(r->self);
	kma_top_free(r->top);
	kma_pagepipe_free(r->pages);
	kma_reader_close(r->reader);	/* waits for the symbol table's thread first */
	kma_pipeline_close_sites(r);
	free(r->real_output);
	free(r->real_html);
}

int main(int argc, char **argv)
{
	struct kma_opts o;
	struct kma_pipeline r = { .o = &o };
	int ret;

	ret = kma_opts_parse(argc, argv, &o);
	if (ret >= 0) {
		kma_leak_growth_free(o.cache_growth);	/* --cache-growth */
		return ret;
	}
	if (o.count) {
		kma_signals_catch(0);
		ret = kma_stdin_input(&o.input, &o.input_path) ? 1 : kma_count_main(&o);
		goto out;
	}
	ret = 1;
	if (check_output(&r))
		goto out;
	kma_signals_catch(o.live);
	if (kma_stdin_input(&o.input, &o.input_path) || open_reader(&r) ||
	    kma_pipeline_open_sites(&r) || open_pages(&r) || open_match(&r) || open_view(&r) ||
	    kma_pipeline_open_kinds(&r) || kma_pipeline_open_html(&r) || run_trace(&r) ||
	    finish_run(&r) || kma_pipeline_commit_store(&r) || kma_pipeline_write_html(&r) || print_output(&r))
		goto out;
	ret = 0;
out:
	close_run(&r);
	kma_leak_growth_free(o.cache_growth);
	if (kma_interrupted) {
		/* --live abandoned: temporary file and tracefs instance removed above */
		kma_signals_die(kma_interrupted);
	}
	return ret;
}
