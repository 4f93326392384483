// SPDX-License-Identifier: GPL-2.0
/*
 * kma-mark - write "kma: LABEL" into the trace marker, so that kma-analyze
 * starts a new generation at this moment of the trace.
 *
 * The text goes to the top-level instance's trace_marker through libtracefs
 * and lands in the top-level ring buffer as an ftrace:print event, exactly as
 *	echo "kma: LABEL" > /sys/kernel/tracing/trace_marker
 * would write it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "kma-event.h"	/* KMA_MARKER_PREFIX, the one kma-analyze reads */

#ifndef KMA_VERSION
#define KMA_VERSION "0.0-dev"
#endif

#define PROG		"kma-mark"
/*
 * The kernel cuts a marker at TRACE_BUF_SIZE (1024 bytes on older kernels);
 * refuse longer text rather than have it shortened silently.
 */
#define MAX_MARKER	1000

static const char usage_text[] =
"Usage: kma-mark [--prefix P] LABEL...\n"
"\n"
"Write \"kma: LABEL\" into the kernel's trace marker: the moment a new generation\n"
"starts in a trace being recorded. kma-analyze shows each generation's\n"
"allocations, and which of them are still live at the end (--generations,\n"
"--generation LABEL --outstanding --list, --leaks).\n"
"\n"
"Several LABEL words are joined with single blanks into one label, as echo\n"
"does. The marker lands in the top-level ring buffer as an ftrace:print event;\n"
"tracing must be on (trace-cmd record, kma-record, or tracing_on = 1).\n"
"Needs write access to tracefs' trace_marker (usually root).\n"
"\n"
"  -p, --prefix P   marker prefix (default: \"kma:\"); give kma-analyze the same\n"
"                   --marker-prefix P\n"
"  -h, --help       show this help\n"
"  -V, --version    show the version\n"
"\n"
"Exit status: 0 the marker was written, 1 it could not be written (the reason\n"
"is printed), 2 usage error.\n"
"\n"
"EXAMPLES\n"
"  kma-record -o t.dat -- sh -c 'kma-mark warm; ./workload; kma-mark steady; ./workload'\n"
"  kma-mark before-mount            # while trace-cmd record runs elsewhere\n"
"  kma-mark --prefix leak: round 3  # writes \"leak: round 3\"\n"
"  kma-analyze --generations --no-db t.dat\n"
"  kma-analyze --generation steady --outstanding --list --no-db t.dat\n";

/* What the command line asks for. */
struct mark_opts {
	const char	*prefix;
	char		**words;	/* the LABEL words */
	int		nr_words;
};

/* Prints the usage error; returns its exit status, 2. */
static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (try '" PROG " --help')\n");
	return 2;
}

/* Returns -1 to go on, or the exit status (0 after --help or --version). */
static int parse_args(int argc, char **argv, struct mark_opts *o)
{
	static const struct option longopts[] = {
		{ "prefix",	required_argument,	NULL, 'p' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 },
	};
	int opt, i;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":p:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			o->prefix = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case 'V':
			printf(PROG " " KMA_VERSION "\n");
			return 0;
		case ':':
			return usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			if (optopt) {
				char short_opt[3] = { '-', (char)optopt, '\0' };

				return usage_error("unknown option '%s'", short_opt);
			}
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind == argc)
		return usage_error("%s", "no LABEL given");
	if (strpbrk(o->prefix, "\n\r"))
		return usage_error("%s", "a prefix cannot contain a newline");
	o->words = argv + optind;
	o->nr_words = argc - optind;
	for (i = 0; i < o->nr_words; i++) {
		if (strpbrk(o->words[i], "\n\r"))
			return usage_error("%s", "a label cannot contain a newline");
	}
	return -1;
}

