// SPDX-License-Identifier: GPL-2.0
/* A subprogram returns a pointer into its own (dead) frame; the caller
 * writes through it. */
#include "hostile.h"

SUBPROG_ASM int own_frame(void)
{
	asm volatile("r1 = 0; *(u64 *)(r10 - 8) = r1;"
	"r0 = r10; r0 += -8; exit;" ::: "memory");
}

XDP_ASM int subprog_ret_fp(void)
{
	asm volatile("call own_frame;"
	"r1 = 1; *(u64 *)(r0 + 0) = r1;"
	"r0 = 2; exit;" ::: "memory");
}
