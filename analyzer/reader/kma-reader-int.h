/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-reader-int.h - the reader's internals, shared by its files:
 * kma-reader.c (lifecycle, the source ops), kma-decode.c (records -> kma
 * events, the same for every source), and the sources: kma-source-file.c
 * (trace.dat through libtracecmd) and kma-source-tracefs.c (the ring
 * buffer through libtracefs).
 */
#ifndef KMA_READER_INT_H
#define KMA_READER_INT_H

#include <string.h>
#include <time.h>

#include <traceevent/event-parse.h>

#include "kma-reader.h"
#include "kma-layout.h"
#include "kma-cpubuf.h"
#include "kma-map.h"
#include "kma-strpool.h"

struct tracecmd_input;
struct tracefs_instance;

enum field_id {
	F_CALL_SITE, F_PTR, F_BYTES_REQ, F_BYTES_ALLOC, F_GFP, F_NODE, F_NAME, F_ACCOUNTED,
	F_NR,
};

struct ev_desc {
	int			type;		/* enum kma_ev_type, -1: not followed */
	struct tep_format_field	*text;		/* print: buf; module events: name */
	struct tep_format_field	*f[F_NR];
	unsigned int		min_size;	/* record size needed for the fixed fields */
	/* kmalloc events: the gfp bits of each cache family (kma-gfp.c), 0: not told apart */
	uint64_t		kmalloc_bits[KMA_KMALLOC_NR];
	/* page events (kma-decode-page.c): pfn or page, order, gfp_flags, migratetype */
	struct tep_format_field	*pg[4];
	int			page_by_ptr;	/* its key is a struct page pointer, not a pfn */
	const struct tep_print_arg_flags *gfp_table;	/* gfp_flags' __print_flags, or NULL */
	uint64_t		account_bit;	/* slab allocations: __GFP_ACCOUNT, 0: unknown */
	int			acct_fmt;	/* prints accounted= from gfp_flags, no field */
	struct tep_format_field	*failed;	/* vmalloc:alloc_vmap_area's failed, or NULL */
};

struct kma_reader;

/* A source of records: what kma-reader.c calls, knowing nothing else of it. */
struct kma_source_ops {
	/*
	 * Hands every record to kma_reader_decode() (r->fn is set) until the
	 * source ends or r->stopped; then kma_reader_end(). 0, or -1 with @err.
	 */
	int	(*run)(struct kma_reader *r, struct kma_err *err);
	/* Releases what the source holds (handles, its tracefs instance, its tep). */
	void	(*close)(struct kma_reader *r);
};

