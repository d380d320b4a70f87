// SPDX-License-Identifier: GPL-2.0
/*
 * IPv6 receive, forwarding and neighbour discovery, rule by rule: frames
 * enter a capture device and what uxdp transmits is captured. Forwarding
 * resolves the next hop by a neighbour solicitation to its solicited-node
 * group and sends the queued packet after the advertisement (hop limit -
 * 1); each check of ip6_rcv_core() drops with its counter and reason
 * (short header, version, loopback and multicast scope rules, multicast
 * source, payload length beyond the data, bad or truncated hop-by-hop
 * options), a payload length short of the data trims; hop limit 1 -> time
 * exceeded; longer than the MTU -> packet too big with the MTU; a chain of
 * extension headers to the router ends at ICMPv6, one that never reaches
 * an upper layer or runs past the packet is truncated; malformed neighbour discovery (hop limit,
 * code, options) dropped with the kernel's reasons; echo; bpf_fib_lookup
 * for AF_INET6.
 */
#include <arpa/inet.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <net/dropreason.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/neighbour.h>
#include <net/route.h>

#include "cap_dev.h"

static struct net_device *in, *out;
static const u8 host_a_mac[ETH_ALEN] = { 0x02, 0xaa, 0, 0, 0, 1 };
static const u8 host_b_mac[ETH_ALEN] = { 0x02, 0xbb, 0, 0, 0, 2 };

static struct in6_addr a6(const char *s)
{
	struct in6_addr a;

	ck_assert_int_eq(inet_pton(AF_INET6, s, &a), 1);
	return a;
}

static void setup(void)
{
	struct in6_addr r0 = a6("2001:2::1"), r1 = a6("2001:2:0:1::1");

	jiffies_set_fake(1000000);
	in = cap_new("in0");
	out = cap_new("out0");
	ck_assert_int_eq(inet6_addr_add(in->ifindex, &r0, 64), 0);
	ck_assert_int_eq(inet6_addr_add(out->ifindex, &r1, 64), 0);
	ck_assert_int_eq(ipv6_sysctl_set("net.ipv6.conf.all.forwarding", "1"), 0);
	skb_drop_reason_reset();
}

static void teardown(void)
{
	char why[512];

	cap_drain(in);
	cap_drain(out);
	inet6_exit();
	inet_exit();
	netdev_unregister_all();
	jiffies_set_fake(0);
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}

static u64 ip6stat(int i)
{
	u64 v[IP6STATS_MIB_MAX];

	ipv6_mib_get(v, NULL);
	return v[i];
}

static u64 icmp6stat(int i)
{
	u64 v[ICMP6_MIB_MAX];

	ipv6_mib_get(NULL, v);
	return v[i];
}

/*
 * A frame from host A on @dev: Ethernet to @dmac (NULL: the device), IPv6
 * @saddr -> @daddr, next header @nh, hop limit @hlim, then @len bytes of
 * @payload; payload_len from @plen_fix if not 0 (-1: a payload_len of 0).
 */
static void rx6(struct net_device *dev, const u8 *dmac, const char *saddr, const char *daddr,
		u8 nh, u8 hlim, const void *payload, unsigned int len, int plen_fix)
{
	struct sk_buff *skb = netdev_alloc_skb(NULL, 128 + len + 40);
	struct ethhdr *eth;
	struct ipv6hdr *hdr;

	skb_reserve(skb, 2);
	eth = skb_put(skb, ETH_HLEN);
	memcpy(eth->h_dest, dmac ? dmac : dev->dev_addr, ETH_ALEN);
	memcpy(eth->h_source, dev == in ? host_a_mac : host_b_mac, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IPV6);
	hdr = skb_put_zero(skb, sizeof(*hdr));
	hdr->version = 6;
	hdr->payload_len = htons(plen_fix < 0 ? 0 : plen_fix ? plen_fix : len);
	hdr->nexthdr = nh;
	hdr->hop_limit = hlim;
	hdr->saddr = a6(saddr);
	hdr->daddr = a6(daddr);
	memcpy(skb_put(skb, len), payload, len);
	skb->protocol = eth_type_trans(skb, dev);
	netif_receive_skb(skb);
}

