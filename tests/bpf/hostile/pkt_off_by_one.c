// SPDX-License-Identifier: GPL-2.0
/* Checks data + 13 > data_end, then reads the 2 bytes at offset 12. */
#include "hostile.h"

XDP_ASM int pkt_off_by_one(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 13; if r1 > r8 goto l_out;"
	"r0 = *(u16 *)(r7 + 12);"
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
