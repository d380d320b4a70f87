// SPDX-License-Identifier: GPL-2.0
/* `r7 = -r7;` on a checked packet pointer, then a read through it. */
#include "hostile.h"

XDP_ASM int ptr_neg(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 8; if r1 > r8 goto l_out;"
	"r7 = -r7;"
	"r0 = *(u8 *)(r7 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
