// SPDX-License-Identifier: GPL-2.0
/* Reads one byte of struct xdp_md's data_end. */
#include "hostile.h"

XDP_ASM int ctx_read_narrow(void)
{
	asm volatile("r0 = *(u8 *)(r1 + 4); r0 &= 3; exit;" ::: "memory");
}
