// SPDX-License-Identifier: GPL-2.0
/* Stores 8 bytes at fp+0, the first byte above the frame. */
#include "hostile.h"

XDP_ASM int r10_stx_fp0(void)
{
	asm volatile("r1 = 0; *(u64 *)(r10 + 0) = r1; r0 = 2; exit;" ::: "memory");
}
