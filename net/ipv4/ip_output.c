// SPDX-License-Identifier: GPL-2.0
/*
 * IPv4 output: locally built datagrams (ICMP) routed through the FIB
 * (ip_local_out), and the last step every datagram takes: OutTransmits,
 * headroom for the link-layer header, the neighbour's hard header
 * (neigh_hh_output: destination MAC from the static neighbour, source
 * MAC of the device, EtherType IPv4) and dev_queue_xmit().
 *
 * Kernel: net/ipv4/ip_output.c ip_local_out(), ip_output(),
 *	   ip_finish_output2(); include/net/neighbour.h neigh_hh_output()
 * Differs: no netfilter, no fragmentation; an unresolved next hop is
 *	    dropped (NEIGH_FAILED, OutNoRoutes is not touched) instead of
 *	    queued behind an ARP request.
 */
#include <arpa/inet.h>
#include <string.h>

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
	struct ethhdr *eth;

	/* ip_output(): IP_UPD_PO_STATS(OUT) */
	__IP_INC_STATS(OUTPKTS);
	skb->protocol = htons(ETH_P_IP);
	if (unlikely(skb_headroom(skb) < hh_len) &&
	    pskb_expand_head(skb, hh_len - skb_headroom(skb), 0, GFP_ATOMIC)) {
		__IP_INC_STATS(OUTDISCARDS);
		kfree_skb_reason(skb, SKB_DROP_REASON_NOMEM);
		return -ENOMEM;
	}
	neigh = __ipv4_neigh_lookup(dev->ifindex, nexthop);
	if (unlikely(!neigh)) {
		kfree_skb_reason(skb, SKB_DROP_REASON_NEIGH_FAILED);
		return -EHOSTUNREACH;
	}
	/* neigh_hh_output() */
	eth = (struct ethhdr *)skb_push(skb, ETH_HLEN);
	memcpy(eth->h_dest, neigh->ha, ETH_ALEN);
	memcpy(eth->h_source, dev->dev_addr, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	skb_reset_mac_header(skb);
	return dev_queue_xmit(skb);
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
