// SPDX-License-Identifier: GPL-2.0
/*
 * kma-cntmark-parse.c - the kernel counter markers kma-record writes
 * (kma-slabinfo:, kma-meminfo:, kma-allocinfo:; lib/kma-cntmark.h) read into
 * plain structs. A malformed marker is kept too, with why, so that the
 * snapshot it belongs to is reported incomplete rather than used.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-reader-int.h"
#include "kma-cntmark.h"
#include "kma-grow.h"

static const char *const prefixes[KMA_CNT_KINDS] = {
	[KMA_CNT_SLAB] = KMA_SLABINFO_PREFIX,
	[KMA_CNT_MEM] = KMA_MEMINFO_PREFIX,
	[KMA_CNT_ALLOC] = KMA_ALLOCINFO_PREFIX,
};

/* A cursor over the marker's text (not NUL-terminated). */
struct cur {
	const char	*p, *end;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The next blank-separated word; 0 at the end. */
static int word(struct cur *c, const char **w, size_t *len)
{
	while (c->p < c->end && is_blank(*c->p))
		c->p++;
	*w = c->p;
	while (c->p < c->end && !is_blank(*c->p))
		c->p++;
	*len = c->p - *w;
	return *len > 0;
}

/* A decimal number of digits only (the counters are never negative). */
static int number(const char *w, size_t len, int64_t *out)
{
	int64_t v = 0;
	size_t i;

	if (!len || len > 18)
		return -1;
	for (i = 0; i < len; i++) {
		if (w[i] < '0' || w[i] > '9')
			return -1;
		v = v * 10 + (w[i] - '0');
	}
	*out = v;
	return 0;
}

struct parse {
	struct kma_reader	*r;
	struct kma_cnt_part	*part;
	struct kma_cnt_entry	*e;
	size_t			cap;
	char			why[160];
};

static int bad(struct parse *ps, const char *fmt, const char *w, size_t len)
{
	snprintf(ps->why, sizeof(ps->why), fmt, (int)(len > 40 ? 40 : len), w);
	return -1;
}

static struct kma_cnt_entry *add(struct parse *ps)
{
	if (kma_grow(&ps->e, &ps->cap, ps->part->n, sizeof(*ps->e), 64))
		return NULL;
	memset(&ps->e[ps->part->n], 0, sizeof(*ps->e));
	return &ps->e[ps->part->n++];
}

static const char *intern(struct parse *ps, const char *s, size_t len)
{
	return kma_strpool_intern(ps->r->pool, s, len);
}

/* "PART/PARTS", 1 <= PART <= PARTS. */
static int part_of(struct parse *ps, struct cur *c)
{
	const char *w, *slash;
	size_t len;
	int64_t a, b;

	if (!word(c, &w, &len))
		return bad(ps, "no PART/PARTS%.*s", "", 0);
	slash = memchr(w, '/', len);
	if (!slash || number(w, slash - w, &a) || number(slash + 1, w + len - slash - 1, &b) ||
	    a < 1 || a > b || b > UINT32_MAX)
		return bad(ps, "bad PART/PARTS \"%.*s\"", w, len);
	ps->part->part = (uint32_t)a;
	ps->part->parts = (uint32_t)b;
	return 0;
}

/* NAME ACTIVE_OBJS OBJSIZE triples. */
static int slab_body(struct parse *ps, struct cur *c)
{
	const char *w, *n1, *n2;
	size_t len, l1, l2;
	struct kma_cnt_entry *e;

	while (word(c, &w, &len)) {
		if (!word(c, &n1, &l1) || !word(c, &n2, &l2))
			return bad(ps, "cache \"%.*s\" without ACTIVE_OBJS OBJSIZE", w, len);
		e = add(ps);
		if (!e || !(e->name = intern(ps, w, len)))
			return -2;
		if (number(n1, l1, &e->a))
			return bad(ps, "bad ACTIVE_OBJS \"%.*s\"", n1, l1);
		if (number(n2, l2, &e->b))
			return bad(ps, "bad OBJSIZE \"%.*s\"", n2, l2);
	}
	return 0;
}

/* FIELD=KB words. */
static int mem_body(struct parse *ps, struct cur *c)
{
	const char *w, *eq;
	size_t len;
	struct kma_cnt_entry *e;

	while (word(c, &w, &len)) {
		eq = memchr(w, '=', len);
		if (!eq || eq == w)
			return bad(ps, "\"%.*s\" is not FIELD=KB", w, len);
		e = add(ps);
		if (!e || !(e->name = intern(ps, w, eq - w)))
			return -2;
		if (number(eq + 1, w + len - eq - 1, &e->a))
			return bad(ps, "bad kB in \"%.*s\"", w, len);
	}
	return 0;
}

/* The NAME of a tag's "func:NAME" word, NULL: none. */
static const char *func_of(struct parse *ps, const char *tag, size_t len, int *oom)
{
	struct cur c = { tag, tag + len };
	const char *w;
	size_t l;

	while (word(&c, &w, &l))
		if (l > 5 && !memcmp(w, "func:", 5)) {
			const char *f = intern(ps, w + 5, l - 5);

			*oom = !f;
			return f;
		}
	return NULL;
}

/* BYTES CALLS TAG entries, ';' between them. */
static int alloc_body(struct parse *ps, struct cur *c)
{
	while (c->p < c->end) {
		const char *semi = memchr(c->p, ';', c->end - c->p);
		struct cur ent = { c->p, semi ? semi : c->end };
		const char *b, *n, *t;
		size_t lb, ln, lt;
		struct kma_cnt_entry *e;
		int oom = 0;

		c->p = semi ? semi + 1 : c->end;
		if (!word(&ent, &b, &lb))
			continue;	/* nothing between two ';', or after the last */
		if (!word(&ent, &n, &ln))
			return bad(ps, "entry \"%.*s\" without CALLS TAG", b, lb);
		while (ent.p < ent.end && is_blank(*ent.p))
			ent.p++;
		t = ent.p;
		lt = ent.end - t;
		while (lt && is_blank(t[lt - 1]))
			lt--;
		if (!lt)
			return bad(ps, "entry \"%.*s\" without TAG", b, lb);
		e = add(ps);
		if (!e || !(e->name = intern(ps, t, lt)))
			return -2;
		e->func = func_of(ps, t, lt, &oom);
		if (oom)
			return -2;
		if (number(b, lb, &e->a))
			return bad(ps, "bad BYTES \"%.*s\"", b, lb);
		if (number(n, ln, &e->b))
			return bad(ps, "bad CALLS \"%.*s\"", n, ln);
	}
	return 0;
}

static int parse_body(struct parse *ps, int kind, struct cur *c)
{
	const char *w;
	size_t len;
	int ret;

	if (!word(c, &w, &len))
		return bad(ps, "no PHASE%.*s", "", 0);
	if (len == 5 && !memcmp(w, "start", 5))
		ps->part->phase = KMA_CNT_START;
	else if (len == 3 && !memcmp(w, "end", 3))
		ps->part->phase = KMA_CNT_END;
	else
		return bad(ps, "unknown PHASE \"%.*s\"", w, len);
	if (kind == KMA_CNT_MEM) {
		ps->part->part = ps->part->parts = 1;
		return mem_body(ps, c);
	}
	ret = part_of(ps, c);
	if (ret)
		return ret;
	return kind == KMA_CNT_SLAB ? slab_body(ps, c) : alloc_body(ps, c);
}

/* Keeps @part (and its entries) until close. 0, or -1 out of memory. */
static int keep(struct kma_reader *r, struct kma_cnt_part *part)
{
	if (kma_grow(&r->cnt_parts, &r->cap_cnt_parts, r->nr_cnt_parts, sizeof(*r->cnt_parts), 16))
		return -1;
	r->cnt_parts[r->nr_cnt_parts++] = part;
	return 0;
}

int kma_reader_counter(struct kma_reader *r, const char *text, size_t len,
		       const struct kma_cnt_part **out)
{
	struct parse ps = { .r = r };
	struct cur c;
	int kind, ret;

	for (kind = 0; kind < KMA_CNT_KINDS; kind++)
		if (len >= strlen(prefixes[kind]) &&
		    !memcmp(text, prefixes[kind], strlen(prefixes[kind])))
			break;
	if (kind == KMA_CNT_KINDS)
		return 0;
	ps.part = calloc(1, sizeof(*ps.part));
	if (!ps.part)
		return -1;
	ps.part->kind = kind;
	ps.part->phase = -1;
	c.p = text + strlen(prefixes[kind]);
	c.end = text + len;
	ret = parse_body(&ps, kind, &c);
	if (ret == -2 || keep(r, ps.part)) {
		free(ps.e);
		free(ps.part);
		return -1;
	}
	if (ret) {
		free(ps.e);
		ps.e = NULL;
		ps.part->n = 0;
		ps.part->bad = kma_strpool_intern(r->pool, ps.why, strlen(ps.why));
		if (!ps.part->bad)
			return -1;
	}
	ps.part->e = ps.e;
	*out = ps.part;
	return 1;
}

void kma_reader_counters_free(struct kma_reader *r)
{
	size_t i;

	for (i = 0; i < r->nr_cnt_parts; i++) {
		free((void *)r->cnt_parts[i]->e);
		free(r->cnt_parts[i]);
	}
	free(r->cnt_parts);
	r->cnt_parts = NULL;
	r->nr_cnt_parts = r->cap_cnt_parts = 0;
}
