// SPDX-License-Identifier: GPL-2.0
/* Control (accepted): a packet read at a variable offset (a packet byte
 * masked to 0..31) checked against data_end first. */
#include "hostile.h"

SEC("xdp")
int ok_pkt_var(struct xdp_md *ctx)
{
	unsigned char *p = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;
	unsigned int off;

	if (p + 1 > end)
		return XDP_ABORTED;
	off = p[0] & 31;
	if (p + off + 1 > end)
		return XDP_ABORTED;
	return p[off] == 0x10 ? XDP_TX : XDP_PASS;
}
