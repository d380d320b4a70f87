// SPDX-License-Identifier: GPL-2.0
/*
 * gen: the frames it makes (lengths, IPv4 header checksum, UDP/IPv6 and
 * TCP checksums, address and port ranges walked round robin, frags), its
 * count, and that it behaves as a NIC rx path: without a program every
 * frame is an skb for the stack, page-pool memory comes back.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>

#include "engine_test_util.h"
#include "uxdp_test.h"

#define MAX_SEEN 64

/* Frames kept 2 bytes into an aligned slot: IP headers 4-aligned. */
static unsigned char seen[MAX_SEEN][4096 + 8] __attribute__((aligned(8)));
#define PKT(i) (seen[i] + 2)
static unsigned int seen_len[MAX_SEEN], nr_seen;
static bool seen_nonlinear[MAX_SEEN];

static int capture(struct sk_buff *skb, struct net_device *dev)
{
	if (nr_seen < MAX_SEEN) {
		/* eth_type_trans() pulled the MAC header: take it back. */
		seen_len[nr_seen] = skb->len + ETH_HLEN;
		seen_nonlinear[nr_seen] = skb_is_nonlinear(skb);
		ck_assert_int_eq(skb_copy_bits(skb, -ETH_HLEN, PKT(nr_seen), skb->len + ETH_HLEN), 0);
		nr_seen++;
	}
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

static struct packet_type ip_pt = { .func = capture };
static struct packet_type ip6_pt = { .func = capture };

static u16 csum16(const void *p, size_t n, u32 sum)
{
	const u8 *b = p;

	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (b[i] << 8) | b[i + 1];
	if (n & 1)
		sum += b[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)sum;
}

static void gen_run(const char *name, int argc, char **argv, u64 count)
{
	char err[256], c[32];
	struct net_device *gen;

	ck_assert_msg(uxdp_link_add(name, "gen", argc, argv, err, sizeof(err)) > 0, "%s", err);
	gen = test_dev(name);
	ip_pt.type = htons(ETH_P_IP);
	ip6_pt.type = htons(ETH_P_IPV6);
	dev_add_pack(&ip_pt);
	dev_add_pack(&ip6_pt);
	nr_seen = 0;
	snprintf(c, sizeof(c), "%llu", (unsigned long long)count);
	ck_assert_int_eq(gen->netdev_ops->ndo_set_param(gen, "run_count", c, err, sizeof(err)), 1);
	dev_napi_schedule_all(gen);
	for (int i = 0; i < 10000 && net_rx_pending(); i++)
		net_rx_action();
	ck_assert(!gen->netdev_ops->ndo_gen_active(gen));
	dev_remove_pack(&ip_pt);
	dev_remove_pack(&ip6_pt);
}

START_TEST(udp4_frames_and_ranges)
{
	char *args[] = { "size", "64", "src", "198.18.0.1-198.18.0.2", "dport", "7-8" };
	char why[256];

	gen_run("g0", 6, args, 10);
	ck_assert_uint_eq(nr_seen, 10);
	ck_assert_uint_eq(test_info("g0").rx_packets, 10);
	for (unsigned int i = 0; i < nr_seen; i++) {
		struct iphdr *ip = (struct iphdr *)(PKT(i) + ETH_HLEN);
		struct udphdr *uh = (struct udphdr *)(ip + 1);

		ck_assert_uint_eq(seen_len[i], 64);
		ck_assert_uint_eq(ntohs(ip->tot_len), 50);
		ck_assert_uint_eq(csum16(ip, 20, 0), 0xffff);
		ck_assert_uint_eq(ntohs(uh->len), 30);
		/* dport fastest, then src: 7,8 from .1, then 7,8 from .2, ... */
		ck_assert_uint_eq(ntohs(uh->dest), 7 + i % 2);
		ck_assert_uint_eq(((u8 *)&ip->saddr)[3], 1 + (i / 2) % 2);
		ck_assert_mem_eq(PKT(i), test_dev("g0")->dev_addr, ETH_ALEN);
	}
	uxdp_link_del_all();
	ck_assert_int_eq(skb_live_count(), 0);
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}
END_TEST

START_TEST(udp6_checksum)
{
	char *args[] = { "size", "100", "proto", "udp6" };

	gen_run("g6", 4, args, 2);
	ck_assert_uint_eq(nr_seen, 2);
	for (unsigned int i = 0; i < nr_seen; i++) {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)(PKT(i) + ETH_HLEN);
		unsigned int l4 = ntohs(ip6->payload_len);
		u32 sum;

		ck_assert_uint_eq(l4, 100 - 14 - 40);
		sum = csum16(&ip6->saddr, 32, 0) + IPPROTO_UDP + l4;
		ck_assert_uint_eq(csum16(ip6 + 1, l4, sum), 0xffff);
	}
	uxdp_link_del_all();
}
END_TEST

