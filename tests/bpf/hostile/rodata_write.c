// SPDX-License-Identifier: GPL-2.0
/* Writes to frozen .rodata through the map value pointer of an ld_imm64. */
#include "hostile.h"

static const volatile __u32 limit = 5;

XDP_ASM int rodata_write(void)
{
	asm volatile("r1 = %[limit] ll; r2 = 9;"
	"*(u32 *)(r1 + 0) = r2;"
	"r0 = 2; exit;" :: __imm_addr(limit) : "memory");
}
