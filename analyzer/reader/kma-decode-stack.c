// SPDX-License-Identifier: GPL-2.0
/*
 * kma-decode-stack.c - the kernel stack of a kmem event.
 *
 * With the stacktrace option (trace-cmd record -T), the kernel writes an
 * ftrace:kernel_stack record right after each event, on the same CPU: so
 * a kmem event's stack is the record that comes next on its CPU, when
 * that is a kernel_stack and no events were lost in between. Records of
 * other CPUs may come in between in time order, which is why the source
 * is asked for the CPU's next record (its peek) instead of waiting for it:
 * the events reach the matcher in the order of the trace either way.
 *
 * Layouts: since 3.2 the event has an int "size" (frames recorded) and a
 * "caller" array of that many unsigned longs (the format says caller[8]);
 * before, caller[8] was fixed and ended with ULONG_MAX when shorter.
 * Either way reading stops at the record's end, at "size" entries, or at
 * an entry that is 0 or all ones.
 */
#include <stdlib.h>
#include <string.h>

#include "kma-reader-int.h"

static uint64_t get(const struct kma_reader *r, const unsigned char *p, int size)
{
	uint64_t v8;
	uint32_t v4;

	if (size == 8) {
		memcpy(&v8, p, 8);
		return r->swap ? __builtin_bswap64(v8) : v8;
	}
	memcpy(&v4, p, 4);
	return r->swap ? __builtin_bswap32(v4) : v4;
}

/* The bytes of one frame: the array's element, else the trace's long. */
static int frame_size(const struct kma_reader *r, const struct tep_format_field *f)
{
	int elem = f->arraylen > 0 ? f->size / f->arraylen : 0;

	if (elem == 4 || elem == 8)
		return elem;
	return r->info.long_size == 4 ? 4 : 8;
}

int kma_stack_setup(struct kma_reader *r)
{
	struct tep_event *ev = tep_find_event_by_name(r->tep, "ftrace", "kernel_stack");
	struct tep_format_field *caller, *size;

	r->stack_ev = -1;
	if (!ev)
		return 0;
	r->info.has_stacks = 1;
	caller = tep_find_field(ev, "caller");
	size = tep_find_field(ev, "size");
	if (ev->id < 0 || ev->id > r->max_id || r->by_id[ev->id].type >= 0 || !caller ||
	    caller->offset < 2 || (size && (size->size != 4 || size->offset < 2))) {
		/* a stack is extra: a format kma cannot read costs the stacks only */
		snprintf(r->stack_warn, sizeof(r->stack_warn), "ftrace:kernel_stack's format "
			 "has no caller array kma can read: stacks are not read");
		r->info.stack_warning = r->stack_warn;
		return 0;
	}
	r->stack_ev = ev->id;
	r->stack_caller = caller;
	r->stack_size = size;
	r->stack_elem = frame_size(r, caller);
	return 0;
}

/* The frames of stack record @s into r->stack_buf: how many; -1 out of memory. */
static int frames(struct kma_reader *r, const struct tep_record *s)
{
	const unsigned char *data = s->data;
	unsigned int off = (unsigned int)r->stack_caller->offset, es = (unsigned int)r->stack_elem;
	uint64_t v, ones = es == 8 ? ~0ULL : 0xffffffffULL;
	uint32_t n, i;

	if ((unsigned int)s->size <= off)
		return 0;
	n = ((unsigned int)s->size - off) / es;
	if (r->stack_size &&
	    (unsigned int)r->stack_size->offset + 4 <= (unsigned int)s->size) {
		int32_t want = (int32_t)get(r, data + r->stack_size->offset, 4);

		if (want >= 0 && (uint32_t)want < n)
			n = (uint32_t)want;
	}
	if (n > r->cap_stack) {
		uint64_t *nb = realloc(r->stack_buf, n * sizeof(*nb));

		if (!nb)
			return -1;
		r->stack_buf = nb;
		r->cap_stack = n;
	}
	for (i = 0; i < n; i++) {
		v = get(r, data + off + i * es, (int)es);
		if (!v || v == ones)
			break;
		r->stack_buf[i] = v;
	}
	return (int)i;
}

void kma_stack_attach(struct kma_reader *r, const struct tep_record *rec, struct kma_event *ev)
{
	struct tep_record next;
	uint16_t id;
	int n;

	if (r->ext_stack) {	/* a perf.data sample's own callchain */
		ev->stack = r->ext_stack;
		ev->stack_depth = r->ext_depth;
		r->info.stacked++;
		return;
	}
	if (r->stack_ev < 0 || r->stack_none || !r->peek ||
	    !r->peek(r->peek_ctx, rec->cpu, &next))
		return;
	/* lost events in between: whatever follows is not this event's stack */
	if (next.missed_events || next.size < 2)
		return;
	memcpy(&id, next.data, 2);	/* per kmem event: no library call */
	if ((r->swap ? __builtin_bswap16(id) : id) != (uint16_t)r->stack_ev)
		return;
	if (kma_record_overlong(next.offset, (unsigned int)next.record_size, r->page_size))
		return;
	n = frames(r, &next);
	if (n < 0) {
		r->oom = 1;
		return;
	}
	if (!n)
		return;
	ev->stack = r->stack_buf;
	ev->stack_depth = (uint32_t)n;
	r->info.stacked++;
}
