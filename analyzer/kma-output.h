/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-output.h - the one guard every output goes through (kma-analyze's -o
 * and --html, kma-diff's -o): nothing the user has is lost to an output.
 *
 * An output is never one of the run's inputs (same inode: hard and symbolic
 * links too), never anything but a regular file (checked with lstat/stat,
 * never open(): a FIFO would block), never a file that kma did not write
 * unless --force, and never the same file as another output of the run.
 * Outputs are then written to a temporary beside them and renamed on success
 * (kma_store_open, kma_html_open).
 */
#ifndef KMA_OUTPUT_H
#define KMA_OUTPUT_H

#include <stddef.h>

/* What is written: it decides which existing files are "ours". */
enum kma_output_kind {
	KMA_OUTPUT_DB,		/* a report.db (kma_store_probe) */
	KMA_OUTPUT_HTML,	/* an --html page (kma_output_probe_html) */
};

/* What kma-trend --html writes in its page's head: such a page is kma's too. */
#define KMA_OUTPUT_TREND_GENERATOR "<meta name=\"generator\" content=\"kma-trend\">"

/* Holds every reason kma_output_check gives. */
#define KMA_OUTPUT_WHY_LEN	256

/*
 * May the output be written at path? 0: yes, and *real is the file to
 * write: NULL for path itself, or (malloc'd) the target of a symbolic link,
 * which is replaced while the link stays. -1: no, why holds the reason (one
 * line, without the path). inputs: the files the run reads, NULL-terminated.
 */
int kma_output_check(const char *path, enum kma_output_kind kind, const char *const *inputs,
		     int force, char **real, char *why, size_t len);

/* 1 when two output paths name one file, whether or not it exists yet. */
int kma_output_same(const char *a, const char *b);

/* 1: the file begins as a page kma-analyze --html writes; 0: not; -1: unreadable. */
int kma_output_probe_html(const char *path, char *why, size_t len);

#endif /* KMA_OUTPUT_H */
