// SPDX-License-Identifier: GPL-2.0
/* Reads r5, which nothing wrote (clang never does this: inline asm). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int uninit_reg(struct xdp_md *ctx)
{
	asm volatile("r0 = r5; r0 &= 1; exit");
	__builtin_unreachable();
}

char _license[] SEC("license") = "GPL";
