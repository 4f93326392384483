// SPDX-License-Identifier: GPL-2.0
/*
 * mkperf - writes a perf.data (PERFILE2) of kmem:kmalloc and kmem:kfree
 * samples as `perf record -a -e kmem:kmalloc -e kmem:kfree` would: of any
 * size (the peak RSS benchmark), or small (fuzz seeds).
 *
 * usage: mkperf -t TEMPLATE.data -o OUT.data [-n SAMPLES] [-c CPUS] [-l LIVE]
 *               [-T TASKS] [-k KALLSYMS] [-S SITES] [-r ROUND_NS] [-s SEED]
 *               [-g] [-L] [-z] [-Z BYTES] [-E BYTES] [-x] [-p]
 *
 *  -t  a perf.data recorded with the kmem events: its tracing-data section
 *      (the event formats) is copied, -x keeps only the kmalloc and kfree
 *      formats of it (a few KB instead of ~100 KB)
 *  -n  samples (default 1000); -c CPUs (2); -T tasks (3, a COMM each)
 *  -l  the most allocations live at once (512): memory stays bounded
 *  -k  call sites are SITES (12) text symbols of this kallsyms (+0x10 and on),
 *      and the kernel MMAP record puts _text where it says; without it, made-up
 *      addresses from 0xffffffff81000000
 *  -r  one round (FINISHED_ROUND) per ROUND_NS of sample time (1000000)
 *  -g  samples carry callchains (kernel frames, then a user one)
 *  -L  LOST records (7 events each) now and then, LOST_SAMPLES at the end
 *  -z  the samples in PERF_RECORD_COMPRESSED records (zstd, as perf record -z)
 *  -Z  with -z, record bytes compressed at a time (32768); perf record
 *      compresses a ring buffer's worth (up to its mmap length) at once
 *  -E  with -z, the last BYTES bytes of records never written: the stream ends
 *      inside a record, as perf record can leave it (its last flush's output
 *      is not waited for); perf's reader drops the partial record
 *  -p  pipe mode, as perf record -o - writes to its standard output
 *
 * Time goes up by 1..400 ns a sample, each on a random CPU; each CPU's
 * samples are held and written as perf record drains its buffers: CPU c's
 * at time k * ROUND_NS + (c + 1) * ROUND_NS / CPUS, a FINISHED_ROUND after
 * the last CPU's. So the file is out of time order within and across
 * neighbouring rounds, and in order after two rounds, as perf promises.
 * A kmalloc takes a new pointer while fewer than LIVE are live (half the
 * time), else a kfree frees a random live one; one kfree in 1000 is of NULL
 * and one of a pointer never allocated. Half way through, task 0 execs (a
 * COMM record in its CPU's stream). Deterministic for a SEED.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef MKP_ZSTD
#include <zstd.h>
#endif

#include "mkperf.h"

#define HDR_SIZE	104
#define ATTR_SIZE	128		/* PERF_ATTR_SIZE_VER7 */
#define NR_EV		2
#define CTX_KERNEL	((uint64_t)-128)
#define CTX_USER	((uint64_t)-512)
#define PTR_BASE	0xffff888100000000ull
#define COMP_CHUNK	32768		/* record bytes per compressed record, at most */
#define COMP_MMAP_LEN	528384
#define MAX_SITES	64

enum { R_MMAP = 1, R_LOST = 2, R_COMM = 3, R_SAMPLE = 9, R_LOST_SAMPLES = 13,
       R_HEADER_ATTR = 64, R_TRACING_DATA = 66, R_FINISHED_ROUND = 68, R_FEATURE = 80,
       R_COMPRESSED = 81 };
enum { F_TRACING = 1, F_OSRELEASE = 4, F_NRCPUS = 7, F_COMPRESSED = 27 };

static struct {
	const char	*tmpl, *out, *kallsyms;
	uint64_t	n, round_ns, seed;
	int		cpus, live, tasks, nr_sites, callchain, lost, comp, small, pipe;
	size_t		chunk, cut;
} o = { .n = 1000, .round_ns = 1000000, .seed = 1, .cpus = 2, .live = 512, .tasks = 3,
	.nr_sites = 12, .chunk = COMP_CHUNK };

