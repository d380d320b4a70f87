// SPDX-License-Identifier: GPL-2.0
/*
 * ocelot-8021q tagger: tag_8021q with the standard TPID 0x8100 and the
 * standalone VID of the port (0xC00 | switch << 6 | port), PCP from the
 * TX queue's traffic class (0 here).
 *
 * Kernel: net/dsa/tag_ocelot_8021q.c ocelot_xmit(), ocelot_rcv()
 * Differs: PTP frames are not diverted to the ocelot PTP path.
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dsa.h>

static struct sk_buff *ocelot_xmit(struct sk_buff *skb, struct net_device *netdev)
{
	struct dsa_port *dp = dsa_user_to_port(netdev);
	u16 tx_vid = dsa_tag_8021q_standalone_vid(dp->ds->index, dp->index);

	return dsa_8021q_xmit(skb, ETH_P_8021Q, (0 << VLAN_PRIO_SHIFT) | tx_vid);
}

static struct sk_buff *ocelot_rcv(struct sk_buff *skb, struct net_device *conduit)
{
	struct dsa_switch *ds = dsa_conduit_cpu_dp(conduit)->ds;
	int sw, port, vbid, err;

	if (unlikely(skb->len < VLAN_HLEN)) {
		dsa_count_drop(ds, DSA_DROP_SHORT);
		return NULL;
	}
	err = dsa_8021q_rcv(skb, &sw, &port, &vbid, ETH_P_8021Q);
	if (err) {
		dsa_count_drop(ds, -err);
		return NULL;
	}
	skb->dev = sw < 0 ? NULL : dsa_conduit_find_user(conduit, sw, port);
	if (!skb->dev) {
		dsa_count_drop(ds, sw < 0 ? DSA_DROP_BAD_TAG : sw != ds->index ?
			       DSA_DROP_BAD_SWITCH : DSA_DROP_BAD_PORT);
		return NULL;
	}
	return skb;
}

static int ocelot_hw_tag(struct sk_buff *skb, int sw, int port)
{
	return dsa_8021q_xmit(skb, ETH_P_8021Q, dsa_tag_8021q_standalone_vid(sw, port)) ?
	       0 : -DSA_DROP_NOMEM;
}

static int ocelot_hw_untag(struct sk_buff *skb, int *sw, int *port)
{
	int vbid, err;

	if (skb->len < ETH_HLEN + VLAN_HLEN)
		return -DSA_DROP_SHORT;
	skb_reset_mac_header(skb);
	__skb_pull(skb, ETH_HLEN);
	err = dsa_8021q_rcv(skb, sw, port, &vbid, ETH_P_8021Q);
	__skb_push(skb, ETH_HLEN);
	if (err)
		return err;
	return *sw < 0 ? -DSA_DROP_BAD_TAG : 0;
}

const struct dsa_device_ops ocelot_8021q_netdev_ops = {
	.name = "ocelot-8021q",
	.proto = DSA_TAG_PROTO_OCELOT_8021Q,
	.xmit = ocelot_xmit,
	.rcv = ocelot_rcv,
	.needed_headroom = VLAN_HLEN,
	.promisc_on_conduit = true,
	.hw_tag = ocelot_hw_tag,
	.hw_untag = ocelot_hw_untag,
};
