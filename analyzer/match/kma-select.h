/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-select.h - which allocations a report counts: --comm, --pid, --caller,
 * --cache (each repeatable, a leading '!' excludes) and --exclude-self.
 *
 * Pure C, no I/O: the patterns are parsed here and an event is classified
 * by kma_select_event(), the matcher's kma_select_fn (kma-match.h). Results
 * are cached per call site, per comm string and per cache name, so that the
 * per-event cost is a few hash lookups whatever the patterns.
 *
 * Rules: patterns of one kind are OR-ed, kinds are AND-ed, and an exclusion
 * that matches wins over every inclusion.
 */
#ifndef KMA_SELECT_H
#define KMA_SELECT_H

#include <stddef.h>
#include "kma-err.h"
#include "kma-match.h"

enum kma_sel_kind { KMA_SELK_COMM, KMA_SELK_PID, KMA_SELK_CALLER, KMA_SELK_CACHE,
		    KMA_SELK_NR };

struct kma_select;

struct kma_select *kma_select_alloc(void);
void kma_select_free(struct kma_select *s);

/*
 * Adds one pattern of @kind: comm and cache are fnmatch(3) globs, caller a
 * POSIX extended regex (matched anywhere in "symbol+0xoff", the name the
 * reports print), pid a list "N[,N...]". A leading '!' excludes. 0, or -1
 * with the reason in @why (bad regex, bad pid, out of memory).
 */
int kma_select_add(struct kma_select *s, enum kma_sel_kind kind, const char *arg,
		   struct kma_err *why);

/* Drop the recorder's own allocations (kma_select_is_self_*) too. */
void kma_select_exclude_self(struct kma_select *s, int on);

/* How to name a call site for --caller and the self call sites (NULL: "0x<hex>"). */
void kma_select_set_resolve(struct kma_select *s, kma_resolve_fn resolve, void *ctx);

/* Non-zero when some pattern or --exclude-self is set: a report must be filtered. */
int kma_select_active(const struct kma_select *s);

/*
 * The kma_select_fn: KMA_SEL_OUT when the event is left out; KMA_SEL_SELF
 * when it is the recorder's own and the patterns keep it (so with
 * --exclude-self, the SELF events are exactly what --exclude-self dropped).
 * @ctx is the struct kma_select. Out of memory only loses the cache.
 */
unsigned int kma_select_event(void *ctx, const struct kma_event *ev);

/*
 * A kma_select_fn for a free kma cannot pair (unknown or null), by its
 * freeing task only: --comm, --pid, and --exclude-self by the recorder's
 * comms (a free's call site says nothing of the allocation's).
 */
unsigned int kma_select_free_event(void *ctx, const struct kma_event *ev);

/* Non-zero when no --caller or --cache is set: kma_select_free says all the filter says. */
int kma_select_frees_apply(const struct kma_select *s);

/* The recorder's own tasks and call-site functions (globs). */
int kma_select_is_self_comm(const char *comm);
int kma_select_is_self_function(const char *caller);

/*
 * One line describing the filter, as the text reports' header says it:
 * "comm 'tar', caller !~ 'ring_buffer', pid 1 or 2, not the recorder's own"
 * ("not the recorder's own" for --exclude-self); "" when there is none.
 * Returns the length it needed, as snprintf does.
 */
int kma_select_describe(const struct kma_select *s, char *buf, size_t len);

#endif /* KMA_SELECT_H */
