// SPDX-License-Identifier: GPL-2.0
/*
 * kma-check-v7.c - the checks run on a v7 trace.dat before libtracecmd sees
 * it, through the walker of kma-tracedat.c: every section and offset
 * against the file size, the header_page, the ring-buffer pages.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-tracedat.h"
#include "kma-layout.h"
#include "kma-grow.h"

/* The section an option points to, by the option's id, for messages. */

/* The walk's state beside the cursor. */
struct check {
	struct kma_td	*t;
	uint64_t	page_size;	/* of the buffer being checked */
	int		long_size;
	uint64_t	cur_opts;	/* the options section being walked */
	struct kma_td_layout *lay;	/* where each buffer's CPU data lies, or NULL */
	int		defer;		/* leave the pages to a second pass (or the page reader) */
	/* the sections the options chain reached, for the walk of tail_warning() */
	struct known	*known;
	size_t		nr_known, cap_known;
};

/* A section the options chain points to (or an options section): where it starts. */
struct known {
	uint64_t	off;
	uint64_t	end;
	int		id;
};

/* A message for the user as is: the file is cut short (or corrupt). */
#define cut(t, ...)	kma_err_set(&(t)->err, KMA_ERR_TRUNCATED, __VA_ARGS__)
#define bad(t, ...)	kma_err_set(&(t)->err, KMA_ERR_CORRUPT, __VA_ARGS__)

static int whole_message(const struct kma_td *t)
{
	return t->err.kind == KMA_ERR_TRUNCATED || t->err.kind == KMA_ERR_CORRUPT;
}

/* Remembered for the walk at the end; without memory the walk knows less. */
static void add_known(struct check *c, uint64_t off, uint64_t end)
{
	struct known *k;
	unsigned char b[2];

	if (kma_grow(&c->known, &c->cap_known, c->nr_known, sizeof(*c->known), 16))
		return;
	if (kma_td_pread(c->t, off, b, 2))
		return;
	k = &c->known[c->nr_known++];
	k->off = off;
	k->end = end;
	k->id = (int)kma_td_get(c->t, b, 2);
}

/*
 * Whether the section at @off lies whole in the file. If not, t->err says
 * what is missing: libtracecmd 1.3 reads such a section without checking.
 */
static int fits(struct check *c, uint64_t off, const char *what)
{
	struct kma_td *t = c->t;
	uint64_t size;

	if (off >= t->size) {
		cut(t, "truncated trace.dat: %s at %" PRIu64 " lies past the end of the file (%"
		    PRIu64 " bytes)", what, off, t->size);
		return 0;
	}
	t->off = off + 8;
	if (t->size - off < KMA_TD_SEC_HEADER || kma_td_num(t, 8, &size)) {
		cut(t, "truncated trace.dat: the file ends at %" PRIu64 ", inside the header of %s "
		    "at %" PRIu64, t->size, what, off);
		return 0;
	}
	if (size > UINT64_MAX - off - KMA_TD_SEC_HEADER) {
		bad(t, "corrupt trace.dat: %s at %" PRIu64 " has an impossible size", what, off);
		return 0;
	}
	/* sections do not overlap: one that runs over the options pointing to it is corrupt */
	if (off < c->cur_opts && size > c->cur_opts - off - KMA_TD_SEC_HEADER &&
	    size > t->size - off - KMA_TD_SEC_HEADER) {
		bad(t, "corrupt trace.dat: %s at %" PRIu64 " claims to end at %" PRIu64 ", past "
		    "the options section at %" PRIu64 " that points to it", what, off,
		    off + KMA_TD_SEC_HEADER + size, c->cur_opts);
		return 0;
	}
	if (size > t->size - off - KMA_TD_SEC_HEADER) {
		cut(t, "truncated trace.dat: %s at %" PRIu64 " ends at %" PRIu64 ", the file at %"
		    PRIu64, what, off, off + KMA_TD_SEC_HEADER + size, t->size);
		return 0;
	}
	kma_err_clear(&t->err);
	add_known(c, off, off + KMA_TD_SEC_HEADER + size);
	return 1;
}

