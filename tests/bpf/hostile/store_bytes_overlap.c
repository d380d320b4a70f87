// SPDX-License-Identifier: GPL-2.0
/* bpf_xdp_store_bytes() at packet offset 1 from the packet itself (40
 * overlapping bytes); the verdict is the byte that lands at offset 2. */
#include "hostile.h"

SEC("xdp")
int store_bytes_overlap(struct xdp_md *ctx)
{
	unsigned char *p = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;

	if (p + 48 > end)
		return XDP_ABORTED;
	if (bpf_xdp_store_bytes(ctx, 1, p, 40))
		return XDP_ABORTED;
	p = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	if (p + 48 > end)
		return XDP_ABORTED;
	return p[14] == 0x08 ? XDP_TX : XDP_DROP;
}
