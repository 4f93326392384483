// SPDX-License-Identifier: GPL-2.0
/*
 * kma-source-file.c - the file source: trace.dat files through libtracecmd
 * (checks, opening, the buffer to read) and the merged stream of records
 * handed to kma-decode.c.
 */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include <trace-cmd/trace-cmd.h>
#include "kma-tracecmd.h"

#include "kma-grow.h"
#include "kma-reader-int.h"
#include "kma-probe.h"
#include "kma-tep-kallsyms.h"
#include "kma-tracedat.h"
#include "kma-zlib.h"

/* v7: whether libtracecmd can inflate the file (zlib: Debian's has zstd only; ours is registered). */
static int check_compression(const struct kma_td *t, struct kma_err *err)
{
	if (!strcmp(t->cname, "none") || !t->cname[0] ||
	    (!kma_zlib_register() && tracecmd_compress_is_supported(t->cname, t->cver)))
		return 0;
	return kma_err_set(err, KMA_ERR_OTHER, "compressed with '%.32s', which kma cannot read "
			   "(it reads zstd, zlib and uncompressed files)", t->cname);
}

/* The file header through the walker, and the v6 structure: clear errors early. */
static int check_header_of(struct kma_td *t, struct kma_err *err, struct kma_td_layout *lay)
{
	unsigned char b;
	struct kma_td_head h;
	int head = kma_td_head(t, &h);

	if (t->size && kma_td_pread(t, 0, &b, 1))
		return kma_err_set(err, KMA_ERR_OTHER, "cannot read it: %s", strerror(errno));
	/* v6: libtracecmd crashes on some files cut short or corrupt anywhere */
	if (t->size > KMA_TD_MAGIC_LEN + 2 && h.version == 6 &&
	    kma_td_check_v6(t->fd, t->size, err, lay))
		return -1;
	if (!t->size)
		return kma_err_set(err, KMA_ERR_OTHER, "empty file, not a trace.dat");
	switch (head) {
	case KMA_TD_HEAD_MAGIC:
		return kma_err_set(err, KMA_ERR_OTHER, "neither a trace-cmd trace.dat nor a perf.data file "
				   "(bad magic)");
	case KMA_TD_HEAD_VERSION:
		/* libtracecmd 1.3 takes other version numbers too, and crashes on them */
		return kma_err_set(err, KMA_ERR_OTHER,
				   "unsupported trace.dat version (kma reads versions 6 and 7)");
	case KMA_TD_HEAD_PAGE_SIZE:
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt trace.dat header (bad page size)");
	case KMA_TD_HEAD_CUT:
		if (h.version != 6)
			return kma_err_set(err, KMA_ERR_TRUNCATED, "truncated trace.dat header");
		return 0;	/* the v6 checks passed */
	}
	return h.version == 7 ? check_compression(t, err) : 0;
}

static int check_header(const char *path, struct kma_err *err, struct kma_td_layout *lay)
{
	struct kma_td t;
	struct stat st;
	int ret;

	if (kma_td_open(&t, path) || fstat(t.fd, &st)) {
		ret = kma_err_set(err, KMA_ERR_OTHER, "cannot open it: %s", strerror(errno));
		kma_td_close(&t);
		return ret;
	}
	if (!S_ISREG(st.st_mode))
		ret = kma_err_set(err, KMA_ERR_OTHER, "not a regular file");
	else
		ret = check_header_of(&t, err, lay);
	kma_td_close(&t);
	return ret;
}

/* ---- buffers: trace-cmd record -B NAME puts events in an instance ---- */

struct scan {
	int		ids[KMA_EV_NR + 4];	/* kmem, percpu and vmalloc event ids */
	int		nr;
	unsigned int	page_size;
	struct tep_handle *tep;
	int		found;
	uint64_t	*last;		/* goes_round() */
};

#define TC_MAX_CPUS	8192	/* file_info() refuses more */

