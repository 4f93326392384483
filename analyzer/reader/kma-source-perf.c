// SPDX-License-Identifier: GPL-2.0
/*
 * kma-source-perf.c - the perf.data source: perf record's file (perf kmem
 * record, perf record -e 'kmem:*') read directly. The tracepoint samples'
 * raw data is the ring-buffer record of the event, common fields first, so
 * each becomes a tep_record for the same decoder as a trace.dat's
 * (kma-decode.c); the formats come from the file's tracing data
 * (kma-perf-tracing.c).
 *
 * Samples are written per CPU buffer, not in global time order. As perf's
 * ordered_events: they are queued and, at each FINISHED_ROUND, the ones up
 * to the newest time of the round before are handed on, since every buffer
 * was drained once in between; a queue grown past QUEUE_MAX hands its
 * oldest half on early. COMM and FORK records go through the same queue, so
 * a sample's comm is its thread's name at the sample's time, as perf script
 * prints it (a new thread has its parent's until it execs). LOST records count
 * as lost events of their CPU (LOST_SAMPLES, the same losses told again, only
 * in a file without them); the kernel part of a sample's callchain is its stack. The kernel's and modules' MMAP records
 * before the first sample are read at open, for the symbol side.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kma-grow.h"
#include "kma-perfdata.h"
#include "kma-probe.h"
#include "kma-reader-int.h"

#define QUEUE_MAX	(1u << 20)	/* queued records before the oldest half go early */
#define CHUNK_SIZE	(1u << 20)	/* queued records are carved from chunks this big */
#define SPARE_MAX	16		/* empty chunks kept: not mapped and faulted anew */
#define ID_CACHE	64		/* sample ids whose attribute is kept at hand */

enum { Q_SAMPLE, Q_COMM, Q_FORK };

struct q_chunk;

struct q_item {
	uint64_t	ts;
	struct q_chunk	*chunk;		/* the one it was carved from */
	int		kind;
	int		cpu;
	int		tid;
	uint32_t	nr_frames;
	uint32_t	len;		/* raw bytes, or the comm's */
	uint64_t	data[];		/* frames, then the raw data or comm */
};

/*
 * Queued records are carved from chunks, not malloc'd one by one: a chunk
 * goes back (to the spares, or freed) once the last record in it is handed
 * on, so memory stays bounded by what is queued, as with one malloc each.
 */
struct q_chunk {
	struct q_chunk	*next;		/* among the spares */
	size_t		used, cap;
	size_t		live;		/* records in it still queued */
	unsigned char	mem[];
};

/* A queue entry: the key inline, so that sorting does not touch the records. */
struct q_ent {
	uint64_t	ts;
	uint64_t	seq;		/* file order among equal times */
	struct q_item	*it;
};

struct kma_perf {
	struct kma_pd		pd;
	struct kma_pin		in;
	struct q_ent		*queue;		/* in the order read, till sorted */
	struct q_ent		*tmp;		/* scratch for the sort */
	size_t			nr, cap, tcap;
	struct q_chunk		*chunk;		/* the one records are carved from now */
	struct q_chunk		*spare;		/* empty ones kept for reuse */
	size_t			nr_spare;
	uint64_t		seq, max_ts, next_flush, last_flush;
	uint64_t		unordered;	/* records older than what was handed on */
	/* sample id -> attribute, direct-mapped: perf numbers the ids in a row */
	struct { uint64_t id; const struct kma_pd_attr *attr; } ids[ID_CACHE];
	struct kma_kernel_map	*maps;
	size_t			nr_maps, cap_maps;
	int			sampled;	/* a sample was read: MMAPs from here on are new */
	uint64_t		lost_recs;	/* LOST records' events, summed */
	uint64_t		*lost_samples;	/* per CPU: LOST_SAMPLES' (the same losses) */
	uint64_t		unknown;	/* records of types perf does not define */
	uint32_t		unknown_type;	/* the first one's */
	char			warn[400];
};

int kma_perf_is(const char *path)
{
	unsigned char b[16];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n = fd >= 0 ? pread(fd, b, sizeof(b), 0) : -1;

	if (fd >= 0)
		close(fd);
	return n >= 8 && (kma_pd_magic(b, (size_t)n) || !memcmp(b, "2ELIFREP", 8) ||
			  !memcmp(b, "PERFFILE", 8));
}

