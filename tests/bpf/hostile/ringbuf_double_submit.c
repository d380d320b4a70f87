// SPDX-License-Identifier: GPL-2.0
/* Submits the same ringbuf record twice. */
#include "hostile.h"

RINGBUF(rb, 4096);

XDP_ASM int ringbuf_double_submit(void)
{
	asm volatile("r1 = %[rb] ll; r2 = 8; r3 = 0;"
	"call %[bpf_ringbuf_reserve];"
	"if r0 == 0 goto l_out;"
	"r6 = r0;"
	"r1 = r6; r2 = 0; call %[bpf_ringbuf_submit];"
	"r1 = r6; r2 = 0; call %[bpf_ringbuf_submit];"
"l_out:	r0 = 2; exit;"
	:: __imm_addr(rb), __imm(bpf_ringbuf_reserve), __imm(bpf_ringbuf_submit) : "memory");
}
