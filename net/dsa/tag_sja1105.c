// SPDX-License-Identifier: GPL-2.0
/*
 * sja1105 tagger: tag_8021q with TPID 0xDADB (ETH_P_SJA1105) for
 * VLAN-unaware ports; TX VID = the standalone VID of the port, PCP from
 * the TX queue's traffic class (0: one queue). skb->cb is struct
 * sja1105_skb_cb {clone, tstamp, ts_id}; a two-step TX timestamp clone
 * left there by the driver's port_txtstamp is completed after tagging.
 *
 * Kernel: net/dsa/tag_sja1105.c sja1105_xmit(), sja1105_rcv(),
 *	   sja1105_xmit_tpid(); drivers/net/dsa/sja1105/sja1105_ptp.c
 *	   sja1105_port_txtstamp()
 * Differs: link-local frames are not deferred to a management-route
 *	    worker; meta frames (RX timestamps) are not modelled; the clone
 *	    is completed (freed, counted) at once since there is no PHC.
 */
#include <arpa/inet.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dsa.h>

static struct sk_buff *sja1105_xmit(struct sk_buff *skb, struct net_device *netdev)
{
	struct dsa_port *dp = dsa_user_to_port(netdev);
	u16 tx_vid = dsa_tag_8021q_standalone_vid(dp->ds->index, dp->index);
	u16 pcp = 0;	/* netdev_txq_to_tc(): one TX queue, tc 0 */
	struct sk_buff *clone = SJA1105_SKB_CB(skb)->clone;

	skb = dsa_8021q_xmit(skb, ETH_P_SJA1105, (pcp << VLAN_PRIO_SHIFT) | tx_vid);
	if (unlikely(clone)) {
		/* Two-step: the egress timestamp would complete the clone. */
		dp->ds->tx_ts_clones[smp_processor_id()]++;
		consume_skb(clone);
	}
	return skb;
}

static struct sk_buff *sja1105_rcv(struct sk_buff *skb, struct net_device *conduit)
{
	struct dsa_port *cpu_dp = dsa_conduit_cpu_dp(conduit);
	int sw, port, vbid, err;

	if (unlikely(skb->len < VLAN_HLEN)) {
		dsa_count_drop(cpu_dp->ds, DSA_DROP_SHORT);
		return NULL;
	}
	err = dsa_8021q_rcv(skb, &sw, &port, &vbid, ETH_P_SJA1105);
	if (err) {
		dsa_count_drop(cpu_dp->ds, -err);
		return NULL;
	}
	if (sw < 0 || port < 0) {
		dsa_count_drop(cpu_dp->ds, DSA_DROP_BAD_TAG);
		return NULL;
	}
	skb->dev = dsa_conduit_find_user(conduit, sw, port);
	if (!skb->dev) {
		dsa_count_drop(cpu_dp->ds, sw != cpu_dp->ds->index ? DSA_DROP_BAD_SWITCH :
			       DSA_DROP_BAD_PORT);
		return NULL;
	}
	return skb;
}

/* The switch chip: tag frames from front @port with the RX VID. */
static int sja1105_hw_tag(struct sk_buff *skb, int sw, int port)
{
	u16 vid = dsa_tag_8021q_standalone_vid(sw, port);

	return dsa_8021q_xmit(skb, ETH_P_SJA1105, vid) ? 0 : -DSA_DROP_NOMEM;
}

static int sja1105_hw_untag(struct sk_buff *skb, int *sw, int *port)
{
	int vbid, err;

	if (skb->len < ETH_HLEN + VLAN_HLEN)
		return -DSA_DROP_SHORT;
	skb_reset_mac_header(skb);
	__skb_pull(skb, ETH_HLEN);
	err = dsa_8021q_rcv(skb, sw, port, &vbid, ETH_P_SJA1105);
	__skb_push(skb, ETH_HLEN);
	if (err)
		return err;
	return *sw < 0 ? -DSA_DROP_BAD_TAG : 0;
}

const struct dsa_device_ops sja1105_netdev_ops = {
	.name = "sja1105",
	.proto = DSA_TAG_PROTO_SJA1105,
	.xmit = sja1105_xmit,
	.rcv = sja1105_rcv,
	.needed_headroom = VLAN_HLEN,
	.promisc_on_conduit = true,
	.skb_cb_size = sizeof(struct sja1105_skb_cb),
	.hw_tag = sja1105_hw_tag,
	.hw_untag = sja1105_hw_untag,
};
