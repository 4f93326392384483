// SPDX-License-Identifier: GPL-2.0
/*
 * kma-report-diff.c - kma-diff's summary and rows as text, CSV or JSON
 * (kma-report-diff.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kma-time.h"
#include "kma-report-diff.h"

void kma_diff_num(char *buf, size_t len, double v, int rate, int sign)
{
	/* no "-0": a delta that rounds to zero is 0 */
	if (rate ? fabs(v) < 0.005 : v == 0)
		v = 0;
	if (rate)
		snprintf(buf, len, sign && v != 0 ? "%+.2f" : "%.2f", v);
	else
		snprintf(buf, len, sign && v != 0 ? "%+.0f" : "%.0f", v);
}

void kma_diff_inum(char *buf, size_t len, int64_t v, int sign)
{
	snprintf(buf, len, sign && v != 0 ? "%+" PRId64 : "%" PRId64, v);
}

/* A number of a row: @v scaled with --rate, else the exact @iv. */
static int add_num(struct kma_table *t, double v, int64_t iv, int rate, int sign)
{
	char buf[48];

	if (rate)
		kma_diff_num(buf, sizeof(buf), v, rate, sign);
	else
		kma_diff_inum(buf, sizeof(buf), iv, sign);
	return kma_table_str(t, buf);
}

/* The percent change of a summary number, for the text: "+12.5%", "new", "-". */
static void pct(char *buf, size_t len, double base, double delta)
{
	if (base != 0)
		snprintf(buf, len, "%+.1f%%", delta * 100.0 / base);
	else
		snprintf(buf, len, delta > 0 ? "new" : "-");
}

/* "FILE[, generation N 'LABEL'] (DURATION)": one run in the text's head. */
static void text_run(FILE *out, const struct kma_diff_report_in *in, int i)
{
	char buf[64];

	kma_text_str(out, i ? in->new_name : in->base_name);
	if (in->gen_label[i]) {
		fprintf(out, ", generation %" PRId64 " '", in->gen[i]);
		kma_text_str(out, in->gen_label[i]);
		fputc('\'', out);
	}
	kma_fmt_secs(buf, sizeof(buf), i ? in->new_ns : in->base_ns);
	fprintf(out, " (%s)\n", buf);
}

static int text_summary(FILE *out, const struct kma_diff_report_in *in)
{
	struct kma_table *t = kma_table_new("metric:s base:n new:n delta:n change:n");
	const struct kma_diff_row *s = in->summary;
	char buf[64];
	int m, err = 0;

	fputs("base: ", out);
	text_run(out, in, 0);
	fputs("new:  ", out);
	text_run(out, in, 1);
	if (in->filter) {
		fputs("filter: ", out);
		kma_text_str(out, in->filter);
		fputc('\n', out);
	}
	fprintf(out, "%s\n", in->rate ? in->gen_label[0] || in->gen_label[1] ?
		"Per second of each generation." : "Per second of each trace." : "");
	for (m = 0; t && !err && m < KMA_DIFF_NR; m++) {
		err |= kma_table_str(t, kma_diff_metric_name(m));
		err |= add_num(t, s->base[m], s->ibase[m], in->rate, 0);
		err |= add_num(t, s->new[m], s->inew[m], in->rate, 0);
		err |= add_num(t, s->delta[m], s->idelta[m], in->rate, 1);
		pct(buf, sizeof(buf), s->base[m], s->delta[m]);
		err |= kma_table_str(t, buf);
	}
	return kma_table_finish(out, t, KMA_FMT_TEXT, "summary", NULL, err);
}

/* How many keys are new, gone, changed and unchanged: the text's one line. */
static void text_counts(FILE *out, const struct kma_diff_report_in *in)
{
	size_t i, nb = 0, nn = 0, added = 0, gone = 0, same = 0;
	int m, eq;

	for (i = 0; i < in->nr_rows; i++) {
		const struct kma_diff_row *r = &in->rows[i];

		nb += !!(r->sides & KMA_DIFF_BASE);
		nn += !!(r->sides & KMA_DIFF_NEW);
		added += r->sides == KMA_DIFF_NEW;
		gone += r->sides == KMA_DIFF_BASE;
		for (eq = r->sides == KMA_DIFF_BOTH, m = 0; m < KMA_DIFF_NR; m++)
			eq &= r->delta[m] == 0 && r->idelta[m] == 0;
		same += eq;
	}
	fprintf(out, "\n%s keys: %zu in base, %zu in new: %zu new, %zu gone, %zu changed, "
		"%zu unchanged\n", in->key, nb, nn, added, gone, in->nr_rows - added - gone - same,
		same);
	if (in->sort == KMA_DIFF_SORT_KEY)
		fprintf(out, "Sorted by %s name.\n", in->key);
	else
		fprintf(out, "Sorted by |delta %s|.\n", kma_diff_metric_name((int)in->sort));
}

/* The row table's columns: every number in CSV and JSON, the net and the deltas in text. */
static struct kma_table *rows_table(const struct kma_diff_report_in *in, enum kma_fmt fmt)
{
	struct kma_table *t = kma_table_alloc();
	static const char * const side[3] = { "base_", "new_", "delta_" };
	char name[32];
	int m, s, err = !t;

