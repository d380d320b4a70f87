// SPDX-License-Identifier: GPL-2.0
/*
 * Marvell DSA (4-byte tag in the EtherType position) and EDSA (0xDADA,
 * 0x0000, then the same 4 bytes) taggers. Tag bytes: byte0 = command
 * (7:6; TO_CPU 0, FROM_CPU 1, TO_SNIFFER 2, FORWARD 3) | tagged (5) |
 * device (4:0); byte1 = port (7:3) | trunk or code[2:1] (2:1) | CFI (0);
 * byte2 = PCP (7:5) | code[0] (4) | VID[11:8]; byte3 = VID[7:0].
 *
 * TX (standalone): FROM_CPU to (switch, port); an 802.1Q frame has its
 * tag rewritten in place (tagged bit, CFI moved to byte1 bit 0), other
 * frames get 4 (8) bytes with VID 0. RX: FORWARD, or TO_CPU with a trap
 * or mirror code; FRAME2REG and reserved codes and other commands drop;
 * tagged frames become 802.1Q again, others are stripped.
 *
 * Kernel: net/dsa/tag_dsa.c dsa_xmit_ll(), dsa_rcv_ll(), dsa_xmit(),
 *	   dsa_rcv(), edsa_xmit(), edsa_rcv(); net/dsa/tag.h
 *	   dsa_alloc_etype_header(), dsa_strip_etype_header()
 * Differs: no bridge (forwarding offload, VID 4095) or trunks (a trunk
 *	    source is dropped); the 802.1Q case is detected from the frame's
 *	    EtherType rather than skb->protocol.
 */
#include <arpa/inet.h>
#include <string.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dsa.h>

enum dsa_cmd { DSA_CMD_TO_CPU = 0, DSA_CMD_FROM_CPU = 1, DSA_CMD_TO_SNIFFER = 2, DSA_CMD_FORWARD = 3 };
enum dsa_code {
	DSA_CODE_MGMT_TRAP = 0, DSA_CODE_FRAME2REG = 1, DSA_CODE_IGMP_MLD_TRAP = 2,
	DSA_CODE_POLICY_TRAP = 3, DSA_CODE_ARP_MIRROR = 4, DSA_CODE_POLICY_MIRROR = 5,
	DSA_CODE_RESERVED_6 = 6, DSA_CODE_RESERVED_7 = 7,
};

/* Write a 4-byte tag (plus EDSA's 4) after the MACs; data at the MAC header. */
static int dsa_tag_ll(struct sk_buff *skb, u8 cmd, int dev_id, int port, int extra)
{
	u8 *hdr;

	if (skb->len >= ETH_HLEN && skb->data[12] == 0x81 && skb->data[13] == 0x00) {
		/* 802.1Q: turn the VLAN header into a tagged DSA tag. */
		if (extra) {
			if (skb_cow_head(skb, extra))
				return -DSA_DROP_NOMEM;
			skb_push(skb, extra);
			dsa_alloc_etype_header(skb, extra);
		}
		hdr = skb->data + 2 * ETH_ALEN + extra;
		hdr[0] = (cmd << 6) | 0x20 | dev_id;
		hdr[1] = port << 3;
		if (hdr[2] & 0x10) {	/* CFI from byte 2 to byte 1 */
			hdr[1] |= 0x01;
			hdr[2] &= ~0x10;
		}
	} else {
		u16 vid = 0;	/* MV88E6XXX_VID_STANDALONE */

		if (skb_cow_head(skb, DSA_HLEN + extra))
			return -DSA_DROP_NOMEM;
		skb_push(skb, DSA_HLEN + extra);
		dsa_alloc_etype_header(skb, DSA_HLEN + extra);
		hdr = skb->data + 2 * ETH_ALEN + extra;
		hdr[0] = (cmd << 6) | dev_id;
		hdr[1] = port << 3;
		hdr[2] = vid >> 8;
		hdr[3] = vid & 0xff;
	}
	if (extra) {
		hdr = skb->data + 2 * ETH_ALEN;
		hdr[0] = ETH_P_EDSA >> 8;
		hdr[1] = ETH_P_EDSA & 0xff;
		hdr[2] = 0;
		hdr[3] = 0;
	}
	skb_reset_mac_header(skb);
	return 0;
}

/* Strip or convert; data just after the 14 bytes (EDSA: after 18). */
static void dsa_untag_ll(struct sk_buff *skb, const u8 *hdr_in, int extra)
{
	u8 *hdr = skb->data - 2;

	(void)hdr_in;
	if (hdr[0] & 0x20) {
		u8 new_header[4];

		new_header[0] = ETH_P_8021Q >> 8;
		new_header[1] = ETH_P_8021Q & 0xff;
		new_header[2] = hdr[2] & ~0x10;
		new_header[3] = hdr[3];
		if (hdr[1] & 0x01)
			new_header[2] |= 0x10;
		memcpy(hdr, new_header, DSA_HLEN);
		if (extra)
			dsa_strip_etype_header(skb, extra);
	} else {
		__skb_pull(skb, DSA_HLEN);
		dsa_strip_etype_header(skb, DSA_HLEN + extra);
	}
}