struct kma_reader {
	const struct kma_source_ops *ops;
	const void		*src_opts;	/* the source's options (live: kma_live_opts) */
	struct tracecmd_input	*handle;	/* the buffer read from a trace.dat, or */
	struct tracefs_instance	*instance;	/* the live ring buffer (kma-source-tracefs.c) */
	struct tracecmd_input	*top;		/* the file, when handle is an instance's */
	int			buffer_idx;	/* the instance read, -1: the top-level */
	struct kma_event	*markers;	/* top-level kma markers, for an instance */
	size_t			nr_markers, next_marker, cap_markers;
	struct tep_handle	*tep;
	struct kma_trace_info	info;
	struct ev_desc		*by_id;		/* indexed by event id */
	uint64_t		*id_count;	/* records per event id */
	uint64_t		unknown_ids;	/* records of ids above max_id */
	int			max_id;
	struct kma_strpool	*pool;		/* cache names, symbols, strings */
	/* the cache names interned lately, by a hash of their ends (kma-decode.c) */
	struct kma_name_slot {
		const char	*s;		/* interned in pool */
		size_t		len;
	}			name_cache[64];
	struct kma_map		comm_map;	/* pid -> index in comms */
	const char		**comms;
	size_t			nr_comms, cap_comms;
	/* run state */
	kma_event_fn		fn;
	void			*ctx;
	kma_progress_fn		progress;
	kma_hint_fn		hint;		/* kma_reader_set_hint(), or NULL */
	uint64_t		*tc_last;	/* per CPU: libtracecmd's last record read */
	void			*hint_ctx;
	void			*pctx;
	int			stopped;
	int			oom;
	struct timespec		start;
	int			progress_on;
	int			have_first;	/* info.first_ts is set */
	uint64_t		range_first, range_last;
	int			swap;		/* file byte order differs from the host's */
	unsigned int		page_size;	/* ring-buffer page */
	struct tep_format_field	*common_pid;
	int			last_pid;	/* comm_of() cache */
	const char		*last_comm;
	char			*marker_prefix;
	char			bad[320];	/* why the event formats are refused */
	char			file_warn[320];	/* info.warning */
	char			*kallsyms;	/* the kernel's kallsyms text, or NULL: */
	size_t			kallsyms_len;
	size_t			kallsyms_size;	/* its kma_huge_alloc() size */
	int			kallsyms_lent;	/* fopts.kallsyms_read called */
	struct kma_err		kallsyms_err;	/* why not */
	char			warn[200];	/* info.records_warning */
	/*
	 * Byte counts (kma_reader_check_bytes): the sums of the allocations
	 * and page allocations and frees handed on so far, each kept at most
	 * KMA_SUM_MAX, and why the trace was refused ("" while it is not).
	 */
	uint64_t		alloc_sum, page_alloc_sum, page_free_sum;
	char			refused[256];
	/*
	 * Stacks (kma-decode-stack.c): the source's peek at the record after
	 * the one being decoded on a CPU (1 with *out, 0: none, or it may
	 * say 0 when that record is surely no kernel_stack; NULL: the source
	 * cannot), and ftrace:kernel_stack's id and fields.
	 */
	int			(*peek)(void *ctx, int cpu, struct tep_record *out);
	void			*peek_ctx;
	int			stack_ev;	/* its event id, -1: not followed */
	/*
	 * Set by the page reader's merge for each record it hands on: 1 when
	 * the CPU's next record is in the same block and the block has no
	 * kernel_stack record, so no peek is needed (nor its call).
	 */
	int			stack_none;
	struct tep_format_field	*stack_size;	/* NULL in old formats */
	struct tep_format_field	*stack_caller;
	int			stack_elem;	/* bytes per frame */
	uint64_t		*stack_buf;
	uint32_t		cap_stack;
	char			stack_warn[200];
	char			kmalloc_warn[240];	/* info.kmalloc_warning */
	/* the page reader (kma-cpubuf.c, kma-cpubuf-run.c) */
	struct kma_file_opts	fopts;
	int			jobs;		/* threads, 1: none */
	struct kma_td_layout	layout;		/* every buffer's CPU data, from the checks */
	const struct kma_td_buf	*cpubuf_buf;	/* the buffer kma-cpubuf reads, NULL: libtracecmd */
	struct kma_cpubuf_file	cpubuf_file;
	/* page allocator events (kma-decode-page.c) */
	int			want_pages;	/* hand them to fn (--pages) */
	struct kma_map		gfp_map;	/* gfp_flags -> index in gfp_texts */
	const char		**gfp_texts;
	size_t			nr_gfp, cap_gfp;
	uint64_t		gfp_last;	/* the value looked up last, */
	const char		*gfp_last_text;	/* its text (NULL: none yet) */
	/* percpu and vmalloc events (kma-decode-kinds.c) */
	unsigned int		want_kinds;	/* 1 << enum kma_kind: hand them to fn */
	char			percpu_missing[64];	/* info.percpu_missing */
	/* kernel counter markers (kma-cntmark-parse.c), kept until close */
	struct kma_cnt_part	**cnt_parts;
	size_t			nr_cnt_parts, cap_cnt_parts;
	/* perf.data (kma-source-perf.c): its state, and the kernel callchain of
	   the sample being decoded, which kma_stack_attach() hands on */
	struct kma_perf		*perf;
	const uint64_t		*ext_stack;
	uint32_t		ext_depth;
};


/*
 * A counter marker (kma-slabinfo:, kma-meminfo:, kma-allocinfo:) of @len
 * bytes at @text into *part, kept until kma_reader_close(): 1 with *part
 * set, 0 when the text is no counter marker, -1 out of memory.
 */
int kma_reader_counter(struct kma_reader *r, const char *text, size_t len,
		       const struct kma_cnt_part **part);
void kma_reader_counters_free(struct kma_reader *r);

