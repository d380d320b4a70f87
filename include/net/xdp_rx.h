/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receive-path verdict switch uxdp's page-pool drivers share
 * (xdp_rx_verdict()). Apart from <net/xdp.h> because it needs the device
 * and redirect layers (<linux/netdevice.h>, <linux/filter.h>), which the
 * buffer helpers there must not pull into every includer.
 *
 * Kernel: none shared; the switch of ixgbe_run_xdp(), i40e_run_xdp(),
 *	   mlx5e_xdp_handle()
 */
#ifndef _UXDP_NET_XDP_RX_H
#define _UXDP_NET_XDP_RX_H

#include <linux/filter.h>
#include <linux/netdevice.h>
#include <net/xdp.h>

/*
 * xdp_rx_verdict() - a page-pool driver's receive path after its program
 * said @act (already counted by netdev_xdp_count_verdict()), for every
 * verdict but XDP_TX, whose ring is the driver's own (take it first):
 *   PASS      up the stack in the skb xdp_build_skb_from_buff() builds
 *             (no skb: dropped, NETDEV_DROP_SKB_ALLOC);
 *   REDIRECT  xdp_do_redirect(); a failure dropped by its reason;
 *   ABORTED   (also an invalid action) dropped; anything else XDP_DROP.
 * Return: true for REDIRECT: the caller runs xdp_do_flush() at the end of
 * its poll.
 * The kernel has this switch in every driver (ixgbe_run_xdp(),
 * i40e_run_xdp(), mlx5e_xdp_handle()); uxdp's page-pool drivers (gen,
 * pcap, afpacket, tap, afxdp) differ only in XDP_TX and share the rest.
 * Inline: it is the per-frame path of each of them (a call costs gen ->
 * XDP_DROP 8 % more instructions).
 */
static __always_inline bool xdp_rx_verdict(struct net_device *dev, struct xdp_buff *xdp,
					   struct bpf_prog *prog, u32 act)
{
	struct sk_buff *skb;
	int err;

	switch (act) {
	case XDP_PASS:
		skb = xdp_build_skb_from_buff(xdp);
		if (unlikely(!skb)) {
			netdev_drop(dev, NETDEV_DROP_SKB_ALLOC, 1);
			xdp_return_buff(xdp);
			return false;
		}
		netif_receive_skb(skb);
		return false;
	case XDP_REDIRECT:
		err = xdp_do_redirect(dev, xdp, prog);
		if (unlikely(err)) {
			xdp_do_redirect_count_drop(dev, err, 1);
			xdp_return_buff(xdp);
		}
		return true;
	case XDP_ABORTED:
		netdev_drop(dev, NETDEV_DROP_XDP_ABORTED, 1);
		xdp_return_buff(xdp);
		return false;
	default:
		netdev_drop(dev, NETDEV_DROP_XDP_DROP, 1);
		xdp_return_buff(xdp);
		return false;
	}
}

#endif
