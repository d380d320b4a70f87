// SPDX-License-Identifier: GPL-2.0
/* Packet read at an offset taken from the packet, checked against nothing. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int oob_pkt_var(struct xdp_md *ctx)
{
	unsigned char *p = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;

	if (p + 1 > end)
		return XDP_PASS;
	return p[p[0] * 64] ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
