// SPDX-License-Identifier: GPL-2.0
/* Writes into a ringbuf record without checking the reservation for NULL. */
#include "hostile.h"

RINGBUF(rb, 4096);

XDP_ASM int ringbuf_null_nocheck(void)
{
	asm volatile("r1 = %[rb] ll; r2 = 8; r3 = 0;"
	"call %[bpf_ringbuf_reserve];"
	"r6 = r0;"
	"r1 = 1; *(u64 *)(r6 + 0) = r1;"
	"r1 = r6; r2 = 0; call %[bpf_ringbuf_submit];"
	"r0 = 2; exit;"
	:: __imm_addr(rb), __imm(bpf_ringbuf_reserve), __imm(bpf_ringbuf_submit) : "memory");
}
