// SPDX-License-Identifier: GPL-2.0
/*
 * Header parsing alone, with no map and no helper: Ethernet (up to two
 * VLAN tags), IPv4 or IPv6, then UDP or TCP; a frame to a UDP or TCP
 * port below 16, or an IPv4 one with TTL <= 1 or a bad header length, is
 * dropped, anything else passed. The straight-line program every eBPF
 * runtime can run (uxdp-bench-prog compares them on it, DPDK's rte_bpf
 * included, with a C twin in tools/bench/bench_native.c).
 */
#include "parse.h"

static __always_inline int port_verdict(__be16 dport)
{
	return bpf_ntohs(dport) < 16 ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int xdp_hdr_parse_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	struct ethhdr *eth;
	struct udphdr *uh;
	struct tcphdr *th;
	__u8 proto;
	int h_proto;

	h_proto = parse_ethhdr(&nh, data_end, &eth);
	if (h_proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = nh.pos;

		if ((void *)(ip + 1) > data_end || ip->ihl < 5)
			return XDP_DROP;
		if (ip->ttl <= 1)
			return XDP_DROP;
		proto = ip->protocol;
		nh.pos = (void *)ip + ip->ihl * 4;
	} else if (h_proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = nh.pos;

		if ((void *)(ip6 + 1) > data_end)
			return XDP_DROP;
		if (ip6->hop_limit <= 1)
			return XDP_DROP;
		proto = ip6->nexthdr;
		nh.pos = ip6 + 1;
	} else {
		return XDP_PASS;
	}
	if (proto == IPPROTO_UDP) {
		uh = nh.pos;
		if ((void *)(uh + 1) > data_end)
			return XDP_DROP;
		return port_verdict(uh->dest);
	}
	if (proto == IPPROTO_TCP) {
		th = nh.pos;
		if ((void *)(th + 1) > data_end)
			return XDP_DROP;
		return port_verdict(th->dest);
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
