// SPDX-License-Identifier: GPL-2.0
/*
 * kma-reader.c - trace.dat -> normalized kma events.
 *
 * As trace-cmd's trace-mem.c does: look the kmem events and their fields up
 * once, by name, tolerating the optional ones, then stream every record
 * through one callback that dispatches on the event id.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "kma-reader.h"
#include "kma-map.h"
#include "kma-strpool.h"
#include "kma-validate.h"
#include "kma-sites.h"

/*
 * Exported by libtracecmd 1.3 but declared only in trace-cmd's private
 * header, which Debian does not ship. They are stable since 1.0.
 */
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
int tracecmd_long_size(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle, int cpu);
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle,
				     const char **name, const char **version);
bool tracecmd_compress_is_supported(const char *name, const char *version);

enum field_id {
	F_CALL_SITE, F_PTR, F_BYTES_REQ, F_BYTES_ALLOC, F_GFP, F_NODE, F_NAME, F_ACCOUNTED,
	F_NR,
};

static const char * const field_names[F_NR] = {
	"call_site", "ptr", "bytes_req", "bytes_alloc", "gfp_flags", "node", "name", "accounted",
};

/* Fields every event of a kind must have; the others are optional. */
#define REQ_FREE	((1u << F_CALL_SITE) | (1u << F_PTR))
#define REQ_ALLOC	(REQ_FREE | (1u << F_BYTES_REQ) | (1u << F_BYTES_ALLOC))

static const char * const kmem_events[KMA_EV_NR] = {
	[KMA_EV_KMALLOC]		= "kmalloc",
	[KMA_EV_KMALLOC_NODE]		= "kmalloc_node",
	[KMA_EV_CACHE_ALLOC]		= "kmem_cache_alloc",
	[KMA_EV_CACHE_ALLOC_NODE]	= "kmem_cache_alloc_node",
	[KMA_EV_KFREE]			= "kfree",
	[KMA_EV_CACHE_FREE]		= "kmem_cache_free",
};

struct ev_desc {
	int			type;		/* enum kma_ev_type, -1: not followed */
	struct tep_format_field	*text;		/* print: buf; module events: name */
	struct tep_format_field	*f[F_NR];
	unsigned int		min_size;	/* record size needed for the fixed fields */
};

struct kma_reader {
	struct tracecmd_input	*handle;
	struct tep_handle	*tep;
	struct kma_trace_info	info;
	struct ev_desc		*by_id;		/* indexed by event id */
	uint64_t		*id_count;	/* records per event id */
	int			max_id;
	struct kma_strpool	*pool;		/* cache names, symbols, strings */
	struct kma_sites	*sites;		/* call site names, modules, lines */
	struct kma_map		comm_map;	/* pid -> index in comms */
	const char		**comms;
	uint32_t		nr_comms, cap_comms;
	/* run state */
	kma_event_fn		fn;
	void			*ctx;
	kma_progress_fn		progress;
	void			*pctx;
	int			stopped;
	int			oom;
	struct timespec		start;
	int			progress_on;
	uint64_t		range_first, range_last;
	int			swap;		/* file byte order differs from the host's */
	unsigned int		page_size;	/* ring-buffer page */
	struct tep_format_field	*common_pid;
	int			last_pid;	/* comm_of() cache */
	const char		*last_comm;
	char			*marker_prefix;
};

const struct kma_trace_info *kma_reader_info(const struct kma_reader *r)
{
	return &r->info;
}

/* Interns s into a growable array indexed through a map; returns the stable copy. */
static const char *remember(struct kma_reader *r, struct kma_map *map, const char ***arr,
			    uint32_t *nr, uint32_t *cap, uint64_t key, const char *s)
{
	const char *copy = kma_strpool_intern(r->pool, s, strlen(s));

	if (!copy)
		return NULL;
	if (*nr == *cap) {
		uint32_t ncap = *cap ? *cap * 2 : 256;
		const char **n = realloc(*arr, ncap * sizeof(*n));

		if (!n)
			return NULL;
		*arr = n;
		*cap = ncap;
	}
	if (kma_map_put(map, key, *nr))
		return NULL;
	(*arr)[(*nr)++] = copy;
	return copy;
}

const char *kma_reader_symbol(void *reader, uint64_t addr)
{
	const struct kma_site *site = kma_reader_site(reader, addr);

	return site ? site->name : NULL;
}

const struct kma_site *kma_reader_site(void *reader, uint64_t addr)
{
	return kma_sites_get(((struct kma_reader *)reader)->sites, addr);
}

const char *kma_reader_module(void *reader, uint64_t addr)
{
	const struct kma_site *site = kma_reader_site(reader, addr);

	return site ? site->module : NULL;
}