/*
 * libtraceevent's kbuffer goes round a corrupt page for ever (a record
 * whose length word is under 4), and libtracecmd's iteration hands back the
 * same records again and again: a CPU's record at or before its last one.
 * The page reader stops at such a page (kma-cpubuf.c); these checks stop
 * libtracecmd's own iterations. @last: TC_MAX_CPUS offsets, 0 at the start.
 */
static int goes_round(uint64_t *last, const struct tep_record *rec)
{
	if (!last || rec->cpu < 0 || rec->cpu >= TC_MAX_CPUS)
		return 0;
	if (rec->offset <= last[rec->cpu])
		return 1;
	last[rec->cpu] = rec->offset;
	return 0;
}

/* The run stopped at a record that goes round, with the reason kma_reader_end() gives. */
static int refuse_round(struct kma_reader *r, const struct tep_record *rec)
{
	snprintf(r->refused, sizeof(r->refused), "corrupt trace.dat: CPU %d's record at %llu "
		 "comes again (corrupt event data)", rec->cpu, (unsigned long long)rec->offset);
	r->stopped = 1;
	return -1;
}

static int scan_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct scan *s = data;
	int i, id;

	if (goes_round(s->last, rec))
		return -1;	/* no kmem found: the read stops there too */

	/* a record running past its page is corrupt (see kma_reader_decode()) */
	if (rec->size < 2 ||
	    kma_record_overlong(rec->offset, (unsigned int)rec->record_size, s->page_size))
		return 0;
	id = (int)tep_read_number(s->tep, rec->data, 2);
	for (i = 0; i < s->nr; i++)
		if (id == s->ids[i]) {
			s->found = 1;
			return -1;	/* stops the iteration */
		}
	return 0;
}

/*
 * Whether buffer @idx (-1: the top-level one) holds kmem records: decided by
 * finding one, as a buffer may have the events enabled and no records. Read
 * through a handle of its own, so that the cursors of the others stay put.
 */
static int holds_kmem(struct kma_reader *r, const char *path, struct tracecmd_input *top,
		      int idx)
{
	struct scan s = { .tep = r->tep };
	struct tracecmd_input *h;
	int t;

	for (t = 0; t < KMA_EV_NR; t++) {
		struct tep_event *ev = tep_find_event_by_name(r->tep, KMA_EV_SYSTEM, kma_ev_name(t));

		if (ev)
			s.ids[s.nr++] = ev->id;
	}
	/* a recording of the percpu or vmalloc allocator only (kma-record --allocators) */
	for (t = KMA_EV_PERCPU_ALLOC; t <= KMA_EV_VMAP_FREE; t++) {
		struct tep_event *ev = tep_find_event_by_name(r->tep, kma_ev_is_percpu(t) ?
							      "percpu" : "vmalloc",
							      kma_kinds_ev_name(t));

		if (ev)
			s.ids[s.nr++] = ev->id;
	}
	if (idx < 0) {
		/* the file once more (its headers parsed again): the top-level buffer is its own */
		kma_tep_kallsyms_skip(1);	/* its tep names no functions */
		h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
		kma_tep_kallsyms_skip(0);
		if (h)
			s.tep = tracecmd_get_tep(h);
	} else {
		h = tracecmd_buffer_instance_handle(top, idx);
	}
	if (!h)
		return 0;
	s.page_size = tracecmd_page_size(h);
	s.last = calloc(TC_MAX_CPUS, sizeof(*s.last));
	tracecmd_iterate_events(h, NULL, 0, scan_record, &s);
	free(s.last);
	tracecmd_close(h);
	return s.found;
}

static const char *buffer_name(struct tracecmd_input *top, int idx)
{
	const char *name = idx < 0 ? "top" : tracecmd_buffer_instance_name(top, idx);

	return name ? name : "?";
}

#define LIST_MAX	512

/* "top, a, b": the buffers marked in @set ([0]: top-level, [i + 1]: instance i). */
static const char *buffer_list(struct tracecmd_input *top, const unsigned char *set, int nb,
			       char *list)
{
	size_t len = 0;
	int i;

	list[0] = '\0';
	for (i = -1; i < nb; i++) {
		if (!set[i + 1])
			continue;
		if (len + 64 >= LIST_MAX) {
			snprintf(list + len, LIST_MAX - len, ", ...");
			break;
		}
		len += snprintf(list + len, LIST_MAX - len, "%s%.56s", len ? ", " : "",
				buffer_name(top, i));
	}
	return list;
}

