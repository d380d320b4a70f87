// SPDX-License-Identifier: GPL-2.0
/* A subprogram reads 8 bytes at a variable offset (0 or 8, from the packet)
 * of its caller's frame, where a packet pointer is spilled, and
 * dereferences what it read. */
#include "hostile.h"

SUBPROG_ASM int var_read(void)
{
	asm volatile("r2 &= 8; r1 += r2; r1 = *(u64 *)(r1 + 0);"
	"r0 = *(u8 *)(r1 + 0); exit;" ::: "memory");
}

XDP_ASM int subprog_var_read_spill(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 8; if r1 > r8 goto l_out;"
	"*(u64 *)(r10 - 8) = r7;"
	"*(u64 *)(r10 - 16) = r7;"
	"r2 = *(u8 *)(r7 + 0);"
	"r1 = r10; r1 += -16;"
	"call var_read;"
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
