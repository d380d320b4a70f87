// SPDX-License-Identifier: GPL-2.0
/* Stack buffer indexed by a packet byte: writes outside the 16 bytes. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int oob_stack(struct xdp_md *ctx)
{
	unsigned char *p = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;
	volatile unsigned char buf[16] = {};

	if (p + 1 > end)
		return XDP_PASS;
	buf[p[0]] = 1;
	return buf[3] ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
