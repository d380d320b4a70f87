// SPDX-License-Identifier: GPL-2.0
/* Reserves a ringbuf record and never submits or discards it. */
#include "hostile.h"

RINGBUF(rb, 4096);

XDP_ASM int ringbuf_leak(void)
{
	asm volatile("r1 = %[rb] ll; r2 = 8; r3 = 0;"
	"call %[bpf_ringbuf_reserve];"
	"r0 = 2; exit;"
	:: __imm_addr(rb), __imm(bpf_ringbuf_reserve) : "memory");
}
