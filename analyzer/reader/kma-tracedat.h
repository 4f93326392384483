/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-tracedat.h - the one walker of the trace.dat structure (v6 and v7):
 * a cursor over the file that reads bytes, numbers in the file's byte
 * order, strings, the file header and v7 section headers, every read
 * checked against the file size. The header probe of kma-source-file.c, the
 * v6 checks (kma-check-v6.c), the v7 checks (kma-check-v7.c) and the
 * kallsyms reading all go through it. See trace-cmd.dat.v6(5) and .v7(5).
 */
#ifndef KMA_TRACEDAT_H
#define KMA_TRACEDAT_H

#include <stddef.h>
#include <stdint.h>

#include "kma-err.h"

struct tep_handle;
struct kma_td_layout;

#define KMA_TD_MAGIC_LEN	10
/* The file header is read in this many bytes at most, as the probe always did. */
#define KMA_TD_HEAD_MAX		255
#define KMA_TD_SEC_HEADER	16	/* u16 id, u16 flags, u32 name, u64 size */
#define KMA_TD_SEC_COMPRESS	1	/* section flag: the data is compressed */
#define KMA_TD_MAX_TEXT		(512u << 20)	/* larger kallsyms blocks are corrupt */

/* trace-cmd option ids (trace-cmd.h TRACECMD_OPTION_*) and v7 section ids */
enum {
	KMA_TD_OPT_DONE		= 0,	/* also the id of an options section */
	KMA_TD_OPT_DATE		= 1,
	KMA_TD_OPT_CPUSTAT	= 2,
	KMA_TD_OPT_BUFFER	= 3,
	KMA_TD_OPT_TRACECLOCK	= 4,
	KMA_TD_OPT_UNAME	= 5,
	KMA_TD_OPT_HOOK		= 6,
	KMA_TD_OPT_OFFSET	= 7,
	KMA_TD_OPT_CPUCOUNT	= 8,
	KMA_TD_OPT_VERSION	= 9,
	KMA_TD_OPT_PROCMAPS	= 10,
	KMA_TD_OPT_GUEST	= 13,
	KMA_TD_SEC_STRINGS	= 15,	/* the section names, at the end of the file */
	KMA_TD_OPT_HEADER_INFO	= 16,	/* header_page and header_event */
	KMA_TD_OPT_KALLSYMS	= 19,
	KMA_TD_OPT_CMDLINES	= 21,
};

struct kma_td {
	int			fd;
	uint64_t		size;		/* of the file */
	uint64_t		off;		/* where the next cursor read starts */
	int			big;		/* the file's byte order */
	char			cname[KMA_TD_HEAD_MAX + 1];	/* v7 compression, "" or "none" */
	char			cver[KMA_TD_HEAD_MAX + 1];
	struct tep_handle	*tep;		/* libtracecmd's inflate decodes with it */
	/*
	 * What the last kma_td_inflate() block inflated to: -1 when it did not
	 * inflate, more than its claimed size when it inflated to more; -2
	 * when its sizes were refused before the codec ran.
	 */
	int64_t			inflated;
	struct kma_err		err;		/* why the last call failed */
};

/* Opens @path read-only (fstat gives the size). -1 with errno. */
int kma_td_open(struct kma_td *t, const char *path);
/* The same on an open file (not closed by kma_td_close). */
void kma_td_init(struct kma_td *t, int fd, uint64_t size);
void kma_td_close(struct kma_td *t);

/* A number of @bytes (1..8) at @b in byte order @big. */
uint64_t kma_td_decode(const void *b, int bytes, int big);

static inline uint64_t kma_td_get(const struct kma_td *t, const void *b, int bytes)
{
	return kma_td_decode(b, bytes, t->big);
}

/*
 * A trace_clock text (the TRACECLOCK option, a v6 file's trace_clock
 * section) as libtracecmd 1.3's tracecmd_parse_trace_clock() reads it: the
 * first word (split at spaces, up to a NUL or @len) that starts with '[' is
 * the clock within brackets, and a word of brackets alone makes it sscanf()
 * a NULL. 0 when it is safe, -1 when not.
 */
int kma_td_clock_ok(const char *text, size_t len);
/*
 * Option @id's data @buf (@len bytes) as libtracecmd 1.3's handle_options()
 * uses it: most as C strings, with sizes and indexes inside trusted without
 * checks, and a failed HOOK parse dereferenced. 0 when it is safe to hand
 * on, -1 when not; a CPUCOUNT option's count into *@cpus. A BUFFER option
 * as a v6 file lays it out (the v7 checker reads its own kind itself);
 * every other option id is 0.
 */
int kma_td_option_data(const struct kma_td *t, unsigned int id, const unsigned char *buf,
		       uint64_t len, uint64_t *cpus);
/* A v7 section by the id of the option pointing to it ("the kallsyms section"), for messages. */
const char *kma_td_sec_name(uint64_t id);
/* @len bytes at @off: 0, or -1 when they do not lie in the file. */
int kma_td_pread(const struct kma_td *t, uint64_t off, void *buf, size_t len);
/* At the cursor, which advances: bytes, a number, a string of at most @max bytes. */
int kma_td_read(struct kma_td *t, void *buf, size_t len);
int kma_td_num(struct kma_td *t, int bytes, uint64_t *v);
int kma_td_str(struct kma_td *t, char *buf, size_t max);
int kma_td_skip(struct kma_td *t, uint64_t len);
/* @len bytes at @off into a new buffer with a NUL after them; NULL if not in the file. */
char *kma_td_slurp(struct kma_td *t, uint64_t off, uint64_t len);

