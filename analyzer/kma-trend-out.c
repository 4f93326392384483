// SPDX-License-Identifier: GPL-2.0
/*
 * kma-trend-out.c - kma-trend's report as text (a table within the width
 * its cells need), CSV (RFC 4180, one row per key) and JSON. Names are the
 * store's bytes; in text a control byte is shown as \xHH so that a name
 * cannot move the table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-trend.h"

/* the names of -k and -m, here where the writers use them (kma-trend.c parses them) */
const char *const kma_trend_key_names[] = {
	[KMA_FLEET_KEY_CALLER] = "caller", [KMA_FLEET_KEY_FUNCTION] = "function",
	[KMA_FLEET_KEY_CACHE] = "cache", [KMA_FLEET_KEY_STACK] = "stack", NULL,
};

const char *const kma_trend_metric_names[] = {
	[KMA_FLEET_NET] = "net", [KMA_FLEET_TOTAL] = "total", [KMA_FLEET_ALLOCS] = "allocs",
	NULL,
};

/* text: @s with control bytes as \xHH; its width (bytes written) */
static size_t text_str(FILE *out, const char *s)
{
	size_t w = 0;

	for (; *s; s++) {
		unsigned char c = *s;

		if (c < 0x20 || c == 0x7f) {
			if (out)
				fprintf(out, "\\x%02x", c);
			w += 4;
		} else {
			if (out)
				fputc(c, out);
			w++;
		}
	}
	return w;
}

static void pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

static void text_runs(FILE *out, const struct kma_trend *t)
{
	size_t i, j, wh = 4, wk = 6;

	for (i = 0; i < t->nr_runs; i++) {
		if (t->runs[i].host && text_str(NULL, t->runs[i].host) > wh)
			wh = text_str(NULL, t->runs[i].host);
		if (t->runs[i].kernel && text_str(NULL, t->runs[i].kernel) > wk)
			wk = text_str(NULL, t->runs[i].kernel);
	}
	fprintf(out, "%-8s  %-19s  %-*s  %-*s  labels\n", "run", "pushed (UTC)", (int)wh, "host",
		(int)wk, "kernel");
	for (i = 0; i < t->nr_runs; i++) {
		const struct kma_fleet_run *r = &t->runs[i];

		fprintf(out, "%-8lld  %-19s  ", r->id, r->pushed_at);
		pad(out, wh - text_str(out, r->host ? r->host : "-") + 2);
		pad(out, wk - text_str(out, r->kernel ? r->kernel : "-"));
		for (j = 0; j < r->nr_labels; j++) {
			fputs(j ? " " : "  ", out);
			text_str(out, r->keys[j]);
			fputc('=', out);
			text_str(out, r->values[j]);
		}
		fputc('\n', out);
	}
}

static int numw(long long v, int sign)
{
	char b[32];

	return snprintf(b, sizeof(b), sign ? "%+lld" : "%lld", v);
}

static void verdict(FILE *out, const struct kma_trend *t, const struct kma_trend_row *row)
{
	size_t j;

	if (row->grows)
		fputs("grows", out);
	for (j = 0; j < row->nr_jumps; j++)
		fprintf(out, "%s%lld", j ? ", " : row->grows ? "; jumped at run " : "jumped at run ",
			t->runs[row->jumps[j]].id);
}

int kma_trend_text(FILE *out, const struct kma_trend *t)
{
	size_t i, r, wk = strlen(kma_trend_key_names[t->o->key]), wc = 6, grows = 0, jumps = 0;
	int *wr = calloc(t->nr_runs, sizeof(*wr));

	if (!wr)
		return -1;
	for (r = 0; r < t->nr_runs; r++)
		wr[r] = numw(t->runs[r].id, 0) + 4;
	for (i = 0; i < t->nr_rows; i++) {
		size_t k = t->rows[i].k;

		if (text_str(NULL, t->s.keys[k]) > wk)
			wk = text_str(NULL, t->s.keys[k]);
		if ((size_t)numw(t->rows[i].change, 1) > wc)
			wc = numw(t->rows[i].change, 1);
		for (r = 0; r < t->nr_runs; r++)
			if (numw(kma_trend_v(t, k, r), 0) > wr[r])
				wr[r] = numw(kma_trend_v(t, k, r), 0);
		grows += t->rows[i].grows;
		jumps += !!t->rows[i].nr_jumps;
	}
	fprintf(out, "kma-trend: %zu run%s (%s), key %s%s%s, %s%s; a jump: a rise of at least "
		"%lld%% and %lld between consecutive runs\n\n", t->nr_runs,
		t->nr_runs == 1 ? "" : "s", t->server, kma_trend_key_names[t->o->key],
		t->o->kind ? ", kind " : "", t->o->kind ? t->o->kind : "",
		kma_trend_metric_names[t->o->metric],
		t->o->metric == KMA_FLEET_ALLOCS ? "" : " bytes", t->o->jump_pct, t->o->jump_min);
	text_runs(out, t);
	fprintf(out, "\n%-*s", (int)wk, kma_trend_key_names[t->o->key]);
	for (r = 0; r < t->nr_runs; r++)
		fprintf(out, "  %*s%lld", wr[r] - numw(t->runs[r].id, 0), "run ", t->runs[r].id);
	fprintf(out, "  %*s  verdict\n", (int)wc, "change");
	for (i = 0; i < t->nr_rows; i++) {
		const struct kma_trend_row *row = &t->rows[i];

		pad(out, wk - text_str(out, t->s.keys[row->k]));
		for (r = 0; r < t->nr_runs; r++)
			if (kma_trend_has(t, row->k, r))
				fprintf(out, "  %*lld", wr[r], kma_trend_v(t, row->k, r));
			else
				fprintf(out, "  %*s", wr[r], "-");
		fprintf(out, "  %+*lld  ", (int)wc, row->change);
		verdict(out, t, row);
		fputc('\n', out);
	}
	fprintf(out, "\n%zu key%s shown: %zu grew in every run, %zu jumped\n", t->nr_rows,
		t->nr_rows == 1 ? "" : "s", grows, jumps);
	free(wr);
	return ferror(out) ? -1 : 0;
}

