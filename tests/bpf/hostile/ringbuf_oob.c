// SPDX-License-Identifier: GPL-2.0
/* Writes 8 bytes at offset 8 of an 8-byte ringbuf record. */
#include "hostile.h"

RINGBUF(rb, 4096);

XDP_ASM int ringbuf_oob(void)
{
	asm volatile("r1 = %[rb] ll; r2 = 8; r3 = 0;"
	"call %[bpf_ringbuf_reserve];"
	"if r0 == 0 goto l_out;"
	"r1 = 1; *(u64 *)(r0 + 8) = r1;"
	"r1 = r0; r2 = 0; call %[bpf_ringbuf_submit];"
"l_out:	r0 = 2; exit;"
	:: __imm_addr(rb), __imm(bpf_ringbuf_reserve), __imm(bpf_ringbuf_submit) : "memory");
}
