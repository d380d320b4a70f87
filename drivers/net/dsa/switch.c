// SPDX-License-Identifier: GPL-2.0
/*
 * The switch-chip model and its link kind:
 *
 *   link add sw0 type dsa-switch ports N tag PROTO [conduit NAME] [mac MAC]
 *                                [index ID] [user PREFIX]
 *   link set dev sw0pI peer DEV
 *
 * creates sw0 (the chip: drop and PTP counters), the conduit NAME
 * (default eth0, MTU 1500 + tag overhead, the tagger's promisc need
 * noted), N front ports sw0p0..N-1 and N user ports PREFIX0..N-1 (default
 * swp). A front port takes frames from the wire by ndo_start_xmit (skbs)
 * or ndo_xdp_xmit (redirected frames, turned into skbs as a NIC would),
 * the chip tags them for the CPU port (tag_ops->hw_tag) and the conduit
 * receives them (eth_type_trans, ETH_P_XDSA, netif_receive_skb). The
 * conduit's transmit is the CPU port: the chip parses and strips the tag
 * (tag_ops->hw_untag), checks switch id and port, and transmits on the
 * front port's peer (dev_queue_xmit). Deleting any of the devices deletes
 * the whole switch.
 *
 * Kernel: none for the chip (drivers/net/dsa/sja1105 programs a real one);
 *	   net/dsa/conduit.c dsa_conduit_setup() (MTU, promisc),
 *	   net/dsa/dsa.c dsa_port_parse_cpu()
 * Differs: the conduit receives synchronously in the caller's context (no
 *	    NAPI of its own); no FDB, VLAN table or learning: the CPU port
 *	    forwards by the tag only, front ports only toward the CPU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dsa.h>
#include <net/rtnetlink.h>
#include <net/xdp.h>

struct dsa_child_priv {
	struct dsa_port *dp;	/* front port, or the CPU port for the conduit */
};

static void conduit_rx(struct dsa_switch *ds, struct sk_buff *skb)
{
	struct net_device *conduit = ds->conduit;
	struct netdev_pcpu_stats *st = dev_pcpu_stats(conduit);

	st->rx_packets++;
	st->rx_bytes += skb->len;
	skb->protocol = eth_type_trans(skb, conduit);
	/* netdev_uses_dsa(conduit): every frame goes to dsa_switch_rcv. */
	if (conduit->dsa_ptr && conduit->dsa_ptr->rcv)
		skb->protocol = __builtin_bswap16(ETH_P_XDSA);
	netif_receive_skb(skb);
}

/* A frame entered front port @dp from the wire (data at the MAC header). */
static void dsa_front_rx(struct dsa_port *dp, struct sk_buff *skb)
{
	struct dsa_switch *ds = dp->ds;
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dp->front);
	int err;

	st->rx_packets++;
	st->rx_bytes += skb->len;
	if (unlikely(skb->len < ETH_HLEN)) {
		dsa_count_drop(ds, DSA_DROP_SHORT);
		kfree_skb(skb);
		return;
	}
	skb_reset_mac_header(skb);
	err = ds->tag_ops->hw_tag(skb, ds->index, dp->index);
	if (unlikely(err)) {
		dsa_count_drop(ds, -err);
		kfree_skb(skb);
		return;
	}
	conduit_rx(ds, skb);
}

static netdev_tx_t dsa_front_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct dsa_child_priv *priv = netdev_priv(dev);

	if (skb_unclone(skb, GFP_ATOMIC)) {
		dsa_count_drop(priv->dp->ds, DSA_DROP_NOMEM);
		kfree_skb(skb);
		return NETDEV_TX_OK;
	}
	dsa_front_rx(priv->dp, skb);
	return NETDEV_TX_OK;
}

static int dsa_front_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames, u32 flags)
{
	struct dsa_child_priv *priv = netdev_priv(dev);

	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;
	for (int i = 0; i < n; i++) {
		/* The NIC side of the wire: a fresh skb (the frame's page). */
		struct sk_buff *skb = xdp_build_skb_from_frame(frames[i], dev);

		if (unlikely(!skb)) {
			dsa_count_drop(priv->dp->ds, DSA_DROP_NOMEM);
			xdp_return_frame(frames[i]);
			continue;
		}
		skb_push(skb, ETH_HLEN);	/* undo its eth_type_trans() */
		skb->pkt_type = PACKET_HOST;
		dsa_front_rx(priv->dp, skb);
	}
	return n;
}

