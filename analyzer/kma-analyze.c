// SPDX-License-Identifier: GPL-2.0
/*
 * kma-analyze - match kmem allocations to frees in a trace.dat, print the
 * per-caller report and write report.db.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <signal.h>

#include "match/kma-leak.h"
#include "reader/kma-live.h"
#include "match/kma-match.h"
#include "reader/kma-reader.h"
#include "sites/kma-sites.h"
#include "report/kma-report-callers.h"
#include "report/kma-report-extra.h"
#include "store/kma-store.h"
#include "report/kma-table.h"
#include "kma-signals.h"

#ifndef KMA_VERSION
#define KMA_VERSION "0.0-dev"
#endif

/* Every option in one place, with its default. */
struct kma_opts {
	const char	*input;
	const char	*buffer;	/* NULL: top-level, else the one instance with kmem */
	const char	*output;
	int		no_db;
	int		force;		/* -o may replace a file that is not a report.db */
	enum kma_sort	sort;
	uint64_t	limit;
	int		kmalloc_only;
	int		quiet;
	const char	*marker_prefix;
	const char	*generation;	/* N or LABEL */
	int		outstanding;
	int		list;
	int		leaks;
	int		lifetimes;
	int		peak;
	int		generations;
	int		modules;
	int		advice;
	int		live;
	double		duration;
	double		interval;
	const char	*since, *until;
	uint64_t	temp_ns;
	uint64_t	young_ns;
	enum kma_group	group_by;
	enum kma_fmt	format;
	const char	*vmlinux;
	const char	*modules_dir;
};

static const struct kma_opts default_opts = {
	.input		= "trace.dat",
	.output		= "report.db",
	.sort		= KMA_SORT_TOTAL,
	.marker_prefix	= KMA_MARKER_PREFIX,
	.temp_ns	= 1000000,
	.young_ns	= KMA_LEAK_YOUNG_NS,
	.interval	= 1.0,
};

