/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-zlib.h - zlib for libtracecmd, whose Debian build knows only zstd.
 */
#ifndef KMA_ZLIB_H
#define KMA_ZLIB_H

/*
 * Registers a "zlib" compression codec with libtracecmd, so that v7
 * trace.dat files written by trace-cmd builds with zlib (any zlib version)
 * read like any other. Call it before opening a trace.dat; calling it again,
 * or with a libtracecmd that already has zlib, does nothing. 0 on success,
 * -1 (out of memory) otherwise.
 */
int kma_zlib_register(void);

#endif
