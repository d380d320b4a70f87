// SPDX-License-Identifier: GPL-2.0
/* The smallest XDP program: every packet goes to the stack (2 instructions). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_pass_prog(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
