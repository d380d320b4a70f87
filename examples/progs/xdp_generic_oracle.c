// SPDX-License-Identifier: GPL-2.0
/*
 * Generic XDP programs without maps, for comparing uxdp with the kernel
 * (`ip link set dev X xdpgeneric obj xdp_generic_oracle.o program P` on a
 * real veth): each one rewrites the frame and sends it back with XDP_TX.
 *   xdp_swap_tx       swap the MAC addresses
 *   xdp_shrink_tx     bpf_xdp_adjust_head(+4), adjust_tail(-10), write a new
 *                     Ethernet header (dst = old src, src = old dst)
 *   xdp_grow_tx       adjust_head(-8) and adjust_tail(+16) (the kernel zeroes
 *                     the tail bytes), new Ethernet header written in full
 *   xdp_l2_tx         swap MACs, Ethertype 0x88b6 (re-classification path)
 */
#include "parse.h"

static __always_inline int swap_eth(void *data, void *data_end, const unsigned char *src,
				    const unsigned char *dst)
{
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > data_end)
		return -1;
	__builtin_memcpy(eth->h_dest, dst, ETH_ALEN);
	__builtin_memcpy(eth->h_source, src, ETH_ALEN);
	return 0;
}

SEC("xdp")
int xdp_swap_tx(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	unsigned char a[ETH_ALEN], b[ETH_ALEN];

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(a, eth->h_source, ETH_ALEN);
	__builtin_memcpy(b, eth->h_dest, ETH_ALEN);
	if (swap_eth(data, data_end, b, a))
		return XDP_DROP;
	return XDP_TX;
}

SEC("xdp")
int xdp_shrink_tx(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	unsigned char a[ETH_ALEN], b[ETH_ALEN];
	__u16 proto;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(a, eth->h_source, ETH_ALEN);
	__builtin_memcpy(b, eth->h_dest, ETH_ALEN);
	proto = eth->h_proto;
	if (bpf_xdp_adjust_head(ctx, 4) || bpf_xdp_adjust_tail(ctx, -10))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	eth = data;
	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(eth->h_dest, a, ETH_ALEN);
	__builtin_memcpy(eth->h_source, b, ETH_ALEN);
	eth->h_proto = proto;
	return XDP_TX;
}

SEC("xdp")
int xdp_grow_tx(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	unsigned char a[ETH_ALEN], b[ETH_ALEN];
	__u16 proto;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(a, eth->h_source, ETH_ALEN);
	__builtin_memcpy(b, eth->h_dest, ETH_ALEN);
	proto = eth->h_proto;
	if (bpf_xdp_adjust_head(ctx, -8) || bpf_xdp_adjust_tail(ctx, 16))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	eth = data;
	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(eth->h_dest, a, ETH_ALEN);
	__builtin_memcpy(eth->h_source, b, ETH_ALEN);
	eth->h_proto = proto;
	return XDP_TX;
}

SEC("xdp")
int xdp_l2_tx(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	unsigned char a[ETH_ALEN], b[ETH_ALEN];

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(a, eth->h_source, ETH_ALEN);
	__builtin_memcpy(b, eth->h_dest, ETH_ALEN);
	if (swap_eth(data, data_end, b, a))
		return XDP_DROP;
	eth->h_proto = bpf_htons(0x88b6);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
