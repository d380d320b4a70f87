// SPDX-License-Identifier: GPL-2.0
/*
 * IPv6 forwarding and output. ip6_forward() in the kernel's order: only
 * PACKET_HOST; hop limit <= 1 -> ICMPv6 time exceeded and InHdrErrors
 * before anything changes; an unspecified, multicast or loopback source
 * -> InAddrErrors, a link-local one -> ICMPv6 beyond scope too; longer
 * than the output MTU (at least 1280) -> ICMPv6 packet too big with that
 * MTU, InTooBigErrors and FragFails (routers never fragment IPv6);
 * skb_cow() for the link-layer header; hop limit - 1 (no checksum in
 * IPv6); OutForwDatagrams; then the neighbour on the route's device.
 * ip6_finish_output2() resolves the next hop in nd_tbl (neighbour
 * solicitation, the skb queued meanwhile) as ip_finish_output2() does in
 * arp_tbl.
 *
 * Kernel: net/ipv6/ip6_output.c ip6_forward(), ip6_pkt_too_big(),
 *	   ip6_forward_finish(), ip6_output(), ip6_finish_output2(),
 *	   ip6_local_out()
 * Differs: no netfilter, xfrm, router alert, proxy NDP or redirects;
 *	    the route MTU is the device MTU.
 */
#include <arpa/inet.h>
#include <errno.h>

#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dropreason.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/neighbour.h>
#include <net/route.h>

int ip6_finish_output2(struct sk_buff *skb, const struct in6_addr *nexthop)
{
	struct net_device *dev = skb->dev;
	unsigned int hh_len = LL_RESERVED_SPACE(dev);
	struct neighbour *neigh;

	__IP6_INC_STATS(OUTPKTS);
	skb->protocol = htons(ETH_P_IPV6);
	if (unlikely(skb_headroom(skb) < hh_len) &&
	    pskb_expand_head(skb, hh_len - skb_headroom(skb), 0, GFP_ATOMIC)) {
		__IP6_INC_STATS(OUTDISCARDS);
		kfree_skb_reason(skb, SKB_DROP_REASON_NOMEM);
		return -ENOMEM;
	}
	neigh = neigh_lookup(&nd_tbl, nexthop, dev);
	if (unlikely(!neigh)) {
		neigh = __neigh_create(&nd_tbl, nexthop, dev);
		if (IS_ERR(neigh)) {
			__IP6_INC_STATS(OUTNOROUTES);
			kfree_skb_reason(skb, SKB_DROP_REASON_NEIGH_CREATEFAIL);
			return -EINVAL;
		}
	}
	return neigh_output(neigh, skb);
}

int ip6_local_out(struct sk_buff *skb)
{
	struct ipv6hdr *hdr = ipv6_hdr(skb);
	struct fib6_result res;
	struct net_device *dev;

	__IP6_INC_STATS(OUTREQUESTS);
	if (fib6_lookup(&hdr->daddr, &res) || res.type != RTN_UNICAST ||
	    !(dev = dev_get_by_index(res.oif))) {
		__IP6_INC_STATS(OUTNOROUTES);
		kfree_skb_reason(skb, SKB_DROP_REASON_IP_OUTNOROUTES);
		return -ENETUNREACH;
	}
	skb->dev = dev;
	return ip6_finish_output2(skb, &res.nexthop);
}

static bool ip6_pkt_too_big(const struct sk_buff *skb, unsigned int mtu)
{
	if (skb->len <= mtu)
		return false;
	if (skb->ignore_df)
		return false;
	return true;
}

int ip6_forward(struct sk_buff *skb)
{
	enum skb_drop_reason reason = SKB_DROP_REASON_NOT_SPECIFIED;
	const struct fib6_route *rt = (const struct fib6_route *)skb->_skb_refdst;
	struct ipv6hdr *hdr = ipv6_hdr(skb);
	struct in6_addr nexthop;
	struct net_device *dev;
	unsigned int mtu;

	if (skb->pkt_type != PACKET_HOST)
		goto drop;
	skb->ip_summed = CHECKSUM_NONE;	/* skb_forward_csum() */

	/* check and decrement ttl */
	if (hdr->hop_limit <= 1) {
		icmpv6_send(skb, ICMPV6_TIME_EXCEED, ICMPV6_EXC_HOPLIMIT, 0);
		__IP6_INC_STATS(INHDRERRORS);
		kfree_skb_reason(skb, SKB_DROP_REASON_IP_INHDR);
		return -ETIMEDOUT;
	}
	dev = dev_get_by_index(rt->oif);
	if (unlikely(!dev)) {
		reason = SKB_DROP_REASON_IP_OUTNOROUTES;
		goto drop;
	}
	/* This check is security critical. */
	if (ipv6_addr_any(&hdr->saddr) || ipv6_addr_is_multicast(&hdr->saddr) ||
	    ipv6_addr_loopback(&hdr->saddr))
		goto error;
	if (ipv6_addr_linklocal(&hdr->saddr)) {
		icmpv6_send(skb, ICMPV6_DEST_UNREACH, ICMPV6_NOT_NEIGHBOUR, 0);
		goto error;
	}
	mtu = dev->mtu < IPV6_MIN_MTU ? IPV6_MIN_MTU : dev->mtu;
	if (ip6_pkt_too_big(skb, mtu)) {
		/* Again, force OUTPUT device used as source address */
		skb->dev = dev;
		icmpv6_send(skb, ICMPV6_PKT_TOOBIG, 0, mtu);
		__IP6_INC_STATS(INTOOBIGERRORS);
		__IP6_INC_STATS(FRAGFAILS);
		kfree_skb_reason(skb, SKB_DROP_REASON_PKT_TOO_BIG);
		return -EMSGSIZE;
	}
	if (skb_cow(skb, LL_RESERVED_SPACE(dev))) {
		__IP6_INC_STATS(OUTDISCARDS);
		reason = SKB_DROP_REASON_NOMEM;
		goto drop;
	}
	hdr = ipv6_hdr(skb);
	/* Mangling hops number delayed to point after skb COW */
	hdr->hop_limit--;

	/* ip6_forward_finish() */
	__IP6_INC_STATS(OUTFORWDATAGRAMS);
	IP6CB(skb)->flags |= IP6SKB_FORWARDED;
	skb->tstamp = 0;
	skb->dev = dev;
	nexthop = ipv6_addr_any(&rt->gw) ? hdr->daddr : rt->gw;
	return ip6_finish_output2(skb, &nexthop);

error:
	__IP6_INC_STATS(INADDRERRORS);
	reason = SKB_DROP_REASON_IP_INADDRERRORS;
drop:
	kfree_skb_reason(skb, reason);
	return -EINVAL;
}
