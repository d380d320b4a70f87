// SPDX-License-Identifier: GPL-2.0
/* Adds a 32-bit packet word (umax 2^32 - 1, past the largest packet
 * offset tracked) to the packet pointer, then checks and reads. */
#include "hostile.h"

XDP_ASM int pkt_var_umax(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 4; if r1 > r8 goto l_out;"
	"r1 = *(u32 *)(r7 + 0);"
	"r7 += r1;"
	"r1 = r7; r1 += 1; if r1 > r8 goto l_out;"
	"r0 = *(u8 *)(r7 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
