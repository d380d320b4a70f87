// SPDX-License-Identifier: GPL-2.0
/* A subprogram tail-calls (the target may move the packet); after the call
 * the caller reads through the packet pointer it kept in r7. */
#include "hostile.h"

PROG_ARRAY(jmp, 1);

SUBPROG_ASM int do_tail(void)
{
	asm volatile(TAIL_CALL_JMP0
	"r0 = 0; exit;" :: __imm_addr(jmp), __imm(bpf_tail_call) : "memory");
}

XDP_ASM int tail_call_subprog_pkt(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 8; if r1 > r8 goto l_out;"
	"r1 = r6; call do_tail;"
	"r0 = *(u8 *)(r7 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