/* The label: the words joined with single blanks, as echo joins them; NULL: no memory. */
static char *join_label(char **words, int n)
{
	size_t len = 1;
	char *label, *p;
	int i;

	for (i = 0; i < n; i++)
		len += strlen(words[i]) + 1;
	label = malloc(len);
	if (!label)
		return NULL;
	p = label;
	for (i = 0; i < n; i++) {
		if (i)
			*p++ = ' ';
		p = stpcpy(p, words[i]);
	}
	return label;
}

/* Why the marker file cannot be opened or written, in words. */
static const char *reason(int err, bool writing)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return "permission denied (run as root)";
	case EROFS:
		return "tracefs is mounted read-only";
	case ENOENT:
		return "no such file (kernel without ftrace?)";
	case EBADF:
		/* the ring buffer refuses the event when it is off */
		return writing ? "tracing is off (tracing_on is 0): nothing is recording" :
				 strerror(err);
	case EINVAL:
		return writing ? "the kernel refused the marker (is the 'markers' trace option off?)" :
				 strerror(err);
	default:
		return strerror(err);
	}
}

/*
 * The marker's text into *text, as echo "kma: LABEL" > trace_marker writes
 * it, newline and all. Returns -1 to go on, or the exit status.
 */
static int make_text(const char *prefix, const char *label, char **text)
{
	size_t len;

	if (asprintf(text, "%s%s%s\n", prefix, *prefix ? " " : "", label) < 0) {
		*text = NULL;	/* undefined after a failure */
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	len = strlen(*text);
	if (len > MAX_MARKER) {
		fprintf(stderr, PROG ": the marker is too long (%zu bytes, at most %d: the kernel "
			"cuts longer ones) (try '" PROG " --help')\n", len, MAX_MARKER);
		return 2;
	}
	return -1;
}

/* Writes @text into the top-level trace_marker. Returns the exit status. */
static int write_marker(const char *text)
{
	char *file = NULL;
	int ret, err, mounted, status = 1;

	/*
	 * libtracefs mounts tracefs itself when it is not mounted and it can
	 * (as root); when it cannot, say so rather than fail on a path.
	 */
	mounted = tracefs_tracing_dir_is_mounted(false, NULL);
	if (mounted <= 0) {
		fprintf(stderr, PROG ": tracefs is not mounted (mount -t tracefs nodev "
			"/sys/kernel/tracing)\n");
		goto out;
	}
	file = tracefs_instance_get_file(NULL, "trace_marker");
	if (!file) {
		const char *dir = tracefs_tracing_dir();

		fprintf(stderr, PROG ": %s/trace_marker: %s\n", dir ? dir : "tracefs",
			strerror(errno ? errno : ENOMEM));
		goto out;
	}

	errno = 0;
	if (tracefs_print_init(NULL) < 0) {
		err = errno;
		fprintf(stderr, PROG ": cannot open %s: %s\n", file,
			reason(err ? err : EIO, false));
		goto out;
	}
	errno = 0;
	ret = tracefs_printf(NULL, "%s", text);
	err = errno;
	tracefs_print_close(NULL);
	/* libtracefs 1.6 returns 0 once the one write() took the whole text */
	if (ret < 0)
		fprintf(stderr, PROG ": cannot write %s: %s\n", file,
			reason(err ? err : EIO, true));
	else
		status = 0;
out:
	tracefs_put_tracing_file(file);
	return status;
}

int main(int argc, char **argv)
{
	struct mark_opts o = { .prefix = KMA_MARKER_PREFIX };
	char *label = NULL, *text = NULL;
	int status;

	status = parse_args(argc, argv, &o);
	if (status >= 0)
		return status;
	status = 1;
	label = join_label(o.words, o.nr_words);
	if (!label) {
		fprintf(stderr, PROG ": out of memory\n");
		goto out;
	}
	if (!label[strspn(label, " \t")]) {
		status = usage_error("%s", "the label is empty");
		goto out;
	}
	status = make_text(o.prefix, label, &text);
	if (status < 0)
		status = write_marker(text);
out:
	free(label);
	free(text);
	return status;
}
