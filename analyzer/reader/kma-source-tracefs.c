// SPDX-License-Identifier: GPL-2.0
/*
 * kma-source-tracefs.c - the live source: kmem events straight from the
 * ring buffer through libtracefs.
 *
 * A tracefs instance of our own keeps the user's top-level buffer and
 * settings untouched; its records go through kma-decode.c like those of a
 * trace.dat, so the matcher and the store see no difference.
 */
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <tracefs/tracefs.h>

#include "kma-huge.h"
#include "kma-live.h"
#include "kma-reader-int.h"

static const char * const live_events[][2] = {
	{ "kmem", "kmalloc" }, { "kmem", "kmalloc_node" }, { "kmem", "kmem_cache_alloc" },
	{ "kmem", "kmem_cache_alloc_node" }, { "kmem", "kfree" }, { "kmem", "kmem_cache_free" },
	{ "module", "module_load" }, { "module", "module_free" },
};

/*
 * The kernel's own kallsyms, for names, modules and bounded symbol sizes:
 * *size bytes from kma_huge_alloc() (megabytes, written once).
 */
static char *read_kallsyms(size_t *len, size_t *size)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	*size = 0;
	if (!f)
		return NULL;
	do {
		if (*len + 65536 > cap) {
			size_t nc = cap ? cap * 2 : 1 << 20;
			char *nb = kma_huge_realloc(buf, cap, nc);

			if (!nb) {
				kma_huge_free(buf, cap);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap = nc;
		}
		n = fread(buf + *len, 1, cap - *len - 1, f);
		*len += n;
	} while (n > 0);
	fclose(f);
	buf[*len] = '\0';
	*size = cap;
	return buf;
}

/* The first line of a sysfs file, without its newline; 0 when empty or unreadable. */
static size_t read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f && fgets(buf, (int)size, f)) {
		n = strcspn(buf, "\n");
		buf[n] = 0;
	}
	if (f)
		fclose(f);
	return n;
}

/*
 * The CPU -> node map, which kma-record writes into a trace as a marker: live,
 * this machine is the traced one, so report.db's cpu_nodes and cross_node_stats
 * get it from sysfs, in the marker's words ("cpu 0-3 node 0; cpu 4-7 node 1").
 * A kernel without NUMA has no node directories: every online CPU is node 0,
 * as kma-record says. A map too long for the buffer is left out, not cut.
 */
static void read_topology(struct kma_reader *r)
{
	char text[4096], list[1024], path[PATH_MAX];
	size_t len = 0, i;
	glob_t g;

	if (!glob("/sys/devices/system/node/node[0-9]*", 0, NULL, &g)) {
		for (i = 0; i < g.gl_pathc && len < sizeof(text); i++) {
			snprintf(path, sizeof(path), "%s/cpulist", g.gl_pathv[i]);
			if (read_line(path, list, sizeof(list)))
				len += snprintf(text + len, sizeof(text) - len, "%scpu %s node %s",
						len ? "; " : "", list,
						strrchr(g.gl_pathv[i], 'e') + 1);
		}
		globfree(&g);
	}
	if (!len && read_line("/sys/devices/system/cpu/online", list, sizeof(list)))
		len = snprintf(text, sizeof(text), "cpu %s node 0", list);
	if (len && len < sizeof(text))
		r->info.topology = kma_strpool_intern(r->pool, text, len);
}

static void tracefs_close(struct kma_reader *r);
static int tracefs_run(struct kma_reader *r, struct kma_err *err);

static const struct kma_source_ops tracefs_ops = { .run = tracefs_run, .close = tracefs_close };

unsigned int kma_live_buffer_kb_for(uint64_t mem_available_kb, int cpus)
{
	uint64_t kb = mem_available_kb / 64 / (uint64_t)(cpus > 0 ? cpus : 1);

	if (kb < 8192)
		kb = 8192;
	if (kb > 65536)
		kb = 65536;
	return (unsigned int)kb;
}

unsigned int kma_live_default_buffer_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long kb = 0;
	char line[256];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kma_live_buffer_kb_for(kb, (int)sysconf(_SC_NPROCESSORS_ONLN));
}

