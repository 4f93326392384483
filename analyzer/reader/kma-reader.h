/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-reader.h - trace.dat (or the live ring buffer) -> normalized kma
 * events. The only layer that knows libtracecmd / libtracefs. It hands out
 * what the call-site layer (sites/) needs: the kernel's kallsyms text, the
 * tep of the trace and the kernel release.
 */
#ifndef KMA_READER_H
#define KMA_READER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "kma-event.h"
#include "kma-err.h"

struct kma_reader;
struct tep_handle;

/* Losses the file reports for one CPU. */
struct kma_lost {
	uint64_t	page_missed;	/* sum of known missed-event counts on pages */
	uint64_t	missed_unknown;	/* pages flagged with an unknown count */
	uint64_t	overrun;	/* per-CPU stats: "overrun:" */
	uint64_t	commit_overrun;	/* per-CPU stats: "commit overrun:" */
	uint64_t	dropped;	/* per-CPU stats: "dropped events:" */
};

/* The page flags and the overrun counter count the same overwritten events. */
static inline uint64_t kma_lost_total(const struct kma_lost *l)
{
	uint64_t m = l->page_missed > l->overrun ? l->page_missed : l->overrun;

	return m + l->commit_overrun + l->dropped;
}

/*
 * Damage found in one CPU's ring-buffer data, which kma reads past: each
 * kind is left out of the analysis, counted and reported (stderr, the text
 * summary, report.db's ring_damage table).
 */
struct kma_damage {
	uint64_t	short_records;	/* records too short for their event format */
	uint64_t	overlong_records; /* records running past the end of their page */
	uint64_t	zero_pages;	/* all-zero pages (no header, no records) */
	uint64_t	jump_pages;	/* pages skipped: their time out of line with the CPU's */
	uint64_t	jump_records;	/* the records of those pages */
	uint64_t	jump_offset;	/* the first such page: its offset in the file, or */
	int		jump_inflated;	/* 1: in the CPU's inflated data (compressed file) */
};

struct kma_event_count {
	const char	*name;		/* "system:event" */
	uint64_t	count;
};

struct kma_trace_info {
	const char	*file;
	const char	*warning;	/* what the file lacks that kma does not need (live:
				   the tracefs instance it could not remove), or NULL */
	const char	*records_warning; /* after a run: records kma could not attribute */
	const char	*buffer;	/* "top" or the instance read; NULL live */
	int		buffer_auto;	/* 1: an instance chosen as the top-level had no kmem */
	int		file_version;	/* trace.dat 6 or 7; 2: a perf.data (PERFILE2) */
	const char	*compression;	/* NULL: none */
	const char	*uname;		/* NULL when the file has none */
	const char	*release;	/* kernel release parsed from uname, or NULL */
	int		cpus;
	unsigned int	buffer_kb;	/* --live: the ring buffer per CPU as set; 0 for a file */
	int		long_size;
	int		big_endian;
	uint64_t	first_ts;
	uint64_t	last_ts;
	uint64_t	events;		/* records read */
	uint64_t	kmem_events;	/* alloc/free records handed on */
	uint64_t	bad_records;	/* kmem records too short for their format */
	uint64_t	ev_count[KMA_EV_NR];
	uint64_t	other_events;	/* records of any other event */
	uint64_t	stacked;	/* kmem events paired with an ftrace:kernel_stack */
	/* page allocator records (counted in other_events too), by kma_ev_type - KMA_EV_PAGE_ALLOC */
	uint64_t	page_count[5];
	uint64_t	page_stacked;	/* page events paired with a kernel_stack */
	int		page_by_ptr;	/* the page events carry a struct page pointer, no pfn */
	/* percpu and vmalloc records (counted in other_events too), by kma_ev_type - KMA_EV_PERCPU_ALLOC */
	uint64_t	kind_count[4];
	uint64_t	kind_stacked;	/* percpu and vmalloc events paired with a kernel_stack */
	uint64_t	vmap_failed;	/* handed-on alloc_vmap_area records with failed set */
	unsigned int	kinds;		/* 1 << enum kma_kind: the formats describe its events
					   (percpu, vmalloc) */
	/* the percpu_alloc_percpu fields its layout lacks (before 5.19:
	   "call_site,bytes_alloc,gfp_flags"), NULL: none */
	const char	*percpu_missing;
	unsigned int	sys_page_size;	/* PAGE_SIZE: the trace header's page size, 4096 live */
	int		has_stacks;	/* the formats describe ftrace:kernel_stack */
	const char	*stack_warning;	/* why stacks are not read, or NULL */
	/* kmalloc cache families: the gfp bits read from the trace ("__GFP_DMA=0x1 ..."),
	   NULL: none; why a family is not told apart, NULL: all are */
	const char	*kmalloc_flags;
	const char	*kmalloc_warning;
	struct kma_lost	*lost;		/* [cpus] */
	struct kma_damage *damage;	/* [cpus] */
	struct kma_event_count *counts;	/* records per event, after kma_reader_run() */
	int		nr_counts;
	int		jobs;		/* threads that read the CPUs' pages; 0: read through
					   tracecmd_iterate_events() (why_libtracecmd says why) */
	const char	*why_libtracecmd;
	/* the first KMA_TOPOLOGY_PREFIX marker's text after the prefix, or NULL */
	const char	*topology;
};

