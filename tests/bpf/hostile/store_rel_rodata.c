// SPDX-License-Identifier: GPL-2.0
/* Store-release into frozen .rodata through its ld_imm64 map value pointer
 * (raw instruction: store_release((u64 *)(r1 + 0), r2)). */
#include "hostile.h"

static const volatile __u64 ro = 5;

XDP_ASM int store_rel_rodata(void)
{
	asm volatile("r1 = %[ro] ll; r2 = 1;"
	".quad 0x00000110000021db;"	/* store_release((u64 *)(r1 + 0), r2) */
	"r0 = 2; exit;" :: __imm_addr(ro) : "memory");
}
