// SPDX-License-Identifier: GPL-2.0
/*
 * mktrace-kinds.c - the percpu and vmalloc allocators' events in mktrace.
 *
 *   event ... percpu_alloc_percpu call_site=SYM+OFF size=N bytes_alloc=N ptr=N
 *             [gfp_flags=...] [reserved= is_atomic= align= base_addr= off=]
 *   event ... percpu_free_percpu ptr=N [base_addr= off=]
 *   event ... alloc_vmap_area addr=N size=N [failed=N align= vstart= vend=]
 *   event ... free_vmap_area_noflush va_start=N [nr_lazy= nr_lazy_max=]
 *
 * The file gets the percpu or the vmalloc system only when a description
 * uses one of its events (mktrace.c), so other traces stay as they were.
 * percpu_alloc_percpu has the 5.19 layout (include/trace/events/percpu.h,
 * "percpu: improve percpu_alloc_percpu event trace": call_site first,
 * bytes_alloc and gfp_flags last) for generations 5.19 on, the older one
 * (reserved, is_atomic, size, align, base_addr, off, ptr) before: the old
 * layout drops call_site=, bytes_alloc= and gfp_flags= of a description.
 * The vmalloc events (include/trace/events/vmalloc.h, 6.3 on) are written in
 * their one layout whatever the generation.
 */
#include <stdio.h>
#include <string.h>

#include "mktrace.h"

static void percpu_alloc(struct event_fmt *e, const struct target *t)
{
	int L = t->long_size, cur = t->gen >= 519;
	char gfp[640];

	if (cur)
		add_field(e, t, "unsigned long", "call_site", L, 0, 0);
	add_field(e, t, "bool", "reserved", 1, 0, 0);
	add_field(e, t, "bool", "is_atomic", 1, 0, 0);
	add_field(e, t, "size_t", "size", L, 0, 0);
	add_field(e, t, "size_t", "align", L, 0, 0);
	add_field(e, t, "void *", "base_addr", L, 0, 0);
	add_field(e, t, "int", "off", 4, 1, 0);
	add_field(e, t, "void __percpu *", "ptr", L, 0, 0);
	if (!cur) {
		snprintf(e->print, sizeof(e->print), "\"reserved=%%d is_atomic=%%d size=%%zu "
			 "align=%%zu base_addr=%%p off=%%d ptr=%%p\", REC->reserved, "
			 "REC->is_atomic, REC->size, REC->align, REC->base_addr, REC->off, "
			 "REC->ptr");
		return;
	}
	add_field(e, t, "size_t", "bytes_alloc", L, 0, 0);
	add_field(e, t, "unsigned long", "gfp_flags", L, 0, 0);
	gfp_print(gfp, sizeof(gfp), t);
	snprintf(e->print, sizeof(e->print), "\"call_site=%%pS reserved=%%d is_atomic=%%d "
		 "size=%%zu align=%%zu base_addr=%%p off=%%d ptr=%%p bytes_alloc=%%zu "
		 "gfp_flags=%s\", (void *)REC->call_site, REC->reserved, REC->is_atomic, "
		 "REC->size, REC->align, REC->base_addr, REC->off, REC->ptr, REC->bytes_alloc, %s",
		 t->gfp_layout == GFP_NONE ? "%lx" : "%s", gfp);
}

void kinds_event(struct event_fmt *e, const struct target *t, int kind)
{
	int L = t->long_size;

	switch (kind) {
	case K_PERCPU_ALLOC:
		percpu_alloc(e, t);
		break;
	case K_PERCPU_FREE:
		add_field(e, t, "void *", "base_addr", L, 0, 0);
		add_field(e, t, "int", "off", 4, 1, 0);
		add_field(e, t, "void __percpu *", "ptr", L, 0, 0);
		snprintf(e->print, sizeof(e->print), "\"base_addr=%%p off=%%d ptr=%%p\", "
			 "REC->base_addr, REC->off, REC->ptr");
		break;
	case K_VMAP_ALLOC:
		add_field(e, t, "unsigned long", "addr", L, 0, 0);
		add_field(e, t, "unsigned long", "size", L, 0, 0);
		add_field(e, t, "unsigned long", "align", L, 0, 0);
		add_field(e, t, "unsigned long", "vstart", L, 0, 0);
		add_field(e, t, "unsigned long", "vend", L, 0, 0);
		add_field(e, t, "int", "failed", 4, 1, 0);
		snprintf(e->print, sizeof(e->print), "\"va_start: %%lu size=%%lu align=%%lu "
			 "vstart=0x%%lx vend=0x%%lx failed=%%d\", REC->addr, REC->size, "
			 "REC->align, REC->vstart, REC->vend, REC->failed");
		break;
	case K_VMAP_FREE:
		add_field(e, t, "unsigned long", "va_start", L, 0, 0);
		add_field(e, t, "unsigned long", "nr_lazy", L, 0, 0);
		add_field(e, t, "unsigned long", "nr_lazy_max", L, 0, 0);
		snprintf(e->print, sizeof(e->print), "\"va_start=0x%%lx nr_lazy=%%lu "
			 "nr_lazy_max=%%lu\", REC->va_start, REC->nr_lazy, REC->nr_lazy_max");
		break;
	}
}

/* The fields a description may leave out (0); the keys and sizes it must give. */
int kinds_default(const char *name, uint64_t *num)
{
	static const char * const zero[] = {
		"reserved", "is_atomic", "align", "base_addr", "off", "failed", "vstart",
		"vend", "nr_lazy", "nr_lazy_max",
	};
	size_t i;

	for (i = 0; i < sizeof(zero) / sizeof(zero[0]); i++)
		if (!strcmp(name, zero[i])) {
			*num = 0;
			return 0;
		}
	return -1;
}

/* A field name of these events that the slab and page events do not have. */
int kinds_field(const char *name)
{
	static const char * const names[] = { "size", "addr", "va_start" };
	uint64_t n;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return !kinds_default(name, &n);
}
