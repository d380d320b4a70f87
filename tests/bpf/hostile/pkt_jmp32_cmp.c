// SPDX-License-Identifier: GPL-2.0
/* Checks data + 14 against data_end with a 32-bit compare (the pointers'
 * low halves), then reads at 12. */
#include "hostile.h"

XDP_ASM int pkt_jmp32_cmp(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 14; if w1 > w8 goto l_out;"
	"r0 = *(u16 *)(r7 + 12);"
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
