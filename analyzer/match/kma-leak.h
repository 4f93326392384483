/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-leak.h - is a caller leaking? Growth over generations, and how much
 * to trust the answer. Pure functions; the report and the store both use them.
 */
#ifndef KMA_LEAK_H
#define KMA_LEAK_H

#include <stddef.h>
#include <stdint.h>
#include "kma-match.h"

#define KMA_LEAK_MIN_RUN	3		/* consecutive generations of growth */
#define KMA_LEAK_YOUNG_NS	1000000000ULL	/* default: younger than 1 s on average */

struct kma_leak {
	int		suspect;	/* live bytes grew in >= KMA_LEAK_MIN_RUN generations in a row */
	const char	*confidence;	/* "high", "medium", "low"; "none" when not a suspect */
	char		why[320];	/* what lowered the confidence, "" when nothing did */
};

/*
 * lost: events the trace lost; young_ns: allocations younger than this on
 * average at the end of the trace may simply not have been freed yet.
 */
void kma_leak_assess(const struct kma_caller *c, uint64_t lost, uint64_t young_ns,
		     struct kma_leak *out);

#endif /* KMA_LEAK_H */
