// SPDX-License-Identifier: GPL-2.0
/*
 * trailer tagger (Marvell 88E6060 family): a 4-byte tag after the frame
 * instead of a header. Toward the switch it is 0x80, the bit mask of the
 * egress port, 0x10, 0x00; from the switch 0x80, the source port (0-7),
 * 0x00 (bit 4 may be set), 0x00. dsa_user_xmit() pads short frames to
 * ETH_ZLEN first (needed_tailroom), so the trailer is always the frame's
 * last four bytes. There is no switch id: the tree has one chip.
 *
 * Kernel: net/dsa/tag_trailer.c trailer_xmit(), trailer_rcv()
 * Differs: rcv drops frames shorter than the trailer (SHORT) where the
 *	    kernel reads the bytes before skb->data; pskb_trim() stands for
 *	    pskb_trim_rcsum() (no CHECKSUM_COMPLETE here). The chip's side
 *	    (hw_tag, hw_untag) models the switch: the one-bit port mask of
 *	    ports 8-15 does not fit the byte, so frames for them are dropped
 *	    as BAD_TAG by the chip.
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dsa.h>

#define TRAILER_LEN	4

static struct sk_buff *trailer_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct dsa_port *dp = dsa_user_to_port(dev);
	u8 *trailer = skb_put(skb, TRAILER_LEN);

	trailer[0] = 0x80;
	trailer[1] = (u8)(1U << dp->index);	/* dsa_xmit_port_mask() of one port */
	trailer[2] = 0x10;
	trailer[3] = 0x00;
	return skb;
}

static struct sk_buff *trailer_rcv(struct sk_buff *skb, struct net_device *conduit)
{
	struct dsa_switch *ds = dsa_conduit_cpu_dp(conduit)->ds;
	u8 *trailer;

	if (unlikely(skb->len < TRAILER_LEN)) {
		dsa_count_drop(ds, DSA_DROP_SHORT);
		return NULL;
	}
	if (skb_linearize(skb)) {
		dsa_count_drop(ds, DSA_DROP_NOMEM);
		return NULL;
	}
	trailer = skb_tail_pointer(skb) - TRAILER_LEN;
	if (trailer[0] != 0x80 || (trailer[1] & 0xf8) || (trailer[2] & 0xef) || trailer[3]) {
		dsa_count_drop(ds, DSA_DROP_BAD_TAG);
		return NULL;
	}
	skb->dev = dsa_conduit_find_user(conduit, 0, trailer[1] & 7);
	if (!skb->dev) {
		dsa_count_drop(ds, ds->index ? DSA_DROP_BAD_SWITCH : DSA_DROP_BAD_PORT);
		return NULL;
	}
	if (pskb_trim(skb, skb->len - TRAILER_LEN)) {
		dsa_count_drop(ds, DSA_DROP_NOMEM);
		return NULL;
	}
	return skb;
}

/* The switch chip: pad to ETH_ZLEN and append the source port's trailer. */
static int trailer_hw_tag(struct sk_buff *skb, int sw, int port)
{
	unsigned int pad = skb->len < ETH_ZLEN ? ETH_ZLEN - skb->len : 0;
	u8 *trailer;

	if (port > 7)
		return -DSA_DROP_BAD_PORT;
	if (skb_linearize(skb))
		return -DSA_DROP_NOMEM;
	if ((skb_cloned(skb) || skb_tailroom(skb) < (int)(pad + TRAILER_LEN)) &&
	    pskb_expand_head(skb, 0, pad + TRAILER_LEN, GFP_ATOMIC))
		return -DSA_DROP_NOMEM;
	if (pad)
		skb_put_zero(skb, pad);
	trailer = skb_put(skb, TRAILER_LEN);
	trailer[0] = 0x80;
	trailer[1] = port;
	trailer[2] = 0x00;
	trailer[3] = 0x00;
	return 0;
}

/* The chip: a frame from the CPU names exactly one egress port. */
static int trailer_hw_untag(struct sk_buff *skb, int *sw, int *port)
{
	u8 *trailer;

	if (skb->len < ETH_HLEN + TRAILER_LEN)
		return -DSA_DROP_SHORT;
	if (skb_linearize(skb))
		return -DSA_DROP_NOMEM;
	trailer = skb_tail_pointer(skb) - TRAILER_LEN;
	if (trailer[0] != 0x80 || !trailer[1] || (trailer[1] & (trailer[1] - 1)) ||
	    (trailer[2] & 0xef) || trailer[3])
		return -DSA_DROP_BAD_TAG;
	*sw = 0;
	*port = __builtin_ctz(trailer[1]);
	return pskb_trim(skb, skb->len - TRAILER_LEN) ? -DSA_DROP_NOMEM : 0;
}

const struct dsa_device_ops trailer_netdev_ops = {
	.name = "trailer",
	.proto = DSA_TAG_PROTO_TRAILER,
	.xmit = trailer_xmit,
	.rcv = trailer_rcv,
	.needed_tailroom = TRAILER_LEN,
	.hw_tag = trailer_hw_tag,
	.hw_untag = trailer_hw_untag,
};
