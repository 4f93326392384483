// SPDX-License-Identifier: GPL-2.0
/*
 * kma-runner.c - kma-analyze run on a trace into a temporary report.db for
 * the commands that read report.db files (kma-runner.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "kma-runner.h"

#define MAX_DBS		4	/* kma-diff --kind: a report.db and a table each */
#define MAX_ARGS	160	/* kma-diff --kind: the filters pass on */

static const char *prog = "kma";
static char tmp_dir[PATH_MAX], tmp_db[MAX_DBS][PATH_MAX];
static volatile pid_t child;	/* the kma-analyze running, 0: none */

void kma_runner_cleanup(void)
{
	int i;

	for (i = 0; i < MAX_DBS; i++)
		if (tmp_db[i][0])
			unlink(tmp_db[i]);
	if (tmp_dir[0])
		rmdir(tmp_dir);
}

static void on_signal(int sig)
{
	/*
	 * The signal reached kma-analyze too (one process group): let it remove its
	 * own temporary file first. waitpid, unlink and rmdir are async-signal-safe;
	 * then die of the signal.
	 */
	if (child > 0)
		waitpid(child, NULL, 0);
	kma_runner_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

void kma_runner_init(const char *name)
{
	prog = name;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
}

int kma_runner_is_trace(const char *path)
{
	static const char magic[10] = "\x17\x08\x44tracing";
	char h[10];
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);	/* a FIFO: no hang */
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, h, sizeof(h));
	close(fd);
	return n == (ssize_t)sizeof(h) && (!memcmp(h, magic, sizeof(h)) || !memcmp(h, "PERFILE2", 8));
}

const char *kma_runner_tmp_db(const char *name)
{
	const char *base = getenv("TMPDIR");
	int i;

	if (!tmp_dir[0]) {
		snprintf(tmp_dir, sizeof(tmp_dir), "%s/%s.XXXXXX", base && *base ? base : "/tmp",
			 prog);
		if (!mkdtemp(tmp_dir)) {
			fprintf(stderr, "%s: cannot make a temporary directory in %s: %m\n", prog,
				base && *base ? base : "/tmp");
			tmp_dir[0] = '\0';
			return NULL;
		}
	}
	for (i = 0; i < MAX_DBS && tmp_db[i][0]; i++)
		if (!strcmp(strrchr(tmp_db[i], '/') + 1, name))
			break;
	if (i == MAX_DBS)
		return NULL;
	if (snprintf(tmp_db[i], sizeof(tmp_db[i]), "%s/%s", tmp_dir, name) >=
	    (int)sizeof(tmp_db[i])) {
		tmp_db[i][0] = '\0';	/* a cut path would name another file */
		fprintf(stderr, "%s: the temporary directory's path is too long: %s\n", prog,
			tmp_dir);
		return NULL;
	}
	unlink(tmp_db[i]);
	return tmp_db[i];
}

/* The kma-analyze to run: $KMA_ANALYZE, the one next to this program, else from PATH. */
static const char *analyzer_path(char *buf, size_t len)
{
	const char *env = getenv("KMA_ANALYZE");
	ssize_t n;
	char *slash;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", buf, len - sizeof("kma-analyze"));
	if (n > 0) {
		buf[n] = '\0';
		slash = strrchr(buf, '/');
		if (slash) {
			strcpy(slash + 1, "kma-analyze");
			if (!access(buf, X_OK))
				return buf;
		}
	}
	return "kma-analyze";
}

/* kma-analyze FIRST ARGS -- TRACE; 0 or -1 said. */
static int run_analyze(const char *trace, const char *const *first, const char *const *args)
{
	char buf[PATH_MAX];
	const char *path = analyzer_path(buf, sizeof(buf));
	const char *argv[MAX_ARGS + 7] = { "kma-analyze" };
	int status, n = 1;
	pid_t pid;

	while (*first)
		argv[n++] = *first++;
	while (args && *args && n < MAX_ARGS + 4)
		argv[n++] = *args++;
	argv[n++] = "--";
	argv[n++] = trace;
	argv[n] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: %s: cannot run kma-analyze: %m\n", prog, trace);
		return -1;
	}
	if (!pid) {
		execvp(path, (char *const *)argv);
		fprintf(stderr, "%s: %s: cannot run %s: %m\n", prog, trace, path);
		_exit(127);
	}
	child = pid;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			child = 0;
			return -1;
		}
	}
	child = 0;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) != 127)
		fprintf(stderr, "%s: %s: kma-analyze failed (exit %d)\n", prog, trace,
			WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		fprintf(stderr, "%s: %s: kma-analyze killed by signal %d\n", prog, trace,
			WTERMSIG(status));
	return -1;
}

int kma_runner_analyze(const char *trace, const char *db, const char *const *args)
{
	const char *first[] = { "-q", "-o", db, NULL };

	return run_analyze(trace, first, args);
}
