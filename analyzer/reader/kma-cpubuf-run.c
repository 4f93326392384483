// SPDX-License-Identifier: GPL-2.0
/*
 * kma-cpubuf-run.c - a trace.dat buffer read CPU by CPU (kma-cpubuf.c) and
 * merged in timestamp order into the one decoder.
 *
 * Worker threads read and inflate the CPUs' pages and cut them into records
 * (each worker owns the CPUs i with i % threads == its index, so a CPU's
 * reader is used by one thread only), a few blocks ahead of the merge. The
 * merge takes the record with the lowest timestamp, the lower CPU index on a
 * tie, as tracecmd_iterate_events() does, and hands it to the decoder on the
 * calling thread: the decoder, the matcher and the string pools stay
 * single-threaded. With one job there are no threads: the merge reads a
 * CPU's next block itself when it needs it.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "kma-reader-int.h"
#include "kma-cpubuf.h"
#include "kma-tracedat.h"
#include "kma-tracecmd.h"

struct stream {
	struct kma_cpubuf	*src;
	uint32_t		cpu;		/* its id */
	/* queue of read blocks, guarded by the run's lock */
	struct kma_pblock	*head, *tail;
	int			ready;
	int			done;		/* the reader ended (or failed) */
	int			failed;
	/* the merge's side */
	struct kma_pblock	*cur;
	uint32_t		pos;
	int			ended;		/* the merge took its last record */
	/* without threads: the block a peek read ahead (in head), or its end */
	int			peek_end;
	int			peek_failed;
};

struct cpumerge {
	struct kma_reader	*r;
	kma_record_fn		record;		/* where the merged records go */
	struct kma_cpubuf_file	f;
	struct stream		*s;
	int			ns;
	int			nthreads;	/* 0: the merge reads */
	int			started;	/* threads running */
	pthread_t		*threads;
	pthread_mutex_t		lock;
	pthread_cond_t		more;		/* a block was queued, or a stream ended */
	pthread_cond_t		room;		/* a block came back, or quit */
	struct kma_pblock	*spare;		/* blocks for reuse */
	int			depth;		/* blocks read ahead per CPU */
	int			quit;
	int			*heap;		/* stream indexes, by (ts, index) */
	int			nh;
	char			err[320];
};

struct worker {
	struct cpumerge	*p;
	int		idx;
};

static struct kma_pblock *take_spare(struct cpumerge *p)
{
	struct kma_pblock *b = p->spare;

	if (b)
		p->spare = b->next;
	return b;
}