/* The index of instance @name, -1 for "top", -2 when the file has none of that name. */
static int find_buffer(struct tracecmd_input *top, int nb, const char *name)
{
	int i;

	if (!strcmp(name, "top"))
		return -1;
	for (i = 0; i < nb; i++)
		if (!strcmp(buffer_name(top, i), name))
			return i;
	return -2;
}

/*
 * The buffer to read: @want ("top" or an instance name), or NULL for the
 * top-level buffer if it holds kmem records, else the one instance that does.
 * Returns its index (-1: top-level), or -2 with @err set.
 */
static int choose_buffer(struct kma_reader *r, const char *path, struct tracecmd_input *top,
			 const char *want, struct kma_err *err)
{
	char list[LIST_MAX];
	int nb = tracecmd_buffer_instances(top), i, pick = -1, n = 0;
	unsigned char *set;

	if (nb <= 0 && (!want || !strcmp(want, "top")))
		return -1;		/* nothing to choose from */
	set = calloc(nb + 1, 1);	/* [0]: top-level, [i + 1]: instance i */
	if (!set) {
		kma_err_set(err, KMA_ERR_NOMEM, "out of memory");
		return -2;
	}
	if (want) {
		pick = find_buffer(top, nb, want);
		if (pick == -2) {
			memset(set, 1, nb + 1);
			kma_err_set(err, KMA_ERR_OTHER, "no buffer '%.64s' in this trace (it has: %s)",
				    want, buffer_list(top, set, nb, list));
		} else if (!holds_kmem(r, path, top, pick)) {
			/* say where the kmem events are, if anywhere */
			for (i = -1; i < nb; i++)
				if (i != pick)
					n += set[i + 1] = holds_kmem(r, path, top, i);
			if (n) {
				kma_err_set(err, KMA_ERR_OTHER, "buffer '%.64s' holds no kmem events "
					    "(buffers that do: %s)", want, buffer_list(top, set, nb, list));
				pick = -2;
			}
		}
		goto out;
	}
	for (i = 0; i < nb; i++)
		n += set[i + 1] = holds_kmem(r, path, top, i);
	if (!n || holds_kmem(r, path, top, -1))
		goto out;		/* the top-level buffer */
	if (n == 1) {
		for (i = 0; i < nb; i++)
			if (set[i + 1])
				pick = i;
		r->info.buffer_auto = 1;
	} else {
		kma_err_set(err, KMA_ERR_OTHER, "kmem events in several buffers and none in the "
			    "top-level one: %s; choose one with --buffer NAME",
			    buffer_list(top, set, nb, list));
		pick = -2;
	}
out:
	free(set);
	return pick;
}

/*
 * The per-CPU statistics of buffer @name (NULL: top-level) out of the file's
 * text, where trace-cmd writes the top-level's first, then "Buffer: NAME"
 * and each instance's.
 */
static void buffer_cpustats(struct kma_reader *r, const char *all, const char *name)
{
	const char *start = all, *end, *p;
	size_t nlen = name ? strlen(name) : 0;
	char *text;

	if (!all)
		return;
	if (name) {
		for (start = NULL, p = all; (p = strstr(p, "Buffer: ")); p += 8)
			if ((p == all || p[-1] == '\n') && !strncmp(p + 8, name, nlen) &&
			    p[8 + nlen] == '\n') {
				start = p + 8 + nlen;
				break;
			}
		if (!start)
			return;
	}
	for (end = start; (end = strstr(end, "Buffer: ")); end += 8)
		if (end == all || end[-1] == '\n')
			break;
	if (!end)
		end = start + strlen(start);
	text = strndup(start, end - start);
	if (text)
		kma_reader_cpustats(r, text);
	free(text);
}

