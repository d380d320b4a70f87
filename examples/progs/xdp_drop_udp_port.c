// SPDX-License-Identifier: GPL-2.0
/*
 * Drop UDP/IPv4 datagrams to one destination port, pass everything else:
 * the router tests' ingress filter. The port is drop_cfg[0] (host order;
 * 0: drop nothing), set with `map update xdp_drop_udp_port:drop_cfg key
 * 00000000 value <u32 LE>`. drop_cnt[0] counts the frames dropped,
 * drop_cnt[1] the frames passed (per CPU).
 */
#include "parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} drop_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);
} drop_cnt SEC(".maps");

static __always_inline int verdict(__u32 key)
{
	__u64 *c = bpf_map_lookup_elem(&drop_cnt, &key);

	if (c)
		*c += 1;
	return key ? XDP_PASS : XDP_DROP;
}

SEC("xdp")
int xdp_drop_udp_port(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	struct ethhdr *eth;
	struct iphdr *ip;
	struct udphdr *udp;
	__u32 key = 0, *port;

	if (parse_ethhdr(&nh, data_end, &eth) != bpf_htons(ETH_P_IP))
		return verdict(1);
	ip = nh.pos;
	if ((void *)(ip + 1) > data_end || ip->protocol != IPPROTO_UDP || ip->ihl < 5)
		return verdict(1);
	/* Only the first fragment carries the UDP header. */
	if (ip->frag_off & bpf_htons(0x1fff))
		return verdict(1);
	udp = (void *)ip + ip->ihl * 4;
	if ((void *)(udp + 1) > data_end)
		return verdict(1);
	port = bpf_map_lookup_elem(&drop_cfg, &key);
	if (port && *port && udp->dest == bpf_htons((__u16)*port))
		return verdict(0);
	return verdict(1);
}

char _license[] SEC("license") = "GPL";
