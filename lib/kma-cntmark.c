// SPDX-License-Identifier: GPL-2.0
/* kma-cntmark.c - the names of the kernel counter markers' kinds and phases. */
#include "kma-cntmark.h"

const char *kma_cnt_kind_name(int kind)
{
	static const char *const names[KMA_CNT_KINDS] = { "slabinfo", "meminfo", "allocinfo" };

	return kind >= 0 && kind < KMA_CNT_KINDS ? names[kind] : "?";
}

const char *kma_cnt_phase_name(int phase)
{
	static const char *const names[KMA_CNT_PHASES] = { "start", "end" };

	return phase >= 0 && phase < KMA_CNT_PHASES ? names[phase] : "?";
}
