// SPDX-License-Identifier: GPL-2.0
/* A bounded loop of 2^20 rounds whose state changes every round: more than
 * a million instructions for the verifier to walk. */
#include "hostile.h"

XDP_ASM int loop_1m(void)
{
	asm volatile("r1 = 0; r2 = 0;"
"l_loop: r2 += r1;"
	"r1 += 1;"
	"if r1 < 1048576 goto l_loop;"
	"r0 = r2; r0 &= 1; r0 += 1; exit;"
	::: "memory");
}
