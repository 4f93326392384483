// SPDX-License-Identifier: GPL-2.0
/*
 * mkperf-tdata.c - the tracing-data section of mkperf's perf.data: taken
 * from a real perf.data (its HEADER_TRACING_DATA feature), walked as perf's
 * tools/perf/util/trace-event-info.c writes it (magic, version, endian, long
 * size, page size, header_page, header_event, ftrace formats, the systems'
 * event formats, kallsyms, printk formats, in "0.6" saved cmdlines), and
 * either copied whole or rewritten with only the kmem formats mkperf uses
 * (small files for the fuzzer). The format text of each kept event gives
 * its id and its fields' offsets and sizes, by which mkperf lays out the raw
 * data of its samples.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkperf.h"

struct walk {
	const unsigned char	*b;
	size_t			len, pos;
	struct mkp_buf		*out;
	int			bad;
};

static uint64_t num(struct walk *w, int n)
{
	uint64_t v = 0;

	if (w->len - w->pos < (size_t)n) {
		w->bad = 1;
		return 0;
	}
	memcpy(&v, w->b + w->pos, n);	/* little endian: the host's */
	w->pos += n;
	return v;
}

/* n bytes at the walk's position; NULL when they do not fit. */
static const unsigned char *take(struct walk *w, uint64_t n)
{
	const unsigned char *p = w->b + w->pos;

	if (w->bad || n > w->len - w->pos) {
		w->bad = 1;
		return NULL;
	}
	w->pos += n;
	return p;
}

static const char *str(struct walk *w)
{
	const char *s = (const char *)w->b + w->pos;
	const void *nul = memchr(s, '\0', w->len - w->pos);

	if (!nul) {
		w->bad = 1;
		return NULL;
	}
	w->pos += (const char *)nul - s + 1;
	return s;
}

/* A copy: a size field of @n bytes and its block, unchanged. */
static void copy_block(struct walk *w, int n, int keep)
{
	size_t at = w->pos;
	uint64_t sz = num(w, n);

	if (take(w, sz) && keep)
		mkp_put(w->out, w->b + at, n + sz);
}

/* The id and field offsets of one event's format text. */
static void parse_format(struct mkp_event *e, const char *text, size_t len)
{
	char *t = strndup(text, len), *line, *save = NULL;

	e->nr_fields = 0;
	e->id = -1;
	for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f = strstr(line, "field:"), *o = strstr(line, "offset:"),
		     *s = strstr(line, "size:"), *semi, *name;

		if (!strncmp(line, "ID: ", 4))
			e->id = atoi(line + 4);
		if (!f || !o || !s || e->nr_fields == MKP_MAX_FIELDS)
			continue;
		semi = strchr(f, ';');
		if (!semi)
			continue;
		*semi = '\0';
		name = strrchr(f, ' ');
		if (!name)
			continue;
		name++;
		if (strchr(name, '['))
			*strchr(name, '[') = '\0';
		snprintf(e->fields[e->nr_fields].name, sizeof(e->fields[0].name), "%s", name);
		e->fields[e->nr_fields].offset = atoi(o + 7);
		e->fields[e->nr_fields].size = atoi(s + 5);
		if (e->fields[e->nr_fields].offset + e->fields[e->nr_fields].size > e->size)
			e->size = e->fields[e->nr_fields].offset + e->fields[e->nr_fields].size;
		e->nr_fields++;
	}
	free(t);
}

static int wanted(const struct mkp_tdata *td, const char *name)
{
	int i;

	for (i = 0; i < td->nr_events; i++)
		if (!strcmp(td->events[i].name, name))
			return i;
	return -1;
}

/* The systems: every one copied, or only kmem with the wanted events. */
static void systems(struct walk *w, struct mkp_tdata *td, int small)
{
	uint32_t nsys = (uint32_t)num(w, 4), s, n, i, kept;
	size_t count_at;

	mkp_put32(w->out, small ? 1 : nsys);
	for (s = 0; s < nsys && !w->bad; s++) {
		const char *sys = str(w);
		int kmem = sys && !strcmp(sys, "kmem");

		n = (uint32_t)num(w, 4);
		if (!small || kmem) {
			mkp_put(w->out, sys, strlen(sys) + 1);
			count_at = w->out->len;
			mkp_put32(w->out, 0);
		}
		for (i = 0, kept = 0; i < n && !w->bad; i++) {
			uint64_t sz = num(w, 8);
			const unsigned char *text = take(w, sz);
			const char *nm = NULL;
			struct mkp_event tmp = { 0 };
			int k;

			if (!text)
				break;
			if (kmem)
				nm = memmem(text, sz, "name: ", 6);
			k = -1;
			if (kmem && nm) {
				char name[64];

				snprintf(name, sizeof(name), "%.*s",
					 (int)strcspn(nm + 6, "\n"), nm + 6);
				k = wanted(td, name);
			}
			if (k >= 0) {
				parse_format(&tmp, (const char *)text, sz);
				memcpy(td->events[k].fields, tmp.fields, sizeof(tmp.fields));
				td->events[k].nr_fields = tmp.nr_fields;
				td->events[k].id = tmp.id;
				td->events[k].size = tmp.size;
			}
			if (!small || k >= 0) {
				mkp_put64(w->out, sz);
				mkp_put(w->out, text, sz);
				kept++;
			}
		}
		if ((!small || kmem) && !w->bad)
			memcpy(w->out->b + count_at, &kept, 4);
	}
}

int mkp_tdata(struct mkp_tdata *td, const unsigned char *b, size_t len, int small,
	      struct mkp_buf *out)
{
	struct walk w = { .b = b, .len = len, .out = out };
	const char *ver;
	uint32_t n, i;
	int k;

	if (!take(&w, 10) || memcmp(b, "\027\010\104tracing", 10))
		return -1;
	ver = str(&w);
	take(&w, 6);		/* endian, long size, page size */
	if (w.bad || (strcmp(ver, "0.5") && strcmp(ver, "0.6")))
		return -1;
	mkp_put(out, b, w.pos);
	for (k = 0; k < 2; k++) {	/* header_page, header_event */
		const char *name = str(&w);

		if (!name)
			return -1;
		mkp_put(out, name, strlen(name) + 1);
		copy_block(&w, 8, 1);
	}
	n = (uint32_t)num(&w, 4);	/* ftrace formats: none kept when small */
	mkp_put32(out, small ? 0 : n);
	for (i = 0; i < n && !w.bad; i++)
		copy_block(&w, 8, !small);
	systems(&w, td, small);
	copy_block(&w, 4, 1);		/* kallsyms (perf writes none) */
	if (small) {
		take(&w, num(&w, 4));
		mkp_put32(out, 0);	/* printk formats */
	} else {
		copy_block(&w, 4, 1);
	}
	if (!strcmp(ver, "0.6")) {	/* saved cmdlines */
		if (small) {
			take(&w, num(&w, 8));
			mkp_put64(out, 0);
		} else {
			copy_block(&w, 8, 1);
		}
	}
	if (w.bad)
		return -1;
	for (k = 0; k < td->nr_events; k++)
		if (td->events[k].id < 0)
			return -1;
	return 0;
}

const struct mkp_field *mkp_field(const struct mkp_event *e, const char *name)
{
	int i;

	for (i = 0; i < e->nr_fields; i++)
		if (!strcmp(e->fields[i].name, name))
			return &e->fields[i];
	return NULL;
}
