// SPDX-License-Identifier: GPL-2.0
/*
 * kma-probe.c - the header probe: the texts of a trace.dat header that
 * libtraceevent parses (header_page, the ftrace and event formats, the
 * printk formats, the saved command lines, the kallsyms) parsed in a child
 * first, because libtraceevent crashes on some corrupt ones that no size
 * check catches. If the child dies, the file is reported instead of kma
 * dying when libtracecmd parses the same texts.
 *
 * The child parses each text as libtracecmd's open does (trace-input.c:
 * read_header_files, read_ftrace_file, read_event_file, read_ftrace_printk,
 * read_and_parse_cmdlines), found by the trace.dat walker, with one
 * exception: the kallsyms text, when kma read it itself, is not even read
 * by the child, since libtraceevent does not parse it in kma either (the
 * reader skips that parse, kma-tep-kallsyms.c). Real traces carry the
 * whole /proc/kallsyms (5 MB and more). Without that text libtracecmd's
 * open parses the kallsyms, and so does the child.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <traceevent/event-parse.h>

#include "kma-probe.h"
#include "kma-tracedat.h"

#define MAX_STR		4096
/* the child's exit status for a reason 1..31 of its own: clear of 1, 3 and the tests' 99 */
#define REASON_EXIT	64

enum { TEXT_HEADER_PAGE, TEXT_FTRACE, TEXT_EVENT, TEXT_KALLSYMS, TEXT_PRINTK, TEXT_CMDLINES };

/* Over the file (v6: mem NULL) or over a v7 section's data in memory. */
struct cur {
	struct kma_td	*t;
	const char	*mem;
	uint64_t	len, pos;
	struct tep_handle *tep;
	int		long_size;
	int		skip_kallsyms;	/* libtraceevent will not parse it in kma */
	int		past;		/* a v7 section's size ran past its end */
};

static int cur_read(struct cur *c, void *buf, uint64_t n)
{
	if (!c->mem)
		return kma_td_read(c->t, buf, n);
	if (n > c->len - c->pos)
		return -1;
	memcpy(buf, c->mem + c->pos, n);
	c->pos += n;
	return 0;
}

static int cur_num(struct cur *c, int bytes, uint64_t *v)
{
	unsigned char b[8];

	if (cur_read(c, b, bytes))
		return -1;
	*v = kma_td_get(c->t, b, bytes);
	return 0;
}

static int cur_str(struct cur *c, char *buf, size_t max)
{
	size_t i;

	if (!c->mem)
		return kma_td_str(c->t, buf, max);
	for (i = 0; i < max && c->pos + i < c->len; i++) {
		buf[i] = c->mem[c->pos + i];
		if (!buf[i]) {
			c->pos += i + 1;
			return 0;
		}
	}
	return -1;
}

/* The next @n bytes as a malloc'd NUL-terminated text. */
static char *cur_text(struct cur *c, uint64_t n)
{
	char *buf;

	if (n > KMA_TD_MAX_TEXT) {
		c->past = c->mem != NULL;
		return NULL;
	}
	if (!c->mem) {
		buf = kma_td_slurp(c->t, c->t->off, n);
		if (buf)
			c->t->off += n;
		return buf;
	}
	if (n > c->len - c->pos) {
		c->past = 1;
		return NULL;
	}
	if (!(buf = malloc(n + 1)))
		return NULL;
	memcpy(buf, c->mem + c->pos, n);
	buf[n] = '\0';
	c->pos += n;
	return buf;
}

/* Parses one text as libtracecmd does; @text is NUL-terminated. */
static void parse_text(struct cur *c, int kind, const char *sys, char *text, uint64_t len)
{
	switch (kind) {
	case TEXT_HEADER_PAGE:
		tep_parse_header_page(c->tep, text, len, c->long_size);
		break;
	case TEXT_FTRACE:
		tep_parse_event(c->tep, text, len, "ftrace");
		break;
	case TEXT_EVENT:
		tep_parse_event(c->tep, text, len, sys);
		break;
	case TEXT_KALLSYMS:
		tep_parse_kallsyms(c->tep, text);
		break;
	case TEXT_PRINTK:
		tep_parse_printk_formats(c->tep, text);
		break;
	case TEXT_CMDLINES:
		tep_parse_saved_cmdlines(c->tep, text);
		break;
	}
}

