// SPDX-License-Identifier: GPL-2.0
/* The caller spills a packet pointer at fp-8 and passes fp-16 to a
 * subprogram, which writes one byte at a variable offset (0..15, from the
 * packet) into the caller's frame; the caller reloads the slot and
 * dereferences it. */
#include "hostile.h"

SUBPROG_ASM int var_write(void)
{
	asm volatile("r2 &= 15; r1 += r2; r3 = 0x41; *(u8 *)(r1 + 0) = r3;"
	"r0 = 0; exit;" ::: "memory");
}

XDP_ASM int subprog_var_write_spill(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 8; if r1 > r8 goto l_out;"
	"*(u64 *)(r10 - 8) = r7;"
	"r1 = 0; *(u64 *)(r10 - 16) = r1;"
	"r2 = *(u8 *)(r7 + 0);"
	"r1 = r10; r1 += -16;"
	"call var_write;"
	"r1 = *(u64 *)(r10 - 8);"
	"r0 = *(u8 *)(r1 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
