// SPDX-License-Identifier: GPL-2.0
/*
 * IPv4 receive and forwarding, rule by rule: a frame enters a "capture"
 * device (eth_type_trans + netif_receive_skb), and what the router
 * transmits is captured on the output devices. Checks the forwarded frame
 * (TTL - 1, valid checksum equal to a full recomputation, MACs rewritten
 * from the neighbour and the output device), each drop rule of
 * ip_rcv_core()/ip_forward() with its SNMP counter and ICMP error (type,
 * code, quoted header, MTU), OTHERHOST dropped before InReceives,
 * ip_forward=0, ARP replies and echo replies for own addresses,
 * ip_decrease_ttl()'s 0xFFFF rule, and bpf_fib_lookup answers.
 */
#include <arpa/inet.h>
#include <string.h>
#include <linux/if_arp.h>

#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/neighbour.h>
#include <net/route.h>

#include "cap_dev.h"

static struct net_device *in, *out;
static const u8 host_a_mac[ETH_ALEN] = { 0x02, 0xaa, 0, 0, 0, 1 };
static const u8 host_b_mac[ETH_ALEN] = { 0x02, 0xbb, 0, 0, 0, 2 };

static u32 ip(const char *s)
{
	struct in_addr a;

	inet_pton(AF_INET, s, &a);
	return a.s_addr;
}

static void setup(void)
{
	in = cap_new("in0");
	out = cap_new("out0");
	/* 198.18.0.1/24 on in0 (host A .2), 198.19.0.1/24 on out0 (host B .2) */
	ck_assert_int_eq(inet_addr_add(in->ifindex, ip("198.18.0.1"), 24), 0);
	ck_assert_int_eq(inet_addr_add(out->ifindex, ip("198.19.0.1"), 24), 0);
	ck_assert_int_eq(neigh_add(ip("198.18.0.2"), in->ifindex, host_a_mac), 0);
	ck_assert_int_eq(neigh_add(ip("198.19.0.2"), out->ifindex, host_b_mac), 0);
	ck_assert_int_eq(ipv4_sysctl_set("net.ipv4.ip_forward", "1"), 0);
}

static void teardown(void)
{
	char why[512];

	cap_drain(in);
	cap_drain(out);
	inet_exit();
	netdev_unregister_all();
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}

struct pkt_opts {
	u8 ttl;
	u16 frag_off;		/* host order */
	const u8 *opts;
	int optlen;
	int payload;		/* UDP payload bytes */
	const u8 *dst_mac;	/* default: in0's */
	const char *daddr;
};

/* Ethernet + IPv4 (+ options) + UDP; returns the skb (not yet received). */
static struct sk_buff *mk_pkt(const struct pkt_opts *o)
{
	int ihl = 5 + o->optlen / 4;
	int payload = o->payload ? o->payload : 18;
	struct sk_buff *skb = netdev_alloc_skb(NULL, 256 + payload + 64);
	struct ethhdr *eth;
	struct iphdr *iph;
	u8 *udp;