/* The handle of the chosen buffer and the facts that depend on it. */
static int attach_buffer(struct kma_reader *r, const char *path, struct tracecmd_input *top,
			 const char *want, struct kma_err *err)
{
	int idx = choose_buffer(r, path, top, want, err);

	if (idx < -1)
		return -1;
	r->buffer_idx = idx;
	r->info.buffer = buffer_name(top, idx);
	if (idx >= 0) {
		r->info.buffer = kma_strpool_intern(r->pool, r->info.buffer,
						    strlen(r->info.buffer));
		r->handle = tracecmd_buffer_instance_handle(top, idx);
		if (r->handle)
			r->top = top;	/* closed with the reader from now on */
		if (!r->info.buffer)
			return kma_err_set(err, KMA_ERR_NOMEM, "out of memory");
		if (!r->handle)
			return kma_err_set(err, KMA_ERR_CORRUPT,
					   "cannot read the instance buffer (corrupt file)");
	}
	return 0;
}

static void file_close(struct kma_reader *r)
{
	free(r->markers);
	kma_layout_clear(&r->layout);
	if (r->handle)
		tracecmd_close(r->handle);
	if (r->top)		/* an instance handle holds a reference of its own */
		tracecmd_close(r->top);
}

static int file_run(struct kma_reader *r, struct kma_err *err);

static const struct kma_source_ops file_ops = { .run = file_run, .close = file_close };

struct kma_reader *kma_reader_open(const char *path, struct kma_err *err)
{
	return kma_reader_open_buffer(path, NULL, err);
}

struct kma_reader *kma_reader_open_buffer(const char *path, const char *buffer,
					  struct kma_err *err)
{
	struct kma_file_opts o = { .buffer = buffer };

	return kma_reader_open_file(path, &o, err);
}

/* No two CPUs of a buffer share event data (libtracecmd would read it twice). */
static int check_overlap(const struct kma_td_layout *lay, struct kma_err *err)
{
	const struct kma_td_buf *b;
	uint32_t a, c;
	int i, ret;

	for (i = 0; i < lay->nr_bufs; i++) {
		b = &lay->bufs[i];
		ret = kma_layout_overlap(b, &a, &c);
		if (ret < 0)
			return kma_err_set(err, KMA_ERR_NOMEM, "out of memory");
		if (ret)
			return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt trace.dat: the event data "
					   "of CPU %" PRIu32 " and CPU %" PRIu32 "%s%s%s overlap",
					   a, c, b->name[0] ? " of buffer '" : "", b->name,
					   b->name[0] ? "'" : "");
	}
	return 0;
}

/*
 * Before libtracecmd sees the file: the header, the structure (v6 and v7)
 * and the kallsyms, by our own walker, which checks every section header it
 * passes (libtracecmd 1.3 crashes on some that do not fit the file), then
 * the header texts in a child.
 */
static int check_file(struct kma_reader *r, const char *path, struct kma_err *err)
{
	int probe;

	/* v7 pages the page reader alone reads are checked as it reads them */
	r->layout.defer_pages = !r->fopts.libtracecmd;
	if (check_header(path, err, &r->layout) ||
	    kma_td_check_v7(path, err, r->file_warn, sizeof(r->file_warn), &r->layout))
		return -1;
	if (r->layout.oom)
		return kma_err_set(err, KMA_ERR_NOMEM, "out of memory");
	if (check_overlap(&r->layout, err))
		return -1;
	if (kma_td_kallsyms(path, &r->kallsyms, &r->kallsyms_len, &r->kallsyms_err) &&
	    r->kallsyms_err.kind == KMA_ERR_BROKEN)
		return kma_err_set(err, KMA_ERR_CORRUPT, "truncated or corrupt trace.dat (%s)",
				   r->kallsyms_err.msg);
	if (r->kallsyms_err.kind == KMA_ERR_NOMEM)
		return kma_err_set(err, KMA_ERR_NOMEM, "out of memory");
	r->kallsyms_size = r->kallsyms ? r->kallsyms_len + 1 : 0;
	/* libtraceevent never parses the kallsyms kma read (kma_reader_open_file): nor the child */
	probe = r->fopts.no_probe ? 0 : kma_probe_headers(path, r->kallsyms != NULL);
	if (probe > 0)
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt trace.dat: a size in %s runs "
				   "past the section's end", kma_td_sec_name((uint64_t)probe));
	if (probe)
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt trace.dat headers (libtraceevent "
				   "cannot parse its event or printk formats)");
	return 0;
}

