// SPDX-License-Identifier: GPL-2.0
/* Packet read at a constant offset without a data_end check. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int oob_pkt(struct xdp_md *ctx)
{
	unsigned char *p = (void *)(long)ctx->data;

	return p[200] ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
