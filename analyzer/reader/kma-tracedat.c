// SPDX-License-Identifier: GPL-2.0
/*
 * kma-tracedat.c - kma's own walk of the trace.dat structure (v6 and v7),
 * the one place that knows its layout beyond libtracecmd: the kallsyms
 * block for kma-symtab.c, and for v7 files the checks run before
 * libtracecmd sees them (every section and offset against the file size,
 * the header_page, the ring-buffer pages).
 *
 * The file is read with pread() and every size and offset is checked against
 * the file size before use: a corrupt or cut file gives a reason, never a
 * crash. Compressed v7 sections are inflated with libtracecmd's own
 * compression API, so kma reads whatever libtracecmd can (zstd, zlib).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

#include <traceevent/event-parse.h>

#include "sites/kma-symtab.h"
#include "kma-validate.h"
#include "kma-zlib.h"

/*
 * Exported by libtracecmd.so.1 (1.3) but declared only in trace-cmd's private
 * header lib/trace-cmd/include/private/trace-cmd-private.h, which Debian does
 * not ship. Signatures as in libtracecmd 1.3.1. tracecmd_uncompress_block()
 * read()s "u32 compressed size, u32 size, data" at the fd's current offset
 * (numbers decoded with @tep's file endianness) into the handle's buffer.
 */
struct tracecmd_compression;
struct tracecmd_msg_handle;
struct tracecmd_compression *tracecmd_compress_alloc(const char *name, const char *version,
						     int fd, struct tep_handle *tep,
						     struct tracecmd_msg_handle *msg_handle);
void tracecmd_compress_destroy(struct tracecmd_compression *handle);
int tracecmd_uncompress_block(struct tracecmd_compression *handle);
int tracecmd_compress_buffer_read(struct tracecmd_compression *handle, char *dst, int len);

#define SEC_OPTIONS	0	/* the options section has the id of OPTION_DONE */
#define OPT_DONE	0
#define OPT_KALLSYMS	19
#define OPT_BUFFER	3
#define SEC_FL_COMPRESS	1
#define MAX_SECTIONS	4096	/* options sections in one chain: a loop guard */
#define MAX_RATIO	1024	/* kallsyms text never inflates more than this */
#define MAX_STR		4096
#define SEC_HEADER	16	/* u16 id, u16 flags, u32 name, u64 size */
#define SEC_STRINGS	15	/* the section names, at the end of the file */
#define OPT_HEADER_INFO	16	/* header_page and header_event */
#define OPT_CMDLINES	21

/* What the checks found; static, as the reasons of the other functions. */
static char cut_msg[320];


struct src {
	int		fd;
	uint64_t	size;		/* file size */
	int		big;		/* file endianness */
	char		cname[64];	/* v7 compression */
	char		cver[64];
	struct tep_handle *tep;		/* for libtracecmd's number decoding */
	const char	*why;
	uint64_t	page_size;	/* of the buffer being checked */
	int		long_size;
	int		as_is;		/* why is for the user as is (truncation, bad header) */
	uint64_t	cur_opts;	/* the options section being walked */
};

/* The section an option points to, by the option's id, for messages. */
static const char *sec_name(uint64_t id)
{
	static const char * const names[] = {
		[OPT_BUFFER] = "the event data section",
		[SEC_STRINGS] = "the section names",
		[OPT_HEADER_INFO] = "the header_page/header_event section",
		[17] = "the ftrace event formats section",
		[18] = "the event formats section",
		[OPT_KALLSYMS] = "the kallsyms section",
		[20] = "the printk formats section",
		[OPT_CMDLINES] = "the saved cmdlines section",
	};

	if (id == SEC_OPTIONS)
		return "the options section";
	return id < sizeof(names) / sizeof(names[0]) && names[id] ? names[id] : "a section";
}

static int get(struct src *s, uint64_t off, void *buf, size_t len)
{
	if (off > s->size || len > s->size - off ||
	    pread(s->fd, buf, len, (off_t)off) != (ssize_t)len)
		return -1;
	return 0;
}

