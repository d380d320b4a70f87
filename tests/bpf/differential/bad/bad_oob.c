// SPDX-License-Identifier: GPL-2.0
/* Reads past data_end without a check: the kernel verifier rejects it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int oob_prog(struct xdp_md *ctx)
{
	unsigned char *p = (void *)(long)ctx->data;

	return p[100] ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
