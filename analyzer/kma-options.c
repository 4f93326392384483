// SPDX-License-Identifier: GPL-2.0
/*
 * kma-options.c - the command line of kma-analyze into a struct kma_opts
 * (kma-options.h): defaults, --help text, usage errors (exit status 2).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-time.h"
#include "match/kma-crosscpu.h"
#include "match/kma-kind.h"
#include "match/kma-leak.h"
#include "match/kma-pagealloc.h"
#include "match/kma-select.h"
#include "kma-output.h"
#include "kma-options.h"

static const struct kma_opts default_opts = {
	.input		= "trace.dat",
	.output		= "report.db",
	.sort		= KMA_SORT_TOTAL,
	.marker_prefix	= KMA_MARKER_PREFIX,
	.temp_ns	= 1000000,
	.young_ns	= KMA_LEAK_YOUNG_NS,
	.cache_growth	= kma_leak_growth_default,	/* leak verdicts */
	.interval	= 1.0,
	.page_group	= -1,	/* pages */
};


enum {
	OPT_NO_DB = 256, OPT_KMALLOC_ONLY, OPT_MARKER_PREFIX, OPT_GENERATION, OPT_OUTSTANDING,
	OPT_LIST, OPT_LEAKS, OPT_LIFETIMES, OPT_PEAK, OPT_GENERATIONS, OPT_MODULES, OPT_SINCE,
	OPT_UNTIL, OPT_TEMP, OPT_YOUNG, OPT_VMLINUX, OPT_MODULES_DIR, OPT_ADVICE, OPT_LIVE,
	OPT_DURATION, OPT_INTERVAL, OPT_FORCE, OPT_LIBTRACECMD, OPT_WEIGHT,
	/* filters */
	OPT_COMM, OPT_PID, OPT_CALLER, OPT_CACHE, OPT_EXCLUDE_SELF,
	OPT_CACHE_GROWTH,	/* leak verdicts */
	OPT_HTML,		/* --html FILE */
	OPT_PAGES,		/* page allocations */
	OPT_CROSS_CPU, OPT_CPU_NODES, OPT_COUNTERS,
	OPT_ALL, OPT_MIN_BYTES,	/* --leaks rows */
	OPT_COUNT,		/* --count */
	OPT_KALLSYMS, OPT_SYMBOLS,	/* symbols of a recording without kallsyms */
	OPT_KIND,		/* --kind */
};

