// SPDX-License-Identifier: GPL-2.0
/* bpf_snprintf's output buffer covers a spilled map value pointer; the slot
 * is reloaded and written through. */
#include "hostile.h"

HASH_U64(vals, 1);

static const char fmt[] = "0123456789abcdefghijklmnopqrstu";

XDP_ASM int snprintf_spill_map(void)
{
	asm volatile("r1 = 0; *(u32 *)(r10 - 4) = r1;"
	"r2 = r10; r2 += -4; r1 = %[vals] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto l_out;"
	"*(u64 *)(r10 - 16) = r0;"
	"r1 = r10; r1 += -32; r2 = 32;"
	"r3 = %[fmt] ll; r4 = 0; r5 = 0;"
	"call %[bpf_snprintf];"
	"r1 = *(u64 *)(r10 - 16);"
	"r2 = 1; *(u64 *)(r1 + 0) = r2;"
"l_out:	r0 = 2; exit;"
	:: __imm_addr(vals), __imm_addr(fmt), __imm(bpf_map_lookup_elem),
	   __imm(bpf_snprintf) : "memory");
}
