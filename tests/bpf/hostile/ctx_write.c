// SPDX-License-Identifier: GPL-2.0
/* Write to a read-only field of struct xdp_md (data). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int ctx_write(struct xdp_md *ctx)
{
	ctx->data = 0;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
