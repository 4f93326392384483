// SPDX-License-Identifier: GPL-2.0
/*
 * kma-decode.c - records -> normalized kma events, for trace.dat files and
 * for live tracing alike.
 *
 * As trace-cmd's trace-mem.c does: look the kmem events and their fields up
 * once, by name, tolerating the optional ones, then stream every record
 * through one function that dispatches on the event id. What it shares
 * with the page allocator's decoder is in kma-decode-common.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-grow.h"
#include "kma-reader-int.h"

static const char * const field_names[F_NR] = {
	"call_site", "ptr", "bytes_req", "bytes_alloc", "gfp_flags", "node", "name", "accounted",
};

/* Fields every event of a kind must have; the others are optional. */
#define REQ_FREE	((1u << F_CALL_SITE) | (1u << F_PTR))
#define REQ_ALLOC	(REQ_FREE | (1u << F_BYTES_REQ) | (1u << F_BYTES_ALLOC))

void kma_reader_cpustats(struct kma_reader *r, const char *s)
{
	struct kma_lost *l = NULL;
	unsigned long long v;
	int cpu;

	while (s && *s) {
		if (sscanf(s, "CPU: %d", &cpu) == 1)
			l = cpu >= 0 && cpu < r->info.cpus ? &r->info.lost[cpu] : NULL;
		else if (l && sscanf(s, "overrun: %llu", &v) == 1)
			l->overrun = v;
		else if (l && sscanf(s, "commit overrun: %llu", &v) == 1)
			l->commit_overrun = v;
		else if (l && sscanf(s, "dropped events: %llu", &v) == 1)
			l->dropped = v;
		s = strchr(s, '\n');
		if (s)
			s++;
	}
}

/* Markers and module events: optional, one text field each; -1 for a bad format. */
static int follow_text_event(struct kma_reader *r, const char *sys, const char *name,
			     const char *field, int type)
{
	struct tep_event *ev = tep_find_event_by_name(r->tep, sys, name);
	struct tep_format_field *f;

	if (ev && kma_reader_check_event(r, ev))
		return -1;
	f = ev ? tep_find_field(ev, field) : NULL;
	if (!f || ev->id < 0 || ev->id > r->max_id || r->by_id[ev->id].type >= 0)
		return 0;
	r->by_id[ev->id].type = type;
	r->by_id[ev->id].text = f;
	return 0;
}

static int event_name_cmp(const void *a, const void *b)
{
	const struct tep_event *x = *(struct tep_event * const *)a;
	const struct tep_event *y = *(struct tep_event * const *)b;
	int c = strcmp(x->system, y->system);

	return c ? c : strcmp(x->name, y->name);
}

/*
 * Two events with one id, or one system:name with two ids: libtraceevent
 * takes either, and the records of both would be counted under one name.
 * @all is sorted by id; the name check sorts a copy.
 */
static int check_unique(struct kma_reader *r, struct tep_event **all)
{
	struct tep_event **by_name;
	int i, n, ret = 0;

	for (n = 0; all && all[n]; n++) {
		if (all[n]->id < 0 || all[n]->id > 0xffff) {
			snprintf(r->bad, sizeof(r->bad), "%s:%s has id %d, beyond the 16-bit ids "
				 "records carry", all[n]->system, all[n]->name, all[n]->id);
			return -1;
		}
		if (n && all[n]->id == all[n - 1]->id) {
			snprintf(r->bad, sizeof(r->bad), "two events with id %d: %s:%s and %s:%s",
				 all[n]->id, all[n - 1]->system, all[n - 1]->name,
				 all[n]->system, all[n]->name);
			return -1;
		}
	}
	by_name = malloc((n + 1) * sizeof(*by_name));
	if (!by_name)
		return -2;
	memcpy(by_name, all, n * sizeof(*by_name));
	qsort(by_name, n, sizeof(*by_name), event_name_cmp);
	for (i = 1; i < n; i++)
		if (!strcmp(by_name[i]->system, by_name[i - 1]->system) &&
		    !strcmp(by_name[i]->name, by_name[i - 1]->name)) {
			snprintf(r->bad, sizeof(r->bad), "two events named %s:%s, with ids %d "
				 "and %d", by_name[i]->system, by_name[i]->name,
				 by_name[i - 1]->id, by_name[i]->id);
			ret = -1;
			break;
		}
	free(by_name);
	return ret;
}

