/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A capture device for stack tests: what the stack transmits on it is
 * kept (up to CAP_MAX skbs) for the test to look at, then freed by
 * cap_drain(). cap_new() registers and opens one.
 */
#ifndef _UXDP_TEST_CAP_DEV_H
#define _UXDP_TEST_CAP_DEV_H

#include <linux/err.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

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

static void cap_setup(struct net_device *dev)
{
	dev->netdev_ops = &cap_ops;
}

static const struct rtnl_link_ops cap_link_ops = {
	.kind = "cap",
	.priv_size = sizeof(struct cap_priv),
	.setup = cap_setup,
};

static inline struct cap_priv *capp(struct net_device *dev)
{
	return netdev_priv(dev);
}

static inline void cap_drain(struct net_device *dev)
{
	for (int i = 0; i < capp(dev)->n; i++)
		kfree_skb(capp(dev)->skbs[i]);
	capp(dev)->n = 0;
}

static inline struct net_device *cap_new(const char *name)
{
	struct net_device *dev = alloc_netdev(&cap_link_ops, name, 1, 1);

	ck_assert(!IS_ERR(dev));
	ck_assert_int_eq(register_netdevice(dev), 0);
	dev_open(dev);
	return dev;
}

#endif
