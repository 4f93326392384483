// SPDX-License-Identifier: GPL-2.0
/*
 * kma-analyze-store.c - report.db in the run: the store opened with the
 * signals blocked (its writer thread inherits the mask, so a signal lands on
 * the main thread, which removes the temporary), and at the end the run's
 * results handed to it in one struct and the file renamed into place.
 */
#include <signal.h>
#include <stdio.h>

#include "kma-analyze-int.h"
#include "kma-options.h"
#include "kma-pagepipe.h"
#include "kma-signals.h"
#include "match/kma-counters.h"
#include "match/kma-kind.h"
#include "match/kma-match.h"
#include "reader/kma-reader.h"
#include "sites/kma-sites.h"
#include "store/kma-store.h"

/* Opens the store with the signals blocked: the writer thread inherits the mask. */
struct kma_store *kma_pipeline_open_store(const char *path, struct kma_err *err)
{
	struct kma_store *store;
	sigset_t old;

	kma_signals_block(&old);
	store = kma_store_open(path, err);
	if (store)
		kma_signals_arm(KMA_SIGNALS_DB, kma_store_tmp_path(store));
	pthread_sigmask(SIG_SETMASK, &old, NULL);	/* a pending signal lands here */
	return store;
}

/* The run's tables into report.db, renamed into place. */
int kma_pipeline_commit_store(struct kma_pipeline *r)
{
	struct kma_opts *o = r->o;
	struct kma_err err;
	struct kma_store_results run;
	int k;

	if (!r->store)
		return 0;
	run = (struct kma_store_results){
		.info = kma_reader_info(r->reader),
		.totals = kma_match_totals(r->match),
		.kmalloc_only = o->kmalloc_only,
		.temp_ns = o->temp_ns,
		.young_ns = o->young_ns,
		.leak_growth = o->cache_growth,
		.marker_prefix = o->marker_prefix,
		.version = KMA_VERSION,
		.site_of = kma_sites_site,
		.site_ctx = r->sites,
		.stacks = r->stacks,
	};
	if (r->pages && o->pages)	/* not --html's own */
		run.pages = kma_pagepipe_store(r->pages, run.info);
	run.callers = kma_match_callers(r->match, &run.nr_callers);
	run.gens = kma_match_generations(r->match, &run.nr_gens);
	run.modules = kma_match_modules(r->match, &run.nr_modules);
	run.leftovers = kma_match_leftovers(r->match, &run.nr_leftovers);
	run.timeline = kma_match_timeline(r->match);
	run.counters = o->report == KMA_REPORT_COUNTERS ? r->counters : NULL;
	run.leak_counters = r->counters;
	run.cpu_nodes = r->node_map;
	run.nr_cpu_nodes = (uint32_t)r->nr_nodes;
	for (k = KMA_KIND_PERCPU; k < KMA_KIND_NR; k++)
		if (r->kinds[k]) {
			run.kinds[k].totals = kma_match_totals(r->kinds[k]);
			run.kinds[k].callers = kma_match_callers(r->kinds[k],
								 &run.kinds[k].nr_callers);
		}
	if (kma_store_commit(r->store, &run, &err)) {
		fprintf(stderr, "kma-analyze: %s: %s\n", o->output, err.msg);
		return -1;
	}
	kma_signals_arm(KMA_SIGNALS_DB, NULL);	/* renamed into place: a signal now leaves it */
	return 0;
}