/* The stream of this worker that most needs a block: the one with the fewest ready. */
static int pick(struct cpumerge *p, int w, int *alive)
{
	int i, best = -1;

	*alive = 0;
	for (i = w; i < p->ns; i += p->nthreads) {
		if (p->s[i].done)
			continue;
		*alive = 1;
		if (p->s[i].ready < p->depth && (best < 0 || p->s[i].ready < p->s[best].ready))
			best = i;
	}
	return best;
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct cpumerge *p = wk->p;
	struct kma_pblock *b;
	int i, alive, ret;

	pthread_mutex_lock(&p->lock);
	while (!p->quit) {
		i = pick(p, wk->idx, &alive);
		if (!alive)
			break;
		if (i < 0) {
			pthread_cond_wait(&p->room, &p->lock);
			continue;
		}
		b = take_spare(p);
		pthread_mutex_unlock(&p->lock);
		if (!b)
			b = calloc(1, sizeof(*b));
		ret = b ? kma_cpubuf_next(p->s[i].src, b) : -1;
		pthread_mutex_lock(&p->lock);
		if (ret > 0) {
			b->next = NULL;
			if (p->s[i].tail)
				p->s[i].tail->next = b;
			else
				p->s[i].head = b;
			p->s[i].tail = b;
			p->s[i].ready++;
		} else {
			p->s[i].done = 1;
			p->s[i].failed = ret < 0;
			if (b) {
				b->next = p->spare;
				p->spare = b;
			}
		}
		pthread_cond_broadcast(&p->more);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* The merge's next block of stream @i: 1, or 0 when it ended (s->failed says how). */
static int next_block(struct cpumerge *p, int i)
{
	struct stream *s = &p->s[i];
	struct kma_pblock *b;
	int ret;

	if (!p->nthreads && s->head) {	/* read ahead by a peek */
		if (s->cur) {
			s->cur->next = p->spare;
			p->spare = s->cur;
		}
		s->cur = s->head;
		s->head = NULL;
		s->pos = 0;
		return 1;
	}
	if (!p->nthreads && s->peek_end) {
		s->failed = s->peek_failed;
		return 0;
	}
	if (!p->nthreads) {
		b = s->cur ? s->cur : calloc(1, sizeof(*b));
		s->cur = b;
		ret = b ? kma_cpubuf_next(s->src, b) : -1;
		s->failed = ret < 0;
		s->pos = 0;
		return ret > 0;
	}
	pthread_mutex_lock(&p->lock);
	if (s->cur) {
		s->cur->next = p->spare;
		p->spare = s->cur;
		s->cur = NULL;
		pthread_cond_broadcast(&p->room);
	}
	while (!s->head && !s->done)
		pthread_cond_wait(&p->more, &p->lock);
	b = s->head;
	if (b) {
		s->head = b->next;
		if (!s->head)
			s->tail = NULL;
		s->ready--;
		pthread_cond_broadcast(&p->room);
	}
	pthread_mutex_unlock(&p->lock);
	s->cur = b;
	s->pos = 0;
	return b != NULL;
}

/* Moves stream @i to its next record: 1, or 0 when it has none (-1: it failed). */
static int advance(struct cpumerge *p, int i)
{
	struct stream *s = &p->s[i];

	if (s->cur && ++s->pos < s->cur->nr)
		return 1;
	do {
		if (!next_block(p, i)) {
			s->ended = 1;
			return s->failed ? -1 : 0;
		}
	} while (!s->cur->nr);
	return 1;
}

/* Without threads: stream @i's next non-empty block read into s->head; NULL at its end. */
static struct kma_pblock *read_ahead(struct cpumerge *p, struct stream *s)
{
	struct kma_pblock *b = s->head;
	int ret;

	if (b || s->peek_end)
		return b;
	b = take_spare(p);
	if (!b)
		b = calloc(1, sizeof(*b));
	do
		ret = b ? kma_cpubuf_next(s->src, b) : -1;
	while (ret > 0 && !b->nr);
	if (ret <= 0) {
		/* next_block() reports the end, or the error, after this record */
		s->peek_end = 1;
		s->peek_failed = ret < 0;
		if (b) {
			b->next = p->spare;
			p->spare = b;
		}
		return NULL;
	}
	b->next = NULL;
	s->head = b;
	return b;
}

/* With threads: stream @i's next non-empty queued block, waited for; NULL at its end. */
static struct kma_pblock *queued_ahead(struct cpumerge *p, struct stream *s)
{
	struct kma_pblock *b;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!s->head && !s->done)
			pthread_cond_wait(&p->more, &p->lock);
		b = s->head;
		if (!b || b->nr)
			break;
		/* an empty block: nothing to peek at, give it back */
		s->head = b->next;
		if (!s->head)
			s->tail = NULL;
		s->ready--;
		b->next = p->spare;
		p->spare = b;
		pthread_cond_broadcast(&p->room);
	}
	pthread_mutex_unlock(&p->lock);
	return b;
}

/*
 * The decoder's peek (kma_reader.peek): the record after the one of CPU
 * @cpu being decoded, still in its block (a later block stays queued until
 * the merge takes it). 1 with *out, 0 when the CPU has no more or the
 * block holds no kernel_stack record (the only record the peek is for).
 */
static int peek_next(void *ctx, int cpu, struct tep_record *out)
{
	struct cpumerge *p = ctx;
	struct stream *s = NULL;
	struct kma_pblock *b;
	struct kma_prec *pr;
	uint32_t pos;
	int i;

	if (p->nh && p->s[p->heap[0]].cpu == (uint32_t)cpu) {
		s = &p->s[p->heap[0]];	/* the merge decodes the heap's top */
	} else {
		for (i = 0; i < p->ns && !s; i++)
			if (p->s[i].cpu == (uint32_t)cpu)
				s = &p->s[i];
	}
	if (!s || !s->cur)
		return 0;
	b = s->cur;
	pos = s->pos + 1;
	if (pos >= b->nr) {
		b = p->nthreads ? queued_ahead(p, s) : read_ahead(p, s);
		pos = 0;
		if (!b)
			return 0;
	}
	/* the one caller only wants a kernel_stack: none in the block, none next */
	if (!b->nstack)
		return 0;
	pr = &b->recs[pos];
	/* what the decoder reads of it, no more: this runs for every kmem event */
	out->ts = pr->ts;
	out->offset = b->base + pr->at;
	out->missed_events = pr->missed;
	out->record_size = (int)pr->rsize;
	out->size = (int)pr->size;
	out->data = b->bytes + pr->data;
	out->cpu = cpu;
	return 1;
}

