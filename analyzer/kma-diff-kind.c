// SPDX-License-Identifier: GPL-2.0
/*
 * kma-diff-kind.c - kma-diff --kind percpu|vmalloc -g module: a trace
 * operand's rows of that kind, read from the CSV caller table of kma-analyze
 * --no-db -f csv --kind K -g module (kma-analyze(1)), into a struct
 * kma_diff_table.
 *
 * Every other grouping reads the kind's allocation rows of report.db
 * (store/kma-diff-load.c); report.db keeps no module of the percpu and
 * vmalloc callers, so -g module is compared from the traces: the CSV is
 * kma-analyze's own table, quoted as report/kma-table.c writes it (a field
 * with a comma, a quote or a line break in quotes, quotes doubled).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-diff-kind.h"

/* The whole file, NUL-terminated, or NULL with why. */
static char *slurp(const char *path, struct kma_err *why)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL, *grown;
	size_t len = 0, cap = 0, n;

	if (!f) {
		kma_err_errno(why, errno, "cannot open kma-analyze's table");
		return NULL;
	}
	do {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 65536;
			grown = realloc(buf, cap + 1);
			if (!grown) {
				free(buf);
				fclose(f);
				kma_err_nomem(why);
				return NULL;
			}
			buf = grown;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		kma_err_errno(why, errno, "cannot read kma-analyze's table");
		free(buf);
		buf = NULL;
	} else {
		buf[len] = '\0';
	}
	fclose(f);
	return buf;
}

/*
 * The next field of the record at *p, unquoted in place, NUL-terminated.
 * *end is set when it was the record's last. NULL at the end of the text.
 */
static char *next_field(char **p, int *end)
{
	char *s = *p, *out, *field;

	if (!*s)
		return NULL;
	field = out = s;
	if (*s == '"') {
		for (s++; *s; s++) {
			if (*s == '"' && s[1] == '"')
				s++;
			else if (*s == '"')
				break;
			*out++ = *s;
		}
		if (*s == '"')
			s++;
	} else {
		while (*s && *s != ',' && *s != '\n')
			*out++ = *s++;
	}
	*end = *s != ',';
	if (*s)
		s++;
	*out = '\0';
	*p = s;
	return field;
}

/* A count as kma-analyze prints it, at most KMA_DIFF_MAX; 0, or -1. */
static int parse_num(const char *s, uint64_t *v)
{
	char *e;

	errno = 0;
	*v = strtoull(s, &e, 10);
	return errno || e == s || *e || *s == '-' || *v > KMA_DIFF_MAX ? -1 : 0;
}

/* The columns a row's numbers come from, found by name in the header. */
enum { COL_KEY, COL_TOTAL, COL_NET, COL_ALLOCS, COL_FREES, COL_NR };

static int header(char **p, const char *key, int col[COL_NR], struct kma_err *why)
{
	static const char * const name[COL_NR] = { NULL, "total", "net", "allocs", "frees" };
	int i, c, end = 0;
	char *f;

	for (i = 0; i < COL_NR; i++)
		col[i] = -1;
	for (c = 0; !end && (f = next_field(p, &end)); c++)
		for (i = 0; i < COL_NR; i++)
			if (!strcmp(f, i == COL_KEY ? key : name[i]))
				col[i] = c;
	for (i = 0; i < COL_NR; i++)
		if (col[i] < 0)
			return kma_err_set(why, KMA_ERR_OTHER, "kma-analyze's table has no "
					   "column '%s'", i == COL_KEY ? key : name[i]);
	return 0;
}

int kma_diff_kind_load(const char *csv, const char *key, struct kma_diff_table *t,
		       struct kma_err *why)
{
	char *buf = slurp(csv, why), *p = buf, *f, *k;
	uint64_t v[KMA_DIFF_NR], n;
	int col[COL_NR], c, i, end, ret = -1;

	if (!buf)
		return -1;
	if (header(&p, key, col, why))
		goto out;
	while (*p) {
		memset(v, 0, sizeof(v));	/* the kinds beside slab have no slack */
		k = NULL;
		end = 0;
		for (c = 0; !end && (f = next_field(&p, &end)); c++) {
			for (i = 0; i < COL_NR && col[i] != c; i++)
				;
			if (i == COL_KEY)
				k = f;
			else if (i < COL_NR && parse_num(f, &n)) {
				kma_err_set(why, KMA_ERR_OTHER, "kma-analyze's table has '%s' "
					    "for a count", f);
				goto out;
			} else if (i < COL_NR) {
				v[i == COL_TOTAL ? KMA_DIFF_TOTAL : i == COL_NET ? KMA_DIFF_NET :
				  i == COL_ALLOCS ? KMA_DIFF_ALLOCS : KMA_DIFF_FREES] = n;
			}
		}
		if (!k) {
			kma_err_set(why, KMA_ERR_OTHER, "kma-analyze's table has a short row");
			goto out;
		}
		if (kma_diff_table_add(t, k, v)) {
			kma_err_nomem(why);
			goto out;
		}
		/* the sums: the rows' (frees: their traced frees, as with a filter) */
		for (i = 0; i < KMA_DIFF_NR; i++)
			t->sum[i] += v[i];
	}
	ret = 0;
out:
	free(buf);
	return ret;
}
