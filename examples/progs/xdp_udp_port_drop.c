// SPDX-License-Identifier: GPL-2.0
/*
 * Drop UDP/IPv4 datagrams to one destination port, pass everything else:
 * the ingress filter of the router tests (tests/net/router_*.sh). The port
 * is cfg[0] (host order; 0: drop nothing); dropped[0] counts the drops,
 * per CPU.
 */
#include "parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} dropped SEC(".maps");

SEC("xdp")
int xdp_udp_port_drop(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *iph;
	struct udphdr *uh;
	__u32 key = 0, *port;
	__u64 *cnt;

	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || iph->protocol != IPPROTO_UDP || iph->ihl < 5)
		return XDP_PASS;
	uh = (void *)iph + iph->ihl * 4;
	if ((void *)(uh + 1) > data_end)
		return XDP_PASS;
	port = bpf_map_lookup_elem(&cfg, &key);
	if (!port || !*port || uh->dest != bpf_htons(*port))
		return XDP_PASS;
	cnt = bpf_map_lookup_elem(&dropped, &key);
	if (cnt)
		*cnt += 1;
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
