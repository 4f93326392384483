// SPDX-License-Identifier: GPL-2.0
/*
 * kma-perf-sample.c - one perf.data record's fields: a PERF_RECORD_SAMPLE's
 * by its attribute's sample_type (tid, time, cpu, the kernel part of the
 * callchain, the raw tracepoint data), and the time and CPU that other
 * records carry at their end (sample_id_all). Every read is checked against
 * the record's end; kma-source-perf.c queues and orders what this finds.
 */
#include <stdint.h>
#include <string.h>

#include "kma-perfdata.h"

#define CTX_KERNEL	((uint64_t)-128)	/* PERF_CONTEXT_KERNEL */
#define CTX_MAX		((uint64_t)-4095)	/* PERF_CONTEXT_MAX: markers are above */

/* A cursor over a record's body, every read checked against its end. */
struct cur {
	const unsigned char *p, *end;
	int bad;
};

static uint64_t take64(struct cur *c)
{
	uint64_t v = 0;

	if (c->end - c->p < 8) {
		c->bad = 1;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	return v;
}

/* The read_format values (PERF_SAMPLE_READ), skipped by their layout. */
static void skip_read(struct cur *c, uint64_t rf)
{
	/* per value: the value, its id (PERF_FORMAT_ID), its lost count (PERF_FORMAT_LOST) */
	uint64_t n = 1, per = 1 + !!(rf & 4) + !!(rf & 16), i;

	if (rf & 8)			/* PERF_FORMAT_GROUP: u64 nr first */
		n = take64(c);
	for (i = !!(rf & 1) + !!(rf & 2); i; i--)	/* time enabled, running */
		take64(c);
	if (c->bad || n > (uint64_t)(c->end - c->p) / 8 / per) {
		c->bad = 1;
		return;
	}
	c->p += n * per * 8;
}

/* The kernel frames of a callchain: after PERF_CONTEXT_KERNEL, up to the next marker. */
static void kernel_frames(struct kma_perf_sample *s, const uint64_t *ips, uint64_t nr)
{
	uint64_t i, v, start = 0, end;
	int kernel = 0;

	for (i = 0; i < nr; i++) {
		memcpy(&v, &ips[i], 8);
		if (v >= CTX_MAX) {
			if (kernel)
				break;
			kernel = v == CTX_KERNEL;
			start = i + 1;
		}
	}
	end = i;
	if (!kernel || end <= start)
		return;
	s->ips = ips + start;
	s->nr_ips = (uint32_t)(end - start < KMA_PERF_MAX_FRAMES ? end - start : KMA_PERF_MAX_FRAMES);
}

int kma_perf_sample_parse(const struct kma_pd_attr *attr, const unsigned char *rec,
			  uint16_t size, struct kma_perf_sample *s)
{
	struct cur c = { rec + 8, rec + size, 0 };
	uint64_t st = attr->sample_type, v, n;
	uint32_t raw;

	if (st & KMA_PS_IDENTIFIER)
		take64(&c);
	if (st & KMA_PS_IP)
		take64(&c);
	if (st & KMA_PS_TID) {
		v = take64(&c);
		s->tid = (uint32_t)(v >> 32);
	}
	if (st & KMA_PS_TIME)
		s->ts = take64(&c);
	if (st & KMA_PS_ADDR)
		take64(&c);
	if (st & KMA_PS_ID)
		take64(&c);
	if (st & KMA_PS_STREAM_ID)
		take64(&c);
	if (st & KMA_PS_CPU)
		s->cpu = (uint32_t)take64(&c);
	if (st & KMA_PS_PERIOD)
		take64(&c);
	if (st & KMA_PS_READ)
		skip_read(&c, attr->read_format);
	if (st & KMA_PS_CALLCHAIN) {
		n = take64(&c);
		if (c.bad || n > (uint64_t)(c.end - c.p) / 8)
			return -1;
		kernel_frames(s, (const uint64_t *)c.p, n);
		c.p += n * 8;
	}
	if (st & KMA_PS_RAW) {
		if (c.bad || c.end - c.p < 4)
			return -1;
		memcpy(&raw, c.p, 4);
		c.p += 4;
		if (raw > (uint64_t)(c.end - c.p))
			return -1;
		s->raw = c.p;
		s->raw_len = raw;
	}
	return c.bad ? -1 : 0;
}

/* The time and CPU a non-sample record ends in (sample_id_all); 0 when it has none. */
void kma_perf_record_id(const struct kma_pd *pd, const unsigned char *rec, uint16_t size,
			uint64_t *ts, int *cpu)
{
	uint64_t st = pd->attrs[0].sample_type, n = 0, v;
	const unsigned char *end = rec + size;

	*ts = 0;
	*cpu = 0;
	if (!pd->attrs[0].sample_id_all)
		return;
	n = !!(st & KMA_PS_TID) + !!(st & KMA_PS_TIME) + !!(st & KMA_PS_ID) +
	    !!(st & KMA_PS_STREAM_ID) + !!(st & KMA_PS_CPU) + !!(st & KMA_PS_IDENTIFIER);
	if (n * 8 + 8 > size)
		return;
	/* from the end: identifier, cpu, stream_id, id, time, tid */
	end -= 8 * !!(st & KMA_PS_IDENTIFIER);
	if (st & KMA_PS_CPU) {
		end -= 8;
		memcpy(&v, end, 8);
		*cpu = (int)(uint32_t)v;
	}
	end -= 8 * (!!(st & KMA_PS_STREAM_ID) + !!(st & KMA_PS_ID));
	if (st & KMA_PS_TIME) {
		end -= 8;
		memcpy(ts, end, 8);
	}
}
