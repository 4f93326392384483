/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-time.h - formatting and parsing of timestamps and durations (pure C).
 */
#ifndef KMA_TIME_H
#define KMA_TIME_H

#include <stddef.h>
#include <stdint.h>

/* Seconds with microseconds rounded half up, as trace-cmd prints timestamps. */
void kma_fmt_ts(char *buf, size_t len, uint64_t ns);
/*
 * A time in the reports' one unit: seconds with microseconds and the unit,
 * "735.517455s" (a timestamp) or "0.029740s" (a duration); rounded half up to
 * the microsecond, as trace-cmd prints timestamps. CSV and JSON carry nanoseconds.
 */
void kma_fmt_secs(char *buf, size_t len, uint64_t ns);
/* A duration for a human reading one line (the plugin): "812ns", "3.2us", "1.50ms", "2.000s". */
void kma_fmt_dur(char *buf, size_t len, uint64_t ns);
/* Parses "1ms", "250us", "2s", "1.5" (seconds); 0 or -1. */
int kma_parse_dur(const char *s, uint64_t *ns);
/*
 * "1.5" seconds from the trace start, or "@421.09" absolute (*absolute = 1);
 * 0 or -1. An absolute time with at most 6 decimals is a printed timestamp:
 * it starts 500 ns early, so that it takes in every event printed with it.
 */
int kma_parse_time(const char *s, uint64_t *ns, int *absolute);

#endif /* KMA_TIME_H */