/* The fields of kmem event @ev into its descriptor; -1 when a required one is missing. */
static int follow_fields(struct kma_reader *r, struct tep_event *ev, unsigned int req)
{
	struct ev_desc *d = &r->by_id[ev->id];
	int k;

	for (k = 0; k < F_NR; k++) {
		struct tep_format_field *f = tep_find_field(ev, field_names[k]);

		/* kernels print these fields in no other shape */
		if (f && (f->size < 1 || f->size > 8 ||
			  (k == F_NAME && !(f->flags & TEP_FIELD_IS_DYNAMIC)))) {
			snprintf(r->bad, sizeof(r->bad), "%s:%s's field %s has a shape (%.64s, "
				 "size %d) no kernel gives it", ev->system, ev->name, f->name,
				 f->type, f->size);
			return -1;
		}
		if (!f && (req & (1u << k))) {
			snprintf(r->bad, sizeof(r->bad), "%s:%s has no %s field", ev->system,
				 ev->name, field_names[k]);
			return -1;
		}
		d->f[k] = kma_reader_fixed_field(d, f);
	}
	return 0;
}

static int lookup_events(struct kma_reader *r)
{
	struct tep_event **all = tep_list_events(r->tep, TEP_EVENT_SORT_ID);
	int i, t, found = 0;

	i = check_unique(r, all);
	if (i)
		return i == -2 ? -1 : -2;

	for (i = 0; all && all[i]; i++)
		if (all[i]->id > r->max_id)
			r->max_id = all[i]->id;
	r->by_id = calloc(r->max_id + 1, sizeof(*r->by_id));
	r->id_count = calloc(r->max_id + 1, sizeof(*r->id_count));
	if (!r->by_id || !r->id_count)
		return -1;
	for (i = 0; i <= r->max_id; i++)
		r->by_id[i].type = -1;
	for (t = 0; t < KMA_EV_NR; t++) {
		struct tep_event *ev = tep_find_event_by_name(r->tep, KMA_EV_SYSTEM, kma_ev_name(t));
		unsigned int req = kma_ev_is_alloc(t) ? REQ_ALLOC : REQ_FREE;

		if (!ev || ev->id < 0 || ev->id > r->max_id)
			continue;
		if (kma_reader_check_event(r, ev) || follow_fields(r, ev, req))
			return -2;
		r->by_id[ev->id].type = t;
		if (t == KMA_EV_KMALLOC || t == KMA_EV_KMALLOC_NODE)
			kma_gfp_setup(r, ev, &r->by_id[ev->id]);
		if (kma_ev_is_alloc(t))
			kma_gfp_slab_setup(ev, &r->by_id[ev->id]);
		kma_reader_follow_pid(r, ev);
		found++;
	}
	kma_page_setup(r);
	kma_kinds_setup(r);
	/* a trace of page (percpu, vmalloc) events only is analyzed too (--pages) */
	for (i = 0; i <= r->max_id; i++)
		found += kma_ev_is_page(r->by_id[i].type) || kma_ev_is_percpu(r->by_id[i].type) ||
			 kma_ev_is_vmap(r->by_id[i].type);
	if (follow_text_event(r, "ftrace", "print", "buf", KMA_EV_MARKER) ||
	    follow_text_event(r, "module", "module_load", "name", KMA_EV_MODULE_LOAD) ||
	    follow_text_event(r, "module", "module_free", "name", KMA_EV_MODULE_FREE))
		return -2;
	if (kma_stack_setup(r))
		return -1;
	return found;
}

int kma_reader_setup(struct kma_reader *r, struct kma_err *err)
{
	int n;

	r->info.lost = calloc(r->info.cpus, sizeof(*r->info.lost));
	r->info.damage = calloc(r->info.cpus, sizeof(*r->info.damage));
	n = r->info.lost && r->info.damage ? lookup_events(r) : -1;
	if (n == -1)
		kma_err_set(err, KMA_ERR_NOMEM, "out of memory");
	else if (n < 0)
		kma_err_set(err, KMA_ERR_BROKEN, "%s", r->bad);
	return n < 0 ? -1 : n;
}

/*
 * @s (@len bytes) interned, through a small cache of the names seen lately:
 * a slab event names its cache, and interning it in full (hashing every byte,
 * then comparing) for every event cost more than the rest of its decoding.
 * The cache is picked by the name's length and its first and last 8 bytes;
 * a hit is checked whole. The pointer is the pool's either way.
 */
