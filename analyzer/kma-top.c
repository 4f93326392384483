// SPDX-License-Identifier: GPL-2.0
/*
 * kma-top.c - the --live view on a terminal (kma-top.h).
 *
 * The terminal goes to "cbreak" mode: no line buffering and no echo, so a
 * key acts when pressed, but ISIG stays on, so Ctrl-C still sends SIGINT
 * and stops the run through kma-signals.c as it always did. What was there
 * before is kept in one static copy, because a signal handler and atexit()
 * must be able to put it back and they can reach nothing else.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "kma-top.h"

struct kma_top {
	FILE			*out;
	int			key_fd;		/* -1: no keys */
	int			tty_out;	/* frames drawn in place */
	int			help;		/* the full keys line */
	int			have_prev;
	enum kma_sort		sort;
	uint64_t		limit;
	char			*filter;
	volatile int		*quit;
	struct kma_top_snap	last;		/* at the last interval's frame */
	struct kma_top_snap	prev;		/* at the one before */
	int			have_last;
	int			drawn;		/* a frame is on the terminal */
};

/* The terminal as we found it: what the handlers put back. */
static struct termios saved_tio, raw_tio;
static int tio_fd = -1;
static volatile sig_atomic_t tio_raw;

/* Async-signal-safe: tcsetattr() is. */
static void tio_restore(void)
{
	if (tio_raw)
		tcsetattr(tio_fd, TCSADRAIN, &saved_tio);
	tio_raw = 0;
}

/* Ctrl-Z: the shell gets the terminal as it was; back in key mode on fg. */
static void on_tstp(int sig)
{
	int was = tio_raw;
	sigset_t set;

	tio_restore();
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	raise(sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);	/* stops here until SIGCONT */
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(sig, on_tstp);
	if (was && !tcsetattr(tio_fd, TCSADRAIN, &raw_tio))
		tio_raw = 1;
}

