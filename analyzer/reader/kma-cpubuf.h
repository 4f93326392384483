/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-cpubuf.h - one CPU's event data of a trace.dat, read without
 * tracecmd_iterate_events(): pages (plain, or inflated chunk by chunk with
 * libtracecmd's codec and chunk index) are cut into records by libtraceevent's
 * kbuffer, a block at a time. A block holds its pages and the records in
 * them; kma-cpubuf-run.c merges the CPUs' blocks in timestamp order.
 */
#ifndef KMA_CPUBUF_H
#define KMA_CPUBUF_H

#include <stddef.h>
#include <stdint.h>

#include "kma-layout.h"
#include "kma-reader.h"

struct tep_handle;

/* One record of a block: where it lies and what kbuffer said of it. */
struct kma_prec {
	uint64_t	ts;
	uint32_t	at;		/* the record's start in the block */
	uint32_t	data;		/* its payload in the block */
	uint32_t	size;		/* of the payload (kbuffer_event_size) */
	uint32_t	rsize;		/* of the whole record (kbuffer_curr_size) */
	int32_t		missed;		/* missed events before it (kbuffer_missed_events) */
};

struct kma_pblock {
	struct kma_pblock *next;
	char		*bytes;		/* the pages */
	uint64_t	cap_bytes;
	uint64_t	base;		/* offset of bytes[0] in the CPU's (inflated) data */
	uint64_t	done;		/* bytes of the CPU's data in the file read through it */
	struct kma_prec	*recs;
	uint32_t	nr;
	uint32_t	nstack;		/* of them kernel_stack records (or more) */
	size_t		cap;
};

/* What every CPU of the buffer shares (read only while threads run). */
struct kma_cpubuf_file {
	const char	*path;
	struct tep_handle *tep;
	const char	*cname, *cver;	/* the codec of a compressed buffer */
	int		long_size;	/* of the ring-buffer pages */
	int		big_endian;
	int		old_format;	/* kbuffer's old format (very old kernels) */
	int		stack_id;	/* kernel_stack's id in file byte order, -1: none */
	uint64_t	file_size;
};

struct kma_cpubuf;

/* One CPU's reader over @c of buffer @b; NULL when out of memory. */
struct kma_cpubuf *kma_cpubuf_alloc(const struct kma_cpubuf_file *f,
				    const struct kma_td_buf *b,
				    const struct kma_td_cpu *c);
void kma_cpubuf_free(struct kma_cpubuf *p);
/*
 * Fills @blk with the next pages and their records: 1, 0 at the end of the
 * CPU's data, -1 with kma_cpubuf_error() (a page or chunk that does not
 * fit, a read error).
 */
int kma_cpubuf_next(struct kma_cpubuf *p, struct kma_pblock *blk);
const char *kma_cpubuf_error(const struct kma_cpubuf *p);
/* The damage found in the CPU's pages so far (zero pages, time jumps). */
const struct kma_damage *kma_cpubuf_damage(const struct kma_cpubuf *p);
/* Bytes of the CPU's data in the file (for progress). */
uint64_t kma_cpubuf_size(const struct kma_cpubuf *p);
void kma_pblock_free(struct kma_pblock *blk);

#endif /* KMA_CPUBUF_H */
