// SPDX-License-Identifier: GPL-2.0
/*
 * kma-diff.c - what changed between two runs: kma-diff BASE NEW, each a
 * report.db or a trace.dat (analyzed on the fly by the kma-analyze next to
 * this program). Wiring only: options, operands, then store/kma-diff-load.c
 * (the numbers; kma-diff-scope.c when a filter or a generation narrows them),
 * match/kma-diffmatch.c (rows, --fail-if) and report/kma-report-diff.c (the
 * output). kma-diff(1) documents it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kma-event.h"
#include "kma-output.h"
#include "kma-runner.h"
#include "kma-diff-help.h"
#include "match/kma-kind.h"
#include "match/kma-pagealloc.h"
#include "match/kma-diffmatch.h"
#include "match/kma-select.h"
#include "report/kma-report-diff.h"
#include "report/kma-table.h"
#include "store/kma-diff-load.h"
#include "store/kma-fleet-diff.h"

#ifndef KMA_VERSION
#define KMA_VERSION "0.0-dev"
#endif

#define MAX_CONDS	16
#define MAX_KEYS	16
#define MAX_SELS	64

/* The long options without a short one. */
enum { OPT_COMM = 256, OPT_PID, OPT_CALLER, OPT_CACHE, OPT_SELF, OPT_GEN, OPT_GEN_BASE,
       OPT_GEN_NEW, OPT_KEY, OPT_KALLSYMS, OPT_SYMBOLS, OPT_KIND };

/* Every option in one place; parse_opts() starts from the defaults. */
struct diff_opts {
	const char		*operand[2];	/* BASE, NEW */
	char			pg_name[2][600];	/* a store operand, as reports name it */
	const char		*keep[2];	/* -o: where the Nth trace.dat's report.db stays */
	int			nr_keep;
	/* --kallsyms, --symbols: [0] for both operands, [1] (a second one) for NEW */
	const char		*syms[2][2];
	int			nr_syms[2];
	enum kma_group		group;
	const char		*group_arg;	/* -g, read once --kind is known */
	int			page_group;	/* --kind page: enum kma_page_group */
	const char		*key_name;	/* the grouping, as the report names it */
	enum kma_diff_sort	sort;
	uint64_t		limit;
	enum kma_fmt		format;
	int			rate;
	int			quiet;
	struct kma_diff_cond	cond[MAX_CONDS];
	const char		*cond_text[MAX_CONDS];
	int			nr_conds;
	const char		*key[MAX_KEYS];	/* --key: the gates test these rows */
	int			nr_keys;
	struct {
		enum kma_sel_kind	kind;
		const char		*arg;
	}			sel[MAX_SELS];	/* --comm, --pid, --caller, --cache */
	int			nr_sels;
	int			exclude_self;
	const char		*gen[2];	/* BASE's and NEW's generation, or NULL */
	int			gen_both;	/* --generation set both */
	enum kma_kind		kind;		/* --kind: the allocator compared */
	const char		*kind_arg;	/* NULL: slab, from report.db */
};

static const struct diff_opts default_opts = {
	.group	= KMA_GROUP_CALLER,
	.sort	= KMA_DIFF_SORT_NET,
	.format	= KMA_FMT_TEXT,
};

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "kma-diff: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'kma-diff --help'.\n");
	return 2;
}

/*
 * --kind page: kma-analyze --pages's groupings (caller is the function). The
 * others say why they cannot apply: a page has no call site, only the
 * function its stack names, and caches and memcg charging are slab's.
 */
static int take_page_group(const char *arg, struct diff_opts *o)
{
	enum kma_group g;

	if (!kma_page_group_parse(arg, &o->page_group)) {
		o->key_name = kma_page_group_name(o->page_group);
		return -1;
	}
	if (kma_group_parse(arg, &g))
		return usage_error("unknown --kind page grouping '%s' (order|migrate|gfp|comm|pid|"
				   "function|stack|generation)", arg);
	return usage_error(g == KMA_GROUP_MODULE || g == KMA_GROUP_FILE ?
			   "--kind page cannot group by '%s': a page's caller is a function of "
			   "its stack, no call site with a module or file" :
			   "--kind page cannot group by '%s': the slab allocator's only", arg);
}

