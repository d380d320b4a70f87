// SPDX-License-Identifier: GPL-2.0
/* Reads a stack slot nothing wrote (inline asm). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int uninit_stack(struct xdp_md *ctx)
{
	asm volatile("r0 = *(u64 *)(r10 - 64); r0 &= 3; exit");
	__builtin_unreachable();
}

char _license[] SEC("license") = "GPL";
