// SPDX-License-Identifier: GPL-2.0
/*
 * DSA: taggers byte-exact against the kernel's taggers (sja1105 TPID 0xDADB
 * with the current tag_8021q VID layout, ocelot-8021q 0x8100, Marvell DSA
 * and EDSA incl. the 802.1Q in-place rewrite with CFI moved, the trailer
 * tagger's tail tag and ETH_ZLEN pad), encode /
 * decode round trips through the switch chip's side, malformed tags
 * dropped with their reason, the PTP classifier (classic BPF converted to
 * eBPF) on each PTP encapsulation, dsa_user_xmit's order (tx stats before
 * the tag, cb clear full vs tagger, classification always vs requested,
 * the two-step clone), and the whole dsa-cb path with the forwarded frames
 * written to a pcap and checked by tshark when it is installed.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/dsa.h>
#include <net/ip.h>
#include <net/neighbour.h>
#include <net/route.h>
#include <uxdp/uxdp_link.h>

#include "uxdp_test.h"

#define CAP_MAX 64

struct cap_priv {
	struct sk_buff *skbs[CAP_MAX];
	int n;
};

static netdev_tx_t cap_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct cap_priv *p = netdev_priv(dev);

	if (p->n == CAP_MAX) {
		kfree_skb(skb);
		return NETDEV_TX_OK;
	}
	p->skbs[p->n++] = skb;
	return NETDEV_TX_OK;
}

static const struct net_device_ops cap_ops = { .ndo_start_xmit = cap_xmit };
static void cap_setup(struct net_device *dev) { dev->netdev_ops = &cap_ops; }
static const struct rtnl_link_ops cap_link_ops = {
	.kind = "cap", .priv_size = sizeof(struct cap_priv), .setup = cap_setup,
};

static struct net_device *cap;

static void cap_drain(void)
{
	struct cap_priv *p = netdev_priv(cap);

	for (int i = 0; i < p->n; i++)
		kfree_skb(p->skbs[i]);
	p->n = 0;
}

static struct net_device *sw_new(const char *tag)
{
	char *argv[] = { "ports", "4", "tag", (char *)tag, "conduit", "eth9",
			 "mac", "00:1f:7b:63:01:d4" };
	char err[256] = "";
	int ret = uxdp_link_add("sw0", "dsa-switch", 8, argv, err, sizeof(err));

	ck_assert_msg(ret > 0, "link add: %s", err);
	cap = alloc_netdev(&cap_link_ops, "cap0", 1, 1);
	ck_assert_int_eq(register_netdevice(cap), 0);
	dev_open(cap);
	ck_assert_int_eq(uxdp_link_set("sw0p2", "peer", "cap0", err, sizeof(err)), 0);
	return dev_get_by_name("sw0");
}

static void teardown(void)
{
	char why[512];

	if (cap)
		cap_drain();
	cap = NULL;
	inet_exit();
	netdev_unregister_all();
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}

static const u8 DA[6] = { 0x00, 0x04, 0x9f, 0x06, 0x00, 0x0a };
static const u8 SA[6] = { 0x00, 0x1f, 0x7b, 0x63, 0x01, 0xd4 };

/* DA SA TYPE + @plen bytes 0x11..; data at the MAC header. */
static struct sk_buff *frame(u16 type, int plen)
{
	struct sk_buff *skb = netdev_alloc_skb(NULL, 128 + plen);
	u8 *p;

	skb_reserve(skb, 64);
	p = skb_put(skb, 14 + plen);
	memcpy(p, DA, 6);
	memcpy(p + 6, SA, 6);
	p[12] = type >> 8;
	p[13] = type;
	for (int i = 0; i < plen; i++)
		p[14 + i] = 0x11 + i;
	skb_reset_mac_header(skb);
	return skb;
}

static u64 sw_stat(const char *name)
{
	char names[32][48];
	uint64_t values[32];
	int n = uxdp_link_get_driver_stats(uxdp_link_ifindex("sw0"), names, values, 32);

	for (int i = 0; i < n && i < 32; i++)
		if (!strcmp(names[i], name))
			return values[i];
	ck_abort_msg("no stat %s", name);
	return 0;
}

