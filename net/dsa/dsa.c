// SPDX-License-Identifier: GPL-2.0
/*
 * DSA core: the receive entry from conduits, user port lookup, and the
 * per-switch drop counters.
 *
 * Theory of operation.
 * A switch (drivers/net/dsa/switch.c, `link add sw0 type dsa-switch ports N tag
 * PROTO [conduit NAME]`) has N front ports and a CPU port. The CPU port is
 * cabled to the conduit, a host Ethernet netdev whose dsa_ptr points at
 * the CPU dsa_port (the kernel's dev->dsa_ptr); each front port i has a
 * user netdev swpI on the host (net/dsa/user.c) and, in the switch model,
 * a front netdev sw0pI that other uxdp devices transmit or redirect into,
 * with a peer device it transmits out of.
 *
 * Receive: a frame entering front port i is tagged by the chip for the
 * CPU (tag_ops->hw_tag) and received by the conduit: eth_type_trans() on
 * the conduit, then protocol ETH_P_XDSA because the conduit uses DSA, then
 * netif_receive_skb(); the ETH_P_XDSA packet_type is dsa_switch_rcv():
 * skb_unshare, the tagger's rcv (parses and strips the tag, finds the user
 * port; malformed tags are dropped and counted per reason), push 14,
 * eth_type_trans() on the user port, user-port rx stats (bytes + 14), and
 * netif_receive_skb() on the user port, where IPv4 takes over.
 *
 * Transmit: dev_queue_xmit() on swpI reaches dsa_user_xmit(): tx stats
 * (before the tag), the cb policy (`cb_clear full`: memset of all 48 bytes,
 * 5.13+; `tagger`: only the tagger's cb size, the rejected alternative),
 * the TX timestamp policy (`tx_ts_classify requested`: SKBTX_HW_TSTAMP is
 * checked first, 5.13+; `always`: ptp_classify_raw() on every packet
 * first, 5.12), skb_ensure_writable_head_tail(), pad if a tailroom is
 * needed, the tagger's xmit, then dev_queue_xmit() on the conduit. The
 * conduit's transmit is the switch's CPU port: the chip parses the tag
 * (tag_ops->hw_untag), drops malformed or out-of-range tags with a reason,
 * strips it and sends the frame out of the front port to its peer.
 *
 * Kernel: net/dsa/dsa.c, net/dsa/tag.c dsa_switch_rcv(), net/dsa/tag.h
 *	   dsa_conduit_find_user(), net/dsa/conduit.c
 * Differs: no gro_cells (the user port's receive is synchronous:
 *	    netif_receive_skb instead of a cell NAPI); no metadata dst port
 *	    muxing, LAG or bridge offload; one switch per tree.
 */
#include <arpa/inet.h>
#include <string.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dropreason.h>
#include <net/dsa.h>

#define __DSA_DROP_NAME(name, text)	#name,
static const char *const dsa_drop_names[] = { DSA_DROP_REASONS(__DSA_DROP_NAME) };
#undef __DSA_DROP_NAME

const char *dsa_drop_reason_name(int r)
{
	return r >= 0 && r < DSA_DROP_MAX ? dsa_drop_names[r] : "?";
}

void dsa_count_drop(struct dsa_switch *ds, enum dsa_drop_reason r)
{
	ds->drops[smp_processor_id()][r]++;
}

struct dsa_port *dsa_conduit_cpu_dp(const struct net_device *conduit)
{
	return conduit->dsa_ptr;
}

struct net_device *dsa_conduit_find_user(struct net_device *conduit, int sw, int port)
{
	struct dsa_port *cpu_dp = conduit->dsa_ptr;
	struct dsa_switch *ds = cpu_dp->ds;

	if (sw != ds->index || port < 0 || port >= ds->num_ports)
		return NULL;
	return ds->ports[port].user;
}

int dsa_switch_rcv(struct sk_buff *skb, struct net_device *dev)
{
	struct dsa_port *cpu_dp = dev->dsa_ptr;
	struct netdev_pcpu_stats *st;
	struct sk_buff *nskb;

	if (unlikely(!cpu_dp)) {
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	skb = skb_unshare(skb, GFP_ATOMIC);
	if (!skb)
		return NET_RX_DROP;
	nskb = cpu_dp->rcv(skb, dev);
	if (!nskb) {
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	skb = nskb;
	skb_push(skb, ETH_HLEN);
	skb->pkt_type = PACKET_HOST;
	skb->protocol = eth_type_trans(skb, skb->dev);
	st = dev_pcpu_stats(skb->dev);
	st->rx_packets++;
	st->rx_bytes += skb->len + ETH_HLEN;
	if (unlikely(!netif_running(skb->dev))) {
		/* gro_cells_receive() on a down device */
		netdev_drop(skb->dev, NETDEV_DROP_RX_DOWN, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_DEV_READY);
		return NET_RX_DROP;
	}
	return netif_receive_skb(skb);
}

static struct packet_type dsa_pack_type = {
	.type = 0,	/* htons(ETH_P_XDSA) */
	.func = dsa_switch_rcv,
};
static int dsa_pack_users;

void dsa_register_pack(void)
{
	if (dsa_pack_users++)
		return;
	dsa_pack_type.type = htons(ETH_P_XDSA);
	dev_add_pack(&dsa_pack_type);
}

void dsa_unregister_pack(void)
{
	if (dsa_pack_users && !--dsa_pack_users)
		dev_remove_pack(&dsa_pack_type);
}
