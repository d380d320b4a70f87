// SPDX-License-Identifier: GPL-2.0
/* Load-acquire through the packet end pointer (raw instruction:
 * r0 = load_acquire((u64 *)(r8 + 0))). */
#include "hostile.h"

XDP_ASM int load_acq_pkt_end(void)
{
	asm volatile(LOAD_PKT
	".quad 0x00000100000080db;"	/* r0 = load_acquire((u64 *)(r8 + 0)) */
	"exit;" ::: "memory");
}
