/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-stdin.h - a trace read from standard input (FILE '-').
 */
#ifndef KMA_STDIN_H
#define KMA_STDIN_H

#include <stddef.h>

/* The name kma-analyze's messages give a trace read from standard input. */
#define KMA_STDIN_NAME	"standard input"

/*
 * A path the reader can open for standard input: /proc/self/fd/0 when it is
 * a regular file, else a copy of the stream in an unlinked temporary file
 * of $TMPDIR (or /tmp), which goes with the process. 0, or -1 with @why.
 */
int kma_stdin_spool(char *path, size_t len, char *why, size_t wlen);

/*
 * FILE '-': *@input becomes KMA_STDIN_NAME and *@path the spool's path; any
 * other name is left as it is. 0, or -1 said on stderr (nothing when
 * interrupted: the caller dies by the signal).
 */
int kma_stdin_input(const char **input, const char **path);

#endif
