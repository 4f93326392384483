// SPDX-License-Identifier: GPL-2.0
/*
 * kma-table.c - text, CSV and JSON tables.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-table.h"
#include "kma-time.h"

struct col {
	char	*name;
	int	numeric;	/* 1: a number, 2: a time (text seconds, else ns) */
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
	n[t->nr_cols].width = kma_text_width(name);
	t->nr_cols++;
	return 0;
}

static int add(struct kma_table *t, char *cell, int is_null)
{
	struct col *c;
	size_t w;

	if (!cell && !is_null)
		return -1;
	if (kma_grow(&t->cells, &t->cap_cells, t->nr_cells, sizeof(*t->cells), 64)) {
		free(cell);
		return -1;
	}
	/* text columns are as wide as the widest display form */
	c = &t->cols[t->nr_cells % t->nr_cols];
	w = cell ? kma_text_width(cell) : 0;
	if (w > c->width)
		c->width = w;
	t->cells[t->nr_cells++] = cell;
	return 0;
}

int kma_table_u64(struct kma_table *t, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return add(t, strdup(buf), 0);
}

int kma_table_i64(struct kma_table *t, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return add(t, strdup(buf), 0);
}

void kma_fmt_pct(char *buf, size_t len, uint64_t part, uint64_t whole)
{
	/* 128 bits: part * 200000 of a 2^63-byte sum does not fit in 64 */
	unsigned __int128 m;

	if (!whole) {
		snprintf(buf, len, "-");
		return;
	}
	m = ((unsigned __int128)part * 200000 + whole) / ((unsigned __int128)whole * 2);
	snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, (uint64_t)(m / 1000), (uint64_t)(m % 1000));
}

int kma_table_pct(struct kma_table *t, uint64_t part, uint64_t whole)
{
	char buf[32];

	if (!whole)
		return add(t, NULL, 1);
	kma_fmt_pct(buf, sizeof(buf), part, whole);
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

/* --- escaping (see kma-table.h) --- */

size_t kma_utf8_seq(const char *p, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)p;
	unsigned char lo = 0x80, hi = 0xbf;
	uint32_t c;
	size_t n, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	/* lead bytes and second-byte ranges of Unicode Table 3-7: no overlong
	 * forms, no surrogates, nothing above U+10FFFF */
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	if (s[0] < 0xe0) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] < 0xf0) {
		n = 3;
		c = s[0] & 0x0f;
		if (s[0] == 0xe0)
			lo = 0xa0;
		else if (s[0] == 0xed)
			hi = 0x9f;
	} else {
		n = 4;
		c = s[0] & 0x07;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f;
	}
	/* the NUL terminator fails the range check: no read past it */
	for (i = 1; i < n; i++) {
		if (s[i] < lo || s[i] > hi)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*cp = c;
	return n;
}