static struct mkp_event events[NR_EV] = { { .name = "kmalloc" }, { .name = "kfree" } };
static uint64_t sites[MAX_SITES], text_addr = 0xffffffff81000000ull, text_len = 0x2000000;
static uint64_t rng;
static FILE *out;
static uint64_t out_off;

static void die(const char *what)
{
	fprintf(stderr, "mkperf: %s%s%s\n", what, errno ? ": " : "", errno ? strerror(errno) : "");
	exit(1);
}

void mkp_put(struct mkp_buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 4096;
		b->b = realloc(b->b, b->cap);
		if (!b->b)
			die("out of memory");
	}
	memcpy(b->b + b->len, p, n);
	b->len += n;
}

void mkp_put32(struct mkp_buf *b, uint32_t v)
{
	mkp_put(b, &v, 4);
}

void mkp_put64(struct mkp_buf *b, uint64_t v)
{
	mkp_put(b, &v, 8);
}

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ull;
}

static void emit(const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, out) != n)
		die("write");
	out_off += n;
}

static void hdr(struct mkp_buf *b, uint32_t type, uint16_t misc, size_t size)
{
	mkp_put32(b, type);
	mkp_put(b, &misc, 2);
	mkp_put(b, &(uint16_t){ (uint16_t)size }, 2);
}

static uint64_t sample_id(int ev, int cpu)
{
	return 1000 + (uint64_t)ev * o.cpus + cpu;
}

/* sample_id_all's trailer: TID, TIME, CPU, IDENTIFIER (32 bytes) */
static void id_trailer(struct mkp_buf *b, uint32_t tid, uint64_t ts, int cpu)
{
	mkp_put32(b, tid);
	mkp_put32(b, tid);
	mkp_put64(b, ts);
	mkp_put32(b, (uint32_t)cpu);
	mkp_put32(b, 0);
	mkp_put64(b, sample_id(0, cpu));
}

static void comm(struct mkp_buf *b, uint32_t tid, const char *name, uint64_t ts, int cpu,
		 int exec)
{
	size_t len = (strlen(name) + 1 + 7) & ~(size_t)7;
	char pad[24] = { 0 };

	hdr(b, R_COMM, exec ? 0x2000 : 0, 8 + 8 + len + 32);
	mkp_put32(b, tid);
	mkp_put32(b, tid);
	memcpy(pad, name, strlen(name));
	mkp_put(b, pad, len);
	id_trailer(b, tid, ts, cpu);
}

static void set_field(unsigned char *raw, const struct mkp_event *e, const char *name,
		      uint64_t v)
{
	const struct mkp_field *f = mkp_field(e, name);

	if (!f) {
		if (!strcmp(name, "accounted"))	/* not in every kernel's kmalloc */
			return;
		fprintf(stderr, "mkperf: kmem:%s has no field %s\n", e->name, name);
		exit(1);
	}
	memcpy(raw + f->offset, &v, f->size < 8 ? f->size : 8);	/* little endian */
}

