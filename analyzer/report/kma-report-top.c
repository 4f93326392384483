// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-top.c - one frame of the --live view (see kma-report-top.h).
 *
 * Rates are deltas between two frames over the wall-clock time between
 * them, so a burst shows in the frame it happened in instead of being
 * averaged away over the whole run, as slabtop and perf top do.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kma-report-top.h"
#include "kma-caller-sort.h"
#include "kma-table.h"

const char *kma_top_sort_name(enum kma_sort sort)
{
	return kma_sort_name(sort);
}

static int has_allocs(const struct kma_caller *c)
{
	return c->allocs > 0;
}

/*
 * The columns before the name. A narrow terminal loses the least needed
 * first (higher prio), never the one the rows are sorted by: a wrapped row
 * would push the header off the screen.
 */
enum { C_TOTAL, C_SLACK, C_SPCT, C_NET, C_ALLOCS, C_FREES, C_ARATE, C_FRATE, C_NRATE,
       NR_COLS };
static const struct { const char *head; int width, prio; enum kma_sort key; } cols[NR_COLS] = {
	[C_TOTAL]	= { "total", 12, 1, KMA_SORT_TOTAL },
	[C_SLACK]	= { "slack", 10, 3, KMA_SORT_SLACK },
	/*
	 * perf kmem's "Frag", rounded as the per-caller table's (kma_fmt_pct);
	 * the first to go on a narrow terminal: 120 columns keep the rates
	 */
	[C_SPCT]	= { "slack%", 8, 4, KMA_SORT_SLACK },
	[C_NET]		= { "net", 12, 1, KMA_SORT_NET },
	[C_ALLOCS]	= { "allocs", 10, 2, KMA_SORT_ALLOCS },
	[C_FREES]	= { "frees", 10, 3, KMA_SORT_FREES },
	[C_ARATE]	= { "allocs/s", 10, 2, KMA_SORT_CALLER },
	[C_FRATE]	= { "frees/s", 10, 3, KMA_SORT_CALLER },
	[C_NRATE]	= { "net B/s", 12, 1, KMA_SORT_CALLER },
};
#define TOP_MIN_NAME	20	/* a narrower name drops columns instead */

struct rates {
	double	allocs, frees, net;	/* per second; net may be negative */
};

/* Counts now minus counts then, over dt; dt <= 0 (two frames at once): zero. */
static struct rates rates_of(const struct kma_top_count *now, const struct kma_top_count *then,
			     double dt)
{
	static const struct kma_top_count zero;
	struct rates r = { 0, 0, 0 };

	if (!then)
		then = &zero;
	if (dt <= 0)
		return r;
	r.allocs = (double)(now->allocs - then->allocs) / dt;
	r.frees = (double)(now->frees - then->frees) / dt;
	r.net = ((double)now->net - (double)then->net) / dt;
	return r;
}

static void header(FILE *out, const struct kma_top_in *in, const struct kma_top_snap *prev)
{
	const struct kma_totals *t = in->totals;
	struct kma_top_count all = { t->allocs, t->frees, t->net };
	double dt = in->elapsed - (prev ? prev->elapsed : 0);
	struct rates r = rates_of(&all, prev ? &prev->all : NULL, dt);

	fprintf(out, "kma-analyze --live  elapsed %.1fs  events %" PRIu64 "  lost %" PRIu64
		"  sorted by %s\n", in->elapsed, in->events, in->lost, kma_top_sort_name(in->sort));
	if (in->filter)
		fprintf(out, "filter: %s\n", in->filter);
	if (in->lost)
		fprintf(out, "WARNING: the ring buffer lost %" PRIu64 " events: the numbers miss"
			" them (a larger buffer helps: -b KIB, now %u KiB per CPU)\n", in->lost,
			in->buffer_kb);
	fprintf(out, "allocs %" PRIu64 " (%.1f/s)  frees %" PRIu64 " (%.1f/s)  net %" PRIu64
		" B (%+.1f B/s)  callers %" PRIu64 "\n", all.allocs, r.allocs, all.frees, r.frees,
		all.net, r.net, t->callers);
	if (in->keys)
		fprintf(out, "%s\n", in->keys);
	fputc('\n', out);
}

