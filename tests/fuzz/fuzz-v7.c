// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-v7.c - libFuzzer target for what lies behind v7 compression.
 *
 * Random bytes rarely inflate, so fuzz-reader mostly exercises the checks
 * in front of the codec. Here the fuzzer writes the *inflated* contents of
 * one piece of a valid zlib-compressed v7 trace (a base file made by
 * tests/tools/kma-convert), and this harness compresses them with zlib and
 * splices them into the base: the header sections (event formats: duplicate
 * ids and names, formats that do not fit the records), the options, and one
 * CPU's ring-buffer pages, each reaching libtracecmd's and kma's parsers
 * intact. A second mode puts the bytes in unchanged as the compressed block,
 * for the zlib codec's own error paths.
 *
 * Input: byte 0 selects
 *   bits 0-3  the piece: 0-5 the sections of options 16-21 (header info,
 *             ftrace formats, event formats, kallsyms, printk, cmdlines),
 *             6 the first options section, 7-15 CPU (n - 7) % cpus
 *   bit 4     the base file: 0 or 1 (KMA_FUZZ_V7_BASE0/1)
 *   bit 5     raw: the bytes are the compressed block (the harness does not
 *             compress them)
 * and the rest is the piece. The new piece is appended to the file, and the
 * options are rewritten (appended too) to point to it.
 *
 * KMA_FUZZ_V7_SEEDS=DIR writes one seed per piece of each base (the piece as
 * it is) into DIR at start-up; KMA_FUZZ_V7_OUT=FILE keeps the last file built
 * (run one input with -runs=1 to see what it makes). Built and run by
 * tests/fuzz/Makefile.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zlib.h>

#include "match/kma-match.h"
#include "reader/kma-reader.h"
#include "reader/kma-tracedat.h"
#include "reader/kma-zlib.h"
#include "sites/kma-sites.h"

#define OPT_DONE	0
#define OPT_BUFFER	3
#define SEC_FIRST	16	/* HEADER_INFO */
#define SEC_LAST	21	/* CMDLINES */
#define MAX_OPTS	16
#define MAX_CPUS	64

struct buf {
	unsigned char	*d;
	size_t		len, cap;
};

struct optsec {
	uint64_t	off;		/* of the section header */
	uint16_t	flags;
	uint32_t	string_id;
	struct buf	text;		/* inflated options */
};

struct base {
	struct buf	file;
	int		big;
	size_t		first_opt_at;	/* where the header keeps the first offset */
	struct optsec	opt[MAX_OPTS];
	int		nr_opt;
	/* what piece p currently is, inflated */
	uint64_t	sec_off[SEC_LAST - SEC_FIRST + 1];
	struct buf	cpu[MAX_CPUS];	/* the top-level buffer's CPU data, inflated */
	int		cpus;
	int		buf_opt, buf_at;	/* options section, offset of the BUFFER data */
};

static struct base bases[2];
static int nr_bases;

static void put(struct buf *b, const void *p, size_t n)
{
	if (!n)
		return;		/* b->d may still be NULL */
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 4096;
		b->d = realloc(b->d, b->cap);
		if (!b->d)
			abort();
	}
	memcpy(b->d + b->len, p, n);
	b->len += n;
}

/* Numbers in the base file's byte order, decoded as the reader's walker does. */
static uint64_t rd(const struct base *bs, const unsigned char *p, int n)
{
	return kma_td_decode(p, n, bs->big);
}