static const struct option long_opts[] = {
	{ "input",		required_argument,	NULL, 'i' },
	{ "buffer",		required_argument,	NULL, 'B' },
	{ "output",		required_argument,	NULL, 'o' },
	{ "no-db",		no_argument,		NULL, OPT_NO_DB },
	{ "force",		no_argument,		NULL, OPT_FORCE },
	{ "sort",		required_argument,	NULL, 's' },
	{ "limit",		required_argument,	NULL, 'n' },
	{ "kmalloc-only",	no_argument,		NULL, OPT_KMALLOC_ONLY },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "jobs",		required_argument,	NULL, 'j' },
	{ "libtracecmd",	no_argument,		NULL, OPT_LIBTRACECMD },
	{ "marker-prefix",	required_argument,	NULL, OPT_MARKER_PREFIX },
	{ "generation",		required_argument,	NULL, OPT_GENERATION },
	{ "outstanding",	no_argument,		NULL, OPT_OUTSTANDING },
	{ "list",		no_argument,		NULL, OPT_LIST },
	{ "count",		no_argument,		NULL, OPT_COUNT },
	{ "leaks",		no_argument,		NULL, OPT_LEAKS },
	{ "all",		no_argument,		NULL, OPT_ALL },
	{ "min-bytes",		required_argument,	NULL, OPT_MIN_BYTES },
	{ "lifetimes",		no_argument,		NULL, OPT_LIFETIMES },
	{ "peak",		no_argument,		NULL, OPT_PEAK },
	{ "generations",	no_argument,		NULL, OPT_GENERATIONS },
	{ "leftovers",		no_argument,		NULL, OPT_MODULES },
	{ "advice",		no_argument,		NULL, OPT_ADVICE },
	{ "pages",		no_argument,		NULL, OPT_PAGES },
	{ "kind",		required_argument,	NULL, OPT_KIND },
	{ "cross-cpu",		no_argument,		NULL, OPT_CROSS_CPU },
	{ "counters",		no_argument,		NULL, OPT_COUNTERS },
	{ "cpu-nodes",		required_argument,	NULL, OPT_CPU_NODES },
	{ "live",		no_argument,		NULL, OPT_LIVE },
	{ "duration",		required_argument,	NULL, OPT_DURATION },
	{ "interval",		required_argument,	NULL, OPT_INTERVAL },
	{ "buffer-size",		required_argument,	NULL, 'b' },
	{ "since",		required_argument,	NULL, OPT_SINCE },
	{ "until",		required_argument,	NULL, OPT_UNTIL },
	{ "temp-threshold",	required_argument,	NULL, OPT_TEMP },
	{ "young",		required_argument,	NULL, OPT_YOUNG },
	{ "cache-growth",	required_argument,	NULL, OPT_CACHE_GROWTH },
	{ "group-by",		required_argument,	NULL, 'g' },
	{ "format",		required_argument,	NULL, 'f' },
	{ "weight",		required_argument,	NULL, OPT_WEIGHT },
	{ "vmlinux",		required_argument,	NULL, OPT_VMLINUX },
	{ "modules",		required_argument,	NULL, OPT_MODULES_DIR },
	{ "kallsyms",		required_argument,	NULL, OPT_KALLSYMS },
	{ "symbols",		required_argument,	NULL, OPT_SYMBOLS },
	/* filters */
	{ "comm",		required_argument,	NULL, OPT_COMM },
	{ "pid",		required_argument,	NULL, OPT_PID },
	{ "caller",		required_argument,	NULL, OPT_CALLER },
	{ "cache",		required_argument,	NULL, OPT_CACHE },
	{ "exclude-self",	no_argument,		NULL, OPT_EXCLUDE_SELF },
	{ "html",		required_argument,	NULL, OPT_HTML },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/*
 * What the option parsers below return besides an exit status (>= 0):
 * the option was taken, or it belongs to another family.
 */
#define OPT_TAKEN	(-1)
#define OPT_NOT_MINE	(-2)

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "kma-analyze: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'kma-analyze --help'.\n");
	return 2;
}

/* A usage error naming two options, @a and @b. */
static int usage_pair(const char *fmt, const char *a, const char *b)
{
	char line[256];

	snprintf(line, sizeof(line), fmt, a, b);
	return usage_error("%s", line);
}

/* -j N: 1..1024 threads. */
static int parse_jobs(const char *arg, int *jobs)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < 1 || n > 1024)
		return -1;
	*jobs = (int)n;
	return 0;
}