/* @len bytes of @ip as the IPv6 part of a frame from host A on in0. */
static void rx_raw(const void *ip, unsigned int len)
{
	struct sk_buff *skb = netdev_alloc_skb(NULL, 128 + len);
	struct ethhdr *eth;

	eth = skb_put(skb, ETH_HLEN);
	memcpy(eth->h_dest, in->dev_addr, ETH_ALEN);
	memcpy(eth->h_source, host_a_mac, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IPV6);
	memcpy(skb_put(skb, len), ip, len);
	skb->protocol = eth_type_trans(skb, in);
	netif_receive_skb(skb);
}

/* ICMPv6 message with a valid checksum for @saddr -> @daddr. */
static unsigned int icmp6_msg(u8 *buf, unsigned int len, const char *saddr, const char *daddr)
{
	struct in6_addr s = a6(saddr), d = a6(daddr);
	struct icmp6hdr *h = (struct icmp6hdr *)buf;

	h->icmp6_cksum = 0;
	h->icmp6_cksum = csum_ipv6_magic(&s, &d, len, IPPROTO_ICMPV6, buf);
	return len;
}

static void rx_udp(u8 hlim, unsigned int len)
{
	u8 udp[2000] = { 0, 9, 0, 9 };

	udp[4] = (len >> 8) & 0xff;
	udp[5] = len & 0xff;
	rx6(in, NULL, "2001:2::2", "2001:2:0:1::2", NEXTHDR_UDP, hlim, udp, len, 0);
}

/* The ICMPv6 message captured on @dev at @i: its header. */
static const struct icmp6hdr *icmp6_at(struct net_device *dev, int i, const struct ipv6hdr **hp)
{
	const struct sk_buff *skb;
	const struct ipv6hdr *hdr;
	const struct icmp6hdr *h;

	ck_assert_int_gt(capp(dev)->n, i);
	skb = capp(dev)->skbs[i];
	ck_assert_int_eq(ntohs(((const struct ethhdr *)skb->data)->h_proto), ETH_P_IPV6);
	hdr = (const struct ipv6hdr *)(skb->data + ETH_HLEN);
	ck_assert_int_eq(hdr->nexthdr, IPPROTO_ICMPV6);
	h = (const struct icmp6hdr *)(hdr + 1);
	ck_assert_int_eq(csum_ipv6_magic(&hdr->saddr, &hdr->daddr, ntohs(hdr->payload_len),
					 IPPROTO_ICMPV6, h), 0);
	if (hp)
		*hp = hdr;
	return h;
}

/* B answers uxdp's solicitation for 2001:2:0:1::2. */
static void rx_na_b(bool solicited, const u8 *mac)
{
	u8 m[32] = { NDISC_NEIGHBOUR_ADVERTISEMENT };
	struct in6_addr t = a6("2001:2:0:1::2");

	m[4] = solicited ? 0x60 : 0x20;	/* solicited, override */
	memcpy(m + 8, &t, 16);
	m[24] = ND_OPT_TARGET_LL_ADDR;
	m[25] = 1;
	memcpy(m + 26, mac, ETH_ALEN);
	icmp6_msg(m, 32, "2001:2:0:1::2", "2001:2:0:1::1");
	rx6(out, NULL, "2001:2:0:1::2", "2001:2:0:1::1", NEXTHDR_ICMP, 255, m, 32, 0);
}

/* Resolve B and drain: the forward path after this is the connected one. */
static void resolve_b(void)
{
	rx_udp(64, 64);
	rx_na_b(true, host_b_mac);
	cap_drain(out);
	cap_drain(in);
}

