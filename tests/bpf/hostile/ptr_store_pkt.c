// SPDX-License-Identifier: GPL-2.0
/* Stores the ctx pointer into the packet (an address leak the privileged
 * kernel allows); the verdict does not depend on it. */
#include "hostile.h"

XDP_ASM int ptr_store_pkt(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 16; if r1 > r8 goto l_out;"
	"*(u64 *)(r7 + 8) = r6;"
	"r0 = 2; exit;"
"l_out:	r0 = 1; exit;"
	::: "memory");
}
