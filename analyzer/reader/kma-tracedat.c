// SPDX-License-Identifier: GPL-2.0
/*
 * kma-tracedat.c - the one walker of the trace.dat structure (v6 and v7):
 * the cursor, the file header, v7 sections and the options chain, and the
 * kallsyms block that kma-symtab.c parses. The checks built on it are in
 * kma-check-v6.c (v6) and kma-check-v7.c (v7).
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

#include "kma-huge.h"
#include "kma-tracedat.h"
#include "kma-zlib.h"
#include "kma-tracecmd.h"

/*
 * Options sections in one chain. libtracecmd follows the chain by recursion
 * (handle_options, handle_option_done), without end on a loop, so a chain
 * that comes back to a section, or goes on past this, is refused.
 */
#define MAX_SECTIONS	1024
#define MAX_RATIO	1024	/* kallsyms text never inflates more than this */
#define MAX_STR		4096

static const unsigned char magic[KMA_TD_MAGIC_LEN] = {
	0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
};

/* ---- the cursor ---------------------------------------------------------- */

void kma_td_init(struct kma_td *t, int fd, uint64_t size)
{
	memset(t, 0, sizeof(*t));
	t->fd = fd;
	t->size = size;
}

int kma_td_open(struct kma_td *t, const char *path)
{
	struct stat sb;
	/* O_NONBLOCK: a FIFO is refused by the caller's type check, not waited on */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), e;

	kma_td_init(t, -1, 0);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	kma_td_init(t, fd, (uint64_t)sb.st_size);
	return 0;
}

void kma_td_close(struct kma_td *t)
{
	if (t->tep)
		tep_free(t->tep);
	t->tep = NULL;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

uint64_t kma_td_decode(const void *b, int bytes, int big)
{
	const unsigned char *p = b;
	uint64_t v = 0;
	int i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)p[big ? bytes - 1 - i : i] << (8 * i);
	return v;
}

int kma_td_pread(const struct kma_td *t, uint64_t off, void *buf, size_t len)
{
	if (off > t->size || len > t->size - off ||
	    pread(t->fd, buf, len, (off_t)off) != (ssize_t)len)
		return -1;
	return 0;
}

int kma_td_read(struct kma_td *t, void *buf, size_t len)
{
	if (kma_td_pread(t, t->off, buf, len))
		return -1;
	t->off += len;
	return 0;
}

int kma_td_num(struct kma_td *t, int bytes, uint64_t *v)
{
	unsigned char b[8];

	if (kma_td_read(t, b, bytes))
		return -1;
	*v = kma_td_get(t, b, bytes);
	return 0;
}

int kma_td_str(struct kma_td *t, char *buf, size_t max)
{
	size_t i;

	for (i = 0; i < max; i++) {
		if (kma_td_pread(t, t->off + i, &buf[i], 1))
			return -1;
		if (!buf[i]) {
			t->off += i + 1;
			return 0;
		}
	}
	return -1;
}

int kma_td_skip(struct kma_td *t, uint64_t len)
{
	if (t->off > t->size || len > t->size - t->off)
		return -1;
	t->off += len;
	return 0;
}

char *kma_td_slurp(struct kma_td *t, uint64_t off, uint64_t len)
{
	char *buf;

	if (len > KMA_TD_MAX_TEXT || off > t->size || len > t->size - off)
		return NULL;
	buf = malloc(len + 1);
	if (buf)
		kma_huge_advise(buf, len + 1);	/* a kallsyms: megabytes */
	if (buf && kma_td_pread(t, off, buf, len)) {
		free(buf);
		return NULL;
	}
	if (buf)
		buf[len] = '\0';
	return buf;
}

/* ---- the file header ------------------------------------------------------ */

int kma_valid_page_size(uint64_t page_size)
{
	return page_size >= 4096 && page_size <= (1u << 24) && !(page_size & (page_size - 1));
}

/*
 * magic (10), version string, endian (1), long size (1), page size (4); v7:
 * the compression name and version, then the offset of the first options
 * section. libtracecmd 1.3 crashes on some v7 files cut short here.
 */