static void sample(struct mkp_buf *b, int ev, int cpu, uint32_t tid, uint64_t ts,
		   int si, uint64_t ptr, uint32_t req)
{
	const struct mkp_event *e = &events[ev];
	uint32_t raw_len = ((e->size + 4 + 7) & ~7u) - 4;
	unsigned char raw[512] = { 0 };
	int nr = o.callchain ? 7 : 0;
	uint64_t site = sites[si];
	uint64_t chain[7] = { CTX_KERNEL, sites[ev], site, sites[(si + 1) % o.nr_sites],
			      sites[(si + 2) % o.nr_sites], CTX_USER, 0x401000 + ev };

	memcpy(raw, &(uint16_t){ (uint16_t)e->id }, 2);
	memcpy(raw + 4, &tid, 4);
	set_field(raw, e, "call_site", site);
	set_field(raw, e, "ptr", ptr);
	if (ev == 0) {
		uint32_t alloc = 8;

		while (alloc < req)
			alloc *= 2;
		set_field(raw, e, "bytes_req", req);
		set_field(raw, e, "bytes_alloc", alloc);
		set_field(raw, e, "gfp_flags", 0xcc0);	/* GFP_KERNEL */
		set_field(raw, e, "node", (uint64_t)-1);
		set_field(raw, e, "accounted", 0);
	}
	hdr(b, R_SAMPLE, 1, 8 + 48 + (nr ? 8 + nr * 8 : 0) + 4 + raw_len);
	mkp_put64(b, sample_id(ev, cpu));
	mkp_put64(b, sites[ev]);	/* IP: in the allocator */
	mkp_put32(b, tid);
	mkp_put32(b, tid);
	mkp_put64(b, ts);
	mkp_put32(b, (uint32_t)cpu);
	mkp_put32(b, 0);
	mkp_put64(b, 1);		/* PERIOD */
	if (nr) {
		mkp_put64(b, nr);
		mkp_put(b, chain, nr * 8);
	}
	mkp_put32(b, raw_len);
	mkp_put(b, raw, raw_len);
}

#ifdef MKP_ZSTD
static ZSTD_CCtx *zc;

/*
 * The first @len bytes of the records in @b as COMPRESSED records, one zstd
 * stream over the file.
 */
static void emit_compressed(const struct mkp_buf *b, size_t len)
{
	size_t at, n, rem, zsize = ZSTD_compressBound(o.chunk) + 64;
	unsigned char *z = malloc(zsize);

	if (!z)
		die("out of memory");
	for (at = 0; at < len; at += n) {
		ZSTD_inBuffer in = { b->b + at, 0, 0 };
		ZSTD_outBuffer zo = { z, zsize, 0 };

		n = len - at < o.chunk ? len - at : o.chunk;
		in.size = n;
		do {
			rem = ZSTD_compressStream2(zc, &zo, &in, ZSTD_e_flush);
			if (ZSTD_isError(rem))
				die("zstd");
		} while (rem);
		for (size_t p = 0; p < zo.pos; ) {
			size_t k = zo.pos - p < 60000 ? zo.pos - p : 60000;
			struct mkp_buf h = { 0 };

			hdr(&h, R_COMPRESSED, 0, 8 + k);
			emit(h.b, h.len);
			emit(z + p, k);
			free(h.b);
			p += k;
		}
	}
	free(z);
}
#else
static void emit_compressed(const struct mkp_buf *b, size_t len)
{
	(void)b;
	(void)len;
	die("built without libzstd: no -z");
}
#endif

/* @last: the stream's last records, whose last o.cut bytes -E leaves out */
static void drain(struct mkp_buf *b, int last)
{
	if (o.comp)
		emit_compressed(b, last && o.cut < b->len ? b->len - o.cut : b->len);
	else
		emit(b->b, b->len);
	b->len = 0;
}

static void finished_round(void)
{
	struct mkp_buf b = { 0 };

	hdr(&b, R_FINISHED_ROUND, 0, 8);
	emit(b.b, b.len);
	free(b.b);
}

static void usage(void)
{
	fprintf(stderr, "usage: mkperf -t TEMPLATE.data -o OUT.data [-n SAMPLES] [-c CPUS] "
		"[-l LIVE] [-T TASKS] [-k KALLSYMS] [-S SITES] [-r ROUND_NS] [-s SEED] "
		"[-g] [-L] [-z] [-Z BYTES] [-E BYTES] [-x] [-p]\n");
	exit(2);
}