/* Ctrl-\ and the like: put the terminal back, then die as the signal says. */
static void on_fatal(int sig)
{
	tio_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Key mode on @fd when it is our terminal and we are in its foreground. */
static int tio_enter(int fd)
{
	static int hooked;

	if (fd < 0 || !isatty(fd) || tcgetpgrp(fd) != getpgrp() || tcgetattr(fd, &saved_tio))
		return -1;
	raw_tio = saved_tio;
	raw_tio.c_lflag &= ~(ICANON | ECHO);
	raw_tio.c_cc[VMIN] = 1;
	raw_tio.c_cc[VTIME] = 0;
	tio_fd = fd;
	if (!hooked) {
		hooked = 1;
		atexit(tio_restore);
		signal(SIGTSTP, on_tstp);
		signal(SIGQUIT, on_fatal);
	}
	if (tcsetattr(fd, TCSADRAIN, &raw_tio))
		return -1;
	tio_raw = 1;
	return 0;
}

struct kma_top *kma_top_new(const struct kma_top_opts *o)
{
	struct kma_top *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->out = o->out;
	t->sort = o->sort;
	t->limit = o->limit;
	t->quit = o->quit;
	t->tty_out = isatty(fileno(o->out));
	if (o->filter && !(t->filter = strdup(o->filter))) {
		free(t);
		return NULL;
	}
	t->key_fd = tio_enter(o->key_fd) ? -1 : o->key_fd;
	/*
	 * A reader gone (| head) would kill us with the tracefs instance still
	 * tracing; as an error instead, the frame stops the run (kma_top_frame)
	 * and the normal way out removes the instance.
	 */
	signal(SIGPIPE, SIG_IGN);
	return t;
}

int kma_top_key_fd(const struct kma_top *t)
{
	return t->key_fd;
}

enum kma_sort kma_top_sort(const struct kma_top *t)
{
	return t->sort;
}

int kma_top_key(struct kma_top *t, int c)
{
	static const struct { char key; enum kma_sort sort; } keys[] = {
		{ 't', KMA_SORT_TOTAL }, { 's', KMA_SORT_SLACK }, { 'n', KMA_SORT_NET },
		{ 'a', KMA_SORT_ALLOCS }, { 'f', KMA_SORT_FREES },
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (c == keys[i].key) {
			t->sort = keys[i].sort;
			return 1;
		}
	}
	switch (c) {
	case 'q':
		*t->quit = 1;
		return 0;
	case 'h': case '?':
		t->help = !t->help;
		return 1;
	case '\f':		/* Ctrl-L: a garbled screen */
		return 1;
	}
	return 0;
}

static const char *keys_line(const struct kma_top *t)
{
	if (t->key_fd < 0)
		return "Ctrl-C stops and writes the report (no keys: stdin is not this terminal)";
	if (t->help)
		return "keys: t total  s slack  n net  a allocs  f frees (sort)  h hide  q quit";
	return "h for the keys, q to quit and write the report";
}

/* -n, or the rows the terminal has below the header; 20 off a terminal. And its width. */
static uint64_t rows_of(const struct kma_top *t, const struct kma_top_in *in,
		       unsigned int *width)
{
	struct winsize ws;
	int header = 6 + !!in->filter + !!in->lost;

	*width = 0;
	if (!t->tty_out || ioctl(fileno(t->out), TIOCGWINSZ, &ws) || !ws.ws_row)
		return t->limit ? t->limit : 20;
	*width = ws.ws_col;
	if (t->limit)
		return t->limit;
	return ws.ws_row > header + 3 ? (uint64_t)(ws.ws_row - header - 1) : 3;
}

/*
 * On a terminal, every line cut one short of its width: a wrapped line
 * would scroll the header away (the rows already fit, the header may not).
 */
static int draw(struct kma_top *t, const struct kma_top_in *in, const struct kma_top_snap *base)
{
	char *buf = NULL, *line;
	size_t len = 0, n;
	FILE *f;

	if (!in->width)
		return kma_top_render(t->out, in, base);
	f = open_memstream(&buf, &len);
	if (!f)
		return -1;
	if (kma_top_render(f, in, base) | fclose(f)) {
		free(buf);
		return -1;
	}
	for (line = buf; *line; line += n + (line[n] == '\n')) {
		n = strcspn(line, "\n");
		fprintf(t->out, "%.*s\n", (int)(n < in->width - 1 ? n : in->width - 1), line);
	}
	free(buf);
	return 0;
}

int kma_top_frame(struct kma_top *t, struct kma_top_in *in, int redraw)
{
	const struct kma_top_snap *base;
	struct kma_top_snap tmp;

	in->sort = t->sort;
	in->filter = t->filter;
	in->keys = keys_line(t);
	in->limit = rows_of(t, in, &in->width);
	/* a redraw keeps the interval it shows: rates since the frame before */
	if (redraw)
		base = t->have_prev ? &t->prev : NULL;
	else
		base = t->have_last ? &t->last : NULL;
	if (t->tty_out)
		fputs("\033[H\033[J", t->out);
	if (draw(t, in, base))
		return -1;
	t->drawn = 1;
	if (fflush(t->out) || ferror(t->out)) {
		*t->quit = 1;	/* nobody reads the frames: stop, as Ctrl-C */
		clearerr(t->out);	/* the report's own write then says why */
		return -1;
	}
	if (redraw)
		return 0;
	/* the last becomes the previous; its storage is reused for the new last */
	tmp = t->prev;
	t->prev = t->last;
	t->have_prev = t->have_last;
	t->last = tmp;
	if (kma_top_snap_take(&t->last, in)) {
		t->have_last = 0;
		return -1;
	}
	t->have_last = 1;
	return 0;
}

void kma_top_end(struct kma_top *t)
{
	if (!t)
		return;
	if (t->key_fd >= 0)
		tio_restore();
	/* the report goes below the last frame, not glued to it */
	if (t->drawn && t->tty_out)
		fputc('\n', t->out);
	t->drawn = 0;
}

void kma_top_free(struct kma_top *t)
{
	if (!t)
		return;
	kma_top_end(t);
	kma_top_snap_free(&t->last);
	kma_top_snap_free(&t->prev);
	free(t->filter);
	free(t);
}
