// SPDX-License-Identifier: GPL-2.0
/* Reads 4 bytes before struct xdp_md (offset -4). */
#include "hostile.h"

XDP_ASM int ctx_read_neg(void)
{
	asm volatile("r0 = *(u32 *)(r1 - 4); r0 &= 3; exit;" ::: "memory");
}
