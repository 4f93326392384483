/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-runner.h - a trace given where a report.db is read (kma-diff's
 * operands, kma-push's files): kma-analyze runs on it into a temporary
 * report.db first, in one private directory that is removed at the end and
 * on SIGINT, SIGTERM and SIGHUP.
 */
#ifndef KMA_RUNNER_H
#define KMA_RUNNER_H

/* @path starts as a trace.dat (0x17 0x08 0x44 "tracing") or a perf.data ("PERFILE2"). */
int kma_runner_is_trace(const char *path);

/* The signal handlers that remove the temporaries; @prog names the messages. */
void kma_runner_init(const char *prog);

/*
 * The temporary file NAME (at most four names), in the directory
 * made on first use under $TMPDIR or /tmp; NULL after a message.
 */
const char *kma_runner_tmp_db(const char *name);

/*
 * kma-analyze -q -o DB [ARGS...] -- TRACE ($KMA_ANALYZE, else the one beside
 * this program, else from PATH); 0, or -1 after one line naming the trace.
 */
int kma_runner_analyze(const char *trace, const char *db, const char *const *args);

/* Removes the temporaries (also done by the signal handlers). */
void kma_runner_cleanup(void);

#endif /* KMA_RUNNER_H */
