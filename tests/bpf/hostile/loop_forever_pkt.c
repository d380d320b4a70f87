// SPDX-License-Identifier: GPL-2.0
/* for (;;) over packet data: reads the same byte forever unless it is 0x55. */
#include "hostile.h"

XDP_ASM int loop_forever_pkt(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 1; if r1 > r8 goto l_out;"
"l_loop: r1 = *(u8 *)(r7 + 0);"
	"if r1 == 0x55 goto l_out;"
	"goto l_loop;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
