// SPDX-License-Identifier: GPL-2.0
/*
 * kma-trend.c - kma-trend [OPTIONS] URL [SELECTOR...]: per key (caller,
 * function, cache or stack) its series over the runs of the fleet store the
 * selectors choose, and which keys grew in every run or jumped. Wiring: the
 * options, the runs selected and read (store/kma-fleet-select.c,
 * store/kma-fleet-read.c), the verdicts, the writers (kma-trend-out.c,
 * kma-trend-html.c). kma-trend(1) documents it.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-trend.h"
#include "store/kma-fleet.h"

#ifndef KMA_VERSION
#define KMA_VERSION "0.0-dev"
#endif

static const char usage_text[] =
"Usage: kma-trend [OPTIONS] URL [SELECTOR...]\n"
"\n"
"Reads the runs of the PostgreSQL fleet store (kma-fleet(5), written by kma-push)\n"
"that the selectors choose, oldest first, and prints per key its series over them:\n"
"which keys grew in every run and which jumped, and at which runs. URL is a libpq\n"
"connection string or URI. Selectors (all must hold; none: every run):\n"
"  run=ID[,ID...]  host=H  kernel=RELEASE  label:KEY=VALUE  since=DATE  until=DATE\n"
"  last=N  latest        (DATE: YYYY-MM-DD[THH:MM], UTC; see kma-trend(1))\n"
"\n"
"Options:\n"
"  -k, --key KEY          caller (default), function, cache or stack\n"
"      --kind KIND        the allocator: slab (default), page, percpu or vmalloc\n"
"                         (beside slab: -k caller, function or stack)\n"
"  -m, --metric METRIC    net (default: bytes live at the end), total (bytes\n"
"                         allocated) or allocs (allocations)\n"
"  -f, --format FORMAT    text (default), csv or json\n"
"      --html FILE        also write one self-contained page with a chart\n"
"      --force            --html replaces a file kma did not write\n"
"      --jump-pct PCT     a jump rises by at least PCT % of the previous run's\n"
"                         value (default 50) ...\n"
"      --jump-min N       ... and by at least N (default 4096) in the metric's unit\n"
"  -n, --top N            only the first N keys (default: all)\n"
"      --flagged          only the keys that grew in every run or jumped\n"
"  -h, --help             this text\n"
"  -V, --version          kma-trend's version\n"
"\n"
"Keys are shown by change (last run minus first, absent counted 0), largest first.\n"
"A key grows when it rose between every two consecutive runs of three or more.\n"
"\n"
"Exit status: 0 the report written, 1 an error (server, no run selected, output),\n"
"2 bad usage.\n"
"\n"
"EXAMPLES\n"
"  kma-trend 'host=/run/postgresql dbname=kma' label:job=nightly last=30\n"
"  kma-trend -k stack -m total -f csv postgresql://kma@db/kma host=web1 since=2026-11-01\n"
"  kma-trend --flagged --html trend.html 'dbname=kma' kernel=6.18.0\n";

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("kma-trend: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'kma-trend --help'.\n", stderr);
	return 2;
}

static int pick(const char *const *names, const char *arg)
{
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(names[i], arg))
			return i;
	return -1;
}

/* A count >= @min of option @opt; -1 after the usage message. */
static int count_arg(const char *opt, const char *arg, long long min, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(arg, &end, 10);
	if (errno || end == arg || *end || *v < min || *arg == '-' || *arg == '+' || *arg == ' ')
		return -1;
	return 0;
}

