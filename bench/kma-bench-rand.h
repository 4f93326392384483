/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-bench-rand.h - the bench tools' random numbers: xorshift64*, fast, and
 * the same sequence on every run (figures of two runs compare).
 */
#ifndef KMA_BENCH_RAND_H
#define KMA_BENCH_RAND_H

#include <stdint.h>

static inline uint64_t kma_bench_rand(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dULL;
}

#endif /* KMA_BENCH_RAND_H */