/* Call sites: text symbols spread over the kallsyms, each alone at its address. */
static void read_kallsyms(const char *path)
{
	FILE *f = fopen(path, "r");
	uint64_t *a = NULL, addr;
	char *t = NULL, type, name[256], line[512];
	size_t n = 0, cap = 0, i, step;
	int k;

	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %255s", &addr, &type, name) != 3 || strchr(line, '['))
			continue;
		if (!strcmp(name, "_text"))
			text_addr = addr;
		if (!strcmp(name, "_etext"))
			text_len = addr - text_addr;
		if (n == cap) {
			cap = cap * 2 + 4096;
			a = realloc(a, cap * sizeof(*a));
			t = realloc(t, cap);
			if (!a || !t)
				die("out of memory");
		}
		a[n] = addr;		/* every symbol bounds its neighbours */
		t[n++] = type;
	}
	fclose(f);
	step = n / (o.nr_sites + 1) + 1;
	for (i = step, k = 0; i + 1 < n && k < o.nr_sites; i++) {
		if (t[i] != 'T' || a[i - 1] >= a[i] || a[i + 1] < a[i] + 0x100)
			continue;
		sites[k] = a[i] + 0x10 + (uint64_t)k;
		k++;
		i += step;
	}
	free(a);
	free(t);
	if (k < o.nr_sites)
		die("too few text symbols in the kallsyms");
}

/* The template's HEADER_TRACING_DATA section, rewritten into @td. */
static void read_template(struct mkp_buf *td)
{
	FILE *f = fopen(o.tmpl, "r");
	unsigned char h[HDR_SIZE], s[16], *b;
	struct mkp_tdata t = { events, NR_EV };
	uint64_t data_off, data_size, off, size;

	if (!f)
		die(o.tmpl);
	if (fread(h, 1, HDR_SIZE, f) != HDR_SIZE || memcmp(h, "PERFILE2", 8) || !(h[72] & 2))
		die("the template is not a perf.data with tracing data");
	memcpy(&data_off, h + 40, 8);
	memcpy(&data_size, h + 48, 8);
	/* TRACING_DATA is bit 1, the first feature perf writes: the table's first entry */
	if (fseek(f, (long)(data_off + data_size), SEEK_SET) || fread(s, 1, 16, f) != 16)
		die("the template's feature table");
	memcpy(&off, s, 8);
	memcpy(&size, s + 8, 8);
	b = malloc(size);
	if (!b || fseek(f, (long)off, SEEK_SET) || fread(b, 1, size, f) != size)
		die("the template's tracing data");
	fclose(f);
	if (mkp_tdata(&t, b, size, o.small, td))
		die("the template's tracing data lacks kmem:kmalloc or kmem:kfree");
	free(b);
}

static void attr(struct mkp_buf *b, const struct mkp_event *e, uint64_t ids_off)
{
	unsigned char a[ATTR_SIZE] = { 0 };
	uint64_t st = 1 | 2 | 4 | 128 | 256 | 1024 | 65536;	/* IP TID TIME CPU PERIOD RAW IDENT */
	uint64_t flags = 1 | 2 | 1ull << 18 | 1ull << 20;	/* disabled inherit id_all excl_guest */

	if (o.callchain)
		st |= 32;
	memcpy(a, &(uint32_t){ 2 }, 4);			/* PERF_TYPE_TRACEPOINT */
	memcpy(a + 4, &(uint32_t){ ATTR_SIZE }, 4);
	memcpy(a + 8, &(uint64_t){ (uint64_t)e->id }, 8);
	memcpy(a + 16, &(uint64_t){ 1 }, 8);		/* sample_period */
	memcpy(a + 24, &st, 8);
	memcpy(a + 32, &(uint64_t){ 4 | 16 }, 8);	/* read_format ID LOST */
	memcpy(a + 40, &flags, 8);
	mkp_put(b, a, sizeof(a));
	mkp_put64(b, ids_off);
	mkp_put64(b, (uint64_t)o.cpus * 8);
}

/* perf's do_write_string(): u32 length (64-byte aligned, NUL included), the string. */
static void feat_string(struct mkp_buf *b, const char *s)
{
	uint32_t len = ((uint32_t)strlen(s) + 1 + 63) & ~63u;
	char pad[128] = { 0 };

	mkp_put32(b, len);
	memcpy(pad, s, strlen(s));
	mkp_put(b, pad, len);
}

