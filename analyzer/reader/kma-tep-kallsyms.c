// SPDX-License-Identifier: GPL-2.0
/*
 * kma-tep-kallsyms.c - libtraceevent's tep_parse_kallsyms(), skipped on request.
 *
 * libtracecmd's open (trace-input.c: read_proc_kallsyms, in 1.3 as in later
 * releases) always hands the trace's kallsyms to tep_parse_kallsyms(); no
 * open flag or header state leaves it out, and a v6 file's later headers
 * are only read after it. On a real trace (121k symbols, 5 MB) that parse
 * (an sscanf, a malloc and a strdup per line, freed again by tep_free) was
 * half of a short run's instructions, and kma never asks that tep for a
 * function name once it has the kallsyms text: kma-sites names call sites
 * from its own table (sites/kma-symtab.c). The function map is libtraceevent's
 * only product of that parse, and libtracecmd ignores its result.
 *
 * So this definition takes the place of libtraceevent's (the executable's
 * symbol comes first in the dynamic linker's lookup, libtracecmd calls it
 * through its PLT): while kma_tep_kallsyms_skip() is on it returns 0 at
 * once, otherwise it calls libtraceevent's own, found with RTLD_NEXT. The
 * header probe's child and the perf.data tracing data call it with the skip
 * off, so they parse as before.
 */
#include <dlfcn.h>

#include <traceevent/event-parse.h>

#include "kma-tep-kallsyms.h"

static int skip;

void kma_tep_kallsyms_skip(int on)
{
	skip += on ? 1 : -1;
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	static int (*real)(struct tep_handle *, const char *);

	if (skip > 0)
		return 0;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "tep_parse_kallsyms");
	return real ? real(tep, kallsyms) : -1;
}