static const char usage_text[] =
"Usage: kma-analyze [OPTIONS] [FILE]\n"
"\n"
"Match kmem allocations to frees in a trace-cmd trace.dat (default: trace.dat),\n"
"print per-caller slab accounting and write every allocation to an SQLite report.\n"
"\n"
"  -i, --input FILE       trace to read (same as the FILE argument)\n"
"  -B, --buffer NAME      read the instance buffer NAME (trace-cmd record -B), or\n"
"                         'top' for the top-level one (default: the top-level buffer\n"
"                         if it has kmem events, else the one instance that has)\n"
"  -o, --output DB        SQLite report to write (default: report.db); an existing\n"
"                         file is replaced only if it is a kma report.db\n"
"      --force            replace DB even if it is another file (never the input)\n"
"      --no-db            do not write a database\n"
"  -s, --sort KEY         total|slack|net|allocs|frees|caller (default: total;\n"
"                         numbers sort descending, caller ascending)\n"
"  -n, --limit N          print only the first N rows\n"
"  -f, --format FMT       text|csv|json (default: text), for every report\n"
"  -g, --group-by KEY     caller|function|module|file|cache|comm|pid (default: caller)\n"
"      --vmlinux FILE     vmlinux with DWARF, for source file:line of call sites\n"
"      --modules DIR      directory with the modules' .ko/.ko.debug files\n"
"                         (default for both: Debian's linux-image-<release>-dbg files)\n"
"      --kmalloc-only     only kmalloc, kmalloc_node and kfree (the 2005 /proc/kmalloc view)\n"
"  -q, --quiet            print no report and no progress (errors only)\n"
"\n"
"Generations, leaks and time (markers: echo \"kma: LABEL\" > trace_marker, or kma-mark):\n"
"      --marker-prefix P  markers starting with P start a generation (default: \"kma:\")\n"
"      --generation G     only allocations made in generation G (number or label)\n"
"      --since T          only allocations made at or after T, --until T: before T;\n"
"      --until T          T in seconds from the trace start, or @SECONDS as trace-cmd\n"
"                         prints timestamps (frees are still followed to the end)\n"
"      --outstanding      only allocations still live at the end of the trace\n"
"      --list             one line per allocation instead of per caller\n"
"      --generations      per-generation table\n"
"      --leaks            callers by outstanding bytes, growth over generations, suspects\n"
"      --young T          leak confidence drops when live allocations are younger than\n"
"                         T on average (default: 1s)\n"
"      --lifetimes        alloc -> free lifetimes per caller (min/median/p99/max)\n"
"      --temp-threshold T freed within T counts as temporary (default: 1ms)\n"
"      --peak             the moment of the most live bytes and who held them\n"
"      --leftovers        what unloaded modules left behind (module_free events)\n"
"      --advice           kmalloc slack by request size, and what a dedicated cache saves\n"
"\n"
"Live (no trace.dat; needs root and tracefs):\n"
"      --live             read the kmem events from the ring buffer, refresh a table\n"
"                         of the top callers every interval, write the report at the end\n"
"      --duration S       stop after S seconds (default: Ctrl-C)\n"
"      --interval S       refresh every S seconds (default: 1)\n"
"\n"
"  -h, --help             show this help\n"
"  -V, --version          show the version\n"
"\n"
"Record a trace first, e.g. (see README for locked-down machines):\n"
"  trace-cmd record -e kmem:kmalloc -e kmem:kfree -e kmem:kmem_cache_alloc \\\n"
"                   -e kmem:kmem_cache_free -o trace.dat COMMAND\n"
"The schema of report.db is described in kma-report.db(5).\n"
"\n"
"EXAMPLES\n"
"  kma-analyze                          # trace.dat -> report, report.db\n"
"  kma-analyze -s net -n 20 t.dat       # the 20 callers holding the most memory\n"
"  kma-analyze --generation 5 --outstanding --list t.dat\n"
"                                       # allocations of generation 5 still live\n"
"  kma-analyze --leaks --no-db t.dat    # leak suspects over the generations\n"
"  kma-analyze --since 2 --until 2.5 t.dat\n"
"  kma-analyze --kmalloc-only --no-db t.dat\n"
"  kma-analyze --buffer kmaonly t.dat   # the kmem events of trace-cmd record -B kmaonly\n"
"  kma-analyze -g cache -f csv --no-db t.dat > caches.csv\n"
"  kma-analyze --live -s net --duration 30 -o live.db\n"
"  kma-analyze --leaks -f json --no-db t.dat | jq '.rows[0]'\n"
"  kma-analyze --force -o old.db t.dat  # old.db is no report.db: replace it anyway\n"
"  kma-analyze -q -o /tmp/t.db t.dat && \\\n"
"    sqlite3 /tmp/t.db 'SELECT * FROM caller_stats ORDER BY net DESC LIMIT 10'\n";

