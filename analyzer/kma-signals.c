// SPDX-License-Identifier: GPL-2.0
/*
 * kma-signals.c - SIGINT, SIGTERM and SIGHUP in kma-analyze (kma-signals.h).
 */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "kma-signals.h"

/*
 * SIGINT, SIGTERM and SIGHUP. Reading a trace.dat, they end the run at once:
 * the handler removes the temporary report.db (its name copied here, as
 * nothing else is safe to touch in a handler) and dies of the signal, so the
 * shell sees 130, 143 or 129 and a script loop stops on Ctrl-C. The writer
 * thread runs with these signals blocked, so the handler runs on the main
 * thread; whatever the writer still has open is gone with the process.
 * With --live, SIGINT and SIGTERM mean "stop and write the report"; a second
 * one, or SIGHUP, abandons the run through the normal cleanup, which also
 * removes the tracefs instance.
 */
volatile int kma_live_stop;
volatile sig_atomic_t kma_interrupted;	/* --live: the signal that abandons the run */
static volatile sig_atomic_t tmp_armed[KMA_SIGNALS_NR], progress_line;
/*
 * The one static buffer on purpose: the handler may only call
 * async-signal-safe functions, so it cannot reach into the store (its
 * pointers may be half-updated, free()d or behind a lock) and cannot
 * allocate; it unlink()s this copy, made before the signal can come.
 */
static char tmp_copy[KMA_SIGNALS_NR][PATH_MAX];

static void say_interrupted(void)
{
	static const char msg[] = "kma-analyze: interrupted\n";

	if (progress_line)
		(void)!write(STDERR_FILENO, "\r\033[K", 4);
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
}

void kma_signals_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

/* Dies of sig with its default action (the exit status the shell expects). */
static void __attribute__((noreturn)) die_of(int sig)
{
	sigset_t set;

	signal(sig, SIG_DFL);
	raise(sig);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	_exit(128 + sig);
}

static void on_signal(int sig)
{
	int i;

	for (i = 0; i < KMA_SIGNALS_NR; i++)
		if (tmp_armed[i])
			unlink(tmp_copy[i]);
	say_interrupted();
	die_of(sig);
}

static void on_live_signal(int sig)
{
	if (sig == SIGHUP || kma_live_stop)
		kma_interrupted = sig;
	kma_live_stop = 1;
}

/*
 * A signal ignored when we were started stays ignored (nohup, background
 * jobs of scripts), except SIGINT and SIGTERM with --live: they were always
 * its way to stop.
 */
void kma_signals_catch(int live)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = live ? on_live_signal : on_signal }, old;
	unsigned int i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigaction(sigs[i], NULL, &old) || (old.sa_handler == SIG_IGN &&
						       (!live || sigs[i] == SIGHUP)))
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

void kma_signals_arm(enum kma_signals_tmp which, const char *tmp_path)
{
	tmp_armed[which] = 0;
	if (tmp_path && strlen(tmp_path) < sizeof(tmp_copy[which])) {
		strcpy(tmp_copy[which], tmp_path);
		tmp_armed[which] = 1;
	}
}

void kma_signals_progress_line(int on)
{
	progress_line = on;
}

void kma_signals_die(int sig)
{
	say_interrupted();
	die_of(sig);
}