	skb_reserve(skb, 2);
	eth = skb_put(skb, ETH_HLEN);
	memcpy(eth->h_dest, o->dst_mac ? o->dst_mac : in->dev_addr, ETH_ALEN);
	memcpy(eth->h_source, host_a_mac, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	iph = skb_put_zero(skb, ihl * 4);
	iph->version = 4;
	iph->ihl = ihl;
	iph->tot_len = htons(ihl * 4 + 8 + payload);
	iph->id = htons(0x1234);
	iph->frag_off = htons(o->frag_off);
	iph->ttl = o->ttl ? o->ttl : 64;
	iph->protocol = IPPROTO_UDP;
	iph->saddr = ip("198.18.0.2");
	iph->daddr = ip(o->daddr ? o->daddr : "198.19.0.2");
	if (o->optlen)
		memcpy(iph + 1, o->opts, o->optlen);
	ip_send_check(iph);
	udp = skb_put_zero(skb, 8 + payload);
	udp[1] = 9;
	udp[3] = 9;
	udp[5] = 8 + payload;
	return skb;
}

static void rx(struct sk_buff *skb)
{
	skb->protocol = eth_type_trans(skb, in);
	netif_receive_skb(skb);
}

static u64 ipstat(int i)
{
	u64 v[IPSTATS_MIB_MAX];

	ipv4_mib_get(v, NULL);
	return v[i];
}

static u64 icmpstat(int i)
{
	u64 v[ICMP_MIB_MAX];

	ipv4_mib_get(NULL, v);
	return v[i];
}

/* The ICMP error sent back to host A on in0: type, code; returns its icmphdr. */
static const struct icmphdr *icmp_back(int type, int code)
{
	const struct sk_buff *skb;
	const struct ethhdr *eth;
	const struct iphdr *iph;
	const struct icmphdr *icmph;

	ck_assert_int_eq(capp(in)->n, 1);
	skb = capp(in)->skbs[0];
	eth = (const struct ethhdr *)skb->data;
	ck_assert(!memcmp(eth->h_dest, host_a_mac, ETH_ALEN));
	ck_assert(!memcmp(eth->h_source, in->dev_addr, ETH_ALEN));
	iph = (const struct iphdr *)(eth + 1);
	ck_assert_int_eq(ip_fast_csum(iph, iph->ihl), 0);
	ck_assert_int_eq(iph->protocol, IPPROTO_ICMP);
	ck_assert_uint_eq(iph->daddr, ip("198.18.0.2"));
	if (type != ICMP_ECHOREPLY)	/* errors: from the route back's source */
		ck_assert_uint_eq(iph->saddr, ip("198.18.0.1"));
	icmph = (const struct icmphdr *)(iph + 1);
	ck_assert_int_eq(icmph->type, type);
	ck_assert_int_eq(icmph->code, code);
	ck_assert_int_eq(ip_compute_csum(icmph, ntohs(iph->tot_len) - 20), 0);
	return icmph;
}

START_TEST(test_forward)
{
	struct pkt_opts o = {};
	const struct iphdr *iph;
	const struct ethhdr *eth;
	struct iphdr copy;

	rx(mk_pkt(&o));
	ck_assert_int_eq(capp(out)->n, 1);
	ck_assert_int_eq(capp(in)->n, 0);
	eth = (const struct ethhdr *)capp(out)->skbs[0]->data;
	ck_assert(!memcmp(eth->h_dest, host_b_mac, ETH_ALEN));
	ck_assert(!memcmp(eth->h_source, out->dev_addr, ETH_ALEN));
	ck_assert_int_eq(ntohs(eth->h_proto), ETH_P_IP);
	iph = (const struct iphdr *)(eth + 1);
	ck_assert_int_eq(iph->ttl, 63);
	ck_assert_int_eq(ip_fast_csum(iph, 5), 0);
	copy = *iph;
	ip_send_check(&copy);
	ck_assert_uint_eq(copy.check, iph->check);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INPKTS), 1);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_OUTFORWDATAGRAMS), 1);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_OUTPKTS), 1);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INHDRERRORS), 0);
}
END_TEST

START_TEST(test_ttl_expired)
{
	struct pkt_opts o = { .ttl = 1 };
	const struct icmphdr *icmph;
	const struct iphdr *quoted;

	rx(mk_pkt(&o));
	ck_assert_int_eq(capp(out)->n, 0);
	icmph = icmp_back(ICMP_TIME_EXCEEDED, ICMP_EXC_TTL);
	quoted = (const struct iphdr *)(icmph + 1);
	/* Quoted before the decrement: TTL still 1, checksum intact. */
	ck_assert_int_eq(quoted->ttl, 1);
	ck_assert_int_eq(ip_fast_csum(quoted, 5), 0);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INHDRERRORS), 1);
	ck_assert_uint_eq(icmpstat(ICMP_MIB_OUTTIMEEXCDS), 1);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_OUTFORWDATAGRAMS), 0);
	/* TTL 2 goes through with TTL 1. */
	cap_drain(in);
	o.ttl = 2;
	rx(mk_pkt(&o));
	ck_assert_int_eq(capp(out)->n, 1);
	ck_assert_int_eq(capp(in)->n, 0);
}
END_TEST

START_TEST(test_bad_csum)
{
	struct pkt_opts o = {};
	struct sk_buff *skb = mk_pkt(&o);

	((struct iphdr *)(skb->data + ETH_HLEN))->check ^= htons(1);
	rx(skb);
	ck_assert_int_eq(capp(out)->n + capp(in)->n, 0);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_CSUMERRORS), 1);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INHDRERRORS), 1);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INPKTS), 1);
}
END_TEST

START_TEST(test_bad_version_ihl)
{
	struct pkt_opts o = {};
	struct sk_buff *skb = mk_pkt(&o);
	struct iphdr *iph = (struct iphdr *)(skb->data + ETH_HLEN);

	iph->version = 6;
	ip_send_check(iph);
	rx(skb);
	skb = mk_pkt(&o);
	iph = (struct iphdr *)(skb->data + ETH_HLEN);
	iph->ihl = 4;
	rx(skb);
	ck_assert_int_eq(capp(out)->n + capp(in)->n, 0);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INHDRERRORS), 2);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_CSUMERRORS), 0);
}
END_TEST

