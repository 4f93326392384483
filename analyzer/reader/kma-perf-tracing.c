// SPDX-License-Identifier: GPL-2.0
/*
 * kma-perf-tracing.c - the event formats of a perf.data (its HEADER_TRACING_DATA
 * section) into a tep. perf writes them as trace-cmd's v6 header does
 * (tools/perf/util/trace-event-info.c): the tracing magic, a version string
 * ("0.5", or "0.6" with saved cmdlines), endian, long size, page size, then
 * header_page, header_event, the ftrace formats, the event systems and their
 * formats, kallsyms (perf writes none), printk formats and, in 0.6, saved
 * cmdlines. Read through the trace.dat walker (kma-tracedat.c), every size
 * checked against the section, then handed to libtraceevent as libtracecmd
 * hands a v6 file's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "kma-perfdata.h"
#include "kma-tracedat.h"

#define MAX_NAME	4096
#define MAX_COUNT	65536	/* formats per system, systems */

static const unsigned char magic[KMA_TD_MAGIC_LEN] = {
	0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
};

/* A block of @size_bytes length then the bytes, NUL-terminated; NULL when it does not fit. */
static char *block(struct kma_td *t, int size_bytes, uint64_t *len)
{
	char *buf;

	if (kma_td_num(t, size_bytes, len))
		return NULL;
	buf = kma_td_slurp(t, t->off, *len);
	if (buf)
		t->off += *len;
	return buf;
}

/* Formats: u32 count, each a u64 size and the text, parsed under @sys. */
static int formats(struct kma_td *t, struct tep_handle *tep, const char *sys)
{
	uint64_t n, i, len;
	char *buf;

	if (kma_td_num(t, 4, &n) || n > MAX_COUNT)
		return -1;
	for (i = 0; i < n; i++) {
		buf = block(t, 8, &len);
		if (!buf)
			return -1;
		/* a format that does not parse is kept as failed, as perf and libtracecmd do */
		tep_parse_event(tep, buf, len, sys);
		free(buf);
	}
	return 0;
}

static int head(struct kma_td *t, struct tep_handle *tep, int *long_size,
		unsigned int *page_size, int *version6)
{
	unsigned char b[KMA_TD_MAGIC_LEN], eh[6];
	char ver[16], name[16];
	uint64_t len;
	char *buf;

	if (kma_td_read(t, b, sizeof(b)) || memcmp(b, magic, sizeof(b)) ||
	    kma_td_str(t, ver, sizeof(ver)) || kma_td_read(t, eh, sizeof(eh)))
		return -1;
	*version6 = strcmp(ver, "0.5") != 0;
	t->big = eh[0] != 0;
	*long_size = eh[1];
	*page_size = (unsigned int)kma_td_get(t, eh + 2, 4);
	if ((*long_size != 4 && *long_size != 8) || !kma_valid_page_size(*page_size))
		return -1;
	tep_set_file_bigendian(tep, t->big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, *long_size);
	tep_set_page_size(tep, (int)*page_size);
	if (kma_td_read(t, name, 12) || memcmp(name, "header_page", 12) ||
	    !(buf = block(t, 8, &len)))
		return -1;
	tep_parse_header_page(tep, buf, len, *long_size);
	free(buf);
	if (kma_td_read(t, name, 13) || memcmp(name, "header_event", 13) ||
	    !(buf = block(t, 8, &len)))
		return -1;
	free(buf);
	return 0;
}

static int walk(struct kma_td *t, struct tep_handle *tep, int *long_size,
		unsigned int *page_size)
{
	char sys[MAX_NAME];
	uint64_t n, i, len;
	int v6;
	char *buf;

	if (head(t, tep, long_size, page_size, &v6) || formats(t, tep, "ftrace") ||
	    kma_td_num(t, 4, &n) || n > MAX_COUNT)
		return -1;
	for (i = 0; i < n; i++)
		if (kma_td_str(t, sys, sizeof(sys)) || formats(t, tep, sys))
			return -1;
	buf = block(t, 4, &len);	/* kallsyms: empty in what perf writes */
	if (!buf)
		return -1;
	if (len)
		tep_parse_kallsyms(tep, buf);
	free(buf);
	buf = block(t, 4, &len);	/* printk formats */
	if (!buf)
		return -1;
	if (len)
		tep_parse_printk_formats(tep, buf);
	free(buf);
	if (!v6)
		return 0;
	buf = block(t, 8, &len);	/* saved cmdlines: comms of pids no COMM names */
	if (!buf)
		return -1;
	if (len)
		tep_parse_saved_cmdlines(tep, buf);
	free(buf);
	return 0;
}

int kma_pd_formats(int fd, uint64_t off, uint64_t size, struct tep_handle *tep,
		   int *long_size, unsigned int *page_size, struct kma_err *err)
{
	struct kma_td t;

	kma_td_init(&t, fd, off + size);
	t.off = off;
	if (walk(&t, tep, long_size, page_size))
		return kma_err_set(err, KMA_ERR_CORRUPT, "corrupt perf.data: its tracing data "
				   "(the event formats) is cut short or malformed");
	return 0;
}
