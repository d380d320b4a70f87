// SPDX-License-Identifier: GPL-2.0
/* Array lookup with a key from the packet (0xff, past max_entries 1) and no
 * NULL check: only constant in-range keys make an array lookup non-NULL. */
#include "hostile.h"

ARRAY_U64(vals, 1);

XDP_ASM int map_null_var_key(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 1; if r1 > r8 goto l_out;"
	"r1 = *(u8 *)(r7 + 0); *(u32 *)(r10 - 4) = r1;"
	"r2 = r10; r2 += -4; r1 = %[vals] ll;"
	"call %[bpf_map_lookup_elem];"
	"r0 = *(u64 *)(r0 + 0);"
"l_out:	r0 = 2; exit;"
	:: __imm_addr(vals), __imm(bpf_map_lookup_elem) : "memory");
}
