// SPDX-License-Identifier: GPL-2.0
/*
 * kma-gfp.c - which kmalloc cache family (kmalloc-N, kmalloc-cg-N,
 * kmalloc-rcl-N, dma-kmalloc-N) a kmalloc event's gfp_flags pick.
 *
 * The bit values of __GFP_DMA, __GFP_RECLAIMABLE and __GFP_ACCOUNT moved
 * across kernels (__GFP_ACCOUNT was 0x100000 in 4.x, 0x400000 in 5.x/6.x),
 * so they are not compiled in: they are read, once per trace, from the
 * trace's own show_gfp_flags() table, the __print_flags() of the kmalloc
 * event's print fmt, whose values libtraceevent has already evaluated.
 *
 * The kernel's kmalloc_type() (include/linux/slab.h) decides, by release:
 *   < 4.20        __GFP_DMA -> dma-kmalloc-N, else kmalloc-N
 *   4.20 .. 5.13  __GFP_DMA wins over __GFP_RECLAIMABLE (kmalloc-rcl-N, added
 *                 by "mm, slab/slub: introduce kmalloc-reclaimable caches");
 *                 __GFP_ACCOUNT has no caches of its own
 *   5.14 on       __GFP_DMA, then __GFP_RECLAIMABLE, then __GFP_ACCOUNT
 *                 (kmalloc-cg-N, "mm: memcg/slab: create a new set of
 *                 kmalloc-cg-<n> caches")
 * kma assumes CONFIG_ZONE_DMA and CONFIG_MEMCG (distribution kernels); an
 * unknown release gets the newest rule.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-reader-int.h"

/* The flag names kmalloc_type() looks at, by the family they select. */
static const struct {
	const char	*name;
	int		type;
	int		since;	/* kernel release as major * 100 + minor */
} gfp_bits[] = {
	{ "__GFP_DMA", KMA_KMALLOC_DMA, 0 },
	{ "__GFP_RECLAIMABLE", KMA_KMALLOC_RECLAIM, 420 },
	{ "__GFP_ACCOUNT", KMA_KMALLOC_CGROUP, 514 },
};
#define NR_BITS	(sizeof(gfp_bits) / sizeof(gfp_bits[0]))

/* The __print_flags() of the gfp_flags field anywhere in @arg (it sits in a ?: of the fmt). */
const struct tep_print_arg_flags *kma_gfp_table(const struct tep_print_arg *arg)
{
	const struct tep_print_arg_flags *f;

	for (; arg; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_FLAGS:
			if (arg->flags.field && arg->flags.field->type == TEP_PRINT_FIELD &&
			    arg->flags.field->field.name &&
			    !strcmp(arg->flags.field->field.name, "gfp_flags"))
				return &arg->flags;
			break;
		case TEP_PRINT_OP:
			f = kma_gfp_table(arg->op.left);
			if (!f)
				f = kma_gfp_table(arg->op.right);
			if (f)
				return f;
			break;
		case TEP_PRINT_TYPE:
			f = kma_gfp_table(arg->typecast.item);
			if (f)
				return f;
			break;
		default:
			break;
		}
	}
	return NULL;
}

/* The value of flag @name in the table: 0 when absent or not a single number. */
static uint64_t flag_value(const struct tep_print_arg_flags *fl, const char *name)
{
	const struct tep_print_flag_sym *s;
	unsigned long long v;
	char *end;

	for (s = fl->flags; s; s = s->next) {
		if (!s->str || !s->value || strcmp(s->str, name))
			continue;
		v = strtoull(s->value, &end, 0);
		return *end ? 0 : v;
	}
	return 0;
}

static int release_number(const char *release)
{
	int major, minor;

	if (!release || sscanf(release, "%d.%d", &major, &minor) != 2)
		return 9999;	/* unknown: the newest rule */
	return major * 100 + minor;
}

static void add_warning(struct kma_reader *r, const char *fmt, const char *a, const char *b)
{
	if (r->info.kmalloc_warning)
		return;		/* once: the first reason is enough */
	snprintf(r->kmalloc_warn, sizeof(r->kmalloc_warn), fmt, a, b);
	r->info.kmalloc_warning = r->kmalloc_warn;
}

/*
 * The bits of a kmalloc event @ev into its descriptor @d. A missing table or
 * name leaves that family out (its allocations stay kmalloc-N), and says so
 * once in info.kmalloc_warning.
 */
void kma_gfp_setup(struct kma_reader *r, struct tep_event *ev, struct ev_desc *d)
{
	const struct tep_print_arg_flags *fl = kma_gfp_table(ev->print_fmt.args);
	int rel = release_number(r->info.release);
	char used[160];
	size_t i, n = 0;

	memset(d->kmalloc_bits, 0, sizeof(d->kmalloc_bits));
	if (!fl) {
		add_warning(r, "%s:%s's print fmt has no __print_flags() table of gfp_flags: "
			    "kmalloc caches are named by size only (kmalloc-N)", ev->system,
			    ev->name);
		return;
	}
	used[0] = '\0';
	for (i = 0; i < NR_BITS; i++) {
		uint64_t v = flag_value(fl, gfp_bits[i].name);

		if (rel < gfp_bits[i].since)
			continue;	/* that kernel had no such caches */
		if (!v) {
			add_warning(r, "the gfp_flags table of %s has no %s: kmalloc-N stands in "
				    "for the caches it selects", ev->name, gfp_bits[i].name);
			continue;
		}
		d->kmalloc_bits[gfp_bits[i].type] = v;
		n += snprintf(used + n, sizeof(used) - n, "%s%s=0x%" PRIx64, n ? " " : "",
			      gfp_bits[i].name, v);
		if (n >= sizeof(used))
			n = sizeof(used) - 1;
	}
	if (!r->info.kmalloc_flags && n) {
		r->info.kmalloc_flags = kma_strpool_intern(r->pool, used, n);
	}
}

/*
 * Any release's __GFP_ACCOUNT: before 6.0 the allocation events have no
 * accounted field, and the flag is all the trace says of memcg charging.
 */
void kma_gfp_slab_setup(struct tep_event *ev, struct ev_desc *d)
{
	d->gfp_table = kma_gfp_table(ev->print_fmt.args);
	d->account_bit = d->gfp_table ? flag_value(d->gfp_table, "__GFP_ACCOUNT") : 0;
	/*
	 * 6.0's kmalloc has no accounted field: its print fmt says accounted=
	 * from IS_ENABLED(CONFIG_MEMCG) && (gfp_flags & __GFP_ACCOUNT). kma
	 * assumes CONFIG_MEMCG, as for kmalloc-cg-N above.
	 */
	d->acct_fmt = !tep_find_field(ev, "accounted") && d->account_bit &&
		      ev->print_fmt.format && strstr(ev->print_fmt.format, "accounted=");
}

/* kmalloc_type(): __GFP_DMA, then __GFP_RECLAIMABLE, then __GFP_ACCOUNT. */
int kma_gfp_type(const struct ev_desc *d, uint64_t gfp, int accounted)
{
	if (gfp & d->kmalloc_bits[KMA_KMALLOC_DMA])
		return KMA_KMALLOC_DMA;
	if (gfp & d->kmalloc_bits[KMA_KMALLOC_RECLAIM])
		return KMA_KMALLOC_RECLAIM;
	/* 6.0's kmalloc says accounted=0 for __GFP_ACCOUNT when memcg is off */
	if ((gfp & d->kmalloc_bits[KMA_KMALLOC_CGROUP]) && accounted != 0)
		return KMA_KMALLOC_CGROUP;
	return KMA_KMALLOC_NORMAL;
}
