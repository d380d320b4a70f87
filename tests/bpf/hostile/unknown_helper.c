// SPDX-License-Identifier: GPL-2.0
/* Calls helper number 999, which does not exist. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static long (*bpf_nosuch)(void) = (void *)999;

SEC("xdp")
int unknown_helper(struct xdp_md *ctx)
{
	return bpf_nosuch() ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