/* Input, output and how the rows are shown. */
static int parse_io_opt(int c, const char *arg, struct kma_opts *o)
{
	switch (c) {
	case 'i':
		o->input = arg;
		break;
	case 'B':
		if (!*arg)
			return usage_error("--buffer wants an instance name or 'top'%s", "");
		o->buffer = arg;
		break;
	case 'o':
		if (!*arg)
			return usage_error("-o wants a file name%s", "");
		o->output = arg;
		break;
	case OPT_NO_DB:
		o->no_db = 1;
		break;
	case OPT_FORCE:
		o->force = 1;
		break;
	case 's':
		if (kma_sort_parse(arg, &o->sort))
			return usage_error("unknown sort key '%s'", arg);
		o->sort_set = 1;
		break;
	case 'n': {
		char *end;

		errno = 0;
		o->limit = strtoull(arg, &end, 10);
		if (errno || !*arg || *end || *arg == '-')
			return usage_error("--limit wants a number, not '%s'", arg);
		break;
	}
	case OPT_KMALLOC_ONLY:
		o->kmalloc_only = 1;
		break;
	case 'f':
		o->folded = !strcmp(arg, "folded");
		if (o->folded)
			o->format = KMA_FMT_TEXT;
		else if (kma_fmt_parse(arg, &o->format))
			return usage_error("unknown format '%s': text, csv, json or folded", arg);
		break;
	case OPT_WEIGHT:
		if (kma_weight_parse(arg, &o->weight))
			return usage_error("unknown --weight '%s': bytes, net, slack or allocs", arg);
		o->weight_set = 1;
		break;
	case 'g': {
		int pg;

		o->group_arg = arg;	/* --pages has groupings of its own */
		if (kma_group_parse(arg, &o->group_by) && kma_page_group_parse(arg, &pg))
			return usage_error("unknown --group-by key '%s'", arg);
		o->group_set = 1;
		break;
	}
	case OPT_VMLINUX:
		o->vmlinux = arg;
		break;
	case OPT_MODULES_DIR:
		o->modules_dir = arg;
		break;
	case OPT_KALLSYMS:
		o->kallsyms = arg;
		break;
	case OPT_SYMBOLS:
		o->symbols = arg;
		break;
	case 'q':
		o->quiet = 1;
		break;
	case 'j':
		if (parse_jobs(arg, &o->jobs))
			return usage_error("-j wants a number of threads from 1 to 1024, not '%s'", arg);
		break;
	case OPT_LIBTRACECMD:
		o->libtracecmd = 1;
		break;
	default:
		return OPT_NOT_MINE;
	}
	return OPT_TAKEN;
}

/* One report per run: a second, different one is a usage error naming both. */
static int set_report(struct kma_opts *o, enum kma_report kind, const char *opt)
{
	if (o->report_opt && o->report != kind)
		return usage_pair("%s and %s are two reports: choose one", o->report_opt, opt);
	o->report = kind;
	o->report_opt = opt;
	return OPT_TAKEN;
}

/* Generations and the choice of report. */
static int parse_report_opt(int c, const char *arg, struct kma_opts *o)
{
	switch (c) {
	case OPT_MARKER_PREFIX:
		if (!*arg)
			return usage_error("--marker-prefix wants a prefix%s", "");
		o->marker_prefix = arg;
		break;
	case OPT_GENERATION:
		if (!*arg)
			return usage_error("--generation wants a number or a label%s", "");
		o->generation = arg;
		break;
	case OPT_OUTSTANDING:
		o->outstanding = 1;
		break;
	case OPT_LIST:
		return set_report(o, KMA_REPORT_LIST, "--list");
	case OPT_COUNT:
		o->count = 1;
		break;
	case OPT_LEAKS:
		return set_report(o, KMA_REPORT_LEAKS, "--leaks");
	case OPT_ALL:
		o->leak_all = 1;
		break;
	case OPT_MIN_BYTES: {
		char *end;

		errno = 0;
		o->min_bytes = strtoull(arg, &end, 10);
		if (errno || !*arg || *end || *arg == '-')
			return usage_error("--min-bytes wants a number, not '%s'", arg);
		break;
	}
	case OPT_LIFETIMES:
		return set_report(o, KMA_REPORT_LIFETIMES, "--lifetimes");
	case OPT_PEAK:
		return set_report(o, KMA_REPORT_PEAK, "--peak");
	case OPT_GENERATIONS:
		return set_report(o, KMA_REPORT_GENERATIONS, "--generations");
	case OPT_MODULES:
		return set_report(o, KMA_REPORT_LEFTOVERS, "--leftovers");
	case OPT_ADVICE:
		return set_report(o, KMA_REPORT_ADVICE, "--advice");
	case OPT_PAGES:
		o->pages = 1;
		break;
	case OPT_CROSS_CPU:
		return set_report(o, KMA_REPORT_CROSS_CPU, "--cross-cpu");
	case OPT_COUNTERS:
		return set_report(o, KMA_REPORT_COUNTERS, "--counters");
	case OPT_CACHE_GROWTH:	/* leak verdicts */
		if (kma_leak_growth_parse(arg, &o->cache_growth))
			return usage_error("bad --cache-growth '%s': globs separated by ',', "
					   "+ to add, or none", arg);
		break;
	default:
		return OPT_NOT_MINE;
	}
	return OPT_TAKEN;
}

