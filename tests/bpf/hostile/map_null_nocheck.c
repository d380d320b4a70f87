// SPDX-License-Identifier: GPL-2.0
/* Writes through a hash map lookup's result without the NULL check (the
 * key is absent: NULL). */
#include "hostile.h"

HASH_U64(vals, 4);

XDP_ASM int map_null_nocheck(void)
{
	asm volatile("r1 = 7; *(u32 *)(r10 - 4) = r1;"
	"r2 = r10; r2 += -4; r1 = %[vals] ll;"
	"call %[bpf_map_lookup_elem];"
	"r1 = 1; *(u64 *)(r0 + 0) = r1;"
	"r0 = 2; exit;"
	:: __imm_addr(vals), __imm(bpf_map_lookup_elem) : "memory");
}
