/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-table.h - a report table printed as aligned text, CSV (RFC 4180, one
 * header row) or JSON (an array of objects). Every report but the seed's
 * per-caller text layout goes through it, so all of them speak all formats.
 */
#ifndef KMA_TABLE_H
#define KMA_TABLE_H

#include <stddef.h>
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
int kma_table_i64(struct kma_table *t, int64_t v);
int kma_table_str(struct kma_table *t, const char *s);
/*
 * 100 * part / whole with 3 decimals, rounded half up ("12.500"), as perf
 * kmem prints its Frag column; "-" (text) or null (a cell) when whole is 0.
 */
void kma_fmt_pct(char *buf, size_t len, uint64_t part, uint64_t whole);
int kma_table_pct(struct kma_table *t, uint64_t part, uint64_t whole);
int kma_table_null(struct kma_table *t);

int kma_table_print(FILE *out, const struct kma_table *t, enum kma_fmt fmt);

/*
 * What the reports share on top of the table (here, not in a report file, so
 * that no report includes another).
 */

/*
 * A table with the columns of a "name:n name:s name:t ..." spec (n numeric,
 * s string, t time: seconds "1.234567s" in text, integer nanoseconds in CSV
 * and JSON under the name "name_ns"); NULL on out of memory.
 */
struct kma_table *kma_table_new(const char *spec);
/* Durations and timestamps, in :t columns: seconds in text (kma_fmt_secs),
 * nanoseconds in CSV and JSON, where a program reads them. */
int kma_table_dur(struct kma_table *t, enum kma_fmt fmt, uint64_t ns);
int kma_table_ts(struct kma_table *t, enum kma_fmt fmt, uint64_t ns);
/*
 * Prints t, in JSON as {"report": name, <json_head>, "rows": [...]} (json_head:
 * NULL or more members, without the trailing comma), and frees t. -1 without
 * printing when t is NULL or err is set (a cell could not be added).
 */
int kma_table_finish(FILE *out, struct kma_table *t, enum kma_fmt fmt, const char *name,
		     const char *json_head, int err);

/*
 * Names come from the trace as bytes (symbols, caches, tasks, markers, modules,
 * files): the kernel does not promise UTF-8. Every format prints them through
 * one of the escapers below, so that JSON and CSV are valid UTF-8 and the text
 * sends no control bytes to a terminal. Well-formed UTF-8 passes unchanged; each
 * byte of an ill-formed sequence 0xNN is read as Latin-1, U+00NN (JSON \u00NN,
 * CSV the UTF-8 of U+00NN, text \xNN). README.md, "Output formats", says so.
 */

/* Length 1..4 of the well-formed UTF-8 sequence at s, with its code point in
 * *cp; 0 when s does not start one (a byte of an ill-formed sequence). */
size_t kma_utf8_seq(const char *s, uint32_t *cp);

/* JSON string literal of s (with quotes): ", \, C0, DEL, C1 and ill-formed
 * bytes as \uXXXX escapes. */
void kma_json_str(FILE *out, const char *s);
/* The same, safe inside <script>: <, >, &, U+2028/9 as \u escapes too. */
void kma_json_str_html(FILE *out, const char *s);
/* One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF. */
void kma_csv_str(FILE *out, const char *s);
/* The display form: C0 controls, DEL and ill-formed bytes as \xNN, C1 controls
 * (U+0080..U+009F) as \uNNNN, everything else as it is. */
void kma_text_str(FILE *out, const char *s);
/* Terminal columns of the display form (one per code point). */
size_t kma_text_width(const char *s);

#endif /* KMA_TABLE_H */
