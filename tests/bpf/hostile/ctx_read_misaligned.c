// SPDX-License-Identifier: GPL-2.0
/* Reads 4 bytes of struct xdp_md at offset 2 (between data and data_end). */
#include "hostile.h"

XDP_ASM int ctx_read_misaligned(void)
{
	asm volatile("r0 = *(u32 *)(r1 + 2); r0 &= 3; exit;" ::: "memory");
}
