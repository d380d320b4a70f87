// SPDX-License-Identifier: GPL-2.0
/* bpf_snprintf's output buffer (fp-12, 8 bytes) covers the low half of a
 * packet pointer spilled at fp-8 and part of the slot below; the slot is
 * reloaded and dereferenced. */
#include "hostile.h"

static const char fmt[] = "0123456";

XDP_ASM int snprintf_partial(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 8; if r1 > r8 goto l_out;"
	"*(u64 *)(r10 - 8) = r7;"
	"r1 = r10; r1 += -12; r2 = 8;"
	"r3 = %[fmt] ll; r4 = 0; r5 = 0;"
	"call %[bpf_snprintf];"
	"r1 = *(u64 *)(r10 - 8);"
	"r0 = *(u8 *)(r1 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	:: __imm_addr(fmt), __imm(bpf_snprintf) : "memory");
}