static void wr(const struct base *bs, unsigned char *p, int n, uint64_t v)
{
	int i;

	for (i = 0; i < n; i++)
		p[bs->big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

static void put_num(const struct base *bs, struct buf *b, int n, uint64_t v)
{
	unsigned char t[8];

	wr(bs, t, n, v);
	put(b, t, n);
}

/* u32 csize, u32 size, data, as libtracecmd reads a compressed block. */
static struct buf inflate_block(const struct base *bs, const unsigned char *p)
{
	uLongf usize = (uLongf)rd(bs, p + 4, 4);
	struct buf out = { .d = malloc(usize + 1), .len = usize };

	if (!out.d || uncompress(out.d, &usize, p + 8, (uLong)rd(bs, p, 4)) != Z_OK ||
	    usize != out.len) {
		fprintf(stderr, "fuzz-v7: the base file does not inflate\n");
		abort();
	}
	return out;
}

static void put_block(const struct base *bs, struct buf *b, const void *p, size_t n, int raw)
{
	uLongf clen = compressBound((uLong)n);
	unsigned char *c;

	if (raw) {
		put(b, p, n);
		return;
	}
	c = malloc(clen);
	if (!c || compress2(c, &clen, p, (uLong)n, Z_DEFAULT_COMPRESSION) != Z_OK)
		abort();
	put_num(bs, b, 4, clen);
	put_num(bs, b, 4, n);
	put(b, c, clen);
	free(c);
}

/* The BUFFER option of the top-level buffer (empty name): its CPUs. */
static void load_buffer(struct base *bs, int o, size_t at, const unsigned char *d)
{
	const unsigned char *p = d + 8;
	int i;

	if (*p)
		return;			/* an instance: left as it is */
	p += 1;
	p += strlen((const char *)p) + 1;	/* clock */
	bs->cpus = (int)rd(bs, p + 4, 4);
	if (bs->cpus > MAX_CPUS)
		abort();
	p += 8;
	bs->buf_opt = o;
	bs->buf_at = (int)at;
	for (i = 0; i < bs->cpus; i++, p += 20) {
		uint64_t off = rd(bs, p + 4, 8), size = rd(bs, p + 12, 8);
		const unsigned char *q = bs->file.d + off;
		uint32_t n, k;

		if (!size)
			continue;
		n = (uint32_t)rd(bs, q, 4);
		for (q += 4, k = 0; k < n; k++) {
			struct buf c = inflate_block(bs, q);

			put(&bs->cpu[i], c.d, c.len);
			free(c.d);
			q += 8 + rd(bs, q, 4);
		}
	}
}

static void load_options(struct base *bs, uint64_t off)
{
	while (off && bs->nr_opt < MAX_OPTS) {
		struct optsec *os = &bs->opt[bs->nr_opt];
		const unsigned char *h = bs->file.d + off;
		size_t p;

		os->off = off;
		os->flags = (uint16_t)rd(bs, h + 2, 2);
		os->string_id = (uint32_t)rd(bs, h + 4, 4);
		if (os->flags & 1)
			os->text = inflate_block(bs, h + 16);
		else
			put(&os->text, h + 16, rd(bs, h + 8, 8));
		off = 0;
		for (p = 0; p + 6 <= os->text.len;) {
			unsigned char *d = os->text.d + p + 6;
			uint16_t id = (uint16_t)rd(bs, os->text.d + p, 2);
			uint32_t size = (uint32_t)rd(bs, os->text.d + p + 2, 4);

			if (id == OPT_DONE) {
				off = rd(bs, d, 8);
				break;
			}
			if (id >= SEC_FIRST && id <= SEC_LAST)
				bs->sec_off[id - SEC_FIRST] = rd(bs, d, 8);
			if (id == OPT_BUFFER)
				load_buffer(bs, bs->nr_opt, p + 6, d);
			p += 6 + size;
		}
		bs->nr_opt++;
	}
}

static void load_base(struct base *bs, const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char t[4096];
	size_t n, p;

	if (!f) {
		fprintf(stderr, "fuzz-v7: cannot open the base file %s\n", path);
		exit(1);
	}
	while ((n = fread(t, 1, sizeof(t), f)) > 0)
		put(&bs->file, t, n);
	fclose(f);
	if (bs->file.len < 64 || memcmp(bs->file.d + 3, "tracing7", 9)) {
		fprintf(stderr, "fuzz-v7: %s is not a v7 trace.dat\n", path);
		exit(1);
	}
	p = 12;			/* magic (10), "7" */
	bs->big = bs->file.d[p];
	p += 6;
	if (strcmp((char *)bs->file.d + p, "zlib")) {
		fprintf(stderr, "fuzz-v7: %s is not zlib-compressed\n", path);
		exit(1);
	}
	p += strlen((char *)bs->file.d + p) + 1;
	p += strlen((char *)bs->file.d + p) + 1;
	bs->first_opt_at = p;
	load_options(bs, rd(bs, bs->file.d + p, 8));
}

/* A section with the given flags around @text, appended: its offset. */
static uint64_t append_section(const struct base *bs, struct buf *out, uint16_t id,
			       uint16_t flags, uint32_t string_id, const void *text,
			       size_t len, int raw)
{
	uint64_t off = out->len;
	size_t size_at;

	put_num(bs, out, 2, id);
	put_num(bs, out, 2, flags);
	put_num(bs, out, 4, string_id);
	size_at = out->len;
	put_num(bs, out, 8, 0);
	if (flags & 1)
		put_block(bs, out, text, len, raw);
	else
		put(out, text, len);
	wr(bs, out->d + size_at, 8, out->len - size_at - 8);
	return off;
}

/*
 * The options again, last section first so each DONE can point to the new
 * copy of the next one, with section @sec (or CPU data) pointing elsewhere.
 */
static void append_options(const struct base *bs, struct buf *out, int sec, uint64_t sec_off,
			   const uint64_t *cpu_off, const uint64_t *cpu_size,
			   const struct buf *first)
{
	uint64_t next = 0;
	int o;

	for (o = bs->nr_opt - 1; o >= 0; o--) {
		const struct buf *src = o == 0 && first ? first : &bs->opt[o].text;
		struct buf t = { 0 };
		size_t p;

		put(&t, src->d, src->len);
		for (p = 0; !first && p + 6 <= t.len;) {
			uint16_t id = (uint16_t)rd(bs, t.d + p, 2);
			uint32_t size = (uint32_t)rd(bs, t.d + p + 2, 4);
			unsigned char *d = t.d + p + 6;

			if (id == OPT_DONE) {
				wr(bs, d, 8, next);
				break;
			}
			if (id == sec)
				wr(bs, d, 8, sec_off);
			if (cpu_off && o == bs->buf_opt && p + 6 == (size_t)bs->buf_at) {
				int i;

				for (i = 0; i < bs->cpus; i++) {
					unsigned char *c = t.d + p + 6 + size - 20 * (bs->cpus - i);

					wr(bs, c + 4, 8, cpu_off[i]);
					wr(bs, c + 12, 8, cpu_size[i]);
				}
			}
			p += 6 + size;
		}
		next = append_section(bs, out, OPT_DONE, bs->opt[o].flags, bs->opt[o].string_id,
				      t.d, t.len, 0);
		free(t.d);
	}
	wr(bs, out->d + bs->first_opt_at, 8, next);
}

/* Every CPU's data again, CPU @cpu's replaced by @d. */
static void append_cpus(const struct base *bs, struct buf *out, int cpu, const uint8_t *d,
			size_t n, int raw)
{
	uint64_t off[MAX_CPUS], size[MAX_CPUS];
	int i;

	for (i = 0; i < bs->cpus; i++) {
		const void *p = i == cpu ? (const void *)d : bs->cpu[i].d;
		size_t len = i == cpu ? n : bs->cpu[i].len;

		/* the u32 chunk count is not part of the size libtracecmd stores */
		off[i] = out->len;
		size[i] = 0;
		if (len) {
			put_num(bs, out, 4, 1);	/* one chunk */
			put_block(bs, out, p, len, raw && i == cpu);
			size[i] = out->len - off[i] - 4;
		}
	}
	append_options(bs, out, -1, 0, off, size, NULL);
}

static void build(struct buf *out, const uint8_t *data, size_t size)
{
	const struct base *bs = &bases[(data[0] >> 4 & 1) % nr_bases];
	int piece = data[0] & 15, raw = data[0] >> 5 & 1;
	const uint8_t *d = data + 1;
	size_t n = size - 1;

	out->len = 0;
	put(out, bs->file.d, bs->file.len);
	if (piece <= SEC_LAST - SEC_FIRST) {
		const unsigned char *h = bs->file.d + bs->sec_off[piece];
		uint64_t off = append_section(bs, out, (uint16_t)(SEC_FIRST + piece),
					      (uint16_t)rd(bs, h + 2, 2),
					      (uint32_t)rd(bs, h + 4, 4), d, n, raw);

		append_options(bs, out, SEC_FIRST + piece, off, NULL, NULL, NULL);
	} else if (piece == 6) {
		struct buf t = { .d = (unsigned char *)d, .len = n };

		append_options(bs, out, -1, 0, NULL, NULL, &t);
	} else if (bs->cpus) {
		append_cpus(bs, out, (piece - 7) % bs->cpus, d, n, raw);
	}
}

static void write_seed(const char *dir, int b, int piece, const void *d, size_t n)
{
	char path[4096];
	unsigned char sel = (unsigned char)(piece | b << 4);
	FILE *f;

	snprintf(path, sizeof(path), "%s/v7-base%d-piece%d", dir, b, piece);
	f = fopen(path, "wb");
	if (!f)
		return;
	fwrite(&sel, 1, 1, f);
	fwrite(d, 1, n, f);
	fclose(f);
}

static void write_seeds(const char *dir)
{
	int b, i;

	for (b = 0; b < nr_bases; b++) {
		const struct base *bs = &bases[b];

		for (i = 0; i <= SEC_LAST - SEC_FIRST; i++) {
			const unsigned char *h = bs->file.d + bs->sec_off[i];

			if (!bs->sec_off[i])
				continue;
			if (rd(bs, h + 2, 2) & 1) {
				struct buf t = inflate_block(bs, h + 16);

				write_seed(dir, b, i, t.d, t.len);
				free(t.d);
			} else {
				write_seed(dir, b, i, h + 16, rd(bs, h + 8, 8));
			}
		}
		write_seed(dir, b, 6, bs->opt[0].text.d, bs->opt[0].text.len);
		for (i = 0; i < bs->cpus && i < 9; i++)
			write_seed(dir, b, 7 + i, bs->cpu[i].d, bs->cpu[i].len);
	}
}

static int fd = -1;
static char path[64];
static struct buf out;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *b0 = getenv("KMA_FUZZ_V7_BASE0"), *b1 = getenv("KMA_FUZZ_V7_BASE1");
	const char *seeds = getenv("KMA_FUZZ_V7_SEEDS");

	if (!b0) {
		fprintf(stderr, "fuzz-v7: set KMA_FUZZ_V7_BASE0 (and _BASE1) to zlib v7 traces\n");
		exit(1);
	}
	if (kma_zlib_register()) {
		fprintf(stderr, "fuzz-v7: cannot register the zlib codec\n");
		exit(1);
	}
	load_base(&bases[nr_bases++], b0);
	if (b1)
		load_base(&bases[nr_bases++], b1);
	if (seeds)
		write_seeds(seeds);
	fd = memfd_create("kma-fuzz-v7", 0);
	if (fd < 0) {
		perror("memfd_create");
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return 0;
}

static void hint(void *ctx, const struct kma_event *sketch)
{
	kma_match_prefetch(ctx, sketch);
}

static int feed(void *ctx, const struct kma_event *ev)
{
	return kma_match_event(ctx, ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kma_match_opts mo = { 0 };
	struct kma_reader *r;
	struct kma_match *m = NULL;
	const char *why = NULL;
	struct kma_err err;
	struct kma_sites *sites;
	const char *ksyms;
	size_t len;
	uint32_t nr;

	if (size < 1 || size > (1 << 20))
		return 0;
	build(&out, data, size);
	if (ftruncate(fd, 0) || pwrite(fd, out.d, out.len, 0) != (ssize_t)out.len)
		abort();
	if (getenv("KMA_FUZZ_V7_OUT")) {	/* to look at a built file: -runs=1 INPUT */
		FILE *f = fopen(getenv("KMA_FUZZ_V7_OUT"), "wb");

		if (f) {
			fwrite(out.d, 1, out.len, f);
			fclose(f);
		}
	}
	r = kma_reader_open(path, &err);
	if (!r)
		return 0;
	ksyms = kma_reader_kallsyms(r, &len, &why);
	sites = kma_sites_alloc(ksyms, len, why, kma_reader_tep(r));
	mo.resolve = kma_sites_symbol;
	mo.resolve_ctx = sites;
	mo.module_of = kma_sites_module;
	m = sites ? kma_match_alloc(&mo) : NULL;
	if (m)
		kma_reader_set_hint(r, hint, m);
	if (m && !kma_reader_run(r, feed, m, NULL, NULL, NULL) &&
	    !kma_match_finish(m, kma_reader_info(r)->last_ts)) {
		kma_match_callers(m, &nr);
		kma_match_generations(m, &nr);
		kma_match_totals(m);
	}
	kma_match_free(m);
	kma_sites_free(sites);
	kma_reader_close(r);
	return 0;
}
