// SPDX-License-Identifier: GPL-2.0
/* fp - pkt (unrelated objects) added to the packet pointer: pkt + (fp -
 * pkt) would be the frame pointer, reached through a packet pointer. */
#include "hostile.h"

XDP_ASM int ptr_sub_fp_pkt(void)
{
	asm volatile(LOAD_PKT
	"r1 = r10; r1 -= r7;"
	"r7 += r1;"
	"r0 = *(u8 *)(r7 - 8);"
	"exit;"
	::: "memory");
}
