// SPDX-License-Identifier: GPL-2.0
/* Stores the frame pointer into a ringbuf record and submits it (an
 * address leak the privileged kernel allows). */
#include "hostile.h"

RINGBUF(rb, 4096);

XDP_ASM int ptr_store_ringbuf(void)
{
	asm volatile("r1 = %[rb] ll; r2 = 8; r3 = 0;"
	"call %[bpf_ringbuf_reserve];"
	"if r0 == 0 goto l_out;"
	"*(u64 *)(r0 + 0) = r10;"
	"r1 = r0; r2 = 0;"
	"call %[bpf_ringbuf_submit];"
"l_out:	r0 = 2; exit;"
	:: __imm_addr(rb), __imm(bpf_ringbuf_reserve), __imm(bpf_ringbuf_submit) : "memory");
}