/* Tag with the user port's tagger; compare the 16 (or 18/20) first bytes. */
static void check_xmit(const char *user, const u8 *want, int wlen, u16 type, int plen)
{
	struct net_device *dev = dev_get_by_name(user);
	struct dsa_port *dp = dsa_user_to_port(dev);
	struct sk_buff *skb = frame(type, plen);
	int sw, port;

	skb = dp->cpu_dp->tag_ops->xmit(skb, dev);
	ck_assert_ptr_nonnull(skb);
	for (int i = 0; i < wlen; i++)
		ck_assert_msg(skb->data[i] == want[i], "byte %d: %02x, want %02x", i, skb->data[i], want[i]);
	/* The chip decodes it back to (0, port) and the original frame. */
	ck_assert_int_eq(dp->ds->tag_ops->hw_untag(skb, &sw, &port), 0);
	ck_assert_int_eq(sw, 0);
	ck_assert_int_eq(port, dp->index);
	ck_assert_uint_eq(skb->len, 14 + plen);
	ck_assert(!memcmp(skb->data, DA, 6) && !memcmp(skb->data + 6, SA, 6));
	ck_assert_int_eq((skb->data[12] << 8) | skb->data[13], type);
	kfree_skb(skb);
}

/* The chip tags a frame from front @port; the tagger's rcv finds the user port. */
static void check_rcv(int port, const u8 *want, int wlen)
{
	struct net_device *sw = dev_get_by_name("sw0");
	struct dsa_switch *ds = netdev_priv(sw);
	struct sk_buff *skb = frame(0x0800, 46);

	ck_assert_int_eq(ds->tag_ops->hw_tag(skb, 0, port), 0);
	for (int i = 0; i < wlen; i++)
		ck_assert_msg(skb->data[i] == want[i], "hw byte %d: %02x, want %02x", i, skb->data[i], want[i]);
	skb_reset_mac_header(skb);
	__skb_pull(skb, ETH_HLEN);
	skb = ds->tag_ops->rcv(skb, ds->conduit);
	ck_assert_ptr_nonnull(skb);
	ck_assert_ptr_eq(skb->dev, ds->ports[port].user);
	__skb_push(skb, ETH_HLEN);
	ck_assert(!memcmp(skb->data, DA, 6) && !memcmp(skb->data + 6, SA, 6));
	ck_assert_int_eq(skb->data[12], 0x08);
	ck_assert_int_eq(skb->data[14], 0x11);
	ck_assert_uint_eq(skb->len, 60);
	kfree_skb(skb);
}

START_TEST(test_sja1105)
{
	static const u8 tx2[] = { 0x00, 0x04, 0x9f, 0x06, 0x00, 0x0a, 0x00, 0x1f, 0x7b, 0x63, 0x01,
				  0xd4, 0xda, 0xdb, 0x0c, 0x02, 0x08, 0x00, 0x11 };
	static const u8 rx3[] = { 0x00, 0x04, 0x9f, 0x06, 0x00, 0x0a, 0x00, 0x1f, 0x7b, 0x63, 0x01,
				  0xd4, 0xda, 0xdb, 0x0c, 0x03, 0x08, 0x00 };

	sw_new("sja1105");
	ck_assert_uint_eq(dsa_tag_8021q_standalone_vid(0, 2), 0xC02);
	ck_assert_uint_eq(dsa_tag_8021q_standalone_vid(3, 5), 0xCC5);
	ck_assert(vid_is_dsa_8021q(0xC02) && !vid_is_dsa_8021q(0x802) && !vid_is_dsa_8021q(0x403));
	check_xmit("swp2", tx2, sizeof(tx2), 0x0800, 46);
	check_rcv(3, rx3, sizeof(rx3));
	ck_assert_uint_eq(dev_get_by_name("swp2")->needed_headroom, 4);
	ck_assert_uint_eq(dev_get_by_name("eth9")->mtu, 1504);
}
END_TEST