static const char *intern_name(struct kma_reader *r, const char *s, size_t len)
{
	uint64_t a = 0, b = 0;
	struct kma_name_slot *e;
	const char *copy;
	size_t i;

	if (len >= 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + len - 8, 8);
	} else {
		for (i = 0; i < len; i++)
			a = a << 8 | (unsigned char)s[i];
	}
	e = &r->name_cache[((a ^ (b * 31) ^ len) * 0x9e3779b97f4a7c15ULL) >> 58];
	if (e->s && e->len == len && !memcmp(e->s, s, len))
		return e->s;
	copy = kma_strpool_intern(r->pool, s, len);
	if (copy) {
		e->s = copy;
		e->len = len;
	}
	return copy;
}

static const char *dyn_string(struct kma_reader *r, const struct tep_format_field *f,
			      struct tep_record *rec)
{
	uint64_t v = kma_reader_num(r, f, rec->data);
	unsigned int off = v & 0xffff, len = (v >> 16) & 0xffff;

	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += f->offset + f->size;
	if (off >= (unsigned int)rec->size || len == 0)
		return NULL;
	if (len > (unsigned int)rec->size - off)
		len = rec->size - off;
	len = strnlen((char *)rec->data + off, len);
	return intern_name(r, (char *)rec->data + off, len);
}

/* A marker or module event, its text decoded, to the consumer as @type. */
static int emit_text(struct kma_reader *r, struct tep_record *rec, struct kma_event *ev, int type)
{
	ev->type = type;
	ev->pid = kma_reader_pid(r, rec);
	ev->comm = kma_reader_comm(r, ev->pid);
	if (!ev->comm) {
		r->oom = 1;
		r->stopped = 1;
		return -1;
	}
	if (r->fn(r->ctx, ev)) {
		r->stopped = 1;
		return -1;
	}
	return 0;
}

static int on_text_record(struct kma_reader *r, struct ev_desc *d, struct tep_record *rec)
{
	struct kma_event ev = { .type = d->type, .ts = rec->ts, .cpu = rec->cpu, .node = -1,
				.accounted = -1 };
	const char *text;
	size_t len, plen;

	if (d->text->flags & TEP_FIELD_IS_DYNAMIC) {
		text = dyn_string(r, d->text, rec);
		if (!text)
			return 0;
		len = strlen(text);
	} else {
		if ((unsigned int)d->text->offset >= (unsigned int)rec->size)
			return 0;
		text = (char *)rec->data + d->text->offset;
		len = strnlen(text, rec->size - d->text->offset);
	}
	if (d->type == KMA_EV_MARKER && len > 4 && !strncmp(text, "kma-", 4)) {
		/* a kernel counter snapshot's part (--counters), never a generation */
		int ret = kma_reader_counter(r, text, len, &ev.counter);

		if (ret < 0) {
			r->oom = 1;
			r->stopped = 1;
			return -1;
		}
		if (ret > 0)
			return emit_text(r, rec, &ev, KMA_EV_COUNTER);
	}
	if (d->type == KMA_EV_MARKER && len > strlen(KMA_TOPOLOGY_PREFIX) &&
	    !strncmp(text, KMA_TOPOLOGY_PREFIX, strlen(KMA_TOPOLOGY_PREFIX))) {
		/* the CPU -> node map (--cross-cpu), never a generation */
		plen = strlen(KMA_TOPOLOGY_PREFIX);
		while (len > plen && (text[len - 1] == '\n' || text[len - 1] == ' '))
			len--;
		if (!r->info.topology)
			r->info.topology = kma_strpool_intern(r->pool, text + plen, len - plen);
		return 0;
	}
	if (d->type == KMA_EV_MARKER) {
		plen = strlen(r->marker_prefix);
		if (len < plen || strncmp(text, r->marker_prefix, plen))
			return 0;
		text += plen;
		len -= plen;
		while (len && (*text == ' ' || *text == '\t')) {
			text++;
			len--;
		}
		while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
			len--;
	}
	ev.label = kma_strpool_intern(r->pool, text, len);
	if (!ev.label) {
		r->oom = 1;
		r->stopped = 1;
		return -1;
	}
	return emit_text(r, rec, &ev, d->type);
}