static int take_group(const char *arg, struct diff_opts *o)
{
	if (!arg)	/* the default: caller, for pages their function */
		arg = kma_group_name(KMA_GROUP_CALLER);
	if (o->kind == KMA_KIND_PAGE)
		return take_page_group(arg, o);
	if (kma_group_parse(arg, &o->group))
		return usage_error("unknown grouping '%s' (caller|function|module|cache|stack)",
				   arg);
	switch (o->group) {
	case KMA_GROUP_CALLER: case KMA_GROUP_FUNCTION: case KMA_GROUP_MODULE:
	case KMA_GROUP_CACHE: case KMA_GROUP_STACK:
		o->key_name = kma_group_name(o->group);
		return -1;
	default:
		return usage_error("kma-diff cannot group by '%s' (caller|function|module|"
				   "cache|stack)", arg);
	}
}

static int take_cond(const char *arg, struct diff_opts *o)
{
	char why[256];

	if (o->nr_conds == MAX_CONDS)
		return usage_error("more than 16 --fail-if expressions%s", "");
	if (kma_diff_cond_parse(arg, &o->cond[o->nr_conds], why, sizeof(why)))
		return usage_error("--fail-if %s", why);
	o->cond_text[o->nr_conds++] = arg;
	return -1;
}

/* --generation (side -1: both), --base-generation (0), --new-generation (1). */
static int take_gen(int side, const char *arg, struct diff_opts *o)
{
	static const char * const name[] = { "--base-generation", "--new-generation" };

	if (!*arg)
		return usage_error("--generation wants a number or a marker's label%s", "");
	if (side < 0 && o->gen_both)
		return usage_error("--generation given twice%s", "");
	if (side < 0 && (o->gen[0] || o->gen[1]))
		return usage_error("--generation sets both runs' generation: not with %s",
				   name[o->gen[0] ? 0 : 1]);
	if (side >= 0 && o->gen_both)
		return usage_error("%s with --generation, which sets both runs' generation",
				   name[side]);
	if (side >= 0 && o->gen[side])
		return usage_error("%s given twice", name[side]);
	if (side < 0) {
		o->gen[0] = o->gen[1] = arg;
		o->gen_both = 1;
	} else {
		o->gen[side] = arg;
	}
	return -1;
}

/* The filters and --key; -1 to go on, or the exit status. */
static int take_scope(int c, const char *arg, struct diff_opts *o)
{
	switch (c) {
	case OPT_SELF:
		o->exclude_self = 1;
		return -1;
	case OPT_GEN:
		return take_gen(-1, arg, o);
	case OPT_GEN_BASE:
	case OPT_GEN_NEW:
		return take_gen(c == OPT_GEN_NEW, arg, o);
	case OPT_KEY:
		if (o->nr_keys == MAX_KEYS)
			return usage_error("more than 16 --key%s", "");
		o->key[o->nr_keys++] = arg;
		return -1;
	default:
		if (o->nr_sels == MAX_SELS)
			return usage_error("more than 64 filter patterns%s", "");
		o->sel[o->nr_sels].kind = c == OPT_COMM ? KMA_SELK_COMM : c == OPT_PID ?
			KMA_SELK_PID : c == OPT_CALLER ? KMA_SELK_CALLER : KMA_SELK_CACHE;
		o->sel[o->nr_sels++].arg = arg;
		return -1;
	}
}