START_TEST(tcp_checksum)
{
	char *args[] = { "size", "80", "proto", "tcp" };
	struct iphdr *ip;
	u32 sum;

	gen_run("gt", 4, args, 1);
	ck_assert_uint_eq(nr_seen, 1);
	ip = (struct iphdr *)(PKT(0) + ETH_HLEN);
	ck_assert_uint_eq(ip->protocol, IPPROTO_TCP);
	sum = csum16(&ip->saddr, 8, 0) + IPPROTO_TCP + 80 - 34;
	ck_assert_uint_eq(csum16(ip + 1, 80 - 34, sum), 0xffff);
	uxdp_link_del_all();
}
END_TEST

START_TEST(frags_make_nonlinear_skbs)
{
	char *args[] = { "size", "3000", "frags", "2" };
	struct test_prog p = test_prog_load("xdp_action", XDP_PASS);
	char err[256], why[256];

	gen_run("gf", 4, args, 3);
	ck_assert_uint_eq(nr_seen, 3);
	for (unsigned int i = 0; i < nr_seen; i++) {
		struct iphdr *ip = (struct iphdr *)(PKT(i) + ETH_HLEN);

		ck_assert_uint_eq(seen_len[i], 3000);
		ck_assert(seen_nonlinear[i]);
		ck_assert_uint_eq(ntohs(ip->tot_len), 2986);
		ck_assert_uint_eq(csum16(ip, 20, 0), 0xffff);
	}
	/* A program that does not declare frags cannot be attached. */
	ck_assert_int_eq(uxdp_link_set_xdp("gf", p.prog_id, err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_msg(strstr(err, "xdp.frags"), "%s", err);
	uxdp_link_del_all();
	uxdp_bpf_object_close(p.obj);
	ck_assert_int_eq(skb_live_count(), 0);
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}
END_TEST

START_TEST(bad_arguments)
{
	char err[256];
	char *a1[] = { "size", "20" };
	char *a2[] = { "proto", "sctp" };
	char *a3[] = { "src", "198.18.0.9-198.18.0.1" };
	char *a4[] = { "size", "5000" };
	char *a5[] = { "proto", "udp6", "src", "198.18.0.1" };

	ck_assert_int_eq(uxdp_link_add("b", "gen", 2, a1, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "below"), "%s", err);
	ck_assert_int_eq(uxdp_link_add("b", "gen", 2, a2, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(uxdp_link_add("b", "gen", 2, a3, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(uxdp_link_add("b", "gen", 2, a4, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "frags"), "%s", err);
	ck_assert_int_eq(uxdp_link_add("b", "gen", 4, a5, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(uxdp_link_add("b", "nope", 0, NULL, err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_int_eq(uxdp_link_ifindex("b"), -ENODEV);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("drivers/net/gen");
	TCase *tc = tcase_create("gen");

	tcase_add_test(tc, udp4_frames_and_ranges);
	tcase_add_test(tc, udp6_checksum);
	tcase_add_test(tc, tcp_checksum);
	tcase_add_test(tc, frags_make_nonlinear_skbs);
	tcase_add_test(tc, bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}
