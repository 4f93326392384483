// SPDX-License-Identifier: GPL-2.0
/*
 * kma-chartjs.c - Chart.js for the self-contained pages: found once per run
 * and inlined, so that a page opens offline and from any directory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kma-chartjs.h"

static const char *const chartjs_paths[] = {
	"/usr/share/javascript/chart.js/chart.umd.min.js",
	"/usr/share/javascript/chart.js/chart.umd.js",
	"/usr/share/javascript/chart.js/chart.min.js",
	"/usr/share/javascript/chart.js/chart.js",
	NULL,
};

const char *kma_html_chartjs_path(void)
{
	const char *env = getenv("KMA_CHARTJS");
	int i;

	if (env && *env)
		return env;
	for (i = 0; chartjs_paths[i]; i++)
		if (!access(chartjs_paths[i], R_OK))
			return chartjs_paths[i];
	return chartjs_paths[2];	/* Debian's libjs-chart.js 3.x: named in the error */
}

char *kma_html_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	for (;;) {
		if (cap - len < 65536) {
			char *nb = realloc(buf, cap + 262144);

			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap += 262144;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (!n)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}
