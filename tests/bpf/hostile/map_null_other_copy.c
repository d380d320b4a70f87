// SPDX-License-Identifier: GPL-2.0
/* Two lookups: the first result is NULL-checked, the second (another id)
 * is written through. */
#include "hostile.h"

HASH_U64(vals, 4);

XDP_ASM int map_null_other_copy(void)
{
	asm volatile("r1 = 7; *(u32 *)(r10 - 4) = r1;"
	"r2 = r10; r2 += -4; r1 = %[vals] ll;"
	"call %[bpf_map_lookup_elem];"
	"r6 = r0;"
	"r2 = r10; r2 += -4; r1 = %[vals] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r6 == 0 goto l_out;"
	"r1 = 1; *(u64 *)(r0 + 0) = r1;"
"l_out:	r0 = 2; exit;"
	:: __imm_addr(vals), __imm(bpf_map_lookup_elem) : "memory");
}
