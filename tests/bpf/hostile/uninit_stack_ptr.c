// SPDX-License-Identifier: GPL-2.0
/* Dereferences 8 bytes of never-written stack (fp-16) as a pointer. */
#include "hostile.h"

XDP_ASM int uninit_stack_ptr(void)
{
	asm volatile("r1 = *(u64 *)(r10 - 16);"
	"r0 = *(u8 *)(r1 + 0); exit;" ::: "memory");
}