START_TEST(test_short)
{
	struct pkt_opts o = {};
	struct sk_buff *skb = mk_pkt(&o);
	struct iphdr *iph = (struct iphdr *)(skb->data + ETH_HLEN);

	/* tot_len beyond the frame: truncated. */
	iph->tot_len = htons(ntohs(iph->tot_len) + 1);
	ip_send_check(iph);
	rx(skb);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INTRUNCATEDPKTS), 1);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INHDRERRORS), 0);
	/* Fewer than 20 bytes of IP: header error. */
	skb = mk_pkt(&o);
	skb_trim(skb, ETH_HLEN + 19);
	rx(skb);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INHDRERRORS), 1);
	/* tot_len below the header length. */
	skb = mk_pkt(&o);
	iph = (struct iphdr *)(skb->data + ETH_HLEN);
	iph->tot_len = htons(19);
	ip_send_check(iph);
	rx(skb);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INHDRERRORS), 2);
	ck_assert_int_eq(capp(out)->n + capp(in)->n, 0);
	/* Ethernet padding after tot_len is trimmed off before forwarding. */
	skb = mk_pkt(&o);
	memset(skb_put(skb, 10), 0xee, 10);
	rx(skb);
	ck_assert_int_eq(capp(out)->n, 1);
	ck_assert_uint_eq(capp(out)->skbs[0]->len, ETH_HLEN + 20 + 8 + 18);
}
END_TEST

START_TEST(test_options)
{
	static const u8 nops[4] = { IPOPT_NOOP, IPOPT_NOOP, IPOPT_NOOP, IPOPT_END };
	static const u8 bad[4] = { 0x44 /* TS */, 1, 0, 0 };	/* length 1 */
	static const u8 lsrr[8] = { IPOPT_LSRR, 7, 4, 198, 19, 0, 2, IPOPT_END };
	struct pkt_opts o = { .opts = nops, .optlen = 4 };
	const struct icmphdr *icmph;

	rx(mk_pkt(&o));
	ck_assert_int_eq(capp(out)->n, 1);
	ck_assert_int_eq(((const struct iphdr *)(capp(out)->skbs[0]->data + ETH_HLEN))->ttl, 63);
	o.opts = bad;
	rx(mk_pkt(&o));
	ck_assert_int_eq(capp(out)->n, 1);
	icmph = icmp_back(ICMP_PARAMETERPROB, 0);
	/* Pointer: byte 20, the option with the bad length (pp_ptr = optptr). */
	ck_assert_uint_eq(ntohl(icmph->un.gateway), 20U << 24);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INHDRERRORS), 1);
	cap_drain(in);
	o.opts = lsrr;
	o.optlen = 8;
	rx(mk_pkt(&o));
	ck_assert_int_eq(capp(out)->n, 1);
	ck_assert_int_eq(capp(in)->n, 0);
}
END_TEST

START_TEST(test_no_route)
{
	struct pkt_opts o = { .daddr = "203.0.113.9" };

	rx(mk_pkt(&o));
	icmp_back(ICMP_DEST_UNREACH, ICMP_NET_UNREACH);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INNOROUTES), 1);
	ck_assert_uint_eq(icmpstat(ICMP_MIB_OUTDESTUNREACHS), 1);
	/* A route via host B makes it forwardable. */
	ck_assert_int_eq(fib_route_add(ip("203.0.113.0"), 24, RTN_UNICAST, ip("198.19.0.2"), 0), 0);
	rx(mk_pkt(&o));
	ck_assert_int_eq(capp(out)->n, 1);
	ck_assert(!memcmp(capp(out)->skbs[0]->data, host_b_mac, ETH_ALEN));
	/* A gateway that is not on a connected route is refused. */
	ck_assert_int_eq(fib_route_add(ip("10.0.0.0"), 8, RTN_UNICAST, ip("192.0.2.1"), 0),
			 -ENETUNREACH);
}
END_TEST

START_TEST(test_forwarding_off)
{
	struct pkt_opts o = {};

	ck_assert_int_eq(ipv4_sysctl_set("net.ipv4.ip_forward", "0"), 0);
	rx(mk_pkt(&o));
	ck_assert_int_eq(capp(out)->n + capp(in)->n, 0);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INADDRERRORS), 1);
	ck_assert_int_eq(ipv4_sysctl_set("net.ipv4.ip_forward", "2"), -EINVAL);
	ck_assert_int_eq(ipv4_sysctl_set("net.ipv4.nope", "1"), -ENOENT);
}
END_TEST

