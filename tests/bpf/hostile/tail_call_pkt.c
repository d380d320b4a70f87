// SPDX-License-Identifier: GPL-2.0
/* Reads through a packet pointer after bpf_tail_call() falls through; slot
 * 0 would hold tail_adjust, which moves the packet start. */
#include "hostile.h"

PROG_ARRAY(jmp, 1);

SEC("xdp")
int tail_adjust(struct xdp_md *ctx)
{
	bpf_xdp_adjust_head(ctx, 8);
	return XDP_PASS;
}

XDP_ASM int tail_call_pkt(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 8; if r1 > r8 goto l_out;"
	"r1 = r6;" TAIL_CALL_JMP0
	"r0 = *(u8 *)(r7 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	:: __imm_addr(jmp), __imm(bpf_tail_call) : "memory");
}
