// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-kinds.c - the kernel memory by allocator (kma-report-kinds.h).
 */
#include "kma-report-kinds.h"

int kma_report_kinds(FILE *out, const struct kma_kind_sum *s, unsigned int n, enum kma_fmt fmt)
{
	struct kma_table *t = kma_table_new("kind:s allocs:n bytes:n net:n peak:n");
	unsigned int i;
	int err = 0;

	if (fmt == KMA_FMT_TEXT)
		fputs("Kernel memory by allocator\n", out);
	for (i = 0; t && i < n; i++) {
		if (!s[i].allocs)
			continue;
		err |= kma_table_str(t, kma_kind_name(s[i].kind));
		err |= kma_table_u64(t, s[i].allocs);
		err |= kma_table_u64(t, s[i].bytes);
		err |= kma_table_u64(t, s[i].net);
		err |= kma_table_u64(t, s[i].peak);
	}
	return kma_table_finish(out, t, fmt, "kinds", NULL, err);
}