START_TEST(test_df_mtu)
{
	struct pkt_opts o = { .frag_off = IP_DF, .payload = 1400 };
	const struct icmphdr *icmph;

	out->mtu = 1000;
	rx(mk_pkt(&o));
	ck_assert_int_eq(capp(out)->n, 0);
	icmph = icmp_back(ICMP_DEST_UNREACH, ICMP_FRAG_NEEDED);
	ck_assert_uint_eq(ntohs(icmph->un.frag.mtu), 1000);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_FRAGFAILS), 1);
	/* Quote capped at 576 bytes in all. */
	ck_assert_uint_eq(capp(in)->skbs[0]->len, ETH_HLEN + 576);
	/* Exactly the MTU passes. */
	o.payload = 1000 - 28;
	rx(mk_pkt(&o));
	ck_assert_int_eq(capp(out)->n, 1);
}
END_TEST

START_TEST(test_otherhost_first)
{
	static const u8 other[ETH_ALEN] = { 0x02, 0x99, 0, 0, 0, 9 };
	struct pkt_opts o = { .dst_mac = other, .ttl = 1 };
	struct rtnl_link_stats64 s;

	rx(mk_pkt(&o));
	ck_assert_int_eq(capp(out)->n + capp(in)->n, 0);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INPKTS), 0);
	ck_assert_uint_eq(ipstat(IPSTATS_MIB_INHDRERRORS), 0);
	dev_get_stats(in, &s);
	ck_assert_uint_eq(s.rx_otherhost_dropped, 1);
}
END_TEST