/* Which columns fit @width (0: all), and how wide the name may be. */
static int pick_columns(const struct kma_top_in *in, int shown[NR_COLS])
{
	int prio = 4, used, i;

	for (;;) {
		used = 2;	/* the two spaces before the name */
		for (i = 0; i < NR_COLS; i++) {
			shown[i] = cols[i].prio <= prio || cols[i].key == in->sort;
			used += shown[i] ? cols[i].width + (i > 0) : 0;
		}
		if (!in->width || prio == 1 || (int)in->width - 1 - used >= TOP_MIN_NAME)
			break;
		prio--;
	}
	if (!in->width)
		return INT_MAX;
	/* one column spare: a line filling the last one wraps on some terminals */
	return (int)in->width - 1 - used > 8 ? (int)in->width - 1 - used : 8;
}

static void headings(FILE *out, const int shown[NR_COLS])
{
	int i, first = 1;

	for (i = 0; i < NR_COLS; i++) {
		if (!shown[i])
			continue;
		fprintf(out, "%s%*s", first ? "" : " ", cols[i].width, cols[i].head);
		first = 0;
	}
	fputs("  caller\n", out);
}

static void row(FILE *out, const struct kma_caller *c, const struct kma_top_count *now,
		const struct rates *r, const int shown[NR_COLS], int name_width)
{
	const uint64_t counts[] = { c->total, c->slack, 0, now->net, c->allocs, c->frees };
	const double rates[] = { r->allocs, r->frees, r->net };
	char pct[32];
	int i, first = 1;

	for (i = 0; i < NR_COLS; i++) {
		const char *sep = first ? "" : " ";

		if (!shown[i])
			continue;
		first = 0;
		if (i == C_SPCT) {
			kma_fmt_pct(pct, sizeof(pct), c->slack, c->total);
			fprintf(out, "%s%*s", sep, cols[i].width, pct);
		} else if (i < C_ARATE) {
			fprintf(out, "%s%*" PRIu64, sep, cols[i].width, counts[i]);
		} else {
			fprintf(out, i == C_NRATE ? "%s%+*.1f" : "%s%*.1f", sep, cols[i].width,
				rates[i - C_ARATE]);
		}
	}
	fprintf(out, "  %.*s\n", name_width, c->name ? c->name : "?");
}

int kma_top_render(FILE *out, const struct kma_top_in *in, const struct kma_top_snap *prev)
{
	const struct kma_caller **rows;
	struct kma_caller_order order;
	double dt = in->elapsed - (prev ? prev->elapsed : 0);
	uint32_t kept, i;
	int shown[NR_COLS], name_width = pick_columns(in, shown);

	kma_sort_order(in->sort, &order);	/* as the per-caller report */
	rows = kma_callers_sorted(in->callers, in->nr_callers, has_allocs, &order, &kept);
	if (!rows)
		return -1;
	header(out, in, prev);
	headings(out, shown);
	if (in->limit && in->limit < kept)
		kept = (uint32_t)in->limit;
	for (i = 0; i < kept; i++) {
		const struct kma_caller *c = rows[i];
		uint32_t idx = (uint32_t)(c - in->callers);
		struct kma_top_count now = { c->allocs, c->frees, kma_caller_net(c) };
		const struct kma_top_count *then = prev && idx < prev->nr ? &prev->c[idx] : NULL;
		struct rates r = rates_of(&now, then, dt);

		row(out, c, &now, &r, shown, name_width);
	}
	free(rows);
	return 0;
}

int kma_top_snap_take(struct kma_top_snap *s, const struct kma_top_in *in)
{
	uint32_t i;

	if (in->nr_callers > s->cap) {
		struct kma_top_count *n = realloc(s->c, in->nr_callers * sizeof(*n));

		if (!n)
			return -1;
		s->c = n;
		s->cap = in->nr_callers;
	}
	for (i = 0; i < in->nr_callers; i++) {
		const struct kma_caller *c = &in->callers[i];

		s->c[i] = (struct kma_top_count){ c->allocs, c->frees, kma_caller_net(c) };
	}
	s->nr = in->nr_callers;
	s->elapsed = in->elapsed;
	s->all = (struct kma_top_count){ in->totals->allocs, in->totals->frees, in->totals->net };
	return 0;
}

void kma_top_snap_free(struct kma_top_snap *s)
{
	free(s->c);
	memset(s, 0, sizeof(*s));
}
