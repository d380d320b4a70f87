// SPDX-License-Identifier: GPL-2.0
/*
 * The raw SYN cookie helpers of xdp-synproxy, over the frame's IPv4 or
 * IPv6 header and a SYN built on the stack (ports and sequence number
 * taken from the frame, an MSS option derived from it): the MSS each
 * cookie encodes (the family's table entry at or below the option, the
 * default without one), the check of the ACK that answers the cookie (0),
 * of a wrong cookie and of another flow (-EACCES), and the -EINVAL of a
 * length that is not the header's. Cookies themselves differ between
 * kernels (a secret per boot, per process in uxdp) and are not stored.
 */
#include "parse.h"
#include "rc_map.h"

enum {
	RC_FAMILY,
	RC_MSS_OPT,
	RC_MSS,
	RC_MSS_NOOPT,
	RC_CHECK_OK,
	RC_CHECK_BAD_COOKIE,
	RC_CHECK_OTHER_FLOW,
	RC_GEN_SHORT,
	RC_GEN_DOFF,
	RC_MAX,
};

RC_MAP(RC_MAX)

struct syn {
	struct tcphdr th;
	__u8 opt[4];	/* MSS */
};

static __always_inline void syn_init(struct syn *s, __u32 seed, __u16 mss)
{
	__builtin_memset(s, 0, sizeof(*s));
	s->th.source = bpf_htons(1024 + (seed & 0x7fff));
	s->th.dest = bpf_htons(443);
	s->th.seq = bpf_htonl(seed * 2654435761u);
	s->th.doff = sizeof(*s) / 4;
	s->th.syn = 1;
	s->opt[0] = 2;
	s->opt[1] = 4;
	s->opt[2] = mss >> 8;
	s->opt[3] = mss & 0xff;
}

/* The ACK a client sends back: seq + 1, the cookie + 1. */
static __always_inline void syn_to_ack(struct syn *s, __u32 cookie)
{
	s->th.seq = bpf_htonl(bpf_ntohl(s->th.seq) + 1);
	s->th.ack_seq = bpf_htonl(cookie + 1);
	s->th.syn = 0;
	s->th.ack = 1;
	s->th.doff = 5;
}

SEC("xdp")
int xdp_syncookie(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	struct ethhdr *eth;
	struct syn s;
	__s64 r;
	__u16 mss;
	int proto;

	proto = parse_ethhdr(&nh, data_end, &eth);
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr iph;

		if (nh.pos + sizeof(iph) > data_end)
			return XDP_PASS;
		__builtin_memcpy(&iph, nh.pos, sizeof(iph));
		set_rc(RC_FAMILY, 4);
		mss = 500 + iph.ttl * 16;
		syn_init(&s, bpf_ntohs(iph.id) ^ iph.saddr, mss);
		set_rc(RC_MSS_OPT, mss);
		r = bpf_tcp_raw_gen_syncookie_ipv4(&iph, &s.th, sizeof(s));
		set_rc(RC_MSS, r >> 32);
		set_rc(RC_GEN_SHORT, bpf_tcp_raw_gen_syncookie_ipv4(&iph, &s.th, 19));
		set_rc(RC_GEN_DOFF, bpf_tcp_raw_gen_syncookie_ipv4(&iph, &s.th, 20));
		syn_to_ack(&s, (__u32)r);
		set_rc(RC_CHECK_OK, bpf_tcp_raw_check_syncookie_ipv4(&iph, &s.th));
		s.th.ack_seq = bpf_htonl(bpf_ntohl(s.th.ack_seq) + 1);
		set_rc(RC_CHECK_BAD_COOKIE, bpf_tcp_raw_check_syncookie_ipv4(&iph, &s.th));
		s.th.ack_seq = bpf_htonl((__u32)r + 1);
		iph.saddr ^= bpf_htonl(1);
		set_rc(RC_CHECK_OTHER_FLOW, bpf_tcp_raw_check_syncookie_ipv4(&iph, &s.th));
		s.th.doff = 5;
		set_rc(RC_MSS_NOOPT, bpf_tcp_raw_gen_syncookie_ipv4(&iph, &s.th, 20) >> 32);
		return XDP_TX;
	}
	if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr ip6h;

		if (nh.pos + sizeof(ip6h) > data_end)
			return XDP_PASS;
		__builtin_memcpy(&ip6h, nh.pos, sizeof(ip6h));
		set_rc(RC_FAMILY, 6);
		mss = 1000 + ip6h.hop_limit * 64;
		syn_init(&s, ip6h.saddr.s6_addr32[3], mss);
		set_rc(RC_MSS_OPT, mss);
		r = bpf_tcp_raw_gen_syncookie_ipv6(&ip6h, &s.th, sizeof(s));
		set_rc(RC_MSS, r >> 32);
		set_rc(RC_GEN_SHORT, bpf_tcp_raw_gen_syncookie_ipv6(&ip6h, &s.th, 19));
		set_rc(RC_GEN_DOFF, bpf_tcp_raw_gen_syncookie_ipv6(&ip6h, &s.th, 20));
		syn_to_ack(&s, (__u32)r);
		set_rc(RC_CHECK_OK, bpf_tcp_raw_check_syncookie_ipv6(&ip6h, &s.th));
		s.th.ack_seq = bpf_htonl(bpf_ntohl(s.th.ack_seq) + 1);
		set_rc(RC_CHECK_BAD_COOKIE, bpf_tcp_raw_check_syncookie_ipv6(&ip6h, &s.th));
		s.th.ack_seq = bpf_htonl((__u32)r + 1);
		ip6h.daddr.s6_addr[15] ^= 1;
		set_rc(RC_CHECK_OTHER_FLOW, bpf_tcp_raw_check_syncookie_ipv6(&ip6h, &s.th));
		s.th.doff = 5;
		set_rc(RC_MSS_NOOPT, bpf_tcp_raw_gen_syncookie_ipv6(&ip6h, &s.th, 20) >> 32);
		return XDP_TX;
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