enum {
	OPT_NO_DB = 256, OPT_KMALLOC_ONLY, OPT_MARKER_PREFIX, OPT_GENERATION, OPT_OUTSTANDING,
	OPT_LIST, OPT_LEAKS, OPT_LIFETIMES, OPT_PEAK, OPT_GENERATIONS, OPT_MODULES, OPT_SINCE,
	OPT_UNTIL, OPT_TEMP, OPT_YOUNG, OPT_VMLINUX, OPT_MODULES_DIR, OPT_ADVICE, OPT_LIVE,
	OPT_DURATION, OPT_INTERVAL, OPT_FORCE,
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
	{ "marker-prefix",	required_argument,	NULL, OPT_MARKER_PREFIX },
	{ "generation",		required_argument,	NULL, OPT_GENERATION },
	{ "outstanding",	no_argument,		NULL, OPT_OUTSTANDING },
	{ "list",		no_argument,		NULL, OPT_LIST },
	{ "leaks",		no_argument,		NULL, OPT_LEAKS },
	{ "lifetimes",		no_argument,		NULL, OPT_LIFETIMES },
	{ "peak",		no_argument,		NULL, OPT_PEAK },
	{ "generations",	no_argument,		NULL, OPT_GENERATIONS },
	{ "leftovers",		no_argument,		NULL, OPT_MODULES },
	{ "advice",		no_argument,		NULL, OPT_ADVICE },
	{ "live",		no_argument,		NULL, OPT_LIVE },
	{ "duration",		required_argument,	NULL, OPT_DURATION },
	{ "interval",		required_argument,	NULL, OPT_INTERVAL },
	{ "since",		required_argument,	NULL, OPT_SINCE },
	{ "until",		required_argument,	NULL, OPT_UNTIL },
	{ "temp-threshold",	required_argument,	NULL, OPT_TEMP },
	{ "young",		required_argument,	NULL, OPT_YOUNG },
	{ "group-by",		required_argument,	NULL, 'g' },
	{ "format",		required_argument,	NULL, 'f' },
	{ "vmlinux",		required_argument,	NULL, OPT_VMLINUX },
	{ "modules",		required_argument,	NULL, OPT_MODULES_DIR },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "kma-analyze: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'kma-analyze --help'.\n");
	return 2;
}

/* Returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, struct kma_opts *o)
{
	uint64_t v;
	int c, abs;

	while ((c = getopt_long(argc, argv, "i:B:o:s:n:g:f:qhV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->input = optarg;
			break;
		case 'B':
			if (!*optarg)
				return usage_error("--buffer wants an instance name or 'top'%s", "");
			o->buffer = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_NO_DB:
			o->no_db = 1;
			break;
		case OPT_FORCE:
			o->force = 1;
			break;
		case 's':
			if (kma_sort_parse(optarg, &o->sort))
				return usage_error("unknown sort key '%s'", optarg);
			break;
		case 'n': {
			char *end;

			errno = 0;
			o->limit = strtoull(optarg, &end, 10);
			if (errno || !*optarg || *end || *optarg == '-')
				return usage_error("--limit wants a number, not '%s'", optarg);
			break;
		}
		case OPT_KMALLOC_ONLY:
			o->kmalloc_only = 1;
			break;
		case 'f':
			if (kma_fmt_parse(optarg, &o->format))
				return usage_error("unknown format '%s': text, csv or json", optarg);
			break;
		case 'g':
			if (kma_group_parse(optarg, &o->group_by))
				return usage_error("unknown --group-by key '%s'", optarg);
			break;
		case OPT_VMLINUX:
			o->vmlinux = optarg;
			break;
		case OPT_MODULES_DIR:
			o->modules_dir = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_MARKER_PREFIX:
			if (!*optarg)
				return usage_error("--marker-prefix wants a prefix%s", "");
			o->marker_prefix = optarg;
			break;
		case OPT_GENERATION:
			if (!*optarg)
				return usage_error("--generation wants a number or a label%s", "");
			o->generation = optarg;
			break;
		case OPT_OUTSTANDING:
			o->outstanding = 1;
			break;
		case OPT_LIST:
			o->list = 1;
			break;
		case OPT_LEAKS:
			o->leaks = 1;
			break;
		case OPT_LIFETIMES:
			o->lifetimes = 1;
			break;
		case OPT_PEAK:
			o->peak = 1;
			break;
		case OPT_GENERATIONS:
			o->generations = 1;
			break;
		case OPT_MODULES:
			o->modules = 1;
			break;
		case OPT_ADVICE:
			o->advice = 1;
			break;
		case OPT_LIVE:
			o->live = 1;
			break;
		case OPT_DURATION:
		case OPT_INTERVAL:
			if (kma_parse_dur(optarg, &v) || (c == OPT_INTERVAL && v < 10000000))
				return usage_error("bad time '%s': seconds, e.g. 2 or 0.5 (interval "
						   ">= 0.01)", optarg);
			if (c == OPT_DURATION)
				o->duration = v / 1e9;
			else
				o->interval = v / 1e9;
			break;
		case OPT_SINCE:
		case OPT_UNTIL:
			if (kma_parse_time(optarg, &v, &abs))
				return usage_error("bad time '%s': seconds, e.g. 1.5, or @SECONDS", optarg);
			if (c == OPT_SINCE)
				o->since = optarg;
			else
				o->until = optarg;
			break;
		case OPT_TEMP:
		case OPT_YOUNG:
			if (kma_parse_dur(optarg, c == OPT_TEMP ? &o->temp_ns : &o->young_ns))
				return usage_error("bad duration '%s': e.g. 1ms, 250us, 2s", optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case 'V':
			printf("kma-analyze %s\n", KMA_VERSION);
			return 0;
		default:
			fprintf(stderr, "Try 'kma-analyze --help'.\n");
			return 2;
		}
	}
	if (optind < argc && o->live)
		return usage_error("--live reads no file, but got '%s'", argv[optind]);
	if (optind < argc)
		o->input = argv[optind++];
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (o->live && o->buffer)
		return usage_error("--live reads a ring buffer of its own, not --buffer %s", o->buffer);
	if (o->live && (o->since || o->until || o->generation))
		return usage_error("--live takes no %s", "--since/--until/--generation");
	return -1;
}

/* Opens the store with the signals blocked: the writer thread inherits the mask. */
static struct kma_store *open_store(const char *path, const char **why)
{
	struct kma_store *store;
	sigset_t set, old;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	store = kma_store_open(path, why);
	if (store)
		kma_signals_arm(kma_store_tmp_path(store));
	pthread_sigmask(SIG_SETMASK, &old, NULL);	/* a pending signal lands here */
	return store;
}

