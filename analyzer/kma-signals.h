/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-signals.h - SIGINT, SIGTERM and SIGHUP in kma-analyze: the temporary
 * report.db removed, "interrupted", the exit status of the signal.
 */
#ifndef KMA_SIGNALS_H
#define KMA_SIGNALS_H

#include <signal.h>

/* --live: set by SIGINT/SIGTERM, "stop tracing and write the report" */
extern volatile int kma_live_stop;
/* --live: the signal that abandons the run (SIGHUP, or a second one), else 0 */
extern volatile sig_atomic_t kma_interrupted;

/* Installs the handlers: file mode ends the run at once, --live stops it. */
void kma_signals_catch(int live);
/* The temporaries a signal removes: report.db's and the --html page's. */
enum kma_signals_tmp { KMA_SIGNALS_DB, KMA_SIGNALS_PAGE, KMA_SIGNALS_NR };
/* A temporary of @which a signal removes (copied); NULL once it is renamed. */
void kma_signals_arm(enum kma_signals_tmp which, const char *tmp_path);
/* A progress line is on stderr: the message clears it first. */
void kma_signals_progress_line(int on);
/*
 * Blocks SIGINT, SIGTERM and SIGHUP in the calling thread, the mask before in
 * @old: a thread created meanwhile inherits it, so a signal is the main
 * thread's to handle. Put @old back with pthread_sigmask(SIG_SETMASK, ...).
 */
void kma_signals_block(sigset_t *old);
/* Prints "kma-analyze: interrupted" and dies of @sig. */
void kma_signals_die(int sig) __attribute__((noreturn));

#endif /* KMA_SIGNALS_H */
