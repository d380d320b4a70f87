// SPDX-License-Identifier: GPL-2.0
/* A packet pointer plus an unbounded 64-bit scalar (a map value's
 * contents), then a read. */
#include "hostile.h"

ARRAY_U64(vals, 1);

XDP_ASM int ptr_add_unbounded(void)
{
	asm volatile(LOAD_PKT
	"r1 = 0; *(u32 *)(r10 - 4) = r1;"
	"r2 = r10; r2 += -4; r1 = %[vals] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto l_out;"
	"r1 = *(u64 *)(r0 + 0);"
	"r7 += r1;"
	"r1 = r7; r1 += 1; if r1 > r8 goto l_out;"
	"r0 = *(u8 *)(r7 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	:: __imm_addr(vals), __imm(bpf_map_lookup_elem) : "memory");
}
