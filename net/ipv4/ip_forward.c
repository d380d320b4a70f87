// SPDX-License-Identifier: GPL-2.0
/*
 * IPv4 forwarding, in the kernel's order: only PACKET_HOST; TTL <= 1 ->
 * ICMP time exceeded and InHdrErrors, before anything is changed; the MTU
 * of the output device against a DF datagram -> FragFails and ICMP
 * fragmentation needed (PKT_TOO_BIG); skb_cow() for LL_RESERVED_SPACE of
 * the output device; the TTL decremented with the incremental checksum
 * update (ip_decrease_ttl); ForwDatagrams; then ip_output on the route's
 * device towards its next hop.
 *
 * Kernel: net/ipv4/ip_forward.c ip_forward(), ip_exceeds_mtu(),
 *	   ip_forward_finish()
 * Differs: no xfrm, router alert, strict source route or ICMP redirects;
 *	    a datagram larger than the MTU without DF is not fragmented but
 *	    dropped and counted as FragFails.
 */
#include <arpa/inet.h>

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dropreason.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/route.h>

static bool ip_exceeds_mtu(const struct sk_buff *skb, unsigned int mtu)
{
	if (skb->len <= mtu)
		return false;
	if (unlikely((ip_hdr(skb)->frag_off & htons(IP_DF)) == 0))
		return false;
	if (skb->ignore_df)
		return false;
	return true;
}

int ip_forward(struct sk_buff *skb)
{
	enum skb_drop_reason reason = SKB_DROP_REASON_NOT_SPECIFIED;
	const struct fib_route *rt = (const struct fib_route *)skb->_skb_refdst;
	struct net_device *odev;
	struct iphdr *iph;
	unsigned int mtu;

	if (skb->pkt_type != PACKET_HOST)
		goto drop;
	skb->ip_summed = CHECKSUM_NONE;	/* skb_forward_csum() */

	if (ip_hdr(skb)->ttl <= 1)
		goto too_many_hops;

	odev = dev_get_by_index(rt->oif);
	if (unlikely(!odev)) {
		reason = SKB_DROP_REASON_IP_OUTNOROUTES;
		goto drop;
	}
	IPCB(skb)->flags |= IPSKB_FORWARDED;
	mtu = odev->mtu;
	if (ip_exceeds_mtu(skb, mtu)) {
		__IP_INC_STATS(FRAGFAILS);
		icmp_send(skb, ICMP_DEST_UNREACH, ICMP_FRAG_NEEDED, htonl(mtu));
		reason = SKB_DROP_REASON_PKT_TOO_BIG;
		goto drop;
	}
	if (skb->len > mtu) {
		/* ip_fragment() is not there (Differs). */
		__IP_INC_STATS(FRAGFAILS);
		reason = SKB_DROP_REASON_PKT_TOO_BIG;
		goto drop;
	}

	/* We are about to mangle the packet: copy it if shared. */
	if (skb_cow(skb, LL_RESERVED_SPACE(odev))) {
		reason = SKB_DROP_REASON_NOMEM;
		goto drop;
	}
	iph = ip_hdr(skb);
	/* Decrease the TTL after skb_cow(). */
	ip_decrease_ttl(iph);

	/* ip_forward_finish() */
	__IP_INC_STATS(OUTFORWDATAGRAMS);
	skb->tstamp = 0;	/* skb_clear_tstamp() */
	skb->dev = odev;
	return ip_finish_output2(skb, rt->gw ? rt->gw : iph->daddr);

too_many_hops:
	/* Tell the sender its packet died. */
	__IP_INC_STATS(INHDRERRORS);
	icmp_send(skb, ICMP_TIME_EXCEEDED, ICMP_EXC_TTL, 0);
	reason = SKB_DROP_REASON_IP_INHDR;
drop:
	kfree_skb_reason(skb, reason);
	return NET_RX_DROP;
}
