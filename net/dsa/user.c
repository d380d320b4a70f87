// SPDX-License-Identifier: GPL-2.0
/*
 * DSA user ports (swp0..swpN-1): netdevs on the conduit, with the
 * kernel's transmit order in dsa_user_xmit() (see net/dsa/dsa.c) and the
 * dsa-cb knobs as `link set dev swpN KEY VALUE`:
 *
 *   cb_clear full|tagger            memset all 48 bytes of skb->cb (5.13+),
 *                                   or only the tagger's cb size (the
 *                                   per-tagger skb_cb_size alternative)
 *   tx_ts_classify requested|always classify for PTP only when a HW TX
 *                                   timestamp was requested (5.13+), or run
 *                                   ptp_classify_raw() on every packet (5.12)
 *   hwtstamp on|off                 SIOCSHWTSTAMP: TX timestamping enabled
 *   tx_tstamp_request on|off        uxdp: mark every transmitted skb with
 *                                   SKBTX_HW_TSTAMP (a PTP stack would)
 *
 * Kernel: net/dsa/user.c dsa_user_xmit(), dsa_skb_tx_timestamp(),
 *	   dsa_enqueue_skb(), dsa_user_create(); 5.12 net/dsa/slave.c
 *	   dsa_slave_xmit(); drivers/net/dsa/sja1105/sja1105_ptp.c
 *	   sja1105_port_txtstamp()
 * Differs: no netpoll; user ports are noqueue and lltx by construction.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dsa.h>

/*
 * The switch's port_txtstamp (sja1105_port_txtstamp): for a packet that
 * asked for a HW timestamp on a port with TX timestamping on, keep a clone
 * in the tagger's cb for the two-step completion.
 */
static void dsa_port_txtstamp(struct dsa_port *dp, struct sk_buff *skb)
{
	struct sk_buff *clone;

	if (!dp->hwts_tx_en)
		return;
	clone = skb_clone(skb, GFP_ATOMIC);
	if (!clone)
		return;
	SJA1105_SKB_CB(skb)->clone = clone;
}

/* dsa_skb_tx_timestamp() in its two orders. */
static void dsa_skb_tx_timestamp(struct dsa_port *dp, struct sk_buff *skb)
{
	struct dsa_switch *ds = dp->ds;
	unsigned int type;

	if (dp->tx_ts_classify == DSA_TX_TS_ALWAYS) {
		/* 5.12: classify every packet, then look at the request. */
		ds->ptp_classified[smp_processor_id()]++;
		type = ptp_classify_raw(skb);
		if (type == PTP_CLASS_NONE)
			return;
		if (!(skb_shinfo(skb)->tx_flags & SKBTX_HW_TSTAMP))
			return;
		dsa_port_txtstamp(dp, skb);
		return;
	}
	/* 5.13+: nothing unless a HW timestamp was requested. */
	if (likely(!(skb_shinfo(skb)->tx_flags & SKBTX_HW_TSTAMP)))
		return;
	ds->ptp_classified[smp_processor_id()]++;
	type = ptp_classify_raw(skb);	/* in the driver since 5.13 */
	if (type == PTP_CLASS_NONE)
		return;
	dsa_port_txtstamp(dp, skb);
}

struct dsa_user_priv_ext {
	struct dsa_user_priv p;
	bool tstamp_request;
};

netdev_tx_t dsa_user_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct dsa_user_priv_ext *priv = netdev_priv(dev);
	struct dsa_port *dp = priv->p.dp;
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	struct net_device *conduit = dp->ds->conduit;
	struct sk_buff *nskb;

	/* 1. TX stats before the tag, even if dropped later. */
	st->tx_packets++;
	st->tx_bytes += skb->len;

	/* 2. cb: the user port's qdisc_skb_cb is in there; the tagger owns it now. */
	if (dp->cb_clear == DSA_CB_CLEAR_FULL)
		memset(skb->cb, 0, sizeof(skb->cb));
	else
		memset(skb->cb, 0, dp->cpu_dp->tag_ops->skb_cb_size);

	if (unlikely(priv->tstamp_request))
		skb_shinfo(skb)->tx_flags |= SKBTX_HW_TSTAMP;

	/* 3. TX timestamp request / PTP classification. */
	dsa_skb_tx_timestamp(dp, skb);

	/* 4. Head/tailroom for the tag, and a private copy if cloned. */
	if (skb_ensure_writable_head_tail(skb, dev)) {
		if (SJA1105_SKB_CB(skb)->clone)
			kfree_skb(SJA1105_SKB_CB(skb)->clone);
		dsa_count_drop(dp->ds, DSA_DROP_NOMEM);
		kfree_skb(skb);
		return NETDEV_TX_OK;
	}
	/* 5. Pad short frames when the tag goes at the tail. */
	if (dev->needed_tailroom && skb->len < ETH_ZLEN)
		skb_put_zero(skb, ETH_ZLEN - skb->len);

	/* 6. The tagger. NULL: consumed or dropped. */
	nskb = dp->cpu_dp->tag_ops->xmit(skb, dev);
	if (!nskb)
		return NETDEV_TX_OK;

	/* 7. dsa_enqueue_skb(): out through the conduit. */
	nskb->dev = conduit;
	dev_queue_xmit(nskb);
	return NETDEV_TX_OK;
}

