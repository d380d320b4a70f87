// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_xdp_adjust_head/tail/meta: push an 802.1Q tag (head grow), pop it
 * again (head shrink), trim or pad the frame to 64 bytes (tail), and store
 * metadata in front of the frame. Helper return codes go to the `rc` ARRAY
 * so a comparison with the kernel covers the error paths too.
 */
#include "parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __s64);
	__uint(max_entries, 8);
} rc SEC(".maps");

static __always_inline void record(__u32 slot, long ret)
{
	__s64 *v = bpf_map_lookup_elem(&rc, &slot);

	if (v)
		*v = ret;
}

SEC("xdp")
int xdp_vlan_push(struct xdp_md *ctx)
{
	struct ethhdr *eth, tmp;
	struct vlan_hdr *vlh;
	void *data_end, *data;
	long ret;

	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	eth = data;
	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(&tmp, eth, sizeof(tmp));

	ret = bpf_xdp_adjust_head(ctx, -(int)sizeof(struct vlan_hdr));
	record(0, ret);
	if (ret)
		return XDP_ABORTED;

	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	eth = data;
	vlh = (void *)(eth + 1);
	if ((void *)(vlh + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(eth, &tmp, 12);
	eth->h_proto = bpf_htons(ETH_P_8021Q);
	vlh->h_vlan_TCI = bpf_htons(100);
	vlh->h_vlan_encapsulated_proto = tmp.h_proto;
	return XDP_TX;
}

SEC("xdp")
int xdp_vlan_pop(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct vlan_hdr *vlh = data + sizeof(*eth);
	__u8 macs[12];
	__be16 proto;
	long ret;

	if ((void *)(vlh + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_8021Q))
		return XDP_PASS;
	__builtin_memcpy(macs, eth, 12);
	proto = vlh->h_vlan_encapsulated_proto;

	ret = bpf_xdp_adjust_head(ctx, (int)sizeof(*vlh));
	record(1, ret);
	if (ret)
		return XDP_ABORTED;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	eth = data;
	if ((void *)(eth + 1) > data_end)
		return XDP_ABORTED;
	__builtin_memcpy(eth, macs, 12);
	eth->h_proto = proto;
	return XDP_PASS;
}

SEC("xdp")
int xdp_tail(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	long len = data_end - data;
	long ret;

	/* Pad short frames to 64 (new bytes are zeroed), trim long ones. */
	ret = bpf_xdp_adjust_tail(ctx, (int)(64 - len));
	record(2, ret);
	/* Growing past the frame's tailroom must fail with -EINVAL. */
	ret = bpf_xdp_adjust_tail(ctx, 4096);
	record(3, ret);
	/* Shrinking below ETH_HLEN must fail too. */
	ret = bpf_xdp_adjust_tail(ctx, -60);
	record(4, ret);
	return XDP_TX;
}

SEC("xdp")
int xdp_meta(struct xdp_md *ctx)
{
	void *data, *data_meta;
	__u32 *meta;
	long ret;

	ret = bpf_xdp_adjust_meta(ctx, -8);
	record(5, ret);
	if (ret)
		return XDP_ABORTED;
	data = (void *)(long)ctx->data;
	data_meta = (void *)(long)ctx->data_meta;
	meta = data_meta;
	if ((void *)(meta + 2) > data)
		return XDP_ABORTED;
	meta[0] = 0xcafe;
	meta[1] = ctx->rx_queue_index;
	/* Not a multiple of 4: -EACCES. Past data: -EINVAL. */
	record(6, bpf_xdp_adjust_meta(ctx, -2));
	record(7, bpf_xdp_adjust_meta(ctx, 16));
	/* Eat into the headroom until the xdp_frame reservation stops us. */
	ret = bpf_xdp_adjust_head(ctx, -256);
	if (ret != -22)
		return XDP_ABORTED;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
