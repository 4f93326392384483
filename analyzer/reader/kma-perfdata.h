/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-perfdata.h - the perf.data file (PERFILE2) of perf record: its header,
 * event attributes and their sample ids, the feature sections kma reads
 * (kma-perfdata.c), the event formats of its tracing-data section
 * (kma-perf-tracing.c) and its records (kma-perf-records.c), which
 * kma-source-perf.c orders and hands to the decoder. See perf's
 * tools/perf/util/header.c and include/uapi/linux/perf_event.h.
 */
#ifndef KMA_PERFDATA_H
#define KMA_PERFDATA_H

#include <stddef.h>
#include <stdint.h>

#include "kma-err.h"
#include "kma-map.h"
#include "kma-reader.h"

struct tep_handle;

#define KMA_PD_MAGIC		"PERFILE2"
#define KMA_PD_MAGIC_LEN	8
#define KMA_PD_HEADER_SIZE	104	/* struct perf_file_header */
#define KMA_PD_PIPE_SIZE	16	/* struct perf_pipe_file_header */

/* perf_event_attr.sample_type bits (include/uapi/linux/perf_event.h) */
enum {
	KMA_PS_IP = 1u << 0, KMA_PS_TID = 1u << 1, KMA_PS_TIME = 1u << 2,
	KMA_PS_ADDR = 1u << 3, KMA_PS_READ = 1u << 4, KMA_PS_CALLCHAIN = 1u << 5,
	KMA_PS_ID = 1u << 6, KMA_PS_CPU = 1u << 7, KMA_PS_PERIOD = 1u << 8,
	KMA_PS_STREAM_ID = 1u << 9, KMA_PS_RAW = 1u << 10, KMA_PS_IDENTIFIER = 1u << 16,
};

/* feature bits (tools/perf/util/header.h HEADER_*) */
enum {
	KMA_PF_TRACING_DATA = 1, KMA_PF_BUILD_ID = 2, KMA_PF_OSRELEASE = 4,
	KMA_PF_NRCPUS = 7, KMA_PF_CMDLINE = 11, KMA_PF_EVENT_DESC = 12,
	KMA_PF_COMPRESSED = 27, KMA_PF_BITS = 256,
};

/* One event attribute: what a sample of it holds. */
struct kma_pd_attr {
	uint32_t	type;		/* PERF_TYPE_TRACEPOINT: 2 */
	uint64_t	config;		/* a tracepoint's event id */
	uint64_t	sample_type;
	uint64_t	read_format;
	int		sample_id_all;	/* non-sample records end in the sample's ids */
	const char	*name;		/* from EVENT_DESC, or NULL */
};

struct kma_pd {
	int			fd;
	uint64_t		size;		/* of the file */
	uint64_t		data_off, data_size;
	uint64_t		feat_off;	/* the feature section table */
	int			pipe;		/* pipe mode: header records, no sections */
	unsigned char		features[KMA_PF_BITS / 8];
	struct kma_pd_attr	*attrs;
	size_t			nr_attrs;
	struct kma_map		id_map;		/* sample id -> index in attrs */
	size_t			nr_ids;
	/* where the ids of samples and of other records are (-1: none) */
	int			id_pos;		/* u64 index from the sample's start */
	int			id_pos_end;	/* u64 index from a record's end (sample_id_all) */
	uint64_t		trace_off, trace_size;	/* HEADER_TRACING_DATA, size 0: none */
	char			*osrelease;
	int			nr_cpus, nr_online;	/* HEADER_NRCPUS, 0: none */
	char			*cmdline;
	uint32_t		comp_type;	/* HEADER_COMPRESSED: 1 zstd, 0 none */
	uint32_t		comp_mmap_len;
	struct kma_build_id	*build_ids;
	size_t			nr_build_ids;
};

/* Whether the @n bytes at @b start a perf.data: 1 file mode, 2 pipe mode, 0 no. */
int kma_pd_magic(const void *b, size_t n);
/*
 * Opens @path and reads its header, attributes and features: 0, or -1 with
 * @err (the whole line after the file name).
 */
