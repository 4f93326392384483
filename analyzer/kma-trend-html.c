// SPDX-License-Identifier: GPL-2.0
/*
 * kma-trend-html.c - kma-trend --html FILE: one self-contained page, as
 * kma-analyze --html writes one: the report's JSON (kma-trend-out.c, whose
 * strings escape '<', '>' and '&') in a <script type="application/json">,
 * Chart.js (Debian's libjs-chart.js, or $KMA_CHARTJS) inlined, and a small
 * script that draws the chart of the keys shown first and the table of every
 * key shown, names only ever as textContent. Written to a temporary beside
 * FILE and renamed over it once whole; the output guard (kma-output.c) keeps
 * it from replacing a file kma did not write.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "kma-output.h"
#include "report/kma-chartjs.h"
#include "kma-trend.h"
#include "store/kma-store.h"

/* The page's script: the runs, a line chart of the first 10 keys, the key table. */
static const char app_js[] =
"(function () {\n"
"var d = JSON.parse(document.getElementById('kma-data').textContent);\n"
"var app = document.getElementById('kma-app');\n"
"app.textContent = '';\n"
"function el(tag, text, parent) { var e = document.createElement(tag);\n"
"  if (text !== undefined && text !== null) e.textContent = String(text);\n"
"  if (parent) parent.appendChild(e); return e; }\n"
"el('h1', 'kma trend: ' + d.key + (d.kind === 'slab' ? '' : ', kind ' + d.kind) + ', ' +\n"
"   d.metric + (d.metric === 'allocs' ? '' : ' bytes'), app);\n"
"el('p', d.runs.length + ' runs; a jump: a rise of at least ' + d.jump_pct + '% and ' +\n"
"  d.jump_min + ' between consecutive runs', app);\n"
"var rt = el('table', null, app); rt.id = 'kma-trend-runs';\n"
"var h = el('tr', null, rt);\n"
"['run', 'pushed (UTC)', 'host', 'kernel', 'labels'].forEach(function (c) { el('th', c, h); });\n"
"d.runs.forEach(function (r) { var tr = el('tr', null, rt);\n"
"  tr.setAttribute('data-run', r.run);\n"
"  el('td', r.run, tr); el('td', r.pushed_at, tr); el('td', r.host === null ? '-' : r.host, tr);\n"
"  el('td', r.kernel === null ? '-' : r.kernel, tr);\n"
"  el('td', Object.keys(r.labels).map(function (k) { return k + '=' + r.labels[k]; }).join(' '), tr);\n"
"});\n"
"var box = el('div', null, app); box.style.maxWidth = '1100px';\n"
"var cv = el('canvas', null, box); cv.id = 'kma-trend-chart';\n"
"var colors = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2',\n"
"  '#7f7f7f', '#bcbd22', '#17becf'];\n"
"var shown = d.keys.slice(0, 10);\n"
"new Chart(cv, { type: 'line', data: { labels: d.runs.map(function (r) { return 'run ' + r.run; }),\n"
"  datasets: shown.map(function (k, i) { return { label: k.name, data: k.values,\n"
"    borderColor: colors[i], backgroundColor: colors[i], spanGaps: false }; }) },\n"
"  options: { animation: false, plugins: { legend: { position: 'bottom' } } } });\n"
"cv.setAttribute('data-series', String(shown.length));\n"
"var kt = el('table', null, app); kt.id = 'kma-trend-keys';\n"
"h = el('tr', null, kt); el('th', d.key, h);\n"
"d.runs.forEach(function (r) { el('th', 'run ' + r.run, h); });\n"
"el('th', 'change', h); el('th', 'verdict', h);\n"
"d.keys.forEach(function (k) { var tr = el('tr', null, kt);\n"
"  el('td', k.name, tr);\n"
"  k.values.forEach(function (v) { el('td', v === null ? '-' : v, tr); });\n"
"  el('td', (k.change > 0 ? '+' : '') + k.change, tr);\n"
"  var v = k.grows ? 'grows' : '';\n"
"  if (k.jumped_at.length) v += (v ? '; ' : '') + 'jumped at run ' + k.jumped_at.join(', ');\n"
"  el('td', v, tr);\n"
"});\n"
"document.body.setAttribute('data-kma-ready', '1');\n"
"})();\n";

static const char page_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	"script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
	KMA_OUTPUT_TREND_GENERATOR "\n<title>kma trend</title></head>\n<body>\n"
	"<script>window.onerror = function (m, s, l) { var e = document.getElementById("
	"'kma-errors'); if (!e) { e = document.createElement('pre'); e.id = 'kma-errors'; "
	"document.body.appendChild(e); } e.textContent += m + ' (line ' + l + ')\\n'; "
	"document.body.setAttribute('data-kma-error', '1'); };</script>\n<div id=\"kma-app\">"
	"<p>This page draws its report with JavaScript.</p></div>\n";

static int write_page(FILE *out, const struct kma_trend *t, const char *chartjs)
{
	fputs(page_head, out);
	fputs("<script id=\"kma-data\" type=\"application/json\">", out);
	kma_trend_json(out, t);
	fputs("</script>\n<script>\n", out);
	fputs(chartjs, out);
	fputs("\n</script>\n<script>\n", out);
	fputs(app_js, out);
	fputs("</script>\n</body></html>\n", out);
	return ferror(out) ? -1 : 0;
}

/* The page into @tmp (created), renamed to @dst; a signal waits until it is whole. */
static int write_renamed(const struct kma_trend *t, const char *dst, const char *chartjs,
			 char *why, size_t len)
{
	sigset_t block, old;
	char *tmp = NULL;
	FILE *out = NULL;
	int fd, r = -1;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	fd = kma_tmpfile_beside(dst, &tmp);
	if (fd < 0 || !(out = fdopen(fd, "w"))) {
		snprintf(why, len, "cannot create a temporary beside it: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	if (write_page(out, t, chartjs) || fflush(out) || fsync(fileno(out))) {
		snprintf(why, len, "cannot write %s: %s", tmp, strerror(errno));
		goto out;
	}
	if (fclose(out)) {
		out = NULL;
		snprintf(why, len, "cannot write %s: %s", tmp, strerror(errno));
		goto out;
	}
	out = NULL;
	if (rename(tmp, dst)) {
		snprintf(why, len, "cannot rename %s to it: %s", tmp, strerror(errno));
		goto out;
	}
	free(tmp);
	tmp = NULL;
	r = 0;
out:
	if (out)
		fclose(out);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}

int kma_trend_html(const struct kma_trend *t, const char *path, char *why, size_t len)
{
	const char *const none[] = { NULL };
	const char *js = kma_html_chartjs_path();
	char *real = NULL, *chartjs, *p;
	int r;

	if (kma_output_check(path, KMA_OUTPUT_HTML, none, t->o->force, &real, why, len))
		return -1;
	chartjs = kma_html_slurp(js);
	if (!chartjs) {
		snprintf(why, len, "cannot read Chart.js %s: %s (Debian: apt-get install "
			 "libjs-chart.js; or set KMA_CHARTJS)", js, strerror(errno));
		free(real);
		return -1;
	}
	/* Chart.js goes inside a <script>: it must not end it */
	for (p = chartjs; (p = strchr(p, '<')); p++)
		if (!strncasecmp(p, "</script", 8)) {
			snprintf(why, len, "Chart.js %s contains '</script', cannot be inlined", js);
			free(chartjs);
			free(real);
			return -1;
		}
	r = write_renamed(t, real ? real : path, chartjs, why, len);
	free(chartjs);
	free(real);
	return r;
}
