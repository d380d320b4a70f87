// SPDX-License-Identifier: GPL-2.0
/* A map value checked for NULL, then tested with a 32-bit compare: the
 * kernel does not predict it (the low half of a pointer may be 0) and
 * checks the out-of-bounds read on the side where it is. */
#include "hostile.h"

ARRAY_U64(vals, 1);

XDP_ASM int map_null_jmp32(void)
{
	asm volatile(
	"r1 = 0; *(u32 *)(r10 - 4) = r1;"
	"r2 = r10; r2 += -4; r1 = %[vals] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto l_out;"
	"if w0 == 0 goto l_low_zero;"
"l_out:	r0 = 2; exit;"
"l_low_zero:"
	"r0 = *(u64 *)(r0 + 64);"
	"exit;"
	:: __imm_addr(vals), __imm(bpf_map_lookup_elem) : "memory");
}