/* Progress by the bytes of the file the merge has gone through. */
static void progress(struct cpumerge *p)
{
	uint64_t done = 0, total = 0, size;
	int i;

	for (i = 0; i < p->ns; i++) {
		size = kma_cpubuf_size(p->s[i].src);
		total += size;
		done += p->s[i].ended ? size : p->s[i].cur ? p->s[i].cur->done : 0;
	}
	if (total)
		kma_reader_progress(p->r, (double)done / (double)total);
}

static inline uint64_t head_ts(const struct cpumerge *p, int i)
{
	return p->s[i].cur->recs[p->s[i].pos].ts;
}

static inline int before(const struct cpumerge *p, int a, int b)
{
	uint64_t ta = head_ts(p, a), tb = head_ts(p, b);

	return ta < tb || (ta == tb && a < b);
}

static void sift_down(struct cpumerge *p, int k)
{
	int c, t;

	for (;;) {
		c = 2 * k + 1;
		if (c >= p->nh)
			return;
		if (c + 1 < p->nh && before(p, p->heap[c + 1], p->heap[c]))
			c++;
		if (!before(p, p->heap[c], p->heap[k]))
			return;
		t = p->heap[c];
		p->heap[c] = p->heap[k];
		p->heap[k] = t;
		k = c;
	}
}

static void sift_up(struct cpumerge *p, int k)
{
	int t;

	while (k > 0 && before(p, p->heap[k], p->heap[(k - 1) / 2])) {
		t = p->heap[k];
		p->heap[k] = p->heap[(k - 1) / 2];
		p->heap[(k - 1) / 2] = t;
		k = (k - 1) / 2;
	}
}

/*
 * The lowest (ts, index) of the heads other than the top's: the root's
 * children hold it. While the top's next record comes before it, the top
 * stays the top and the heap needs no sift (records come in runs per CPU).
 */
static void rival(const struct cpumerge *p, uint64_t *ts, int *idx)
{
	int c = 1;

	if (p->nh < 2) {
		*ts = UINT64_MAX;
		*idx = INT_MAX;
		return;
	}
	if (p->nh > 2 && before(p, p->heap[2], p->heap[1]))
		c = 2;
	*idx = p->heap[c];
	*ts = head_ts(p, *idx);
}

static int stream_failed(struct cpumerge *p, int i)
{
	snprintf(p->err, sizeof(p->err), "%s", kma_cpubuf_error(p->s[i].src));
	return -1;
}

/*
 * How many records of its CPU ahead of the one decoded the merge hints at
 * (kma_reader_set_hint()): far enough for a prefetch to land, a few
 * hundred ns per event, and near enough that, on a trace of many CPUs, the
 * records of the others in between do not push it out of the cache first.
 */
#define HINT_AHEAD	4

static void hint(struct cpumerge *p, const struct kma_pblock *b, const struct kma_prec *h)
{
	/* a record past its page may reach past the block: not read (the decoder counts it) */
	if (!kma_record_overlong(b->base + h->at, h->rsize, p->r->page_size))
		kma_reader_hint(p->r, b->bytes + h->data, h->size);
}

/* The merge: every record in (ts, CPU index) order to the decoder. */
static int merge(struct cpumerge *p)
{
	struct tep_record rec;
	struct kma_prec *pr;
	struct stream *s;
	uint64_t n = 0, lim_ts, t;
	int i, ret, lim_i;

	for (i = 0; i < p->ns; i++) {
		ret = advance(p, i);
		if (ret < 0)
			return stream_failed(p, i);
		if (ret) {
			p->heap[p->nh++] = i;
			sift_up(p, p->nh - 1);
		}
	}
	memset(&rec, 0, sizeof(rec));
	rival(p, &lim_ts, &lim_i);
	while (p->nh) {
		i = p->heap[0];
		s = &p->s[i];
		pr = &s->cur->recs[s->pos];
		rec.ts = pr->ts;
		rec.offset = s->cur->base + pr->at;
		rec.missed_events = pr->missed;
		rec.record_size = (int)pr->rsize;
		rec.size = (int)pr->size;
		rec.data = s->cur->bytes + pr->data;
		rec.cpu = (int)s->cpu;
		p->r->stack_none = !s->cur->nstack && s->pos + 1 < s->cur->nr;
		if (p->r->hint && s->pos + HINT_AHEAD < s->cur->nr)
			hint(p, s->cur, &s->cur->recs[s->pos + HINT_AHEAD]);
		if (p->record(p->r, &rec))
			return -1;
		if ((++n & 0xffff) == 0 && p->r->progress)
			progress(p);
		ret = advance(p, i);
		if (ret < 0)
			return stream_failed(p, i);
		if (ret) {
			t = head_ts(p, i);
			if (t < lim_ts || (t == lim_ts && i < lim_i))
				continue;	/* still the lowest: the heap holds */
		} else {
			p->heap[0] = p->heap[--p->nh];
		}
		sift_down(p, 0);
		rival(p, &lim_ts, &lim_i);
	}
	return 0;
}

