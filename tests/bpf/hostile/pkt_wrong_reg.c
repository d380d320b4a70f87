// SPDX-License-Identifier: GPL-2.0
/* Checks data + 14 against data_end, then reads 14 bytes into a packet
 * pointer loaded again from ctx after the check (no range on it). */
#include "hostile.h"

XDP_ASM int pkt_wrong_reg(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 14; if r1 > r8 goto l_out;"
	"r2 = *(u32 *)(r6 + 0);"
	"r0 = *(u16 *)(r2 + 12);"
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