const struct kma_kernel_map *kma_reader_kernel_maps(const struct kma_reader *r, size_t *n)
{
	*n = r->perf ? r->perf->nr_maps : 0;
	return r->perf ? r->perf->maps : NULL;
}

const struct kma_build_id *kma_reader_build_ids(const struct kma_reader *r, size_t *n)
{
	*n = r->perf ? r->perf->pd.nr_build_ids : 0;
	return r->perf ? r->perf->pd.build_ids : NULL;
}

/* ---- the queue: sorted by (time, file order) at each flush ------------ */

static int before(const struct q_ent *a, const struct q_ent *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

static int q_push(struct kma_perf *p, struct q_item *it)
{
	/* the sort's scratch grows with the queue, so that flushing cannot fail */
	if ((p->nr == p->cap || p->nr == p->tcap) &&
	    (kma_grow(&p->queue, &p->cap, p->nr, sizeof(*p->queue), 1024) ||
	     kma_grow(&p->tmp, &p->tcap, p->nr, sizeof(*p->tmp), 1024)))
		return -1;
	p->queue[p->nr].ts = it->ts;
	p->queue[p->nr].seq = p->seq++;
	p->queue[p->nr].it = it;
	p->nr++;
	if (it->ts > p->max_ts)
		p->max_ts = it->ts;
	if (it->ts < p->last_flush)
		p->unordered++;
	return 0;
}

/* Merges the runs [a, m) and [m, e) of @src into @dst from a. */
static void q_merge(const struct q_ent *src, struct q_ent *dst, size_t a, size_t m, size_t e)
{
	size_t i = a, j = m, k = a;

	while (i < m && j < e)
		dst[k++] = before(&src[j], &src[i]) ? src[j++] : src[i++];
	while (i < m)
		dst[k++] = src[i++];
	while (j < e)
		dst[k++] = src[j++];
}

/*
 * The queue sorted by (time, file order): a merge sort of the runs already
 * in order. Each CPU's records come in time order and what a flush left is
 * sorted, so a round holds about a run per CPU: few passes, and no record
 * is touched, only the keys.
 */
static void q_sort(struct kma_perf *p)
{
	struct q_ent *src = p->queue, *dst = p->tmp, *t;
	size_t n = p->nr, a, m, e;

	if (n < 2)		/* no run to merge, and no pass would find it sorted */
		return;
	for (;;) {
		for (a = 0; a < n; a = e) {
			for (m = a + 1; m < n && !before(&src[m], &src[m - 1]); m++)
				;
			if (a == 0 && m == n)
				goto sorted;
			for (e = m < n ? m + 1 : n; e < n && !before(&src[e], &src[e - 1]); e++)
				;
			q_merge(src, dst, a, m, e);
		}
		t = src;
		src = dst;
		dst = t;
	}
sorted:
	if (src != p->queue) {	/* the arrays swapped: their sizes too */
		size_t c = p->cap;

		p->cap = p->tcap;
		p->tcap = c;
		p->tmp = p->queue;
		p->queue = src;
	}
}

/* A record handed on: its chunk goes back when it held the last queued one. */
static void q_release(struct kma_perf *p, struct q_item *it)
{
	struct q_chunk *c = it->chunk;

	if (--c->live || c == p->chunk)
		return;
	if (p->nr_spare < SPARE_MAX && c->cap == CHUNK_SIZE) {
		c->next = p->spare;
		p->spare = c;
		p->nr_spare++;
	} else {
		free(c);
	}
}

/* A thread's new name, from its COMM record at its time. */
static int set_comm(struct kma_reader *r, int tid, const char *comm)
{
	uint32_t *idx = kma_map_find(&r->comm_map, (uint64_t)(uint32_t)tid);
	const char *c;

	r->last_comm = NULL;
	if (!idx)
		return kma_reader_remember(r, &r->comm_map, &r->comms, &r->nr_comms,
					   &r->cap_comms, (uint64_t)(uint32_t)tid, comm) ? 0 : -1;
	c = kma_strpool_intern(r->pool, comm, strlen(comm));
	if (!c)
		return -1;
	r->comms[*idx] = c;
	return 0;
}

static int emit(struct kma_reader *r, struct q_item *it)
{
	struct tep_record rec;
	int ret;

	if (it->kind == Q_FORK) {	/* the parent's name, if it has one by now */
		uint32_t *idx = kma_map_find(&r->comm_map, it->data[0]);

		if (!idx || it->data[0] == (uint64_t)(uint32_t)it->tid)
			return 0;
		if (set_comm(r, it->tid, r->comms[*idx])) {
			r->oom = 1;
			r->stopped = 1;
			return -1;
		}
		return 0;
	}
	if (it->kind == Q_COMM) {
		if (set_comm(r, it->tid, (const char *)it->data)) {
			r->oom = 1;
			r->stopped = 1;
			return -1;
		}
		return 0;
	}
	memset(&rec, 0, sizeof(rec));
	rec.ts = it->ts;
	rec.cpu = it->cpu;
	rec.size = (int)it->len;
	rec.record_size = (int)it->len;
	rec.data = it->data + it->nr_frames;
	r->ext_stack = it->nr_frames ? it->data : NULL;
	r->ext_depth = it->nr_frames;
	ret = kma_reader_decode(r, &rec);
	r->ext_stack = NULL;
	return ret;
}

/* Hands on the queued records up to time @until (all: UINT64_MAX); -1 when stopped. */
static int q_flush(struct kma_reader *r, uint64_t until, size_t most)
{
	struct kma_perf *p = r->perf;
	struct q_item *it;
	size_t i = 0, n;
	int ret;

	q_sort(p);
	n = p->nr < most ? p->nr : most;
	for (ret = 0; i < n && p->queue[i].ts <= until; i++) {
		it = p->queue[i].it;
		p->last_flush = it->ts;
		ret = r->stopped ? -1 : emit(r, it);
		q_release(p, it);
		if (ret) {
			i++;
			break;
		}
	}
	/* the rest stays, sorted, for the next flush (no queue yet: nothing to move) */
	if (i && i < p->nr)
		memmove(p->queue, p->queue + i, (p->nr - i) * sizeof(*p->queue));
	p->nr -= i;
	return ret ? -1 : 0;
}

static void q_free(struct kma_perf *p)
{
	while (p->nr)
		q_release(p, p->queue[--p->nr].it);
	free(p->queue);
	free(p->tmp);
	p->tmp = NULL;
	free(p->chunk);
	p->queue = NULL;
	p->chunk = NULL;
	while (p->spare) {
		struct q_chunk *c = p->spare;

		p->spare = c->next;
		free(c);
	}
	p->nr_spare = 0;
}

/* ---- records -------------------------------------------------------- */

/* The attribute of sample id @id, through the cache: a map look-up per sample costs. */
static const struct kma_pd_attr *attr_of(struct kma_perf *p, uint64_t id)
{
	unsigned int slot = (unsigned int)(id % ID_CACHE);

	if (p->ids[slot].attr && p->ids[slot].id == id)
		return p->ids[slot].attr;
	p->ids[slot].id = id;
	p->ids[slot].attr = kma_pd_attr_of(&p->pd, id);
	return p->ids[slot].attr;
}

/* A sample's id, its attribute and its fields; -2: an id no attribute has. */
static int parse_sample(struct kma_perf *p, const unsigned char *rec, uint16_t size,
			struct kma_perf_sample *s, const struct kma_pd_attr **attr)
{
	const struct kma_pd *pd = &p->pd;

	memset(s, 0, sizeof(*s));
	if (pd->id_pos >= 0) {
		if ((uint64_t)pd->id_pos * 8 + 16 > size)
			return -1;
		memcpy(&s->id, rec + 8 + pd->id_pos * 8, 8);
	}
	*attr = attr_of(p, s->id);
	if (!*attr)
		return -2;
	return kma_perf_sample_parse(*attr, rec, size, s);
}

static struct q_item *q_new(struct kma_perf *p, uint64_t ts, int kind, uint32_t frames,
			    uint32_t len)
{
	size_t need = (sizeof(struct q_item) + frames * 8 + len + 1 + 7) & ~(size_t)7;
	struct q_chunk *c = p->chunk;
	struct q_item *it;

	if (!c || c->cap - c->used < need) {
		if (c && !c->live && c->cap >= need) {
			c->used = 0;	/* all handed on: start it again */
		} else if (p->spare && p->spare->cap >= need) {
			c = p->spare;
			p->spare = c->next;
			p->nr_spare--;
		} else {
			size_t cap = need > CHUNK_SIZE ? need : CHUNK_SIZE;

			c = malloc(sizeof(*c) + cap);
			if (!c)
				return NULL;
			c->cap = cap;
			c->used = 0;
			c->live = 0;
		}
		if (c != p->chunk) {
			c->used = 0;
			c->live = 0;
			if (p->chunk && !p->chunk->live)
				free(p->chunk);
			p->chunk = c;
		}
		if (c->cap - c->used < need)
			return NULL;
	}
	it = (struct q_item *)(c->mem + c->used);
	c->used += need;
	c->live++;
	it->chunk = c;
	it->ts = ts;
	it->kind = kind;
	it->cpu = 0;
	it->tid = 0;
	it->nr_frames = frames;
	it->len = len;
	return it;
}

static int bad_record(struct kma_err *err, const char *what, uint64_t off, int in_comp)
{
	return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: %s at %" PRIu64 "%s", what,
			   off, in_comp ? " (in the records that compressed record inflates to)" : "");
}