static void stop_threads(struct cpumerge *p);

/* Each CPU's damage found by its reader, into the trace's (after the readers stopped). */
static void add_damage(struct cpumerge *p)
{
	const struct kma_damage *d;
	struct kma_damage *to;
	int i;

	for (i = 0; i < p->ns; i++) {
		d = kma_cpubuf_damage(p->s[i].src);
		if (p->s[i].cpu >= (uint32_t)p->r->info.cpus)
			continue;
		to = &p->r->info.damage[p->s[i].cpu];
		to->zero_pages += d->zero_pages;
		if (d->jump_pages && !to->jump_pages) {
			to->jump_offset = d->jump_offset;
			to->jump_inflated = d->jump_inflated;
		}
		to->jump_pages += d->jump_pages;
		to->jump_records += d->jump_records;
	}
}

/* The locks and the workers; on failure nothing is left running. */
static int start_threads(struct cpumerge *p, struct worker *wk)
{
	int i;

	if (pthread_mutex_init(&p->lock, NULL))
		return -1;
	if (pthread_cond_init(&p->more, NULL)) {
		pthread_mutex_destroy(&p->lock);
		return -1;
	}
	if (pthread_cond_init(&p->room, NULL)) {
		pthread_cond_destroy(&p->more);
		pthread_mutex_destroy(&p->lock);
		return -1;
	}
	for (i = 0; i < p->nthreads; i++) {
		wk[i].p = p;
		wk[i].idx = i;
		if (pthread_create(&p->threads[i], NULL, worker_main, &wk[i])) {
			/* the CPUs of a missing worker would be read by none */
			stop_threads(p);
			return -1;
		}
		p->started++;
	}
	return 0;
}

static void stop_threads(struct cpumerge *p)
{
	int i;

	pthread_mutex_lock(&p->lock);
	p->quit = 1;
	pthread_cond_broadcast(&p->room);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < p->started; i++)
		pthread_join(p->threads[i], NULL);
	pthread_cond_destroy(&p->room);
	pthread_cond_destroy(&p->more);
	pthread_mutex_destroy(&p->lock);
}

static void free_blocks(struct kma_pblock *b)
{
	struct kma_pblock *n;

	for (; b; b = n) {
		n = b->next;
		kma_pblock_free(b);
	}
}

static void cpumerge_free(struct cpumerge *p)
{
	int i;

	for (i = 0; p->s && i < p->ns; i++) {
		kma_cpubuf_free(p->s[i].src);
		free_blocks(p->s[i].head);
		kma_pblock_free(p->s[i].cur);
	}
	free_blocks(p->spare);
	free(p->s);
	free(p->heap);
	free(p->threads);
}

/* The streams of the buffer's CPUs that have data, in the file's order. */
static int cpumerge_init(struct cpumerge *p, struct kma_reader *r, const struct kma_td_buf *b)
{
	uint32_t i;

	p->s = calloc(b->nr_cpus ? b->nr_cpus : 1, sizeof(*p->s));
	p->heap = calloc(b->nr_cpus ? b->nr_cpus : 1, sizeof(*p->heap));
	if (!p->s || !p->heap)
		return -1;
	for (i = 0; i < b->nr_cpus; i++) {
		if (!b->cpus[i].size)
			continue;
		p->s[p->ns].cpu = b->cpus[i].cpu;
		p->s[p->ns].src = kma_cpubuf_alloc(&p->f, b, &b->cpus[i]);
		if (!p->s[p->ns++].src)
			return -1;
	}
	/* read-ahead bounds memory: 4 blocks of about 64 pages a CPU, 2 on big machines */
	p->depth = p->ns <= 16 ? 4 : 2;
	p->nthreads = r->jobs > 1 ? (r->jobs < p->ns ? r->jobs : p->ns) : 0;
	if (p->nthreads <= 1 && r->jobs > 1 && p->ns > 0)
		p->nthreads = 1;	/* one CPU: still read it ahead on a thread */
	p->threads = calloc(p->nthreads ? p->nthreads : 1, sizeof(*p->threads));
	return p->threads ? 0 : -1;
}

