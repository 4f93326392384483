// SPDX-License-Identifier: GPL-2.0
/*
 * kma-leak.c - leak suspects and an honest confidence.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kma-leak.h"

static void add_reason(struct kma_leak *out, const char *reason)
{
	size_t len = strlen(out->why);

	snprintf(out->why + len, sizeof(out->why) - len, "%s%s", len ? "; " : "", reason);
}

void kma_leak_assess(const struct kma_caller *c, uint64_t lost, uint64_t young_ns,
		     struct kma_leak *out)
{
	static const char * const levels[] = { "low", "low", "medium", "high" };
	char buf[160];
	int level = 3;

	memset(out, 0, sizeof(*out));
	out->suspect = c->net > 0 && c->max_grow_run >= KMA_LEAK_MIN_RUN;
	if (!out->suspect) {
		out->confidence = "none";
		return;
	}

	if (lost) {
		level--;
		snprintf(buf, sizeof(buf), "the trace lost %" PRIu64 " events", lost);
		add_reason(out, buf);
	}
	if (c->implicit_frees) {
		level--;
		snprintf(buf, sizeof(buf), "%" PRIu64 " implicit frees: its objects are also freed "
			 "by untraced paths (bulk frees, kfree_rcu)", c->implicit_frees);
		add_reason(out, buf);
	}
	if (c->live && c->age_sum / c->live < young_ns) {
		level--;
		snprintf(buf, sizeof(buf), "its live allocations are young (%" PRIu64 " us on "
			 "average, threshold %" PRIu64 " us)", c->age_sum / c->live / 1000,
			 young_ns / 1000);
		add_reason(out, buf);
	}
	out->confidence = levels[level < 0 ? 0 : level];
}