/* Times, durations and live tracing. */
static int parse_time_opt(int c, const char *arg, struct kma_opts *o)
{
	uint64_t v;
	int abs;

	switch (c) {
	case OPT_LIVE:
		o->live = 1;
		break;
	case OPT_DURATION:
	case OPT_INTERVAL:
		if (kma_parse_dur(arg, &v) || (c == OPT_INTERVAL && v < 10000000))
			return usage_error("bad time '%s': seconds, e.g. 2 or 0.5 (interval "
					   ">= 0.01)", arg);
		if (c == OPT_DURATION)
			o->duration = v / 1e9;
		else
			o->interval = v / 1e9;
		break;
	case 'b': {
		char *end;
		unsigned long long kb;

		errno = 0;
		kb = strtoull(arg, &end, 10);
		/* trace-cmd record -b's unit; 4 GiB per CPU is past any sane size */
		if (errno || end == arg || *end || *arg == '-' || kb < 1 || kb > (4ULL << 20))
			return usage_error("bad buffer size '%s': KiB per CPU, 1 to 4194304 "
					   "(e.g. 65536)", arg);
		o->buffer_kb = (unsigned int)kb;
		break;
	}
	case OPT_SINCE:
	case OPT_UNTIL:
		if (kma_parse_time(arg, &v, &abs))
			return usage_error("bad time '%s': seconds, e.g. 1.5, or @SECONDS", arg);
		if (c == OPT_SINCE)
			o->since = arg;
		else
			o->until = arg;
		break;
	case OPT_TEMP:
	case OPT_YOUNG:
		if (kma_parse_dur(arg, c == OPT_TEMP ? &o->temp_ns : &o->young_ns))
			return usage_error("bad duration '%s': e.g. 1ms, 250us, 2s", arg);
		break;
	default:
		return OPT_NOT_MINE;
	}
	return OPT_TAKEN;
}

/*
 * the filters. Each pattern is tried in a select of its own here, so that a bad
 * regex or pid list is a usage error; kma-analyze builds the one it runs with.
 */
static int parse_filter_opt(int c, const char *arg, struct kma_opts *o)
{
	static const int kinds[] = {
		[OPT_COMM - OPT_COMM] = KMA_SELK_COMM, [OPT_PID - OPT_COMM] = KMA_SELK_PID,
		[OPT_CALLER - OPT_COMM] = KMA_SELK_CALLER, [OPT_CACHE - OPT_COMM] = KMA_SELK_CACHE,
	};
	struct kma_select *s;
	struct kma_err why;
	int bad;

	if (c == OPT_EXCLUDE_SELF) {
		o->exclude_self = 1;
		return OPT_TAKEN;
	}
	if (c < OPT_COMM || c > OPT_CACHE)
		return OPT_NOT_MINE;
	if (o->nr_sel == KMA_MAX_SEL_ARGS)
		return usage_error("more than 64 --comm/--pid/--caller/--cache patterns%s", "");
	s = kma_select_alloc();
	if (!s)
		return usage_error("out of memory%s", "");
	bad = kma_select_add(s, (enum kma_sel_kind)kinds[c - OPT_COMM], arg, &why);
	kma_select_free(s);
	if (bad)
		return usage_error("%s", why.msg);
	o->sel[o->nr_sel].kind = kinds[c - OPT_COMM];
	o->sel[o->nr_sel++].arg = arg;
	return OPT_TAKEN;
}

/* The kinds the caller tables report by default: every one of them in the trace. */
#define KMA_KINDS_TABLES	(1u << KMA_KIND_SLAB | 1u << KMA_KIND_PERCPU | 1u << KMA_KIND_VMALLOC)