START_TEST(test_ocelot_8021q)
{
	static const u8 tx1[] = { 0x00, 0x04, 0x9f, 0x06, 0x00, 0x0a, 0x00, 0x1f, 0x7b, 0x63, 0x01,
				  0xd4, 0x81, 0x00, 0x0c, 0x01, 0x08, 0x00 };
	static const u8 rx0[] = { 0x00, 0x04, 0x9f, 0x06, 0x00, 0x0a, 0x00, 0x1f, 0x7b, 0x63, 0x01,
				  0xd4, 0x81, 0x00, 0x0c, 0x00, 0x08, 0x00 };

	sw_new("ocelot-8021q");
	check_xmit("swp1", tx1, sizeof(tx1), 0x0800, 46);
	check_rcv(0, rx0, sizeof(rx0));
}
END_TEST

START_TEST(test_marvell_dsa)
{
	/* FROM_CPU (1 << 6) | dev 0; port 1 << 3; VID 0 standalone. */
	static const u8 tx1[] = { 0x00, 0x04, 0x9f, 0x06, 0x00, 0x0a, 0x00, 0x1f, 0x7b, 0x63, 0x01,
				  0xd4, 0x40, 0x08, 0x00, 0x00, 0x08, 0x00, 0x11 };
	/* FORWARD (3 << 6) from port 3. */
	static const u8 rx3[] = { 0x00, 0x04, 0x9f, 0x06, 0x00, 0x0a, 0x00, 0x1f, 0x7b, 0x63, 0x01,
				  0xd4, 0xc0, 0x18, 0x00, 0x00, 0x08, 0x00 };
	/* 802.1Q PCP 5, CFI 1, VID 0x123 -> tagged DSA, CFI in byte1 bit 0. */
	static const u8 tx1q[] = { 0x00, 0x04, 0x9f, 0x06, 0x00, 0x0a, 0x00, 0x1f, 0x7b, 0x63, 0x01,
				   0xd4, 0x60, 0x09, 0xa1, 0x23, 0x08, 0x00 };
	struct net_device *swp1;
	struct dsa_switch *ds;
	struct sk_buff *skb;
	int sw, port;

	sw_new("dsa");
	check_xmit("swp1", tx1, sizeof(tx1), 0x0800, 46);
	check_rcv(3, rx3, sizeof(rx3));

	swp1 = dev_get_by_name("swp1");
	ds = dsa_user_to_port(swp1)->ds;
	skb = frame(0x8100, 50);
	skb->data[14] = 0xb1;	/* PCP 5, CFI 1, VID 0x1.. */
	skb->data[15] = 0x23;
	skb->data[16] = 0x08;
	skb->data[17] = 0x00;
	skb = ds->tag_ops->xmit(skb, swp1);
	ck_assert_uint_eq(skb->len, 64);	/* rewritten in place: no growth */
	ck_assert(!memcmp(skb->data, tx1q, sizeof(tx1q)));
	/* The chip converts it back into 802.1Q with CFI restored. */
	ck_assert_int_eq(ds->tag_ops->hw_untag(skb, &sw, &port), 0);
	ck_assert_int_eq(port, 1);
	ck_assert_int_eq(skb->data[12], 0x81);
	ck_assert_int_eq(skb->data[13], 0x00);
	ck_assert_int_eq(skb->data[14], 0xb1);
	ck_assert_int_eq(skb->data[15], 0x23);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_marvell_edsa)
{
	static const u8 tx2[] = { 0x00, 0x04, 0x9f, 0x06, 0x00, 0x0a, 0x00, 0x1f, 0x7b, 0x63, 0x01,
				  0xd4, 0xda, 0xda, 0x00, 0x00, 0x40, 0x10, 0x00, 0x00, 0x08, 0x00 };
	static const u8 rx1[] = { 0x00, 0x04, 0x9f, 0x06, 0x00, 0x0a, 0x00, 0x1f, 0x7b, 0x63, 0x01,
				  0xd4, 0xda, 0xda, 0x00, 0x00, 0xc0, 0x08, 0x00, 0x00, 0x08, 0x00 };

	sw_new("edsa");
	check_xmit("swp2", tx2, sizeof(tx2), 0x0800, 46);
	check_rcv(1, rx1, sizeof(rx1));
	ck_assert_uint_eq(dev_get_by_name("swp2")->needed_headroom, 8);
}
END_TEST

