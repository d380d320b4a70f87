// SPDX-License-Identifier: GPL-2.0
/* A two-level static call chain in .text and a global function. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((noinline)) int leaf(int x)
{
	return x + 1;
}

static __attribute__((noinline)) int mid(int x)
{
	return leaf(x) * 2;
}

SEC("xdp")
int calls_prog(struct xdp_md *ctx)
{
	int len = ctx->data_end - ctx->data;

	return mid(len) == (len + 1) * 2 ? XDP_PASS : XDP_DROP;
}

SEC("xdp")
int calls_prog2(struct xdp_md *ctx)
{
	return leaf(2) == 3 ? XDP_TX : XDP_ABORTED;
}

char _license[] SEC("license") = "GPL";