/* What the file says about itself, once the buffer to read is chosen. */
static int file_info(struct kma_reader *r, const char *path, struct kma_err *err)
{
	const char *cname = NULL, *cver = NULL;

	r->info.file = path;
	r->info.warning = r->file_warn[0] ? r->file_warn : NULL;
	r->info.file_version = (int)tracecmd_get_in_file_version(r->handle);
	if (!tracecmd_get_file_compress_proto(r->handle, &cname, &cver) && cname &&
	    strcmp(cname, "none"))
		r->info.compression = kma_strpool_intern(r->pool, cname, strlen(cname));
	r->info.uname = tracecmd_get_uname(r->handle);
	if (r->info.uname) {
		char rel[128];

		if (sscanf(r->info.uname, "%*s %*s %127s", rel) == 1)
			r->info.release = kma_strpool_intern(r->pool, rel, strlen(rel));
	}
	r->info.cpus = tracecmd_cpus(r->handle);
	r->page_size = tracecmd_page_size(r->handle);
	r->info.long_size = tracecmd_long_size(r->handle);
	r->info.big_endian = tep_is_file_bigendian(r->tep);
	r->swap = tep_is_file_bigendian(r->tep) != tep_is_local_bigendian(r->tep);
	if (r->info.cpus <= 0 || r->info.cpus > 8192)
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt trace.dat: bad CPU count");
	return 0;
}

/* The events looked up; the per-CPU statistics. */
static int file_events(struct kma_reader *r, struct kma_err *err)
{
	int n = kma_reader_setup(r, err);

	/* trace-cmd stores every buffer's statistics in the file's options */
	if (n >= 0 && r->top && tracecmd_get_cpustats(r->handle))
		kma_reader_cpustats(r, tracecmd_get_cpustats(r->handle));
	else if (n >= 0)
		buffer_cpustats(r, tracecmd_get_cpustats(r->top ? r->top : r->handle),
				r->top ? r->info.buffer : NULL);
	if (n < 0 && err->kind != KMA_ERR_NOMEM) {
		char what[sizeof(err->msg)];

		snprintf(what, sizeof(what), "%s", err->msg);
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt trace.dat headers (%s)", what);
	}
	if (n == 0)
		return kma_err_set(err, KMA_ERR_OTHER, "no kmem allocation events in this trace; "
				   "record with -e kmem:kmalloc -e kmem:kfree -e kmem:kmem_cache_alloc "
				   "-e kmem:kmem_cache_free");
	return n < 0 ? -1 : 0;
}

struct kma_reader *kma_reader_open_file(const char *path, const struct kma_file_opts *o,
					struct kma_err *err)
{
	struct kma_reader *r = kma_reader_new(&file_ops);
	const char *buffer = o->buffer;
	struct tracecmd_input *top;

