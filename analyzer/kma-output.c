// SPDX-License-Identifier: GPL-2.0
/*
 * kma-output.c - the output guard (kma-output.h): every output of
 * kma-analyze and kma-diff is checked here before any work.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/kma-report-html.h"
#include "store/kma-store.h"
#include "kma-output.h"

int kma_output_probe_html(const char *path, char *why, size_t len)
{
	char buf[KMA_HTML_MARK_WITHIN + 1];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		snprintf(why, len, "%s", strerror(errno));
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		snprintf(why, len, "%s", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	buf[n] = '\0';
	/* (a NUL in the first bytes ends the search: no page of ours has one) */
	if (!strncmp(buf, "<!DOCTYPE html>", 15) &&
	    (strstr(buf, KMA_HTML_GENERATOR) || strstr(buf, KMA_HTML_TITLE) ||
	     strstr(buf, KMA_OUTPUT_TREND_GENERATOR)))
		return 1;
	snprintf(why, len, "%s", n ? "not a page kma-analyze wrote" : "an empty file");
	return 0;
}

/* Is the existing file at path (links followed) one of inputs? */
static int is_input(const struct stat *st, const char *const *inputs)
{
	struct stat in;

	for (; inputs && *inputs; inputs++)
		if (!stat(*inputs, &in) && in.st_dev == st->st_dev && in.st_ino == st->st_ino)
			return 1;
	return 0;
}

/* Is the regular file at path ours to replace? Fills why when not. */
static int ours(const char *path, enum kma_output_kind kind, int force, char *why, size_t len)
{
	const char *what = kind == KMA_OUTPUT_DB ? "a kma report.db" : "a kma page";
	char r[160];
	int k;

	k = kind == KMA_OUTPUT_DB ? kma_store_probe(path, r, sizeof(r)) :
				    kma_output_probe_html(path, r, sizeof(r));
	if (k > 0 || force)
		return 1;
	if (k < 0)
		snprintf(why, len, "cannot read it to check that it is %s: %s; --force replaces it",
			 what, r);
	else
		snprintf(why, len, "not %s (%s); not replaced, --force replaces it", what, r);
	return 0;
}

int kma_output_check(const char *path, enum kma_output_kind kind, const char *const *inputs,
		     int force, char **real, char *why, size_t len)
{
	const char *opt = kind == KMA_OUTPUT_DB ? "-o" : "--html";
	struct stat st;

	*real = NULL;
	if (!*path) {
		snprintf(why, len, "%s wants a file name", opt);
		return -1;
	}
	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		snprintf(why, len, "cannot check it: %s", strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		if (stat(path, &st) || !(*real = realpath(path, NULL))) {
			snprintf(why, len, "cannot follow the symbolic link: %s%s",
				 strerror(errno), errno == ENOENT ? "; not replaced" : "");
			goto fail;
		}
	}
	if (is_input(&st, inputs)) {
		if (inputs[1])
			snprintf(why, len, "is an operand; not replaced");
		else
			snprintf(why, len, "is the input trace; not replaced by the %s",
				 kind == KMA_OUTPUT_DB ? "report" : "page");
		goto fail;
	}
	/* rename() would replace a device or FIFO node itself: never what an output means */
	if (S_ISDIR(st.st_mode)) {
		snprintf(why, len, "is a directory; %s wants a file", opt);
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, len, "not a regular file; not replaced%s",
			 kind == KMA_OUTPUT_DB ? " (--no-db writes no database)" : "");
		goto fail;
	}
	if (ours(*real ? *real : path, kind, force, why, len))
		return 0;
fail:
	free(*real);
	*real = NULL;
	return -1;
}

/*
 * The absolute name of path with its folder's links resolved: the file itself
 * when it exists (links followed), else its folder's real path and its name.
 * NULL when neither can be had.
 */
static char *canonical(const char *path)
{
	char *dup, *dir, *name, *rdir, *out = realpath(path, NULL);

	if (out || errno != ENOENT)
		return out;
	dup = strdup(path);
	name = strdup(path);
	if (!dup || !name)
		goto out;
	dir = dirname(dup);
	rdir = realpath(dir, NULL);
	if (rdir && asprintf(&out, "%s/%s", rdir, basename(name)) < 0)
		out = NULL;
	free(rdir);
out:
	free(dup);
	free(name);
	return out;
}

int kma_output_same(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ca, *cb;
	int same;

	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ca = canonical(a);
	cb = canonical(b);
	same = ca && cb ? !strcmp(ca, cb) : !strcmp(a, b);
	free(ca);
	free(cb);
	return same;
}
