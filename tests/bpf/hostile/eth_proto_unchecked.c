// SPDX-License-Identifier: GPL-2.0
/* Reads eth->h_proto without comparing data + 14 with data_end. */
#include "hostile.h"
#include <linux/if_ether.h>

SEC("xdp")
int eth_proto_unchecked(struct xdp_md *ctx)
{
	struct ethhdr *eth = (void *)(long)ctx->data;

	return eth->h_proto == __builtin_bswap16(ETH_P_IP) ? XDP_PASS : XDP_DROP;
}
