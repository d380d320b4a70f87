// SPDX-License-Identifier: GPL-2.0
/* 1,048,577 instructions: one more than BPF_MAX_INSNS (assembler .rept). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int oversized(struct xdp_md *ctx)
{
	asm volatile(".rept 1048576\n r0 = 0\n .endr");
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