/* html: also <, >, & and the JavaScript line separators, for JSON inside <script> */
static void json_str(FILE *out, const char *s, int html)
{
	fputc('"', out);
	while (*s) {
		uint32_t c;
		size_t n = kma_utf8_seq(s, &c);

		if (!n) {
			/* an ill-formed byte: its Latin-1 reading */
			fprintf(out, "\\u%04x", (unsigned char)*s++);
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", (char)c);
		else if (c < 0x20 || (c >= 0x7f && c < 0xa0) ||
			 (html && (c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029)))
			fprintf(out, "\\u%04x", (unsigned int)c);
		else
			fwrite(s, 1, n, out);
		s += n;
	}
	fputc('"', out);
}

void kma_json_str(FILE *out, const char *s)
{
	json_str(out, s, 0);
}

void kma_json_str_html(FILE *out, const char *s)
{
	json_str(out, s, 1);
}

void kma_csv_str(FILE *out, const char *s)
{
	int quote = strpbrk(s, ",\"\r\n") != NULL;

	if (quote)
		fputc('"', out);
	while (*s) {
		unsigned char b = (unsigned char)*s;
		uint32_t c;
		size_t n = kma_utf8_seq(s, &c);

		if (!n) {
			/* U+00NN in UTF-8, as JSON has it */
			fputc(0xc0 | b >> 6, out);
			fputc(0x80 | (b & 0x3f), out);
			s++;
			continue;
		}
		if (c == '"')
			fputc('"', out);
		fwrite(s, 1, n, out);
		s += n;
	}
	if (quote)
		fputc('"', out);
}

/* The display form of the character at s: an escape in esc, or esc empty when
 * its bytes print as they are. Returns how many bytes of s it covers. */
static size_t text_char(const char *s, char esc[8])
{
	uint32_t c;
	size_t n = kma_utf8_seq(s, &c);

	esc[0] = '\0';
	if (!n)
		snprintf(esc, 8, "\\x%02x", (unsigned char)*s);
	else if (c < 0x20 || c == 0x7f)
		snprintf(esc, 8, "\\x%02x", (unsigned int)c);
	else if (c >= 0x80 && c < 0xa0)
		snprintf(esc, 8, "\\u%04x", (unsigned int)c);
	return n ? n : 1;
}

void kma_text_str(FILE *out, const char *s)
{
	char esc[8];

	while (*s) {
		size_t n = text_char(s, esc);

		if (esc[0])
			fputs(esc, out);
		else
			fwrite(s, 1, n, out);
		s += n;
	}
}

size_t kma_text_width(const char *s)
{
	size_t w = 0;
	char esc[8];

	while (*s) {
		s += text_char(s, esc);
		w += esc[0] ? strlen(esc) : 1;
	}
	return w;
}

/* A text cell padded with blanks to width w, on the left when right-aligned. */
/* A time column's CSV/JSON name carries its unit: "start" -> "start_ns". */
static const char *col_name(const struct col *c, enum kma_fmt fmt, char *buf, size_t len)
{
	if (c->numeric != 2 || fmt == KMA_FMT_TEXT)
		return c->name;
	snprintf(buf, len, "%s_ns", c->name);
	return buf;
}

static void json_name(FILE *out, const struct col *c)
{
	char buf[64];

	kma_json_str(out, col_name(c, KMA_FMT_JSON, buf, sizeof(buf)));
}

static void text_cell(FILE *out, const char *s, size_t w, int right)
{
	size_t sw = kma_text_width(s);

	if (right)
		fprintf(out, "%*s", (int)(w > sw ? w - sw : 0), "");
	kma_text_str(out, s);
	if (!right)
		fprintf(out, "%*s", (int)(w > sw ? w - sw : 0), "");
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
				json_name(out, &t->cols[i]);
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
			char buf[64];
			const char *cell = r ? t->cells[(r - 1) * t->nr_cols + i] :
					   col_name(c, fmt, buf, sizeof(buf));
			int last = i + 1 == t->nr_cols;

			if (fmt == KMA_FMT_CSV) {
				if (i)
					fputc(',', out);
				if (cell)
					kma_csv_str(out, cell);
				continue;
			}
			if (!cell)
				cell = "-";
			if (i)
				fputs("  ", out);
			text_cell(out, cell, last && !c->numeric ? 0 : c->width, c->numeric);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}

/* --- what the reports share (see kma-table.h) --- */

struct kma_table *kma_table_new(const char *spec)
{
	struct kma_table *t = kma_table_alloc();
	char name[48];
	const char *p = spec;
	int n;

	while (t && sscanf(p, "%47[^:]:%*c%n", name, &n) == 1) {
		char type = p[n - 1];

		if (kma_table_col(t, name, type == 'n' ? 1 : type == 't' ? 2 : 0)) {
			kma_table_free(t);
			return NULL;
		}
		p += n;
		while (*p == ' ')
			p++;
	}
	return t;
}

/* A time cell: fmt_time's readable form in text, nanoseconds in CSV and JSON. */
static int time_cell(struct kma_table *t, enum kma_fmt fmt, uint64_t ns,
		     void (*fmt_time)(char *buf, size_t len, uint64_t ns))
{
	char buf[32];

	if (fmt != KMA_FMT_TEXT)
		return kma_table_u64(t, ns);
	fmt_time(buf, sizeof(buf), ns);
	return kma_table_str(t, buf);
}

int kma_table_dur(struct kma_table *t, enum kma_fmt fmt, uint64_t ns)
{
	return time_cell(t, fmt, ns, kma_fmt_secs);
}

int kma_table_ts(struct kma_table *t, enum kma_fmt fmt, uint64_t ns)
{
	return time_cell(t, fmt, ns, kma_fmt_secs);
}

int kma_table_finish(FILE *out, struct kma_table *t, enum kma_fmt fmt, const char *name,
		     const char *json_head, int err)
{
	if (!t || err) {
		kma_table_free(t);
		return -1;
	}
	if (fmt == KMA_FMT_JSON) {
		fprintf(out, "{\"report\": \"%s\", %s%s\"rows\": ", name,
			json_head ? json_head : "", json_head ? ", " : "");
		err = kma_table_print(out, t, fmt);
		fputs("}\n", out);
	} else {
		err = kma_table_print(out, t, fmt);
	}
	kma_table_free(t);
	return err || ferror(out) ? -1 : 0;
}
