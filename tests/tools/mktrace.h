/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mktrace.h - shared by mktrace.c (description parser, v6 file and ring-buffer
 * writer), mktrace-formats.c (the kmem event formats of each kernel generation),
 * mktrace-page.c (the page allocator's events) and mktrace-buf.c (output bytes).
 */
#ifndef MKTRACE_H
#define MKTRACE_H

#include <stddef.h>
#include <stdint.h>

/* What the traced machine looked like: decides every layout choice. */
struct target {
	int	gen;		/* kernel version as major * 100 + minor: 510, 601, 618 */
	int	long_size;	/* 4 or 8 */
	int	big_endian;
	int	page_size;
	int	stack_layout;	/* enum stack_layout: the ftrace:kernel_stack record */
	int	gfp_layout;	/* enum gfp_layout: the gfp bits and their print table */
	int	page_by_ptr;	/* page events carry `struct page *page`, not `pfn` (old kernels) */
};

/* The gfp flag bits of a kernel and the show_gfp_flags() table naming them. */
enum gfp_layout { GFP_NEW, GFP_OLD, GFP_SHUFFLED, GFP_NONE, GFP_NR };

/*
 * How a kernel lays out ftrace:kernel_stack (kernel/trace/trace_entries.h), see
 * mktrace-formats.c: since 5.6 int size + caller[8] holding exactly size entries;
 * before 3.2 caller[8] alone, ended by ULONG_MAX; 5.6 to 5.12 (before "tracing:
 * Fix stack trace event size", fixed in 5.13 and stable) 8 stale longs after them.
 */
enum stack_layout { STACK_MODERN, STACK_OLD, STACK_STALE };

/* Logical events of a description; a generation renders each as one of its events. */
enum kind {
	K_KMALLOC, K_KMALLOC_NODE, K_CACHE_ALLOC, K_CACHE_ALLOC_NODE, K_KFREE, K_CACHE_FREE,
	K_PRINT, K_MODULE_LOAD, K_MODULE_FREE, K_STACK,
	/* the page allocator's kmem events, written only when a description uses them */
	K_PAGE_ALLOC, K_PAGE_FREE, K_PAGE_FREE_BATCHED, K_PAGE_ZONE_LOCKED, K_PAGE_PCPU_DRAIN,
	/* the percpu and vmalloc systems' events, written only when a description uses them */
	K_PERCPU_ALLOC, K_PERCPU_FREE, K_VMAP_ALLOC, K_VMAP_FREE,
	K_NR,
};

#define FTRACE_STACK_ENTRIES	8	/* caller[8] of every layout */
#define MAX_FRAMES		64	/* frames a stack line may give */

/* A field=value of an event line; str is set for strings (cache name, marker text). */
struct value {
	const char	*name;
	uint64_t	num;
	const char	*str;
};

struct fmt_field {
	const char	*type;
	const char	*name;
	int		offset, size, is_signed, dynamic;
};

#define MAX_FIELDS	12

struct event_fmt {
	const char		*system;
	const char		*name;		/* NULL: this generation has no such event */
	int			id;
	int			nr;
	struct fmt_field	f[MAX_FIELDS];
	int			fixed_size;	/* of the struct, before dynamic data */
	int			align;		/* of its widest member */
	char			print[1024];	/* the "print fmt:" text */
};

struct buf {
	unsigned char	*p;
	size_t		len, cap;
};

/* mktrace-buf.c; prog_file is the description's name, for die()'s messages */
extern const char *prog_file;
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void buf_add(struct buf *b, const void *p, size_t n);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void put_num(unsigned char *p, const struct target *t, uint64_t v, int bytes);
void buf_num(struct buf *b, const struct target *t, uint64_t v, int bytes);

/* mktrace-page.c: the page allocator's events */
void parse_page_layout(struct target *t, const char *word, int line);
uint64_t page_pointer(const struct target *t, uint64_t pfn);
void page_event(struct event_fmt *e, const struct target *t, int kind);

/* mktrace-kinds.c: the percpu and vmalloc events */
void kinds_event(struct event_fmt *e, const struct target *t, int kind);
int kinds_default(const char *name, uint64_t *num);
int kinds_field(const char *name);

static inline int is_page_kind(int k)
{
	return k >= K_PAGE_ALLOC && k <= K_PAGE_PCPU_DRAIN;
}

/* mktrace-formats.c */
void add_field(struct event_fmt *e, const struct target *t, const char *type,
	       const char *name, int size, int is_signed, int dynamic);
void gfp_print(char *p, size_t len, const struct target *t);
int parse_generation(const char *s);
void formats_init(const struct target *t, struct event_fmt fmts[K_NR]);
void format_text(struct buf *b, const struct event_fmt *e);
void header_page_text(struct buf *b, const struct target *t);
extern const char header_event_text[];
int render_kind(const struct target *t, int logical, int has_node);
const char *kind_name(int kind);
void encode_payload(struct buf *b, const struct target *t, const struct event_fmt *e, int pid,
		    const struct value *v, int nv, int line);
void encode_stack(struct buf *b, const struct target *t, const struct event_fmt *e, int pid,
		  const uint64_t *frames, int nr);
int parse_stack_layout(const char *s);
int parse_gfp_layout(const char *s);
int gfp_value(const struct target *t, const char *s, uint64_t *out);

/* mktrace-seq.c: the parsed description, which mktrace.c writes out */
#define MAX_CPUS	64
#define MAX_VALUES	10

enum item_type { I_EVENT, I_MARKER, I_MISSED, I_PAGE, I_STACK };

struct item {
	enum item_type	type;
	int		cpu, pid, kind, has_node, line;
	uint64_t	ts;
	int64_t		missed;
	int		nv;
	struct value	v[MAX_VALUES];
	uint64_t	*frames;	/* I_STACK: innermost first */
	int		nr_frames;
};

struct sym {
	uint64_t	addr;
	char		*name;
};

extern struct target tgt;
extern int cpus;
extern char *uname_text;
extern char *offset_text;	/* the OFFSET option's number, or NULL */
extern struct buf kallsyms, cmdlines;
extern struct sym *syms;
extern int nr_syms;
extern struct item *items;
extern int nr_items;
extern int has_module_events;
extern int has_page_events;	/* the kmem system gets the page allocator's formats */
extern int has_percpu_events, has_vmap_events;	/* the percpu, vmalloc systems are written */
extern int pages_only;		/* "kmem pages": and no slab formats */
extern uint64_t stats[MAX_CPUS][6];

uint64_t lmask(uint64_t v);
void parse_line(char *s, int line, const int set[5]);

#endif