static int dsa_front_set_param(struct net_device *dev, const char *key, const char *value,
			       char *err, size_t errlen)
{
	struct dsa_child_priv *priv = netdev_priv(dev);
	struct net_device *peer;

	if (strcmp(key, "peer"))
		return -ENOENT;
	if (!strcmp(value, "none")) {
		priv->dp->peer = NULL;
		return 0;
	}
	peer = dev_get_by_name(value);
	if (!peer || peer == dev) {
		snprintf(err, errlen, "%s: no device '%s' to cable to", dev->name, value);
		return -ENODEV;
	}
	priv->dp->peer = peer;
	return 0;
}

static struct net_device *dsa_front_peer(struct net_device *dev)
{
	struct dsa_child_priv *priv = netdev_priv(dev);

	return priv->dp->peer;
}

/* The conduit transmits into the CPU port: the chip untags and forwards. */
static netdev_tx_t dsa_conduit_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct dsa_child_priv *priv = netdev_priv(dev);
	struct dsa_switch *ds = priv->dp->ds;
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	struct dsa_port *dp;
	int sw, port, err;

	st->tx_packets++;
	st->tx_bytes += skb->len;
	if (skb_unclone(skb, GFP_ATOMIC)) {
		err = -DSA_DROP_NOMEM;
		goto drop;
	}
	skb_reset_mac_header(skb);
	err = ds->tag_ops->hw_untag(skb, &sw, &port);
	if (err)
		goto drop;
	if (sw != ds->index) {
		err = -DSA_DROP_BAD_SWITCH;
		goto drop;
	}
	if (port < 0 || port >= ds->num_ports) {
		err = -DSA_DROP_BAD_PORT;
		goto drop;
	}
	dp = &ds->ports[port];
	if (!dp->peer || !netif_running(dp->peer)) {
		err = -DSA_DROP_NO_PEER;
		goto drop;
	}
	st = dev_pcpu_stats(dp->front);
	st->tx_packets++;
	st->tx_bytes += skb->len;
	skb_reset_mac_header(skb);
	skb->dev = dp->peer;
	dev_queue_xmit(skb);
	return NETDEV_TX_OK;
drop:
	dsa_count_drop(ds, -err);
	kfree_skb(skb);
	return NETDEV_TX_OK;
}

void dsa_switch_dellink_dev(struct net_device *dev);

static void dsa_child_dellink(struct net_device *dev)
{
	struct dsa_child_priv *priv = netdev_priv(dev);

	dsa_switch_dellink_dev(priv->dp->ds->dev);
}

static const struct net_device_ops dsa_front_netdev_ops = {
	.ndo_start_xmit = dsa_front_xmit,
	.ndo_xdp_xmit = dsa_front_xdp_xmit,
	.ndo_set_param = dsa_front_set_param,
	.ndo_get_peer_dev = dsa_front_peer,
};

static const struct net_device_ops dsa_conduit_netdev_ops = {
	.ndo_start_xmit = dsa_conduit_xmit,
};

static const struct rtnl_link_ops dsa_front_link_ops = {
	.kind = "dsa-port",
	.priv_size = sizeof(struct dsa_child_priv),
	.dellink = dsa_child_dellink,
};

static const struct rtnl_link_ops dsa_conduit_link_ops = {
	.kind = "dsa-conduit",
	.priv_size = sizeof(struct dsa_child_priv),
	.dellink = dsa_child_dellink,
};

static void dsa_child_free(struct net_device **pdev)
{
	if (!*pdev)
		return;
	unregister_netdevice(*pdev);
	free_netdev(*pdev);
	*pdev = NULL;
}

/* Tear down everything but the switch netdev itself. */
static void dsa_switch_teardown(struct dsa_switch *ds)
{
	for (int i = 0; i < ds->num_ports; i++) {
		dsa_child_free(&ds->ports[i].user);
		dsa_child_free(&ds->ports[i].front);
	}
	if (ds->conduit) {
		ds->conduit->dsa_ptr = NULL;
		dsa_child_free(&ds->conduit);
	}
}