	if (kma_perf_is(path)) {	/* perf record's file: kma-source-perf.c */
		kma_reader_close(r);
		return kma_perf_open(path, o, err);
	}
	if (!r) {
		kma_err_set(err, KMA_ERR_NOMEM, "out of memory");
		return NULL;
	}
	r->fopts = *o;
	if (check_file(r, path, err))
		goto fail;
	/* libtracecmd prints its own diagnostics; we print one line instead. */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	if (r->kallsyms && o->kallsyms_read) {
		r->kallsyms_lent = 1;
		o->kallsyms_read(o->kallsyms_ctx, r->kallsyms, r->kallsyms_len);
	}
	/* with the kallsyms text read, call sites are named from it, never by the tep */
	if (r->kallsyms)
		kma_tep_kallsyms_skip(1);
	r->handle = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (r->kallsyms)
		kma_tep_kallsyms_skip(0);
	if (!r->handle) {
		kma_err_set(err, KMA_ERR_CORRUPT,
			    "cannot read the trace.dat headers (truncated or corrupt file)");
		goto fail;
	}
	/*
	 * tracecmd_open() in two steps: when loading the CPU data fails,
	 * tracecmd_close() of libtracecmd 1.3 crashes on the half-built handle
	 * (the CPUs after the bad one are left uninitialized), so it is left
	 * open; the caller exits on the error anyway. kma-check-v6.c catches
	 * the v6 cases earlier, kma-check-v7.c the v7 ones.
	 */
	if (tracecmd_init_data(r->handle) < 0) {
		r->handle = NULL;
		kma_err_set(err, KMA_ERR_CORRUPT,
			    "cannot read the trace.dat event data (truncated or corrupt file)");
		goto fail;
	}
	r->tep = tracecmd_get_tep(r->handle);
	top = r->handle;
	r->handle = NULL;
	if (attach_buffer(r, path, top, buffer, err)) {
		if (!r->top)
			tracecmd_close(top);
		goto fail;
	}
	if (!r->handle)
		r->handle = top;
	if (file_info(r, path, err) || file_events(r, err) || kma_cpubuf_setup(r, path, err))
		goto fail;
	return r;
fail:
	kma_reader_close(r);
	return NULL;
}

/* The page reader says its progress by the bytes read; libtracecmd's by time. */
static void maybe_progress(struct kma_reader *r, uint64_t ts)
{
	if (r->progress && !r->cpubuf_buf && r->range_last > r->range_first &&
	    ts >= r->range_first)
		kma_reader_progress(r, (double)(ts - r->range_first) /
				       (double)(r->range_last - r->range_first));
}

/* A marker of the top-level buffer, in time order with the records of the instance read. */
static int emit_marker(struct kma_reader *r, const struct kma_event *ev)
{
	if (!r->have_first) {
		r->have_first = 1;
		r->info.first_ts = ev->ts;
	}
	if (ev->ts > r->info.last_ts)
		r->info.last_ts = ev->ts;
	if (r->fn(r->ctx, ev)) {
		r->stopped = 1;
		return -1;
	}
	return 0;
}

static int flush_markers(struct kma_reader *r, uint64_t until)
{
	while (r->next_marker < r->nr_markers && r->markers[r->next_marker].ts <= until)
		if (emit_marker(r, &r->markers[r->next_marker++]))
			return -1;
	return 0;
}

/*
 * A trace marker ("kma: LABEL\n" in the print event's buf, which runs to the
 * end of the record) or a module load/free (name is a __data_loc string).
 */
static int file_record(struct kma_reader *r, struct tep_record *rec)
{
	if (((r->info.events + 1) & 0xffff) == 0)
		maybe_progress(r, rec->ts);
	if (r->next_marker < r->nr_markers && flush_markers(r, rec->ts))
		return -1;
	return kma_reader_decode(r, rec);
}

/*
 * A CPU's next record, for stack pairing. tracecmd_iterate_events() peeks
 * at the CPU itself right after the callback, so peeking in it is safe.
 */
static int tc_peek(void *ctx, int cpu, struct tep_record *out)
{
	struct tep_record *rec = tracecmd_peek_data(ctx, cpu);

	if (!rec)
		return 0;
	*out = *rec;
	return 1;
}

static int on_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *data)
{
	struct kma_reader *r = data;

	if (goes_round(r->tc_last, rec))
		return refuse_round(r, rec);
	return file_record(r, rec);
}

static int queue_marker(void *ctx, const struct kma_event *ev)
{
	struct kma_reader *r = ctx;

	if (kma_grow(&r->markers, &r->cap_markers, r->nr_markers, sizeof(*r->markers), 64)) {
		r->oom = 1;
		return -1;
	}
	r->markers[r->nr_markers++] = *ev;
	return 0;
}

static int found_marker(void *ctx, const struct kma_event *ev)
{
	(void)ctx;
	(void)ev;
	return 1;	/* one is enough */
}

