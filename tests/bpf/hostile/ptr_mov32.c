// SPDX-License-Identifier: GPL-2.0
/* w1 = w7 copies the low 32 bits of a checked packet pointer; r1 is then
 * dereferenced. */
#include "hostile.h"

XDP_ASM int ptr_mov32(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 8; if r1 > r8 goto l_out;"
	"w1 = w7;"
	"r0 = *(u8 *)(r1 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
