// SPDX-License-Identifier: GPL-2.0
/*
 * kma-analyze-sites.c - the call sites' names of a run: the kallsyms the
 * reader found (a trace.dat's own), or the symbols sites/kma-ksyms-src picks
 * (--kallsyms, --symbols, and always for a perf.data, which holds none);
 * the stacks over them; DWARF lines when asked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-analyze-int.h"
#include "kma-options.h"
#include "kma-kinfo.h"
#include "reader/kma-reader.h"
#include "sites/kma-ksyms-src.h"
#include "sites/kma-sites.h"
#include "sites/kma-stacks.h"

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
	if (ks.text) {
		ksyms = ks.text;
		ksyms_len = ks.len;
	}
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

