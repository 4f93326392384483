// SPDX-License-Identifier: GPL-2.0
/*
 * kma-analyze - match kmem allocations to frees in a trace.dat, print the
 * per-caller report and write report.db.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kma-match.h"
#include "kma-reader.h"
#include "kma-report.h"
#include "kma-store.h"

#ifndef KMA_VERSION
#define KMA_VERSION "0.0-dev"
#endif

/* Every option in one place, with its default. */
struct kma_opts {
	const char	*input;
	const char	*output;
	int		no_db;
	enum kma_sort	sort;
	uint64_t	limit;
	int		kmalloc_only;
	int		quiet;
};

static const struct kma_opts default_opts = {
	.input		= "trace.dat",
	.output		= "report.db",
	.sort		= KMA_SORT_TOTAL,
};

static const char usage_text[] =
"Usage: kma-analyze [OPTIONS] [FILE]\n"
"\n"
"Match kmem allocations to frees in a trace-cmd trace.dat (default: trace.dat),\n"
"print per-caller slab accounting and write every allocation to an SQLite report.\n"
"\n"
"  -i, --input FILE     trace to read (same as the FILE argument)\n"
"  -o, --output DB      SQLite report to write (default: report.db)\n"
"      --no-db          do not write a database\n"
"  -s, --sort KEY       total|slack|net|allocs|frees|caller (default: total;\n"
"                       numbers sort descending, caller ascending)\n"
"  -n, --limit N        print only the first N callers\n"
"      --kmalloc-only   only kmalloc, kmalloc_node and kfree (the 2005 /proc/kmalloc view)\n"
"  -q, --quiet          print no report and no progress (errors only)\n"
"  -h, --help           show this help\n"
"  -V, --version        show the version\n"
"\n"
"Record a trace first, e.g.:\n"
"  trace-cmd record -e kmem:kmalloc -e kmem:kfree -e kmem:kmem_cache_alloc \\\n"
"                   -e kmem:kmem_cache_free -o trace.dat COMMAND\n"
"The schema of report.db is described in kma-report.db(5).\n"
"\n"
"EXAMPLES\n"
"  kma-analyze                          # trace.dat -> report, report.db\n"
"  kma-analyze -s net -n 20 t.dat       # the 20 callers holding the most memory\n"
"  kma-analyze --kmalloc-only --no-db t.dat\n"
"  kma-analyze -q -o /tmp/t.db t.dat && \\\n"
"    sqlite3 /tmp/t.db 'SELECT * FROM caller_stats ORDER BY net DESC LIMIT 10'\n";

enum { OPT_NO_DB = 256, OPT_KMALLOC_ONLY };

static const struct option long_opts[] = {
	{ "input",		required_argument,	NULL, 'i' },
	{ "output",		required_argument,	NULL, 'o' },
	{ "no-db",		no_argument,		NULL, OPT_NO_DB },
	{ "sort",		required_argument,	NULL, 's' },
	{ "limit",		required_argument,	NULL, 'n' },
	{ "kmalloc-only",	no_argument,		NULL, OPT_KMALLOC_ONLY },
	{ "quiet",		no_argument,		NULL, 'q' },
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
	int c;

	while ((c = getopt_long(argc, argv, "i:o:s:n:qhV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->input = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_NO_DB:
			o->no_db = 1;
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
		case 'q':
			o->quiet = 1;
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
	if (optind < argc)
		o->input = argv[optind++];
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	return -1;
}

static int feed(void *ctx, const struct kma_event *ev)
{
	return kma_match_event(ctx, ev);
}

static void progress(void *ctx, double fraction)
{
	fprintf(stderr, "\rkma-analyze: %s: %3.0f%%", (const char *)ctx, fraction * 100.0);
}

int main(int argc, char **argv)
{
	struct kma_opts o = default_opts;
	struct kma_reader *reader = NULL;
	struct kma_store *store = NULL;
	struct kma_match *match = NULL;
	struct kma_match_opts mo = { 0 };
	const struct kma_trace_info *info;
	const char *why = NULL;
	int show_progress, ret;

	ret = parse_args(argc, argv, &o);
	if (ret >= 0)
		return ret;
	ret = 1;

	reader = kma_reader_open(o.input, &why);
	if (!reader) {
		fprintf(stderr, "kma-analyze: %s: %s\n", o.input, why);
		goto out;
	}
	if (!o.no_db) {
		store = kma_store_open(o.output, &why);
		if (!store) {
			fprintf(stderr, "kma-analyze: %s: %s\n", o.output, why);
			goto out;
		}
		mo.sink.ctx = store;
		mo.sink.alloc_done = kma_store_alloc_row;
		mo.sink.unknown_free = kma_store_unknown_free;
	}
	mo.kmalloc_only = o.kmalloc_only;
	mo.resolve = kma_reader_symbol;
	mo.resolve_ctx = reader;
	match = kma_match_alloc(&mo);
	if (!match) {
		fprintf(stderr, "kma-analyze: out of memory\n");
		goto out;
	}

	show_progress = !o.quiet && isatty(STDERR_FILENO);
	if (kma_reader_run(reader, feed, match, show_progress ? progress : NULL,
			   (void *)o.input, &why)) {
		if (show_progress)
			fputc('\n', stderr);
		if (why)
			fprintf(stderr, "kma-analyze: %s: %s\n", o.input, why);
		else
			fprintf(stderr, "kma-analyze: %s: cannot write the report (out of memory, "
				"or the database failed)\n", o.output);
		goto out;
	}
	if (show_progress)
		fputs("\r\033[K", stderr);
	info = kma_reader_info(reader);
	if (!info->kmem_events) {
		fprintf(stderr, "kma-analyze: %s: no kmem allocation or free events in this trace; "
			"record with -e kmem:kmalloc -e kmem:kfree -e kmem:kmem_cache_alloc "
			"-e kmem:kmem_cache_free\n", o.input);
		goto out;
	}
	if (kma_match_finish(match)) {
		fprintf(stderr, "kma-analyze: %s: cannot write the report\n", o.output);
		goto out;
	}
	if (store) {
		struct kma_store_run run = {
			.info = info,
			.totals = kma_match_totals(match),
			.kmalloc_only = o.kmalloc_only,
			.version = KMA_VERSION,
		};

		run.callers = kma_match_callers(match, &run.nr_callers);
		if (kma_store_commit(store, &run, &why)) {
			fprintf(stderr, "kma-analyze: %s: %s\n", o.output, why);
			goto out;
		}
	}
	if (!o.quiet) {
		struct kma_report_in in = {
			.info = info,
			.totals = kma_match_totals(match),
			.sort = o.sort,
			.limit = o.limit,
		};

		in.callers = kma_match_callers(match, &in.nr_callers);
		if (kma_report_text(stdout, &in) || fflush(stdout)) {
			fprintf(stderr, "kma-analyze: cannot write the report to stdout\n");
			goto out;
		}
	}
	ret = 0;
out:
	kma_store_free(store);
	kma_match_free(match);
	kma_reader_close(reader);
	return ret;
}
