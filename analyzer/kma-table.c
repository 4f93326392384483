// SPDX-License-Identifier: GPL-2.0
/*
 * kma-table.c - text, CSV and JSON tables.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kma-table.h"

struct col {
	char	*name;
	int	numeric;
	size_t	width;
};

struct kma_table {
	struct col	*cols;
	size_t		nr_cols;
	char		**cells;	/* row-major; NULL: null */
	size_t		nr_cells, cap_cells;
};

int kma_fmt_parse(const char *s, enum kma_fmt *out)
{
	if (!strcmp(s, "text"))
		*out = KMA_FMT_TEXT;
	else if (!strcmp(s, "csv"))
		*out = KMA_FMT_CSV;
	else if (!strcmp(s, "json"))
		*out = KMA_FMT_JSON;
	else
		return -1;
	return 0;
}

struct kma_table *kma_table_alloc(void)
{
	return calloc(1, sizeof(struct kma_table));
}

void kma_table_free(struct kma_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_cols; i++)
		free(t->cols[i].name);
	for (i = 0; i < t->nr_cells; i++)
		free(t->cells[i]);
	free(t->cols);
	free(t->cells);
	free(t);
}

int kma_table_col(struct kma_table *t, const char *name, int numeric)
{
	struct col *n = realloc(t->cols, (t->nr_cols + 1) * sizeof(*n));

	if (!n)
		return -1;
	t->cols = n;
	n[t->nr_cols].name = strdup(name);
	if (!n[t->nr_cols].name)
		return -1;
	n[t->nr_cols].numeric = numeric;
	n[t->nr_cols].width = strlen(name);
	t->nr_cols++;
	return 0;
}

static int add(struct kma_table *t, char *cell, int is_null)
{
	struct col *c;

	if (!cell && !is_null)
		return -1;
	if (t->nr_cells == t->cap_cells) {
		size_t cap = t->cap_cells ? t->cap_cells * 2 : 64;
		char **n = realloc(t->cells, cap * sizeof(*n));

		if (!n) {
			free(cell);
			return -1;
		}
		t->cells = n;
		t->cap_cells = cap;
	}
	c = &t->cols[t->nr_cells % t->nr_cols];
	if (cell && strlen(cell) > c->width)
		c->width = strlen(cell);
	t->cells[t->nr_cells++] = cell;
	return 0;
}

int kma_table_u64(struct kma_table *t, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return add(t, strdup(buf), 0);
}

int kma_table_str(struct kma_table *t, const char *s)
{
	return s ? add(t, strdup(s), 0) : add(t, NULL, 1);
}

int kma_table_null(struct kma_table *t)
{
	return add(t, NULL, 1);
}

void kma_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void csv_cell(FILE *out, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

int kma_table_print(FILE *out, const struct kma_table *t, enum kma_fmt fmt)
{
	size_t i, rows = t->nr_cols ? t->nr_cells / t->nr_cols : 0, r;

	if (fmt == KMA_FMT_JSON) {
		fputc('[', out);
		for (r = 0; r < rows; r++) {
			fputs(r ? ",\n  {" : "\n  {", out);
			for (i = 0; i < t->nr_cols; i++) {
				const char *cell = t->cells[r * t->nr_cols + i];

				if (i)
					fputs(", ", out);
				kma_json_str(out, t->cols[i].name);
				fputs(": ", out);
				if (!cell)
					fputs("null", out);
				else if (t->cols[i].numeric)
					fputs(cell, out);
				else
					kma_json_str(out, cell);
			}
			fputc('}', out);
		}
		fputs(rows ? "\n]" : "]", out);
		return ferror(out) ? -1 : 0;
	}
	for (r = 0; r <= rows; r++) {
		for (i = 0; i < t->nr_cols; i++) {
			const struct col *c = &t->cols[i];
			const char *cell = r ? t->cells[(r - 1) * t->nr_cols + i] : c->name;
			int last = i + 1 == t->nr_cols;

			if (fmt == KMA_FMT_CSV) {
				if (i)
					fputc(',', out);
				csv_cell(out, cell);
				continue;
			}
			if (!cell)
				cell = "-";
			if (i)
				fputs("  ", out);
			if (c->numeric)
				fprintf(out, "%*s", (int)c->width, cell);
			else if (last)
				fputs(cell, out);
			else
				fprintf(out, "%-*s", (int)c->width, cell);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}