static int marker_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct kma_reader *r = data;

	if (goes_round(r->tc_last, rec))
		return refuse_round(r, rec);
	return kma_reader_decode_marker(r, rec, (unsigned int)tracecmd_page_size(h));
}

/*
 * trace_marker writes (echo "kma: LABEL", kma-mark) land in the top-level
 * buffer, not in the instance that holds the kmem events (unless the
 * instance has the tracefs option copy_trace_marker). So while an instance
 * is read, the top-level buffer's kma markers start the generations, unless
 * the instance holds kma markers of its own: then those, never both.
 */
static int top_markers(struct kma_reader *r)
{
	struct tracecmd_input *h;

	r->fn = queue_marker;
	r->ctx = r;
	tracecmd_iterate_events(r->top, NULL, 0, marker_record, r);
	if (!r->oom && !r->refused[0] && r->nr_markers) {
		h = tracecmd_buffer_instance_handle(r->top, r->buffer_idx);
		r->fn = found_marker;
		memset(r->tc_last, 0, TC_MAX_CPUS * sizeof(*r->tc_last));
		if (h)
			tracecmd_iterate_events(h, NULL, 0, marker_record, r);
		if (!h || r->stopped)
			r->nr_markers = 0;	/* the instance's own markers */
		tracecmd_close(h);
	}
	memset(r->tc_last, 0, TC_MAX_CPUS * sizeof(*r->tc_last));
	r->stopped = 0;
	return r->oom ? -1 : 0;
}

/* The time range of the buffer read, for a progress fraction. */
static void time_range(struct kma_reader *r)
{
	/* a second handle: reading the last records moves the cursors of the one we iterate */
	struct tracecmd_input *f, *h;
	struct tep_record *rec;
	int cpu;

	kma_tep_kallsyms_skip(1);	/* its tep names no functions */
	f = tracecmd_open(r->info.file, TRACECMD_FL_LOAD_NO_PLUGINS);
	kma_tep_kallsyms_skip(0);
	h = f && r->top ? tracecmd_buffer_instance_handle(f, r->buffer_idx) : f;
	r->range_first = UINT64_MAX;
	for (cpu = 0; h && cpu < r->info.cpus; cpu++) {
		/* NULL also for a CPU the buffer has no data for: read_cpu_last() does not check */
		rec = tracecmd_read_cpu_first(h, cpu);
		if (!rec)
			continue;
		if (rec->ts < r->range_first)
			r->range_first = rec->ts;
		tracecmd_free_record(rec);
		rec = tracecmd_read_cpu_last(h, cpu);
		if (rec && rec->ts > r->range_last)
			r->range_last = rec->ts;
		tracecmd_free_record(rec);
	}
	if (h && h != f)
		tracecmd_close(h);
	if (f)
		tracecmd_close(f);
}

static int file_run(struct kma_reader *r, struct kma_err *err)
{
	kma_event_fn fn = r->fn;
	void *ctx = r->ctx;

	/* goes_round()'s offsets, for libtracecmd's iterations */
	r->tc_last = calloc(TC_MAX_CPUS, sizeof(*r->tc_last));
	if (!r->tc_last)
		return kma_err_nomem(err);
	if (r->top && top_markers(r))
		return kma_err_nomem(err);
	if (r->refused[0])	/* the top-level buffer went round */
		return kma_reader_end(r, err);
	r->fn = fn;		/* top_markers() queued the markers through its own */
	r->ctx = ctx;
	clock_gettime(CLOCK_MONOTONIC, &r->start);
	if (r->cpubuf_buf) {
		int ret = kma_cpubuf_run(r, r->cpubuf_buf, file_record, err);

		if (ret == -2)
			return -1;
	} else {
		if (r->progress)
			time_range(r);
		r->peek = tc_peek;
		r->peek_ctx = r->handle;
		tracecmd_iterate_events(r->handle, NULL, 0, on_record, r);
		r->peek = NULL;
	}
	if (!r->stopped)
		flush_markers(r, UINT64_MAX);
	return kma_reader_end(r, err);
}
