// SPDX-License-Identifier: GPL-2.0
/* bpf_check_mtu() writes its u32 *mtu_len over the high half (fp-4) of a
 * packet pointer spilled at fp-8; the slot is reloaded and dereferenced. */
#include "hostile.h"

XDP_ASM int check_mtu_spill_hi(void)
{
	asm volatile(LOAD_PKT
	"r1 = r7; r1 += 8; if r1 > r8 goto l_out;"
	"*(u64 *)(r10 - 8) = r7;"
	"r1 = r6; r2 = 0; r3 = r10; r3 += -4; r4 = 0; r5 = 0;"
	"call %[bpf_check_mtu];"
	"r1 = *(u64 *)(r10 - 8);"
	"r0 = *(u8 *)(r1 + 0);"
	"exit;"
"l_out:	r0 = 2; exit;"
	:: __imm(bpf_check_mtu) : "memory");
}
