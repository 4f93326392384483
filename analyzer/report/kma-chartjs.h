/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-chartjs.h - Chart.js for the self-contained pages (kma-analyze --html,
 * kma-trend --html): where the library is, and a whole file read into memory.
 * No matcher, no store: kma-trend links this alone.
 */
#ifndef KMA_CHARTJS_H
#define KMA_CHARTJS_H

/* $KMA_CHARTJS, else the first of Debian's libjs-chart.js files that exists. */
const char *kma_html_chartjs_path(void);
/* The whole file @path, NUL-terminated, for the caller to free; NULL and errno. */
char *kma_html_slurp(const char *path);

#endif /* KMA_CHARTJS_H */
