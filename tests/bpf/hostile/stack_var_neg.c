// SPDX-License-Identifier: GPL-2.0
/* A write at fp-520 plus a packet byte masked to 0..15: below the 512-byte
 * frame whatever the byte. */
#include "hostile.h"

XDP_ASM int stack_var_neg(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 1; if r1 > r8 goto l_out;"
	"r2 = *(u8 *)(r7 + 0); r2 &= 15;"
	"r1 = r10; r1 += -520; r1 += r2;"
	"r3 = 0; *(u8 *)(r1 + 0) = r3;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