typedef int (*kma_event_fn)(void *ctx, const struct kma_event *ev);
typedef void (*kma_progress_fn)(void *ctx, double fraction);

/*
 * Opens and checks @path. On failure returns NULL with a one-line reason
 * in @err.
 */
struct kma_reader *kma_reader_open(const char *path, struct kma_err *err);
/*
 * The same for one buffer of the file, as trace-cmd's -B: @buffer is "top"
 * (the top-level buffer) or an instance name. NULL: the top-level buffer if
 * it holds kmem records, else the one instance that does (info.buffer_auto).
 */
/* How a trace.dat is read (all zero: the defaults). */
struct kma_file_opts {
	const char	*buffer;	/* as kma_reader_open_buffer()'s */
	int		jobs;		/* threads reading the CPUs' pages; 0: online CPUs, 1: none */
	int		libtracecmd;	/* read through tracecmd_iterate_events() instead */
	int		no_probe;	/* trust the header texts: no child parses them first */
	/*
	 * Called once with the trace's kallsyms text (kma_reader_kallsyms()'s
	 * bytes), when the header texts are found sound, just before
	 * libtracecmd's open of the file: the caller may parse it on a thread
	 * of its own meanwhile. kallsyms_done is called before those bytes
	 * are freed, when the reader closes (also inside a failed
	 * kma_reader_open_file()): the caller's thread must be done with them
	 * when it returns. NULL: not called; nor without a kallsyms.
	 */
	void		(*kallsyms_read)(void *ctx, const char *text, size_t len);
	void		(*kallsyms_done)(void *ctx);
	void		*kallsyms_ctx;
};

struct kma_reader *kma_reader_open_file(const char *path, const struct kma_file_opts *o,
					struct kma_err *err);
struct kma_reader *kma_reader_open_buffer(const char *path, const char *buffer,
					  struct kma_err *err);
void kma_reader_close(struct kma_reader *r);

/*
 * Streams every kmem event, kma marker and module load/free, merged across
 * CPUs in timestamp order, to @fn: the whole file, or live (kma_live_open())
 * until the duration ends or *stop is set. Stops when @fn returns non-zero.
 * Returns 0, or -1 with @err set (KMA_ERR_NONE when @fn stopped it: the
 * consumer knows why).
 */
int kma_reader_run(struct kma_reader *r, kma_event_fn fn, void *ctx,
		   kma_progress_fn progress, void *pctx, struct kma_err *err);

/*
 * Hints of events to come, for a consumer that prefetches: @fn gets a
 * sketch of a slab or page event (its type, ptr and page_by_ptr only: what
 * kma_kind_ops.key() reads) a few records before the event itself reaches
 * the run's callback. Only a hint: not every event is hinted, and a hinted
 * one may never be handed on (a page event without --pages, a short
 * record), so nothing the consumer computes may depend on it. NULL (the
 * default): none. Given only by the trace.dat reader's page merge.
 */
typedef void (*kma_hint_fn)(void *ctx, const struct kma_event *sketch);
void kma_reader_set_hint(struct kma_reader *r, kma_hint_fn fn, void *ctx);