/* A reader with its pools, before its source @ops attaches it to a file or the live buffer. */
struct kma_reader *kma_reader_new(const struct kma_source_ops *ops);
/*
 * Checks what libtraceevent decoded from the formats (no two events with
 * one id or one name, the followed events' formats whole and sane), looks
 * the events up and sizes the per-CPU tables: > 0 kmem events found, 0
 * none, -1 with @err (KMA_ERR_NOMEM, or KMA_ERR_BROKEN: which format is wrong).
 */
int kma_reader_setup(struct kma_reader *r, struct kma_err *err);
/* Per-CPU ring buffer statistics text ("CPU: N", "overrun: N", ...) into info.lost. */
void kma_reader_cpustats(struct kma_reader *r, const char *text);
/* One record: bookkeeping, then the event to r->fn. 0, or -1 to stop. */
int kma_reader_decode(struct kma_reader *r, struct tep_record *rec);
/*
 * A record @data of @size bytes, @ahead of the one decoded now: its sketch
 * to r->hint if it is a slab or page event whose key field it holds.
 */
void kma_reader_hint(struct kma_reader *r, const void *data, unsigned int size);
/* A kma marker of another buffer (pages of @page_size) to r->fn, with no bookkeeping. */
int kma_reader_decode_marker(struct kma_reader *r, struct tep_record *rec,
			     unsigned int page_size);
/* Progress @fraction, shown from a second after the start on (kma-reader.c). */
void kma_reader_progress(struct kma_reader *r, double fraction);
/* What a source does with one record it read (kma-source-file.c: markers, then decode). */
typedef int (*kma_record_fn)(struct kma_reader *r, struct tep_record *rec);
/*
 * Reads buffer @b by its pages (kma-cpubuf-run.c), each record in time
 * order to @record: 0 at its end, -1 when the decoder stopped it
 * (kma_reader_end() says why), -2 with @err.
 */
int kma_cpubuf_run(struct kma_reader *r, const struct kma_td_buf *b, kma_record_fn record,
		   struct kma_err *err);
/*
 * After the buffer is chosen: whether it is read by pages (r->cpubuf_buf)
 * or through libtracecmd (info.why_libtracecmd), and the v7 page checks
 * libtracecmd then needs. 0, or -1 with @err.
 */
int kma_cpubuf_setup(struct kma_reader *r, const char *path, struct kma_err *err);
/* Looks ftrace:kernel_stack up (after the kmem events): 0, or -1 out of memory. */
int kma_stack_setup(struct kma_reader *r);
/* kma-gfp.c: a kmalloc event's cache-family bits from its print fmt's gfp table. */
void kma_gfp_setup(struct kma_reader *r, struct tep_event *ev, struct ev_desc *d);
/* The __print_flags() table of gfp_flags anywhere in a print fmt's @arg, or NULL. */
const struct tep_print_arg_flags *kma_gfp_table(const struct tep_print_arg *arg);
/* The enum kma_kmalloc_type of a kmalloc event's gfp flags (accounted: -1 absent). */
int kma_gfp_type(const struct ev_desc *d, uint64_t gfp, int accounted);
/* A slab allocation event's gfp table and __GFP_ACCOUNT bit, for -g gfp and -g accounted. */
void kma_gfp_slab_setup(struct tep_event *ev, struct ev_desc *d);
/* gfp_flags as the kernel prints them, interned once per value; NULL: out of memory. */
const char *kma_gfp_text(struct kma_reader *r, const struct ev_desc *d, uint64_t v);
/* The stack that follows kmem record @rec on its CPU, into @ev when there is one. */
void kma_stack_attach(struct kma_reader *r, const struct tep_record *rec, struct kma_event *ev);
/* kma-decode-page.c: follows the page allocator events (after the kmem events). */
void kma_page_setup(struct kma_reader *r);
/* A page event record (its descriptor @d): bookkeeping, then to fn when wanted. */
int kma_page_decode(struct kma_reader *r, const struct ev_desc *d, struct tep_record *rec);
/* Page event @d's key field (pfn or page) when page events are handed on, else NULL. */
const struct tep_format_field *kma_page_key_field(const struct kma_reader *r,
						  const struct ev_desc *d);