/* One option; -1 to go on, or the exit status. */
static int take_opt(int c, const char *arg, struct diff_opts *o)
{
	char *end;

	if (c >= OPT_COMM && c <= OPT_KEY)
		return take_scope(c, arg, o);
	switch (c) {
	case 'g':
		o->group_arg = arg;
		return -1;
	case 's':
		if (kma_diff_sort_parse(arg, &o->sort))
			return usage_error("unknown sort key '%s'", arg);
		return -1;
	case 'n':
		errno = 0;
		o->limit = strtoull(arg, &end, 10);
		if (errno || end == arg || *end || *arg == '-')
			return usage_error("bad limit '%s'", arg);
		return -1;
	case 'f':
		if (kma_fmt_parse(arg, &o->format))
			return usage_error("unknown format '%s' (text|csv|json)", arg);
		return -1;
	case 'r':
		o->rate = 1;
		return -1;
	case 'F':
		return take_cond(arg, o);
	case 'o':
		if (!*arg)
			return usage_error("-o wants a file name%s", "");
		if (o->nr_keep == 1 && kma_output_same(o->keep[0], arg))
			return usage_error("-o %s given twice: one report.db would replace the other",
					   arg);
		if (o->nr_keep == 2)
			return usage_error("-o given more than twice (%s)", arg);
		o->keep[o->nr_keep++] = arg;
		return -1;
	case 'q':
		o->quiet = 1;
		return -1;
	case OPT_KIND:
		if (kma_kind_parse(arg, &o->kind))
			return usage_error("unknown --kind '%s': slab, page, percpu or vmalloc", arg);
		o->kind_arg = arg;
		return -1;
	case OPT_KALLSYMS:
	case OPT_SYMBOLS: {
		int k = c == OPT_SYMBOLS;

		if (o->nr_syms[k] == 2)
			return usage_error(k ? "--symbols given more than twice (%s)" :
					   "--kallsyms given more than twice (%s)", arg);
		o->syms[k][o->nr_syms[k]++] = arg;
		return -1;
	}
	case 'h':
		fputs(kma_diff_usage, stdout);
		return 0;
	case 'V':
		printf("kma-diff %s\n", KMA_VERSION);
		return 0;
	default:
		return usage_error("%s", "bad option");
	}
}

/*
 * --kind page, percpu or vmalloc: its rows come from kma-analyze's table of
 * the trace or from its rows in report.db, which have no slab cache, no
 * duration for --rate and no report.db for -o. -g is read here, once --kind
 * is known (page has groupings of its own). -1 to go on, or the exit status.
 */
static int check_kind(struct diff_opts *o)
{
	int i = take_group(o->group_arg, o);

	if (i >= 0 || o->kind == KMA_KIND_SLAB)
		return i;
	for (i = 0; i < o->nr_sels; i++)
		if (o->sel[i].kind == KMA_SELK_CACHE)
			return usage_error("--cache selects slab caches: not with --kind %s",
					   o->kind_arg);
	if (o->group == KMA_GROUP_CACHE)
		return usage_error("-g cache groups slab caches: not with --kind %s", o->kind_arg);
	if (o->rate)
		return usage_error("--rate is for slab rows (report.db's duration): not with "
				   "--kind %s", o->kind_arg);
	return -1;
}

static int parse_opts(int argc, char **argv, struct diff_opts *o)
{
	static const struct option long_opts[] = {
		{ "group-by",	required_argument,	NULL, 'g' },
		{ "sort",	required_argument,	NULL, 's' },
		{ "limit",	required_argument,	NULL, 'n' },
		{ "format",	required_argument,	NULL, 'f' },
		{ "rate",	no_argument,		NULL, 'r' },
		{ "fail-if",	required_argument,	NULL, 'F' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "kallsyms",	required_argument,	NULL, OPT_KALLSYMS },
		{ "symbols",	required_argument,	NULL, OPT_SYMBOLS },
		{ "comm",	required_argument,	NULL, OPT_COMM },
		{ "pid",	required_argument,	NULL, OPT_PID },
		{ "caller",	required_argument,	NULL, OPT_CALLER },
		{ "cache",	required_argument,	NULL, OPT_CACHE },
		{ "exclude-self", no_argument,		NULL, OPT_SELF },
		{ "generation",	required_argument,	NULL, OPT_GEN },
		{ "base-generation", required_argument,	NULL, OPT_GEN_BASE },
		{ "new-generation", required_argument,	NULL, OPT_GEN_NEW },
		{ "key",	required_argument,	NULL, OPT_KEY },
		{ "kind",	required_argument,	NULL, OPT_KIND },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	*o = default_opts;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":g:s:n:f:o:qhV", long_opts, NULL)) != -1) {
		if (c == '?')
			return usage_error("unknown option '%s'", argv[optind - 1]);
		if (c == ':')
			return usage_error("option '%s' needs an argument", argv[optind - 1]);
		ret = take_opt(c, optarg, o);
		if (ret >= 0)
			return ret;
	}
	if (argc - optind != 2)
		return usage_error("wants two operands, BASE and NEW (%s)",
				   argc - optind < 2 ? "too few" : "too many");
	if (o->nr_keys && !o->nr_conds)
		return usage_error("--key %s: no --fail-if expression to test on it", o->key[0]);
	o->operand[0] = argv[optind];
	o->operand[1] = argv[optind + 1];
	return check_kind(o);
}