struct run {
	struct kma_opts		*o;
	struct kma_reader	*reader;
	struct kma_match	*match;		/* everything: report.db and the default report */
	struct kma_match	*view;		/* the filtered report, or == match */
	int			window_set;
	const char		*why;
};

/* The filter's time window, once the trace's first timestamp is known. */
static int set_window(struct run *r)
{
	uint64_t first = kma_reader_info(r->reader)->first_ts, since = 0, until = 0, v;
	int abs;

	r->window_set = 1;
	if (r->o->since && !kma_parse_time(r->o->since, &v, &abs))
		since = abs ? v : first + v;
	if (r->o->until && !kma_parse_time(r->o->until, &v, &abs))
		until = abs ? v : first + v;
	if (r->o->until && until <= since) {
		r->why = "--until is not after --since: the window is empty";
		return -1;
	}
	kma_match_set_window(r->view, since, until);
	return 0;
}

static int feed(void *ctx, const struct kma_event *ev)
{
	struct run *r = ctx;

	if (kma_interrupted)
		return -1;
	if (!r->window_set && set_window(r))
		return -1;
	if (r->match && kma_match_event(r->match, ev))
		return -1;
	if (r->view != r->match && kma_match_event(r->view, ev))
		return -1;
	return 0;
}

/* The top-style table, redrawn every interval while tracing live. */
static void live_refresh(void *ctx, const struct kma_trace_info *info)
{
	struct run *r = ctx;
	struct kma_report_in in = { .info = info, .sort = r->o->sort, .limit = r->o->limit };

	if (!in.limit)
		in.limit = 20;
	in.totals = kma_match_totals(r->view);
	in.callers = kma_match_callers(r->view, &in.nr_callers);
	if (isatty(STDOUT_FILENO))
		fputs("\033[H\033[J", stdout);
	printf("kma-analyze --live: %" PRIu64 " events (Ctrl-C to stop and write the report)\n",
	       info->events);
	kma_report_text(stdout, &in);
	fflush(stdout);
}

static void progress(void *ctx, double fraction)
{
	fprintf(stderr, "\rkma-analyze: %s: %3.0f%%", (const char *)ctx, fraction * 100.0);
}

