// SPDX-License-Identifier: GPL-2.0
/*
 * dummy: a device that takes whatever is sent to it and throws it away,
 * counting it as transmitted (`link add d0 type dummy`): a place to route
 * traffic to nowhere, as the kernel's dummy interface. No receive path, no
 * XDP, no ndo_xdp_xmit: a redirect into it fails as the kernel's does
 * (-EOPNOTSUPP, REDIRECT_NOT_SUPP on the redirecting device).
 *
 * Kernel: drivers/net/dummy.c dummy_xmit(), dummy_setup()
 * Differs: no GSO/offload features to announce, no IFF_NOARP; MTU within
 *	    the default 68..65535; tx counters are the device's per-CPU ones
 *	    (the kernel's dev_lstats).
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/rtnetlink.h>

static netdev_tx_t dummy_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);

	st->tx_packets++;
	st->tx_bytes += skb->len;
	consume_skb(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops dummy_netdev_ops = {
	.ndo_start_xmit = dummy_xmit,
};

static void dummy_setup(struct net_device *dev)
{
	dev->netdev_ops = &dummy_netdev_ops;
}

const struct rtnl_link_ops dummy_link_ops = {
	.kind = "dummy",
	.usage = "",
	.setup = dummy_setup,
	.newlink = rtnl_newlink_noargs,
};