/* The header, attributes and ids; the data section from @data_off. */
static void write_head(uint64_t data_off, uint64_t data_size, unsigned char *bits)
{
	struct mkp_buf b = { 0 };
	uint64_t ids = HDR_SIZE + NR_EV * (ATTR_SIZE + 16);
	int e, c;

	mkp_put(&b, "PERFILE2", 8);
	mkp_put64(&b, HDR_SIZE);
	mkp_put64(&b, ATTR_SIZE + 16);
	mkp_put64(&b, HDR_SIZE);			/* attrs */
	mkp_put64(&b, NR_EV * (ATTR_SIZE + 16));
	mkp_put64(&b, data_off);
	mkp_put64(&b, data_size);
	mkp_put64(&b, 0);				/* event_types */
	mkp_put64(&b, 0);
	mkp_put(&b, bits, 32);
	for (e = 0; e < NR_EV; e++)
		attr(&b, &events[e], ids + (uint64_t)e * o.cpus * 8);
	for (e = 0; e < NR_EV; e++)
		for (c = 0; c < o.cpus; c++)
			mkp_put64(&b, sample_id(e, c));
	if (b.len > data_off)
		die("internal: the head overruns the data");
	if (fseek(out, 0, SEEK_SET) || fwrite(b.b, 1, b.len, out) != b.len)
		die("write");
	free(b.b);
}

/* The features after the data: the table, then the sections. */
/* The feature sections: TRACING_DATA, OSRELEASE, NRCPUS, COMPRESSED with -z; how many. */
static int feat_sections(const struct mkp_buf *td, struct mkp_buf *sec, int *bit)
{
	static const int bits[4] = { F_TRACING, F_OSRELEASE, F_NRCPUS, F_COMPRESSED };

	memcpy(bit, bits, sizeof(bits));
	mkp_put(&sec[0], td->b, td->len);
	feat_string(&sec[1], "6.18.0-mkperf");
	mkp_put32(&sec[2], (uint32_t)o.cpus);
	mkp_put32(&sec[2], (uint32_t)o.cpus);
	mkp_put32(&sec[3], 1);				/* version */
	mkp_put32(&sec[3], 1);				/* PERF_COMP_ZSTD */
	mkp_put32(&sec[3], 1);				/* level */
	mkp_put32(&sec[3], 1);				/* ratio */
	mkp_put32(&sec[3], COMP_MMAP_LEN);
	return o.comp ? 4 : 3;
}

static void write_features(const struct mkp_buf *td, unsigned char *bits)
{
	struct mkp_buf sec[4] = { 0 }, tab = { 0 };
	int bit[4], n = feat_sections(td, sec, bit), i;
	uint64_t at = out_off + (uint64_t)n * 16;

	for (i = 0; i < n; i++) {
		bits[bit[i] / 8] |= 1 << (bit[i] % 8);
		mkp_put64(&tab, at);
		mkp_put64(&tab, sec[i].len);
		at += sec[i].len;
	}
	emit(tab.b, tab.len);
	for (i = 0; i < n; i++) {
		emit(sec[i].b, sec[i].len);
		free(sec[i].b);
	}
	free(tab.b);
}

/*
 * Pipe mode (perf record -o -): a 16-byte header, then what file mode keeps
 * in sections as records: HEADER_FEATURE (u64 bit, the section's bytes),
 * HEADER_ATTR (the attribute, its ids), HEADER_TRACING_DATA (u32 size, the
 * event formats after the record, padded to 8 bytes).
 */
static void write_pipe_head(const struct mkp_buf *td)
{
	struct mkp_buf b = { 0 }, sec[4] = { 0 };
	int bit[4], n = feat_sections(td, sec, bit), i, c;
	size_t pad;

	mkp_put(&b, "PERFILE2", 8);
	mkp_put64(&b, 16);
	for (i = 1; i < n; i++) {		/* not TRACING_DATA: a record of its own */
		pad = (8 - sec[i].len % 8) % 8;
		hdr(&b, R_FEATURE, 0, 16 + sec[i].len + pad);
		mkp_put64(&b, (uint64_t)bit[i]);
		mkp_put(&b, sec[i].b, sec[i].len);
		mkp_put(&b, "\0\0\0\0\0\0\0", pad);
	}
	for (i = 0; i < NR_EV; i++) {
		struct mkp_buf a = { 0 };

		attr(&a, &events[i], 0);	/* the 16-byte ids section dropped below */
		hdr(&b, R_HEADER_ATTR, 0, 8 + ATTR_SIZE + (size_t)o.cpus * 8);
		mkp_put(&b, a.b, ATTR_SIZE);
		for (c = 0; c < o.cpus; c++)
			mkp_put64(&b, sample_id(i, c));
		free(a.b);
	}
	pad = (8 - td->len % 8) % 8;
	hdr(&b, R_TRACING_DATA, 0, 16);
	mkp_put32(&b, (uint32_t)(td->len + pad));
	mkp_put32(&b, 0);
	mkp_put(&b, td->b, td->len);
	mkp_put(&b, "\0\0\0\0\0\0\0", pad);
	emit(b.b, b.len);
	free(b.b);
	for (i = 0; i < n; i++)
		free(sec[i].b);
}