/*
 * The commit word of each ring-buffer page must fit the page (with the
 * missed-events count stored after the data): libtraceevent's kbuffer
 * trusts it and reads past the page otherwise. The rule of kma-check-v6.c.
 */
static int pages_ok(struct check *c, const unsigned char *buf, uint64_t len)
{
	uint64_t off, commit, size, room = c->page_size - 8 - c->long_size;

	for (off = 0; off + c->page_size <= len; off += c->page_size) {
		commit = kma_td_get(c->t, buf + off + 8, c->long_size);
		size = (uint32_t)commit & ((1u << 27) - 1);
		if (size > room ||
		    ((commit & (1ull << 31)) && (commit & (1ull << 30)) && size + c->long_size > room))
			return -1;
	}
	return 0;
}

static int compressed(const struct kma_td *t)
{
	return strcmp(t->cname, "none") && t->cname[0];
}

/* Plain pages, one at a time. */
static int plain_pages_ok(struct check *c, uint64_t off, uint64_t end)
{
	unsigned char *buf = malloc(c->page_size);
	int bad = !buf;

	for (; !bad && off + c->page_size <= end; off += c->page_size)
		bad = kma_td_pread(c->t, off, buf, c->page_size) ||
		      pages_ok(c, buf, c->page_size);
	free(buf);
	return bad ? -1 : 0;
}

/*
 * A chunk that does not inflate, or not to the size its header claims:
 * libtracecmd would cut the stale rest of its buffer into records.
 */
static int chunk_bad(struct check *c, uint32_t cpu, uint64_t chunk, uint64_t usize)
{
	struct kma_td *t = c->t;

	if (t->err.kind == KMA_ERR_NOMEM || t->inflated == -2)
		return -1;
	kma_td_chunk_msg(t->err.msg, sizeof(t->err.msg), cpu, chunk, t->inflated, usize);
	t->err.kind = KMA_ERR_CORRUPT;
	return -1;
}

/*
 * One CPU's data: zstd chunks (u32 count; u32 csize, u32 size, data) or plain
 * pages. With c->defer only the first chunk or page: the one libtracecmd
 * loads when it opens the file; the page reader checks the rest as it reads.
 */
static int cpu_data_ok(struct check *c, uint32_t cpu, uint64_t off, uint64_t size)
{
	struct kma_td *t = c->t;
	uint64_t end, count, i, csize, usize, len;
	unsigned char *buf;
	int bad;

	if (off > t->size || size > t->size - off)
		return -1;
	if (!compressed(t))
		return plain_pages_ok(c, off, c->defer && size > c->page_size ?
					      off + c->page_size : off + size);
	if (!size)
		return 0;
	/* the size given in the BUFFER option does not count the u32 chunk count */
	t->off = off;
	if (kma_td_num(t, 4, &count) || size > t->size - t->off)
		return -1;
	off = t->off;
	end = off + size;
	if (c->defer && count > 1)
		count = 1;
	for (i = 0; i < count; i++) {
		uint64_t chunk = off;

		t->off = chunk;
		if (chunk > end || kma_td_num(t, 4, &csize) || kma_td_num(t, 4, &usize) ||
		    csize > end - t->off || usize % c->page_size)
			return -1;
		/* chunks of empty pages compress very well: no ratio bound, a size bound */
		buf = (unsigned char *)kma_td_inflate(t, chunk, end - chunk, &len, 1u << 28,
						      1u << 20);
		if (!buf || t->inflated != (int64_t)len) {
			free(buf);
			return chunk_bad(c, cpu, chunk, usize);
		}
		bad = pages_ok(c, buf, len);
		free(buf);
		if (bad)
			return -1;
		off = chunk + 8 + csize;
	}
	return 0;
}

/*
 * One CPU of a BUFFER option (u32 cpu, u64 offset, u64 size): its data must
 * lie in the file. Compressed data starts with a u32 chunk count that the
 * size does not include.
 */