/* --kind K[,K]: the kinds as bits of @mask; "all" is every kind but page. 0, or -1. */
static int parse_kinds(const char *arg, unsigned int *mask)
{
	enum kma_kind k;
	char name[16];
	size_t len;

	*mask = 0;
	for (;;) {
		len = strcspn(arg, ",");
		if (!len || len >= sizeof(name))
			return -1;	/* also an empty name: "", "slab,", ",vmalloc" */
		memcpy(name, arg, len);
		name[len] = '\0';
		if (!strcmp(name, "all"))
			*mask |= KMA_KINDS_TABLES;
		else if (!kma_kind_parse(name, &k))
			*mask |= 1u << k;
		else
			return -1;
		if (!arg[len])
			return 0;
		arg += len + 1;
	}
}

/* One option: taken (OPT_TAKEN) or the exit status. */
static int parse_opt(int c, const char *arg, struct kma_opts *o)
{
	int ret;

	switch (c) {
	case 'h':
		fputs(kma_usage_text, stdout);
		return 0;
	case 'V':
		printf("kma-analyze %s\n", KMA_VERSION);
		return 0;
	case OPT_CPU_NODES: {	/* checked here, parsed again when used */
		int *map, nr;

		if (kma_cpu_nodes_parse(arg, 0, &map, &nr))
			return usage_error("--cpu-nodes wants CPU ranges and nodes, such as "
					   "0-3=0,4-7=1, not '%s'", arg);
		free(map);
		o->cpu_nodes = arg;
		return OPT_TAKEN;
	}
	case OPT_KIND:
		if (parse_kinds(arg, &o->kinds))
			return usage_error("unknown --kind '%s': slab, page, percpu, vmalloc or "
					   "all, separated by ','", arg);
		o->kind_arg = arg;
		return OPT_TAKEN;
	case OPT_HTML:
		if (!*arg)
			return usage_error("--html wants a file name%s", "");
		o->html = arg;
		return OPT_TAKEN;
	}
	ret = parse_io_opt(c, arg, o);
	if (ret == OPT_NOT_MINE)
		ret = parse_report_opt(c, arg, o);
	if (ret == OPT_NOT_MINE)
		ret = parse_time_opt(c, arg, o);
	if (ret == OPT_NOT_MINE)
		ret = parse_filter_opt(c, arg, o);
	if (ret == OPT_NOT_MINE) {
		/* getopt_long() said what it did not like */
		fprintf(stderr, "Try 'kma-analyze --help'.\n");
		return 2;
	}
	return ret;
}

/* -f folded is the per-stack table in another shape: not for the other reports. */
static int check_folded(struct kma_opts *o)
{
	if (o->weight_set && !o->folded)
		return usage_error("--weight is for -f folded%s", "");
	if (!o->folded)
		return -1;
	if (o->group_set && o->group_by != KMA_GROUP_STACK)
		return usage_error("-f folded is by call stack: it takes no -g %s",
				   kma_group_name(o->group_by));
	if (o->report_opt)
		return usage_error("-f folded is the format of the per-stack table only, not "
				   "of %s", o->report_opt);
	if (o->live)
		return usage_error("-f folded is the format of the per-stack table only, not "
				   "of %s", "--live");
	o->group_by = KMA_GROUP_STACK;
	return -1;
}

/* The reports --pages has a page version of (kma-report-pages.h). */
static int page_has_report(enum kma_report kind)
{
	return kind == KMA_REPORT_CALLERS || kind == KMA_REPORT_LEAKS ||
	       kind == KMA_REPORT_PEAK || kind == KMA_REPORT_LIFETIMES ||
	       kind == KMA_REPORT_GENERATIONS;
}

/* The first option given that has no meaning for page allocations, or NULL. */
static const char *page_misfit(const struct kma_opts *o)
{
	int i;

	if (!page_has_report(o->report))
		return o->report_opt;
	for (i = 0; i < o->nr_sel; i++)
		if (o->sel[i].kind == KMA_SELK_CACHE)
			return "--cache (pages are in no slab cache)";
	return o->live ? "--live" : o->folded ? "-f folded" : o->outstanding ? "--outstanding" :
	       o->kmalloc_only ? "--kmalloc-only" : NULL;
}