const char *kma_reader_group_name(void *reader, uint64_t addr, enum kma_group g)
{
	struct kma_reader *r = reader;
	const struct kma_site *site = kma_reader_site(reader, addr);
	const char *name = NULL;

	if (!site)
		return NULL;
	switch (g) {
	case KMA_GROUP_FUNCTION:
		name = site->symbol ? site->symbol : site->name;
		break;
	case KMA_GROUP_MODULE:
		name = site->module ? site->module : site->symbol ? "vmlinux" : "[unknown]";
		break;
	case KMA_GROUP_FILE:
		name = site->file ? site->file : "[unknown]";
		break;
	default:
		name = site->name;
		break;
	}
	/* interned here too, so that equal names are one pointer */
	return kma_strpool_intern(r->pool, name, strlen(name));
}

int kma_reader_set_debug(struct kma_reader *r, const char *vmlinux, const char *modules_dir,
			 const char **why)
{
	return kma_sites_set_debug(r->sites, vmlinux, modules_dir, r->info.release, why);
}

/*
 * tep_read_number() is a library call per field; this runs for every field of
 * every record, so read in place and swap only when the file's byte order
 * differs from ours.
 */
static inline uint64_t num(struct kma_reader *r, const struct tep_format_field *f, void *data)
{
	const unsigned char *p = (const unsigned char *)data + f->offset;
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;

	switch (f->size) {
	case 8:
		memcpy(&v8, p, 8);
		return r->swap ? __builtin_bswap64(v8) : v8;
	case 4:
		memcpy(&v4, p, 4);
		return r->swap ? __builtin_bswap32(v4) : v4;
	case 2:
		memcpy(&v2, p, 2);
		return r->swap ? __builtin_bswap16(v2) : v2;
	case 1:
		return *p;
	default:
		return tep_read_number(r->tep, p, f->size);
	}
}

static const char *comm_of(struct kma_reader *r, int pid)
{
	uint32_t *idx;
	const char *comm;

	if (pid == r->last_pid && r->last_comm)
		return r->last_comm;
	idx = kma_map_find(&r->comm_map, (uint64_t)(uint32_t)pid);
	if (idx) {
		comm = r->comms[*idx];
	} else {
		comm = pid ? tep_data_comm_from_pid(r->tep, pid) : "<idle>";
		comm = remember(r, &r->comm_map, &r->comms, &r->nr_comms, &r->cap_comms,
				(uint64_t)(uint32_t)pid, comm ? comm : "<...>");
	}
	r->last_pid = pid;
	r->last_comm = comm;
	return comm;
}

static int pid_of(struct kma_reader *r, struct tep_record *rec)
{
	if (r->common_pid && r->common_pid->offset + r->common_pid->size <= rec->size)
		return (int)(int32_t)num(r, r->common_pid, rec->data);
	return tep_data_pid(r->tep, rec);
}

/* Reads the 10-byte magic and, for v7, the compression names: clear errors early. */
static int check_header(const char *path, const char **why)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	unsigned char buf[256];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		*why = errno == ENOENT ? "no such file" : errno == EACCES ?
			"permission denied" : "cannot open file";
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		*why = "not a regular file";
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n > 12 && !memcmp(buf, magic, sizeof(magic)) && buf[10] == '6' && !buf[11] &&
	    kma_validate_v6(fd, (uint64_t)st.st_size, why)) {
		close(fd);
		return -1;
	}
	close(fd);
	if (n <= 0) {
		*why = "empty file, not a trace.dat";
		return -1;
	}
	if (n < (ssize_t)sizeof(magic) || memcmp(buf, magic, sizeof(magic))) {
		*why = "not a trace-cmd trace.dat file (bad magic)";
		return -1;
	}
	buf[n] = '\0';
	if (n < (ssize_t)sizeof(magic) + 2)
		goto truncated;
	/*
	 * v7: version string, endian (1), long size (1), page size (4), the
	 * compression name and version, then the offset of the first options
	 * section. libtracecmd 1.3 crashes on some files cut short here, so
	 * check that the header is whole and the offset points into the file.
	 */
	if (atoi((char *)buf + sizeof(magic)) >= 7) {
		size_t off = sizeof(magic) + strlen((char *)buf + sizeof(magic)) + 1;
		const char *name, *ver;
		uint64_t opt_off = 0;
		uint32_t page_size = 0;
		int big_endian, i;

		if (off + 6 >= (size_t)n)
			goto truncated;
		big_endian = buf[off];
		for (i = 0; i < 4; i++)		/* after endian and long size */
			page_size |= (uint32_t)buf[off + 2 + (big_endian ? 3 - i : i)] << (8 * i);
		if (!kma_valid_page_size(page_size)) {
			*why = "corrupt trace.dat header (bad page size)";
			return -1;
		}
		off += 6;
		name = (char *)buf + off;
		off += strlen(name) + 1;
		if (off >= (size_t)n)
			goto truncated;
		ver = (char *)buf + off;
		off += strlen(ver) + 1;
		if (off + 8 > (size_t)n)
			goto truncated;
		for (i = 0; i < 8; i++)
			opt_off |= (uint64_t)buf[off + (big_endian ? i : 7 - i)] << (8 * (7 - i));
		if (opt_off < off + 8 || opt_off >= (uint64_t)st.st_size)
			goto truncated;
		if (strcmp(name, "none") && *name && !tracecmd_compress_is_supported(name, ver)) {
			static char msg[160];

			snprintf(msg, sizeof(msg),
				 "compressed with %.32s, which this libtracecmd cannot read; "
				 "convert it with 'trace-cmd convert --compression none'", name);
			*why = msg;
			return -1;
		}
	}
	return 0;
