// SPDX-License-Identifier: GPL-2.0
/*
 * kma-kinds-callers - what kma's reader and call-site layer make of a trace's
 * percpu and vmalloc allocations, before any matching: per kind and caller,
 * the successful allocations and their bytes, as kinds-check.py's caller
 * lines give them from trace-cmd report (tests/t-kinds-decode.sh compares).
 *
 *   kma-kinds-callers [-B BUFFER] trace.dat
 *
 * prints "caller KIND NAME total=N allocs=N", sorted. A percpu allocation's
 * caller is its call_site named as trace-cmd prints %pS ("[none]" for
 * layouts without call_site), a vmap area's kma_stacks_vmap_caller() of its
 * stack.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/kma-reader.h"
#include "sites/kma-sites.h"
#include "sites/kma-stacks.h"

struct row {
	int		kind;
	const char	*name;		/* interned: one pointer per name */
	uint64_t	total, allocs;
};

struct ctx {
	struct kma_sites	*sites;
	struct kma_stacks	*stacks;
	int			has_call_site;
	struct row		*rows;
	size_t			nr, cap;
	int			oom;
};

static struct row *row_of(struct ctx *c, int kind, const char *name)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (c->rows[i].kind == kind && c->rows[i].name == name)
			return &c->rows[i];
	if (c->nr == c->cap) {
		struct row *n = realloc(c->rows, (c->cap * 2 + 16) * sizeof(*n));

		if (!n)
			return NULL;
		c->rows = n;
		c->cap = c->cap * 2 + 16;
	}
	c->rows[c->nr] = (struct row){ .kind = kind, .name = name };
	return &c->rows[c->nr++];
}

static int on_event(void *ctx, const struct kma_event *ev)
{
	struct ctx *c = ctx;
	const char *name;
	uint32_t id;
	struct row *r;

	if (ev->type == KMA_EV_PERCPU_ALLOC) {
		name = c->has_call_site ? kma_sites_symbol(c->sites, ev->call_site) : "[none]";
	} else if (ev->type == KMA_EV_VMAP_ALLOC && ev->ptr) {
		if (kma_stacks_intern(c->stacks, ev->stack, ev->stack_depth, &id))
			return c->oom = 1;
		name = kma_stacks_vmap_caller(c->stacks, id);
	} else {
		return 0;
	}
	r = name ? row_of(c, ev->type == KMA_EV_PERCPU_ALLOC ? KMA_KIND_PERCPU :
			  KMA_KIND_VMALLOC, name) : NULL;
	if (!r)
		return c->oom = 1;
	r->total += ev->bytes_alloc;
	r->allocs++;
	return 0;
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind - y->kind;
	return strcmp(x->name, y->name);
}

int main(int argc, char **argv)
{
	struct kma_file_opts fo = { .jobs = 1 };
	const char *ksyms, *why = NULL, *path;
	struct ctx c = { 0 };
	struct kma_reader *r;
	struct kma_err err;
	size_t len, i;

	if (argc == 4 && !strcmp(argv[1], "-B"))
		fo.buffer = argv[2];
	else if (argc != 2) {
		fprintf(stderr, "usage: kma-kinds-callers [-B BUFFER] trace.dat\n");
		return 2;
	}
	path = argv[argc - 1];
	r = kma_reader_open_file(path, &fo, &err);
	if (!r) {
		fprintf(stderr, "kma-kinds-callers: %s: %s\n", path, err.msg);
		return 1;
	}
	ksyms = kma_reader_kallsyms(r, &len, &why);
	c.sites = kma_sites_alloc(ksyms, ksyms ? len : 0, why, kma_reader_tep(r));
	c.stacks = c.sites ? kma_stacks_alloc(c.sites) : NULL;
	if (!c.stacks) {
		fprintf(stderr, "kma-kinds-callers: out of memory\n");
		return 1;
	}
	c.has_call_site = !kma_reader_info(r)->percpu_missing ||
			  !strstr(kma_reader_info(r)->percpu_missing, "call_site");
	kma_reader_want_kinds(r, 1u << KMA_KIND_PERCPU | 1u << KMA_KIND_VMALLOC);
	if (kma_reader_run(r, on_event, &c, NULL, NULL, &err) || c.oom) {
		fprintf(stderr, "kma-kinds-callers: %s: %s\n", path,
			c.oom ? "out of memory" : err.msg);
		return 1;
	}
	qsort(c.rows, c.nr, sizeof(*c.rows), row_cmp);
	for (i = 0; i < c.nr; i++)
		printf("caller %s %s total=%" PRIu64 " allocs=%" PRIu64 "\n",
		       c.rows[i].kind == KMA_KIND_PERCPU ? "percpu" : "vmalloc", c.rows[i].name,
		       c.rows[i].total, c.rows[i].allocs);
	kma_stacks_free(c.stacks);
	kma_sites_free(c.sites);
	kma_reader_close(r);
	free(c.rows);
	return 0;
}