/* -1 to go on, else the exit status (0 for --help and --version). */
static int parse_opts(int argc, char **argv, struct kma_trend_opts *o)
{
	enum { OPT_HTML = 256, OPT_FORCE, OPT_PCT, OPT_MIN, OPT_FLAGGED, OPT_KIND };
	static const char *const kinds[] = { "slab", "page", "percpu", "vmalloc", NULL };
	static const char *const formats[] = { "text", "csv", "json", NULL };
	static const struct option long_opts[] = {
		{ "key",	required_argument, NULL, 'k' },
		{ "metric",	required_argument, NULL, 'm' },
		{ "format",	required_argument, NULL, 'f' },
		{ "html",	required_argument, NULL, OPT_HTML },
		{ "force",	no_argument,	   NULL, OPT_FORCE },
		{ "jump-pct",	required_argument, NULL, OPT_PCT },
		{ "jump-min",	required_argument, NULL, OPT_MIN },
		{ "top",	required_argument, NULL, 'n' },
		{ "flagged",	no_argument,	   NULL, OPT_FLAGGED },
		{ "kind",	required_argument, NULL, OPT_KIND },
		{ "help",	no_argument,	   NULL, 'h' },
		{ "version",	no_argument,	   NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct kma_err err;
	int c, v;

	while ((c = getopt_long(argc, argv, ":k:m:f:n:hV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			if ((v = pick(kma_trend_key_names, optarg)) < 0)
				return usage_error("--key '%s': want caller, function, cache or "
						   "stack", optarg);
			o->key = v;
			break;
		case 'm':
			if ((v = pick(kma_trend_metric_names, optarg)) < 0)
				return usage_error("--metric '%s': want net, total or allocs",
						   optarg);
			o->metric = v;
			break;
		case 'f':
			if ((v = pick(formats, optarg)) < 0)
				return usage_error("--format '%s': want text, csv or json", optarg);
			o->format = v;
			break;
		case 'n':
			if (count_arg("--top", optarg, 1, &o->top))
				return usage_error("--top '%s': want a count of 1 or more", optarg);
			break;
		case OPT_PCT:
			if (count_arg("--jump-pct", optarg, 0, &o->jump_pct))
				return usage_error("--jump-pct '%s': want a whole percentage, 0 or "
						   "more", optarg);
			break;
		case OPT_MIN:
			if (count_arg("--jump-min", optarg, 1, &o->jump_min))
				return usage_error("--jump-min '%s': want a count of 1 or more",
						   optarg);
			break;
		case OPT_KIND:
			if ((v = pick(kinds, optarg)) < 0)
				return usage_error("--kind '%s': want slab, page, percpu or vmalloc",
						   optarg);
			o->kind = v ? kinds[v] : NULL;
			break;
		case OPT_HTML: o->html = optarg; break;
		case OPT_FORCE: o->force = 1; break;
		case OPT_FLAGGED: o->flagged = 1; break;
		case 'h': fputs(usage_text, stdout); return 0;
		case 'V': printf("kma-trend %s\n", KMA_VERSION); return 0;
		case ':': return usage_error("%s needs an argument", argv[optind - 1]);
		default: return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (kma_fleet_kind_refuses(o->kind, o->key))
		return usage_error("--kind %s: no key %s: %s", o->kind,
				   kma_trend_key_names[o->key],
				   kma_fleet_kind_refuses(o->kind, o->key));
	if (optind >= argc)
		return usage_error("no URL");
	o->url = argv[optind++];
	for (; optind < argc; optind++)
		if (kma_fleet_sel_add(&o->sel, argv[optind], &err))
			return err.kind == KMA_ERR_NOMEM ? (fprintf(stderr, "kma-trend: %s\n",
							       err.msg), 1) :
			       usage_error("%s", err.msg);
	return -1;
}

/*
 * A jump into run r: the rise from run r-1 is at least --jump-min and at
 * least --jump-pct % of run r-1's value (its magnitude; from 0, any rise of
 * --jump-min). In 128 bits: no product overflows.
 */
static int jumped(const struct kma_trend *t, long long prev, long long cur)
{
	__int128 rise = (__int128)cur - prev, base = prev < 0 ? -(__int128)prev : prev;

	return rise >= t->o->jump_min && rise * 100 >= (__int128)t->o->jump_pct * base;
}

static int judge(struct kma_trend *t, struct kma_trend_row *row)
{
	size_t n = t->s.nr_runs, r;

	row->change = kma_trend_v(t, row->k, n - 1) - kma_trend_v(t, row->k, 0);
	row->grows = n >= 3;
	for (r = 1; r < n; r++) {
		long long prev = kma_trend_v(t, row->k, r - 1), cur = kma_trend_v(t, row->k, r);

		if (cur <= prev)
			row->grows = 0;
		if (!jumped(t, prev, cur))
			continue;
		if (!row->jumps && !(row->jumps = calloc(n, sizeof(*row->jumps))))
			return -1;
		row->jumps[row->nr_jumps++] = r;
	}
	return 0;
}

static const struct kma_trend *sort_t;

/* change, largest first; then the key's bytes */
static int cmp_rows(const void *a, const void *b)
{
	const struct kma_trend_row *x = a, *y = b;

	if (x->change != y->change)
		return x->change > y->change ? -1 : 1;
	return strcmp(sort_t->s.keys[x->k], sort_t->s.keys[y->k]);
}

static int make_rows(struct kma_trend *t)
{
	const struct kma_trend_opts *o = t->o;
	size_t k, n = 0;

	t->rows = calloc(t->s.nr_keys ? t->s.nr_keys : 1, sizeof(*t->rows));
	if (!t->rows)
		return -1;
	for (k = 0; k < t->s.nr_keys; k++) {
		struct kma_trend_row *row = &t->rows[n];

		row->k = k;
		if (judge(t, row))
			return -1;
		if (o->flagged && !row->grows && !row->nr_jumps) {
			free(row->jumps);
			memset(row, 0, sizeof(*row));
			continue;
		}
		n++;
	}
	sort_t = t;
	qsort(t->rows, n, sizeof(*t->rows), cmp_rows);
	t->nr_rows = o->top && (size_t)o->top < n ? (size_t)o->top : n;
	for (k = t->nr_rows; k < n; k++)
		free(t->rows[k].jumps);
	return 0;
}

static void trend_free(struct kma_trend *t)
{
	size_t i;

	for (i = 0; t->rows && i < t->nr_rows; i++)
		free(t->rows[i].jumps);
	free(t->rows);
	kma_fleet_series_free(&t->s);
	kma_fleet_runs_free(t->runs, t->nr_runs);
}

/* The runs selected and read, the rows judged; 0, or 1 after one line. */
static int load(struct kma_fleet *f, struct kma_trend *t)
{
	struct kma_err err;
	long long *ids;
	size_t nr;

	if (kma_fleet_select(f, &t->o->sel, &ids, &nr, &err))
		goto fail;
	if (!nr) {
		free(ids);
		/* run=ID of a run that is not there: say which */
		if (t->o->sel.nr_runs &&
		    kma_fleet_read_runs(f, t->o->sel.runs, t->o->sel.nr_runs, &t->runs, &err))
			goto fail;
		kma_fleet_runs_free(t->runs, t->o->sel.nr_runs);
		t->runs = NULL;
		fprintf(stderr, "kma-trend: %s: no run matches the selectors\n", t->server);
		return 1;
	}
	t->nr_runs = nr;
	if (kma_fleet_read_runs(f, ids, nr, &t->runs, &err) ||
	    kma_fleet_read_series(f, t->o->kind, t->o->key, ids, nr, &t->s, &err)) {
		free(ids);
		goto fail;
	}
	free(ids);
	if (make_rows(t)) {
		fprintf(stderr, "kma-trend: out of memory\n");
		return 1;
	}
	return 0;
fail:
	fprintf(stderr, "kma-trend: %s\n", err.msg);
	return 1;
}

static int report(const struct kma_trend *t)
{
	static int (*const writers[])(FILE *, const struct kma_trend *) = {
		[KMA_TREND_TEXT] = kma_trend_text, [KMA_TREND_CSV] = kma_trend_csv,
		[KMA_TREND_JSON] = kma_trend_json,
	};
	char why[512];

	if (t->o->html && kma_trend_html(t, t->o->html, why, sizeof(why))) {
		fprintf(stderr, "kma-trend: %s: %s\n", t->o->html, why);
		return 1;
	}
	if (writers[t->o->format](stdout, t) || fflush(stdout)) {
		fprintf(stderr, "kma-trend: standard output: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct kma_trend_opts o = { .jump_pct = 50, .jump_min = 4096 };
	struct kma_trend t = { .o = &o };
	struct kma_fleet *f;
	struct kma_err err;
	int r;

	kma_fleet_sel_init(&o.sel);
	r = parse_opts(argc, argv, &o);
	if (r >= 0) {
		kma_fleet_sel_free(&o.sel);
		return r;
	}
	signal(SIGPIPE, SIG_IGN);
	f = kma_fleet_connect(o.url, &err);
	if (!f) {
		fprintf(stderr, "kma-trend: %s\n", err.msg);
		kma_fleet_sel_free(&o.sel);
		return 1;
	}
	t.server = kma_fleet_server(f);
	r = kma_fleet_check(f, &err) ? (fprintf(stderr, "kma-trend: %s\n", err.msg), 1) :
	    load(f, &t);
	if (!r)
		r = report(&t);
	trend_free(&t);
	kma_fleet_close(f);
	kma_fleet_sel_free(&o.sel);
	return r;
}
