// SPDX-License-Identifier: GPL-2.0
/*
 * sink: the far end of a wire. What is transmitted to it (ndo_start_xmit
 * skbs, ndo_xdp_xmit frames) is counted as transmitted and freed. With a
 * native XDP program, each frame is also run through it as the receiving
 * host would (rx counters and verdicts, map updates such as xdp1's
 * per-protocol counts), then freed whatever the verdict: it already left.
 *
 * Kernel: none (a NIC plus the host behind it); the xmit contract is
 *	   ndo_xdp_xmit's (returns frames taken; here always all).
 * Differs: XDP_TX and XDP_REDIRECT verdicts of the program are counted only.
 */
#include <errno.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/rtnetlink.h>
#include <net/xdp.h>

struct sink_priv {
	struct xdp_rxq_info xdp_rxq;
};

static netdev_tx_t sink_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);

	st->tx_packets++;
	st->tx_bytes += skb->len;
	consume_skb(skb);
	return NETDEV_TX_OK;
}

static int sink_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames, u32 flags)
{
	struct sink_priv *priv = netdev_priv(dev);
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	struct bpf_prog *prog = dev->xdp_prog;

	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;
	for (int i = 0; i < n; i++) {
		struct xdp_frame *frame = frames[i];
		unsigned int len = xdp_get_frame_len(frame);

		st->tx_packets++;
		st->tx_bytes += len;
		if (prog) {
			struct xdp_buff xdp;

			xdp_convert_frame_to_buff(frame, &xdp);
			xdp.rxq = &priv->xdp_rxq;
			xdp.txq = NULL;
			st->rx_packets++;
			st->rx_bytes += len;
			netdev_xdp_count_verdict(dev, bpf_prog_run(prog, &xdp));
			/* A redirect decision left behind must not leak into the next run. */
			bpf_net_ctx_get_ri()->map_id = 0;
			bpf_net_ctx_get_ri()->map_type = BPF_MAP_TYPE_UNSPEC;
		}
		xdp_return_frame_rx_napi(frame);
	}
	return n;
}

static int sink_bpf(struct net_device *dev, struct netdev_bpf *bpf)
{
	return bpf->command == XDP_SETUP_PROG ? 0 : -EINVAL;
}

static int sink_init(struct net_device *dev)
{
	struct sink_priv *priv = netdev_priv(dev);

	xdp_rxq_info_reg(&priv->xdp_rxq, dev, 0, 0);
	return 0;
}

static void sink_uninit(struct net_device *dev)
{
	struct sink_priv *priv = netdev_priv(dev);

	xdp_rxq_info_unreg(&priv->xdp_rxq);
}

static const struct net_device_ops sink_netdev_ops = {
	.ndo_init = sink_init,
	.ndo_uninit = sink_uninit,
	.ndo_start_xmit = sink_xmit,
	.ndo_xdp_xmit = sink_xdp_xmit,
	.ndo_bpf = sink_bpf,
};

static void sink_setup(struct net_device *dev)
{
	dev->netdev_ops = &sink_netdev_ops;
	dev->xdp_features = NETDEV_XDP_ACT_BASIC | NETDEV_XDP_ACT_NDO_XMIT |
			    NETDEV_XDP_ACT_NDO_XMIT_SG | NETDEV_XDP_ACT_RX_SG;
	dev->mtu = 9000;
}

const struct rtnl_link_ops sink_link_ops = {
	.kind = "sink",
	.priv_size = sizeof(struct sink_priv),
	.usage = "",
	.setup = sink_setup,
	.newlink = rtnl_newlink_noargs,
};
