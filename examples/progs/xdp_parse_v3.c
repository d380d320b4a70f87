// SPDX-License-Identifier: GPL-2.0
/*
 * Full parser built with -mcpu=v3 (JMP32/ALU32): Ethernet + VLAN/QinQ,
 * IPv4 with IHL/option/fragment checks, IPv6 extension-header walk, TCP and
 * UDP ports. Flows are counted in a HASH; source addresses are checked
 * against an LPM_TRIE blocklist. Verdicts: bad IHL ABORTED, blocked DROP,
 * TCP TX (MACs swapped), everything else PASS.
 */
#include "parse.h"

struct flow_key {
	__u8 proto;
	__u8 pad;
	__u16 l3_flags;		/* 1 options, 2 fragment, 4 ipv6 ext hdrs */
	__u16 sport;
	__u16 dport;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct flow_key);
	__type(value, __u64);
	__uint(max_entries, 64);
} flows SEC(".maps");

struct lpm_v4_key {
	__u32 prefixlen;
	__u32 addr;
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct lpm_v4_key);
	__type(value, __u32);
	__uint(max_entries, 16);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} blocklist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 8);
} verdicts SEC(".maps");

static __always_inline void count_verdict(__u32 v)
{
	__u32 *c = bpf_map_lookup_elem(&verdicts, &v);

	if (c)
		__sync_fetch_and_add(c, 1);
}

#define IPV6_MAX_EXT 4

static __always_inline int parse_l4(void *pos, void *data_end, __u8 proto, struct flow_key *k)
{
	if (proto == IPPROTO_TCP) {
		struct tcphdr *th = pos;

		if ((void *)(th + 1) > data_end)
			return -1;
		k->sport = bpf_ntohs(th->source);
		k->dport = bpf_ntohs(th->dest);
	} else if (proto == IPPROTO_UDP) {
		struct udphdr *uh = pos;

		if ((void *)(uh + 1) > data_end)
			return -1;
		k->sport = bpf_ntohs(uh->source);
		k->dport = bpf_ntohs(uh->dest);
	}
	return 0;
}

SEC("xdp")
int xdp_parse_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	struct flow_key key = {};
	struct ethhdr *eth;
	__u64 one = 1, *cnt;
	__u32 v = XDP_PASS;
	int proto, i;

	proto = parse_ethhdr(&nh, data_end, &eth);
	if (proto < 0) {
		v = XDP_DROP;
		goto out;
	}
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *iph = nh.pos;
		struct lpm_v4_key lk;
		__u32 ihl;

		if ((void *)(iph + 1) > data_end) {
			v = XDP_DROP;
			goto out;
		}
		ihl = iph->ihl;
		if (ihl < 5 || iph->version != 4) {
			v = XDP_ABORTED;
			goto out;
		}
		if (ihl > 5)
			key.l3_flags |= 1;
		if (iph->frag_off & bpf_htons(0x3fff))
			key.l3_flags |= 2;
		if ((void *)iph + ihl * 4 > data_end) {
			v = XDP_DROP;
			goto out;
		}
		key.proto = iph->protocol;
		lk.prefixlen = 32;
		lk.addr = iph->saddr;
		if (bpf_map_lookup_elem(&blocklist, &lk)) {
			v = XDP_DROP;
			goto out;
		}
		if (!(key.l3_flags & 2) &&
		    parse_l4((void *)iph + ihl * 4, data_end, key.proto, &key) < 0) {
			v = XDP_DROP;
			goto out;
		}
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6h = nh.pos;
		__u8 nexthdr;
		void *pos;

		if ((void *)(ip6h + 1) > data_end) {
			v = XDP_DROP;
			goto out;
		}
		nexthdr = ip6h->nexthdr;
		pos = ip6h + 1;
		for (i = 0; i < IPV6_MAX_EXT; i++) {
			__u8 *ext = pos;

			if (nexthdr != IPPROTO_HOPOPTS && nexthdr != IPPROTO_ROUTING &&
			    nexthdr != IPPROTO_DSTOPTS && nexthdr != IPPROTO_FRAGMENT)
				break;
			if ((void *)(ext + 8) > data_end) {
				v = XDP_DROP;
				goto out;
			}
			key.l3_flags |= 4;
			if (nexthdr == IPPROTO_FRAGMENT) {
				key.l3_flags |= 2;
				nexthdr = ext[0];
				pos = ext + 8;
				break;
			}
			nexthdr = ext[0];
			pos = ext + (ext[1] + 1) * 8;
		}
		key.proto = nexthdr;
		if (!(key.l3_flags & 2) && parse_l4(pos, data_end, nexthdr, &key) < 0) {
			v = XDP_DROP;
			goto out;
		}
	} else {
		goto out;
	}

	cnt = bpf_map_lookup_elem(&flows, &key);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	else
		bpf_map_update_elem(&flows, &key, &one, BPF_NOEXIST);

	if (key.proto == IPPROTO_TCP && !(key.l3_flags & 2)) {
		__u8 tmp[6];

		__builtin_memcpy(tmp, eth->h_dest, 6);
		__builtin_memcpy(eth->h_dest, eth->h_source, 6);
		__builtin_memcpy(eth->h_source, tmp, 6);
		v = XDP_TX;
	}
out:
	count_verdict(v);
	return v;
}

char _license[] SEC("license") = "GPL";