/* --outstanding: the same table, of what is still live. */
static struct kma_caller *outstanding_view(const struct kma_caller *c, uint32_t nr,
					   struct kma_totals *t)
{
	struct kma_caller *v = malloc((nr ? nr : 1) * sizeof(*v));
	uint32_t i;

	if (!v)
		return NULL;
	memset(t, 0, sizeof(*t));
	for (i = 0; i < nr; i++) {
		v[i] = c[i];
		v[i].total = c[i].net;
		v[i].slack = c[i].live_slack;
		v[i].allocs = c[i].live;
		v[i].frees = 0;
		v[i].implicit_frees = 0;
		t->total += v[i].total;
		t->slack += v[i].slack;
		t->net += v[i].net;
		t->allocs += v[i].allocs;
		t->callers += v[i].allocs > 0;
	}
	return v;
}

static int print_report(struct run *r)
{
	struct kma_opts *o = r->o;
	const struct kma_trace_info *info = kma_reader_info(r->reader);
	struct kma_report_in in = { .info = info, .sort = o->sort, .limit = o->limit,
				    .key = kma_group_name(o->group_by) };
	struct kma_totals t;
	struct kma_caller *v = NULL;
	uint64_t lost = kma_report_lost(info, NULL);
	int ret = 0;

	if (o->format == KMA_FMT_TEXT && (o->generation || o->since || o->until || o->outstanding)) {
		fprintf(stdout, "# allocations");
		if (o->generation) {
			int64_t g = kma_match_selected_generation(r->view);

			/* a label as the trace spells it: escaped like the names */
			fputs(" made in generation ", stdout);
			kma_text_str(stdout, o->generation);
			if (g < 0)
				fprintf(stdout, " (no such generation in the trace)");
		}
		if (o->since)
			fprintf(stdout, " since %s", o->since);
		if (o->until)
			fprintf(stdout, " until %s", o->until);
		if (o->outstanding)
			fprintf(stdout, " still live at the end of the trace");
		fprintf(stdout, "; unknown/null frees and lost events are for the whole trace\n");
	}
	if (o->list)
		return 0;	/* printed by the caller from the list sink */
	if (o->generations)
		return kma_report_generations(stdout, r->view, info->first_ts, o->format);
	if (o->leaks)
		return kma_report_leaks(stdout, r->view, lost, o->young_ns, o->limit, o->format);
	if (o->lifetimes)
		return kma_report_lifetimes(stdout, r->view, o->limit, o->format);
	if (o->peak)
		return kma_report_peak(stdout, r->view, info->first_ts, o->limit, o->format);
	if (o->modules)
		return kma_report_leftovers(stdout, r->view, o->format);
	if (o->advice)
		return kma_report_advice(stdout, r->view, o->limit, o->format);

	in.totals = kma_match_totals(r->view);
	in.callers = kma_match_callers(r->view, &in.nr_callers);
	if (o->outstanding) {
		v = outstanding_view(in.callers, in.nr_callers, &t);
		if (!v)
			return -1;
		t.unknown_frees = in.totals->unknown_frees;
		t.null_frees = in.totals->null_frees;
		t.failed_allocs = in.totals->failed_allocs;
		in.totals = &t;
		in.callers = v;
	}
	if (o->format == KMA_FMT_TEXT)
		ret = kma_report_text(stdout, &in);
	else
		ret = kma_report_table(stdout, &in, o->format);
	free(v);
	return ret;
}

