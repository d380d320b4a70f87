// SPDX-License-Identifier: GPL-2.0
/* Store-release into struct xdp_md (raw instruction:
 * store_release((u32 *)(r1 + 0), w2)). */
#include "hostile.h"

XDP_ASM int store_rel_ctx(void)
{
	asm volatile("r2 = 0;"
	".quad 0x00000110000021c3;"	/* store_release((u32 *)(r1 + 0), w2) */
	"r0 = 2; exit;" ::: "memory");
}