START_TEST(test_forward_ndp)
{
	const struct ipv6hdr *hdr;
	const struct icmp6hdr *h;
	struct in6_addr sol;
	struct neighbour *n;
	u8 mc[ETH_ALEN];

	rx_udp(64, 64);
	/* A solicitation to B's solicited-node group, from r1's link-local. */
	ck_assert_int_eq(capp(out)->n, 1);
	h = icmp6_at(out, 0, &hdr);
	ck_assert_int_eq(h->icmp6_type, NDISC_NEIGHBOUR_SOLICITATION);
	ck_assert_int_eq(hdr->hop_limit, 255);
	sol = a6("ff02::1:ff00:2");
	ck_assert(ipv6_addr_equal(&hdr->daddr, &sol));
	ck_assert(ipv6_addr_linklocal(&hdr->saddr));
	ipv6_eth_mc_map(&sol, mc);
	ck_assert(!memcmp(capp(out)->skbs[0]->data, mc, ETH_ALEN));
	n = neigh_lookup(&nd_tbl, &(struct in6_addr){ .s6_addr = { 0x20, 0x01, 0, 2, 0, 0, 0, 1,
		[15] = 2 } }, out);
	ck_assert_ptr_nonnull(n);
	ck_assert_int_eq(n->nud_state, NUD_INCOMPLETE);
	rx_na_b(true, host_b_mac);
	ck_assert_int_eq(n->nud_state, NUD_REACHABLE);
	ck_assert_int_eq(capp(out)->n, 2);	/* the queued datagram */
	ck_assert(!memcmp(capp(out)->skbs[1]->data, host_b_mac, ETH_ALEN));
	hdr = (const struct ipv6hdr *)(capp(out)->skbs[1]->data + ETH_HLEN);
	ck_assert_int_eq(hdr->hop_limit, 63);
	ck_assert_int_eq(hdr->nexthdr, NEXTHDR_UDP);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_OUTFORWDATAGRAMS), 1);
	/* Unsolicited, same address: no change (__neigh_update keeps the state). */
	rx_na_b(false, host_b_mac);
	ck_assert_int_eq(n->nud_state, NUD_REACHABLE);
	/* Unsolicited with override and a new address: taken, but only STALE. */
	rx_na_b(false, host_a_mac);
	ck_assert_int_eq(n->nud_state, NUD_STALE);
	{
		u8 ha[ETH_ALEN];

		neigh_ha_snapshot(ha, n);
		ck_assert(!memcmp(ha, host_a_mac, ETH_ALEN));
	}
}
END_TEST

START_TEST(test_hop_limit)
{
	const struct icmp6hdr *h;

	resolve_b();
	rx_udp(1, 64);
	ck_assert_int_eq(capp(out)->n, 0);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INHDRERRORS), 1);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_IP_INHDR), 1);
	/* The time exceeded goes back to A, which must be resolved first. */
	ck_assert_int_eq(capp(in)->n, 1);
	h = icmp6_at(in, 0, NULL);
	ck_assert_int_eq(h->icmp6_type, NDISC_NEIGHBOUR_SOLICITATION);
}
END_TEST

START_TEST(test_too_big)
{
	struct net_device *o = out;

	resolve_b();
	o->mtu = 1400;
	rx_udp(64, 1400 - 40 + 1);
	ck_assert_int_eq(capp(out)->n, 0);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INTOOBIGERRORS), 1);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_FRAGFAILS), 1);
	ck_assert_uint_eq(icmp6stat(ICMP6_MIB_OUTPKTTOOBIGS), 1);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_PKT_TOO_BIG), 1);
	rx_udp(64, 1400 - 40);	/* fits exactly */
	ck_assert_int_eq(capp(out)->n, 1);
}
END_TEST

START_TEST(test_rcv_core_checks)
{
	u8 p[64] = { 0 };

	/* Shorter than the fixed header. */
	memset(p, 0x60, 20);
	rx_raw(p, 20);
	memset(p, 0, 20);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INHDRERRORS), 1);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_IP_INHDR), 1);
	/* Payload length beyond the data. */
	rx6(in, NULL, "2001:2::2", "2001:2:0:1::2", NEXTHDR_UDP, 64, p, 16, 17);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INTRUNCATEDPKTS), 1);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_PKT_TOO_SMALL), 1);
	/* Multicast source; loopback destination. */
	rx6(in, NULL, "ff02::1", "2001:2:0:1::2", NEXTHDR_UDP, 64, p, 16, 0);
	rx6(in, NULL, "2001:2::2", "::1", NEXTHDR_UDP, 64, p, 16, 0);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INHDRERRORS), 3);
	/* Another host's MAC: OTHERHOST before InReceives. */
	rx6(in, host_b_mac, "2001:2::2", "2001:2:0:1::2", NEXTHDR_UDP, 64, p, 16, 0);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_OTHERHOST), 1);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INPKTS), 4);
	/* Bad hop-by-hop: an option running past its header. */
	p[0] = NEXTHDR_NONE;
	p[1] = 0;
	p[2] = 1;	/* PadN */
	p[3] = 10;
	rx6(in, NULL, "2001:2::2", "2001:2:0:1::2", NEXTHDR_HOP, 64, p, 8, 0);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INHDRERRORS), 4);
	/* An unknown option of type 10xxxxxx: parameter problem to A. */
	p[2] = 0x80;
	p[3] = 4;
	rx6(in, NULL, "2001:2::2", "2001:2:0:1::2", NEXTHDR_HOP, 64, p, 8, 0);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INHDRERRORS), 5);
	ck_assert_uint_eq(icmp6stat(ICMP6_MIB_OUTPARMPROBLEMS), 1);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_UNHANDLED_PROTO), 1);
	/* A truncated hop-by-hop header. */
	rx6(in, NULL, "2001:2::2", "2001:2:0:1::2", NEXTHDR_HOP, 64, p, 4, 0);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INHDRERRORS), 6);
}
END_TEST