/* kma-decode-kinds.c: follows the percpu and vmalloc events (after the page events). */
void kma_kinds_setup(struct kma_reader *r);
/* A percpu or vmalloc event record (its descriptor @d): bookkeeping, then to fn when wanted. */
int kma_kinds_decode(struct kma_reader *r, const struct ev_desc *d, struct tep_record *rec);
/* "percpu_alloc_percpu", ... for the percpu and vmalloc event types, NULL for any other. */
const char *kma_kinds_ev_name(int type);
/*
 * A successful allocation's bytes (a page event's: its pages times PAGE_SIZE)
 * within kma_bytes_max() and the trace's sum of them within KMA_SUM_MAX
 * (lib/kma-event.h): 0, or -1 with the run stopped and kma_reader_end()
 * naming the event.
 */
int kma_reader_check_bytes(struct kma_reader *r, const struct kma_event *ev);
/*
 * A page, percpu or vmalloc event decoded into @ev: its pid, comm and stack
 * (stacks counted in *@stacked), the byte checks, then to fn. 0, or -1 to stop.
 */
int kma_reader_hand_on(struct kma_reader *r, struct tep_record *rec, struct kma_event *ev,
		       uint64_t *stacked);
/* Interns @s under @key in a map-indexed array (kma-decode.c); the stable copy or NULL. */
const char *kma_reader_remember(struct kma_reader *r, struct kma_map *map, const char ***arr,
				size_t *nr, size_t *cap, uint64_t key, const char *s);
/* A followed event's format parsed and its fields sane: 0, or -1 with r->bad. */
int kma_reader_check_event(struct kma_reader *r, struct tep_event *ev);
/* Field @f (or NULL) of a followed event: records shorter than its end are bad. */
struct tep_format_field *kma_reader_fixed_field(struct ev_desc *d, struct tep_format_field *f);
/* common_pid from the first followed event that has a 4-byte one. */
void kma_reader_follow_pid(struct kma_reader *r, struct tep_event *ev);
/* A followed event's record shorter than its fixed fields, on CPU @cpu: counted, skipped. */
void kma_reader_short_record(struct kma_reader *r, int cpu);
/*
 * Record field @f as a number in the host's order. tep_read_number() is a
 * library call per field; this runs for every field of every record (and is
 * inline for that), so read in place and swap only when the file's byte
 * order differs from ours.
 */
/*
 * A record running past its ring-buffer page: kbuffer does not bound a
 * record by its page, so one that does is corrupt and its fields may lie
 * outside the buffer. Page sizes are powers of two, and then the offset in
 * the page is a mask: a 64-bit division per record was 4 % of the decoder.
 */
static inline int kma_record_overlong(uint64_t offset, unsigned int record_size,
				      unsigned int page_size)
{
	uint64_t in_page;

	if (!page_size)
		return 0;
	in_page = page_size & (page_size - 1) ? offset % page_size : offset & (page_size - 1);
	return in_page + record_size > page_size;
}

/* An event with every field 0: copied, not memset (a rep stos per event). */
extern const struct kma_event kma_reader_ev0;

/*
 * A page, percpu or vmalloc record's event before its fields are read:
 * node, accounted and migratetype unknown (-1).
 */
static inline void kma_reader_ev_start(struct kma_event *ev, int type, const struct tep_record *rec)
{
	*ev = kma_reader_ev0;
	ev->type = type;
	ev->ts = rec->ts;
	ev->cpu = rec->cpu;
	ev->node = -1;
	ev->accounted = -1;
	ev->migratetype = -1;
}

static inline uint64_t kma_reader_num(struct kma_reader *r, const struct tep_format_field *f,
				      void *data)
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

/*
 * perf.data (kma-source-perf.c): a reader of @path, when its first bytes are
 * a perf.data's; NULL with @err. kma_reader_open_file() calls it.
 */
int kma_perf_is(const char *path);
struct kma_reader *kma_perf_open(const char *path, const struct kma_file_opts *o,
				 struct kma_err *err);

/* A record's pid (its common_pid); the comm of a pid, interned (NULL: out of memory). */
int kma_reader_pid(struct kma_reader *r, struct tep_record *rec);
const char *kma_reader_comm(struct kma_reader *r, int pid);
/* Names the per-id record counts after a run. */
int kma_reader_count_events(struct kma_reader *r);
/* After a run: 0, or -1 with @err (KMA_ERR_NONE when the event consumer stopped it). */
int kma_reader_end(struct kma_reader *r, struct kma_err *err);

#endif /* KMA_READER_INT_H */
