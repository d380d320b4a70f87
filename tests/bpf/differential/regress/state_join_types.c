// SPDX-License-Identifier: GPL-2.0
/*
 * Checker regression (kernel/bpf/states.c): an earlier xdp_rewrite_addr.c.
 * Past WIDEN_STATES states at one instruction, the checker joined a state
 * where a register held a scalar with one where it held a packet pointer,
 * leaving it uninitialised: "insn 196: R2 !read_ok", where the kernel,
 * which walks both paths, accepts the program. Such states now stay apart.
 * kernel_diff loads it in both and compares the runs.
 *
 * Rewrites IPv4 addresses found in the `rewrite` map (incremental IP and
 * L4 checksum updates), swaps the MACs, and sends the frame back (XDP_TX)
 * or through DEVMAP slot 0.
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

static __always_inline int rewrite_addr(struct xdp_md *ctx, int action)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	__be32 old_src, old_dst, new_src, new_dst, *v;
	__u16 *l4check = 0;
	struct ethhdr *eth;
	struct iphdr *iph;
	int udp = 0;
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
			l4check = &uh->check;
			udp = 1;
		} else if (iph->protocol == IPPROTO_TCP) {
			struct tcphdr *th = l4;

			if ((void *)(th + 1) > data_end)
				return XDP_PASS;
			l4check = &th->check;
		}
	}
	/* A UDP checksum of 0 means none: it stays 0. */
	if (l4check && udp && !*l4check)
		l4check = 0;
	if (new_src != old_src) {
		iph->check = csum_replace4(iph->check, old_src, new_src);
		if (l4check)
			*l4check = csum_replace4(*l4check, old_src, new_src);
		iph->saddr = new_src;
	}
	if (new_dst != old_dst) {
		iph->check = csum_replace4(iph->check, old_dst, new_dst);
		if (l4check)
			*l4check = csum_replace4(*l4check, old_dst, new_dst);
		iph->daddr = new_dst;
	}
	/* A computed UDP checksum of 0 goes out as all ones (CSUM_MANGLED_0). */
	if (l4check && udp && !*l4check)
		*l4check = 0xffff;
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
