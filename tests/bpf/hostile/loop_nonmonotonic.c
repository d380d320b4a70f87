// SPDX-License-Identifier: GPL-2.0
/* A loop whose counter goes up by 2 and down by 1 alternately from a
 * packet-dependent start, ending only at 1000: the verifier cannot prove it
 * ends (here it does, after ~2000 rounds). */
#include "hostile.h"

XDP_ASM int loop_nonmonotonic(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 1; if r1 > r8 goto l_out;"
	"r2 = *(u8 *)(r7 + 0); r3 = 0;"
"l_loop: r3 ^= 1;"
	"if r3 == 0 goto l_down;"
	"r2 += 2; goto l_test;"
"l_down: r2 += -1;"
"l_test: if r2 != 1000 goto l_loop;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
