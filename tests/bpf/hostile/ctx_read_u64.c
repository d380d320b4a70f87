// SPDX-License-Identifier: GPL-2.0
/* Reads struct xdp_md's data as 8 bytes (data and data_end together). */
#include "hostile.h"

XDP_ASM int ctx_read_u64(void)
{
	asm volatile("r0 = *(u64 *)(r1 + 0); r0 &= 3; exit;" ::: "memory");
}
