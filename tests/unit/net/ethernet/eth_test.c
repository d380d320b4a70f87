// SPDX-License-Identifier: GPL-2.0
/*
 * eth_type_trans(): pkt_type from the destination MAC (host, broadcast,
 * multicast, other host), the returned protocol for EtherType, raw 802.3
 * and 802.2 LLC frames, the MAC header and the 14-byte pull. The kernel is
 * the oracle where it can be: BPF_PROG_TEST_RUN of a tc program runs the
 * kernel's eth_type_trans() on loopback and returns skb->pkt_type and
 * skb->protocol, which must match ours on a device with lo's addresses.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/syscall.h>

#include <linux/bpf.h>	/* UAPI union bpf_attr, struct __sk_buff */

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

/* r0 = skb->FIELD (u32 at @off of struct __sk_buff); exit */
static int load_field_prog(int off)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_LDX | BPF_MEM | BPF_W, .dst_reg = BPF_REG_0, .src_reg = BPF_REG_1,
		  .off = (s16)off },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SCHED_CLS;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = 2;
	attr.license = (unsigned long)"GPL";
	return (int)syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
}

static int kernel_run(int prog_fd, const void *pkt, unsigned int len, u32 *retval)
{
	union bpf_attr attr;
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.data_in = (unsigned long)pkt;
	attr.test.data_size_in = len;
	attr.test.repeat = 1;
	err = (int)syscall(__NR_bpf, BPF_PROG_TEST_RUN, &attr, sizeof(attr));
	*retval = attr.test.retval;
	return err;
}

static int read_mac(const char *path, u8 *mac)
{
	unsigned int b[ETH_ALEN];
	FILE *f = fopen(path, "r");
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]);
	fclose(f);
	if (n != ETH_ALEN)
		return -EINVAL;
	for (int i = 0; i < ETH_ALEN; i++)
		mac[i] = (u8)b[i];
	return 0;
}

START_TEST(test_kernel_oracle)
{
	static const u8 dsts[][ETH_ALEN] = {
		{ 0, 0, 0, 0, 0, 0 },
		{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 },
		{ 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 },
		{ 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 },
		{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x01 },
	};
	static const u16 protos[] = { ETH_P_IP, ETH_P_IPV6, ETH_P_ARP, 0x0600, 0x05ff, 46, 0 };
	struct net_device lo = { .name = "lo", .addr_len = ETH_ALEN };
	int fd_type, fd_proto, checked = 0;
	u8 payload[50];

	if (read_mac("/sys/class/net/lo/address", lo.dev_addr) ||
	    read_mac("/sys/class/net/lo/broadcast", lo.broadcast))
		return;	/* no sysfs: nothing to compare against */
	fd_type = load_field_prog(offsetof(struct __sk_buff, pkt_type));
	fd_proto = load_field_prog(offsetof(struct __sk_buff, protocol));
	if (fd_type < 0 || fd_proto < 0) {
		/* no CAP_BPF here: the unit tests above still stand */
		if (fd_type >= 0)
			close(fd_type);
		if (fd_proto >= 0)
			close(fd_proto);
		return;
	}
	for (unsigned int d = 0; d < ARRAY_SIZE(dsts); d++) {
		for (unsigned int p = 0; p < ARRAY_SIZE(protos); p++) {
			for (int v = 0; v < 2; v++) {
				u8 pkt[ETH_HLEN + sizeof(payload)];
				struct sk_buff *skb;
				u32 k_type, k_proto;
				u16 proto;

				/* v == 1: payload starts with 0xFFFF (raw 802.3 marker) */
				memset(payload, v ? 0xff : 0x42, sizeof(payload));
				skb = frame(dsts[d], htons(protos[p]), payload, sizeof(payload));
				memcpy(pkt, skb->data, sizeof(pkt));
				ck_assert_int_eq(kernel_run(fd_type, pkt, sizeof(pkt), &k_type), 0);
				ck_assert_int_eq(kernel_run(fd_proto, pkt, sizeof(pkt), &k_proto), 0);
				proto = eth_type_trans(skb, &lo);
				ck_assert_msg(skb->pkt_type == k_type,
					      "dst %02x:..:%02x proto %#x: pkt_type %u, kernel %u",
					      dsts[d][0], dsts[d][5], protos[p], skb->pkt_type, k_type);
				ck_assert_msg(proto == (u16)k_proto,
					      "dst %02x proto %#x: protocol %#x, kernel %#x",
					      dsts[d][0], protos[p], ntohs(proto), ntohs((u16)k_proto));
				kfree_skb(skb);
				checked++;
			}
		}
	}
	close(fd_type);
	close(fd_proto);
	ck_assert_int_eq(checked, (int)(ARRAY_SIZE(dsts) * ARRAY_SIZE(protos) * 2));
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
	tcase_add_test(tc, test_kernel_oracle);
	suite_add_tcase(s, tc);
	return s;
}
