// SPDX-License-Identifier: GPL-2.0
/* Control (accepted): a 64-iteration one's-complement sum over the packet's
 * first 32 bytes (bounded loop, not unrolled), folded into the verdict. */
#include "hostile.h"

SEC("xdp")
int ok_csum_loop(struct xdp_md *ctx)
{
	unsigned char *p = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;
	__u32 sum = 0;

	if (p + 32 > end)
		return XDP_ABORTED;
#pragma clang loop unroll(disable)
	for (int i = 0; i < 64; i++)
		sum += p[i & 31];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum & 3;
}
