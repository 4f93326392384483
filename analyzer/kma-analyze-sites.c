// SPDX-License-Identifier: GPL-2.0
/*
 * kma-analyze-sites.c - the call sites' names of a run: the kallsyms the
 * reader found (a trace.dat's own), or the symbols sites/kma-ksyms-src picks
 * (--kallsyms, --symbols, and always for a perf.data, which holds none);
 * the stacks over them; DWARF lines when asked.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-analyze-int.h"
#include "kma-options.h"
#include "kma-signals.h"
#include "kma-kinfo.h"
#include "reader/kma-reader.h"
#include "sites/kma-ksyms-src.h"
#include "sites/kma-sites.h"
#include "sites/kma-stacks.h"
#include "sites/kma-symtab.h"

/*
 * The trace's kallsyms parsed into its symbol table (8-12 ms for a real
 * kernel's 121k lines) on a thread of its own, while the main thread waits
 * for libtracecmd's open of the file (20-30 ms): the run's start is serial
 * until the reader's workers start, so this is wall time saved whole.
 */
struct kma_symtab_job {
	pthread_t		thread;
	int			joined;
	const char		*text;		/* the reader's, which outlives the job */
	size_t			len;
	struct kma_symtab	*st;		/* NULL: out of memory */
};

static void *symtab_thread(void *arg)
{
	struct kma_symtab_job *job = arg;

	job->st = kma_symtab_from_text(job->text, job->len);
	return NULL;
}

void kma_pipeline_kallsyms_read(void *ctx, const char *text, size_t len)
{
	struct kma_pipeline *r = ctx;
	struct kma_symtab_job *job;
	sigset_t old;
	int failed;

	if (r->symjob)
		return;
	job = calloc(1, sizeof(*job));
	if (!job)
		return;		/* kma_pipeline_open_sites() parses it itself */
	job->text = text;
	job->len = len;
	/* as the store's writer: a signal is the main thread's to handle */
	kma_signals_block(&old);
	failed = pthread_create(&job->thread, NULL, symtab_thread, job);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (failed) {
		free(job);
		return;
	}
	r->symjob = job;
}

void kma_pipeline_kallsyms_done(void *ctx)
{
	struct kma_pipeline *r = ctx;

	if (r->symjob && !r->symjob->joined) {
		pthread_join(r->symjob->thread, NULL);
		r->symjob->joined = 1;
	}
}

/* The thread's symbol table, once it is done; NULL when there was none or no memory. */
static struct kma_symtab *symtab_take(struct kma_pipeline *r)
{
	struct kma_symtab_job *job = r->symjob;
	struct kma_symtab *st;

	if (!job)
		return NULL;
	kma_pipeline_kallsyms_done(r);
	st = job->st;
	free(job);
	r->symjob = NULL;
	return st;
}

void kma_pipeline_close_sites(struct kma_pipeline *r)
{
	kma_symtab_free(symtab_take(r));
}

static int oom(void)
{
	fprintf(stderr, "kma-analyze: out of memory\n");
	return -1;
}

/*
 * Kernel symbols from sites/kma-ksyms-src: for a trace.dat when the user names
 * them (--kallsyms, --symbols), for a recording without kallsyms (perf.data:
 * @ki from its reader, @perf set for perf's alias rule) always. 0 (ks->text
 * NULL: the hint was printed), or -1 after the error line.
 */
static int resolve_ksyms(struct kma_pipeline *r, const struct kma_kinfo *ki, int perf,
			 struct kma_ksyms *ks)
{
	struct kma_opts *o = r->o;
	struct kma_ksyms_opts ko = { .kallsyms = o->kallsyms, .perf_aliases = perf,
				     .symbols = o->symbols ? o->symbols : o->vmlinux };
	struct kma_err err;

	if (kma_ksyms_resolve(ki, &ko, ks, &err)) {
		fprintf(stderr, "kma-analyze: %s: %s\n", o->input, err.msg);
		return -1;
	}
	/* said once the run went well, so that an error stays the one line */
	if (!ks->text && !o->quiet && !(r->sym_note = strdup(ks->hint)))
		return oom();
	return 0;
}

/* Call sites from the kernel's kallsyms the reader found, DWARF lines when asked. */
int kma_pipeline_open_sites(struct kma_pipeline *r)
{
	struct kma_opts *o = r->o;
	const char *ksyms, *why = NULL;
	size_t ksyms_len;
	struct kma_err err;
	struct kma_ksyms ks = { 0 };
	struct kma_symtab *st;
	struct kma_kinfo ki;
	struct kma_kmap *mods;
	int perf, ret = 0;

	if (kma_reader_kinfo(r->reader, &ki, &mods))
		return oom();
	/* a perf.data holds no kallsyms: its symbols always come from elsewhere */
	perf = !o->live && kma_reader_info(r->reader)->file_version == 2;
	ksyms = kma_reader_kallsyms(r->reader, &ksyms_len, &why);
	if (perf || o->kallsyms || o->symbols)
		ret = resolve_ksyms(r, &ki, perf, &ks);
	free(mods);
	if (ret)
		return -1;
	st = symtab_take(r);
	if (ks.text) {
		ksyms = ks.text;
		ksyms_len = ks.len;
		kma_symtab_free(st);	/* the user's symbols, not the trace's */
		st = NULL;
	}
	if (st)
		r->sites = kma_sites_alloc_symtab(st, kma_reader_tep(r->reader));
	else
		r->sites = kma_sites_alloc(ksyms, ksyms_len, why, kma_reader_tep(r->reader));
	kma_ksyms_release(&ks);
	if (!r->sites)
		return oom();
	r->stacks = kma_stacks_alloc(r->sites);
	if (!r->stacks)
		return oom();
	if (kma_sites_set_debug(r->sites, o->vmlinux, o->modules_dir,
				kma_reader_info(r->reader)->release, &err) &&
	    (o->vmlinux || o->modules_dir)) {
		fprintf(stderr, "kma-analyze: %s: %s\n", o->vmlinux ? o->vmlinux : o->modules_dir,
			err.msg);
		return -1;
	}
	/* -g file without debug info would group everything as unknown: say why, once */
	if (o->group_by == KMA_GROUP_FILE && !o->vmlinux && !o->modules_dir &&
	    !kma_sites_has_debug(r->sites))
		fprintf(stderr, "kma-analyze: -g file: %s\n", err.msg);
	return 0;
}

