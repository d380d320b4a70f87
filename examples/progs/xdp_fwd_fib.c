// SPDX-License-Identifier: GPL-2.0
/*
 * Forward IPv4 and IPv6 in XDP with bpf_fib_lookup(), as the kernel's
 * samples/bpf/xdp_fwd_kern.c: look the destination up in the FIB of the
 * device the frame came in on; on success decrement the TTL (with the
 * incremental checksum) or the hop limit, write the next hop's and the
 * output device's MACs and bpf_redirect() to the output device. Anything
 * else goes to the stack (XDP_PASS): TTL/hop limit 1 (the stack sends time
 * exceeded), a neighbour not resolved yet (the stack resolves it), too big
 * for the output MTU (the stack sends fragmentation needed or packet too
 * big), not routable. fwd_cnt[0]/[1] count IPv4/IPv6 frames redirected,
 * fwd_cnt[2] frames passed (per CPU).
 */
#include "parse.h"

#define AF_INET		2
#define AF_INET6	10

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 3);
} fwd_cnt SEC(".maps");

static __always_inline int count(__u32 key, int verdict)
{
	__u64 *c = bpf_map_lookup_elem(&fwd_cnt, &key);

	if (c)
		*c += 1;
	return verdict;
}

/* include/net/ip.h ip_decrease_ttl() */
static __always_inline void ip_decrease_ttl(struct iphdr *iph)
{
	__u32 check = iph->check;

	check += bpf_htons(0x0100);
	iph->check = (__u16)(check + (check >= 0xFFFF));
	iph->ttl--;
}

SEC("xdp")
int xdp_fwd_fib(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct bpf_fib_lookup fib = {};
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6h;
	struct iphdr *iph;
	__u32 key;
	int rc;

	if ((void *)(eth + 1) > data_end)
		return count(2, XDP_PASS);
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		iph = (void *)(eth + 1);
		if ((void *)(iph + 1) > data_end || iph->ttl <= 1)
			return count(2, XDP_PASS);
		fib.family = AF_INET;
		fib.tos = iph->tos;
		fib.l4_protocol = iph->protocol;
		fib.tot_len = bpf_ntohs(iph->tot_len);
		fib.ipv4_src = iph->saddr;
		fib.ipv4_dst = iph->daddr;
		key = 0;
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		ip6h = (void *)(eth + 1);
		if ((void *)(ip6h + 1) > data_end || ip6h->hop_limit <= 1)
			return count(2, XDP_PASS);
		fib.family = AF_INET6;
		fib.flowinfo = *(__be32 *)ip6h & bpf_htonl(0x0FFFFFFF);
		fib.l4_protocol = ip6h->nexthdr;
		fib.tot_len = bpf_ntohs(ip6h->payload_len);
		__builtin_memcpy(fib.ipv6_src, &ip6h->saddr, sizeof(fib.ipv6_src));
		__builtin_memcpy(fib.ipv6_dst, &ip6h->daddr, sizeof(fib.ipv6_dst));
		key = 1;
	} else {
		return count(2, XDP_PASS);
	}
	fib.ifindex = ctx->ingress_ifindex;
	rc = bpf_fib_lookup(ctx, &fib, sizeof(fib), 0);
	if (rc != BPF_FIB_LKUP_RET_SUCCESS)
		return count(2, XDP_PASS);
	if (key == 0)
		ip_decrease_ttl(iph);
	else
		ip6h->hop_limit--;
	__builtin_memcpy(eth->h_dest, fib.dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, fib.smac, ETH_ALEN);
	return count(key, bpf_redirect(fib.ifindex, 0));
}

char _license[] SEC("license") = "GPL";