static int dsa_user_set_param(struct net_device *dev, const char *key, const char *value,
			      char *err, size_t errlen)
{
	struct dsa_user_priv_ext *priv = netdev_priv(dev);
	struct dsa_port *dp = priv->p.dp;

	if (!strcmp(key, "cb_clear")) {
		if (!strcmp(value, "full"))
			dp->cb_clear = DSA_CB_CLEAR_FULL;
		else if (!strcmp(value, "tagger"))
			dp->cb_clear = DSA_CB_CLEAR_TAGGER;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "tx_ts_classify")) {
		if (!strcmp(value, "requested"))
			dp->tx_ts_classify = DSA_TX_TS_REQUESTED;
		else if (!strcmp(value, "always"))
			dp->tx_ts_classify = DSA_TX_TS_ALWAYS;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "hwtstamp") || !strcmp(key, "tx_tstamp_request")) {
		bool on;

		if (!strcmp(value, "on"))
			on = true;
		else if (!strcmp(value, "off"))
			on = false;
		else
			goto bad;
		if (key[0] == 'h')
			dp->hwts_tx_en = on;
		else
			priv->tstamp_request = on;
		return 0;
	}
	return -ENOENT;
bad:
	snprintf(err, errlen, "%s: bad value '%s' for %s", dev->name, value, key);
	return -EINVAL;
}

static int dsa_user_get_ethtool_stats(struct net_device *dev, char (*names)[48], u64 *values,
				      int max)
{
	struct dsa_port *dp = dsa_user_to_port(dev);
	int n = 0;

	if (n < max) {
		snprintf(names[n], 48, "cb_clear_%s", dp->cb_clear == DSA_CB_CLEAR_FULL ? "full" : "tagger");
		values[n] = 1;
	}
	n++;
	if (n < max) {
		snprintf(names[n], 48, "tx_ts_classify_%s",
			 dp->tx_ts_classify == DSA_TX_TS_ALWAYS ? "always" : "requested");
		values[n] = 1;
	}
	n++;
	return n;
}

static void dsa_user_dellink(struct net_device *dev);

static const struct net_device_ops dsa_user_netdev_ops = {
	.ndo_start_xmit = dsa_user_xmit,
	.ndo_set_param = dsa_user_set_param,
	.ndo_get_ethtool_stats = dsa_user_get_ethtool_stats,
};

void dsa_switch_dellink_dev(struct net_device *dev);

static void dsa_user_dellink(struct net_device *dev)
{
	dsa_switch_dellink_dev(dsa_user_to_port(dev)->ds->dev);
}

static const struct rtnl_link_ops dsa_user_link_ops = {
	.kind = "dsa",
	.priv_size = sizeof(struct dsa_user_priv_ext),
	.dellink = dsa_user_dellink,
};

int dsa_user_create(struct dsa_port *dp, const char *name)
{
	const struct dsa_device_ops *tag_ops = dp->cpu_dp->tag_ops;
	struct net_device *conduit = dp->ds->conduit;
	struct net_device *dev = alloc_netdev(&dsa_user_link_ops, name, 1, 1);
	int err;

	if (IS_ERR(dev))
		return PTR_ERR(dev);
	((struct dsa_user_priv_ext *)netdev_priv(dev))->p.dp = dp;
	dev->netdev_ops = &dsa_user_netdev_ops;
	/* The user port inherits the conduit's MAC. */
	memcpy(dev->dev_addr, conduit->dev_addr, ETH_ALEN);
	dev->needed_headroom = tag_ops->needed_headroom + conduit->needed_headroom;
	dev->needed_tailroom = tag_ops->needed_tailroom + conduit->needed_tailroom;
	dev->mtu = ETH_DATA_LEN;
	err = register_netdevice(dev);
	if (err) {
		free_netdev(dev);
		return err;
	}
	dp->user = dev;
	dev_open(dev);
	return 0;
}
