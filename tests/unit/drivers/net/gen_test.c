// SPDX-License-Identifier: GPL-2.0
/*
 * gen: the frames it makes (lengths, IPv4 header checksum, UDP/IPv6 and
 * TCP checksums, address and port ranges walked round robin, frags), its
 * count, and that it behaves as a NIC rx path: without a program every
 * frame is an skb for the stack, page-pool memory comes back. Robustness
 * traffic: `size MIN-MAX` frames with valid lengths and checksums,
 * `malformed PCT` frames each damaged in the way its ethtool counter says,
 * the same sequence for the same seed, runts dropped before XDP. RX
 * metadata for a device-bound program: the RSS hash of the specification's
 * verification vectors, a timestamp, no VLAN tag.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static struct net_device *gen_add(const char *name, int argc, char **argv)
{
	char err[256];

	ck_assert_msg(uxdp_link_add(name, "gen", argc, argv, err, sizeof(err)) > 0, "%s", err);
	return test_dev(name);
}

/* @count frames from @gen through its program (if any) into capture(). */
static void gen_go(struct net_device *gen, u64 count)
{
	char err[256], c[32];

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

static void gen_run(const char *name, int argc, char **argv, u64 count)
{
	gen_go(gen_add(name, argc, argv), count);
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

static u64 gen_stat(const char *dev, const char *name)
{
	char names[32][48];
	u64 vals[32];
	int n = uxdp_link_get_driver_stats(uxdp_link_ifindex(dev), names, (uint64_t *)vals, 32);

	for (int i = 0; i < n && i < 32; i++)
		if (!strcmp(names[i], name))
			return vals[i];
	ck_abort_msg("%s: no driver stat %s", dev, name);
	return 0;
}

START_TEST(size_range)
{
	char *u4[] = { "size", "60-200", "seed", "9" };
	char *t4[] = { "size", "54-300", "proto", "tcp" };
	char *u6[] = { "size", "62-300", "proto", "udp6" };
	unsigned int lens[MAX_SEEN], distinct = 0;
	char why[256];

	gen_run("gr", 4, u4, MAX_SEEN);
	ck_assert_uint_eq(nr_seen, MAX_SEEN);
	for (unsigned int i = 0; i < nr_seen; i++) {
		struct iphdr *ip = (struct iphdr *)(PKT(i) + ETH_HLEN);
		struct udphdr *uh = (struct udphdr *)(ip + 1);

		lens[i] = seen_len[i];
		distinct += i && lens[i] != lens[i - 1];
		ck_assert_uint_ge(seen_len[i], 60);
		ck_assert_uint_le(seen_len[i], 200);
		ck_assert_uint_eq(ntohs(ip->tot_len), seen_len[i] - ETH_HLEN);
		ck_assert_uint_eq(csum16(ip, 20, 0), 0xffff);
		ck_assert_uint_eq(ntohs(uh->len), seen_len[i] - ETH_HLEN - 20);
	}
	ck_assert_uint_gt(distinct, MAX_SEEN / 2);
	ck_assert_uint_eq(test_info("gr").rx_packets, MAX_SEEN);
	uxdp_link_del_all();
	/* the same seed: the same sizes */
	gen_run("gr", 4, u4, MAX_SEEN);
	for (unsigned int i = 0; i < nr_seen; i++)
		ck_assert_uint_eq(seen_len[i], lens[i]);
	uxdp_link_del_all();

	gen_run("gt", 4, t4, 16);
	ck_assert_uint_eq(nr_seen, 16);
	for (unsigned int i = 0; i < nr_seen; i++) {
		struct iphdr *ip = (struct iphdr *)(PKT(i) + ETH_HLEN);
		unsigned int l4 = seen_len[i] - 34;

		ck_assert_uint_eq(csum16(ip, 20, 0), 0xffff);
		ck_assert_uint_eq(csum16(ip + 1, l4, csum16(&ip->saddr, 8, 0) + IPPROTO_TCP + l4),
				  0xffff);
	}
	uxdp_link_del_all();

	gen_run("g6", 4, u6, 16);
	ck_assert_uint_eq(nr_seen, 16);
	for (unsigned int i = 0; i < nr_seen; i++) {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)(PKT(i) + ETH_HLEN);
		unsigned int l4 = ntohs(ip6->payload_len);

		ck_assert_uint_eq(l4, seen_len[i] - 54);
		ck_assert_uint_eq(csum16(ip6 + 1, l4, csum16(&ip6->saddr, 32, 0) + IPPROTO_UDP + l4),
				  0xffff);
	}
	uxdp_link_del_all();
	ck_assert_int_eq(skb_live_count(), 0);
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}
END_TEST

/* Every frame malformed: each captured frame is damaged as counted. */
START_TEST(malformed_kinds)
{
	char *args[] = { "size", "60-1500", "malformed", "100", "seed", "3" };
	unsigned int trunc = 0, hdr = 0, csum = 0, totlen = 0, n = 256;
	char why[256];

	gen_run("gm", 6, args, n);
	for (unsigned int i = 0; i < nr_seen; i++) {
		struct iphdr *ip = (struct iphdr *)(PKT(i) + ETH_HLEN);

		if (seen_len[i] < ETH_HLEN + 20)
			trunc++;
		else if (ip->version != 4 || ip->ihl < 5)
			hdr++;
		else if (csum16(ip, 20, 0) != 0xffff)
			csum++;
		else if (ntohs(ip->tot_len) > seen_len[i] - ETH_HLEN)
			totlen++;
		else
			ck_abort_msg("frame %u (%u B) is not malformed", i, seen_len[i]);
	}
	/* MAX_SEEN frames captured, the rest counted only */
	ck_assert_uint_eq(nr_seen, MAX_SEEN);
	ck_assert_uint_le(trunc, gen_stat("gm", "malformed_trunc"));
	ck_assert_uint_le(hdr, gen_stat("gm", "malformed_hdr"));
	ck_assert_uint_le(csum, gen_stat("gm", "malformed_csum"));
	ck_assert_uint_le(totlen, gen_stat("gm", "malformed_totlen"));
	ck_assert_uint_gt(trunc * hdr * csum * totlen, 0);
	ck_assert_uint_eq(gen_stat("gm", "malformed_runt") + gen_stat("gm", "malformed_trunc") +
			  gen_stat("gm", "malformed_hdr") + gen_stat("gm", "malformed_csum") +
			  gen_stat("gm", "malformed_totlen"), n);
	ck_assert_uint_gt(gen_stat("gm", "malformed_runt"), 0);
	uxdp_link_del_all();
	ck_assert_int_eq(skb_live_count(), 0);
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}
END_TEST

/*
 * Each verdict of the program on gen's frames (xdp_rx_verdict() in
 * net/xdp.h, shared by the page-pool drivers): counted once as a verdict,
 * PASS up the stack, DROP and ABORTED (an invalid action too) dropped with
 * their reason, nothing left behind.
 */
START_TEST(verdicts)
{
	static const struct { u32 act; unsigned int up, drop, aborted, invalid; } cases[] = {
		{ XDP_PASS, 8, 0, 0, 0 },
		{ XDP_DROP, 0, 8, 0, 0 },
		{ XDP_ABORTED, 0, 0, 8, 0 },
		{ 99, 0, 0, 8, 8 },
	};
	char *args[] = { "size", "64" };
	char why[256];

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		struct test_prog p = test_prog_load("xdp_action", cases[i].act);
		struct net_device *gen = gen_add("gv", 2, args);
		u64 drops[NETDEV_DROP_MAX], xdp[NETDEV_XDP_STAT_MAX];
		u32 verdict = cases[i].act > XDP_REDIRECT ? XDP_ABORTED : cases[i].act;

		test_attach("gv", &p);
		gen_go(gen, 8);
		dev_get_drop_stats(gen, drops);
		dev_get_xdp_stats(gen, xdp);
		ck_assert_uint_eq(nr_seen, cases[i].up);
		ck_assert_uint_eq(xdp[verdict], 8);
		ck_assert_uint_eq(xdp[NETDEV_XDP_INVALID], cases[i].invalid);
		ck_assert_uint_eq(drops[NETDEV_DROP_XDP_DROP], cases[i].drop);
		ck_assert_uint_eq(drops[NETDEV_DROP_XDP_ABORTED], cases[i].aborted);
		uxdp_link_del_all();
		uxdp_bpf_object_close(p.obj);
	}
	ck_assert_int_eq(skb_live_count(), 0);
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}
END_TEST