int kma_cpubuf_run(struct kma_reader *r, const struct kma_td_buf *b, kma_record_fn record,
		   struct kma_err *err)
{
	struct cpumerge p;
	struct worker *wk = NULL;
	int ret = -2;

	memset(&p, 0, sizeof(p));
	p.r = r;
	p.record = record;
	p.f = r->cpubuf_file;
	if (cpumerge_init(&p, r, b))
		goto out;
	r->info.jobs = p.nthreads ? p.nthreads : 1;
	if (p.nthreads) {
		wk = calloc(p.nthreads, sizeof(*wk));
		if (!wk || start_threads(&p, wk))
			goto out;
	}
	r->peek = peek_next;
	r->peek_ctx = &p;
	ret = merge(&p);
	r->peek = NULL;
	r->stack_none = 0;
	if (p.nthreads)
		stop_threads(&p);
	add_damage(&p);
	if (ret && p.err[0]) {
		kma_err_set(err, KMA_ERR_OTHER, "%s", p.err);
		ret = -2;
	}
out:
	if (ret == -2 && !p.err[0])
		kma_err_nomem(err);
	free(wk);
	cpumerge_free(&p);
	return ret;
}

/* Why the buffer cannot be read by pages, or NULL. */
static const char *why_not_pages(struct kma_reader *r)
{
	if (r->fopts.libtracecmd)
		return "--libtracecmd";
	if (r->layout.ts_options)
		return "the file has options that shift or scale its timestamps";
	if (tep_is_old_format(r->tep) || tep_get_header_timestamp_size(r->tep) != 8)
		return "an old ring-buffer page format";
	return NULL;
}

/*
 * The pages the structure check left to the page reader (kma-check-v6.c,
 * kma-check-v7.c), checked after all when libtracecmd reads them instead:
 * it trusts every page it reads.
 */
static int pages_again(struct kma_reader *r, const char *path, struct kma_err *err)
{
	struct kma_td t;
	int ret;

	if (r->layout.pages_checked)
		return 0;
	if (r->info.file_version == 7)
		return kma_td_check_v7(path, err, r->file_warn, sizeof(r->file_warn), NULL);
	if (kma_td_open(&t, path))
		return kma_err_set(err, KMA_ERR_OTHER, "cannot open it again to check its pages: %s",
				   strerror(errno));
	ret = kma_td_check_v6(t.fd, t.size, err, NULL);
	kma_td_close(&t);
	return ret;
}

static int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

int kma_cpubuf_setup(struct kma_reader *r, const char *path, struct kma_err *err)
{
	struct tracecmd_input *h = r->top ? r->top : r->handle;
	struct kma_cpubuf_file *f = &r->cpubuf_file;
	const char *name = "", *why = why_not_pages(r);
	const struct kma_td_buf *b = NULL;
	struct stat st;

	if (r->top && r->buffer_idx >= 0)
		name = tracecmd_buffer_instance_name(r->top, r->buffer_idx);
	if (!why && (!name || !(b = kma_layout_find(&r->layout, name))))
		why = "its event data was not found";
	if (!why && stat(path, &st))
		why = "it cannot be opened again";
	if (why) {
		r->info.why_libtracecmd = why;
		return pages_again(r, path, err);
	}
	f->path = path;
	f->tep = r->tep;
	if (tracecmd_get_file_compress_proto(h, &f->cname, &f->cver) || !f->cname) {
		f->cname = "none";
		f->cver = "";
	}
	f->long_size = tracecmd_long_size(r->handle) == 8 ? 8 : 4;
	f->big_endian = tep_is_file_bigendian(r->tep);
	f->stack_id = r->stack_ev < 0 ? -1 :
		      r->swap ? __builtin_bswap16((uint16_t)r->stack_ev) : r->stack_ev;
	f->file_size = (uint64_t)st.st_size;
	r->jobs = r->fopts.jobs > 0 ? r->fopts.jobs : online_cpus();
	r->cpubuf_buf = b;
	return 0;
}