truncated:
	*why = "truncated trace.dat header";
	return -1;
}

static void parse_cpustats(struct kma_reader *r)
{
	const char *s = tracecmd_get_cpustats(r->handle);
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

/* Markers and module events: optional, one text field each. */
static void follow_text_event(struct kma_reader *r, const char *sys, const char *name,
			      const char *field, int type)
{
	struct tep_event *ev = tep_find_event_by_name(r->tep, sys, name);
	struct tep_format_field *f = ev ? tep_find_field(ev, field) : NULL;

	if (!f || ev->id < 0 || ev->id > r->max_id || r->by_id[ev->id].type >= 0)
		return;
	r->by_id[ev->id].type = type;
	r->by_id[ev->id].text = f;
}

static int lookup_events(struct kma_reader *r)
{
	struct tep_event **all = tep_list_events(r->tep, TEP_EVENT_SORT_ID);
	int i, t, k, found = 0;

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
		struct tep_event *ev = tep_find_event_by_name(r->tep, "kmem", kmem_events[t]);
		unsigned int req = kma_ev_is_alloc(t) ? REQ_ALLOC : REQ_FREE;
		struct ev_desc *d;

		if (!ev || ev->id < 0 || ev->id > r->max_id)
			continue;
		d = &r->by_id[ev->id];
		for (k = 0; k < F_NR; k++) {
			struct tep_format_field *f = tep_find_field(ev, field_names[k]);

			/* A field of another shape than expected is treated as absent. */
			if (f && (f->size < 1 || f->size > 8 ||
				  (k == F_NAME && !(f->flags & TEP_FIELD_IS_DYNAMIC))))
				f = NULL;
			if (!f && (req & (1u << k)))
				break;
			d->f[k] = f;
			if (f && f->offset + f->size > (int)d->min_size)
				d->min_size = f->offset + f->size;
		}
		if (k < F_NR) {
			memset(d, 0, sizeof(*d));
			d->type = -1;
			continue;
		}
		d->type = t;
		if (!r->common_pid) {
			r->common_pid = tep_find_common_field(ev, "common_pid");
			if (r->common_pid && r->common_pid->size != 4)
				r->common_pid = NULL;
		}
		found++;
	}
	follow_text_event(r, "ftrace", "print", "buf", KMA_EV_MARKER);
	follow_text_event(r, "module", "module_load", "name", KMA_EV_MODULE_LOAD);
	follow_text_event(r, "module", "module_free", "name", KMA_EV_MODULE_FREE);
	return found;
}

struct kma_reader *kma_reader_open(const char *path, const char **why)
{
	struct kma_reader *r;
	const char *cname = NULL, *cver = NULL;
	int n;

