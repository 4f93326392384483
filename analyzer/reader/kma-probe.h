/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-probe.h - the header texts of a trace.dat parsed in a child before
 * libtracecmd parses them in kma (kma-probe.c says which and why).
 */
#ifndef KMA_PROBE_H
#define KMA_PROBE_H

#include <stdint.h>

/*
 * 0 when the child parsed the texts of @path (or refused the file as
 * libtracecmd will, or could not be started), -1 when it died on them, or
 * the option id (KMA_TD_OPT_HEADER_INFO..KMA_TD_OPT_CMDLINES) of a v7
 * section in which a size runs past the section's end (libtracecmd 1.3
 * copies a negative length there).
 * With @skip_kallsyms the kallsyms text is left out (one libtraceevent
 * will not parse in kma: kma-tep-kallsyms.h).
 */
int kma_probe_headers(const char *path, int skip_kallsyms);

/*
 * @fn(@ctx) run in a child whose death is harmless to kma: 0 when it
 * returned 0 or -1 (a refusal the parent will meet too) or could not be
 * started, what it returned when that was 1..31 (a reason of its own), -1
 * when it died.
 */
int kma_probe_child(int (*fn)(void *ctx), void *ctx);

#endif /* KMA_PROBE_H */
