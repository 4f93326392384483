// SPDX-License-Identifier: GPL-2.0
/*
 * kma-floor - the floor for kma-analyze: the bare libtracecmd read loop.
 *
 * Opens a trace.dat, walks every record of every CPU in timestamp order
 * with tracecmd_iterate_events() and only counts them.  Whatever
 * kma-analyze does on top of this (parsing fields, matching frees,
 * writing SQLite) is measured against the time this takes.
 *
 * Usage: kma-floor TRACE.dat
 * Prints "events N" and exits 0; on error prints a message and exits 1.
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <trace-cmd.h>
#include <event-parse.h>

#include "reader/kma-zlib.h"

struct floor_count {
	unsigned long long	events;
	unsigned long long	type_sum;	/* keeps the data read alive */
};

/*
 * Count the record and read its 2-byte common_type so that the record
 * data really has to be there.  Returning 0 keeps the iteration going.
 */
static int count_record(struct tracecmd_input *handle,
			struct tep_record *record, int cpu, void *data)
{
	struct floor_count *count = data;
	unsigned short type;

	count->events++;
	if (record->data && record->size >= (int)sizeof(type)) {
		memcpy(&type, record->data, sizeof(type));
		count->type_sum += type;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct floor_count count = { 0, 0 };
	struct tracecmd_input *handle;

	if (argc != 2) {
		fprintf(stderr, "usage: kma-floor TRACE.dat\n");
		return 1;
	}

	/* zlib-compressed v7 files: Debian's libtracecmd has zstd only */
	if (kma_zlib_register()) {
		fprintf(stderr, "kma-floor: cannot register the zlib codec\n");
		return 1;
	}
	errno = 0;
	handle = tracecmd_open(argv[1], 0);
	if (!handle) {
		fprintf(stderr, "kma-floor: cannot open trace file '%s': %s\n",
			argv[1], errno ? strerror(errno) : "not a trace.dat file?");
		return 1;
	}

	if (tracecmd_iterate_events(handle, NULL, 0, count_record, &count) < 0) {
		fprintf(stderr, "kma-floor: error reading events from '%s'\n",
			argv[1]);
		tracecmd_close(handle);
		return 1;
	}
	tracecmd_close(handle);

	printf("events %llu\n", count.events);
	/* Only to make the compiler keep the reads; never true in practice. */
	if (count.type_sum == 1)
		fprintf(stderr, "kma-floor: type sum %llu\n", count.type_sum);
	return 0;
}
