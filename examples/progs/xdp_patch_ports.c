// SPDX-License-Identifier: GPL-2.0
/*
 * A program in a section libbpf does not know, SEC("xdp_patch_ports"): the
 * kernel loads it as XDP only when the loader says so (iproute2's `ip link
 * set dev X xdp obj F sec xdp_patch_ports`, bpftool's `type xdp`,
 * bpf_program__set_type()), and so does uxdp (`sec`, `name`, `type xdp`).
 *
 * IPv4 UDP and TCP: the destination port goes one down, the checksum is
 * updated incrementally (RFC 1624); patched_cnt[0] counts UDP, [1] TCP.
 */
#include "parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);
} patched_cnt SEC(".maps");

/* RFC 1624: HC' = ~(~HC + ~m + m') for one 16-bit word m -> m' */
static __always_inline __u16 csum_replace2(__u16 check, __u16 old, __u16 new)
{
	__u32 sum = (__u16)~check + (__u16)~old + new;

	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

static __always_inline void count(__u32 k)
{
	__u64 *c = bpf_map_lookup_elem(&patched_cnt, &k);

	if (c)
		__sync_fetch_and_add(c, 1);
}

/* *port one down, *check updated; UDP's 0 means "no checksum" and stays */
static __always_inline void patch_port(__be16 *port, __sum16 *check, int udp)
{
	__u16 old = *port, new = bpf_htons(bpf_ntohs(old) - 1);

	*port = new;
	if (udp && !*check)
		return;
	*check = csum_replace2(*check, old, new);
	if (udp && !*check)
		*check = 0xffff;
}

SEC("xdp_patch_ports")
int xdp_patch_ports_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	struct ethhdr *eth;
	struct iphdr *ip;

	if (parse_ethhdr(&nh, data_end, &eth) != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = nh.pos;
	if ((void *)(ip + 1) > data_end || ip->ihl != 5 || (ip->frag_off & bpf_htons(0x1fff)))
		return XDP_PASS;
	if (ip->protocol == IPPROTO_UDP) {
		struct udphdr *udp = (void *)(ip + 1);

		if ((void *)(udp + 1) > data_end)
			return XDP_ABORTED;
		patch_port(&udp->dest, &udp->check, 1);
		count(0);
	} else if (ip->protocol == IPPROTO_TCP) {
		struct tcphdr *tcp = (void *)(ip + 1);

		if ((void *)(tcp + 1) > data_end)
			return XDP_ABORTED;
		patch_port(&tcp->dest, &tcp->check, 0);
		count(1);
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