/* The records before the samples, as perf synthesizes them (time 0). */
static void synthesized(void)
{
	struct mkp_buf b = { 0 };
	static const char name[] = "[kernel.kallsyms]_text";
	char nm[24];
	int t;

	hdr(&b, R_MMAP, 1, 8 + 32 + sizeof(name) + 1 + 32);
	mkp_put32(&b, (uint32_t)-1);
	mkp_put32(&b, 0);
	mkp_put64(&b, text_addr);
	mkp_put64(&b, text_len);
	mkp_put64(&b, text_addr);
	mkp_put(&b, name, sizeof(name));
	mkp_put(&b, "", 1);				/* to 8 bytes */
	id_trailer(&b, 0, 0, 0);
	for (t = 0; t < o.tasks; t++) {
		snprintf(nm, sizeof(nm), "mkperf-%d", t);
		comm(&b, 2000 + t, nm, 0, 0, 0);
	}
	emit(b.b, b.len);
	free(b.b);
	finished_round();
}

static void lost(struct mkp_buf *b, int samples, uint64_t n, uint64_t ts, int cpu)
{
	hdr(b, samples ? R_LOST_SAMPLES : R_LOST, 0, 8 + (samples ? 8 : 16) + 32);
	if (!samples)
		mkp_put64(b, sample_id(0, cpu));
	mkp_put64(b, n);
	id_trailer(b, (uint32_t)-1, ts, cpu);
}

/* The samples, each CPU's held until perf would drain its buffer. */
static void samples(void)
{
	struct mkp_buf *cpu = calloc(o.cpus, sizeof(*cpu));
	uint64_t *live = calloc(o.live, sizeof(*live)), ts = 1000000000ull, i, allocs = 0;
	uint64_t round = 0, nlost = 0;
	int dc = 0, nl = 0, c, last;

	if (!cpu || !live)
		die("out of memory");
	for (i = 0; i < o.n; i++) {
		uint32_t tid = 2000 + (uint32_t)(rnd() % o.tasks);
		uint64_t r = rnd();
		int site;

		ts += 1 + rnd() % 400;
		/* CPU dc's buffer is drained at its time in the round */
		while (ts > 1000000000ull + round * o.round_ns +
			    (uint64_t)(dc + 1) * o.round_ns / o.cpus) {
			drain(&cpu[dc], 0);
			if (++dc == o.cpus) {
				finished_round();
				dc = 0;
				round++;
			}
		}
		c = (int)(rnd() % o.cpus);
		if (i == o.n / 2)
			comm(&cpu[c], 2000, "mkperf-exec", ts++, c, 1);
		if (o.lost && (i % 5000 == 2500 || i == o.n / 3)) {
			lost(&cpu[c], 0, 7, ts++, c);
			nlost += 7;
		}
		site = 2 + (int)((r >> 8) % (o.nr_sites / 2 - 2));	/* allocating callers */
		if (nl < o.live && (nl == 0 || r % 2)) {
			live[nl] = PTR_BASE + (allocs++ % (1u << 22)) * 64;
			sample(&cpu[c], 0, c, tid, ts, site, live[nl++],
			       1 + (uint32_t)((r >> 20) % 2048));
		} else if (r % 1000 == 1) {
			sample(&cpu[c], 1, c, tid, ts, o.nr_sites - 1, 0, 0);
		} else if (r % 1000 == 3) {
			sample(&cpu[c], 1, c, tid, ts, o.nr_sites - 1, PTR_BASE - 64, 0);
		} else {
			int k = (int)((r >> 32) % nl);

			site = o.nr_sites / 2 + (int)((r >> 8) % (o.nr_sites / 2));
			sample(&cpu[c], 1, c, tid, ts, site, live[k], 0);
			live[k] = live[--nl];
		}
	}
	for (last = o.cpus - 1; last > dc && !cpu[last].len; last--)
		;
	for (c = dc; c < o.cpus; c++)
		drain(&cpu[c], c == last);
	finished_round();
	if (o.lost) {	/* perf record's end: each event's lost count, per CPU */
		struct mkp_buf b = { 0 };

		lost(&b, 1, nlost, ts, 0);
		emit(b.b, b.len);
		free(b.b);
	}
	for (c = 0; c < o.cpus; c++)
		free(cpu[c].b);
	free(cpu);
	free(live);
}