/*
 * ip6_rcv_core()'s other header checks, each with InHdrErrors and its
 * reason, and a payload length shorter than the data (trimmed, forwarded).
 */
START_TEST(test_rcv_core_malformed)
{
	static const char *const bad_daddr[] = { "ff01::1", "ff00::1", "::1" };
	u8 f[40 + 16] = { 0 };
	struct ipv6hdr *hdr = (struct ipv6hdr *)f;
	const struct ipv6hdr *fw;
	u8 p[64] = { 0 };
	u64 hdrerr;

	resolve_b();
	hdrerr = ip6stat(IP6STATS_MIB_INHDRERRORS);
	/* Version 4 in an IPv6 frame: UNHANDLED_PROTO. */
	hdr->version = 4;
	hdr->payload_len = htons(16);
	hdr->nexthdr = NEXTHDR_UDP;
	hdr->hop_limit = 64;
	hdr->saddr = a6("2001:2::2");
	hdr->daddr = a6("2001:2:0:1::2");
	rx_raw(f, sizeof(f));
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INHDRERRORS), hdrerr + 1);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_UNHANDLED_PROTO), 1);
	/* Interface-local and scope-0 multicast, loopback destinations; loopback source. */
	for (unsigned int i = 0; i < sizeof(bad_daddr) / sizeof(bad_daddr[0]); i++)
		rx6(in, NULL, "2001:2::2", bad_daddr[i], NEXTHDR_UDP, 64, p, 16, 0);
	rx6(in, NULL, "::1", "2001:2:0:1::2", NEXTHDR_UDP, 64, p, 16, 0);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INHDRERRORS), hdrerr + 5);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_IP_INHDR), 4);
	/* Payload length 0 without hop-by-hop: a 40-byte datagram, forwarded as such. */
	ck_assert_int_eq(capp(out)->n, 0);
	rx6(in, NULL, "2001:2::2", "2001:2:0:1::2", NEXTHDR_NONE, 64, p, 16, -1);
	/* Payload length 8 of 16 bytes: trimmed to 8 and forwarded. */
	rx6(in, NULL, "2001:2::2", "2001:2:0:1::2", NEXTHDR_UDP, 64, p, 16, 8);
	ck_assert_int_eq(capp(out)->n, 2);
	ck_assert_uint_eq(capp(out)->skbs[0]->len, ETH_HLEN + 40);
	ck_assert_uint_eq(capp(out)->skbs[1]->len, ETH_HLEN + 40 + 8);
	fw = (const struct ipv6hdr *)(capp(out)->skbs[1]->data + ETH_HLEN);
	ck_assert_uint_eq(ntohs(fw->payload_len), 8);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INHDRERRORS), hdrerr + 5);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INTRUNCATEDPKTS), 0);
}
END_TEST

/*
 * Chains of extension headers to the router that never reach an upper
 * layer: each header moves the walk forward by its own length, so a chain
 * to the end of the packet (or one whose last length points past it) is a
 * truncated packet, never a loop; PKT_TOO_SMALL and InHdrErrors.
 */
START_TEST(test_exthdr_chain_unterminated)
{
	u8 p[8 * 150];

	memset(p, 0, sizeof(p));
	for (unsigned int off = 0; off < sizeof(p); off += 8) {
		p[off] = NEXTHDR_DEST;
		p[off + 2] = 1;	/* PadN 4 */
		p[off + 3] = 4;
	}
	rx6(in, NULL, "2001:2::2", "2001:2::1", NEXTHDR_DEST, 64, p, sizeof(p), 0);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INHDRERRORS), 1);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_PKT_TOO_SMALL), 1);
	/* The last header's length runs past the end, then "ICMPv6". */
	p[8 * 149] = NEXTHDR_ICMP;
	p[8 * 149 + 1] = 4;
	rx6(in, NULL, "2001:2::2", "2001:2::1", NEXTHDR_DEST, 64, p, sizeof(p), 0);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INHDRERRORS), 2);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_PKT_TOO_SMALL), 2);
	/* Ended by "no next header" after 150 headers: delivered and consumed. */
	p[8 * 149] = NEXTHDR_NONE;
	p[8 * 149 + 1] = 0;
	rx6(in, NULL, "2001:2::2", "2001:2::1", NEXTHDR_DEST, 64, p, sizeof(p), 0);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INHDRERRORS), 2);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INDELIVERS), 1);
	ck_assert_int_eq(capp(in)->n, 0);
}
END_TEST

