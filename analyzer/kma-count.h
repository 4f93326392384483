/* SPDX-License-Identifier: GPL-2.0 */
/* kma-count.h - kma-analyze --count (kma-count.c). */
#ifndef KMA_COUNT_H
#define KMA_COUNT_H

#include "kma-options.h"

/* Counts @o->input's events and prints them; returns the exit status. */
int kma_count_main(struct kma_opts *o);

#endif
