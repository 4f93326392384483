/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-report-kinds.h - "Kernel memory by allocator": one row per kind that
 * allocated (match/kma-account.h).
 */
#ifndef KMA_REPORT_KINDS_H
#define KMA_REPORT_KINDS_H

#include <stdio.h>

#include "match/kma-account.h"
#include "kma-table.h"

/* The kinds of @s (n of them) with allocations, in table order, as a table. 0 or -1. */
int kma_report_kinds(FILE *out, const struct kma_kind_sum *s, unsigned int n, enum kma_fmt fmt);

#endif /* KMA_REPORT_KINDS_H */