/* --pages takes its own -g and no slab-only report. */
static int check_pages(struct kma_opts *o)
{
	const char *misfit;

	if (!o->pages) {
		if (o->group_set && kma_group_parse(o->group_arg, &o->group_by))
			return usage_error("-g %s is a grouping of --pages", o->group_arg);
		return -1;
	}
	if (o->group_set && kma_page_group_parse(o->group_arg, &o->page_group))
		return usage_error("--pages takes -g order, migrate, gfp, comm, pid, function, "
				   "stack or generation, not '%s'", o->group_arg);
	misfit = page_misfit(o);
	if (misfit)
		return usage_pair("%s does not apply to page allocations: not with %s", misfit,
				  "--pages");
	/* --pages --generations is the page table by generation */
	if (o->report == KMA_REPORT_GENERATIONS && o->group_set &&
	    o->page_group != KMA_PG_GENERATION)
		return usage_error("--pages --generations is by generation: it takes no -g %s",
				   o->group_arg);
	if (o->report == KMA_REPORT_GENERATIONS)
		o->page_group = KMA_PG_GENERATION;
	/* page rows have no slack; peak, lifetimes and generations have an order of their own */
	if (o->sort_set && o->sort == KMA_SORT_SLACK)
		return usage_error("--pages has no slack: -s takes total (pages allocated), net "
				   "(live pages), allocs, frees or caller (the key)%s", "");
	if (o->sort_set && (o->report == KMA_REPORT_PEAK || o->report == KMA_REPORT_LIFETIMES ||
			    o->report == KMA_REPORT_GENERATIONS))
		return usage_error("--pages %s has an order of its own: it takes no -s",
				   o->report_opt);
	return -1;
}

/*
 * --kind: page alone is the page report (--pages); percpu and vmalloc have the
 * caller table only, and no slab cache. Without --kind, the caller table
 * reports every kind the trace has; any other report, slab's only.
 */
static int check_kinds(struct kma_opts *o)
{
	unsigned int page = 1u << KMA_KIND_PAGE, slab = 1u << KMA_KIND_SLAB;
	const char *misfit = NULL;
	int i;

	for (i = 0; i < o->nr_sel; i++)
		if (o->sel[i].kind == KMA_SELK_CACHE)
			misfit = "--cache";
	if (!o->kind_arg) {
		o->kinds = o->pages ? page : slab;
		if (!o->pages && !o->report_opt && !o->folded && !o->live && !misfit &&
		    !o->kmalloc_only)
			o->kinds = KMA_KINDS_TABLES;
		return -1;
	}
	if (o->kinds & page) {
		if (o->kinds != page)
			return usage_error("--kind page is the page report (--pages): it goes with "
					   "no other kind, not '%s'", o->kind_arg);
		o->pages = 1;
		return -1;
	}
	if (o->pages)
		return usage_pair("%s is the page report: not with --kind %s", "--pages",
				  o->kind_arg);
	if (o->kinds == slab)
		return -1;
	if (!misfit)
		misfit = o->kmalloc_only ? "--kmalloc-only" : o->report_opt ? o->report_opt :
			 o->folded ? "-f folded" : o->live ? "--live" : o->count ? "--count" : NULL;
	if (misfit)
		return usage_pair("%s is for slab allocations only: not with --kind %s", misfit,
				  o->kind_arg);
	return -1;
}

