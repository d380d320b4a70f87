// SPDX-License-Identifier: GPL-2.0
/* bpf_xdp_load_bytes() into a 64-byte stack buffer with a length of 1..255
 * (a packet byte, checked non-zero): up to 191 bytes past the buffer. */
#include "hostile.h"

XDP_ASM int load_bytes_over_buf(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 4; if r1 > r8 goto l_out;"
	"r4 = *(u8 *)(r7 + 0);"
	"if r4 == 0 goto l_out;"
	"r1 = r6; r2 = 0; r3 = r10; r3 += -64;"
	"call %[bpf_xdp_load_bytes];"
"l_out:	r0 = 2; exit;"
	:: __imm(bpf_xdp_load_bytes) : "memory");
}
