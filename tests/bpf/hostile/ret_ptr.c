// SPDX-License-Identifier: GPL-2.0
/* The program returns its ctx pointer as the XDP verdict. */
#include "hostile.h"

XDP_ASM int ret_ptr(void)
{
	asm volatile("r0 = r1; exit;" ::: "memory");
}
