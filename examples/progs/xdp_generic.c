// SPDX-License-Identifier: GPL-2.0
/*
 * Programs for generic (skb-mode) XDP tests and the xdpgeneric-linearize
 * experiment.
 *
 * xdp_generic_probe / xdp_generic_probe_frags record what they are shown
 * in seen[] (0: data_end - data, 1: bpf_xdp_get_buff_len, 2: ingress
 * ifindex, 3: rx queue, 4: runs, 5..7: return of adjust_head, adjust_tail,
 * adjust_meta) and then do what cfg[] says: 1 adjust_head delta, 2
 * adjust_tail delta, 3 L2 edit (1 swap MACs, 2 Ethertype IPv6, 3 dst MAC
 * broadcast), 4 metadata bytes, 5 bpf_redirect ifindex, 0 verdict (0 means
 * XDP_PASS unless cfg[6] is set). Deltas are signed 32-bit values.
 *
 * xdp_generic_hdr / xdp_generic_hdr_frags read the Ethernet, IPv4 and
 * UDP/TCP headers (as a load balancer would), count per IP protocol and
 * pass.
 */
#include "parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} seen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 256);
} proto_cnt SEC(".maps");

static __always_inline __u64 cfg_get(__u32 key)
{
	__u64 *v = bpf_map_lookup_elem(&cfg, &key);

	return v ? *v : 0;
}

static __always_inline void seen_set(__u32 key, __u64 val)
{
	__u64 *v = bpf_map_lookup_elem(&seen, &key);

	if (v)
		*v = val;
}

static __always_inline int probe(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u64 act = cfg_get(0), l2 = cfg_get(3), meta = cfg_get(4), rdr = cfg_get(5);
	int dh = (int)cfg_get(1), dt = (int)cfg_get(2);
	__u32 key = 4;
	__u64 *runs;

	seen_set(0, data_end - data);
	seen_set(1, bpf_xdp_get_buff_len(ctx));
	seen_set(2, ctx->ingress_ifindex);
	seen_set(3, ctx->rx_queue_index);
	runs = bpf_map_lookup_elem(&seen, &key);
	if (runs)
		*runs += 1;
	if (l2) {
		struct ethhdr *eth = data;
		unsigned char tmp[ETH_ALEN];

		if ((void *)(eth + 1) > data_end)
			return XDP_ABORTED;
		if (l2 == 1) {
			__builtin_memcpy(tmp, eth->h_dest, ETH_ALEN);
			__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
			__builtin_memcpy(eth->h_source, tmp, ETH_ALEN);
		} else if (l2 == 2) {
			eth->h_proto = bpf_htons(ETH_P_IPV6);
		} else if (l2 == 3) {
			__builtin_memset(eth->h_dest, 0xff, ETH_ALEN);
		}
	}
	if (dh)
		seen_set(5, (__u64)(long)bpf_xdp_adjust_head(ctx, dh));
	if (dt)
		seen_set(6, (__u64)(long)bpf_xdp_adjust_tail(ctx, dt));
	if (meta)
		seen_set(7, (__u64)(long)bpf_xdp_adjust_meta(ctx, -(int)meta));
	if (rdr)
		return bpf_redirect((__u32)rdr, 0);
	if (cfg_get(6))
		return (int)act;	/* cfg[0] taken as is, XDP_ABORTED (0) included */
	return act ? (int)act : XDP_PASS;
}

SEC("xdp")
int xdp_generic_probe(struct xdp_md *ctx)
{
	return probe(ctx);
}

SEC("xdp.frags")
int xdp_generic_probe_frags(struct xdp_md *ctx)
{
	return probe(ctx);
}

static __always_inline int hdr(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *iph;
	__u32 key;
	__u64 *c;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	key = iph->protocol;
	if (key == IPPROTO_UDP) {
		struct udphdr *udp = (void *)iph + sizeof(*iph);

		if ((void *)(udp + 1) > data_end || !udp->dest)
			return XDP_PASS;
	} else if (key == IPPROTO_TCP) {
		struct tcphdr *tcp = (void *)iph + sizeof(*iph);

		if ((void *)(tcp + 1) > data_end || !tcp->dest)
			return XDP_PASS;
	}
	c = bpf_map_lookup_elem(&proto_cnt, &key);
	if (c)
		*c += 1;
	return XDP_PASS;
}

SEC("xdp")
int xdp_generic_hdr(struct xdp_md *ctx)
{
	return hdr(ctx);
}

SEC("xdp.frags")
int xdp_generic_hdr_frags(struct xdp_md *ctx)
{
	return hdr(ctx);
}

char _license[] SEC("license") = "GPL";