static uint64_t decode(const struct src *s, const unsigned char *b, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)b[s->big ? bytes - 1 - i : i] << (8 * i);
	return v;
}

/* A number of @bytes at *off, which advances. */
static int num(struct src *s, uint64_t *off, int bytes, uint64_t *v)
{
	unsigned char b[8];

	if (get(s, *off, b, bytes))
		return -1;
	*v = decode(s, b, bytes);
	*off += bytes;
	return 0;
}

static int str(struct src *s, uint64_t *off, char *buf, size_t max)
{
	size_t i;

	for (i = 0; i < max; i++) {
		if (get(s, *off + i, &buf[i], 1))
			return -1;
		if (!buf[i]) {
			*off += i + 1;
			return 0;
		}
	}
	return -1;
}

static int skip(struct src *s, uint64_t *off, uint64_t len)
{
	if (*off > s->size || len > s->size - *off)
		return -1;
	*off += len;
	return 0;
}

/*
 * Whether the section at @off lies whole in the file. If not, s->why says
 * what is missing: libtracecmd 1.3 reads such a section without checking.
 */
static int fits(struct src *s, uint64_t off, const char *what)
{
	uint64_t o = off + 8, size;

	s->as_is = 1;
	s->why = cut_msg;
	if (off >= s->size) {
		snprintf(cut_msg, sizeof(cut_msg), "truncated trace.dat: %s at %" PRIu64
			 " lies past the end of the file (%" PRIu64 " bytes)", what, off, s->size);
		return 0;
	}
	if (s->size - off < SEC_HEADER || num(s, &o, 8, &size)) {
		snprintf(cut_msg, sizeof(cut_msg), "truncated trace.dat: the file ends at %" PRIu64
			 ", inside the header of %s at %" PRIu64, s->size, what, off);
		return 0;
	}
	if (size > UINT64_MAX - off - SEC_HEADER) {
		snprintf(cut_msg, sizeof(cut_msg), "corrupt trace.dat: %s at %" PRIu64
			 " has an impossible size", what, off);
		return 0;
	}
	/* sections do not overlap: one that runs over the options pointing to it is corrupt */
	if (off < s->cur_opts && size > s->cur_opts - off - SEC_HEADER &&
	    size > s->size - off - SEC_HEADER) {
		snprintf(cut_msg, sizeof(cut_msg), "corrupt trace.dat: %s at %" PRIu64
			 " claims to end at %" PRIu64 ", past the options section at %" PRIu64
			 " that points to it", what, off, off + SEC_HEADER + size, s->cur_opts);
		return 0;
	}
	if (size > s->size - off - SEC_HEADER) {
		snprintf(cut_msg, sizeof(cut_msg), "truncated trace.dat: %s at %" PRIu64
			 " ends at %" PRIu64 ", the file at %" PRIu64, what, off,
			 off + SEC_HEADER + size, s->size);
		return 0;
	}
	s->as_is = 0;
	s->why = NULL;
	return 1;
}

/* @len bytes at @off into a new buffer with a NUL after them. */
static char *slurp(struct src *s, uint64_t off, uint64_t len)
{
	char *buf;

	if (len > KMA_SYMTAB_MAX_TEXT || off > s->size || len > s->size - off)
		return NULL;
	buf = malloc(len + 1);
	if (buf && get(s, off, buf, len)) {
		free(buf);
		return NULL;
	}
	if (buf)
		buf[len] = '\0';
	return buf;
}

/*
 * Inflates the compressed block (u32 csize, u32 size, data) at @off, inside
 * a section of @sec_size bytes. The sizes are checked here first because
 * libtracecmd trusts them.
 */
