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

/*
 * Microseconds rounded half up, as libtraceevent's print_event_time() does for
 * trace-cmd report's "%6.1000d" (time += div / 2; time /= div): a time kma
 * prints is the one trace-cmd prints for the same event. In two parts so
 * that a time near UINT64_MAX does not wrap.
 */
static uint64_t round_us(uint64_t ns)
{
	return ns / 1000 + (ns % 1000 >= 500);
}

void kma_fmt_ts(char *buf, size_t len, uint64_t ns)
{
	uint64_t us = round_us(ns);

	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, us / 1000000, us % 1000000);
}

void kma_fmt_secs(char *buf, size_t len, uint64_t ns)
{
	uint64_t us = round_us(ns);

	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64 "s", us / 1000000, us % 1000000);
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

/*
 * "S[.F]" seconds, F up to 9 digits, read exactly (a double loses
 * nanoseconds past 2^53 ns, 104 days of uptime); *digits receives F's
 * length. 0, -1 if s is not of that form, -2 if F is longer (nothing
 * below a nanosecond has a meaning).
 */
static int parse_secs_exact(const char *s, uint64_t *ns, int *digits)
{
	uint64_t sec = 0, frac = 0;
	int n = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (sec > (UINT64_MAX / 1000000000 - 9) / 10)
			return -1;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, n++) {
			if (n == 9)
				return -2;
			frac = frac * 10 + (uint64_t)(*s - '0');
		}
	if (*s && strcmp(s, "s"))
		return -1;
	*digits = n;
	for (; n < 9; n++)
		frac *= 10;
	*ns = sec * 1000000000 + frac;
	return 0;
}

int kma_parse_time(const char *s, uint64_t *ns, int *absolute)
{
	int digits, ret;

	*absolute = *s == '@';
	if (!*absolute)
		return kma_parse_dur(s, ns);
	ret = parse_secs_exact(s + 1, ns, &digits);
	if (ret == -2)
		return -1;
	if (ret)	/* another unit: "@421090ms" */
		return kma_parse_dur(s + 1, ns);
	/*
	 * A timestamp as kma and trace-cmd print it, to the microsecond, names
	 * every event printed with it: those from half a microsecond before.
	 */
	if (digits <= 6)
		*ns = *ns >= 500 ? *ns - 500 : 0;
	return 0;
}