START_TEST(rx_metadata)
{
	/* The Microsoft RSS specification's verification vectors. */
	static const struct {
		const char *proto, *src, *dst, *sport, *dport;
		u32 hash, type;
	} cases[] = {
		{ "tcp", "66.9.149.187", "161.142.100.80", "2794", "1766", 0x51ccc178,
		  XDP_RSS_TYPE_L4_IPV4_TCP },
		{ "udp", "199.92.111.2", "65.69.140.83", "14230", "4739", 0xc626b0ea,
		  XDP_RSS_TYPE_L4_IPV4_UDP },
		{ "udp6", "3ffe:2501:200:1fff::7", "3ffe:2501:200:3::1", "2794", "1766",
		  0x40207d3d, XDP_RSS_TYPE_L4_IPV6_UDP },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		char *args[] = { "proto", (char *)cases[i].proto, "src", (char *)cases[i].src,
				 "dst", (char *)cases[i].dst, "sport", (char *)cases[i].sport,
				 "dport", (char *)cases[i].dport };
		struct uxdp_bpf_object_open_opts opts = { .sz = sizeof(opts) };
		struct net_device *gen = gen_add("gm", ARRAY_SIZE(args), args);
		char err[256] = "", log[4096];
		struct uxdp_bpf_object *obj;
		__s64 v[7];
		int id, mid;

		opts.log_buf = log;
		opts.log_size = sizeof(log);
		opts.prog_ifindex = gen->ifindex;
		obj = uxdp_bpf_object_open(BPF_PROGS_DIR "/xdp_rx_meta.o", &opts);
		ck_assert_msg(obj, "%s", log);
		id = uxdp_bpf_object_find_prog(obj, "xdp_rx_meta", NULL);
		mid = uxdp_bpf_object_find_map(obj, "meta");
		ck_assert_int_eq(uxdp_link_set_xdp("gm", id, err, sizeof(err)), 0);
		gen_go(gen, 3);
		for (__u32 k = 0; k < 7; k++)
			ck_assert_int_eq(uxdp_bpf_map_lookup_elem(mid, &k, &v[k]), 0);
		ck_assert_int_eq(v[0], 0);		/* timestamp */
		ck_assert_msg(v[1] > 1700000000LL * 1000000000LL, "timestamp %lld", (long long)v[1]);
		ck_assert_int_eq(v[2], 0);		/* hash */
		ck_assert_int_eq(v[3], -EOPNOTSUPP);	/* no VLAN offload */
		ck_assert_int_eq(v[4], 3);
		ck_assert_msg((u32)v[5] == cases[i].hash, "%s: hash %#x, want %#x", cases[i].proto,
			      (u32)v[5], cases[i].hash);
		ck_assert_uint_eq((u32)v[6], cases[i].type);
		uxdp_link_del_all();
		uxdp_bpf_object_close(obj);
	}
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
	char *a6[] = { "size", "100-60" };
	char *a7[] = { "malformed", "100.5" };
	char *a8[] = { "malformed", "1", "proto", "udp6" };
	char *a9[] = { "size", "30-100" };

	ck_assert_int_eq(uxdp_link_add("b", "gen", 2, a1, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "below"), "%s", err);
	ck_assert_int_eq(uxdp_link_add("b", "gen", 2, a2, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(uxdp_link_add("b", "gen", 2, a3, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(uxdp_link_add("b", "gen", 2, a4, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "frags"), "%s", err);
	ck_assert_int_eq(uxdp_link_add("b", "gen", 4, a5, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(uxdp_link_add("b", "gen", 2, a6, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "size range"), "%s", err);
	ck_assert_int_eq(uxdp_link_add("b", "gen", 2, a7, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "percentage"), "%s", err);
	ck_assert_int_eq(uxdp_link_add("b", "gen", 4, a8, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "IPv4"), "%s", err);
	ck_assert_int_eq(uxdp_link_add("b", "gen", 2, a9, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "below"), "%s", err);
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
	tcase_add_test(tc, size_range);
	tcase_add_test(tc, malformed_kinds);
	tcase_add_test(tc, verdicts);
	tcase_add_test(tc, rx_metadata);
	tcase_add_test(tc, bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}