static int on_sample(struct kma_reader *r, const unsigned char *rec, uint16_t size,
		     uint64_t off, struct kma_err *err)
{
	struct kma_perf *p = r->perf;
	const struct kma_pd_attr *a;
	struct q_item *it;
	struct kma_perf_sample s;
	int ret = parse_sample(p, rec, size, &s, &a);

	if (ret == -2)
		return bad_record(err, "a sample with an id no event has", off, p->in.in_comp);
	if (ret)
		return bad_record(err, "a sample whose fields run past its end", off,
				  p->in.in_comp);
	if (!s.raw)
		return 0;	/* no tracepoint data (perf's dummy event) */
	if (s.cpu >= (uint32_t)r->info.cpus)
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: a sample on CPU "
				   "%" PRIu32 " at %" PRIu64 ", the file has %d CPUs", s.cpu,
				   off, r->info.cpus);
	it = q_new(p, s.ts, Q_SAMPLE, s.nr_ips, s.raw_len);
	if (!it)
		return kma_err_nomem(err);
	it->cpu = (int)s.cpu;
	it->tid = (int)s.tid;
	if (s.nr_ips)	/* no callchain: ips is NULL, which memcpy may not be given */
		memcpy(it->data, s.ips, s.nr_ips * 8);
	memcpy(it->data + s.nr_ips, s.raw, s.raw_len);
	if (q_push(p, it)) {
		q_release(p, it);
		return kma_err_nomem(err);
	}
	return 0;
}

