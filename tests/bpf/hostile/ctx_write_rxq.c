// SPDX-License-Identifier: GPL-2.0
/* Writes struct xdp_md's rx_queue_index (offset 16). */
#include "hostile.h"

XDP_ASM int ctx_write_rxq(void)
{
	asm volatile("r2 = 3; *(u32 *)(r1 + 16) = r2; r0 = 2; exit;" ::: "memory");
}
