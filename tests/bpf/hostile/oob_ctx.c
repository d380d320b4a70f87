// SPDX-License-Identifier: GPL-2.0
/* Read of struct xdp_md past its end (offset 64). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int oob_ctx(struct xdp_md *ctx)
{
	int r;

	asm volatile("%0 = *(u32 *)(%1 + 64)" : "=r"(r) : "r"(ctx));
	return r ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