int main(int argc, char **argv)
{
	struct kma_opts o = default_opts;
	struct run r = { .o = &o };
	struct kma_store *store = NULL;
	struct kma_list *list = NULL;
	struct kma_match_opts mo = { 0 };
	struct kma_live_opts lo = { 0 };
	const struct kma_trace_info *info;
	const char *why = NULL;
	struct kma_err err;
	struct kma_sites *sites = NULL;
	const char *ksyms;
	size_t ksyms_len;
	char *real_output = NULL;
	int show_progress, ret, filtered;

	ret = parse_args(argc, argv, &o);
	if (ret >= 0)
		return ret;
	ret = 1;
	filtered = o.generation || o.since || o.until;
	if (!o.no_db && kma_store_check_target(o.output, o.live ? NULL : o.input, o.force,
						 &real_output, &why)) {
		fprintf(stderr, "kma-analyze: %s: %s\n", o.output, why);
		goto out;
	}
	kma_signals_catch(o.live);

	if (o.live) {
		lo.duration = o.duration;
		lo.interval = o.interval;
		lo.buffer_kb = 8192;
		lo.stop = &kma_live_stop;
		lo.refresh = o.quiet ? NULL : live_refresh;
		lo.refresh_ctx = &r;
		o.input = "live";
		r.reader = kma_live_open(&lo, &err);
	} else {
		r.reader = kma_reader_open_buffer(o.input, o.buffer, &err);
	}
	if (!r.reader) {
		fprintf(stderr, "kma-analyze: %s: %s\n", o.input, err.msg);
		goto out;
	}
	if (kma_reader_info(r.reader)->buffer_auto)
		fprintf(stderr, "kma-analyze: %s: reading buffer '%s' (the top-level buffer has no "
			"kmem events)\n", o.input, kma_reader_info(r.reader)->buffer);
	if (kma_reader_set_marker_prefix(r.reader, o.marker_prefix)) {
		fprintf(stderr, "kma-analyze: out of memory\n");
		goto out;
	}
	/* call sites from the kernel's kallsyms the reader found, DWARF lines when asked */
	ksyms = kma_reader_kallsyms(r.reader, &ksyms_len, &why);
	sites = kma_sites_alloc(ksyms, ksyms_len, why, kma_reader_tep(r.reader));
	if (!sites)
		goto oom;
	if (kma_sites_set_debug(sites, o.vmlinux, o.modules_dir, kma_reader_info(r.reader)->release,
				err.msg, sizeof(err.msg)) && (o.vmlinux || o.modules_dir)) {
		fprintf(stderr, "kma-analyze: %s: %s\n", o.vmlinux ? o.vmlinux : o.modules_dir,
			err.msg);
		goto out;
	}
	mo.kmalloc_only = o.kmalloc_only;
	mo.resolve = kma_sites_symbol;
	mo.module_of = kma_sites_module;
	mo.group_name = kma_sites_group_name;
	mo.resolve_ctx = sites;
	mo.temp_ns = o.temp_ns;
	if (!o.no_db) {
		/* -o a symbolic link: its target is replaced */
		store = open_store(real_output ? real_output : o.output, &why);
		if (!store) {
			fprintf(stderr, "kma-analyze: %s: %s\n", o.output, why);
			goto out;
		}
		mo.sink.ctx = store;
		mo.sink.alloc_done = kma_store_alloc_row;
		mo.sink.unknown_free = kma_store_unknown_free;
		r.match = kma_match_alloc(&mo);
		if (!r.match)
			goto oom;
	}
	/* A second matcher for a filtered report, a list or exact lifetimes. */
	if (filtered || o.list || o.lifetimes || o.group_by != KMA_GROUP_CALLER || !r.match) {
		struct kma_match_opts vo = mo;

		memset(&vo.sink, 0, sizeof(vo.sink));
		vo.keep_lifetimes = o.lifetimes;
		vo.group_by = o.group_by;
		vo.filtered = filtered;
		vo.filter.generation = -1;
		if (o.generation) {
			char *end;
			long long g = strtoll(o.generation, &end, 10);

			if (*end || g < 0)
				vo.filter.gen_label = o.generation;
			else
				vo.filter.generation = g;
		}
		if (o.list) {
			list = kma_list_alloc(o.outstanding);
			if (!list)
				goto oom;
			vo.sink.ctx = list;
			vo.sink.alloc_done = kma_list_add;
		}
		r.view = kma_match_alloc(&vo);
		if (!r.view)
			goto oom;
	} else {
		r.view = r.match;
	}

	show_progress = !o.quiet && !o.live && isatty(STDERR_FILENO);
	kma_signals_progress_line(show_progress);
	if (o.live ? kma_live_run(r.reader, &lo, feed, &r, &why) :
	    kma_reader_run(r.reader, feed, &r, show_progress ? progress : NULL,
			   (void *)o.input, &why)) {
		if (show_progress)
			fputc('\n', stderr);
		if (kma_interrupted)
			goto out;
		if (why)
			fprintf(stderr, "kma-analyze: %s: %s\n", o.input, why);
		else if (r.why)
			fprintf(stderr, "kma-analyze: %s\n", r.why);
		else
			fprintf(stderr, "kma-analyze: %s: %s\n", o.output,
				store ? kma_store_error(store) : "out of memory");
		goto out;
	}
	if (show_progress)
		fputs("\r\033[K", stderr);
	kma_signals_progress_line(0);
	if (kma_interrupted)
		goto out;
	info = kma_reader_info(r.reader);
	if (!info->kmem_events) {
		fprintf(stderr, "kma-analyze: %s: no kmem allocation or free events in %s%s%s; "
			"record with -e kmem:kmalloc -e kmem:kfree -e kmem:kmem_cache_alloc "
			"-e kmem:kmem_cache_free\n", o.input, o.buffer ? "buffer '" : "this trace",
			o.buffer ? o.buffer : "", o.buffer ? "' of this trace" : "");
		goto out;
	}
	/* after the run, so that an error stays the one line on stderr */
	if (info->warning)
		fprintf(stderr, "kma-analyze: %s: warning: %s\n", o.input, info->warning);
	if (info->records_warning)
		fprintf(stderr, "kma-analyze: %s: warning: %s\n", o.input, info->records_warning);
	if ((r.match && kma_match_finish(r.match, info->last_ts)) ||
	    (r.view != r.match && kma_match_finish(r.view, info->last_ts))) {
		fprintf(stderr, "kma-analyze: %s: %s\n", o.output,
			store ? kma_store_error(store) : "out of memory");
		goto out;
	}
	if (kma_interrupted)
		goto out;	/* --live: a second Ctrl-C while finishing abandons the report */
	if (store) {
		struct kma_store_run run = {
			.info = info,
			.totals = kma_match_totals(r.match),
			.kmalloc_only = o.kmalloc_only,
			.temp_ns = o.temp_ns,
			.young_ns = o.young_ns,
			.marker_prefix = o.marker_prefix,
			.version = KMA_VERSION,
			.site_of = kma_sites_site,
			.site_ctx = sites,
		};

		run.callers = kma_match_callers(r.match, &run.nr_callers);
		run.gens = kma_match_generations(r.match, &run.nr_gens);
		run.modules = kma_match_modules(r.match, &run.nr_modules);
		run.leftovers = kma_match_leftovers(r.match, &run.nr_leftovers);
		if (kma_store_commit(store, &run, &why)) {
			fprintf(stderr, "kma-analyze: %s: %s\n", o.output, why);
			goto out;
		}
		kma_signals_arm(NULL);	/* renamed into place: a signal now leaves it */
	}
	if (!o.quiet) {
		errno = 0;
		if (print_report(&r) || (list && kma_list_print(stdout, list, info->last_ts,
								 o.limit, o.format)) || fflush(stdout)) {
			fprintf(stderr, "kma-analyze: cannot write the report to stdout: %s\n",
				errno ? strerror(errno) : "out of memory");
			goto out;
		}
	}
	ret = 0;
	goto out;
oom:
	fprintf(stderr, "kma-analyze: out of memory\n");
out:
	kma_store_free(store);
	if (r.view != r.match)
		kma_match_free(r.view);
	kma_match_free(r.match);
	kma_list_free(list);
	kma_sites_free(sites);
	kma_reader_close(r.reader);
	free(real_output);
	if (kma_interrupted) {
		/* --live abandoned: temporary file and tracefs instance removed above */
		kma_signals_die(kma_interrupted);
	}
	return ret;
}