/* COMM: u32 pid, tid, the name, then the sample ids. */
static int on_comm(struct kma_reader *r, const unsigned char *rec, uint16_t size,
		   struct kma_err *err)
{
	struct q_item *it;
	const char *name = (const char *)rec + 16;
	uint32_t tid;
	uint64_t ts;
	size_t len;
	int cpu;

	if (size <= 16)
		return 0;
	len = strnlen(name, size - 16);
	memcpy(&tid, rec + 12, 4);
	kma_perf_record_id(&r->perf->pd, rec, size, &ts, &cpu);
	it = q_new(r->perf, ts, Q_COMM, 0, (uint32_t)len + 1);
	if (!it)
		return kma_err_nomem(err);
	it->tid = (int)tid;
	memcpy(it->data, name, len);
	((char *)it->data)[len] = '\0';
	if (q_push(r->perf, it)) {
		q_release(r->perf, it);
		return kma_err_nomem(err);
	}
	return 0;
}

/* FORK: u32 pid, ppid, tid, ptid, u64 time, then the sample ids. */
static int on_fork(struct kma_reader *r, const unsigned char *rec, uint16_t size,
		   struct kma_err *err)
{
	struct q_item *it;
	uint32_t tid, ptid;
	uint64_t ts;
	int cpu;

