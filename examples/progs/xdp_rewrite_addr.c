// SPDX-License-Identifier: GPL-2.0
/*
 * Rewrite IPv4 addresses (a static NAT) and send the frame back: each
 * source or destination address found in the `rewrite` map is replaced
 * by its value, the IP header checksum and the TCP/UDP checksum (whose
 * pseudo-header covers the addresses) are updated incrementally (RFC 1624,
 * as the kernel's csum_replace4()), the MAC addresses are swapped, and the
 * frame leaves by XDP_TX (xdp_rewrite_tx) or through DEVMAP slot 0
 * (xdp_rewrite_redirect). A UDP checksum of 0 (none) stays 0; a computed 0
 * is sent as 0xffff. Non-first fragments have no L4 header: only the IP
 * header changes. Frames with no address to rewrite, and everything that
 * is not IPv4, are passed to the stack untouched.
 *
 *   map update xdp_rewrite_addr:rewrite key C6 12 00 0A value C6 12 64 0A
 *   map update xdp_rewrite_addr:tx_port key 00 00 00 00 value dev out0
 */
#include "parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __be32);
	__type(value, __be32);
	__uint(max_entries, 64);
} rewrite SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} tx_port SEC(".maps");

/*
 * HC' = ~(~HC + ~m + m') over the two 16-bit halves of a 32-bit field. The
 * one's complement sum does not depend on byte order, so the words are
 * added as they sit in memory.
 */
static __always_inline __u16 csum_replace4(__u16 check, __be32 from, __be32 to)
{
	__u32 sum = (__u16)~check;

	sum += (~from & 0xffff) + (~from >> 16);
	sum += (to & 0xffff) + (to >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

/* A checksum over both addresses, updated for those that change. */
static __always_inline __u16 csum_update(__u16 check, __be32 old_src, __be32 new_src,
					 __be32 old_dst, __be32 new_dst)
{
	if (new_src != old_src)
		check = csum_replace4(check, old_src, new_src);
	if (new_dst != old_dst)
		check = csum_replace4(check, old_dst, new_dst);
	return check;
}

static __always_inline int rewrite_addr(struct xdp_md *ctx, int action)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	__be32 old_src, old_dst, new_src, new_dst, *v;
	struct ethhdr *eth;
	struct iphdr *iph;
	__u32 ihl;

	if (parse_ethhdr(&nh, data_end, &eth) != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = nh.pos;
	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	ihl = (iph->ihl & 0xf) * 4;
	if (ihl < sizeof(*iph) || (void *)iph + ihl > data_end)
		return XDP_PASS;
	old_src = iph->saddr;
	old_dst = iph->daddr;
	v = bpf_map_lookup_elem(&rewrite, &old_src);
	new_src = v ? *v : old_src;
	v = bpf_map_lookup_elem(&rewrite, &old_dst);
	new_dst = v ? *v : old_dst;
	if (new_src == old_src && new_dst == old_dst)
		return XDP_PASS;

	/* Only a first fragment (offset 0) carries the L4 header. */
	if (!(iph->frag_off & bpf_htons(0x1fff))) {
		void *l4 = (void *)iph + ihl;

		if (iph->protocol == IPPROTO_UDP) {
			struct udphdr *uh = l4;

			if ((void *)(uh + 1) > data_end)
				return XDP_PASS;
			/* 0 means no checksum: it stays 0; a computed 0 is sent as all ones */
			if (uh->check) {
				uh->check = csum_update(uh->check, old_src, new_src, old_dst, new_dst);
				if (!uh->check)
					uh->check = 0xffff;
			}
		} else if (iph->protocol == IPPROTO_TCP) {
			struct tcphdr *th = l4;

			if ((void *)(th + 1) > data_end)
				return XDP_PASS;
			th->check = csum_update(th->check, old_src, new_src, old_dst, new_dst);
		}
	}
	iph->check = csum_update(iph->check, old_src, new_src, old_dst, new_dst);
	iph->saddr = new_src;
	iph->daddr = new_dst;
	swap_src_dst_mac(data);
	if (action == XDP_REDIRECT)
		return bpf_redirect_map(&tx_port, 0, 0);
	return XDP_TX;
}

SEC("xdp")
int xdp_rewrite_tx(struct xdp_md *ctx)
{
	return rewrite_addr(ctx, XDP_TX);
}

SEC("xdp")
int xdp_rewrite_redirect(struct xdp_md *ctx)
{
	return rewrite_addr(ctx, XDP_REDIRECT);
}

char _license[] SEC("license") = "GPL";
