/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-table.h - a report table printed as aligned text, CSV (RFC 4180, one
 * header row) or JSON (an array of objects). Every report but the seed's
 * per-caller text layout goes through it, so all of them speak all formats.
 */
#ifndef KMA_TABLE_H
#define KMA_TABLE_H

#include <stdint.h>
#include <stdio.h>

enum kma_fmt { KMA_FMT_TEXT, KMA_FMT_CSV, KMA_FMT_JSON };

struct kma_table;

int kma_fmt_parse(const char *s, enum kma_fmt *out);

struct kma_table *kma_table_alloc(void);
void kma_table_free(struct kma_table *t);

/* Columns first; numeric ones are right-aligned and unquoted in JSON. */
int kma_table_col(struct kma_table *t, const char *name, int numeric);
/* Then cells, row by row, left to right. NULL strings are JSON null / empty. */
int kma_table_u64(struct kma_table *t, uint64_t v);
int kma_table_str(struct kma_table *t, const char *s);
int kma_table_null(struct kma_table *t);

int kma_table_print(FILE *out, const struct kma_table *t, enum kma_fmt fmt);

/* JSON string literal of s (with quotes). */
void kma_json_str(FILE *out, const char *s);

#endif /* KMA_TABLE_H */
