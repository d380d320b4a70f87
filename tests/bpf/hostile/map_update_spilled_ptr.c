// SPDX-License-Identifier: GPL-2.0
/* bpf_map_update_elem() reads its value from a stack slot holding a
 * spilled packet pointer: the pointer is copied into the map (a leak the
 * privileged kernel allows). */
#include "hostile.h"

ARRAY_U64(vals, 1);

XDP_ASM int map_update_spilled_ptr(void)
{
	asm volatile(LOAD_PKT
	"*(u64 *)(r10 - 8) = r7;"
	"r1 = 0; *(u32 *)(r10 - 12) = r1;"
	"r2 = r10; r2 += -12; r3 = r10; r3 += -8; r4 = 0;"
	"r1 = %[vals] ll;"
	"call %[bpf_map_update_elem];"
	"r0 = 2; exit;"
	:: __imm_addr(vals), __imm(bpf_map_update_elem) : "memory");
}