	if (check_header(path, why))
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r || !(r->marker_prefix = strdup("kma:")) || !(r->pool = kma_strpool_alloc()) ||
	    kma_map_init(&r->comm_map, 256)) {
		*why = "out of memory";
		goto fail;
	}
	/* libtracecmd prints its own diagnostics; we print one line instead. */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	r->handle = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!r->handle) {
		*why = "cannot read the trace.dat headers (truncated or corrupt file)";
		goto fail;
	}
	/*
	 * tracecmd_open() in two steps: when loading the CPU data fails,
	 * tracecmd_close() of libtracecmd 1.3 crashes on the half-built handle
	 * (the CPUs after the bad one are left uninitialized), so it is left
	 * open; the caller exits on the error anyway. kma-validate.c catches
	 * the v6 cases earlier; v7 pages are compressed and checked only here.
	 */
	if (tracecmd_init_data(r->handle) < 0) {
		r->handle = NULL;
		*why = "cannot read the trace.dat event data (truncated or corrupt file)";
		goto fail;
	}
	r->tep = tracecmd_get_tep(r->handle);
	r->sites = kma_sites_alloc(path, r->tep);
	if (!r->sites) {
		*why = "out of memory";
		goto fail;
	}
	r->info.file = path;
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
	if (r->info.cpus <= 0 || r->info.cpus > 8192) {
		*why = "corrupt trace.dat: bad CPU count";
		goto fail;
	}
	r->info.lost = calloc(r->info.cpus, sizeof(*r->info.lost));
	if (!r->info.lost) {
		*why = "out of memory";
		goto fail;
	}
	parse_cpustats(r);
	n = lookup_events(r);
	if (n < 0) {
		*why = "out of memory";
		goto fail;
	}
	if (n == 0) {
		*why = "no kmem allocation events in this trace; record with -e kmem:kmalloc "
		       "-e kmem:kfree -e kmem:kmem_cache_alloc -e kmem:kmem_cache_free";
		goto fail;
	}
	return r;
fail:
	kma_reader_close(r);
	return NULL;
}

int kma_reader_set_marker_prefix(struct kma_reader *r, const char *prefix)
{
	char *p = strdup(prefix);

	if (!p)
		return -1;
	free(r->marker_prefix);
	r->marker_prefix = p;
	return 0;
}

void kma_reader_close(struct kma_reader *r)
{
	if (!r)
		return;
	free(r->marker_prefix);
	if (r->handle)
		tracecmd_close(r->handle);
	kma_sites_free(r->sites);
	kma_map_release(&r->comm_map);
	free(r->comms);
	free(r->by_id);
	free(r->id_count);
	free(r->info.counts);
	free(r->info.lost);
	kma_strpool_free(r->pool);
	free(r);
}

static const char *dyn_string(struct kma_reader *r, const struct tep_format_field *f,
			      struct tep_record *rec)
{
	uint64_t v = num(r, f, rec->data);
	unsigned int off = v & 0xffff, len = (v >> 16) & 0xffff;

	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += f->offset + f->size;
	if (off >= (unsigned int)rec->size || len == 0)
		return NULL;
	if (len > (unsigned int)rec->size - off)
		len = rec->size - off;
	len = strnlen((char *)rec->data + off, len);
	return kma_strpool_intern(r->pool, (char *)rec->data + off, len);
}

static void maybe_progress(struct kma_reader *r, uint64_t ts)
{
	struct timespec now;

	if (!r->progress)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!r->progress_on && now.tv_sec - r->start.tv_sec < 1)
		return;
	r->progress_on = 1;
	if (r->range_last > r->range_first && ts >= r->range_first)
		r->progress(r->pctx, (double)(ts - r->range_first) /
				     (double)(r->range_last - r->range_first));
}

/*
 * A trace marker ("kma: LABEL\n" in the print event's buf, which runs to the
 * end of the record) or a module load/free (name is a __data_loc string).
 */
static int on_text_record(struct kma_reader *r, struct ev_desc *d, struct tep_record *rec)
{
	struct kma_event ev = { .type = d->type, .ts = rec->ts, .cpu = rec->cpu, .node = -1,
				.accounted = -1 };
	const char *text;
	size_t len, plen;

	r->info.other_events++;
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
	ev.pid = pid_of(r, rec);
	ev.comm = comm_of(r, ev.pid);
	if (!ev.label || !ev.comm) {
		r->oom = 1;
		r->stopped = 1;
		return -1;
	}
	if (r->fn(r->ctx, &ev)) {
		r->stopped = 1;
		return -1;
	}
	return 0;
}