/* The instance's ring buffer, @kb per CPU; what the kernel set is kept in info. */
static int set_buffer(struct kma_reader *r, unsigned int kb, struct kma_err *err)
{
	ssize_t got;

	if (tracefs_instance_set_buffer_size(r->instance, kb, -1))
		return kma_err_set(err, KMA_ERR_OTHER, "cannot size the ring buffer to %u KiB per "
				   "CPU: %s", kb, strerror(errno));
	got = tracefs_instance_get_buffer_size(r->instance, 0);
	r->info.buffer_kb = got > 0 ? (unsigned int)got : kb;
	return 0;
}

struct kma_reader *kma_live_open(const struct kma_live_opts *o, struct kma_err *err)
{
	static const char * const systems[] = { "kmem", "ftrace", "module", NULL };
	struct kma_reader *r = kma_reader_new(&tracefs_ops);
	struct utsname u;
	char name[512], buf[32];
	size_t i;
	int enabled = 0, n;

	if (!r) {
		kma_err_set(err, KMA_ERR_NOMEM, "out of memory");
		return NULL;
	}
	r->info.file = "live";
	r->src_opts = o;
	if (!tracefs_tracing_dir()) {
		kma_err_set(err, KMA_ERR_OTHER,
			    "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
		goto fail;
	}
	r->tep = tracefs_local_events_system(NULL, systems);
	if (!r->tep) {
		kma_err_set(err, KMA_ERR_OTHER,
			    "cannot read the event formats from tracefs (are you root?)");
		goto fail;
	}
	tracefs_load_cmdlines(NULL, r->tep);
	r->kallsyms = read_kallsyms(&r->kallsyms_len, &r->kallsyms_size);
	if (!r->kallsyms)
		kma_err_set(&r->kallsyms_err, KMA_ERR_OTHER, "no /proc/kallsyms");
	if (!uname(&u)) {
		snprintf(name, sizeof(name), "%s %s %s", u.sysname, u.release, u.machine);
		r->info.uname = kma_strpool_intern(r->pool, name, strlen(name));
		r->info.release = kma_strpool_intern(r->pool, u.release, strlen(u.release));
	}
	r->info.cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	read_topology(r);
	r->info.long_size = sizeof(long);
	r->info.big_endian = tep_is_local_bigendian(r->tep);
	n = kma_reader_setup(r, err);
	if (n <= 0) {
		if (!n)
			kma_err_set(err, KMA_ERR_OTHER, "this kernel has no kmem allocation events");
		goto fail;
	}
	snprintf(name, sizeof(name), "kma-live-%d", (int)getpid());
	r->instance = tracefs_instance_create(name);
	if (!r->instance) {
		kma_err_set(err, KMA_ERR_OTHER, "cannot create a tracefs instance: %s%s",
			    strerror(errno), errno == EACCES || errno == EPERM ? " (run as root)" : "");
		goto fail;
	}
	if (set_buffer(r, o->buffer_kb ? o->buffer_kb : kma_live_default_buffer_kb(), err))
		goto fail;
	for (i = 0; i < sizeof(live_events) / sizeof(live_events[0]); i++)
		enabled += !tracefs_event_enable(r->instance, live_events[i][0],
						 live_events[i][1]) && !strcmp(live_events[i][0], "kmem");
	if (!enabled) {
		kma_err_set(err, KMA_ERR_OTHER, "cannot enable the kmem events in the tracefs instance");
		goto fail;
	}
	/* trace_marker writes reach instances only with this option (Linux 6.13+) */
	snprintf(buf, sizeof(buf), "1");
	tracefs_instance_file_write(r->instance, "options/copy_trace_marker", buf);
	if (tracefs_trace_on(r->instance)) {
		kma_err_set(err, KMA_ERR_OTHER, "cannot turn tracing on in the tracefs instance");
		goto fail;
	}
	return r;
fail:
	kma_reader_close(r);
	return NULL;
}

/*
 * Removes the instance. The kernel refuses while any of its files is open
 * (EBUSY): someone reading its buffer_size_kb or a tool listing its options
 * holds it for moments, so a busy instance is tried again for up to two
 * seconds. One still there after that is named in info.warning: a leftover
 * keeps its ring buffer's memory until someone removes it.
 */
static void remove_instance(struct kma_reader *r)
{
	char *dir = tracefs_instance_get_dir(r->instance);
	const char *name = tracefs_instance_get_name(r->instance);
	size_t len;
	int i, ret = -1, why = ENOMEM;

	tracefs_trace_off(r->instance);
	if (!dir)		/* no memory for its path: the library's one try */
		tracefs_instance_destroy(r->instance);
	for (i = 0; dir && i < 200; i++) {
		ret = rmdir(dir);
		why = errno;
		if (!ret || why != EBUSY)
			break;
		usleep(10000);
	}
	if (ret && dir) {
		len = strlen(r->file_warn);
		snprintf(r->file_warn + len, sizeof(r->file_warn) - len,
			 "%scannot remove the tracefs instance %s (%s): rmdir %s",
			 len ? "; " : "", name ? name : "", strerror(why), dir);
		r->info.warning = r->file_warn;
	}
	tracefs_put_tracing_file(dir);
	tracefs_instance_free(r->instance);
	r->instance = NULL;
}

static void tracefs_close(struct kma_reader *r)
{
	if (r->instance)
		remove_instance(r);
	if (r->tep)		/* the live source's own (a file's belongs to its handle) */
		tep_free(r->tep);
	r->tep = NULL;
}

static int on_live_record(struct tep_event *event, struct tep_record *rec, int cpu, void *data)
{
	struct kma_reader *r = data;

	(void)event;
	rec->cpu = cpu;
	return kma_reader_decode(r, rec) ? 1 : 0;
}

/* Reads the per-CPU statistics of the instance: overruns and drops. */
static void read_stats(struct kma_reader *r)
{
	int cpu;

	for (cpu = 0; cpu < r->info.cpus; cpu++) {
		char file[64], *text, *all;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(r->instance, file, NULL);
		if (!text)
			continue;
		if (asprintf(&all, "CPU: %d\n%s", cpu, text) >= 0) {
			kma_reader_cpustats(r, all);
			free(all);
		}
		free(text);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Sleeps @wait seconds, or until a key comes when @o has keys: each byte read
 * goes to o->key at once. 1 when a key asked for a redraw. End of input or an
 * error on the fd (a closed terminal) ends the key handling, not the run.
 */
static int wait_or_key(const struct kma_live_opts *o, int *fd, double wait)
{
	struct pollfd p = { .fd = *fd, .events = POLLIN };
	unsigned char buf[64];
	ssize_t n, i;
	int redraw = 0;

	if (*fd < 0 || !o->key) {
		struct timespec ts = { (time_t)wait, (long)((wait - (time_t)wait) * 1e9) };

		nanosleep(&ts, NULL);	/* a signal ends it early: fine */
		return 0;
	}
	if (wait > 3600)
		wait = 3600;	/* the loop waits again: the poll's int stays in range */
	if (poll(&p, 1, (int)(wait * 1000) + 1) <= 0)
		return 0;		/* the time is up, or a signal */
	n = read(*fd, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0) {
		*fd = -1;
		return 0;
	}
	for (i = 0; i < n; i++)
		redraw |= o->key(o->refresh_ctx, buf[i]);
	return redraw;
}

static void refresh(struct kma_reader *r, double elapsed, int redraw)
{
	const struct kma_live_opts *o = r->src_opts;

	if (!o->refresh)
		return;
	read_stats(r);		/* the lost events so far, for the header */
	o->refresh(o->refresh_ctx, &r->info, elapsed, redraw);
}

static int tracefs_run(struct kma_reader *r, struct kma_err *err)
{
	const struct kma_live_opts *o = r->src_opts;
	double start = now_s(), next = start + o->interval;
	int fd = o->key_fd;

	while (!r->stopped && !*o->stop && (!o->duration || now_s() - start < o->duration)) {
		double wait = next - now_s(), now;
		int redraw = 0;

		if (o->duration && start + o->duration - now_s() < wait)
			wait = start + o->duration - now_s();
		if (wait > 0)
			redraw = wait_or_key(o, &fd, wait);
		if (*o->stop)
			break;		/* q or a signal: the last read is below */
		tracefs_iterate_raw_events(r->tep, r->instance, NULL, 0, on_live_record, r);
		now = now_s();
		if (now >= next) {
			/* a slow frame skips the refreshes it missed */
			next = now - next > o->interval ? now + o->interval : next + o->interval;
			refresh(r, now - start, 0);
		} else if (redraw) {
			refresh(r, now - start, 1);
		}
	}
	tracefs_trace_off(r->instance);
	/* what is still in the buffer */
	tracefs_iterate_raw_events(r->tep, r->instance, NULL, 0, on_live_record, r);
	read_stats(r);
	/* gone before the report is written, and a leftover told with it */
	remove_instance(r);
	return kma_reader_end(r, err);
}