	if (size < 32)
		return 0;
	memcpy(&tid, rec + 16, 4);
	memcpy(&ptid, rec + 20, 4);
	kma_perf_record_id(&r->perf->pd, rec, size, &ts, &cpu);
	it = q_new(r->perf, ts, Q_FORK, 0, 8);
	if (!it)
		return kma_err_nomem(err);
	it->tid = (int)tid;
	it->data[0] = ptid;
	if (q_push(r->perf, it)) {
		q_release(r->perf, it);
		return kma_err_nomem(err);
	}
	return 0;
}

/* MMAP and MMAP2 of the kernel and its modules (pid -1): kept for the symbol side. */
static int on_mmap(struct kma_reader *r, const unsigned char *rec, uint16_t size, int two,
		   struct kma_err *err)
{
	struct kma_perf *p = r->perf;
	unsigned int at = two ? 72 : 40;
	struct kma_kernel_map *m;
	int32_t pid;
	size_t len;

	if (size <= at)
		return 0;
	memcpy(&pid, rec + 8, 4);
	if (pid != -1)
		return 0;
	if (kma_grow(&p->maps, &p->cap_maps, p->nr_maps, sizeof(*p->maps), 16))
		return kma_err_nomem(err);
	m = &p->maps[p->nr_maps];
	memcpy(&m->start, rec + 16, 8);
	memcpy(&m->len, rec + 24, 8);
	memcpy(&m->pgoff, rec + 32, 8);
	len = strnlen((const char *)rec + at, size - at);
	m->name = kma_strpool_intern(r->pool, (const char *)rec + at, len);
	if (!m->name)
		return kma_err_nomem(err);
	p->nr_maps++;
	return 0;
}

/*
 * LOST (u64 id, u64 lost) and LOST_SAMPLES (u64 lost): events the kernel
 * dropped. perf record writes LOST_SAMPLES at its end from each event's
 * PERF_FORMAT_LOST count: the same losses the LOST records told as they
 * happened (perf script and perf report count them apart). So the LOST
 * records are the count, and LOST_SAMPLES only where a file has none.
 */
static void on_lost(struct kma_reader *r, const unsigned char *rec, uint16_t size, int samples)
{
	struct kma_perf *p = r->perf;
	uint64_t lost, ts;
	int cpu;

	if (size < (samples ? 16 : 24))
		return;
	memcpy(&lost, rec + (samples ? 8 : 16), 8);
	kma_perf_record_id(&p->pd, rec, size, &ts, &cpu);
	if (cpu < 0 || cpu >= r->info.cpus)
		cpu = 0;
	if (!samples) {
		p->lost_recs += lost;
		r->info.lost[cpu].dropped += lost;
	} else if (p->lost_samples || (p->lost_samples = calloc(r->info.cpus, sizeof(uint64_t)))) {
		p->lost_samples[cpu] += lost;
	}
}

/* LOST_SAMPLES count only in a file without LOST records. */
static void lost_samples_end(struct kma_reader *r)
{
	struct kma_perf *p = r->perf;
	int cpu;

	for (cpu = 0; p->lost_samples && !p->lost_recs && cpu < r->info.cpus; cpu++)
		r->info.lost[cpu].dropped += p->lost_samples[cpu];
}

static int on_record(struct kma_reader *r, const unsigned char *rec, uint64_t off,
		     struct kma_err *err)
{
	struct kma_perf *p = r->perf;
	uint16_t size;
	uint32_t type;

	memcpy(&type, rec, 4);
	memcpy(&size, rec + 6, 2);
	switch (type) {
	case KMA_PR_SAMPLE:
		p->sampled = 1;
		return on_sample(r, rec, size, off, err);
	case KMA_PR_COMM:
		return on_comm(r, rec, size, err);
	case KMA_PR_FORK:
		return on_fork(r, rec, size, err);
	case KMA_PR_MMAP:
	case KMA_PR_MMAP2:	/* those before the first sample: kept at open */
		return p->sampled ? on_mmap(r, rec, size, type == KMA_PR_MMAP2, err) : 0;
	case KMA_PR_LOST:
	case KMA_PR_LOST_SAMPLES:
		on_lost(r, rec, size, type == KMA_PR_LOST_SAMPLES);
		return 0;
	case KMA_PR_FINISHED_ROUND:
		if (q_flush(r, p->next_flush, SIZE_MAX))
			return -1;
		p->next_flush = p->max_ts;
		return 0;
	default:		/* of no use to kma: skipped by its size */
		/* kernel types 1..22, perf's own 64..86 in perf 6.18: the rest are unknown */
		if ((type < 1 || type > 22) && (type < 64 || type > 86) && !p->unknown++)
			p->unknown_type = type;
		return 0;
	}
}

