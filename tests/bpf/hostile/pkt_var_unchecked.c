// SPDX-License-Identifier: GPL-2.0
/* data[off] with off a packet byte: only data + 1 was checked. */
#include "hostile.h"

XDP_ASM int pkt_var_unchecked(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 1; if r1 > r8 goto l_out;"
	"r1 = *(u8 *)(r7 + 0);"
	"r7 += r1;"
	"r0 = *(u8 *)(r7 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
