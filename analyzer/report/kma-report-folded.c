// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-folded.c - folded stacks for flame graphs.
 *
 * The rows come from a matcher grouped by stack, whose rows are already
 * keyed by the interned folded name (stacks that differ only in offsets
 * share it); still, equal names are summed here so that the output has
 * one line per name whatever grouped the rows. Names are printed as they
 * are: function names carry no spaces or ';', and "[no stack]" is a frame
 * flamegraph.pl shows like any other. Weights: the row's total (bytes
 * allocated), net (bytes still live at the end), slack or allocations,
 * so the lines of --weight bytes sum to the summary's total.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kma-report-folded.h"

int kma_weight_parse(const char *s, enum kma_weight *out)
{
	static const char * const names[] = {
		[KMA_WEIGHT_BYTES] = "bytes", [KMA_WEIGHT_NET] = "net",
		[KMA_WEIGHT_SLACK] = "slack", [KMA_WEIGHT_ALLOCS] = "allocs",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*out = (enum kma_weight)i;
			return 0;
		}
	return -1;
}

static uint64_t weight_of(const struct kma_caller *c, enum kma_weight w)
{
	switch (w) {
	case KMA_WEIGHT_NET:	return c->net;
	case KMA_WEIGHT_SLACK:	return c->slack;
	case KMA_WEIGHT_ALLOCS:	return c->allocs;
	default:		return c->total;
	}
}

static int by_name(const void *a, const void *b)
{
	const struct kma_caller *x = *(const struct kma_caller * const *)a;
	const struct kma_caller *y = *(const struct kma_caller * const *)b;

	return strcmp(x->name, y->name);
}

int kma_report_folded(FILE *out, const struct kma_caller *rows, uint32_t nr,
		      enum kma_weight w)
{
	const struct kma_caller **v = malloc((nr ? nr : 1) * sizeof(*v));
	uint64_t sum;
	uint32_t i, j;

	if (!v)
		return -1;
	for (i = 0; i < nr; i++)
		v[i] = &rows[i];
	qsort(v, nr, sizeof(*v), by_name);
	for (i = 0; i < nr; i = j) {
		sum = 0;
		for (j = i; j < nr && !strcmp(v[j]->name, v[i]->name); j++)
			sum += weight_of(v[j], w);
		if (sum)
			fprintf(out, "%s %" PRIu64 "\n", v[i]->name, sum);
	}
	free(v);
	return ferror(out) ? -1 : 0;
}