/* The compressed stream ended inside a record: it is left out, and said. */
static void warn_cut(struct kma_reader *r)
{
	struct kma_perf *p = r->perf;
	/* what was said before, kept short enough for the line to fit p->warn */
	char before[160] = "", what[64];

	if (p->in.cut_size)
		snprintf(what, sizeof(what), "%zu of its %u bytes", p->in.cut_have,
			 p->in.cut_size);
	else
		snprintf(what, sizeof(what), "%zu bytes of its header", p->in.cut_have);
	/* (records_warning may be p->warn itself) */
	if (r->info.records_warning)
		snprintf(before, sizeof(before), "%s; ", r->info.records_warning);
	snprintf(p->warn, sizeof(p->warn), "%sthe compressed records end inside a record "
		 "(%s; perf record left the rest unwritten): it is left out, as perf does",
		 before, what);
	r->info.records_warning = p->warn;
}

static int perf_run(struct kma_reader *r, struct kma_err *err)
{
	struct kma_perf *p = r->perf;
	const unsigned char *rec;
	uint64_t off, n = 0;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &r->start);
	kma_pin_init(&p->in, &p->pd);
	while ((ret = kma_pin_next(&p->in, &rec, &off, err)) > 0) {
		if (on_record(r, rec, off, err))
			break;
		/* a round too big to hold: the oldest half goes early */
		if (p->nr > QUEUE_MAX && q_flush(r, UINT64_MAX, p->nr / 2))
			break;
		if ((++n & 0xffff) == 0 && r->progress)
			kma_reader_progress(r, (double)(p->in.pos - p->pd.data_off) /
					       (double)p->pd.data_size);
	}
	if (ret > 0 && (r->stopped || r->oom))
		return kma_reader_end(r, err);
	if (ret != 0)
		return -1;	/* @err says why */
	if (p->in.compressed && !r->info.compression)
		r->info.compression = "zstd";
	if (q_flush(r, UINT64_MAX, SIZE_MAX) && !r->stopped && !r->oom)
		return -1;
	lost_samples_end(r);
	ret = kma_reader_end(r, err);
	if (p->unknown) {
		snprintf(p->warn, sizeof(p->warn), "%" PRIu64 " records of types perf does not "
			 "define (the first: %" PRIu32 ") were skipped%s%s", p->unknown,
			 p->unknown_type, r->info.records_warning ? "; " : "",
			 r->info.records_warning ? r->info.records_warning : "");
		r->info.records_warning = p->warn;
	}
	if (p->in.cut_have)
		warn_cut(r);
	return ret;
}

static void perf_close(struct kma_reader *r)
{
	struct kma_perf *p = r->perf;

	if (!p)
		return;
	q_free(p);
	free(p->lost_samples);
	kma_pin_release(&p->in);
	kma_pd_close(&p->pd);
	free(p->maps);
	if (r->tep)
		tep_free(r->tep);
	r->tep = NULL;
	free(p);
	r->perf = NULL;
}

static const struct kma_source_ops perf_ops = { .run = perf_run, .close = perf_close };

/* In the probe's child: the event formats parsed into a tep of its own. */
static int probe_formats(void *ctx)
{
	const struct kma_pd *pd = ctx;
	struct tep_handle *tep = tep_alloc();
	unsigned int ps;
	int ls;

	return tep && !kma_pd_formats(pd->fd, pd->trace_off, pd->trace_size, tep, &ls, &ps,
				      NULL) ? 0 : -1;
}

