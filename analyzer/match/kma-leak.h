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
#define KMA_LEAK_RECLAIMABLE	"reclaimable"	/* the reclaim phase freed most of it */
#define KMA_LEAK_RECORDER	"recorder"	/* the recorder's own (trace-cmd, ...) */
#define KMA_LEAK_WARMUP		"warm-up"	/* only the first iteration left objects */

/*
 * The leak experiment (kma-record --repeat N): generations labelled
 * "iteration 1" .. "iteration N", then "reclaim" (sync, drop_caches) and
 * "settle". Tolerance of "about the same number each iteration": within half
 * of the median of iterations 2..N (iteration 1 may leave more: warm-up).
 * A row is reclaimable when the reclaim phase freed at least
 * 1/KMA_LEAK_RECLAIM_SHARE of what it held at the reclaim marker.
 */
#define KMA_LEAK_MIN_ITERS	2
#define KMA_LEAK_RECLAIM_SHARE	2

/* Where the experiment's phases are in a trace's generations (kma_leak_phase_add). */
struct kma_leak_phases {
	uint32_t	first_iter;	/* generation of "iteration 1" */
	uint32_t	iters;		/* "iteration K" generations in a row, K = 1.. */
	uint32_t	reclaim;	/* generation of "reclaim"; 0: no reclaim phase */
};

/* What a verdict depends on beyond the caller itself. */
struct kma_leak_rules {
	uint64_t		lost;		/* events the trace lost */
	uint64_t		young_ns;	/* median age under it: may not be freed yet */
	uint32_t		gens;		/* generations in the trace */
	uint64_t		tail_ns;	/* last marker -> end of trace; 0: no marker */
	const char * const	*growth;	/* cache-growth globs, NULL-terminated; NULL: none */
	struct kma_leak_phases	phases;		/* the experiment's, from the generation labels */
	const char		*unit;		/* what live counts: NULL "objects", or "pages" */
	/*
	 * The kernel's own count of a cache over the trace (kma-slabinfo markers):
	 * 0 with the change of its live objects by the kernel's count in *kernel
	 * and by the trace's events in *trace, over the same interval; -1 when
	 * there is no such count (kma_counters_cache_delta()).
	 */
	int			(*kernel_growth)(void *ctx, const char *cache, int64_t *kernel,
						 int64_t *trace);
	void			*kernel_ctx;
};

struct kma_leak {
	int		suspect;	/* class is KMA_LEAK_SUSPECT */
	const char	*class;		/* one of KMA_LEAK_* above */
	const char	*confidence;	/* "high", "medium", "low"; "none" when not a suspect */
	char		why[768];	/* the reasons, in words; "" for a caller with no net */
};

/*
 * Generation @gen has label @label (after the marker prefix): is it a phase of
 * the experiment? Call for every generation, in order.
 */
void kma_leak_phase_add(struct kma_leak_phases *p, uint32_t gen, const char *label);

/*
 * A folded stack ("a;b;c") or a caller name: does one of its functions match
 * the recorder's ring-buffer paths? (The comms are kma-select's.)
 */
int kma_leak_recorder_frames(const char *name);

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

/*
 * The one rule set of callers, stacks and page rows (made into a kma_caller):
 * the class, confidence and reasons of @c under @r.
 */
void kma_leak_assess(const struct kma_caller *c, const struct kma_leak_rules *r,
		     struct kma_leak *out);

/*
 * A kma_leak_rules.kernel_growth over a struct kma_counters (@ctx) after
 * kma_counters_finish(): kma_counters_cache_delta().
 */
int kma_leak_kernel_counts(void *ctx, const char *cache, int64_t *kernel, int64_t *trace);

/* Sort rank of a class: suspects first, then the other classes with reasons. */
int kma_leak_rank(const struct kma_leak *l);

#endif /* KMA_LEAK_H */
