// SPDX-License-Identifier: GPL-2.0
/* A subprogram calls bpf_xdp_adjust_head(); its caller then reads through
 * the packet pointer it had checked before the call. */
#include "hostile.h"

SUBPROG_ASM int pop(void)
{
	asm volatile("r2 = 14; call %[bpf_xdp_adjust_head]; r0 = 0; exit;"
	:: __imm(bpf_xdp_adjust_head) : "memory");
}

XDP_ASM int adjust_head_subprog(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 16; if r1 > r8 goto l_out;"
	"r1 = r6; call pop;"
	"r0 = *(u8 *)(r7 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	::: "memory");
}