/* Feed @bytes (a frame as the conduit sees it) to the tagger's rcv. */
static bool rcv_raw(const u8 *bytes, int len)
{
	struct dsa_switch *ds = netdev_priv(dev_get_by_name("sw0"));
	struct sk_buff *skb = netdev_alloc_skb(NULL, 128), *nskb;

	skb_reserve(skb, 32);
	memcpy(skb_put(skb, len), bytes, len);
	skb_reset_mac_header(skb);
	__skb_pull(skb, ETH_HLEN);
	nskb = ds->tag_ops->rcv(skb, ds->conduit);
	/* NULL: the core (dsa_switch_rcv) frees the original. */
	kfree_skb(nskb ? nskb : skb);
	return nskb != NULL;
}

START_TEST(test_malformed_8021q)
{
	u8 f[60] = { 0x00, 0x1f, 0x7b, 0x63, 0x01, 0xd4, 0x00, 0x04, 0x9f, 0x06, 0x00, 0x09,
		     0xda, 0xdb, 0x0c, 0x03, 0x08, 0x00 };

	sw_new("sja1105");
	ck_assert(rcv_raw(f, 60));
	ck_assert(!rcv_raw(f, 15));		/* 1 byte after the header */
	ck_assert_uint_eq(sw_stat("drop_SHORT"), 1);
	f[12] = 0x12;				/* TPID 0x12DB */
	ck_assert(!rcv_raw(f, 60));
	ck_assert_uint_eq(sw_stat("drop_BAD_TPID"), 1);
	f[12] = 0xda;
	f[14] = 0x08;				/* VID 0x803: old TX layout, not RSV 0b11 */
	ck_assert(!rcv_raw(f, 60));
	ck_assert_uint_eq(sw_stat("drop_BAD_TAG"), 1);
	f[14] = 0x0c;
	f[15] = 0x0f;				/* port 15 of 4 */
	ck_assert(!rcv_raw(f, 60));
	ck_assert_uint_eq(sw_stat("drop_BAD_PORT"), 1);
	f[15] = 0x43;				/* switch 1 */
	ck_assert(!rcv_raw(f, 60));
	ck_assert_uint_eq(sw_stat("drop_BAD_SWITCH"), 1);
}
END_TEST

START_TEST(test_malformed_dsa)
{
	u8 f[60] = { 0x00, 0x1f, 0x7b, 0x63, 0x01, 0xd4, 0x00, 0x04, 0x9f, 0x06, 0x00, 0x09,
		     0xc0, 0x18, 0x00, 0x00, 0x08, 0x00 };

	sw_new("dsa");
	ck_assert(rcv_raw(f, 60));
	f[12] = 0x40;				/* FROM_CPU on receive */
	ck_assert(!rcv_raw(f, 60));
	f[12] = 0x00;				/* TO_CPU, code FRAME2REG (1: byte2 bit 4) */
	f[14] = 0x10;
	ck_assert(!rcv_raw(f, 60));
	ck_assert_uint_eq(sw_stat("drop_BAD_TAG"), 2);
	f[14] = 0x00;				/* TO_CPU MGMT_TRAP: accepted */
	ck_assert(rcv_raw(f, 60));
	f[13] = 0x38;				/* port 7 */
	ck_assert(!rcv_raw(f, 60));
	ck_assert_uint_eq(sw_stat("drop_BAD_PORT"), 1);
	ck_assert(!rcv_raw(f, 15));
	ck_assert_uint_eq(sw_stat("drop_SHORT"), 1);
}
END_TEST