/* The fields of a kmem record (of at least d->min_size bytes) into @ev. */
static void decode_fields(struct kma_reader *r, const struct ev_desc *d, struct tep_record *rec,
			  int cpu, struct kma_event *ev)
{
	*ev = kma_reader_ev0;
	ev->type = d->type;
	ev->ts = rec->ts;
	ev->cpu = cpu;
	ev->pid = kma_reader_pid(r, rec);
	ev->comm = kma_reader_comm(r, ev->pid);
	ev->call_site = kma_reader_num(r, d->f[F_CALL_SITE], rec->data);
	ev->ptr = kma_reader_num(r, d->f[F_PTR], rec->data);
	ev->node = -1;
	ev->accounted = -1;
	if (d->f[F_BYTES_REQ]) {
		ev->bytes_req = kma_reader_num(r, d->f[F_BYTES_REQ], rec->data);
		ev->bytes_alloc = kma_reader_num(r, d->f[F_BYTES_ALLOC], rec->data);
	}
	ev->gfp_account = -1;
	ev->charged = -1;
	if (d->f[F_GFP]) {
		ev->gfp_flags = kma_reader_num(r, d->f[F_GFP], rec->data);
		/* out of memory: NULL, -g gfp's [unknown] */
		ev->gfp_text = kma_gfp_text(r, d, ev->gfp_flags);
		if (d->account_bit)
			ev->gfp_account = !!(ev->gfp_flags & d->account_bit);
	}
	if (d->f[F_NODE])
		ev->node = (int)(int32_t)kma_reader_num(r, d->f[F_NODE], rec->data);
	if (d->f[F_ACCOUNTED])
		ev->accounted = !!kma_reader_num(r, d->f[F_ACCOUNTED], rec->data);
	ev->charged = d->acct_fmt ? ev->gfp_account : ev->accounted;
	if (d->f[F_NAME])
		ev->cache = dyn_string(r, d->f[F_NAME], rec);
	if (d->type == KMA_EV_KMALLOC || d->type == KMA_EV_KMALLOC_NODE)
		ev->kmalloc_type = kma_gfp_type(d, ev->gfp_flags, ev->accounted);
}

int kma_reader_decode(struct kma_reader *r, struct tep_record *rec)
{
	struct kma_event ev;
	struct ev_desc *d;
	int id, cpu = rec->cpu;	/* the callback's argument is not reliable in libtracecmd 1.3 */
	uint16_t id16;

	if (r->stopped)
		return -1;
	if (cpu >= 0 && cpu < r->info.cpus && rec->missed_events) {
		if (rec->missed_events > 0)
			r->info.lost[cpu].page_missed += rec->missed_events;
		else
			r->info.lost[cpu].missed_unknown++;
	}
	if (!r->have_first) {	/* or the first marker of the top-level buffer */
		r->have_first = 1;
		r->info.first_ts = rec->ts;
	}
	r->info.events++;
	r->info.last_ts = rec->ts;
	/*
	 * kbuffer does not bound a record by its page: one that runs past it
	 * is corrupt, and its fields may lie outside the buffer.
	 */
	if (kma_record_overlong(rec->offset, (unsigned int)rec->record_size, r->page_size)) {
		r->info.bad_records++;
		if (cpu >= 0 && cpu < r->info.cpus)
			r->info.damage[cpu].overlong_records++;
		return 0;
	}
	if (rec->size < 2) {
		r->info.other_events++;
		return 0;
	}
	/* every record: read in place, not through a library call */
	memcpy(&id16, rec->data, 2);
	id = r->swap ? __builtin_bswap16(id16) : id16;
	if (id > r->max_id) {
		r->unknown_ids++;
		r->info.other_events++;
		return 0;
	}
	r->id_count[id]++;
	if (r->by_id[id].type < 0) {
		r->info.other_events++;
		return 0;
	}
	d = &r->by_id[id];
	if (kma_ev_is_page(d->type)) {
		r->info.other_events++;	/* as before pages were read: the slab summary stays */
		return kma_page_decode(r, d, rec);
	}
	if (kma_ev_is_percpu(d->type) || kma_ev_is_vmap(d->type)) {
		r->info.other_events++;	/* the slab summary stays as it was */
		return kma_kinds_decode(r, d, rec);
	}
	if (d->text) {
		r->info.other_events++;
		return on_text_record(r, d, rec);
	}
	if ((unsigned int)rec->size < d->min_size) {
		kma_reader_short_record(r, cpu);
		return 0;
	}
	decode_fields(r, d, rec, cpu, &ev);
	if (!r->stack_none)
		kma_stack_attach(r, rec, &ev);
	if (!ev.comm || (d->f[F_NAME] && !ev.cache && r->oom) || r->oom) {
		r->oom = 1;
		r->stopped = 1;
		return -1;
	}
	if (kma_reader_check_bytes(r, &ev))
		return -1;
	r->info.ev_count[ev.type]++;
	r->info.kmem_events++;
	if (r->fn(r->ctx, &ev)) {
		r->stopped = 1;
		return -1;
	}
	return 0;
}

