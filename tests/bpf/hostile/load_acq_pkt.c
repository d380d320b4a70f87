// SPDX-License-Identifier: GPL-2.0
/* Load-acquire of 4 bytes at data + 60 with only data + 8 checked (raw
 * instruction: w0 = load_acquire((u32 *)(r7 + 60))). */
#include "hostile.h"

XDP_ASM int load_acq_pkt(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 8; if r1 > r8 goto l_out;"
	".quad 0x00000100003c70c3;"	/* w0 = load_acquire((u32 *)(r7 + 60)) */
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