int kma_pd_open(struct kma_pd *pd, const char *path, struct kma_err *err);
void kma_pd_close(struct kma_pd *pd);
/* The attribute a sample id belongs to, or NULL. */
const struct kma_pd_attr *kma_pd_attr_of(const struct kma_pd *pd, uint64_t id);
/* Whether feature @bit is present. */
static inline int kma_pd_has(const struct kma_pd *pd, int bit)
{
	return (pd->features[bit / 8] >> (bit % 8)) & 1;
}

/*
 * The tracing-data section (the event formats in the layout of a trace.dat
 * v6 header, version "0.5" or "0.6") into @tep, through the trace.dat
 * walker: 0, or -1 with @err. *long_size and *page_size from its header.
 */
int kma_pd_formats(int fd, uint64_t off, uint64_t size, struct tep_handle *tep,
		   int *long_size, unsigned int *page_size, struct kma_err *err);

/* record types (PERF_RECORD_*) */
enum {
	KMA_PR_MMAP = 1, KMA_PR_LOST = 2, KMA_PR_COMM = 3, KMA_PR_FORK = 7, KMA_PR_SAMPLE = 9,
	KMA_PR_MMAP2 = 10, KMA_PR_LOST_SAMPLES = 13, KMA_PR_FINISHED_ROUND = 68,
	KMA_PR_HEADER_ATTR = 64, KMA_PR_TRACING_DATA = 66, KMA_PR_AUXTRACE = 71,
	KMA_PR_FEATURE = 80, KMA_PR_COMPRESSED = 81, KMA_PR_COMPRESSED2 = 83,
};

/*
 * The records of the data section, one at a time (kma-perf-records.c): read
 * through a buffer, and those packed in PERF_RECORD_COMPRESSED (perf record
 * -z: one zstd stream over the file, a record may span two compressed ones)
 * inflated in turn.
 */
struct kma_pin {
	int		fd;
	uint64_t	end;		/* of the data section */
	uint64_t	pos;		/* the next record in the file */
	unsigned char	*buf;		/* file bytes from boff, blen of them */
	size_t		cap, blen;
	uint64_t	boff;
	void		*zd;		/* ZSTD_DStream, once a compressed record is seen */
	unsigned char	*d;		/* inflated bytes, from dhead to dlen unread */
	size_t		dcap, dlen, dhead;
	uint64_t	comp_off;	/* the compressed record they came from */
	uint64_t	compressed;	/* compressed records read */
	uint64_t	max_inflate;	/* what one may inflate to */
	int		in_comp;	/* the record handed out came from d */
	/* at the end: the bytes of a record the inflated stream ended inside
	   (0: none), and that record's size (0: its header is cut too) */
	size_t		cut_have;
	uint16_t	cut_size;
};

void kma_pin_init(struct kma_pin *in, const struct kma_pd *pd);
void kma_pin_release(struct kma_pin *in);
/*
 * The next record: 1 with *rec (its header's size bytes, 8-byte header
 * first) and *off (its file offset, or the compressed record's), 0 at the
 * end, -1 with @err. A compressed stream that ends inside a record is an
 * end, as perf reads it (perf record may leave its last flush unwritten):
 * cut_have and cut_size say so.
 */
int kma_pin_next(struct kma_pin *in, const unsigned char **rec, uint64_t *off,
		 struct kma_err *err);

/* A sample's fields (kma-perf-sample.c); ips, raw point into the record. */
#define KMA_PERF_MAX_FRAMES	4096
struct kma_perf_sample {
	uint64_t	id, ts;
	int		has_id;
	uint32_t	tid, cpu;
	const uint64_t	*ips;		/* the kernel part of the callchain */
	uint32_t	nr_ips;		/* at most KMA_PERF_MAX_FRAMES */
	const unsigned char *raw;
	uint32_t	raw_len;
};

/*
 * The fields after the id of the sample @rec (@size bytes, header included)
 * by @attr's sample_type, into @s (its id set, the rest zeroed by the
 * caller); 0, or -1 when the record is shorter than its fields.
 */
int kma_perf_sample_parse(const struct kma_pd_attr *attr, const unsigned char *rec,
			  uint16_t size, struct kma_perf_sample *s);
/* The time and CPU at the end of the non-sample record @rec (sample_id_all); 0 when none. */
void kma_perf_record_id(const struct kma_pd *pd, const unsigned char *rec, uint16_t size,
			uint64_t *ts, int *cpu);

#endif /* KMA_PERFDATA_H */
