// SPDX-License-Identifier: GPL-2.0
/*
 * IPv4 output: locally built datagrams (ICMP) routed through the FIB
 * (ip_local_out), and the last step every datagram takes: OutTransmits,
 * headroom for the link-layer header, the next hop's neighbour (made
 * when missing) and neigh_output(): the hard header at once when the
 * entry is connected, else resolution (the skb may wait in the entry's
 * queue behind an ARP request).
 *
 * Kernel: net/ipv4/ip_output.c ip_local_out(), ip_output(),
 *	   ip_finish_output2(); include/net/neighbour.h neigh_hh_output()
 * Differs: no netfilter, no fragmentation.
 */
#include <arpa/inet.h>
#include <string.h>

#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dropreason.h>
#include <net/ip.h>
#include <net/neighbour.h>
#include <net/route.h>

int ip_finish_output2(struct sk_buff *skb, u32 nexthop)
{
	struct net_device *dev = skb->dev;
	unsigned int hh_len = LL_RESERVED_SPACE(dev);
	struct neighbour *neigh;

	/* ip_output(): IP_UPD_PO_STATS(OUT) */
	__IP_INC_STATS(OUTPKTS);
	skb->protocol = htons(ETH_P_IP);
	if (unlikely(skb_headroom(skb) < hh_len) &&
	    pskb_expand_head(skb, hh_len - skb_headroom(skb), 0, GFP_ATOMIC)) {
		__IP_INC_STATS(OUTDISCARDS);
		kfree_skb_reason(skb, SKB_DROP_REASON_NOMEM);
		return -ENOMEM;
	}
	/* ip_neigh_for_gw(): __ipv4_neigh_lookup_noref(), else create. */
	neigh = __ipv4_neigh_lookup(dev, nexthop);
	if (unlikely(!neigh)) {
		neigh = __neigh_create(&arp_tbl, &nexthop, dev);
		if (IS_ERR(neigh)) {
			kfree_skb_reason(skb, SKB_DROP_REASON_NEIGH_CREATEFAIL);
			return -EINVAL;
		}
	}
	return neigh_output(neigh, skb);
}

int ip_local_out(struct sk_buff *skb)
{
	struct iphdr *iph = ip_hdr(skb);
	struct fib_result res;
	struct net_device *dev;

	__IP_INC_STATS(OUTREQUESTS);
	if (fib_lookup(iph->daddr, &res) || res.type != RTN_UNICAST ||
	    !(dev = dev_get_by_index(res.oif))) {
		__IP_INC_STATS(OUTNOROUTES);
		kfree_skb_reason(skb, SKB_DROP_REASON_IP_OUTNOROUTES);
		return -ENETUNREACH;
	}
	if (!iph->saddr)
		iph->saddr = inet_select_addr(dev->ifindex, res.nexthop);
	ip_send_check(iph);
	skb->dev = dev;
	return ip_finish_output2(skb, res.nexthop);
}
