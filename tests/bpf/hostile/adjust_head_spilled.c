// SPDX-License-Identifier: GPL-2.0
/* A checked packet pointer spilled to fp-8 before bpf_xdp_adjust_head() is
 * reloaded after it and dereferenced. */
#include "hostile.h"

XDP_ASM int adjust_head_spilled(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 16; if r1 > r8 goto l_out;"
	"*(u64 *)(r10 - 8) = r7;"
	"r1 = r6; r2 = 14;"
	"call %[bpf_xdp_adjust_head];"
	"r1 = *(u64 *)(r10 - 8);"
	"r0 = *(u8 *)(r1 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	:: __imm(bpf_xdp_adjust_head) : "memory");
}
