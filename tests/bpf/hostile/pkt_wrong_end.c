// SPDX-License-Identifier: GPL-2.0
/* Compares data + 14 with data_meta (not data_end), then reads at 12. */
#include "hostile.h"

XDP_ASM int pkt_wrong_end(void)
{
	asm volatile(LOAD_PKT
	"r9 = *(u32 *)(r6 + 8);"
	"r1 = r7; r1 += 14; if r1 > r9 goto l_out;"
	"r0 = *(u16 *)(r7 + 12);"
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