static int cpu_fits(struct check *c, const unsigned char *d)
{
	struct kma_td *t = c->t;
	uint64_t cpu = kma_td_get(t, d, 4), off = kma_td_get(t, d + 4, 8);
	uint64_t size = kma_td_get(t, d + 12, 8), extra = size && compressed(t) ? 4 : 0;

	if (off <= t->size && size <= t->size - off && extra <= t->size - off - size)
		return 0;
	if (off > UINT64_MAX - extra || size > UINT64_MAX - extra - off)
		return bad(t, "corrupt trace.dat: CPU %" PRIu64 "'s event data has an impossible "
			   "size", cpu);
	if (off < c->cur_opts && off + extra + size > c->cur_opts)
		return bad(t, "corrupt trace.dat: CPU %" PRIu64 "'s event data claims to end at %"
			   PRIu64 ", past the options section at %" PRIu64 " that describes it",
			   cpu, off + extra + size, c->cur_opts);
	return cut(t, "truncated trace.dat: CPU %" PRIu64 "'s event data ends at %" PRIu64
		   ", the file at %" PRIu64, cpu, off + extra + size, t->size);
}

/*
 * Two CPUs of a BUFFER option, @a before @b: trace-cmd writes their data one
 * after the other, so data that runs over the next CPU's has a wrong size
 * (libtracecmd would read the next CPU's pages as this one's too).
 */
static int cpu_overlaps(struct check *c, const unsigned char *a, const unsigned char *b)
{
	struct kma_td *t = c->t;
	uint64_t aoff = kma_td_get(t, a + 4, 8), alen = kma_td_get(t, a + 12, 8);
	uint64_t boff = kma_td_get(t, b + 4, 8), blen = kma_td_get(t, b + 12, 8);
	uint64_t extra = compressed(t) ? 4 : 0;

	/* both lie in the file (cpu_fits): no sum overflows */
	if (!alen || !blen || aoff >= boff + extra + blen || boff >= aoff + extra + alen)
		return 0;
	return bad(t, "corrupt trace.dat: CPU %" PRIu64 "'s event data at %" PRIu64 " claims %"
		   PRIu64 " bytes, running over CPU %" PRIu64 "'s at %" PRIu64,
		   kma_td_get(t, a, 4), aoff, alen, kma_td_get(t, b, 4), boff);
}

/*
 * The layout entry of a BUFFER option @d (its name ends inside @len: checked
 * before); whether its data is compressed is the flag of the section it
 * points to, as libtracecmd reads it. NULL with t->err.
 */
static struct kma_td_buf *layout_buf(struct check *c, const unsigned char *d, uint64_t len)
{
	struct kma_td *t = c->t;
	struct kma_td_sec s;
	struct kma_td_buf *b;

	if (kma_td_sec(t, kma_td_get(t, d, 8), &s)) {
		cut(t, "truncated trace.dat: %s lies past the end of the file",
		    kma_td_sec_name(KMA_TD_OPT_BUFFER));
		return NULL;
	}
	b = kma_layout_add_buf(c->lay, (const char *)d + 8, (uint32_t)c->page_size,
			       (s.flags & KMA_TD_SEC_COMPRESS) != 0);
	if (!b)
		kma_err_set(&t->err, KMA_ERR_NOMEM, "out of memory");
	return b;
}

/*
 * The second pass over the pages (when the walk deferred them): every CPU
 * of every buffer, as check_buffer() does in the walk.
 */
static int layout_pages_ok(struct check *c)
{
	const struct kma_td_buf *b;
	int i;
	uint32_t j;

	c->defer = 0;
	for (i = 0; i < c->lay->nr_bufs; i++) {
		b = &c->lay->bufs[i];
		c->page_size = b->page_size;
		for (j = 0; j < b->nr_cpus; j++)
			if (cpu_data_ok(c, b->cpus[j].cpu, b->cpus[j].off, b->cpus[j].size)) {
				if (!whole_message(c->t) && c->t->err.kind != KMA_ERR_NOMEM)
					bad(c->t, "corrupt trace.dat: a ring-buffer page or "
					    "compressed chunk does not fit (corrupt event data)");
				return -1;
			}
	}
	c->lay->pages_checked = 1;
	return 0;
}