int kma_td_head(struct kma_td *t, struct kma_td_head *h)
{
	uint64_t window = t->size < KMA_TD_HEAD_MAX ? t->size : KMA_TD_HEAD_MAX, v;
	unsigned char b[KMA_TD_MAGIC_LEN], eh[6];
	char ver[16];

	memset(h, 0, sizeof(*h));
	t->off = 0;
	if (kma_td_read(t, b, sizeof(b)) || memcmp(b, magic, sizeof(magic)))
		return KMA_TD_HEAD_MAGIC;
	if (window < KMA_TD_MAGIC_LEN + 2)
		return KMA_TD_HEAD_CUT;
	if (kma_td_str(t, ver, sizeof(ver)) || (strcmp(ver, "6") && strcmp(ver, "7")))
		return KMA_TD_HEAD_VERSION;
	h->version = ver[0] - '0';
	if (kma_td_read(t, eh, sizeof(eh)))
		return KMA_TD_HEAD_CUT;
	t->big = eh[0] != 0;
	h->long_size = eh[1];
	h->page_size = (uint32_t)kma_td_get(t, eh + 2, 4);
	if (h->version == 6)
		return KMA_TD_HEAD_OK;
	if (t->off >= window)
		return KMA_TD_HEAD_CUT;
	if (!kma_valid_page_size(h->page_size))
		return KMA_TD_HEAD_PAGE_SIZE;
	if (kma_td_str(t, t->cname, window - t->off) || t->off >= window ||
	    kma_td_str(t, t->cver, window - t->off) || t->off + 8 > window ||
	    kma_td_num(t, 8, &v) || v < t->off || v >= t->size)
		return KMA_TD_HEAD_CUT;
	h->options = v;
	return KMA_TD_HEAD_OK;
}

/* ---- v7 sections ----------------------------------------------------------- */

int kma_td_sec(struct kma_td *t, uint64_t off, struct kma_td_sec *s)
{
	uint64_t id, flags, name, size;

	t->off = off;
	if (kma_td_num(t, 2, &id) || kma_td_num(t, 2, &flags) || kma_td_num(t, 4, &name) ||
	    kma_td_num(t, 8, &size))
		return -1;
	s->id = (uint16_t)id;
	s->flags = (uint16_t)flags;
	s->name = (uint32_t)name;
	s->size = size;
	return 0;
}

