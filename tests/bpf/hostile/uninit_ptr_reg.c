// SPDX-License-Identifier: GPL-2.0
/* Reads through r3, which nothing wrote. */
#include "hostile.h"

XDP_ASM int uninit_ptr_reg(void)
{
	asm volatile("r0 = *(u8 *)(r3 + 0); exit;" ::: "memory");
}