/* BUFFER: u64 section offset, name, clock, u32 page size, u32 cpus, per CPU u32 id, u64 offset, u64 size */
static int check_buffer(struct check *c, const unsigned char *d, uint64_t len)
{
	struct kma_td *t = c->t;
	struct kma_td_buf *b = NULL;
	uint64_t p = 8, cpus, i, n;

	for (n = 0; n < 2; n++) {	/* name and clock */
		while (p < len && d[p])
			p++;
		if (p++ >= len)
			goto bad;
	}
	if (len - p < 8)
		goto bad;
	c->page_size = kma_td_get(t, d + p, 4);
	cpus = kma_td_get(t, d + p + 4, 4);
	p += 8;
	if (!kma_valid_page_size(c->page_size) || cpus > (len - p) / 20)
		goto bad;
	if (!fits(c, kma_td_get(t, d, 8), kma_td_sec_name(KMA_TD_OPT_BUFFER)))
		return -1;
	if (c->lay && !(b = layout_buf(c, d, len)))
		return -1;
	for (i = 0; i < cpus; i++, p += 20) {
		if (cpu_fits(c, d + p) || (i && cpu_overlaps(c, d + p - 20, d + p)) ||
		    cpu_data_ok(c, (uint32_t)kma_td_get(t, d + p, 4), kma_td_get(t, d + p + 4, 8),
				kma_td_get(t, d + p + 12, 8)))
			goto bad;
		if (b && kma_layout_add_cpu(c->lay, b, (uint32_t)kma_td_get(t, d + p, 4),
					    kma_td_get(t, d + p + 4, 8),
					    kma_td_get(t, d + p + 12, 8)))
			return kma_err_set(&t->err, KMA_ERR_NOMEM, "out of memory");
	}
	return 0;
bad:
	if (!whole_message(t) && t->err.kind != KMA_ERR_NOMEM)
		bad(t, "corrupt trace.dat: a ring-buffer page or compressed chunk does not fit "
		    "(corrupt event data)");
	return -1;
}

/*
 * "header_page", u64 size, its text: libtraceevent falls back to defaults
 * when it cannot parse it, and the pages are then decoded with a wrong
 * layout into records of garbage.
 */
static int check_header_page(struct check *c, uint64_t off)
{
	struct kma_td *t = c->t;
	uint64_t len, size;
	char *buf = kma_td_section(t, off, KMA_TD_OPT_HEADER_INFO, &len);
	int ok;

	if (!buf)
		return -1;
	ok = len >= 20 && !memcmp(buf, "header_page", 12) &&
	     (size = kma_td_get(t, buf + 12, 8)) <= len - 20 &&
	     kma_header_page_long_size(buf + 20, size) >= 0;
	free(buf);
	if (ok)
		return 0;
	return bad(t, "corrupt trace.dat headers (the header_page format does not describe a "
		   "ring-buffer page)");
}

/* The section @off that option @id points to must fit; the header_page must be sane. */
static int check_ref(struct check *c, uint64_t id, uint64_t off)
{
	struct kma_td *t = c->t;

	/*
	 * The sections the options list are written before them: one past the
	 * end of the file is a corrupt offset, not a file cut short.
	 */
	if (off >= t->size && c->cur_opts < t->size)
		return bad(t, "corrupt trace.dat: the options section at %" PRIu64 " points to %s "
			   "at %" PRIu64 ", past the end of the file (%" PRIu64 " bytes)",
			   c->cur_opts, kma_td_sec_name(id), off, t->size);
	if (!fits(c, off, kma_td_sec_name(id)))
		return -1;
	return id == KMA_TD_OPT_HEADER_INFO ? check_header_page(c, off) : 0;
}