/*
 * kma-analyze -q -o db [--kallsyms F] [--symbols F] [--pages] trace, with
 * operand i's symbol files (--pages: report.db keeps page rows only then);
 * 0, or -1 (it said why on stderr, naming the file).
 */
static int analyze(const struct diff_opts *o, int i, const char *trace, const char *db)
{
	const char *args[6];
	int n = 0, k;

	if (o->kind == KMA_KIND_PAGE)
		args[n++] = "--pages";
	for (k = 0; k < 2; k++) {
		if (!o->nr_syms[k])
			continue;
		args[n++] = k ? "--symbols" : "--kallsyms";
		args[n++] = o->syms[k][i < o->nr_syms[k] ? i : 0];
	}
	args[n] = NULL;
	return kma_runner_analyze(trace, db, args);
}

/* Where the analysis of trace operand i goes: -o, else a temporary file. */
static const char *db_for_trace(const struct diff_opts *o, int *nkeep, int i)
{
	if (*nkeep < o->nr_keep)
		return o->keep[(*nkeep)++];
	return kma_runner_tmp_db(i ? "new.db" : "base.db");
}

/*
 * --kind page, percpu or vmalloc: operand i's rows of the kind, narrowed to sc,
 * into t; 0, or -1 after a one-line error naming the file. One path for
 * both operand types: a trace is analyzed into a report.db first, then the
 * kind's allocation rows of the report.db are read (store/kma-diff-load.c),
 * so that a trace and its report.db give the same output.
 */
static int load_kind(const struct diff_opts *o, int i, int *nkeep,
		     const struct kma_diff_scope *sc, struct kma_diff_table *t)
{
	const char *file = o->operand[i], *db = file;
	struct kma_err err;

	if (kma_runner_is_trace(file)) {
		db = db_for_trace(o, nkeep, i);
		if (!db || analyze(o, i, file, db))
			return -1;
	} else if (access(file, R_OK)) {
		fprintf(stderr, "kma-diff: %s: %m\n", file);
		return -1;
	}
	if (o->kind == KMA_KIND_PAGE ? kma_diff_load_page(db, o->page_group, sc, t, &err) :
	    kma_diff_load_kind(db, o->kind, o->kind_arg, o->group, sc, t, &err)) {
		fprintf(stderr, "kma-diff: %s: %s\n", file, err.msg);
		return -1;
	}
	return 0;
}

/*
 * Operand i's numbers into t, narrowed to its scope; 0, or -1 after a
 * one-line error naming the file (-2: a usage error, a store operand's).
 */
static int load_operand(struct diff_opts *o, int i, int *nkeep,
			const struct kma_diff_scope *sc, struct kma_diff_table *t)
{
	const char *file = o->operand[i], *db = file;
	struct kma_err err;
	int r;

	/* a store run: named by its server and selectors from here on, no password */
	if (!strncmp(file, KMA_DIFF_PG_PREFIX, strlen(KMA_DIFF_PG_PREFIX))) {
		/* the store keeps the kinds beside slab per caller and per allocation */
		r = kma_diff_load_pg(file + strlen(KMA_DIFF_PG_PREFIX),
				     o->kind == KMA_KIND_SLAB ? NULL : kma_kind_name(o->kind),
				     o->kind == KMA_KIND_PAGE ? o->page_group : (int)o->group,
				     sc, t, o->pg_name[i], sizeof(o->pg_name[i]), &err);
		o->operand[i] = o->pg_name[i];
		if (r == -2) {
			fprintf(stderr, "kma-diff: %s: %s\nTry 'kma-diff --help'.\n",
				o->operand[i], err.msg);
			return -2;
		}
		if (r)
			fprintf(stderr, "kma-diff: %s: %s\n", o->operand[i], err.msg);
		return r;
	}
	if (o->kind != KMA_KIND_SLAB)
		return load_kind(o, i, nkeep, sc, t);
	if (kma_runner_is_trace(file)) {
		db = db_for_trace(o, nkeep, i);
		if (!db || analyze(o, i, file, db))
			return -1;
	} else if (access(file, R_OK)) {
		fprintf(stderr, "kma-diff: %s: %m\n", file);
		return -1;
	}
	if (kma_diff_load(db, o->group, sc, t, &err)) {
		fprintf(stderr, "kma-diff: %s: %s\n", file, err.msg);
		return -1;
	}
	return 0;
}

