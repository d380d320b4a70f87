// SPDX-License-Identifier: GPL-2.0
/* bpf_xdp_load_bytes() copies one packet byte (0xff) into the middle
 * (fp-5) of a packet pointer spilled at fp-8: the slot is reloaded and
 * dereferenced. */
#include "hostile.h"

XDP_ASM int load_bytes_spill_byte(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 8; if r1 > r8 goto l_out;"
	"*(u64 *)(r10 - 8) = r7;"
	"r1 = r6; r2 = 0; r3 = r10; r3 += -5; r4 = 1;"
	"call %[bpf_xdp_load_bytes];"
	"r1 = *(u64 *)(r10 - 8);"
	"r0 = *(u8 *)(r1 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	:: __imm(bpf_xdp_load_bytes) : "memory");
}
