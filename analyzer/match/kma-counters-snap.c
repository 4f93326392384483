// SPDX-License-Identifier: GPL-2.0
/*
 * kma-counters-snap.c - the kernel's counter snapshots gathered from their
 * parts. A snapshot is used only when every part of it is in the trace
 * once and none is malformed; otherwise it is reported with why, never
 * guessed at (a part lost with the events around it is the usual case).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-counters-int.h"
#include "kma-grow.h"

/* The first thing wrong with a snapshot is what it reports. */
static void broken(struct snap *s, const char *fmt, uint32_t a, uint32_t b)
{
	if (!s->broken)
		snprintf(s->why, sizeof(s->why), fmt, a, b);
	s->broken = 1;
}

static int copy_entries(struct kma_counters *c, struct snap *s, const struct kma_cnt_part *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		struct kma_cnt_entry *e;

		if (kma_grow(&s->e, &s->cap, s->n, sizeof(*s->e), 64))
			return -1;
		e = &s->e[s->n];
		*e = p->e[i];
		e->name = kma_strpool_intern(c->names, p->e[i].name, strlen(p->e[i].name));
		if (!e->name)
			return -1;
		if (p->e[i].func) {
			e->func = kma_strpool_intern(c->names, p->e[i].func, strlen(p->e[i].func));
			if (!e->func)
				return -1;
		}
		s->n++;
	}
	return 0;
}

/* The first part of a phase opens (start) or closes (end) the kind's interval. */
static void interval(struct kma_counters *c, const struct kma_cnt_part *p, uint64_t ts)
{
	if (p->phase == KMA_CNT_START && c->iv[p->kind] == IV_BEFORE)
		c->iv[p->kind] = IV_IN;
	else if (p->phase == KMA_CNT_END && c->iv[p->kind] != IV_AFTER) {
		if (c->iv[p->kind] == IV_BEFORE)
			c->end_first[p->kind] = 1;
		c->iv[p->kind] = IV_AFTER;
	}
	(void)ts;
}

int kma_counters_part(struct kma_counters *c, const struct kma_event *ev)
{
	const struct kma_cnt_part *p = ev->counter;
	struct snap *s;

	if (!p || p->kind < 0 || p->kind >= KMA_CNT_KINDS)
		return 0;
	if (p->phase < 0 || p->phase >= KMA_CNT_PHASES) {
		/* no snapshot to pin it on: counted, and named in the report */
		if (!c->tot.bad_markers++)
			c->tot.first_bad = p->bad;
		return 0;
	}
	s = kma_counters_snap(c, p->kind, p->phase);
	if (!s->pub.seen++) {
		s->pub.ts = ev->ts;
		s->pub.parts = p->parts;
		interval(c, p, ev->ts);
		if (p->parts && p->parts <= (1u << 20)) {
			s->have = calloc(p->parts, 1);
			if (!s->have)
				return -1;
		} else if (!p->bad) {
			broken(s, "%u parts: too many%.0u", p->parts, 0);
		}
	}
	if (p->bad) {
		if (!s->broken && p->kind == KMA_CNT_MEM)	/* one part: no number to give */
			snprintf(s->why, sizeof(s->why), "malformed: %s", p->bad);
		else if (!s->broken)
			snprintf(s->why, sizeof(s->why), "part %u malformed: %s", p->part, p->bad);
		s->broken = 1;
		return 0;
	}
	if (p->parts != s->pub.parts) {
		broken(s, "parts disagree on PARTS (%u, %u)", s->pub.parts, p->parts);
		return 0;
	}
	if (!s->have)
		return 0;
	if (s->have[p->part - 1]) {
		broken(s, "part %u/%u given twice", p->part, p->parts);
		return 0;
	}
	s->have[p->part - 1] = 1;
	s->pub.got++;
	return copy_entries(c, s, p);
}

void kma_counters_check_snaps(struct kma_counters *c)
{
	int i;

	for (i = 0; i < KMA_CNT_KINDS * KMA_CNT_PHASES; i++) {
		struct snap *s = &c->snaps[i];
		uint32_t k, first = 0;

		s->pub.kind = i / KMA_CNT_PHASES;
		s->pub.phase = i % KMA_CNT_PHASES;
		s->pub.why = NULL;
		if (!s->pub.seen)
			continue;
		if (!s->broken && s->pub.got < s->pub.parts) {
			for (k = 0; k < s->pub.parts && !first; k++)
				if (!s->have[k])
					first = k + 1;
			if (s->pub.parts - s->pub.got == 1)
				snprintf(s->why, sizeof(s->why), "part %u/%u missing", first,
					 s->pub.parts);
			else
				snprintf(s->why, sizeof(s->why), "%u of %u parts missing (first: %u)",
					 s->pub.parts - s->pub.got, s->pub.parts, first);
			s->broken = 1;
		}
		s->pub.complete = !s->broken;
		s->pub.why = s->broken ? s->why : NULL;
		c->pub[i] = s->pub;
	}
}

void kma_counters_free_snaps(struct kma_counters *c)
{
	int i;

	for (i = 0; i < KMA_CNT_KINDS * KMA_CNT_PHASES; i++) {
		free(c->snaps[i].have);
		free(c->snaps[i].e);
	}
}

const struct kma_cnt_snap *kma_counters_snaps(const struct kma_counters *c)
{
	return c->pub;
}

int kma_counters_usable(const struct kma_counters *c, int kind)
{
	const struct snap *a = &c->snaps[kind * KMA_CNT_PHASES + KMA_CNT_START];
	const struct snap *b = &c->snaps[kind * KMA_CNT_PHASES + KMA_CNT_END];

	return a->pub.complete && b->pub.complete && !c->end_first[kind];
}
