// SPDX-License-Identifier: GPL-2.0
/* Uses r1 (the ctx pointer) after a helper call, which clobbers r1-r5. */
#include "hostile.h"

XDP_ASM int uninit_after_call(void)
{
	asm volatile("call %[bpf_get_prandom_u32];"
	"r0 = *(u32 *)(r1 + 0); exit;" :: __imm(bpf_get_prandom_u32) : "memory");
}
