// SPDX-License-Identifier: GPL-2.0
/* Reads struct xdp_md at a variable offset (a packet byte masked to 0 or 4). */
#include "hostile.h"

XDP_ASM int ctx_var_off(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 1; if r1 > r8 goto l_out;"
	"r2 = *(u8 *)(r7 + 0); r2 &= 4;"
	"r1 = r6; r1 += r2;"
	"r0 = *(u32 *)(r1 + 0); r0 &= 3; exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
