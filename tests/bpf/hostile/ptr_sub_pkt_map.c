// SPDX-License-Identifier: GPL-2.0
/* pkt - map_value (unrelated objects) used as an offset from the map value:
 * map_value + (pkt - map_value) would be the packet, a forged pointer. */
#include "hostile.h"

ARRAY_U64(vals, 1);

XDP_ASM int ptr_sub_pkt_map(void)
{
	asm volatile(LOAD_PKT
	"r1 = 0; *(u32 *)(r10 - 4) = r1;"
	"r2 = r10; r2 += -4; r1 = %[vals] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto l_out;"
	"r1 = r7; r1 -= r0;"
	"r0 += r1;"
	"r0 = *(u8 *)(r0 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	:: __imm_addr(vals), __imm(bpf_map_lookup_elem) : "memory");
}
