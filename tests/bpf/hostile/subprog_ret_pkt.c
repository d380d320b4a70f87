// SPDX-License-Identifier: GPL-2.0
/* A subprogram returns the packet pointer in R0; the caller reads through
 * it. */
#include "hostile.h"

SUBPROG_ASM int pkt_of(void)
{
	asm volatile("r0 = *(u32 *)(r1 + 0); exit;" ::: "memory");
}

XDP_ASM int subprog_ret_pkt(void)
{
	asm volatile("call pkt_of;"
	"r0 = *(u8 *)(r0 + 0);"
	"exit;" ::: "memory");
}
