/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-validate.h - structure checks run before a file is handed to libtracecmd.
 */
#ifndef KMA_VALIDATE_H
#define KMA_VALIDATE_H

#include <stdint.h>

/* 0 when the v6 section sizes fit in the file; -1 with a reason otherwise. */
int kma_validate_v6(int fd, uint64_t file_size, const char **why);

/*
 * The long size of the ring-buffer pages that a header_page text describes
 * (the size of its commit field: 4 or 8), 0 for an empty text, -1 when it
 * does not start with the timestamp and commit fields kernels print
 * (kma-tracedat.c: v6 and v7).
 */
int kma_header_page_long_size(const char *text, uint64_t len);

/* A ring-buffer page size libtracecmd can work with (v6 and v7 headers). */
int kma_valid_page_size(uint64_t page_size);

#endif /* KMA_VALIDATE_H */
