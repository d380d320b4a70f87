// SPDX-License-Identifier: GPL-2.0
/* Moves the frame pointer (r10 += -64) so later stack accesses would land
 * elsewhere. */
#include "hostile.h"

XDP_ASM int r10_write(void)
{
	asm volatile("r10 += -64; r1 = 0; *(u64 *)(r10 - 8) = r1; r0 = 2; exit;" ::: "memory");
}