	if (fmt == KMA_FMT_TEXT) {
		err = err || kma_table_col(t, "base_net", 1) || kma_table_col(t, "new_net", 1);
		for (m = 0; !err && m < KMA_DIFF_NR; m++) {
			/* net first: the column the default order follows */
			int mm = m == 0 ? KMA_DIFF_NET : m <= KMA_DIFF_NET ? m - 1 : m;

			snprintf(name, sizeof(name), "delta_%s", kma_diff_metric_name(mm));
			err = kma_table_col(t, name, 1);
		}
		err = err || kma_table_col(t, in->key, 0);
	} else {
		err = err || kma_table_col(t, "key", 0);
		for (m = 0; !err && m < KMA_DIFF_NR; m++) {
			for (s = 0; !err && s < 3; s++) {
				snprintf(name, sizeof(name), "%s%s", side[s], kma_diff_metric_name(m));
				err = kma_table_col(t, name, 1);
			}
		}
	}
	if (err) {
		kma_table_free(t);
		return NULL;
	}
	return t;
}

static int text_row(struct kma_table *t, const struct kma_diff_row *r, int rate)
{
	static const char * const tag[4] = { "", " (gone)", " (new)", "" };
	const int n = KMA_DIFF_NET;
	char *key;
	int m, err;

	err = r->sides & KMA_DIFF_BASE ? add_num(t, r->base[n], r->ibase[n], rate, 0) :
					 kma_table_null(t);
	err |= r->sides & KMA_DIFF_NEW ? add_num(t, r->new[n], r->inew[n], rate, 0) :
					 kma_table_null(t);
	err |= add_num(t, r->delta[n], r->idelta[n], rate, 1);
	for (m = 0; m < KMA_DIFF_NR; m++)
		if (m != KMA_DIFF_NET)
			err |= add_num(t, r->delta[m], r->idelta[m], rate, 1);
	if (asprintf(&key, "%s%s", r->key, tag[r->sides & 3]) < 0)
		return -1;
	err |= kma_table_str(t, key);
	free(key);
	return err;
}

static int data_row(struct kma_table *t, const struct kma_diff_row *r, int rate)
{
	int m, err = kma_table_str(t, r->key);

	for (m = 0; m < KMA_DIFF_NR; m++) {
		err |= r->sides & KMA_DIFF_BASE ? add_num(t, r->base[m], r->ibase[m], rate, 0) :
						  kma_table_null(t);
		err |= r->sides & KMA_DIFF_NEW ? add_num(t, r->new[m], r->inew[m], rate, 0) :
						 kma_table_null(t);
		err |= add_num(t, r->delta[m], r->idelta[m], rate, 0);
	}
	return err;
}

static void summary_num(char *buf, size_t len, double v, int64_t iv, int rate)
{
	if (rate)
		kma_diff_num(buf, len, v, rate, 0);
	else
		kma_diff_inum(buf, len, iv, 0);
}

/* One run: {"file", "duration_ns"[, "generation", "generation_label"]}. */
static void json_run(FILE *f, const struct kma_diff_report_in *in, int i)
{
	fputs("{\"file\": ", f);
	kma_json_str(f, i ? in->new_name : in->base_name);
	fprintf(f, ", \"duration_ns\": %" PRIu64, i ? in->new_ns : in->base_ns);
	if (in->gen_label[i]) {
		fprintf(f, ", \"generation\": %" PRId64 ", \"generation_label\": ", in->gen[i]);
		kma_json_str(f, in->gen_label[i]);
	}
	fputc('}', f);
}

/* The JSON members before "rows": the operands and the summary. */
static char *json_head(const struct kma_diff_report_in *in)
{
	char *buf = NULL, num[48];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const struct kma_diff_row *s = in->summary;
	int m;

	if (!f)
		return NULL;
	fprintf(f, "\"key\": \"%s\", \"rate\": %s, ", in->key, in->rate ? "true" : "false");
	if (in->filter) {
		fputs("\"filter\": ", f);
		kma_json_str(f, in->filter);
		fputs(", ", f);
	}
	fputs("\"base\": ", f);
	json_run(f, in, 0);
	fputs(", \"new\": ", f);
	json_run(f, in, 1);
	fputs(", \"summary\": {", f);
	for (m = 0; m < KMA_DIFF_NR; m++) {
		const char *n = kma_diff_metric_name(m);

		summary_num(num, sizeof(num), s->base[m], s->ibase[m], in->rate);
		fprintf(f, "%s\"base_%s\": %s", m ? ", " : "", n, num);
		summary_num(num, sizeof(num), s->new[m], s->inew[m], in->rate);
		fprintf(f, ", \"new_%s\": %s", n, num);
		summary_num(num, sizeof(num), s->delta[m], s->idelta[m], in->rate);
		fprintf(f, ", \"delta_%s\": %s", n, num);
	}
	fputc('}', f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int kma_report_diff(FILE *out, const struct kma_diff_report_in *in, enum kma_fmt fmt)
{
	struct kma_table *t;
	size_t i, nr = in->nr_rows;
	char *head = NULL;
	int err = 0;

	if (in->limit && in->limit < nr)
		nr = (size_t)in->limit;
	if (fmt == KMA_FMT_TEXT) {
		if (text_summary(out, in))
			return -1;
		text_counts(out, in);
	} else if (fmt == KMA_FMT_JSON) {
		head = json_head(in);
		if (!head)
			return -1;
	}
	t = rows_table(in, fmt);
	for (i = 0; t && !err && i < nr; i++)
		err = fmt == KMA_FMT_TEXT ? text_row(t, &in->rows[i], in->rate) :
					    data_row(t, &in->rows[i], in->rate);
	err = kma_table_finish(out, t, fmt, "diff", head, err);
	free(head);
	return err;
}