void kma_reader_set_hint(struct kma_reader *r, kma_hint_fn fn, void *ctx)
{
	r->hint = fn;
	r->hint_ctx = ctx;
}

/*
 * The key is read as the decoder reads it, minus what only matters to an
 * event that is handed on (a failed page allocation's key, the checks that
 * count a bad record): a wrong hint costs a useless prefetch, nothing else.
 */
void kma_reader_hint(struct kma_reader *r, const void *data, unsigned int size)
{
	const struct ev_desc *d;
	struct kma_event sketch;
	const struct tep_format_field *f;
	uint16_t id16;
	int id;

	if (size < 2)
		return;
	memcpy(&id16, data, 2);
	id = r->swap ? __builtin_bswap16(id16) : id16;
	if (id > r->max_id || r->by_id[id].type < 0)
		return;
	d = &r->by_id[id];
	if (size < d->min_size)
		return;
	if (kma_ev_is_page(d->type))
		f = kma_page_key_field(r, d);
	else if (!d->text && !kma_ev_is_percpu(d->type) && !kma_ev_is_vmap(d->type))
		f = d->f[F_PTR];
	else
		f = NULL;
	if (!f)
		return;
	sketch.type = d->type;
	sketch.ptr = kma_reader_num(r, f, (void *)data);
	sketch.page_by_ptr = d->page_by_ptr;
	r->hint(r->hint_ctx, &sketch);
}

/*
 * While an instance buffer is read, the kma markers of the top-level buffer
 * (where trace_marker writes land) are read too: only they, and they are not
 * counted as records of the buffer read.
 */
int kma_reader_decode_marker(struct kma_reader *r, struct tep_record *rec,
			     unsigned int page_size)
{
	int id;

	if (r->stopped)
		return -1;
	if (rec->size < 2 ||
	    kma_record_overlong(rec->offset, (unsigned int)rec->record_size, page_size))
		return 0;
	id = (int)tep_read_number(r->tep, rec->data, 2);
	if (id < 0 || id > r->max_id || r->by_id[id].type != KMA_EV_MARKER)
		return 0;
	return on_text_record(r, &r->by_id[id], rec);
}

/* After a run: the event counts named, and whether the run failed. */
int kma_reader_end(struct kma_reader *r, struct kma_err *err)
{
	if (!r->oom && kma_reader_count_events(r))
		r->oom = 1;
	if (r->oom)
		return kma_err_nomem(err);
	if (r->refused[0])
		return kma_err_set(err, KMA_ERR_OTHER, "%s", r->refused);
	if (r->stopped) {
		kma_err_clear(err);	/* the consumer knows why */
		return -1;
	}
	return 0;
}

/*
 * Names the per-id record counts: "system:event", and the records of every
 * id the formats do not describe in one "unknown:unknown" row (one row per
 * such id would repeat the name).
 */
int kma_reader_count_events(struct kma_reader *r)
{
	uint64_t unknown = r->unknown_ids;
	int id, n = 0;

	r->info.counts = calloc(r->max_id + 2, sizeof(*r->info.counts));
	if (!r->info.counts)
		return -1;
	for (id = 0; id <= r->max_id; id++) {
		struct tep_event *ev;
		char name[256];

		if (!r->id_count[id])
			continue;
		ev = tep_find_event(r->tep, id);
		if (!ev) {
			unknown += r->id_count[id];
			continue;
		}
		snprintf(name, sizeof(name), "%s:%s", ev->system, ev->name);
		r->info.counts[n].name = kma_strpool_intern(r->pool, name, strlen(name));
		r->info.counts[n].count = r->id_count[id];
		if (!r->info.counts[n++].name)
			return -1;
	}
	if (unknown) {
		r->info.counts[n].name = "unknown:unknown";
		r->info.counts[n++].count = unknown;
		/* the formats and the records disagree: a corrupt or a partial file */
		snprintf(r->warn, sizeof(r->warn), "%" PRIu64 " records carry event ids that the "
			 "event formats do not describe; they are counted as unknown:unknown "
			 "and not analyzed", unknown);
		r->info.records_warning = r->warn;
	}
	r->info.nr_counts = n;
	return 0;
}

