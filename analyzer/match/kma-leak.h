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
#define KMA_LEAK_MIN_GENS	4		/* fewer: no verdict at all */
#define KMA_LEAK_YOUNG_NS	1000000000ULL	/* default: a median age under 1 s is young */

/* The classes of callers.leak_class and the --leaks "class" column. */
#define KMA_LEAK_SUSPECT	"suspect"
#define KMA_LEAK_CACHE_GROWTH	"cache growth"
#define KMA_LEAK_TOO_FEW	"too few generations"
#define KMA_LEAK_NONE		"none"

/* What a verdict depends on beyond the caller itself. */
struct kma_leak_rules {
	uint64_t		lost;		/* events the trace lost */
	uint64_t		young_ns;	/* median age under it: may not be freed yet */
	uint32_t		gens;		/* generations in the trace */
	uint64_t		tail_ns;	/* last marker -> end of trace; 0: no marker */
	const char * const	*growth;	/* cache-growth globs, NULL-terminated; NULL: none */
};

struct kma_leak {
	int		suspect;	/* class is KMA_LEAK_SUSPECT */
	const char	*class;		/* one of KMA_LEAK_* above */
	const char	*confidence;	/* "high", "medium", "low"; "none" when not a suspect */
	char		why[512];	/* the reasons, in words; "" for a caller with no net */
};

/* The default --cache-growth list, NULL-terminated (documented in kma-analyze(1)). */
extern const char * const kma_leak_growth_default[];

/*
 * Parses a --cache-growth argument against the current list *list (NULL: the
 * default): "none" empties it, "+P,Q" appends, "P,Q" replaces. On success *list
 * becomes a new NULL-terminated array (one allocation with its strings) and the
 * old one, if parse made it, is freed; 0, or -1 on out of memory or an empty
 * pattern (then *list is unchanged).
 */
int kma_leak_growth_parse(const char *arg, const char * const **list);
/* Frees a list kma_leak_growth_parse() made; the default and NULL are left alone. */
void kma_leak_growth_free(const char * const *list);

/* The pattern of list that c's cache or function name matches, or NULL. */
const char *kma_leak_growth_match(const struct kma_caller *c, const char * const *list);

void kma_leak_assess(const struct kma_caller *c, const struct kma_leak_rules *r,
		     struct kma_leak *out);

#endif /* KMA_LEAK_H */