/*
 * trailer: the tag is the frame's last 4 bytes (0x80, egress port mask,
 * 0x10, 0x00 toward the switch; 0x80, source port, 0x00, 0x00 from it), a
 * short frame is padded to ETH_ZLEN by dsa_user_xmit() before it.
 */
START_TEST(test_trailer)
{
	static const u8 rx3[] = { 0x00, 0x04, 0x9f, 0x06, 0x00, 0x0a, 0x00, 0x1f, 0x7b, 0x63, 0x01,
				  0xd4, 0x08, 0x00, 0x11 };
	u8 f[64] = { 0x00, 0x1f, 0x7b, 0x63, 0x01, 0xd4, 0x00, 0x04, 0x9f, 0x06, 0x00, 0x09,
		     0x08, 0x00 };
	struct net_device *swp1, *swp2;
	struct cap_priv *p;
	struct sk_buff *skb;
	int sw, port;

	sw_new("trailer");
	swp1 = dev_get_by_name("swp1");
	ck_assert_uint_eq(swp1->needed_tailroom, 4);
	ck_assert_uint_eq(swp1->needed_headroom, 0);
	ck_assert_uint_eq(dev_get_by_name("eth9")->mtu, 1504);

	skb = frame(0x0800, 46);
	skb = dsa_user_to_port(swp1)->cpu_dp->tag_ops->xmit(skb, swp1);
	ck_assert_uint_eq(skb->len, 64);
	ck_assert(!memcmp(skb->data + 60, "\x80\x02\x10\x00", 4));
	ck_assert_int_eq(dsa_user_to_port(swp1)->ds->tag_ops->hw_untag(skb, &sw, &port), 0);
	ck_assert_int_eq(port, 1);
	ck_assert_uint_eq(skb->len, 60);
	kfree_skb(skb);
	check_rcv(3, rx3, sizeof(rx3));

	/* dsa_user_xmit(): 14 + 10 bytes padded to 60, then the trailer. */
	swp2 = dev_get_by_name("swp2");
	skb = frame(0x0800, 10);
	skb->dev = swp2;
	dev_queue_xmit(skb);
	p = netdev_priv(cap);
	ck_assert_int_eq(p->n, 1);
	ck_assert_uint_eq(p->skbs[0]->len, 60);	/* the chip stripped the trailer */
	ck_assert_int_eq(p->skbs[0]->data[14 + 9], 0x11 + 9);
	ck_assert_int_eq(p->skbs[0]->data[14 + 10], 0);

	/* Malformed: the trailer is the last 4 of the frame. */
	memcpy(f + 60, "\x80\x03\x00\x00", 4);
	ck_assert(rcv_raw(f, 64));
	f[62] = 0x10;				/* bit 4 of byte 2 is allowed */
	ck_assert(rcv_raw(f, 64));
	f[60] = 0x81;
	ck_assert(!rcv_raw(f, 64));
	f[60] = 0x80;
	f[61] = 0x0b;				/* bit 3: not a port number */
	ck_assert(!rcv_raw(f, 64));
	f[61] = 0x03;
	f[63] = 0x01;
	ck_assert(!rcv_raw(f, 64));
	ck_assert_uint_eq(sw_stat("drop_BAD_TAG"), 3);
	f[63] = 0x00;
	f[61] = 0x05;				/* port 5 of 4 */
	ck_assert(!rcv_raw(f, 64));
	ck_assert_uint_eq(sw_stat("drop_BAD_PORT"), 1);
	ck_assert(!rcv_raw(f, 17));		/* 3 bytes after the header */
	ck_assert_uint_eq(sw_stat("drop_SHORT"), 1);

	/* The chip: a frame from the CPU names exactly one port. */
	skb = frame(0x0800, 46);
	memcpy(skb_put(skb, 4), "\x80\x06\x10\x00", 4);
	ck_assert_int_eq(dsa_user_to_port(swp1)->ds->tag_ops->hw_untag(skb, &sw, &port),
			 -DSA_DROP_BAD_TAG);
	kfree_skb(skb);
}
END_TEST

