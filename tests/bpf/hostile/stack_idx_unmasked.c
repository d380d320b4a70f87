// SPDX-License-Identifier: GPL-2.0
/* A stack write at fp-16 plus a packet byte with no mask at all. */
#include "hostile.h"

XDP_ASM int stack_idx_unmasked(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 1; if r1 > r8 goto l_out;"
	"r2 = *(u8 *)(r7 + 0);"
	"r1 = r10; r1 += -16; r1 += r2;"
	"r3 = 0; *(u8 *)(r1 + 0) = r3;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
