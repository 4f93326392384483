// SPDX-License-Identifier: GPL-2.0
/*
 * kma-perf-kinfo.c - what a perf.data says of the kernel it was recorded on
 * (lib/kma-kinfo.h), for sites/kma-ksyms-src to pick the call sites' symbols:
 * the release, the kernel's build id, its "[kernel.kallsyms]REF" MMAP record
 * and the modules' MMAP records.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-kinfo.h"
#include "kma-reader.h"

#define KERNEL_MAP	"[kernel.kallsyms]"

int kma_reader_kinfo(const struct kma_reader *r, struct kma_kinfo *ki, struct kma_kmap **mods)
{
	const struct kma_kernel_map *m;
	const struct kma_build_id *b;
	size_t nm, nb, i;

	memset(ki, 0, sizeof(*ki));
	*mods = NULL;
	ki->release = kma_reader_info(r)->release;
	m = kma_reader_kernel_maps(r, &nm);
	b = kma_reader_build_ids(r, &nb);
	for (i = 0; b && i < nb; i++)
		if (b[i].kernel && !strcmp(b[i].name, KERNEL_MAP) && b[i].size > 0) {
			ki->build_id = b[i].id;
			ki->build_id_len = (size_t)b[i].size;
		}
	if (nm && !(*mods = calloc(nm, sizeof(**mods))))
		return -1;
	for (i = 0; m && i < nm; i++) {
		if (!strncmp(m[i].name, KERNEL_MAP, sizeof(KERNEL_MAP) - 1)) {
			ki->has_kmap = 1;
			ki->kmap_start = m[i].start;
			ki->kmap_pgoff = m[i].pgoff;
			ki->kmap_ref = m[i].name + sizeof(KERNEL_MAP) - 1;
			continue;
		}
		(*mods)[ki->nr_mods++] = (struct kma_kmap){ .start = m[i].start, .len = m[i].len,
							    .pgoff = m[i].pgoff, .path = m[i].name };
	}
	ki->mods = *mods;
	return 0;
}
