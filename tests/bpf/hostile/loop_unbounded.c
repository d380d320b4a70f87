// SPDX-License-Identifier: GPL-2.0
/* A loop whose bound comes from the packet and never changes. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int loop_unbounded(struct xdp_md *ctx)
{
	volatile unsigned char *p = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;
	unsigned long n = 0;

	if ((unsigned char *)p + 1 > end)
		return XDP_PASS;
	while (p[0] != 0x55)
		n++;
	return n ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
