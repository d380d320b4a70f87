// SPDX-License-Identifier: GPL-2.0
/* `r7 <<= 1;` on a checked packet pointer, then a read through it. */
#include "hostile.h"

XDP_ASM int ptr_lsh(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 8; if r1 > r8 goto l_out;"
	"r7 <<= 1;"
	"r0 = *(u8 *)(r7 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