void dsa_switch_dellink_dev(struct net_device *dev)
{
	struct dsa_switch *ds = netdev_priv(dev);

	dsa_switch_teardown(ds);
	ptp_classifier_exit();
	dsa_unregister_pack();
	unregister_netdevice(dev);
	free_netdev(dev);
}

static void dsa_switch_dellink(struct net_device *dev)
{
	dsa_switch_dellink_dev(dev);
}

static int dsa_switch_get_ethtool_stats(struct net_device *dev, char (*names)[48], u64 *values,
					int max)
{
	struct dsa_switch *ds = netdev_priv(dev);
	int n = 0;

	for (int r = 0; r < DSA_DROP_MAX; r++, n++) {
		u64 v = 0;

		for (int cpu = 0; cpu < NR_CPUS; cpu++)
			v += ds->drops[cpu][r];
		if (n < max) {
			snprintf(names[n], 48, "drop_%s", dsa_drop_reason_name(r));
			values[n] = v;
		}
	}
	if (n < max) {
		u64 v = 0;

		for (int cpu = 0; cpu < NR_CPUS; cpu++)
			v += ds->ptp_classified[cpu];
		snprintf(names[n], 48, "ptp_classify_runs");
		values[n] = v;
	}
	n++;
	if (n < max) {
		u64 v = 0;

		for (int cpu = 0; cpu < NR_CPUS; cpu++)
			v += ds->tx_ts_clones[cpu];
		snprintf(names[n], 48, "tx_ts_clones");
		values[n] = v;
	}
	n++;
	return n;
}

static void dsa_switch_stats_reset(struct net_device *dev)
{
	struct dsa_switch *ds = netdev_priv(dev);

	memset(ds->drops, 0, sizeof(ds->drops));
	memset(ds->ptp_classified, 0, sizeof(ds->ptp_classified));
	memset(ds->tx_ts_clones, 0, sizeof(ds->tx_ts_clones));
}

static const struct net_device_ops dsa_switch_netdev_ops = {
	.ndo_get_ethtool_stats = dsa_switch_get_ethtool_stats,
	.ndo_stats_reset = dsa_switch_stats_reset,
};

static void dsa_switch_setup(struct net_device *dev)
{
	dev->netdev_ops = &dsa_switch_netdev_ops;
}

static int parse_mac(const char *s, u8 *mac)
{
	unsigned int m[6];
	char c;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5], &c) != 6)
		return -EINVAL;
	for (int i = 0; i < 6; i++) {
		if (m[i] > 255)
			return -EINVAL;
		mac[i] = m[i];
	}
	return 0;
}

static struct net_device *dsa_child_new(const struct rtnl_link_ops *ops,
					const struct net_device_ops *nops,
					const char *name, struct dsa_port *dp)
{
	struct net_device *dev = alloc_netdev(ops, name, 1, 1);

	if (IS_ERR(dev))
		return dev;
	((struct dsa_child_priv *)netdev_priv(dev))->dp = dp;
	dev->netdev_ops = nops;
	if (register_netdevice(dev)) {
		free_netdev(dev);
		return ERR_PTR(-EEXIST);
	}
	dev_open(dev);
	return dev;
}

