// SPDX-License-Identifier: GPL-2.0
/* Stores 8 bytes at fp-520, below the 512-byte frame. */
#include "hostile.h"

XDP_ASM int r10_stx_fp_neg520(void)
{
	asm volatile("r1 = 0; *(u64 *)(r10 - 520) = r1; r0 = 2; exit;" ::: "memory");
}
