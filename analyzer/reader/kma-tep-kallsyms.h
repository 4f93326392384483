/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-tep-kallsyms.h - libtraceevent's kallsyms parse left out while
 * libtracecmd opens a trace.dat whose kallsyms kma read itself.
 */
#ifndef KMA_TEP_KALLSYMS_H
#define KMA_TEP_KALLSYMS_H

/*
 * While on (nested calls count), tep_parse_kallsyms() does nothing: the
 * handles libtracecmd opens then have no function map. Only for handles
 * whose tep nobody asks a function name of. Not thread-safe: the reader
 * opens files on one thread.
 */
void kma_tep_kallsyms_skip(int on);

#endif /* KMA_TEP_KALLSYMS_H */