enum kma_td_head_status {
	KMA_TD_HEAD_OK,
	KMA_TD_HEAD_MAGIC,	/* not a trace.dat */
	KMA_TD_HEAD_CUT,	/* the header is cut short (or its first options offset is wrong) */
	KMA_TD_HEAD_VERSION,	/* neither "6" nor "7" */
	KMA_TD_HEAD_PAGE_SIZE,	/* v7: a page size libtracecmd cannot work with */
};

struct kma_td_head {
	int		version;	/* 6 or 7 */
	int		long_size;	/* as the header says (4 or 8 on sane files) */
	uint32_t	page_size;
	uint64_t	options;	/* v7: the first options section */
};

/*
 * Reads the file header from offset 0: magic, version, byte order (into
 * t->big), long and page size; for v7 also the compression names (into
 * t->cname, t->cver) and the first options offset, which must point into
 * the file. The cursor is left after what was read. An enum kma_td_head_status.
 */
int kma_td_head(struct kma_td *t, struct kma_td_head *h);

struct kma_td_sec {
	uint16_t	id;
	uint16_t	flags;
	uint32_t	name;		/* offset in the section names */
	uint64_t	size;		/* of the data, which follows at the cursor */
};

/* The v7 section header at @off; the cursor is left at its data. 0 or -1. */
int kma_td_sec(struct kma_td *t, uint64_t off, struct kma_td_sec *s);

/*
 * Section @id at @off: its data (inflated when compressed) and length; NULL
 * with t->err. kma_td_inflate() is the compressed block (u32 csize, u32
 * size, data) at @off inside @sec_size bytes, no larger than @max_size and
 * @max_ratio times its compressed size, that inflates to at least the size
 * its header claims (t->inflated says to how much).
 */
char *kma_td_section(struct kma_td *t, uint64_t off, int id, uint64_t *len);
char *kma_td_inflate(struct kma_td *t, uint64_t off, uint64_t sec_size, uint64_t *len,
		     uint64_t max_size, uint64_t max_ratio);

/*
 * The message for CPU @cpu's compressed chunk at @off that inflated to @got
 * bytes (-1: not at all; more than @claim: to more) instead of the @claim
 * its header says; the page reader and the v7 checks say it alike.
 */
void kma_td_chunk_msg(char *buf, size_t len, uint32_t cpu, uint64_t off, int64_t got,
		      uint64_t claim);

/* What kma_td_options() calls on the way; either may be NULL. Non-zero stops (t->err). */
struct kma_td_walk {
	int	(*section)(struct kma_td *t, uint64_t off, void *ctx);
	int	(*option)(struct kma_td *t, unsigned int id, const unsigned char *d,
			  uint64_t size, void *ctx);
	void	*ctx;
};

/*
 * Follows the v7 options sections from @off. 0 with *kallsyms the offset of
 * the KALLSYMS section (the last one, as libtracecmd; 0: none), or -1 with
 * t->err.
 */
int kma_td_options(struct kma_td *t, uint64_t off, const struct kma_td_walk *w,
		   uint64_t *kallsyms);

/*
 * The kallsyms text stored in trace.dat: v6 (plain, after the event
 * formats) or v7 (KALLSYMS section, compressed or not). 0 with a
 * NUL-terminated *text of *len bytes, freed by kma_huge_free(*text, *len + 1),
 * or -1 with @err (KMA_ERR_BROKEN when a structure does not fit the file,
 * KMA_ERR_NOMEM; also a trace without kallsyms).
 */
int kma_td_kallsyms(const char *path, char **text, size_t *len, struct kma_err *err);

/*
 * v7 files, before libtracecmd reads them (kma-check-v7.c): every section
 * the options chain points to, the event data of every CPU and the options
 * sections themselves must lie in the file; the header_page must describe a
 * ring-buffer page; every CPU's event data chunk is inflated to check that
 * each page's commit word fits the page, since libtraceevent trusts it.
 * 0 when fine (or not a v7 file), -1 with the whole message in @err ("truncated
 * trace.dat: CPU 1's event data ends at X, the file at Y"). With 0,
 * @warning (@wlen bytes) is "" or says what is missing at the end of the
 * file that kma does not need (the section names).
 * With @lay, every buffer's per-CPU data locations are added to it; with
 * lay->defer_pages the pages are checked only when libtracecmd will read
 * them (more than one buffer, or timestamp options), lay->pages_checked
 * says whether they were.
 */
int kma_td_check_v7(const char *path, struct kma_err *err, char *warning, size_t wlen,
		    struct kma_td_layout *lay);

/*
 * The v6 structure (kma-check-v6.c) of the open file @fd, pages included:
 * 0, or -1 with @err. With @lay, every buffer's CPU data is added to it;
 * with lay->defer_pages only each CPU's first page is checked when the page
 * reader alone will read the rest (one buffer, no timestamp options), and
 * lay->pages_checked says whether all were.
 */
int kma_td_check_v6(int fd, uint64_t file_size, struct kma_err *err, struct kma_td_layout *lay);

/*
 * The long size of the ring-buffer pages that a header_page text describes
 * (the size of its commit field: 4 or 8), 0 for an empty text, -1 when it
 * does not start with the timestamp and commit fields kernels print.
 */
int kma_header_page_long_size(const char *text, uint64_t len);

/* A ring-buffer page size libtracecmd can work with (v6 and v7 headers). */
int kma_valid_page_size(uint64_t page_size);

#endif /* KMA_TRACEDAT_H */