/* libtracecmd's inflate decodes the block's sizes with a tep of the file's byte order. */
static int file_tep(struct kma_td *t)
{
	if (t->tep)
		return 0;
	t->tep = tep_alloc();
	if (!t->tep)
		return -1;
	tep_set_file_bigendian(t->tep, t->big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	return 0;
}

/*
 * The inflated block's first @usize bytes into @buf: how many the codec
 * produced (usize + 1 when more), as libtracecmd's buffer read counts them.
 */
static int64_t inflated_size(struct tracecmd_compression *c, char *buf, uint64_t usize)
{
	int got = tracecmd_compress_buffer_read(c, buf, (int)usize);
	char extra;

	if (got < 0)
		return -1;
	if ((uint64_t)got == usize && tracecmd_compress_buffer_read(c, &extra, 1) > 0)
		return (int64_t)usize + 1;
	return got;
}

/* The sizes are checked here first because libtracecmd trusts them. */
char *kma_td_inflate(struct kma_td *t, uint64_t off, uint64_t sec_size, uint64_t *len,
		     uint64_t max_size, uint64_t max_ratio)
{
	struct tracecmd_compression *c;
	uint64_t csize, usize;
	char *buf;

	t->inflated = -2;
	t->off = off;
	if (sec_size < 8 || kma_td_num(t, 4, &csize) || kma_td_num(t, 4, &usize)) {
		kma_err_set(&t->err, KMA_ERR_BROKEN,
			    "compressed section header does not fit the file");
		return NULL;
	}
	if (csize > sec_size - 8 || csize > t->size - t->off || !usize ||
	    usize > max_size || usize > csize * max_ratio) {
		kma_err_set(&t->err, KMA_ERR_BROKEN, "compressed section has impossible sizes");
		return NULL;
	}
	if (file_tep(t)) {
		kma_err_set(&t->err, KMA_ERR_NOMEM, "out of memory");
		return NULL;
	}
	kma_zlib_register();	/* a no-op after the first call */
	c = tracecmd_compress_alloc(t->cname, t->cver, t->fd, t->tep, NULL);
	if (!c) {
		kma_err_set(&t->err, KMA_ERR_OTHER,
			    "the trace's compression is not supported by libtracecmd");
		return NULL;
	}
	buf = malloc(usize + 1);
	t->inflated = -1;
	if (buf && lseek(t->fd, (off_t)off, SEEK_SET) == (off_t)off &&
	    !tracecmd_uncompress_block(c))
		t->inflated = inflated_size(c, buf, usize);
	if (t->inflated < 0 || (uint64_t)t->inflated < usize) {
		if (buf)
			kma_err_set(&t->err, KMA_ERR_OTHER, "compressed section does not inflate");
		else
			kma_err_set(&t->err, KMA_ERR_NOMEM, "out of memory");
		free(buf);
		buf = NULL;
	} else {
		buf[usize] = '\0';
		*len = usize;
	}
	tracecmd_compress_destroy(c);
	return buf;
}

void kma_td_chunk_msg(char *buf, size_t len, uint32_t cpu, uint64_t off, int64_t got,
		      uint64_t claim)
{
	if (got < 0)
		snprintf(buf, len, "corrupt trace.dat: CPU %" PRIu32 "'s compressed chunk at %"
			 PRIu64 " cannot be inflated (corrupt event data)", cpu, off);
	else if ((uint64_t)got < claim)
		snprintf(buf, len, "corrupt trace.dat: CPU %" PRIu32 "'s compressed chunk at %"
			 PRIu64 " inflates to %" PRId64 " bytes, its header claims %" PRIu64
			 " (corrupt event data)", cpu, off, got, claim);
	else
		snprintf(buf, len, "corrupt trace.dat: CPU %" PRIu32 "'s compressed chunk at %"
			 PRIu64 " inflates to more than the %" PRIu64 " bytes its header claims "
			 "(corrupt event data)", cpu, off, claim);
}

char *kma_td_section(struct kma_td *t, uint64_t off, int id, uint64_t *len)
{
	struct kma_td_sec s;
	char *buf;

	if (kma_td_sec(t, off, &s)) {
		kma_err_set(&t->err, KMA_ERR_BROKEN, "section header does not fit the file");
		return NULL;
	}
	if (s.id != id) {
		kma_err_set(&t->err, KMA_ERR_BROKEN,
			    "section offset does not point to the expected section");
		return NULL;
	}
	if (s.flags & KMA_TD_SEC_COMPRESS)
		return kma_td_inflate(t, t->off, s.size, len, KMA_TD_MAX_TEXT, MAX_RATIO);
	if (s.size > KMA_TD_MAX_TEXT + 4 || !(buf = kma_td_slurp(t, t->off, s.size))) {
		kma_err_set(&t->err, KMA_ERR_BROKEN, "section does not fit the file");
		return NULL;
	}
	*len = s.size;
	return buf;
}

/* The options of one section: u16 id, u32 size, data; DONE holds the next section. */
static int walk_options(struct kma_td *t, const unsigned char *buf, uint64_t len,
			const struct kma_td_walk *w, uint64_t *next, uint64_t *kallsyms)
{
	uint64_t p = 0, id, size;

	for (;;) {
		if (len - p < 6)
			return kma_err_set(&t->err, KMA_ERR_BROKEN, "options section is cut short");
		id = kma_td_get(t, buf + p, 2);
		size = kma_td_get(t, buf + p + 2, 4);
		p += 6;
		if (size > len - p)
			return kma_err_set(&t->err, KMA_ERR_BROKEN,
					   "option does not fit its section");
		if (w && w->option && w->option(t, (unsigned int)id, buf + p, size, w->ctx))
			return -1;
		if ((id == KMA_TD_OPT_KALLSYMS || id == KMA_TD_OPT_DONE) && size >= 8) {
			uint64_t v = kma_td_get(t, buf + p, 8);

			if (id == KMA_TD_OPT_DONE)
				*next = v;
			else
				*kallsyms = v;	/* the last one wins, as in libtracecmd */
		}
		p += size;
		if (id == KMA_TD_OPT_DONE)
			return 0;
	}
}

int kma_td_options(struct kma_td *t, uint64_t off, const struct kma_td_walk *w,
		   uint64_t *kallsyms)
{
	uint64_t seen[MAX_SECTIONS];
	int n, i;

	*kallsyms = 0;
	for (n = 0; off; n++) {
		uint64_t len, next = 0;
		char *buf;
		int ret;

		for (i = 0; i < n; i++)
			if (seen[i] == off)
				return kma_err_set(&t->err, KMA_ERR_BROKEN, "the options chain "
						   "loops back to the section at %" PRIu64, off);
		if (n == MAX_SECTIONS)
			return kma_err_set(&t->err, KMA_ERR_BROKEN, "the options chain is longer "
					   "than %d sections", MAX_SECTIONS);
		seen[n] = off;

		if (w && w->section && w->section(t, off, w->ctx))
			return -1;
		buf = kma_td_section(t, off, KMA_TD_OPT_DONE, &len);
		if (!buf)
			return -1;
		ret = walk_options(t, (unsigned char *)buf, len, w, &next, kallsyms);
		free(buf);
		if (ret)
			return -1;
		off = next;
	}
	return 0;
}

/* ---- kallsyms -------------------------------------------------------------- */

/* v6: the kallsyms block follows the header files and the event formats. */
static int v6_kallsyms(struct kma_td *t)
{
	char name[16];
	uint64_t n, m, i, j, size;

	if (kma_td_read(t, name, 12) || memcmp(name, "header_page", 12) ||
	    kma_td_num(t, 8, &size) || kma_td_skip(t, size) ||
	    kma_td_read(t, name, 13) || memcmp(name, "header_event", 13) ||
	    kma_td_num(t, 8, &size) || kma_td_skip(t, size))
		goto bad;
	if (kma_td_num(t, 4, &n))
		goto bad;
	for (i = 0; i < n; i++)
		if (kma_td_num(t, 8, &size) || kma_td_skip(t, size))
			goto bad;
	if (kma_td_num(t, 4, &n))
		goto bad;
	for (i = 0; i < n; i++) {
		char sys[MAX_STR];

		if (kma_td_str(t, sys, sizeof(sys)) || kma_td_num(t, 4, &m))
			goto bad;
		for (j = 0; j < m; j++)
			if (kma_td_num(t, 8, &size) || kma_td_skip(t, size))
				goto bad;
	}
	return 0;
bad:
	return kma_err_set(&t->err, KMA_ERR_BROKEN,
			   "v6 header or event formats do not fit the file");
}

/*
 * @len bytes and a NUL in a mapping of their own (kma_huge_alloc): a real
 * kallsyms is megabytes, and written into malloc's 4 KB pages it cost a
 * fault per page, ~20 ms of a run's serial start on a virtual machine,
 * against ~2 ms in huge pages. NULL when out of memory.
 */
static char *text_copy(const char *src, uint64_t len)
{
	char *buf = kma_huge_alloc((size_t)len + 1);

	if (buf && src)
		memcpy(buf, src, (size_t)len);
	return buf;
}

/* u32 size, then the text: in the file (v6) or in the section data (v7). */
static char *kallsyms_text(struct kma_td *t, const struct kma_td_head *h, uint64_t *len)
{
	uint64_t off, v;
	char *buf, *sec;

	if (h->version == 6) {
		if (v6_kallsyms(t))
			return NULL;
		if (kma_td_num(t, 4, &v) || v > KMA_TD_MAX_TEXT || t->off > t->size ||
		    v > t->size - t->off) {
			kma_err_set(&t->err, KMA_ERR_BROKEN, "kallsyms block does not fit the file");
			return NULL;
		}
		buf = text_copy(NULL, v);
		if (buf && kma_td_pread(t, t->off, buf, (size_t)v)) {
			kma_huge_free(buf, (size_t)v + 1);
			kma_err_set(&t->err, KMA_ERR_BROKEN, "kallsyms block does not fit the file");
			return NULL;
		}
		if (!buf)
			kma_err_set(&t->err, KMA_ERR_NOMEM, "out of memory");
		*len = v;
		return buf;
	}
	if (kma_td_options(t, h->options, NULL, &off))
		return NULL;
	if (!off) {
		kma_err_set(&t->err, KMA_ERR_OTHER, "the trace has no kallsyms section");
		return NULL;
	}
	sec = kma_td_section(t, off, KMA_TD_OPT_KALLSYMS, len);
	if (!sec)
		return NULL;
	if (*len < 4 || (v = kma_td_get(t, sec, 4)) > *len - 4) {
		kma_err_set(&t->err, KMA_ERR_BROKEN, "kallsyms block does not fit its section");
		free(sec);
		return NULL;
	}
	buf = text_copy(sec + 4, v);
	free(sec);
	if (!buf)
		kma_err_set(&t->err, KMA_ERR_NOMEM, "out of memory");
	*len = v;
	return buf;
}

int kma_td_kallsyms(const char *path, char **text, size_t *len, struct kma_err *err)
{
	struct kma_td_head h;
	struct kma_td t;
	uint64_t n = 0;
	char *buf = NULL;
	int st;

	*text = NULL;
	*len = 0;
	if (kma_td_open(&t, path))
		return kma_err_set(err, KMA_ERR_OTHER, "cannot open the trace: %s",
				   strerror(errno));
	st = kma_td_head(&t, &h);
	if (st == KMA_TD_HEAD_VERSION)
		kma_err_set(&t.err, KMA_ERR_OTHER, "unsupported trace.dat version");
	else if (st == KMA_TD_HEAD_CUT && h.version == 7)
		kma_err_set(&t.err, KMA_ERR_BROKEN, "v7 header does not fit the file");
	else if (st != KMA_TD_HEAD_OK)
		kma_err_set(&t.err, KMA_ERR_OTHER, "not a trace.dat file");
	else
		buf = kallsyms_text(&t, &h, &n);
	if (buf && !n) {
		kma_err_set(&t.err, KMA_ERR_OTHER, "the trace stores no kallsyms");
		kma_huge_free(buf, 1);
		buf = NULL;
	}
	kma_td_close(&t);
	if (!buf) {
		if (err)
			*err = t.err;
		return -1;
	}
	*text = buf;
	*len = (size_t)n;
	return 0;
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

int kma_td_clock_ok(const char *text, size_t len)
{
	size_t i = 0, end = strnlen(text, len);

	while (i < end) {
		if (text[i] == ' ') {
			i++;
		} else if (text[i] == '[') {	/* the word libtracecmd takes */
			for (; i < end && text[i] != ' '; i++)
				if (text[i] != '[' && text[i] != ']')
					return 0;
			return -1;
		} else {
			while (i < end && text[i] != ' ')
				i++;
		}
	}
	return 0;
}

int kma_td_option_data(const struct kma_td *c, unsigned int id, const unsigned char *buf,
		       uint64_t len, uint64_t *cpus)
{
	uint64_t n, i, cpu, off;

	switch (id) {
	case KMA_TD_OPT_HOOK:	/* libtracecmd dereferences a failed parse */
		return -1;
	case KMA_TD_OPT_CPUSTAT:	/* buf[size - 1] = '\n' */
		return len ? 0 : -1;
	case KMA_TD_OPT_CPUCOUNT:	/* read as 4 bytes whatever the size */
		if (len < 4)
			return -1;
		*cpus = kma_td_get(c, buf, 4);
		return 0;
	case KMA_TD_OPT_BUFFER:	/* offset, then the instance name */
		return len <= 8 || memchr(buf + 8, '\0', len - 8) ? 0 : -1;
	case KMA_TD_OPT_GUEST:		/* name, trace id, nr vcpus, {vcpu, pid}... */
		if (!memchr(buf, '\0', len))
			return -1;
		off = strlen((const char *)buf) + 1 + 8;
		if (off + 4 > len)
			return 0;
		n = kma_td_get(c, buf + off, 4);
		/* the vcpu is an int index into an array of n */
		for (i = 0, off += 4; i < n && off + 8 <= len; i++, off += 8) {
			cpu = kma_td_get(c, buf + off, 4);
			if (cpu >= n || cpu > INT32_MAX)
				return -1;
		}
		return 0;
	case KMA_TD_OPT_TRACECLOCK:
		return memchr(buf, '\0', len) ? kma_td_clock_ok((const char *)buf, len) : -1;
	case KMA_TD_OPT_DATE:
	case KMA_TD_OPT_UNAME:
	case KMA_TD_OPT_OFFSET:
	case KMA_TD_OPT_VERSION:
	case KMA_TD_OPT_PROCMAPS:	/* C strings */
		return memchr(buf, '\0', len) ? 0 : -1;
	default:
		return 0;
	}
}

const char *kma_td_sec_name(uint64_t id)
{
	static const char * const names[] = {
		[KMA_TD_OPT_BUFFER] = "the event data section",
		[KMA_TD_SEC_STRINGS] = "the section names",
		[KMA_TD_OPT_HEADER_INFO] = "the header_page/header_event section",
		[17] = "the ftrace event formats section",
		[18] = "the event formats section",
		[KMA_TD_OPT_KALLSYMS] = "the kallsyms section",
		[20] = "the printk formats section",
		[KMA_TD_OPT_CMDLINES] = "the saved cmdlines section",
	};

	if (id == KMA_TD_OPT_DONE)
		return "the options section";
	return id < sizeof(names) / sizeof(names[0]) && names[id] ? names[id] : "a section";
}