/* Ethernet + [VLAN] + IPv4/IPv6 + UDP to @dport + PTP header (type @msg, version 2). */
static struct sk_buff *ptp_frame(int vlan, int v6, u16 dport, u8 msg)
{
	struct sk_buff *skb = netdev_alloc_skb(NULL, 256);
	u8 *p = skb_put_zero(skb, 14 + (vlan ? 4 : 0) + (v6 ? 40 : 20) + 8 + 34);
	int o = 12;

	memcpy(p, DA, 6);
	memcpy(p + 6, SA, 6);
	if (vlan) {
		p[o] = 0x81;
		p[o + 1] = 0x00;
		o += 4;
	}
	p[o] = v6 ? 0x86 : 0x08;
	p[o + 1] = v6 ? 0xdd : 0x00;
	o += 2;
	if (v6) {
		p[o] = 0x60;
		p[o + 6] = 17;
		o += 40;
	} else {
		p[o] = 0x45;
		p[o + 9] = 17;
		o += 20;
	}
	p[o + 2] = dport >> 8;
	p[o + 3] = dport;
	o += 8;
	p[o] = msg;
	p[o + 1] = 2;
	return skb;
}

static struct sk_buff *ptp_l2(int vlan, u8 msg)
{
	struct sk_buff *skb = netdev_alloc_skb(NULL, 128);
	u8 *p = skb_put_zero(skb, 60);
	int o = 12;

	if (vlan) {
		p[o] = 0x81;
		o += 4;
	}
	p[o] = 0x88;
	p[o + 1] = 0xf7;
	p[o + 2] = msg;
	p[o + 3] = 2;
	return skb;
}

static unsigned int classify_free(struct sk_buff *skb)
{
	unsigned int c = ptp_classify_raw(skb);

	kfree_skb(skb);
	return c;
}

START_TEST(test_ptp_classify)
{
	ck_assert_int_eq(ptp_classifier_init(), 0);
	ck_assert_uint_eq(classify_free(ptp_frame(0, 0, 319, 0)), PTP_CLASS_IPV4 | PTP_CLASS_V2);
	ck_assert_uint_eq(classify_free(ptp_frame(0, 0, 9, 0)), PTP_CLASS_NONE);
	ck_assert_uint_eq(classify_free(ptp_frame(0, 0, 320, 8)), PTP_CLASS_NONE);
	ck_assert_uint_eq(classify_free(ptp_frame(0, 1, 319, 0)), PTP_CLASS_IPV6 | PTP_CLASS_V2);
	ck_assert_uint_eq(classify_free(ptp_frame(1, 0, 319, 0)),
			  PTP_CLASS_VLAN | PTP_CLASS_IPV4 | PTP_CLASS_V2);
	ck_assert_uint_eq(classify_free(ptp_frame(1, 1, 319, 0)),
			  PTP_CLASS_VLAN | PTP_CLASS_IPV6 | PTP_CLASS_V2);
	ck_assert_uint_eq(classify_free(ptp_l2(0, 0)), PTP_CLASS_L2 | PTP_CLASS_V2);
	ck_assert_uint_eq(classify_free(ptp_l2(0, 8)), PTP_CLASS_NONE);	/* general msg */
	ck_assert_uint_eq(classify_free(ptp_l2(1, 0)), PTP_CLASS_VLAN | PTP_CLASS_L2 | PTP_CLASS_V2);
	/* A fragment is not classified; a truncated frame returns NONE. */
	{
		struct sk_buff *skb = ptp_frame(0, 0, 319, 0);

		skb->data[20] = 0x00;
		skb->data[21] = 0x10;
		ck_assert_uint_eq(classify_free(skb), PTP_CLASS_NONE);
		skb = ptp_frame(0, 0, 319, 0);
		skb_trim(skb, 40);
		ck_assert_uint_eq(classify_free(skb), PTP_CLASS_NONE);
	}
	ptp_classifier_exit();
}
END_TEST