static void csv_str(FILE *out, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
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

int kma_trend_csv(FILE *out, const struct kma_trend *t)
{
	size_t i, r, j;

	fputs(kma_trend_key_names[t->o->key], out);
	for (r = 0; r < t->nr_runs; r++)
		fprintf(out, ",run_%lld", t->runs[r].id);
	fputs(",change,grows,jumped_at\n", out);
	for (i = 0; i < t->nr_rows; i++) {
		const struct kma_trend_row *row = &t->rows[i];

		csv_str(out, t->s.keys[row->k]);
		for (r = 0; r < t->nr_runs; r++)
			if (kma_trend_has(t, row->k, r))
				fprintf(out, ",%lld", kma_trend_v(t, row->k, r));
			else
				fputc(',', out);
		fprintf(out, ",%lld,%d,", row->change, row->grows);
		for (j = 0; j < row->nr_jumps; j++)
			fprintf(out, "%s%lld", j ? " " : "", t->runs[row->jumps[j]].id);
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}

void kma_trend_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f || c == '<' || c == '>' || c == '&')
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void json_or_null(FILE *out, const char *s)
{
	if (s)
		kma_trend_json_str(out, s);
	else
		fputs("null", out);
}

int kma_trend_json(FILE *out, const struct kma_trend *t)
{
	size_t i, r, j;

	fputs("{\"key\":", out);
	kma_trend_json_str(out, kma_trend_key_names[t->o->key]);
	fputs(",\"kind\":", out);
	kma_trend_json_str(out, t->o->kind ? t->o->kind : "slab");
	fputs(",\"metric\":", out);
	kma_trend_json_str(out, kma_trend_metric_names[t->o->metric]);
	fprintf(out, ",\"jump_pct\":%lld,\"jump_min\":%lld,\"runs\":[", t->o->jump_pct,
		t->o->jump_min);
	for (r = 0; r < t->nr_runs; r++) {
		const struct kma_fleet_run *run = &t->runs[r];

		fprintf(out, "%s{\"run\":%lld,\"pushed_at\":", r ? "," : "", run->id);
		kma_trend_json_str(out, run->pushed_at);
		fputs(",\"host\":", out);
		json_or_null(out, run->host);
		fputs(",\"kernel\":", out);
		json_or_null(out, run->kernel);
		fputs(",\"labels\":{", out);
		for (j = 0; j < run->nr_labels; j++) {
			fputs(j ? "," : "", out);
			kma_trend_json_str(out, run->keys[j]);
			fputc(':', out);
			kma_trend_json_str(out, run->values[j]);
		}
		fputs("}}", out);
	}
	fputs("],\"keys\":[", out);
	for (i = 0; i < t->nr_rows; i++) {
		const struct kma_trend_row *row = &t->rows[i];

		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
		kma_trend_json_str(out, t->s.keys[row->k]);
		fputs(",\"values\":[", out);
		for (r = 0; r < t->nr_runs; r++) {
			fputs(r ? "," : "", out);
			if (kma_trend_has(t, row->k, r))
				fprintf(out, "%lld", kma_trend_v(t, row->k, r));
			else
				fputs("null", out);
		}
		fprintf(out, "],\"change\":%lld,\"grows\":%s,\"jumped_at\":[", row->change,
			row->grows ? "true" : "false");
		for (j = 0; j < row->nr_jumps; j++)
			fprintf(out, "%s%lld", j ? "," : "", t->runs[row->jumps[j]].id);
		fputs("]}", out);
	}
	fputs("]}\n", out);
	return ferror(out) ? -1 : 0;
}
