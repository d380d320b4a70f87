// SPDX-License-Identifier: GPL-2.0
/* Store-release of the packet pointer into the stack, then a plain 8-byte
 * fill and a read through it (raw instruction:
 * store_release((u64 *)(r10 - 8), r7)). */
#include "hostile.h"

XDP_ASM int store_rel_fp_ptr(void)
{
	asm volatile(LOAD_PKT
	".quad 0x00000110fff87adb;"	/* store_release((u64 *)(r10 - 8), r7) */
	"r1 = *(u64 *)(r10 - 8);"
	"r0 = *(u8 *)(r1 + 0);"
	"exit;" ::: "memory");
}
