// SPDX-License-Identifier: GPL-2.0
/*
 * kma-push.c - runs into the fleet store: kma-push [OPTIONS] URL FILE...,
 * each FILE a report.db or a trace.dat (analyzed on the fly by the kma-analyze
 * next to this program, as kma-diff does), pushed as one run in one
 * transaction by store/kma-fleet*.c. Wiring only: options, operands, the
 * kma-analyze child, temporary files, messages, exit status. kma-push(1)
 * documents it; the schema is kma-fleet(5).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kma-runner.h"
#include "store/kma-fleet.h"

#ifndef KMA_VERSION
#define KMA_VERSION "0.0-dev"
#endif

#define MAX_LABELS	64

static const char usage_text[] =
"Usage: kma-push [OPTIONS] URL FILE...\n"
"       kma-push --init URL [FILE...]\n"
"\n"
"Pushes runs into the central PostgreSQL fleet store (kma-fleet(5)): each FILE, a\n"
"report.db written by kma-analyze or a trace.dat (analyzed on the fly by the\n"
"kma-analyze next to kma-push, or $KMA_ANALYZE), becomes one run, written in one\n"
"transaction. URL is a libpq connection string or URI; the password comes the\n"
"libpq way (PGPASSWORD, ~/.pgpass, a service file) and is never printed. The same\n"
"trace with the same analysis options again is a no-op that says so.\n"
"\n"
"Options:\n"
"  -l, --label KEY=VALUE  label the runs (repeatable; e.g. kernel=6.18 host=web1)\n"
"  -a, --allocations      push every allocation too (binary COPY)\n"
"  -r, --replace          replace a run of the same trace and options\n"
"      --init             create the fleet schema where the database has none\n"
"  -q, --quiet            no line per run pushed\n"
"  -h, --help             this text\n"
"  -V, --version          kma-push's version\n"
"\n"
"Exit status: 0 every FILE pushed (or already there), 1 an error, 2 bad usage.\n";

struct push_opts {
	struct kma_fleet_label	label[MAX_LABELS];
	int			nr_labels;
	int			allocations, replace, init, quiet;
	const char		*url;
	char			**files;
	int			nr_files;
};

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("kma-push: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'kma-push --help'.\n", stderr);
	return 2;
}

/* -1 to go on, else the exit status (0 for --help and --version). */
static int parse_opts(int argc, char **argv, struct push_opts *o)
{
	enum { OPT_INIT = 256 };
	static const struct option long_opts[] = {
		{ "label",	 required_argument, NULL, 'l' },
		{ "allocations", no_argument,	    NULL, 'a' },
		{ "replace",	 no_argument,	    NULL, 'r' },
		{ "init",	 no_argument,	    NULL, OPT_INIT },
		{ "quiet",	 no_argument,	    NULL, 'q' },
		{ "help",	 no_argument,	    NULL, 'h' },
		{ "version",	 no_argument,	    NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	char *eq;
	int c;

	while ((c = getopt_long(argc, argv, ":l:arqhV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			eq = strchr(optarg, '=');
			if (!eq || eq == optarg)
				return usage_error("--label '%s': want KEY=VALUE", optarg);
			if (o->nr_labels == MAX_LABELS)
				return usage_error("more than %d labels", MAX_LABELS);
			*eq = '\0';
			o->label[o->nr_labels].key = optarg;
			o->label[o->nr_labels++].value = eq + 1;
			break;
		case 'a': o->allocations = 1; break;
		case 'r': o->replace = 1; break;
		case 'q': o->quiet = 1; break;
		case OPT_INIT: o->init = 1; break;
		case 'h': fputs(usage_text, stdout); return 0;
		case 'V': printf("kma-push %s\n", KMA_VERSION); return 0;
		case ':': return usage_error("%s needs an argument", argv[optind - 1]);
		default: return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error("no URL");
	o->url = argv[optind++];
	o->files = argv + optind;
	o->nr_files = argc - optind;
	if (!o->nr_files && !o->init)
		return usage_error("no FILE to push");
	return -1;
}

/* One FILE as a run; 0, or -1 after one line naming it (and the server). */
static int push_file(struct kma_fleet *f, const struct push_opts *o, const char *file)
{
	static const char *const said[] = {
		[KMA_FLEET_NEW] = "pushed as run %lld",
		[KMA_FLEET_SAME] = "already there as run %lld (same trace and options): nothing done",
		[KMA_FLEET_REPLACED] = "replaced: now run %lld",
	};
	struct kma_fleet_push p = {
		.db = file, .file = file, .source = "report.db", .labels = o->label,
		.nr_labels = o->nr_labels, .allocations = o->allocations, .replace = o->replace,
	};
	struct kma_err err;
	long long run;
	int r;

	if (access(file, R_OK)) {
		fprintf(stderr, "kma-push: %s: %m\n", file);
		return -1;
	}
	if (kma_runner_is_trace(file)) {
		p.db = kma_runner_tmp_db("run.db");
		if (!p.db || kma_runner_analyze(file, p.db, NULL))
			return -1;
		p.source = "trace";
	}
	r = kma_fleet_push(f, &p, &run, &err);
	if (r < 0) {
		/* the report.db's fault (KMA_ERR_BROKEN), or the server's, named first */
		fprintf(stderr, "kma-push: %s: %s\n", file, err.msg);
		return -1;
	}
	if (!o->quiet) {
		printf("kma-push: %s: ", file);
		printf(said[r], run);
		printf(" (%s)\n", kma_fleet_server(f));
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct push_opts o = { 0 };
	struct kma_fleet *f;
	struct kma_err err;
	int r, i, bad = 0;

	r = parse_opts(argc, argv, &o);
	if (r >= 0)
		return r;
	kma_runner_init("kma-push");
	/* the server gone mid-push is an error message, not a death by SIGPIPE */
	signal(SIGPIPE, SIG_IGN);
	f = kma_fleet_connect(o.url, &err);
	if (!f) {
		fprintf(stderr, "kma-push: %s\n", err.msg);
		return 1;
	}
	if (o.init ? kma_fleet_init(f, &err) : kma_fleet_check(f, &err)) {
		fprintf(stderr, "kma-push: %s\n", err.msg);
		kma_fleet_close(f);
		return 1;
	}
	if (o.init && !o.quiet)
		printf("kma-push: %s: fleet schema version %d ready\n", kma_fleet_server(f),
		       KMA_FLEET_SCHEMA_VERSION);
	for (i = 0; i < o.nr_files; i++)
		bad |= push_file(f, &o, o.files[i]) < 0;
	kma_fleet_close(f);
	kma_runner_cleanup();
	return bad ? 1 : 0;
}
