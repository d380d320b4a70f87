// SPDX-License-Identifier: GPL-2.0
/* Map value (8 bytes) indexed by a packet byte checked with i < 9
 * (value_size + 1). */
#include "hostile.h"

ARRAY_U64(vals, 1);

XDP_ASM int map_idx_off_by_one(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 1; if r1 > r8 goto l_out;"
	"r9 = *(u8 *)(r7 + 0);"
	"r1 = 0; *(u32 *)(r10 - 4) = r1;"
	"r2 = r10; r2 += -4; r1 = %[vals] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto l_out;"
	"if r9 >= 9 goto l_out;"
	"r0 += r9;"
	"r0 = *(u8 *)(r0 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	:: __imm_addr(vals), __imm(bpf_map_lookup_elem) : "memory");
}
