// SPDX-License-Identifier: GPL-2.0
/* Reads through a packet pointer checked before bpf_xdp_adjust_tail(ctx, -16):
 * the buffer it points into may have moved. */
#include "hostile.h"

XDP_ASM int adjust_tail_pkt(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 16; if r1 > r8 goto l_out;"
	"r1 = r6; r2 = -16;"
	"call %[bpf_xdp_adjust_tail];"
	"r0 = *(u8 *)(r7 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	:: __imm(bpf_xdp_adjust_tail) : "memory");
}