START_TEST(test_exthdr_chain_to_us)
{
	u8 p[8 * 40 + 8];
	unsigned int off = 0;
	u8 *echo;

	/* 40 destination options headers (an "extension header loop"), then echo. */
	memset(p, 0, sizeof(p));
	for (int i = 0; i < 40; i++, off += 8) {
		p[off] = i == 39 ? NEXTHDR_ICMP : NEXTHDR_DEST;
		p[off + 2] = 1;	/* PadN 4 */
		p[off + 3] = 4;
	}
	echo = p + off;
	echo[0] = ICMPV6_ECHO_REQUEST;
	icmp6_msg(echo, 8, "2001:2::2", "2001:2::1");
	rx6(in, NULL, "2001:2::2", "2001:2::1", NEXTHDR_DEST, 64, p, sizeof(p), 0);
	ck_assert_uint_eq(icmp6stat(ICMP6_MIB_INECHOS), 1);
	ck_assert_uint_eq(icmp6stat(ICMP6_MIB_OUTECHOREPLIES), 1);
	/* The chain cut short: dropped, counted, no crash. */
	rx6(in, NULL, "2001:2::2", "2001:2::1", NEXTHDR_DEST, 64, p, 8 * 20 + 1, 0);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INHDRERRORS), 1);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_PKT_TOO_SMALL), 1);
	/* Hop-by-hop not first: unknown next header. */
	p[0] = NEXTHDR_HOP;
	rx6(in, NULL, "2001:2::2", "2001:2::1", NEXTHDR_DEST, 64, p, sizeof(p), 0);
	ck_assert_uint_eq(ip6stat(IP6STATS_MIB_INUNKNOWNPROTOS), 1);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_IP_NOPROTO), 1);
}
END_TEST

START_TEST(test_ndisc_malformed)
{
	u8 m[32] = { NDISC_NEIGHBOUR_SOLICITATION };
	struct in6_addr t = a6("2001:2::1");

	memcpy(m + 8, &t, 16);
	m[24] = ND_OPT_SOURCE_LL_ADDR;
	m[25] = 1;
	memcpy(m + 26, host_a_mac, ETH_ALEN);
	icmp6_msg(m, 32, "2001:2::2", "ff02::1:ff00:1");
	rx6(in, (const u8 *)"\x33\x33\xff\x00\x00\x01", "2001:2::2", "ff02::1:ff00:1",
	    NEXTHDR_ICMP, 64, m, 32, 0);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_IPV6_NDISC_HOP_LIMIT), 1);
	m[1] = 1;	/* code */
	icmp6_msg(m, 32, "2001:2::2", "ff02::1:ff00:1");
	rx6(in, (const u8 *)"\x33\x33\xff\x00\x00\x01", "2001:2::2", "ff02::1:ff00:1",
	    NEXTHDR_ICMP, 255, m, 32, 0);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_IPV6_NDISC_BAD_CODE), 1);
	m[1] = 0;
	m[25] = 0;	/* option length 0 */
	icmp6_msg(m, 32, "2001:2::2", "ff02::1:ff00:1");
	rx6(in, (const u8 *)"\x33\x33\xff\x00\x00\x01", "2001:2::2", "ff02::1:ff00:1",
	    NEXTHDR_ICMP, 255, m, 32, 0);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_IPV6_NDISC_BAD_OPTIONS), 1);
	ck_assert_int_eq(capp(in)->n, 0);
	/* A bad checksum. */
	m[25] = 1;
	m[2] ^= 1;
	rx6(in, (const u8 *)"\x33\x33\xff\x00\x00\x01", "2001:2::2", "ff02::1:ff00:1",
	    NEXTHDR_ICMP, 255, m, 32, 0);
	ck_assert_uint_eq(icmp6stat(ICMP6_MIB_CSUMERRORS), 1);
	/* The valid one: an advertisement for 2001:2::1 with r0's MAC, solicited, override. */
	icmp6_msg(m, 32, "2001:2::2", "ff02::1:ff00:1");
	rx6(in, (const u8 *)"\x33\x33\xff\x00\x00\x01", "2001:2::2", "ff02::1:ff00:1",
	    NEXTHDR_ICMP, 255, m, 32, 0);
	ck_assert_int_eq(capp(in)->n, 1);
	{
		const struct ipv6hdr *hdr;
		const struct icmp6hdr *h = icmp6_at(in, 0, &hdr);
		const u8 *opt = (const u8 *)h + 24;

		ck_assert_int_eq(h->icmp6_type, NDISC_NEIGHBOUR_ADVERTISEMENT);
		ck_assert_int_eq(h->icmp6_router, 1);
		ck_assert_int_eq(h->icmp6_solicited, 1);
		ck_assert_int_eq(h->icmp6_override, 1);
		ck_assert(ipv6_addr_equal(&hdr->saddr, &t));
		ck_assert_int_eq(opt[0], ND_OPT_TARGET_LL_ADDR);
		ck_assert(!memcmp(opt + 2, in->dev_addr, ETH_ALEN));
		ck_assert(!memcmp(capp(in)->skbs[0]->data, host_a_mac, ETH_ALEN));
	}
	/* A solicitation for another host. */
	t = a6("2001:2::9");
	memcpy(m + 8, &t, 16);
	icmp6_msg(m, 32, "2001:2::2", "ff02::1:ff00:9");
	rx6(in, (const u8 *)"\x33\x33\xff\x00\x00\x09", "2001:2::2", "ff02::1:ff00:9",
	    NEXTHDR_ICMP, 255, m, 32, 0);
	ck_assert_int_eq(capp(in)->n, 1);
}
END_TEST