/* Send a 64-byte frame through swp2 with cb full of 0xAA; return the captured skb. */
static struct sk_buff *xmit_swp2(void)
{
	struct net_device *swp2 = dev_get_by_name("swp2");
	struct sk_buff *skb = ptp_frame(0, 0, 9, 0);
	struct cap_priv *p = netdev_priv(cap);

	skb_reserve(skb, 0);
	memset(skb->cb, 0xaa, sizeof(skb->cb));
	skb->dev = swp2;
	dev_queue_xmit(skb);
	ck_assert_int_ge(p->n, 1);
	return p->skbs[p->n - 1];
}

START_TEST(test_user_xmit_order)
{
	char err[128];
	struct rtnl_link_stats64 s;
	struct sk_buff *skb;
	int i;

	sw_new("sja1105");
	/* full: all 48 bytes zero; tagger: only sizeof(struct sja1105_skb_cb). */
	skb = xmit_swp2();
	for (i = 0; i < 48; i++)
		ck_assert_int_eq((u8)skb->cb[i], 0);
	ck_assert_int_eq(skb->data[12], 0x08);	/* the CPU port stripped the tag */
	ck_assert_uint_eq(skb->len, 14 + 20 + 8 + 34);
	ck_assert_int_eq(uxdp_link_set("swp2", "cb_clear", "tagger", err, sizeof(err)), 0);
	skb = xmit_swp2();
	for (i = 0; i < (int)sizeof(struct sja1105_skb_cb); i++)
		ck_assert_int_eq((u8)skb->cb[i], 0);
	for (; i < 48; i++)
		ck_assert_int_eq((u8)skb->cb[i], 0xaa);
	/* tx stats before the tag: 76 bytes each, not 80. */
	dev_get_stats(dev_get_by_name("swp2"), &s);
	ck_assert_uint_eq(s.tx_packets, 2);
	ck_assert_uint_eq(s.tx_bytes, 2 * 76);
	dev_get_stats(dev_get_by_name("eth9"), &s);
	ck_assert_uint_eq(s.tx_bytes, 2 * 80);
	/* requested (default): no classification without a request. */
	ck_assert_uint_eq(sw_stat("ptp_classify_runs"), 0);
	ck_assert_int_eq(uxdp_link_set("swp2", "tx_ts_classify", "always", err, sizeof(err)), 0);
	xmit_swp2();
	xmit_swp2();
	ck_assert_uint_eq(sw_stat("ptp_classify_runs"), 2);
	ck_assert_int_eq(uxdp_link_set("swp2", "tx_ts_classify", "requested", err, sizeof(err)), 0);
	ck_assert_int_eq(uxdp_link_set("swp2", "tx_tstamp_request", "on", err, sizeof(err)), 0);
	ck_assert_int_eq(uxdp_link_set("swp2", "hwtstamp", "on", err, sizeof(err)), 0);
	xmit_swp2();
	ck_assert_uint_eq(sw_stat("ptp_classify_runs"), 3);
	ck_assert_uint_eq(sw_stat("tx_ts_clones"), 0);	/* UDP 9: not PTP */
	{
		struct sk_buff *ptp = ptp_frame(0, 0, 319, 0);

		ptp->dev = dev_get_by_name("swp2");
		dev_queue_xmit(ptp);
		ck_assert_uint_eq(sw_stat("tx_ts_clones"), 1);
	}
	ck_assert_int_eq(uxdp_link_set("swp2", "cb_clear", "half", err, sizeof(err)), -EINVAL);
}
END_TEST

static void pcap_write(FILE *f, struct sk_buff **skbs, int n)
{
	u32 hdr[6] = { 0xa1b2c3d4, 0x00040002, 0, 0, 65535, 1 };

	fwrite(hdr, sizeof(hdr), 1, f);
	for (int i = 0; i < n; i++) {
		u32 rec[4] = { 1, (u32)i, skbs[i]->len, skbs[i]->len };

		fwrite(rec, sizeof(rec), 1, f);
		fwrite(skbs[i]->data, skbs[i]->len, 1, f);
	}
}

