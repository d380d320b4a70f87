// SPDX-License-Identifier: GPL-2.0
/* if r0 == 2 goto -1 with r0 = 2: a jump to itself, always taken (raw
 * bytes). */
#include "hostile.h"

XDP_ASM int self_jump(void)
{
	asm volatile("r0 = 2;"
	".quad 0x00000002ffff0015;"	/* if r0 == 2 goto -1 */
	"exit;" ::: "memory");
}
