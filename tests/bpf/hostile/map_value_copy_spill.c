// SPDX-License-Identifier: GPL-2.0
/* A map value's 8 bytes are copied over a packet pointer spilled at fp-8;
 * the slot is reloaded and dereferenced (the value is an arbitrary
 * address). */
#include "hostile.h"

ARRAY_U64(vals, 1);

XDP_ASM int map_value_copy_spill(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 8; if r1 > r8 goto l_out;"
	"*(u64 *)(r10 - 8) = r7;"
	"r1 = 0; *(u32 *)(r10 - 12) = r1;"
	"r2 = r10; r2 += -12; r1 = %[vals] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto l_out;"
	"r1 = *(u64 *)(r0 + 0);"
	"*(u64 *)(r10 - 8) = r1;"
	"r1 = *(u64 *)(r10 - 8);"
	"r0 = *(u8 *)(r1 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	:: __imm_addr(vals), __imm(bpf_map_lookup_elem) : "memory");
}
