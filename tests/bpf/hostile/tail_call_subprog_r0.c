// SPDX-License-Identifier: GPL-2.0
/* A subprogram tail-calls (an empty slot) and then dereferences R0, the
 * tail call's (scalar) result. */
#include "hostile.h"

PROG_ARRAY(jmp, 1);

SUBPROG_ASM int do_tail(void)
{
	asm volatile(TAIL_CALL_JMP0
	"r0 = *(u64 *)(r0 + 0); exit;" :: __imm_addr(jmp), __imm(bpf_tail_call) : "memory");
}

XDP_ASM int tail_call_subprog_r0(void)
{
	asm volatile("call do_tail; r0 = 2; exit;" ::: "memory");
}
