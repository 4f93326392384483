// SPDX-License-Identifier: GPL-2.0
/*
 * kma-stdin.c - a trace read from standard input (FILE '-'), as
 * `perf record -o - | kma-analyze -` gives it.
 *
 * Every reader reads by offset (pread, mmap, libtracecmd's seeks) and the
 * header probe's child opens the file again, so a pipe is copied first into
 * a temporary file that has no name (O_TMPFILE, or unlinked at once where
 * the file system lacks it): an interrupted run leaves nothing behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "kma-signals.h"
#include "kma-stdin.h"

#define COPY_CHUNK	(1u << 20)

/* An unnamed file in @dir, open for writing, or -1 with errno. */
static int unnamed_file(const char *dir)
{
	char tmpl[4096];
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	if (snprintf(tmpl, sizeof(tmpl), "%s/kma-stdin.XXXXXX", dir) >= (int)sizeof(tmpl)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = mkstemp(tmpl);
	if (fd >= 0)
		unlink(tmpl);
	return fd;
}

/* Standard input to @out to its end. 0, or -1 with errno (EINTR: interrupted). */
static int copy_stream(int out)
{
	char *buf = malloc(COPY_CHUNK);
	ssize_t n, w, done;
	int ret = -1;

	if (!buf)
		return -1;
	for (;;) {
		if (kma_interrupted) {
			errno = EINTR;
			break;
		}
		n = read(STDIN_FILENO, buf, COPY_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -1 : 0;
			break;
		}
		for (done = 0; done < n; done += w) {
			w = write(out, buf + done, n - done);
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w < 0)
				goto out;
		}
	}
out:
	free(buf);
	return ret;
}

int kma_stdin_spool(char *path, size_t len, char *why, size_t wlen)
{
	const char *dir = getenv("TMPDIR");
	struct stat st;
	int fd;

	if (fstat(STDIN_FILENO, &st)) {
		snprintf(why, wlen, "cannot read it: %s", strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		snprintf(path, len, "/proc/self/fd/%d", STDIN_FILENO);
		return 0;
	}
	if (isatty(STDIN_FILENO)) {
		snprintf(why, wlen, "it is a terminal, not a trace (pipe one in: "
			 "perf record -o - ... | kma-analyze -)");
		return -1;
	}
	if (!dir || !*dir)
		dir = "/tmp";
	fd = unnamed_file(dir);
	if (fd < 0) {
		snprintf(why, wlen, "cannot make a temporary file in %s to hold it: %s", dir,
			 strerror(errno));
		return -1;
	}
	if (copy_stream(fd)) {
		snprintf(why, wlen, errno == EINTR ? "interrupted while copying it" :
			 "cannot copy it to a temporary file in %s: %s", dir, strerror(errno));
		close(fd);
		return -1;
	}
	/* kept open to the end: the reader opens it by this name */
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return 0;
}

int kma_stdin_input(const char **input, const char **path)
{
	static char spool[64];
	char why[512];

	if (strcmp(*input, "-"))
		return 0;
	*input = KMA_STDIN_NAME;
	if (kma_stdin_spool(spool, sizeof(spool), why, sizeof(why))) {
		if (!kma_interrupted)
			fprintf(stderr, "kma-analyze: %s: %s\n", *input, why);
		return -1;
	}
	*path = spool;
	return 0;
}
