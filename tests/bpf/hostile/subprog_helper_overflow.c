// SPDX-License-Identifier: GPL-2.0
/* A subprogram gets its caller's fp-16 and asks bpf_xdp_load_bytes() for 24
 * bytes there: 8 bytes past the top of the caller's frame. */
#include "hostile.h"

SUBPROG_ASM int fill(void)
{
	asm volatile("r3 = r2; r2 = 0; r4 = 24;"
	"call %[bpf_xdp_load_bytes];"
	"r0 = 0; exit;" :: __imm(bpf_xdp_load_bytes) : "memory");
}

XDP_ASM int subprog_helper_overflow(void)
{
	asm volatile("r2 = r10; r2 += -16;"
	"call fill;"
	"r0 = 2; exit;" ::: "memory");
}
