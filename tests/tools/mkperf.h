/* SPDX-License-Identifier: GPL-2.0 */
/* mkperf.h - shared by mkperf.c and mkperf-tdata.c (a perf.data generator). */
#ifndef MKPERF_H
#define MKPERF_H

#include <stddef.h>
#include <stdint.h>

#define MKP_MAX_FIELDS	32

struct mkp_buf {
	unsigned char	*b;
	size_t		len, cap;
};

void mkp_put(struct mkp_buf *b, const void *p, size_t n);
void mkp_put32(struct mkp_buf *b, uint32_t v);
void mkp_put64(struct mkp_buf *b, uint64_t v);

struct mkp_field {
	char	name[48];
	int	offset, size;
};

/* One kmem event mkperf writes: its format's id and fields. */
struct mkp_event {
	const char		*name;		/* "kmalloc" */
	int			id;		/* -1 until its format is seen */
	int			size;		/* of its raw data, common fields first */
	int			nr_fields;
	struct mkp_field	fields[MKP_MAX_FIELDS];
};

struct mkp_tdata {
	struct mkp_event	*events;
	int			nr_events;
};

/*
 * Walks the tracing-data section @b (@len bytes) into @out, whole or
 * (@small) with only the kmem formats of @td's events; fills in their ids
 * and fields. 0, or -1 when the section is not one or lacks an event.
 */
int mkp_tdata(struct mkp_tdata *td, const unsigned char *b, size_t len, int small,
	      struct mkp_buf *out);
const struct mkp_field *mkp_field(const struct mkp_event *e, const char *name);

#endif /* MKPERF_H */