static int dsa_switch_newlink(struct net_device *dev, int argc, char **argv,
			      char *err, size_t errlen)
{
	struct dsa_switch *ds = netdev_priv(dev);
	const char *conduit_name = "eth0", *prefix = "swp", *tag = NULL;
	u8 mac[ETH_ALEN];
	bool have_mac = false;
	struct dsa_port *cpu_dp;
	char name[64];
	int ports = 0, index = 0, ret, i;

	for (i = 0; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];
		char *end;

		if (!strcmp(k, "ports")) {
			ports = strtol(v, &end, 0);
			if (*end || ports < 1 || ports > DSA_MAX_PORTS)
				goto bad;
		} else if (!strcmp(k, "tag")) {
			tag = v;
		} else if (!strcmp(k, "conduit")) {
			conduit_name = v;
		} else if (!strcmp(k, "user")) {
			prefix = v;
		} else if (!strcmp(k, "index")) {
			index = strtol(v, &end, 0);
			if (*end || index < 0 || index > 7)
				goto bad;
		} else if (!strcmp(k, "mac")) {
			if (parse_mac(v, mac))
				goto bad;
			have_mac = true;
		} else {
			goto bad;
		}
	}
	if (i != argc || !ports || !tag) {
		snprintf(err, errlen, "dsa-switch: needs ports N tag PROTO");
		return -EINVAL;
	}
	ds->tag_ops = dsa_tag_driver_get_by_name(tag);
	if (!ds->tag_ops) {
		snprintf(err, errlen, "dsa-switch: unknown tag '%s' (%s)", tag, dsa_tag_names());
		return -EINVAL;
	}
	ds->index = index;
	ds->num_ports = ports;
	ds->dev = dev;
	ret = register_netdevice(dev);
	if (ret) {
		snprintf(err, errlen, "cannot register '%s'", dev->name);
		return ret;
	}
	ret = ptp_classifier_init();
	if (ret) {
		snprintf(err, errlen, "dsa-switch: PTP classifier: %s", strerror(-ret));
		goto out_unregister;
	}
	dsa_register_pack();

	/* The CPU port and the conduit. */
	cpu_dp = &ds->ports[ports];
	cpu_dp->index = ports;
	cpu_dp->ds = ds;
	cpu_dp->cpu_dp = cpu_dp;
	cpu_dp->tag_ops = ds->tag_ops;
	cpu_dp->rcv = ds->tag_ops->rcv;
	ds->conduit = dsa_child_new(&dsa_conduit_link_ops, &dsa_conduit_netdev_ops,
				    conduit_name, cpu_dp);
	if (IS_ERR(ds->conduit)) {
		ret = PTR_ERR(ds->conduit);
		ds->conduit = NULL;
		snprintf(err, errlen, "dsa-switch: cannot create conduit '%s'", conduit_name);
		goto out_teardown;
	}
	if (have_mac)
		memcpy(ds->conduit->dev_addr, mac, ETH_ALEN);
	/* dsa_conduit_setup(): room for the tag in the conduit's MTU. */
	ds->conduit->mtu = ETH_DATA_LEN + ds->tag_ops->needed_headroom + ds->tag_ops->needed_tailroom;
	ds->conduit->dsa_ptr = cpu_dp;

	for (i = 0; i < ports; i++) {
		struct dsa_port *dp = &ds->ports[i];

		dp->index = i;
		dp->ds = ds;
		dp->cpu_dp = cpu_dp;
		snprintf(name, sizeof(name), "%sp%d", dev->name, i);
		dp->front = dsa_child_new(&dsa_front_link_ops, &dsa_front_netdev_ops, name, dp);
		if (IS_ERR(dp->front)) {
			ret = PTR_ERR(dp->front);
			dp->front = NULL;
			snprintf(err, errlen, "dsa-switch: cannot create '%s'", name);
			goto out_teardown;
		}
		dp->front->xdp_features = NETDEV_XDP_ACT_NDO_XMIT;
		dp->front->mtu = 9000;
		snprintf(name, sizeof(name), "%s%d", prefix, i);
		ret = dsa_user_create(dp, name);
		if (ret) {
			snprintf(err, errlen, "dsa-switch: cannot create user port '%s'", name);
			goto out_teardown;
		}
	}
	return 0;

out_teardown:
	dsa_switch_teardown(ds);
	dsa_unregister_pack();
	ptp_classifier_exit();
out_unregister:
	unregister_netdevice(dev);
	return ret;
bad:
	snprintf(err, errlen, "dsa-switch: bad argument '%s %s'", argv[i], argv[i + 1]);
	return -EINVAL;
}

const struct rtnl_link_ops dsa_switch_link_ops = {
	.kind = "dsa-switch",
	.priv_size = sizeof(struct dsa_switch),
	.usage = "ports N tag PROTO [conduit NAME] [mac MAC] [index ID] [user PREFIX]",
	.setup = dsa_switch_setup,
	.newlink = dsa_switch_newlink,
	.dellink = dsa_switch_dellink,
};