/* Trace markers starting with prefix (default "kma:") start a generation. */
/* Page allocator events go to the run's callback too (kma-analyze --pages); off by default. */
void kma_reader_want_pages(struct kma_reader *r, int on);
/*
 * The percpu and vmalloc events (lib/kma-event.h) go to the run's callback
 * too: @kinds is a mask of 1 << KMA_KIND_PERCPU, 1 << KMA_KIND_VMALLOC; 0
 * (the default) hands none on. They are counted (info.kind_count) either way.
 */
void kma_reader_want_kinds(struct kma_reader *r, unsigned int kinds);
int kma_reader_set_marker_prefix(struct kma_reader *r, const char *prefix);

const struct kma_trace_info *kma_reader_info(const struct kma_reader *r);

/*
 * The kernel's kallsyms text (the trace's own, or /proc/kallsyms live),
 * NUL-terminated, *len bytes, valid until kma_reader_close(); NULL with
 * *why (may be NULL) saying why it could not be read.
 */
const char *kma_reader_kallsyms(const struct kma_reader *r, size_t *len, const char **why);
/*
 * perf.data input: the kernel's and the modules' MMAP/MMAP2 records (name
 * "[kernel.kallsyms]_text" with pgoff the address of _text, or a module's
 * path) and the HEADER_BUILD_ID entries, for the symbol side; the release
 * is info.release. NULL with *n 0 for a trace.dat or live, valid until close.
 * After open: the MMAP records perf writes before the first sample (the
 * kernel's, the modules loaded then); after the run, also later ones.
 */
struct kma_kernel_map {
	uint64_t	start, len, pgoff;
	const char	*name;
};

struct kma_build_id {
	const char	*name;		/* the file, "[kernel.kallsyms]" for the kernel */
	unsigned char	id[20];
	int		size;		/* bytes of id */
	int		kernel;		/* a kernel (or module) entry, not a user one */
};

const struct kma_kernel_map *kma_reader_kernel_maps(const struct kma_reader *r, size_t *n);
const struct kma_build_id *kma_reader_build_ids(const struct kma_reader *r, size_t *n);

struct kma_kinfo;
struct kma_kmap;
/*
 * The same as lib/kma-kinfo.h has it, for naming call sites (all zero but the
 * release for a trace.dat); *mods is the modules' array it points into, the
 * caller's to free(). 0, or -1 out of memory.
 */
int kma_reader_kinfo(const struct kma_reader *r, struct kma_kinfo *ki, struct kma_kmap **mods);

/* The event formats of the trace (libtraceevent's symbol lookup), valid until close. */
struct tep_handle *kma_reader_tep(const struct kma_reader *r);

/*
 * Losses of every CPU, summed: the one total that the reports and report.db
 * give. *unknown_pages (when not NULL): pages flagged with an unknown count,
 * which the total cannot include.
 */
static inline uint64_t kma_trace_lost(const struct kma_trace_info *info, uint64_t *unknown_pages)
{
	uint64_t sum = 0, unk = 0;
	int i;

	for (i = 0; i < info->cpus; i++) {
		sum += kma_lost_total(&info->lost[i]);
		unk += info->lost[i].missed_unknown;
	}
	if (unknown_pages)
		*unknown_pages = unk;
	return sum;
}

/*
 * The damage of every CPU, summed into @sum (jump_offset: the first CPU's
 * that has one). Returns 1 when the trace has any, else 0.
 */
static inline int kma_trace_damage(const struct kma_trace_info *info, struct kma_damage *sum)
{
	const struct kma_damage *d;
	int i, any = 0;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; info->damage && i < info->cpus; i++) {
		d = &info->damage[i];
		sum->short_records += d->short_records;
		sum->overlong_records += d->overlong_records;
		sum->zero_pages += d->zero_pages;
		if (d->jump_pages && !sum->jump_pages) {
			sum->jump_offset = d->jump_offset;
			sum->jump_inflated = d->jump_inflated;
		}
		sum->jump_pages += d->jump_pages;
		sum->jump_records += d->jump_records;
	}
	any = sum->short_records || sum->overlong_records || sum->zero_pages || sum->jump_pages;
	return any;
}

#endif /* KMA_READER_H */