/* The FILE argument, and the options that do not go together. */
static int check_args(int argc, char **argv, struct kma_opts *o)
{
	int c;

	if (optind < argc && o->live)
		return usage_error("--live reads no file, but got '%s'", argv[optind]);
	if (optind < argc)
		o->input = argv[optind++];
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if ((o->leak_all || o->min_bytes) && o->report != KMA_REPORT_LEAKS)
		return usage_error("--all and --min-bytes choose the rows of --leaks%s", "");
	/* the leak-oriented reports rank by what is still held, unless -s says */
	if (!o->sort_set && (o->report == KMA_REPORT_LEAKS || o->report == KMA_REPORT_PEAK ||
			     o->outstanding))
		o->sort = KMA_SORT_NET;
	if (o->live && o->html)
		return usage_error("--html reads a trace.dat, not --live%s", "");
	/* two outputs in one file: one would silently replace the other */
	if (o->html && !o->no_db && kma_output_same(o->output, o->html))
		return usage_error("-o and --html name the same file '%s'", o->html);
	if (o->buffer_kb && !o->live)
		return usage_error("-b/--buffer-size sizes --live's ring buffer; a trace.dat's was "
				   "sized when it was recorded (trace-cmd record -b)%s", "");
	if (o->live && o->buffer)
		return usage_error("--live reads a ring buffer of its own, not --buffer %s", o->buffer);
	if (o->live && (o->since || o->until || o->generation))
		return usage_error("--live takes no %s", "--since/--until/--generation");
	if (o->live && o->group_by == KMA_GROUP_STACK)
		return usage_error("--live records no stacks: -g stack is for a trace recorded with "
				   "kma-record --stacks or trace-cmd record -T%s", "");

	if (o->report == KMA_REPORT_CROSS_CPU || o->report == KMA_REPORT_COUNTERS) {
		const char *with = o->pages ? "--pages" : o->live ? "--live" :
				   o->outstanding ? "--outstanding" : o->folded ? "-f folded" :
				   o->html && o->report == KMA_REPORT_CROSS_CPU ? "--html" : NULL;

		if (with)
			return usage_pair("%s is a report of its own: not with %s", o->report_opt,
					  with);
	}
	/* --outstanding is what is live in the callers table or --list, no other report */
	if (o->outstanding && o->report != KMA_REPORT_CALLERS && o->report != KMA_REPORT_LIST)
		return usage_pair("%s is for the callers table and --list, not %s",
				  "--outstanding", o->report_opt);
	if (o->count && (o->report_opt || o->live || o->html || o->pages || o->outstanding ||
			 o->folded || o->nr_sel || o->generation || o->since || o->until ||
			 o->sort_set || o->group_set || o->no_db || o->kmalloc_only ||
			 o->format != default_opts.format || o->limit != default_opts.limit ||
			 o->output != default_opts.output))
		return usage_error("--count only counts a trace's events: it takes -B, -j, "
				   "--libtracecmd, --marker-prefix and -q%s", "");
	c = check_kinds(o);
	if (c == -1)
		c = check_pages(o);
	return c == -1 ? check_folded(o) : c;
}

/* KMA_EXACT_LIFETIMES: how many lifetimes --lifetimes keeps exactly before buckets. */
static int exact_lifetimes_env(struct kma_opts *o)
{
	const char *env = getenv("KMA_EXACT_LIFETIMES");
	char *end;

	if (!env || !*env)
		return 0;
	errno = 0;
	o->exact_lifetimes = strtoull(env, &end, 10);
	if (*end || errno || !o->exact_lifetimes || *env == '-') {
		fprintf(stderr, "kma-analyze: KMA_EXACT_LIFETIMES wants a number above 0, "
			"not '%s'\n", env);
		return -1;
	}
	return 0;
}

int kma_opts_parse(int argc, char **argv, struct kma_opts *o)
{
	int c, ret;

	*o = default_opts;
	if (exact_lifetimes_env(o))
		return 2;
	/* a test knob as much as a user's: the child costs a fork (a third of a run under ASan) */
	o->no_probe = getenv("KMA_HEADER_PROBE") && !strcmp(getenv("KMA_HEADER_PROBE"), "0");
	while ((c = getopt_long(argc, argv, "i:B:o:s:n:g:f:j:b:qhV", long_opts, NULL)) != -1) {
		ret = parse_opt(c, optarg, o);
		if (ret != OPT_TAKEN)
			return ret;
	}
	return check_args(argc, argv, o);
}