/* A size of @bytes, then that many bytes of text of @kind. */
static int sized_text(struct cur *c, int bytes, int kind, const char *sys)
{
	uint64_t n;
	char *text;

	if (cur_num(c, bytes, &n))
		return -1;
	if (kind == TEXT_KALLSYMS && c->skip_kallsyms)
		return c->mem ? 0 : kma_td_skip(c->t, n);
	if (!(text = cur_text(c, n)))
		return -1;
	if (n)	/* an empty text is not parsed */
		parse_text(c, kind, sys, text, n);
	free(text);
	return 0;
}

static int header_info(struct cur *c)
{
	char name[16];
	uint64_t n;

	if (cur_str(c, name, sizeof(name)) || strcmp(name, "header_page") ||
	    sized_text(c, 8, TEXT_HEADER_PAGE, NULL) ||
	    cur_str(c, name, sizeof(name)) || strcmp(name, "header_event") ||
	    cur_num(c, 8, &n))
		return -1;
	if (c->mem && n > c->len - c->pos)
		c->past = 1;
	return c->mem ? (c->past ? -1 : 0) : kma_td_skip(c->t, n);
}

static int ftrace_formats(struct cur *c)
{
	uint64_t n, i;

	if (cur_num(c, 4, &n))
		return -1;
	for (i = 0; i < n; i++)
		if (sized_text(c, 8, TEXT_FTRACE, NULL))
			return -1;
	return 0;
}

static int event_formats(struct cur *c)
{
	char sys[MAX_STR];
	uint64_t n, m, i, j;

	if (cur_num(c, 4, &n))
		return -1;
	for (i = 0; i < n; i++) {
		if (cur_str(c, sys, sizeof(sys)) || cur_num(c, 4, &m))
			return -1;
		for (j = 0; j < m; j++)
			if (sized_text(c, 8, TEXT_EVENT, sys))
				return -1;
	}
	return 0;
}

/* v6: the texts follow the file header in this order. */
static int v6_texts(struct cur *c)
{
	return header_info(c) || ftrace_formats(c) || event_formats(c) ||
	       sized_text(c, 4, TEXT_KALLSYMS, NULL) || sized_text(c, 4, TEXT_PRINTK, NULL) ||
	       sized_text(c, 8, TEXT_CMDLINES, NULL) ? -1 : 0;
}

/*
 * v7: each text is a section an option of the options chain points to.
 * libtracecmd 1.3 (handle_options, section_add_or_update) puts a section on
 * the front of its list when its option first comes, and reads the list
 * from the front (read_headers): the last text to appear first. Its first
 * failure stops the open, so a section after it in that order is never
 * read; the probe reads them in the same order to find the one that is.
 */
struct v7_secs {
	uint64_t	off[6];		/* by TEXT_*: the last option wins, as in libtracecmd */
	int		present[6];
	int		order[6];	/* the texts by their options' first appearance */
	int		nr;
};

static int v7_option(struct kma_td *t, unsigned int id, const unsigned char *d, uint64_t size,
		     void *ctx)
{
	struct v7_secs *s = ctx;
	int i = (int)id - KMA_TD_OPT_HEADER_INFO;

	if (id < KMA_TD_OPT_HEADER_INFO || id > KMA_TD_OPT_CMDLINES || size < 8)
		return 0;
	if (!s->present[i]) {
		s->present[i] = 1;
		s->order[s->nr++] = i;
	}
	/* an offset of 0 keeps the one before (section_add_or_update) */
	if (kma_td_get(t, d, 8))
		s->off[i] = kma_td_get(t, d, 8);
	return 0;
}

