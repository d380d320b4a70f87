// SPDX-License-Identifier: GPL-2.0
/* Branches on the packet pointer's value (compared with a constant, and
 * the frame pointer with the packet pointer): address bits decide the
 * verdict. The privileged kernel allows pointer comparisons; any address a
 * runtime gives must be above 4096, so the result is fixed. */
#include "hostile.h"

XDP_ASM int ptr_cmp_leak(void)
{
	asm volatile(LOAD_PKT
	"r0 = 1;"
	"if r7 < 4096 goto l_out;"
	"r0 = 2;"
"l_out:	exit;"
	::: "memory");
}
