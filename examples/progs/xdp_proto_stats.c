// SPDX-License-Identifier: GPL-2.0
/*
 * An xdp-tutorial-style program for the test bench: parse Ethernet (with
 * VLAN tags), IPv4 and IPv6, then TCP and UDP; count packets and bytes per
 * protocol in `stats` (typed: struct datarec per enum proto); decrement the
 * IPv4 TTL (checksum updated incrementally, as ip_decrease_ttl()) and the
 * IPv6 hop limit; answer UDP echo (port 7) with XDP_TX and swapped MACs;
 * drop telnet (TCP port 23) and packets whose TTL/hop limit would expire,
 * telling why through bpf_printk and a `struct drop_event` perf record.
 *
 *   uxdp prog run xdp_proto_stats.o data_in trace.pcap record_type drop_event dump-maps
 */
#include "parse.h"

enum proto {
	PROTO_OTHER,
	PROTO_IPV4,
	PROTO_IPV6,
	PROTO_TCP,
	PROTO_UDP,
	PROTO_ICMP,
	PROTO_MAX,
};

enum drop_reason {
	DROP_TELNET = 1,
	DROP_TTL_EXPIRED,
	DROP_TRUNCATED,
};

struct datarec {
	__u64 packets;
	__u64 bytes;
};

struct drop_event {
	enum drop_reason reason;
	__u8 l4_proto;
	__u8 ttl;
	__u16 dport;
	__u32 len;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, enum proto);
	__type(value, struct datarec);
	__uint(max_entries, PROTO_MAX);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

/* Keeps struct drop_event in the object's BTF for `record_type drop_event`. */
struct drop_event last_drop;

static __always_inline void count(enum proto p, __u64 bytes)
{
	struct datarec *rec = bpf_map_lookup_elem(&stats, &p);

	if (!rec)
		return;
	__sync_fetch_and_add(&rec->packets, 1);
	__sync_fetch_and_add(&rec->bytes, bytes);
}

static __always_inline int drop(struct xdp_md *ctx, enum drop_reason why, __u8 l4, __u8 ttl,
				__u16 dport)
{
	struct drop_event ev = {
		.reason = why,
		.l4_proto = l4,
		.ttl = ttl,
		.dport = dport,
		.len = ctx->data_end - ctx->data,
	};

	last_drop = ev;
	bpf_printk("drop reason %d proto %d dport %d", why, l4, dport);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &ev, sizeof(ev));
	return XDP_DROP;
}

/* RFC 1624 incremental update of the header checksum for ttl - 1. */
static __always_inline void ip_decrease_ttl(struct iphdr *iph)
{
	__u32 check = iph->check;

	check += bpf_htons(0x0100);
	iph->check = (__u16)(check + (check >= 0xFFFF));
	iph->ttl--;
}

SEC("xdp")
int xdp_proto_stats_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u64 bytes = data_end - data;
	struct hdr_cursor nh = { .pos = data };
	struct ethhdr *eth;
	__u8 l4 = 0, ttl = 0;
	int eth_type;

	eth_type = parse_ethhdr(&nh, data_end, &eth);
	if (eth_type == bpf_htons(ETH_P_IP)) {
		struct iphdr *iph = nh.pos;

		if ((void *)(iph + 1) > data_end || iph->ihl < 5)
			return drop(ctx, DROP_TRUNCATED, 0, 0, 0);
		count(PROTO_IPV4, bytes);
		l4 = iph->protocol;
		ttl = iph->ttl;
		if (ttl <= 1)
			return drop(ctx, DROP_TTL_EXPIRED, l4, ttl, 0);
		ip_decrease_ttl(iph);
		nh.pos = (void *)iph + iph->ihl * 4;
	} else if (eth_type == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6h = nh.pos;

		if ((void *)(ip6h + 1) > data_end)
			return drop(ctx, DROP_TRUNCATED, 0, 0, 0);
		count(PROTO_IPV6, bytes);
		l4 = ip6h->nexthdr;
		ttl = ip6h->hop_limit;
		if (ttl <= 1)
			return drop(ctx, DROP_TTL_EXPIRED, l4, ttl, 0);
		ip6h->hop_limit--;
		nh.pos = ip6h + 1;
	} else {
		count(PROTO_OTHER, bytes);
		return XDP_PASS;
	}

	if (l4 == IPPROTO_TCP) {
		struct tcphdr *th = nh.pos;

		if ((void *)(th + 1) > data_end)
			return drop(ctx, DROP_TRUNCATED, l4, ttl, 0);
		count(PROTO_TCP, bytes);
		if (th->dest == bpf_htons(23))
			return drop(ctx, DROP_TELNET, l4, ttl, 23);
	} else if (l4 == IPPROTO_UDP) {
		struct udphdr *uh = nh.pos;

		if ((void *)(uh + 1) > data_end)
			return drop(ctx, DROP_TRUNCATED, l4, ttl, 0);
		count(PROTO_UDP, bytes);
		if (uh->dest == bpf_htons(7)) {
			swap_src_dst_mac(data);
			return XDP_TX;
		}
	} else if (l4 == IPPROTO_ICMP || l4 == IPPROTO_ICMPV6) {
		count(PROTO_ICMP, bytes);
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
