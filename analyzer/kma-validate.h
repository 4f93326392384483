/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-validate.h - structure checks run before a file is handed to libtracecmd.
 */
#ifndef KMA_VALIDATE_H
#define KMA_VALIDATE_H

#include <stdint.h>

/* 0 when the v6 section sizes fit in the file; -1 with a reason otherwise. */
int kma_validate_v6(int fd, uint64_t file_size, const char **why);

/* A ring-buffer page size libtracecmd can work with (v6 and v7 headers). */
int kma_valid_page_size(uint64_t page_size);

#endif /* KMA_VALIDATE_H */