/* What the file says about itself; the event formats into r->tep. */
static int perf_info(struct kma_reader *r, const char *path, struct kma_err *err)
{
	struct kma_pd *pd = &r->perf->pd;
	size_t i;

	r->info.file = path;
	r->info.file_version = 2;	/* PERFILE2 */
	r->info.cpus = pd->nr_cpus;
	if (pd->comp_type)
		r->info.compression = pd->comp_type == 1 ? "zstd" : "unknown";
	if (pd->osrelease)
		r->info.release = kma_strpool_intern(r->pool, pd->osrelease,
						     strlen(pd->osrelease));
	for (i = 0; i < pd->nr_attrs; i++)
		if (pd->attrs[i].type == 2 && !(pd->attrs[i].sample_type & KMA_PS_TIME))
			return kma_err_set(err, KMA_ERR_OTHER, "its tracepoint samples carry no "
					   "time (recorded with --no-timestamps?)");
	/* libtraceevent dies on some corrupt formats: parsed in a child first (kma-probe.c) */
	if (!r->fopts.no_probe && kma_probe_child(probe_formats, (void *)pd))
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: libtraceevent "
				   "cannot parse its event formats");
	tep_set_loglevel(TEP_LOG_NONE);
	r->tep = tep_alloc();
	if (!r->tep)
		return kma_err_nomem(err);
	if (kma_pd_formats(pd->fd, pd->trace_off, pd->trace_size, r->tep, &r->info.long_size,
			   &r->info.sys_page_size, err))
		return -1;
	r->info.big_endian = tep_is_file_bigendian(r->tep);
	r->swap = tep_is_file_bigendian(r->tep) != tep_is_local_bigendian(r->tep);
	kma_err_set(&r->kallsyms_err, KMA_ERR_OTHER, "a perf.data stores no kallsyms");
	return 0;
}

static int perf_events(struct kma_reader *r, struct kma_err *err)
{
	int n = kma_reader_setup(r, err);

	if (n < 0 && err->kind != KMA_ERR_NOMEM) {
		char what[sizeof(err->msg)];

		snprintf(what, sizeof(what), "%s", err->msg);
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data event formats (%s)",
				   what);
	}
	if (n == 0)
		return kma_err_set(err, KMA_ERR_OTHER, "no kmem allocation events in this "
				   "perf.data; record with perf kmem record, or perf record "
				   "-e kmem:kmalloc -e kmem:kfree -e kmem:kmem_cache_alloc "
				   "-e kmem:kmem_cache_free");
	return n < 0 ? -1 : 0;
}

/*
 * The kernel and module MMAP records before the first sample (perf writes
 * them first), so that the symbol side has them before the run.
 */
static int early_maps(struct kma_reader *r, struct kma_err *err)
{
	struct kma_perf *p = r->perf;
	const unsigned char *rec;
	struct kma_pin in;
	uint64_t off;
	uint32_t type;
	uint16_t size;
	int ret;

	kma_pin_init(&in, &p->pd);
	while ((ret = kma_pin_next(&in, &rec, &off, err)) > 0) {
		memcpy(&type, rec, 4);
		memcpy(&size, rec + 6, 2);
		if (type == KMA_PR_SAMPLE)
			break;
		if ((type == KMA_PR_MMAP || type == KMA_PR_MMAP2) &&
		    on_mmap(r, rec, size, type == KMA_PR_MMAP2, err)) {
			ret = -1;
			break;
		}
	}
	kma_pin_release(&in);
	return ret < 0 ? -1 : 0;
}

struct kma_reader *kma_perf_open(const char *path, const struct kma_file_opts *o,
				 struct kma_err *err)
{
	struct kma_reader *r = kma_reader_new(&perf_ops);

	if (!r || !(r->perf = calloc(1, sizeof(*r->perf)))) {
		kma_reader_close(r);
		kma_err_nomem(err);
		return NULL;
	}
	r->perf->pd.fd = -1;
	r->fopts = *o;
	r->info.buffer = "top";
	if (kma_pd_open(&r->perf->pd, path, err) || perf_info(r, path, err) ||
	    perf_events(r, err) || early_maps(r, err)) {
		kma_reader_close(r);
		return NULL;
	}
	r->info.jobs = 1;
	return r;
}
