// SPDX-License-Identifier: GPL-2.0
/* The caller uses 320 bytes of stack and calls a subprogram that
 * tail-calls: the target would run on the remaining stack. */
#include "hostile.h"

PROG_ARRAY(jmp, 1);

SUBPROG_ASM int do_tail(void)
{
	asm volatile(TAIL_CALL_JMP0
	"r0 = 0; exit;" :: __imm_addr(jmp), __imm(bpf_tail_call) : "memory");
}

XDP_ASM int tail_call_big_frame(void)
{
	asm volatile("r2 = 0; *(u64 *)(r10 - 320) = r2;"
	"call do_tail;"
	"r0 = *(u64 *)(r10 - 320); r0 += 2; exit;" ::: "memory");
}