static int on_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *data)
{
	struct kma_reader *r = data;
	struct kma_event ev;
	struct ev_desc *d;
	int id;

	(void)handle;
	(void)cpu;
	if (r->stopped)
		return -1;
	cpu = rec->cpu;		/* the argument is not reliable in libtracecmd 1.3 */
	if (cpu >= 0 && cpu < r->info.cpus && rec->missed_events) {
		if (rec->missed_events > 0)
			r->info.lost[cpu].page_missed += rec->missed_events;
		else
			r->info.lost[cpu].missed_unknown++;
	}
	if (!r->info.events++)
		r->info.first_ts = rec->ts;
	r->info.last_ts = rec->ts;
	if ((r->info.events & 0xffff) == 0)
		maybe_progress(r, rec->ts);
	/*
	 * kbuffer does not bound a record by its page: one that runs past it
	 * is corrupt, and its fields may lie outside the buffer.
	 */
	if (rec->offset % r->page_size + (unsigned int)rec->record_size > r->page_size) {
		r->info.bad_records++;
		return 0;
	}
	if (rec->size < 2) {
		r->info.other_events++;
		return 0;
	}
	id = (int)tep_read_number(r->tep, rec->data, 2);
	if (id > r->max_id) {
		r->info.other_events++;
		return 0;
	}
	r->id_count[id]++;
	if (r->by_id[id].type < 0) {
		r->info.other_events++;
		return 0;
	}
	d = &r->by_id[id];
	if (d->text)
		return on_text_record(r, d, rec);
	if ((unsigned int)rec->size < d->min_size) {
		r->info.bad_records++;
		return 0;
	}
	memset(&ev, 0, sizeof(ev));
	ev.type = d->type;
	ev.ts = rec->ts;
	ev.cpu = cpu;
	ev.pid = pid_of(r, rec);
	ev.comm = comm_of(r, ev.pid);
	ev.call_site = num(r, d->f[F_CALL_SITE], rec->data);
	ev.ptr = num(r, d->f[F_PTR], rec->data);
	ev.node = -1;
	ev.accounted = -1;
	if (d->f[F_BYTES_REQ]) {
		ev.bytes_req = num(r, d->f[F_BYTES_REQ], rec->data);
		ev.bytes_alloc = num(r, d->f[F_BYTES_ALLOC], rec->data);
	}
	if (d->f[F_GFP])
		ev.gfp_flags = num(r, d->f[F_GFP], rec->data);
	if (d->f[F_NODE])
		ev.node = (int)(int32_t)num(r, d->f[F_NODE], rec->data);
	if (d->f[F_ACCOUNTED])
		ev.accounted = !!num(r, d->f[F_ACCOUNTED], rec->data);
	if (d->f[F_NAME])
		ev.cache = dyn_string(r, d->f[F_NAME], rec);
	if (!ev.comm || (d->f[F_NAME] && !ev.cache && r->oom)) {
		r->oom = 1;
		r->stopped = 1;
		return -1;
	}
	r->info.ev_count[ev.type]++;
	r->info.kmem_events++;
	if (r->fn(r->ctx, &ev)) {
		r->stopped = 1;
		return -1;
	}
	return 0;
}

/* Names the per-id record counts: "system:event", records of unknown ids as "unknown". */
static int count_events(struct kma_reader *r)
{
	int id, n = 0;

	r->info.counts = calloc(r->max_id + 1, sizeof(*r->info.counts));
	if (!r->info.counts)
		return -1;
	for (id = 0; id <= r->max_id; id++) {
		struct tep_event *ev;
		char name[256];

		if (!r->id_count[id])
			continue;
		ev = tep_find_event(r->tep, id);
		snprintf(name, sizeof(name), "%s:%s", ev ? ev->system : "unknown",
			 ev ? ev->name : "unknown");
		r->info.counts[n].name = kma_strpool_intern(r->pool, name, strlen(name));
		r->info.counts[n].count = r->id_count[id];
		if (!r->info.counts[n++].name)
			return -1;
	}
	r->info.nr_counts = n;
	return 0;
}

int kma_reader_run(struct kma_reader *r, kma_event_fn fn, void *ctx,
		   kma_progress_fn progress, void *pctx, const char **why)
{
	int cpu;

	r->fn = fn;
	r->ctx = ctx;
	r->progress = progress;
	r->pctx = pctx;
	clock_gettime(CLOCK_MONOTONIC, &r->start);
	if (progress) {
		/*
		 * The time range, for a progress fraction, from a second handle:
		 * reading the last records moves the cursors of the one we iterate.
		 */
		struct tracecmd_input *h = tracecmd_open(r->info.file, TRACECMD_FL_LOAD_NO_PLUGINS);

		r->range_first = h ? tracecmd_get_first_ts(h) : 0;
		for (cpu = 0; h && cpu < r->info.cpus; cpu++) {
			struct tep_record *rec = tracecmd_read_cpu_last(h, cpu);

			if (rec && rec->ts > r->range_last)
				r->range_last = rec->ts;
			if (rec)
				tracecmd_free_record(rec);
		}
		if (h)
			tracecmd_close(h);
	}
	tracecmd_iterate_events(r->handle, NULL, 0, on_record, r);
	if (!r->oom && count_events(r))
		r->oom = 1;
	if (r->oom) {
		*why = "out of memory";
		return -1;
	}
	if (r->stopped) {
		*why = NULL;	/* the consumer said why */
		return -1;
	}
	return 0;
}