START_TEST(test_echo_and_arp)
{
	struct sk_buff *skb = netdev_alloc_skb(NULL, 256);
	struct ethhdr *eth;
	struct iphdr *iph;
	struct icmphdr *icmph;
	struct arphdr *arp;
	u8 *b;

	skb_reserve(skb, 2);
	eth = skb_put(skb, ETH_HLEN);
	memcpy(eth->h_dest, in->dev_addr, ETH_ALEN);
	memcpy(eth->h_source, host_a_mac, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	iph = skb_put_zero(skb, 20);
	iph->version = 4;
	iph->ihl = 5;
	iph->tot_len = htons(20 + 8 + 4);
	iph->ttl = 64;
	iph->protocol = IPPROTO_ICMP;
	iph->saddr = ip("198.18.0.2");
	iph->daddr = ip("198.19.0.1");	/* out0's address: still local */
	ip_send_check(iph);
	icmph = skb_put_zero(skb, 8);
	icmph->type = ICMP_ECHO;
	icmph->un.echo.id = htons(77);
	icmph->un.echo.sequence = htons(5);
	memcpy(skb_put(skb, 4), "ping", 4);
	icmph->checksum = ip_compute_csum(icmph, 12);
	rx(skb);
	icmph = (struct icmphdr *)icmp_back(ICMP_ECHOREPLY, 0);
	ck_assert_int_eq(ntohs(icmph->un.echo.id), 77);
	ck_assert_int_eq(ntohs(icmph->un.echo.sequence), 5);
	ck_assert(!memcmp(icmph + 1, "ping", 4));
	ck_assert_uint_eq(((const struct iphdr *)icmph - 1)->saddr, ip("198.19.0.1"));
	ck_assert_uint_eq(icmpstat(ICMP_MIB_INECHOS), 1);
	ck_assert_uint_eq(icmpstat(ICMP_MIB_OUTECHOREPS), 1);
	cap_drain(in);

	/* ARP who-has 198.18.0.1 tell 198.18.0.2 */
	skb = netdev_alloc_skb(NULL, 128);
	eth = skb_put(skb, ETH_HLEN);
	memset(eth->h_dest, 0xff, ETH_ALEN);
	memcpy(eth->h_source, host_a_mac, ETH_ALEN);
	eth->h_proto = htons(ETH_P_ARP);
	arp = skb_put_zero(skb, sizeof(*arp) + 20);
	arp->ar_hrd = htons(ARPHRD_ETHER);
	arp->ar_pro = htons(ETH_P_IP);
	arp->ar_hln = 6;
	arp->ar_pln = 4;
	arp->ar_op = htons(ARPOP_REQUEST);
	b = (u8 *)(arp + 1);
	memcpy(b, host_a_mac, 6);
	memcpy(b + 6, (u32[]){ ip("198.18.0.2") }, 4);
	memcpy(b + 16, (u32[]){ ip("198.18.0.1") }, 4);
	rx(skb);
	ck_assert_int_eq(capp(in)->n, 1);
	eth = (struct ethhdr *)capp(in)->skbs[0]->data;
	ck_assert(!memcmp(eth->h_dest, host_a_mac, 6));
	arp = (struct arphdr *)(eth + 1);
	ck_assert_int_eq(ntohs(arp->ar_op), ARPOP_REPLY);
	b = (u8 *)(arp + 1);
	ck_assert(!memcmp(b, in->dev_addr, 6));
	ck_assert(!memcmp(b + 6, (u32[]){ ip("198.18.0.1") }, 4));
	ck_assert(!memcmp(b + 10, host_a_mac, 6));
}
END_TEST

START_TEST(test_decrease_ttl)
{
	struct iphdr iph = { .version = 4, .ihl = 5, .ttl = 64, .protocol = 17 };
	u32 seed = 1;

	/* Incremental update equals a full recomputation (except 0 vs 0xFFFF). */
	for (int i = 0; i < 100000; i++) {
		struct iphdr full;

		seed = seed * 1103515245 + 12345;
		iph.saddr = seed;
		iph.daddr = seed * 7;
		iph.id = seed >> 16;
		iph.ttl = 2 + (seed >> 8) % 250;
		ip_send_check(&iph);
		ip_decrease_ttl(&iph);
		full = iph;
		ip_send_check(&full);
		ck_assert(full.check == iph.check || (full.check == 0xffff && iph.check == 0) ||
			  (full.check == 0 && iph.check == 0xffff));
		ck_assert_int_eq(ip_fast_csum(&iph, 5), 0);
		/* 32-bit-word sum == 16-bit-word sum (RFC 1071). */
		iph.tos = seed >> 24;
		ck_assert_uint_eq(ip_fast_csum(&iph, 5), ip_compute_csum(&iph, 20));
		iph.tos = 0;
	}
	/* check + 0x0001 == 0xFFFF gives 0, not 0xFFFF. */
	iph.check = 0xfffe;
	iph.ttl = 5;
	ip_decrease_ttl(&iph);
	ck_assert_uint_eq(iph.check, 0);
	ck_assert_int_eq(iph.ttl, 4);
}
END_TEST

START_TEST(test_bpf_fib_lookup)
{
	struct bpf_fib_lookup p = {
		.family = AF_INET, .ifindex = in->ifindex,
		.ipv4_src = ip("198.18.0.2"), .ipv4_dst = ip("198.19.0.2"),
		.tot_len = 100,
	};

	ck_assert_ptr_nonnull(bpf_fib_lookup_hook);
	ck_assert_int_eq(bpf_fib_lookup_hook(NULL, &p, 0), BPF_FIB_LKUP_RET_SUCCESS);
	ck_assert_int_eq(p.ifindex, out->ifindex);
	ck_assert(!memcmp(p.dmac, host_b_mac, 6));
	ck_assert(!memcmp(p.smac, out->dev_addr, 6));
	p.ifindex = in->ifindex;
	p.ipv4_dst = ip("198.19.0.3");
	ck_assert_int_eq(bpf_fib_lookup_hook(NULL, &p, 0), BPF_FIB_LKUP_RET_NO_NEIGH);
	p.ifindex = in->ifindex;
	p.ipv4_dst = ip("8.8.8.8");
	ck_assert_int_eq(bpf_fib_lookup_hook(NULL, &p, 0), BPF_FIB_LKUP_RET_NOT_FWDED);
	p.ipv4_dst = ip("198.19.0.2");
	p.tot_len = 1501;
	ck_assert_int_eq(bpf_fib_lookup_hook(NULL, &p, 0), BPF_FIB_LKUP_RET_FRAG_NEEDED);
	ck_assert_int_eq(p.mtu_result, 1500);
	p.tot_len = 100;
	ipv4_sysctl_set("ip_forward", "0");
	ck_assert_int_eq(bpf_fib_lookup_hook(NULL, &p, 0), BPF_FIB_LKUP_RET_FWD_DISABLED);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("ipv4");
	TCase *tc = tcase_create("forward");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_forward);
	tcase_add_test(tc, test_ttl_expired);
	tcase_add_test(tc, test_bad_csum);
	tcase_add_test(tc, test_bad_version_ihl);
	tcase_add_test(tc, test_short);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_no_route);
	tcase_add_test(tc, test_forwarding_off);
	tcase_add_test(tc, test_df_mtu);
	tcase_add_test(tc, test_otherhost_first);
	tcase_add_test(tc, test_echo_and_arp);
	tcase_add_test(tc, test_decrease_ttl);
	tcase_add_test(tc, test_bpf_fib_lookup);
	suite_add_tcase(s, tc);
	return s;
}
