// SPDX-License-Identifier: GPL-2.0
/* Reads 8 bytes of never-written stack at fp-64 plus a packet byte masked
 * to 0..31; only the result's lowest bit leaves the program, and it is
 * masked off. */
#include "hostile.h"

XDP_ASM int uninit_stack_var(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 1; if r1 > r8 goto l_out;"
	"r2 = *(u8 *)(r7 + 0); r2 &= 24;"
	"r1 = r10; r1 += -64; r1 += r2;"
	"r0 = *(u64 *)(r1 + 0);"
	"r0 &= 0; r0 += 2; exit;"
"l_out:	r0 = 1; exit;"
	::: "memory");
}
