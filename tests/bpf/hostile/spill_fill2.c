// SPDX-License-Identifier: GPL-2.0
/* A packet pointer spilled at fp-8 is filled back with a 2-byte load at
 * fp-8 and dereferenced. */
#include "hostile.h"

XDP_ASM int spill_fill2(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 8; if r1 > r8 goto l_out;"
	"*(u64 *)(r10 - 8) = r7;"
	"r1 = *(u16 *)(r10 - 8);"
	"r0 = *(u8 *)(r1 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
