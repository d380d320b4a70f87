// SPDX-License-Identifier: GPL-2.0
/* Control (accepted): load-acquire of an initialised stack slot straight
 * through r10 (r0 = load_acquire((u64 *)(r10 - 8)), raw instruction: clang
 * 14 has no -mcpu=v4). */
#include "hostile.h"

XDP_ASM int load_acq_fp(void)
{
	asm volatile("r1 = 2; *(u64 *)(r10 - 8) = r1;"
	".quad 0x00000100fff8a0db;"	/* r0 = load_acquire((u64 *)(r10 - 8)) */
	"exit;" ::: "memory");
}
