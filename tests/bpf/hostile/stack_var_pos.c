// SPDX-License-Identifier: GPL-2.0
/* A write at fp-8 plus a packet byte masked to 0..15: above the frame
 * (fp+0 and up, the caller's memory) for bytes of 8 and more. */
#include "hostile.h"

XDP_ASM int stack_var_pos(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 1; if r1 > r8 goto l_out;"
	"r2 = *(u8 *)(r7 + 0); r2 &= 15;"
	"r1 = r10; r1 += -8; r1 += r2;"
	"r3 = 0; *(u8 *)(r1 + 0) = r3;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