START_TEST(test_forward_through_dsa)
{
	char err[256] = "", path[] = "/tmp/uxdp-dsa-XXXXXX", cmd[512], line[256];
	struct cap_priv *p;
	struct net_device *front3;
	int fd, lines = 0;
	FILE *f;

	sw_new("sja1105");
	ck_assert_int_eq(uxdp_ip_addr_add("swp3", "198.18.0.1/24", err, sizeof(err)), 0);
	ck_assert_int_eq(uxdp_ip_addr_add("swp2", "198.19.0.1/24", err, sizeof(err)), 0);
	ck_assert_int_eq(uxdp_ip_neigh_add("198.19.0.2", "00:04:9f:06:00:0a", "swp2", err, sizeof(err)), 0);
	ck_assert_int_eq(uxdp_sysctl_set("net.ipv4.ip_forward", "1", err, sizeof(err)), 0);
	front3 = dev_get_by_name("sw0p3");
	for (int i = 0; i < 4; i++) {
		struct sk_buff *skb = netdev_alloc_skb(NULL, 128);
		u8 *d = skb_put_zero(skb, 60);
		struct iphdr *iph = (struct iphdr *)(d + 14);

		memcpy(d, SA, 6);			/* to the DUT (conduit MAC) */
		memcpy(d + 6, DA, 6);
		d[12] = 0x08;
		iph->version = 4;
		iph->ihl = 5;
		iph->tot_len = htons(46);
		iph->ttl = 64 - i;
		iph->protocol = 17;
		iph->saddr = htonl(0xc6120002);
		iph->daddr = htonl(0xc6130002);
		ip_send_check(iph);
		skb->dev = front3;
		dev_queue_xmit(skb);
	}
	p = netdev_priv(cap);
	ck_assert_int_eq(p->n, 4);
	for (int i = 0; i < 4; i++) {
		const u8 *d = p->skbs[i]->data;
		const struct iphdr *iph = (const struct iphdr *)(d + 14);

		ck_assert(!memcmp(d, DA, 6));		/* the neighbour's MAC */
		ck_assert(!memcmp(d + 6, SA, 6));	/* swp2 = the conduit's MAC */
		ck_assert_int_eq(iph->ttl, 63 - i);
		ck_assert_int_eq(ip_fast_csum(iph, 5), 0);
	}
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	pcap_write(f, p->skbs, p->n);
	fclose(f);
	if (access("/usr/bin/tshark", X_OK)) {
		unlink(path);
		return;	/* tshark not installed: the in-process checks above stand */
	}
	snprintf(cmd, sizeof(cmd), "tshark -n -r %s -o ip.check_checksum:TRUE -T fields "
		 "-e ip.ttl -e ip.checksum.status -e eth.dst -e eth.src 2>/dev/null", path);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		char want[128];

		snprintf(want, sizeof(want), "%d\t1\t00:04:9f:06:00:0a\t00:1f:7b:63:01:d4\n", 63 - lines);
		ck_assert_msg(!strcmp(line, want), "tshark: '%s', want '%s'", line, want);
		lines++;
	}
	pclose(f);
	unlink(path);
	ck_assert_int_eq(lines, 4);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("dsa");
	TCase *tc = tcase_create("tag");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_sja1105);
	tcase_add_test(tc, test_ocelot_8021q);
	tcase_add_test(tc, test_marvell_dsa);
	tcase_add_test(tc, test_marvell_edsa);
	tcase_add_test(tc, test_malformed_8021q);
	tcase_add_test(tc, test_malformed_dsa);
	tcase_add_test(tc, test_trailer);
	tcase_add_test(tc, test_ptp_classify);
	tcase_add_test(tc, test_user_xmit_order);
	tcase_add_test(tc, test_forward_through_dsa);
	suite_add_tcase(s, tc);
	return s;
}