static int v7_texts(struct cur *c, const struct kma_td_head *h)
{
	static const int kinds[6] = { -1, -1, -1, TEXT_KALLSYMS, TEXT_PRINTK, TEXT_CMDLINES };
	struct v7_secs s = { .nr = 0 };
	struct kma_td_walk w = { .option = v7_option, .ctx = &s };
	uint64_t kallsyms, len;
	int i, k, ret;
	char *buf;

	if (kma_td_options(c->t, h->options, &w, &kallsyms))
		return -1;
	for (k = s.nr - 1; k >= 0; k--) {
		i = s.order[k];
		if (!s.off[i])
			return -1;	/* libtracecmd reads a section header at 0: refused */
		if (kinds[i] == TEXT_KALLSYMS && c->skip_kallsyms)
			continue;
		buf = kma_td_section(c->t, s.off[i], KMA_TD_OPT_HEADER_INFO + i, &len);
		if (!buf)
			return -1;
		c->mem = buf;
		c->len = len;
		c->pos = 0;
		if (i == 0)
			ret = header_info(c);
		else if (i == 1)
			ret = ftrace_formats(c);
		else if (i == 2)
			ret = event_formats(c);
		else
			ret = sized_text(c, i == 5 ? 8 : 4, kinds[i], NULL);
		free(buf);
		c->mem = NULL;
		/*
		 * A size past the inflated section: libtracecmd 1.3 reads it
		 * through tracecmd_compress_buffer_read(), whose int length goes
		 * negative for sizes of 2 GB and more, and copies that.
		 */
		if (c->past)
			return KMA_TD_OPT_HEADER_INFO + i;
		if (ret)
			return -1;
	}
	return 0;
}

/* In the child: parse every text; where the walker stops, libtracecmd refuses the file. */
struct texts_ctx {
	const char	*path;
	int		skip_kallsyms;
};

static int probe_texts(void *ctx)
{
	const struct texts_ctx *x = ctx;
	struct kma_td t;
	struct kma_td_head h;
	struct cur c = { .t = &t, .skip_kallsyms = x->skip_kallsyms };

	if (kma_td_open(&t, x->path) || kma_td_head(&t, &h) != KMA_TD_HEAD_OK)
		return -1;
	c.tep = tep_alloc();
	if (!c.tep)
		return -1;
	tep_set_file_bigendian(c.tep, t.big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(c.tep, h.long_size);
	tep_set_page_size(c.tep, (int)h.page_size);
	c.long_size = h.long_size;
	return h.version == 6 ? v6_texts(&c) : v7_texts(&c, &h);
}

/* Defined only in sanitizer builds (weak: NULL elsewhere). */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

int kma_probe_child(int (*fn)(void *ctx), void *ctx)
{
	int status, fd, ret;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 0;	/* cannot probe: go on */
	if (pid == 0) {
		/*
		 * The child may die: that is what it is for. Under a sanitizer
		 * and libFuzzer, their death hooks and signal handlers would take
		 * its death for the parent's and report a crash.
		 */
		if (__sanitizer_set_death_callback)
			__sanitizer_set_death_callback(NULL);
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		signal(SIGABRT, SIG_DFL);
		signal(SIGFPE, SIG_DFL);
		signal(SIGILL, SIG_DFL);
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		tep_set_loglevel(TEP_LOG_NONE);
		ret = fn(ctx);
		_exit(ret > 0 && ret < 32 ? REASON_EXIT + ret : ret ? 3 : 0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	/* 3: refused cleanly (the parent's parse refuses it too); sanitizers exit with 1 or 99 */
	if (!WIFEXITED(status))
		return -1;
	ret = WEXITSTATUS(status);
	if (ret > REASON_EXIT && ret < REASON_EXIT + 32)
		return ret - REASON_EXIT;	/* @fn's own reason */
	return ret == 0 || ret == 3 ? 0 : -1;
}

int kma_probe_headers(const char *path, int skip_kallsyms)
{
	struct texts_ctx x = { .path = path, .skip_kallsyms = skip_kallsyms };

	return kma_probe_child(probe_texts, &x);
}