static char *inflate_max(struct src *s, uint64_t off, uint64_t sec_size, uint64_t *len,
			 uint64_t max_size, uint64_t max_ratio)
{
	struct tracecmd_compression *c;
	uint64_t csize, usize, o = off;
	char *buf;

	if (sec_size < 8 || num(s, &o, 4, &csize) || num(s, &o, 4, &usize)) {
		s->why = "compressed section header does not fit the file";
		return NULL;
	}
	if (csize > sec_size - 8 || csize > s->size - o || !usize ||
	    usize > max_size || usize > csize * max_ratio) {
		s->why = "compressed section has impossible sizes";
		return NULL;
	}
	if (!s->tep) {
		s->tep = tep_alloc();
		if (!s->tep) {
			s->why = "out of memory";
			return NULL;
		}
		tep_set_file_bigendian(s->tep, s->big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	}
	kma_zlib_register();	/* a no-op after the first call */
	c = tracecmd_compress_alloc(s->cname, s->cver, s->fd, s->tep, NULL);
	if (!c) {
		s->why = "the trace's compression is not supported by libtracecmd";
		return NULL;
	}
	buf = malloc(usize + 1);
	if (!buf || lseek(s->fd, (off_t)off, SEEK_SET) != (off_t)off ||
	    tracecmd_uncompress_block(c) ||
	    tracecmd_compress_buffer_read(c, buf, (int)usize) != (int)usize) {
		s->why = buf ? "compressed section does not inflate" : "out of memory";
		free(buf);
		buf = NULL;
	} else {
		buf[usize] = '\0';
		*len = usize;
	}
	tracecmd_compress_destroy(c);
	return buf;
}

static char *inflate(struct src *s, uint64_t off, uint64_t sec_size, uint64_t *len)
{
	return inflate_max(s, off, sec_size, len, KMA_SYMTAB_MAX_TEXT, MAX_RATIO);
}

/* Section @id at @off: its data (inflated when compressed) and length. */
static char *section(struct src *s, uint64_t off, int id, uint64_t *len)
{
	uint64_t sid, flags, desc, size;
	char *buf;

	if (num(s, &off, 2, &sid) || num(s, &off, 2, &flags) || num(s, &off, 4, &desc) ||
	    num(s, &off, 8, &size)) {
		s->why = "section header does not fit the file";
		return NULL;
	}
	if (sid != (uint64_t)id) {
		s->why = "section offset does not point to the expected section";
		return NULL;
	}
	if (flags & SEC_FL_COMPRESS)
		return inflate(s, off, size, len);
	if (size > KMA_SYMTAB_MAX_TEXT + 4 || !(buf = slurp(s, off, size))) {
		s->why = "section does not fit the file";
		return NULL;
	}
	*len = size;
	return buf;
}

struct buffer_opt {
	const unsigned char	*data;	/* the BUFFER option's data */
	uint64_t		len;
};

/*
 * Follows the options sections from @off; returns the KALLSYMS section offset
 * or 0. With @check, every BUFFER option's CPU data is checked on the way.
 */
static int check_buffer(struct src *s, const unsigned char *d, uint64_t len);
static int check_ref(struct src *s, uint64_t id, uint64_t off);

static uint64_t find_kallsyms_check(struct src *s, uint64_t off, int check)
{
	uint64_t found = 0;
	int n;

	for (n = 0; off && n < MAX_SECTIONS; n++) {
		uint64_t len, p = 0, next = 0;
		char *buf = check && !fits(s, off, sec_name(SEC_OPTIONS)) ? NULL :
			    section(s, off, SEC_OPTIONS, &len);

		s->cur_opts = off;

		if (!buf)
			return 0;
		for (;;) {
			uint64_t id, size;

			if (len - p < 6) {
				s->why = "options section is cut short";
				free(buf);
				return 0;
			}
			id = decode(s, (unsigned char *)buf + p, 2);
			size = decode(s, (unsigned char *)buf + p + 2, 4);
			p += 6;
			if (size > len - p) {
				s->why = "option does not fit its section";
				free(buf);
				return 0;
			}
			if (check && ((id == OPT_BUFFER &&
				       check_buffer(s, (unsigned char *)buf + p, size)) ||
				      (id >= OPT_HEADER_INFO && id <= OPT_CMDLINES && size >= 8 &&
				       check_ref(s, id, decode(s, (unsigned char *)buf + p, 8))))) {
				free(buf);
				return 0;
			}
			if ((id == OPT_KALLSYMS || id == OPT_DONE) && size >= 8) {
				uint64_t v = decode(s, (unsigned char *)buf + p, 8);

				if (id == OPT_DONE)
					next = v;
				else
					found = v;	/* the last one wins, as in libtracecmd */
			}
			p += size;
			if (id == OPT_DONE)
				break;
		}
		free(buf);
		off = next;
	}
	if (!found && !check)
		s->why = "the trace has no kallsyms section";
	if (check && n && !off)
		return 1;	/* walked the whole chain */
	return found;
}

static uint64_t find_kallsyms(struct src *s, uint64_t off)
{
	return find_kallsyms_check(s, off, 0);
}

/*
 * The commit word of each ring-buffer page must fit the page (with the
 * missed-events count stored after the data): libtraceevent's kbuffer
 * trusts it and reads past the page otherwise. The rule of kma-validate.c.
 */
static int pages_ok(struct src *s, const unsigned char *buf, uint64_t len)
{
	uint64_t off, commit, size, room = s->page_size - 8 - s->long_size;

	for (off = 0; off + s->page_size <= len; off += s->page_size) {
		commit = decode(s, buf + off + 8, s->long_size);
		size = (uint32_t)commit & ((1u << 27) - 1);
		if (size > room ||
		    ((commit & (1ull << 31)) && (commit & (1ull << 30)) && size + s->long_size > room))
			return -1;
	}
	return 0;
}

/* One CPU's data: zstd chunks (u32 count; u32 csize, u32 size, data) or plain pages. */
static int cpu_data_ok(struct src *s, uint64_t off, uint64_t size)
{
	uint64_t end, count, i, csize, usize, len, o;
	unsigned char *buf;
	int bad;

	if (off > s->size || size > s->size - off)
		return -1;
	end = off + size;
	if (!strcmp(s->cname, "none") || !s->cname[0]) {
		buf = malloc(s->page_size);
		for (bad = !buf; !bad && off + s->page_size <= end; off += s->page_size)
			bad = get(s, off, buf, s->page_size) || pages_ok(s, buf, s->page_size);
		free(buf);
		return bad ? -1 : 0;
	}
	if (!size)
		return 0;
	/* the size given in the BUFFER option does not count the u32 chunk count */
	if (num(s, &off, 4, &count) || size > s->size - off)
		return -1;
	end = off + size;
	for (i = 0; i < count; i++) {
		o = off;
		if (o > end || num(s, &o, 4, &csize) || num(s, &o, 4, &usize) || csize > end - o ||
		    usize % s->page_size)
			return -1;
		/* chunks of empty pages compress very well: no ratio bound, a size bound */
		buf = (unsigned char *)inflate_max(s, off, end - off, &len, 1u << 28, 1u << 20);
		if (!buf)
			return -1;
		bad = pages_ok(s, buf, len);
		free(buf);
		if (bad)
			return -1;
		off = o + csize;
	}
	return 0;
}

/*
 * One CPU of a BUFFER option (u32 cpu, u64 offset, u64 size): its data must
 * lie in the file. Compressed data starts with a u32 chunk count that the
 * size does not include.
 */
static int cpu_fits(struct src *s, const unsigned char *d)
{
	uint64_t cpu = decode(s, d, 4), off = decode(s, d + 4, 8), size = decode(s, d + 12, 8);
	uint64_t extra = size && strcmp(s->cname, "none") && s->cname[0] ? 4 : 0;

	if (off <= s->size && size <= s->size - off && extra <= s->size - off - size)
		return 0;
	s->why = cut_msg;
	s->as_is = 1;
	if (off > UINT64_MAX - extra || size > UINT64_MAX - extra - off) {
		snprintf(cut_msg, sizeof(cut_msg), "corrupt trace.dat: CPU %" PRIu64
			 "'s event data has an impossible size", cpu);
		return -1;
	}
	if (off < s->cur_opts && off + extra + size > s->cur_opts)
		snprintf(cut_msg, sizeof(cut_msg), "corrupt trace.dat: CPU %" PRIu64 "'s event "
			 "data claims to end at %" PRIu64 ", past the options section at %"
			 PRIu64 " that describes it", cpu, off + extra + size, s->cur_opts);
	else
		snprintf(cut_msg, sizeof(cut_msg), "truncated trace.dat: CPU %" PRIu64
			 "'s event data ends at %" PRIu64 ", the file at %" PRIu64, cpu,
			 off + extra + size, s->size);
	return -1;
}

/* BUFFER: u64 section offset, name, clock, u32 page size, u32 cpus, per CPU u32 id, u64 offset, u64 size */
static int check_buffer(struct src *s, const unsigned char *d, uint64_t len)
{
	uint64_t p = 8, cpus, i, n;

	for (n = 0; n < 2; n++) {	/* name and clock */
		while (p < len && d[p])
			p++;
		if (p++ >= len)
			goto bad;
	}
	if (len - p < 8)
		goto bad;
	s->page_size = decode(s, d + p, 4);
	cpus = decode(s, d + p + 4, 4);
	p += 8;
	if (s->page_size < 4096 || s->page_size > (1u << 24) || (s->page_size & (s->page_size - 1)) ||
	    cpus > (len - p) / 20)
		goto bad;
	if (!fits(s, decode(s, d, 8), sec_name(OPT_BUFFER)))
		return -1;
	for (i = 0; i < cpus; i++, p += 20)
		if (cpu_fits(s, d + p) ||
		    cpu_data_ok(s, decode(s, d + p + 4, 8), decode(s, d + p + 12, 8)))
			goto bad;
	return 0;
bad:
	if (!s->as_is && (!s->why || !strstr(s->why, "memory")))
		s->why = "corrupt trace.dat: a ring-buffer page or compressed chunk does not fit "
			 "(corrupt event data)";
	return -1;
}

/* What kernels print for the first two fields of header_page. */
static const char ts_field[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n";
static const char commit_field[] = "\tfield: local_t commit;\toffset:8;\tsize:";

int kma_header_page_long_size(const char *text, uint64_t len)
{
	size_t tl = sizeof(ts_field) - 1, cl = sizeof(commit_field) - 1;

	if (!len)
		return 0;
	if (len < tl + cl + 2 || memcmp(text, ts_field, tl) || memcmp(text + tl, commit_field, cl) ||
	    (text[tl + cl] != '4' && text[tl + cl] != '8') || text[tl + cl + 1] != ';')
		return -1;
	return text[tl + cl] - '0';
}

/* The section @off that option @id points to must fit; the header_page must be sane. */
static int check_ref(struct src *s, uint64_t id, uint64_t off)
{
	uint64_t len, size;
	char *buf;
	int ok;

	/*
	 * The sections the options list are written before them: one past the
	 * end of the file is a corrupt offset, not a file cut short.
	 */
	if (off >= s->size && s->cur_opts < s->size) {
		snprintf(cut_msg, sizeof(cut_msg), "corrupt trace.dat: the options section at %"
			 PRIu64 " points to %s at %" PRIu64 ", past the end of the file (%"
			 PRIu64 " bytes)", s->cur_opts, sec_name(id), off, s->size);
		s->why = cut_msg;
		s->as_is = 1;
		return -1;
	}
	if (!fits(s, off, sec_name(id)))
		return -1;
	if (id != OPT_HEADER_INFO)
		return 0;
	/*
	 * "header_page", u64 size, its text: libtraceevent falls back to
	 * defaults when it cannot parse it, and the pages are then decoded
	 * with a wrong layout into records of garbage.
	 */
	buf = section(s, off, OPT_HEADER_INFO, &len);
	if (!buf)
		return -1;
	ok = len >= 20 && !memcmp(buf, "header_page", 12) &&
	     (size = decode(s, (unsigned char *)buf + 12, 8)) <= len - 20 &&
	     kma_header_page_long_size(buf + 20, size) >= 0;
	free(buf);
	if (ok)
		return 0;
	s->as_is = 1;
	s->why = "corrupt trace.dat headers (the header_page format does not describe a "
		 "ring-buffer page)";
	return -1;
}

/* The sections one after another, as libtracecmd reads them looking for the section names. */
struct tail {
	uint64_t	cut;		/* offset of the first section cut short, 0: none */
	int		cut_id;		/* its id, -1 when not even that is left */
	uint64_t	cut_end;	/* where it would end, 0: not known */
	uint64_t	names;		/* bytes of section names found */
	uint64_t	max_name;	/* the largest name offset the sections use + 1 */
};

static void walk_sections(struct src *s, uint64_t off, struct tail *t)
{
	memset(t, 0, sizeof(*t));
	while (off < s->size) {
		uint64_t o = off, id = 0, flags, name, size, u = 0;

		t->cut = off;
		t->cut_id = -1;
		if (num(s, &o, 2, &id))
			return;
		t->cut_id = (int)id;
		if (num(s, &o, 2, &flags) || num(s, &o, 4, &name) || num(s, &o, 8, &size))
			return;
		if (size > s->size - o) {
			t->cut_end = size <= UINT64_MAX - o ? o + size : 0;
			return;
		}
		if (id == SEC_STRINGS) {
			uint64_t uo = o + 4;

			t->names += (flags & SEC_FL_COMPRESS) && size >= 8 && !num(s, &uo, 4, &u) ?
				    u : size;
		} else if (name >= t->max_name) {
			t->max_name = name + 1;
		}
		off = o + size;
		t->cut = 0;
	}
}

/* After the checks passed: what is missing at the end of the file, if anything. */
static const char *tail_warning(struct src *s, uint64_t off)
{
	static char msg[320];
	struct tail t;

	walk_sections(s, off, &t);
	if (t.cut && t.cut_id == SEC_STRINGS && t.cut_end)
		snprintf(msg, sizeof(msg), "truncated trace.dat: the section names at %" PRIu64
			 " end at %" PRIu64 ", the file at %" PRIu64 "; kma does not need them",
			 t.cut, t.cut_end, s->size);
	else if (t.cut)
		snprintf(msg, sizeof(msg), "truncated trace.dat: the file ends at %" PRIu64
			 ", inside %s at %" PRIu64 " that kma does not need",
			 s->size, t.cut_id == SEC_STRINGS ? "the section names" : "a section",
			 t.cut);
	else if (t.max_name > t.names)
		snprintf(msg, sizeof(msg), "truncated trace.dat: the section names at its end "
			 "are missing; kma does not need them");
	else
		return NULL;
	return msg;
}

int kma_trace_check_pages(const char *path, const char **why, const char **warning)
{
	static const char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct src s = { .fd = -1, .why = NULL };
	char head[10], ver[16];
	unsigned char el[2];
	uint64_t off = 10, v;
	struct tail t;
	int ret = 0;

	*warning = NULL;
	s.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s.fd < 0)
		return 0;	/* the caller reports what open says */
	s.size = (uint64_t)lseek(s.fd, 0, SEEK_END);
	if (get(&s, 0, head, 10) || memcmp(head, magic, 10) || str(&s, &off, ver, sizeof(ver)) ||
	    strcmp(ver, "7") || get(&s, off, el, 2))
		goto out;
	s.big = el[0] != 0;
	s.long_size = el[1] == 4 ? 4 : 8;
	off += 2 + 4;
	if (str(&s, &off, s.cname, sizeof(s.cname)) || str(&s, &off, s.cver, sizeof(s.cver)) ||
	    num(&s, &off, 8, &v))
		goto out;
	if (find_kallsyms_check(&s, v, 1) || !s.why) {
		*warning = tail_warning(&s, off);
		goto out;
	}
	if (!s.as_is && !strstr(s.why, "corrupt event data"))
		goto out;	/* left to kma_symtab_from_trace() and libtracecmd */
	/*
	 * A section cut short after the first options section (the event data,
	 * whose options come after it) says best where the file ends.
	 */
	walk_sections(&s, off, &t);
	if (!strncmp(s.why, "truncated", 9) && t.cut > v && t.cut_id != SEC_STRINGS && t.cut_end &&
	    strcmp(sec_name((uint64_t)t.cut_id), "a section")) {
		snprintf(cut_msg, sizeof(cut_msg), "truncated trace.dat: %s at %" PRIu64
			 " ends at %" PRIu64 ", the file at %" PRIu64, sec_name((uint64_t)t.cut_id),
			 t.cut, t.cut_end, s.size);
		s.why = cut_msg;
	}
	*why = s.why;
	ret = -1;
out:
	if (s.tep)
		tep_free(s.tep);
	close(s.fd);
	return ret;
}

/* v6: the kallsyms block follows the header files and the event formats. */
static uint64_t v6_kallsyms(struct src *s, uint64_t off)
{
	char name[16];
	uint64_t n, m, i, j, size;

	if (get(s, off, name, 12) || memcmp(name, "header_page", 12) || skip(s, &off, 12) ||
	    num(s, &off, 8, &size) || skip(s, &off, size) ||
	    get(s, off, name, 13) || memcmp(name, "header_event", 13) || skip(s, &off, 13) ||
	    num(s, &off, 8, &size) || skip(s, &off, size))
		goto bad;
	if (num(s, &off, 4, &n))
		goto bad;
	for (i = 0; i < n; i++)
		if (num(s, &off, 8, &size) || skip(s, &off, size))
			goto bad;
	if (num(s, &off, 4, &n))
		goto bad;
	for (i = 0; i < n; i++) {
		char sys[MAX_STR];

		if (str(s, &off, sys, sizeof(sys)) || num(s, &off, 4, &m))
			goto bad;
		for (j = 0; j < m; j++)
			if (num(s, &off, 8, &size) || skip(s, &off, size))
				goto bad;
	}
	return off;
bad:
	s->why = "v6 header or event formats do not fit the file";
	return 0;
}

struct kma_symtab *kma_symtab_from_trace(const char *path, const char **why)
{
	static const char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct src s = { .fd = -1, .why = "not a trace.dat file" };
	struct kma_symtab *st = NULL;
	char head[10], ver[16];
	uint64_t off = 10, v, len = 0;
	unsigned char el[2];
	char *buf = NULL, *end;
	struct stat sb;
	long version;

	s.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s.fd < 0 || fstat(s.fd, &sb)) {
		static char msg[96];

		snprintf(msg, sizeof(msg), "cannot open the trace: %s", strerror(errno));
		s.why = msg;
		goto out;
	}
	s.size = (uint64_t)sb.st_size;
	if (get(&s, 0, head, 10) || memcmp(head, magic, 10) || str(&s, &off, ver, sizeof(ver)) ||
	    get(&s, off, el, 2))
		goto out;
	version = strtol(ver, &end, 10);
	if (*end || (version != 6 && version != 7)) {
		s.why = "unsupported trace.dat version";
		goto out;
	}
	s.big = el[0] != 0;
	off += 2 + 4;	/* endianness, long size, page size */

	if (version == 6) {
		off = v6_kallsyms(&s, off);
		if (!off)
			goto out;
	} else {
		if (str(&s, &off, s.cname, sizeof(s.cname)) ||
		    str(&s, &off, s.cver, sizeof(s.cver)) || num(&s, &off, 8, &v)) {
			s.why = "v7 header does not fit the file";
			goto out;
		}
		off = find_kallsyms(&s, v);
		if (!off)
			goto out;
		buf = section(&s, off, OPT_KALLSYMS, &len);
		if (!buf)
			goto out;
	}

	/* u32 size, then the text: in the file (v6) or in the section data (v7) */
	if (!buf) {
		if (num(&s, &off, 4, &v) || !(buf = slurp(&s, off, v))) {
			s.why = "kallsyms block does not fit the file";
			goto out;
		}
		len = v;
	} else {
		if (len < 4 || (v = decode(&s, (unsigned char *)buf, 4)) > len - 4) {
			s.why = "kallsyms block does not fit its section";
			goto out;
		}
		memmove(buf, buf + 4, v);
		len = v;
	}
	if (!len) {
		s.why = "the trace stores no kallsyms";
		goto out;
	}
	st = kma_symtab_from_text(buf, len);
	if (!st)
		s.why = "out of memory";
out:
	free(buf);
	if (s.tep)
		tep_free(s.tep);
	if (s.fd >= 0)
		close(s.fd);
	if (!st && why)
		*why = s.why;
	return st;
}
