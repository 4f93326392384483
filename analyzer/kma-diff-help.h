/* SPDX-License-Identifier: GPL-2.0 */
/* kma-diff-help.h - kma-diff's --help text (kma-diff-help.c). */
#ifndef KMA_DIFF_HELP_H
#define KMA_DIFF_HELP_H

extern const char kma_diff_usage[];

#endif /* KMA_DIFF_HELP_H */