static int on_section(struct kma_td *t, uint64_t off, void *ctx)
{
	struct check *c = ctx;

	if (!fits(c, off, kma_td_sec_name(KMA_TD_OPT_DONE)))
		return -1;
	c->cur_opts = off;
	return 0;
}

/* The names trace-cmd dump gives the options kma_td_option_data() may refuse. */
static const char *opt_name(unsigned int id)
{
	static const char * const names[] = {
		[KMA_TD_OPT_DATE] = "DATE", [KMA_TD_OPT_CPUSTAT] = "CPUSTAT",
		[KMA_TD_OPT_TRACECLOCK] = "TRACECLOCK", [KMA_TD_OPT_UNAME] = "UNAME",
		[KMA_TD_OPT_HOOK] = "HOOK", [KMA_TD_OPT_OFFSET] = "OFFSET",
		[KMA_TD_OPT_CPUCOUNT] = "CPUCOUNT", [KMA_TD_OPT_VERSION] = "VERSION",
		[KMA_TD_OPT_PROCMAPS] = "PROCMAPS", [KMA_TD_OPT_GUEST] = "GUEST",
	};

	return id < sizeof(names) / sizeof(names[0]) && names[id] ? names[id] : "an";
}

static int on_option(struct kma_td *t, unsigned int id, const unsigned char *d, uint64_t size,
		     void *ctx)
{
	struct check *c = ctx;
	uint64_t cpus;

	if (c->lay && kma_layout_ts_option(id))
		c->lay->ts_options = 1;
	if (id == KMA_TD_OPT_BUFFER)
		return check_buffer(c, d, size);
	if (kma_td_option_data(t, id, d, size, &cpus)) {
		bad(t, "corrupt trace.dat: the options section at %" PRIu64 " holds %s %s option "
		    "that libtracecmd cannot read safely", c->cur_opts,
		    id == KMA_TD_OPT_HOOK ? "a" : "a malformed", opt_name(id));
		return -1;
	}
	if (id >= KMA_TD_OPT_HEADER_INFO && id <= KMA_TD_OPT_CMDLINES && size >= 8)
		return check_ref(c, id, kma_td_get(t, d, 8));
	return 0;
}

/* The sections one after another, as libtracecmd reads them looking for the section names. */
struct tail {
	uint64_t	cut;		/* offset of the first section cut short, 0: none */
	int		cut_id;		/* its id, -1 when not even that is left */
	uint64_t	cut_end;	/* where it would end, 0: not known */
	uint64_t	names;		/* bytes of section names found */
	uint64_t	max_name;	/* the largest name offset the sections use + 1 */
	uint64_t	names_end;	/* where the last whole section names end, 0: none */
	/* a section whose size field is wrong (the walk went astray after it) */
	uint64_t	bad;		/* its offset, 0: none */
	int		bad_id;
	uint64_t	bad_size;	/* what it claims */
	uint64_t	bad_data;	/* its compressed data's size, 0: not known */
	const struct known *bad_over;	/* the section it runs over, or NULL */
};

/* The first section the options chain reached that starts after @off, or NULL. */
static const struct known *next_known(const struct check *c, uint64_t off)
{
	const struct known *n = NULL;
	size_t i;

	for (i = 0; i < c->nr_known; i++)
		if (c->known[i].off > off && (!n || c->known[i].off < n->off))
			n = &c->known[i];
	return n;
}

static uint64_t known_end(const struct check *c)
{
	uint64_t end = 0;
	size_t i;

	for (i = 0; i < c->nr_known; i++)
		if (c->known[i].end > end)
			end = c->known[i].end;
	return end;
}

/*
 * Whether the size of the section @s at @off is wrong, as far as the file
 * tells: it runs over the next section the options chain points to, or a
 * compressed section (other than the event data, whose chunks follow one
 * another) is not its one block (u32 csize, u32 size, data), which lies
 * whole in the file. Only asked of sections where the walk can still trust
 * where it is: before the last known section, or the names after it.
 */