/*
 * Each -o through the output guard before any work: never an operand (kma-diff
 * would overwrite NEW with BASE's report.db and compare BASE with itself),
 * never what kma-analyze -o would refuse. 0, or -1 after a one-line error.
 */
static int check_keep(const struct diff_opts *o)
{
	const char *operands[] = { o->operand[0], o->operand[1], NULL };
	char why[KMA_OUTPUT_WHY_LEN], *real;
	int i;

	for (i = 0; i < o->nr_keep; i++) {
		if (kma_output_check(o->keep[i], KMA_OUTPUT_DB, operands, 0, &real, why,
				     sizeof(why))) {
			fprintf(stderr, "kma-diff: %s: %s\n", o->keep[i], why);
			return -1;
		}
		free(real);
	}
	return 0;
}

/*
 * The --fail-if verdicts on the row sum (the summary, or --key's row: key not
 * NULL) on stderr; 3 when one holds, else 0.
 */
static int fail_if(const struct diff_opts *o, const struct kma_diff_row *sum, const char *key)
{
	char num[48];
	double seen;
	int i, ret = 0;

	for (i = 0; i < o->nr_conds; i++) {
		const struct kma_diff_cond *c = &o->cond[i];

		if (!kma_diff_cond_holds(c, sum, &seen))
			continue;
		if (c->percent)
			snprintf(num, sizeof(num), "%+.1f%%", seen);
		else if (o->rate)
			kma_diff_num(num, sizeof(num), seen, o->rate, 1);
		else
			kma_diff_inum(num, sizeof(num), sum->idelta[c->metric], 1);
		fprintf(stderr, "kma-diff: --fail-if '%s' holds%s%s: %s changed by %s\n",
			o->cond_text[i], key ? " for " : "", key ? key : "",
			kma_diff_metric_name(c->metric), num);
		ret = 3;
	}
	return ret;
}

/* The row of key, or NULL when neither run has it. */
static const struct kma_diff_row *find_row(const struct kma_diff_row *rows, size_t nr,
					   const char *key)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(rows[i].key, key))
			return &rows[i];
	return NULL;
}

/*
 * Every --key names a row: a gate on a key in neither run (a typo, another
 * grouping) would pass whatever changed. 0, or -1 after a one-line error.
 */
static int check_keys(const struct diff_opts *o, const struct kma_diff_row *rows, size_t nr)
{
	int i;

	for (i = 0; i < o->nr_keys; i++) {
		if (find_row(rows, nr, o->key[i]))
			continue;
		fprintf(stderr, "kma-diff: --key '%s': no %s of that name in %s nor %s%s\n",
			o->key[i], o->key_name, o->operand[0], o->operand[1],
			o->nr_sels || o->exclude_self || o->gen[0] || o->gen[1] ?
			" (as filtered)" : "");
		return -1;
	}
	return 0;
}

/* The gates: on the summary, or on each --key's row; 3 when one holds, else 0. */
static int gates(const struct diff_opts *o, const struct kma_diff_row *sum,
		 const struct kma_diff_row *rows, size_t nr)
{
	int i, ret = 0;

	if (!o->nr_keys)
		return fail_if(o, sum, NULL);
	for (i = 0; i < o->nr_keys; i++)
		ret |= fail_if(o, find_row(rows, nr, o->key[i]), o->key[i]);
	return ret;
}

