// SPDX-License-Identifier: GPL-2.0
/*
 * kma-zlib.c - a zlib codec for libtracecmd.
 *
 * trace-cmd builds with zlib write v7 files whose sections and event data
 * are zlib streams (compress2() per block). Debian's libtracecmd 1.3.1 is
 * built with zstd only, but it exports tracecmd_compress_proto_register(), so
 * the codec upstream compiles in (lib/trace-cmd/trace-compress-zlib.c) is
 * registered from here instead. Every reader of the compressed data then
 * works unchanged: libtracecmd's own and kma-symtab.c's section walker,
 * which both inflate through tracecmd_compress_alloc().
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <zlib.h>

#include "kma-zlib.h"
#include "kma-tracecmd.h"

#define ZLIB_NAME	"zlib"
#define ZLIB_WEIGHT	10	/* upstream's: zstd (5) stays the default for writing */

static int zlib_errno(int ret)
{
	switch (ret) {
	case Z_BUF_ERROR:
		return ENOBUFS;
	case Z_MEM_ERROR:
		return ENOMEM;
	default:
		return EINVAL;	/* Z_DATA_ERROR, Z_STREAM_ERROR: corrupt input */
	}
}

static int zlib_compress(void *ctx, const void *in, int in_bytes, void *out, int out_bytes)
{
	uLongf len = (uLongf)out_bytes;
	int ret;

	if (in_bytes < 0 || out_bytes < 0)
		return errno = EINVAL, -1;
	ret = compress2(out, &len, in, (uLong)in_bytes, Z_BEST_COMPRESSION);
	if (ret != Z_OK)
		return errno = zlib_errno(ret), -1;
	return (int)len;
}

/* uncompress() checks the stream's adler32 too: a corrupt block fails here. */
static int zlib_uncompress(void *ctx, const void *in, int in_bytes, void *out, int out_bytes)
{
	uLongf len = (uLongf)out_bytes;
	int ret;

	if (in_bytes < 0 || out_bytes < 0)
		return errno = EINVAL, -1;
	ret = uncompress(out, &len, in, (uLong)in_bytes);
	if (ret != Z_OK)
		return errno = zlib_errno(ret), -1;
	return (int)len;
}

static unsigned int zlib_bound(void *ctx, unsigned int bytes)
{
	return (unsigned int)compressBound(bytes);
}

/*
 * The name alone: the version in a file is the zlib of the machine that
 * wrote it, and every zlib reads every other's streams (RFC 1950).
 */
static bool zlib_is_supported(const char *name, const char *version)
{
	return name && !strcmp(name, ZLIB_NAME);
}

int kma_zlib_register(void)
{
	static int done;
	struct tracecmd_compression_proto proto = {
		.weight		= ZLIB_WEIGHT,
		.name		= ZLIB_NAME,
		.version	= zlibVersion(),
		.compress	= zlib_compress,
		.uncompress	= zlib_uncompress,
		.compress_size	= zlib_bound,
		.is_supported	= zlib_is_supported,
	};

	if (done)
		return 0;
	/* a libtracecmd built with zlib has its own: keep that one */
	if (!tracecmd_compress_is_supported(ZLIB_NAME, proto.version) &&
	    tracecmd_compress_proto_register(&proto))
		return -1;
	done = 1;
	return 0;
}
