// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_redirect_map-style: swap the MAC addresses and redirect through a
 * DEVMAP slot 0 (the kernel sample's tx_port), counting in a PERCPU_ARRAY.
 * A second program redirects by ingress ifindex through a DEVMAP_HASH with
 * XDP_PASS as the fallback verdict on a miss; a third broadcasts. CPUMAP and
 * XSKMAP redirects fall back to their flags' verdict on empty slots.
 */
#include "parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 8);
} tx_port SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
	__uint(max_entries, 8);
} tx_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} rxcnt SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
	__uint(max_entries, 2);
} cpu_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 4);
} xsks SEC(".maps");

SEC("xdp")
int xdp_redirect_map_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 key = 0;
	__u64 *value;

	if (data + sizeof(*eth) > data_end)
		return XDP_DROP;

	value = bpf_map_lookup_elem(&rxcnt, &key);
	if (value)
		*value += 1;

	swap_src_dst_mac(data);
	return bpf_redirect_map(&tx_port, 0, 0);
}

SEC("xdp")
int xdp_redirect_hash_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;

	if (data + sizeof(struct ethhdr) > data_end)
		return XDP_DROP;
	swap_src_dst_mac(data);
	return bpf_redirect_map(&tx_hash, ctx->ingress_ifindex, XDP_PASS);
}

SEC("xdp")
int xdp_broadcast_prog(struct xdp_md *ctx)
{
	return bpf_redirect_map(&tx_port, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
}

SEC("xdp")
int xdp_redirect_cpu_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;

	/* spread by the low bit of the frame length; slot 1 stays empty */
	return bpf_redirect_map(&cpu_map, (data_end - data) & 1, XDP_PASS);
}

SEC("xdp")
int xdp_redirect_xsk_prog(struct xdp_md *ctx)
{
	return bpf_redirect_map(&xsks, ctx->rx_queue_index, XDP_DROP);
}

SEC("xdp")
int xdp_redirect_ifindex_prog(struct xdp_md *ctx)
{
	return bpf_redirect(1, 0);
}

char _license[] SEC("license") = "GPL";