START_TEST(test_bpf_fib_lookup6)
{
	struct bpf_fib_lookup p = { .family = AF_INET6, .ifindex = in->ifindex };
	struct in6_addr d = a6("2001:2:0:1::2"), s = a6("2001:2::2");

	memcpy(p.ipv6_dst, &d, 16);
	memcpy(p.ipv6_src, &s, 16);
	ck_assert_int_eq(bpf_fib_lookup_hook(NULL, &p, 0), BPF_FIB_LKUP_RET_NO_NEIGH);
	resolve_b();
	p.ifindex = in->ifindex;
	memcpy(p.ipv6_dst, &d, 16);
	ck_assert_int_eq(bpf_fib_lookup_hook(NULL, &p, 0), BPF_FIB_LKUP_RET_SUCCESS);
	ck_assert_int_eq(p.ifindex, out->ifindex);
	ck_assert(!memcmp(p.dmac, host_b_mac, ETH_ALEN));
	ck_assert(!memcmp(p.smac, out->dev_addr, ETH_ALEN));
	p.ifindex = in->ifindex;
	p.tot_len = 1501;
	ck_assert_int_eq(bpf_fib_lookup_hook(NULL, &p, 0), BPF_FIB_LKUP_RET_FRAG_NEEDED);
	ck_assert_int_eq(p.mtu_result, 1500);
	p.tot_len = 0;
	d = a6("2001:3::1");
	memcpy(p.ipv6_dst, &d, 16);
	ck_assert_int_eq(bpf_fib_lookup_hook(NULL, &p, 0), BPF_FIB_LKUP_RET_NOT_FWDED);
	ck_assert_int_eq(ipv6_sysctl_set("net.ipv6.conf.all.forwarding", "0"), 0);
	ck_assert_int_eq(bpf_fib_lookup_hook(NULL, &p, 0), BPF_FIB_LKUP_RET_FWD_DISABLED);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("ipv6");
	TCase *tc = tcase_create("forward");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_forward_ndp);
	tcase_add_test(tc, test_hop_limit);
	tcase_add_test(tc, test_too_big);
	tcase_add_test(tc, test_rcv_core_checks);
	tcase_add_test(tc, test_rcv_core_malformed);
	tcase_add_test(tc, test_exthdr_chain_unterminated);
	tcase_add_test(tc, test_exthdr_chain_to_us);
	tcase_add_test(tc, test_ndisc_malformed);
	tcase_add_test(tc, test_bpf_fib_lookup6);
	suite_add_tcase(s, tc);
	return s;
}
