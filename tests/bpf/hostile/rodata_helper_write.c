// SPDX-License-Identifier: GPL-2.0
/* bpf_xdp_load_bytes() into frozen .rodata (a helper writing a read-only
 * map value). */
#include "hostile.h"

static const volatile char table[16] = "0123456789abcde";

XDP_ASM int rodata_helper_write(void)
{
	asm volatile("r2 = 0; r3 = %[table] ll; r4 = 16;"
	"call %[bpf_xdp_load_bytes];"
	"r0 = 2; exit;" :: __imm_addr(table), __imm(bpf_xdp_load_bytes) : "memory");
}
