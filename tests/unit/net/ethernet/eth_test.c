// SPDX-License-Identifier: GPL-2.0
/*
 * eth_type_trans(): pkt_type from the destination MAC (host, broadcast,
 * multicast, other host), the returned protocol for EtherType, raw 802.3
 * and 802.2 LLC frames, the MAC header and the 14-byte pull.
 */
#include <string.h>
#include <arpa/inet.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "uxdp_test.h"

static struct net_device dev = {
	.name = "eth0",
	.addr_len = ETH_ALEN,
	.dev_addr = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 },
	.broadcast = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
};

static void leak_teardown(void)
{
	char why[512];

	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}

static struct sk_buff *frame(const u8 *dst, u16 proto, const u8 *payload, unsigned int plen)
{
	struct sk_buff *skb = netdev_alloc_skb(NULL, 128);
	struct ethhdr *eth = skb_put(skb, ETH_HLEN);

	memcpy(eth->h_dest, dst, ETH_ALEN);
	memset(eth->h_source, 0x66, ETH_ALEN);
	eth->h_proto = proto;
	skb_put_data(skb, payload, plen);
	return skb;
}

START_TEST(test_pkt_types)
{
	static const u8 bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const u8 mcast[ETH_ALEN] = { 0x33, 0x33, 0, 0, 0, 1 };
	static const u8 other[ETH_ALEN] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x56 };
	static const u8 zeros[46];
	const u8 *dst[4] = { dev.dev_addr, bcast, mcast, other };
	const int want[4] = { PACKET_HOST, PACKET_BROADCAST, PACKET_MULTICAST, PACKET_OTHERHOST };

	for (int i = 0; i < 4; i++) {
		struct sk_buff *skb = frame(dst[i], htons(ETH_P_IP), zeros, sizeof(zeros));
		unsigned int hr = skb_headroom(skb);
		u16 proto = eth_type_trans(skb, &dev);

		ck_assert_uint_eq(proto, htons(ETH_P_IP));
		ck_assert_int_eq(skb->pkt_type, want[i]);
		ck_assert_ptr_eq(skb->dev, &dev);
		ck_assert_uint_eq(skb->mac_header, hr);
		ck_assert_uint_eq(skb_headroom(skb), hr + ETH_HLEN);
		ck_assert_uint_eq(skb->len, sizeof(zeros));
		ck_assert_ptr_eq(eth_hdr(skb), skb->data - ETH_HLEN);
		kfree_skb(skb);
	}
}
END_TEST

START_TEST(test_protocols)
{
	static const u8 ipx[4] = { 0xff, 0xff, 0x00, 0x1e };
	static const u8 llc[4] = { 0x42, 0x42, 0x03, 0x00 };
	struct sk_buff *skb;

	skb = frame(dev.dev_addr, htons(ETH_P_ARP), llc, sizeof(llc));
	ck_assert_uint_eq(eth_type_trans(skb, &dev), htons(ETH_P_ARP));
	kfree_skb(skb);
	skb = frame(dev.dev_addr, htons(ETH_P_8021Q), llc, sizeof(llc));
	ck_assert_uint_eq(eth_type_trans(skb, &dev), htons(ETH_P_8021Q));
	kfree_skb(skb);
	/* 0x0600 is the first EtherType; 0x05ff is a length */
	skb = frame(dev.dev_addr, htons(0x0600), llc, sizeof(llc));
	ck_assert_uint_eq(eth_type_trans(skb, &dev), htons(0x0600));
	kfree_skb(skb);
	skb = frame(dev.dev_addr, htons(0x05ff), llc, sizeof(llc));
	ck_assert_uint_eq(eth_type_trans(skb, &dev), htons(ETH_P_802_2));
	kfree_skb(skb);
	skb = frame(dev.dev_addr, htons(46), ipx, sizeof(ipx));
	ck_assert_uint_eq(eth_type_trans(skb, &dev), htons(ETH_P_802_3));
	kfree_skb(skb);
}
END_TEST

START_TEST(test_addr_helpers)
{
	static const u8 b[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const u8 m[ETH_ALEN] = { 0x01, 0, 0x5e, 0, 0, 1 };
	static const u8 z[ETH_ALEN];
	u8 c[ETH_ALEN];

	ck_assert(is_broadcast_ether_addr(b));
	ck_assert(is_multicast_ether_addr(b));
	ck_assert(is_multicast_ether_addr(m) && !is_broadcast_ether_addr(m));
	ck_assert(is_zero_ether_addr(z) && !is_valid_ether_addr(z));
	ck_assert(is_valid_ether_addr(dev.dev_addr));
	ck_assert(is_local_ether_addr(dev.dev_addr));
	ether_addr_copy(c, dev.dev_addr);
	ck_assert(ether_addr_equal(c, dev.dev_addr));
	eth_broadcast_addr(c);
	ck_assert(ether_addr_equal(c, b));
	ck_assert(eth_proto_is_802_3(htons(ETH_P_IP)));
	ck_assert(!eth_proto_is_802_3(htons(1500)));
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("net/ethernet/eth");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, leak_teardown);
	tcase_add_test(tc, test_pkt_types);
	tcase_add_test(tc, test_protocols);
	tcase_add_test(tc, test_addr_helpers);
	suite_add_tcase(s, tc);
	return s;
}