static int size_wrong(struct kma_td *t, const struct check *c, uint64_t off,
		      const struct kma_td_sec *s, struct tail *tl)
{
	const struct known *n = next_known(c, off);
	uint64_t data = off + KMA_TD_SEC_HEADER, csize;

	tl->bad_over = n && (n->off < data || s->size > n->off - data) ? n : NULL;
	tl->bad_data = 0;
	if ((s->flags & KMA_TD_SEC_COMPRESS) && s->id != KMA_TD_OPT_BUFFER &&
	    t->size - data >= 8) {
		t->off = data;
		if (!kma_td_num(t, 4, &csize) && csize <= t->size - data - 8 &&
		    csize + 8 != s->size && (!n || (n->off >= data && csize + 8 <= n->off - data)))
			tl->bad_data = csize + 8;
	}
	if (!tl->bad_over && !tl->bad_data)
		return 0;
	tl->bad = off;
	tl->bad_id = s->id;
	tl->bad_size = s->size;
	return 1;
}

static void walk_sections(struct kma_td *t, const struct check *c, uint64_t off,
			  struct tail *tl)
{
	uint64_t last = c ? known_end(c) : 0;

	memset(tl, 0, sizeof(*tl));
	while (off < t->size) {
		struct kma_td_sec s;
		uint64_t id, u = 0;

		tl->cut = off;
		tl->cut_id = -1;
		t->off = off;
		if (kma_td_num(t, 2, &id))
			return;
		tl->cut_id = (int)id;
		if (kma_td_sec(t, off, &s))
			return;
		if (c && (off < last || (s.id == KMA_TD_SEC_STRINGS && !tl->names_end)) &&
		    size_wrong(t, c, off, &s, tl))
			return;
		t->off = off + KMA_TD_SEC_HEADER;
		if (s.size > t->size - t->off) {
			tl->cut_end = s.size <= UINT64_MAX - t->off ? t->off + s.size : 0;
			return;
		}
		off = t->off + s.size;
		if (s.id == KMA_TD_SEC_STRINGS) {
			t->off += 4;
			tl->names += (s.flags & KMA_TD_SEC_COMPRESS) && s.size >= 8 &&
				     !kma_td_num(t, 4, &u) ? u : s.size;
			tl->names_end = off;
		} else if (s.name >= tl->max_name) {
			tl->max_name = (uint64_t)s.name + 1;
		}
		tl->cut = 0;
	}
}

/* The warning for a section whose size is wrong (the report does not need it). */
static void size_warning(struct kma_td *t, const struct tail *tl, char *msg, size_t len)
{
	int names = tl->bad_id == KMA_TD_SEC_STRINGS;
	const char *what = names ? "the section names" : kma_td_sec_name((uint64_t)tl->bad_id);
	const char *claim = names ? "claim" : "claims", *need = names ? "them" : "its size";
	uint64_t has = t->size - tl->bad - KMA_TD_SEC_HEADER;

	if (tl->bad_over && tl->bad_size > has)
		snprintf(msg, len, "corrupt trace.dat: %s at %" PRIu64 " %s %" PRIu64
			 " bytes, the file has %" PRIu64 " after the header and %s at %" PRIu64
			 " follows; kma does not need %s", what, tl->bad, claim, tl->bad_size,
			 has, kma_td_sec_name((uint64_t)tl->bad_over->id), tl->bad_over->off, need);
	else if (tl->bad_over)
		snprintf(msg, len, "corrupt trace.dat: %s at %" PRIu64 " %s %" PRIu64
			 " bytes, running over %s at %" PRIu64 "; kma does not need %s",
			 what, tl->bad, claim, tl->bad_size, kma_td_sec_name((uint64_t)tl->bad_over->id),
			 tl->bad_over->off, need);
	else
		snprintf(msg, len, "corrupt trace.dat: %s at %" PRIu64 " %s %" PRIu64
			 " bytes, %s compressed block takes %" PRIu64 "%s; kma does not need %s",
			 what, tl->bad, claim, tl->bad_size, names ? "their" : "its", tl->bad_data,
			 tl->bad_size > has ? " (the file is not cut short)" : "", need);
}