static int report(const struct diff_opts *o, const struct kma_diff_table *t,
		  const char *filter)
{
	struct kma_diff_report_in in = {
		.base_name = o->operand[0], .new_name = o->operand[1],
		.key = o->key_name, .sort = o->sort, .limit = o->limit,
		.rate = o->rate, .base_ns = t[0].duration_ns, .new_ns = t[1].duration_ns,
		.filter = filter, .gen_label = { t[0].gen_label, t[1].gen_label },
		.gen = { t[0].generation, t[1].generation },
	};
	struct kma_diff_row sum, *rows = NULL;
	size_t nr = 0;
	int ret = 1;

	if (o->rate && (!t[0].duration_ns || !t[1].duration_ns)) {
		fprintf(stderr, "kma-diff: %s: the %s lasts 0 s: no rate (drop --rate)\n",
			o->operand[t[0].duration_ns ? 1 : 0],
			o->gen[t[0].duration_ns ? 1 : 0] ? "generation" : "trace");
		return 1;
	}
	ret = kma_diff_rows(&t[0], &t[1], o->sort, o->rate, &rows, &nr);
	if (!ret)
		ret = kma_diff_summary(&t[0], &t[1], o->rate, &sum);
	if (ret) {
		fprintf(stderr, "kma-diff: %s\n", ret == -2 ? "the numbers of a key add up past "
			"2^63 - 1 (report.db files kma-analyze did not write)" : "out of memory");
		ret = 1;
		goto out;
	}
	ret = 1;
	if (check_keys(o, rows, nr))
		goto out;
	in.rows = rows;
	in.nr_rows = nr;
	in.summary = &sum;
	if (!o->quiet && (kma_report_diff(stdout, &in, o->format) || fflush(stdout))) {
		fprintf(stderr, "kma-diff: cannot write the report: %m\n");
		goto out;
	}
	ret = gates(o, &sum, rows, nr);
out:
	free(rows);
	return ret;
}

/*
 * A run's filter, NULL without one: one per run, since kma-select keeps its
 * verdicts per call-site address, which names another function in the other
 * run. -1 to go on, or the exit status (a bad pattern is a usage error).
 */
static int make_select(const struct diff_opts *o, struct kma_select **out)
{
	struct kma_select *s;
	struct kma_err why;
	int i;

	*out = NULL;
	if (!o->nr_sels && !o->exclude_self)
		return -1;
	s = kma_select_alloc();
	if (!s) {
		fprintf(stderr, "kma-diff: out of memory\n");
		return 1;
	}
	kma_select_exclude_self(s, o->exclude_self);
	for (i = 0; i < o->nr_sels; i++) {
		if (kma_select_add(s, o->sel[i].kind, o->sel[i].arg, &why)) {
			kma_select_free(s);
			if (why.kind == KMA_ERR_NOMEM) {
				fprintf(stderr, "kma-diff: out of memory\n");
				return 1;
			}
			return usage_error("%s", why.msg);
		}
	}
	*out = s;
	return -1;
}

int main(int argc, char **argv)
{
	struct kma_diff_table t[2];
	struct kma_diff_scope sc[2] = { { NULL, NULL }, { NULL, NULL } };
	struct diff_opts o;
	char filter[512] = "";
	int ret, i, nkeep = 0;

	ret = parse_opts(argc, argv, &o);
	if (ret >= 0)
		return ret;
	for (i = 0; i < 2; i++) {
		ret = make_select(&o, &sc[i].select);
		if (ret >= 0) {
			kma_select_free(sc[0].select);
			return ret;
		}
		sc[i].generation = o.gen[i];
	}
	if (sc[0].select)
		kma_select_describe(sc[0].select, filter, sizeof(filter));
	kma_runner_init("kma-diff");
	/* each -o keeps a trace's report.db: no more of them than traces */
	if (o.nr_keep > kma_runner_is_trace(o.operand[0]) + kma_runner_is_trace(o.operand[1])) {
		ret = usage_error("-o %s: no trace.dat operand left to keep it for",
				  o.keep[o.nr_keep - 1]);
		goto out;
	}
	if (check_keep(&o)) {
		ret = 1;
		goto out;
	}
	kma_diff_table_init(&t[0]);
	kma_diff_table_init(&t[1]);
	ret = 0;
	for (i = 0; !ret && i < 2; i++) {
		ret = load_operand(&o, i, &nkeep, &sc[i], &t[i]);
		ret = ret == -2 ? 2 : ret ? 1 : 0;
	}
	kma_runner_cleanup();
	if (!ret)
		ret = report(&o, t, filter[0] ? filter : NULL);
	kma_diff_table_free(&t[0]);
	kma_diff_table_free(&t[1]);
out:
	kma_select_free(sc[0].select);
	kma_select_free(sc[1].select);
	return ret;
}
