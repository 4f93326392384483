// SPDX-License-Identifier: GPL-2.0
/*
 * kma-convert - rewrites a trace.dat as version 6 or 7 with a chosen
 * compression, for the tests: what `trace-cmd convert` does, plus zlib.
 *
 *   kma-convert -v 7 -c zlib IN OUT     v7, zlib-compressed
 *   kma-convert -v 7 -c zstd IN OUT     v7, zstd-compressed
 *   kma-convert -v 7 -c none IN OUT     v7, uncompressed
 *   kma-convert -v 6 IN OUT             v6 (never compressed)
 *
 * Debian's trace-cmd cannot write (or read) zlib files, so this one registers
 * kma's zlib codec (analyzer/kma-zlib.c) with libtracecmd and then copies the
 * file through libtracecmd's own output API, as trace-cmd convert does
 * (tracecmd/trace-convert.c): headers, buffer descriptions, options and the
 * CPU data, which is inflated and compressed again with the new algorithm.
 * The events are the same records; only their packaging changes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "reader/kma-zlib.h"

/* Exported by libtracecmd 1.3.1, declared only in its private header. */
#define TRACECMD_FILE_CPU_FLYRECORD	11	/* enum tracecmd_file_states */
struct tracecmd_output *tracecmd_copy(struct tracecmd_input *ihandle, const char *file,
				      int state, int file_version, const char *compression);
void tracecmd_output_close(struct tracecmd_output *handle);
bool tracecmd_compress_is_supported(const char *name, const char *version);

static int usage(void)
{
	fprintf(stderr, "usage: kma-convert [-v 6|7] [-c zlib|zstd|none] IN OUT\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct tracecmd_output *out;
	struct tracecmd_input *in;
	const char *comp = "zlib";
	int version = 7, c;

	while ((c = getopt(argc, argv, "v:c:")) != -1) {
		switch (c) {
		case 'v':
			version = atoi(optarg);
			if (version != 6 && version != 7)
				return usage();
			break;
		case 'c':
			comp = optarg;
			break;
		default:
			return usage();
		}
	}
	if (argc - optind != 2)
		return usage();
	if (version == 6)
		comp = "none";	/* v6 has no compression */
	if (kma_zlib_register()) {
		fprintf(stderr, "kma-convert: cannot register the zlib codec\n");
		return 1;
	}
	if (strcmp(comp, "none") && !tracecmd_compress_is_supported(comp, NULL)) {
		fprintf(stderr, "kma-convert: compression '%s' is not supported\n", comp);
		return 2;
	}
	errno = 0;
	in = tracecmd_open_head(argv[optind], 0);
	if (!in) {
		fprintf(stderr, "kma-convert: %s: cannot open: %s\n", argv[optind],
			errno ? strerror(errno) : "not a readable trace.dat");
		return 1;
	}
	out = tracecmd_copy(in, argv[optind + 1], TRACECMD_FILE_CPU_FLYRECORD, version, comp);
	if (!out) {
		fprintf(stderr, "kma-convert: %s: cannot write the copy\n", argv[optind + 1]);
		tracecmd_close(in);
		return 1;
	}
	tracecmd_output_close(out);
	tracecmd_close(in);
	return 0;
}