/* After the checks passed: what is wrong at the end of the file, if anything. */
static void tail_warning(struct kma_td *t, const struct check *c, uint64_t off, char *msg,
			 size_t len)
{
	uint64_t last = known_end(c);
	struct tail tl;

	walk_sections(t, c, off, &tl);
	if (tl.names_end > last)
		last = tl.names_end;
	if (tl.bad)
		size_warning(t, &tl, msg, len);
	else if (tl.cut && tl.names_end && tl.cut >= last && tl.max_name <= tl.names)
		snprintf(msg, len, "trace.dat has %" PRIu64 " byte%s after its last section, "
			 "which ends at %" PRIu64 "; kma ignores %s", t->size - last,
			 t->size - last == 1 ? "" : "s", last, t->size - last == 1 ? "it" : "them");
	else if (tl.cut && tl.cut_id == KMA_TD_SEC_STRINGS && tl.cut_end)
		snprintf(msg, len, "truncated trace.dat: the section names at %" PRIu64
			 " end at %" PRIu64 ", the file at %" PRIu64 "; kma does not need them",
			 tl.cut, tl.cut_end, t->size);
	else if (tl.cut)
		snprintf(msg, len, "truncated trace.dat: the file ends at %" PRIu64
			 ", inside %s at %" PRIu64 " that kma does not need",
			 t->size, tl.cut_id == KMA_TD_SEC_STRINGS ? "the section names" : "a section",
			 tl.cut);
	else if (tl.max_name > tl.names)
		snprintf(msg, len, "truncated trace.dat: the section names at its end "
			 "are missing; kma does not need them");
}

/*
 * A section cut short after the first options section (the event data,
 * whose options come after it) says best where the file ends.
 */
static void better_cut(struct kma_td *t, uint64_t off, uint64_t first_opts)
{
	struct tail tl;

	walk_sections(t, NULL, off, &tl);
	if (t->err.kind == KMA_ERR_TRUNCATED && tl.cut > first_opts &&
	    tl.cut_id != KMA_TD_SEC_STRINGS && tl.cut_end &&
	    strcmp(kma_td_sec_name((uint64_t)tl.cut_id), "a section"))
		cut(t, "truncated trace.dat: %s at %" PRIu64 " ends at %" PRIu64 ", the file at %"
		    PRIu64, kma_td_sec_name((uint64_t)tl.cut_id), tl.cut, tl.cut_end, t->size);
}

int kma_td_check_v7(const char *path, struct kma_err *err, char *warning, size_t wlen,
		    struct kma_td_layout *lay)
{
	struct kma_td t;
	struct check c = { .t = &t, .lay = lay, .defer = lay && lay->defer_pages };
	struct kma_td_head h;
	uint64_t kallsyms, end;
	struct kma_td_walk w = { on_section, on_option, &c };
	int ret = 0;

	warning[0] = '\0';
	if (kma_td_open(&t, path))
		return 0;	/* the caller reports what open says */
	if (kma_td_head(&t, &h) || h.version != 7)
		goto out;
	end = t.off;
	c.long_size = h.long_size == 4 ? 4 : 8;
	if (!kma_td_options(&t, h.options, &w, &kallsyms) || t.err.kind == KMA_ERR_NONE) {
		/* libtracecmd reads the pages unless the page reader alone does */
		if (c.defer && (lay->nr_bufs != 1 || lay->ts_options) && layout_pages_ok(&c)) {
			*err = t.err;
			ret = -1;
			goto out;
		}
		if (lay && !c.defer)
			lay->pages_checked = 1;
		tail_warning(&t, &c, end, warning, wlen);
		goto out;
	}
	if (!whole_message(&t))
		goto out;	/* left to kma_td_kallsyms() and libtracecmd */
	better_cut(&t, end, h.options);
	*err = t.err;
	ret = -1;
out:
	free(c.known);
	kma_td_close(&t);
	return ret;
}