/* dsa_rcv_ll(): validate command/code; 0 with the source, or -reason. */
static int dsa_parse_rx(const u8 *hdr, int *dev_id, int *port)
{
	u8 cmd = hdr[0] >> 6, code;

	switch (cmd) {
	case DSA_CMD_FORWARD:
		if (hdr[1] & 0x04)	/* trunk source: no LAG support */
			return -DSA_DROP_BAD_TAG;
		break;
	case DSA_CMD_TO_CPU:
		code = (hdr[1] & 0x6) | ((hdr[2] >> 4) & 1);
		switch (code) {
		case DSA_CODE_FRAME2REG:
		case DSA_CODE_RESERVED_6:
		case DSA_CODE_RESERVED_7:
			return -DSA_DROP_BAD_TAG;
		default:
			break;	/* traps and mirrors */
		}
		break;
	default:
		return -DSA_DROP_BAD_TAG;
	}
	*dev_id = hdr[0] & 0x1f;
	*port = (hdr[1] >> 3) & 0x1f;
	return 0;
}

static struct sk_buff *dsa_rcv_common(struct sk_buff *skb, struct net_device *conduit, int extra)
{
	struct dsa_switch *ds = dsa_conduit_cpu_dp(conduit)->ds;
	int dev_id, port, err;

	if (unlikely(!pskb_may_pull(skb, DSA_HLEN + extra))) {
		dsa_count_drop(ds, DSA_DROP_SHORT);
		return NULL;
	}
	if (extra)
		__skb_pull(skb, extra);
	err = dsa_parse_rx(skb->data - 2, &dev_id, &port);
	if (err) {
		dsa_count_drop(ds, -err);
		return NULL;
	}
	skb->dev = dsa_conduit_find_user(conduit, dev_id, port);
	if (!skb->dev) {
		dsa_count_drop(ds, dev_id != ds->index ? DSA_DROP_BAD_SWITCH : DSA_DROP_BAD_PORT);
		return NULL;
	}
	dsa_untag_ll(skb, NULL, extra);
	return skb;
}

static struct sk_buff *dsa_xmit_common(struct sk_buff *skb, struct net_device *dev, int extra)
{
	struct dsa_port *dp = dsa_user_to_port(dev);

	if (dsa_tag_ll(skb, DSA_CMD_FROM_CPU, dp->ds->index, dp->index, extra)) {
		kfree_skb(skb);
		return NULL;
	}
	return skb;
}

static struct sk_buff *dsa_xmit(struct sk_buff *skb, struct net_device *dev)
{
	return dsa_xmit_common(skb, dev, 0);
}

static struct sk_buff *edsa_xmit(struct sk_buff *skb, struct net_device *dev)
{
	return dsa_xmit_common(skb, dev, EDSA_HLEN - DSA_HLEN);
}

static struct sk_buff *dsa_rcv(struct sk_buff *skb, struct net_device *conduit)
{
	return dsa_rcv_common(skb, conduit, 0);
}

static struct sk_buff *edsa_rcv(struct sk_buff *skb, struct net_device *conduit)
{
	return dsa_rcv_common(skb, conduit, EDSA_HLEN - DSA_HLEN);
}

/* The chip: FORWARD toward the CPU from (sw, port). */
static int dsa_hw_tag(struct sk_buff *skb, int sw, int port)
{
	return dsa_tag_ll(skb, DSA_CMD_FORWARD, sw, port, 0);
}

static int edsa_hw_tag(struct sk_buff *skb, int sw, int port)
{
	return dsa_tag_ll(skb, DSA_CMD_FORWARD, sw, port, EDSA_HLEN - DSA_HLEN);
}

/* The chip: accept FROM_CPU only, strip (or convert) the tag. */
static int dsa_hw_untag_common(struct sk_buff *skb, int *sw, int *port, int extra)
{
	const u8 *hdr;

	if (skb->len < ETH_HLEN + DSA_HLEN + extra)
		return -DSA_DROP_SHORT;
	if (extra && (skb->data[12] != (ETH_P_EDSA >> 8) || skb->data[13] != (ETH_P_EDSA & 0xff)))
		return -DSA_DROP_BAD_TPID;
	hdr = skb->data + 2 * ETH_ALEN + extra;
	if ((hdr[0] >> 6) != DSA_CMD_FROM_CPU)
		return -DSA_DROP_BAD_TAG;
	*sw = hdr[0] & 0x1f;
	*port = (hdr[1] >> 3) & 0x1f;
	__skb_pull(skb, ETH_HLEN + extra);
	dsa_untag_ll(skb, NULL, extra);
	__skb_push(skb, ETH_HLEN);
	skb_reset_mac_header(skb);
	return 0;
}

static int dsa_hw_untag(struct sk_buff *skb, int *sw, int *port)
{
	return dsa_hw_untag_common(skb, sw, port, 0);
}

static int edsa_hw_untag(struct sk_buff *skb, int *sw, int *port)
{
	return dsa_hw_untag_common(skb, sw, port, EDSA_HLEN - DSA_HLEN);
}

const struct dsa_device_ops dsa_netdev_ops = {
	.name = "dsa",
	.proto = DSA_TAG_PROTO_DSA,
	.xmit = dsa_xmit,
	.rcv = dsa_rcv,
	.needed_headroom = DSA_HLEN,
	.hw_tag = dsa_hw_tag,
	.hw_untag = dsa_hw_untag,
};

const struct dsa_device_ops edsa_netdev_ops = {
	.name = "edsa",
	.proto = DSA_TAG_PROTO_EDSA,
	.xmit = edsa_xmit,
	.rcv = edsa_rcv,
	.needed_headroom = EDSA_HLEN,
	.hw_tag = edsa_hw_tag,
	.hw_untag = edsa_hw_untag,
};
