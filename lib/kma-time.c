// SPDX-License-Identifier: GPL-2.0
/*
 * kma-time.c - time as kma prints and reads it: trace timestamps, durations
 * (lifetimes, ages) and the --since/--until/--young arguments. Shared by the
 * reports and the plugin, so an age reads the same in both.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kma-time.h"

void kma_fmt_ts(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, ns / 1000000000, ns % 1000000000 / 1000);
}

void kma_fmt_secs(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64 "s", ns / 1000000000,
		 ns % 1000000000 / 1000);
}

void kma_fmt_dur(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else
		snprintf(buf, len, "%.3fs", ns / 1e9);
}

int kma_parse_dur(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; double mul; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1e9 },
	};
	char *end;
	double v;
	size_t i;

	if (!s || !*s || *s == '-')
		return -1;
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].unit)) {
			if (v * units[i].mul > 1.8e19)
				return -1;
			*ns = (uint64_t)llround(v * units[i].mul);
			return 0;
		}
	}
	return -1;
}

int kma_parse_time(const char *s, uint64_t *ns, int *absolute)
{
	*absolute = *s == '@';
	return kma_parse_dur(s + *absolute, ns);
}