int main(int argc, char **argv)
{
	struct mkp_buf td = { 0 };
	unsigned char bits[32] = { 0 };
	uint64_t data_off, data_size;
	int opt;

	while ((opt = getopt(argc, argv, "t:o:n:c:l:T:k:S:r:s:gLzZ:E:xp")) != -1) {
		switch (opt) {
		case 't': o.tmpl = optarg; break;
		case 'o': o.out = optarg; break;
		case 'n': o.n = strtoull(optarg, NULL, 0); break;
		case 'c': o.cpus = atoi(optarg); break;
		case 'l': o.live = atoi(optarg); break;
		case 'T': o.tasks = atoi(optarg); break;
		case 'k': o.kallsyms = optarg; break;
		case 'S': o.nr_sites = atoi(optarg); break;
		case 'r': o.round_ns = strtoull(optarg, NULL, 0); break;
		case 's': o.seed = strtoull(optarg, NULL, 0); break;
		case 'g': o.callchain = 1; break;
		case 'L': o.lost = 1; break;
		case 'z': o.comp = 1; break;
		case 'Z': o.chunk = strtoull(optarg, NULL, 0); break;
		case 'E': o.cut = strtoull(optarg, NULL, 0); break;
		case 'x': o.small = 1; break;
		case 'p': o.pipe = 1; break;
		default: usage();
		}
	}
	if (!o.tmpl || !o.out || optind != argc || o.cpus < 1 || o.cpus > 64 || o.live < 1 ||
	    o.tasks < 1 || o.nr_sites < 6 || o.nr_sites > MAX_SITES || !o.round_ns ||
	    !o.chunk || o.chunk > (64u << 20) || ((o.cut || o.chunk != COMP_CHUNK) && !o.comp))
		usage();
	rng = o.seed * 0x9e3779b97f4a7c15ull + 1;
	if (o.kallsyms) {
		read_kallsyms(o.kallsyms);
	} else {
		for (opt = 0; opt < o.nr_sites; opt++)
			sites[opt] = text_addr + 0x1000 * (opt + 1) + 0x10;
	}
	read_template(&td);
	out = fopen(o.out, "w");
	if (!out)
		die(o.out);
#ifdef MKP_ZSTD
	if (o.comp && !(zc = ZSTD_createCCtx()))
		die("zstd");
#endif
	if (o.pipe) {
		write_pipe_head(&td);
		synthesized();
		samples();
		if (fclose(out))
			die(o.out);
		free(td.b);
		return 0;
	}
	/* the data right after the header, attributes and ids, as perf puts it */
	data_off = HDR_SIZE + NR_EV * (ATTR_SIZE + 16) + (uint64_t)NR_EV * o.cpus * 8;
	if (fseek(out, (long)data_off, SEEK_SET))
		die("seek");
	out_off = data_off;
	synthesized();
	samples();
	data_size = out_off - data_off;
	write_features(&td, bits);	/* sets the bits write_head writes */
	write_head(data_off, data_size, bits);
	if (fclose(out))
		die(o.out);
	free(td.b);
	return 0;
}
