// SPDX-License-Identifier: GPL-2.0
/*
 * IPv6 receive: ipv6_rcv() with the checks of ip6_rcv_core() in the
 * kernel's order and their Ip6 counters, the hop-by-hop options header
 * (ip6_parse_tlv()), the route decision of ip6_route_input() (local
 * addresses and the multicast groups we are in, forwarding, no route)
 * and local delivery walking the extension headers to ICMPv6
 * (ip6_protocol_deliver_rcu()). Also the handler registration.
 *
 * Order in ip6_rcv_core(): PACKET_OTHERHOST dropped first (OTHERHOST);
 * InReceives; skb_share_check; 40 bytes present, version 6 -> InHdrErrors
 * (UNHANDLED_PROTO); loopback source or destination, interface-local or
 * scope-0 multicast destination, multicast source -> InHdrErrors
 * (IP_INHDR); payload length beyond the data -> InTruncatedPkts
 * (PKT_TOO_SMALL); trimmed to it; hop-by-hop options parsed (a bad option
 * -> InHdrErrors, ICMPv6 parameter problem when its type asks for one).
 *
 * Kernel: net/ipv6/ip6_input.c ipv6_rcv(), ip6_rcv_core(),
 *	   ip6_rcv_finish(), ip6_input(), ip6_protocol_deliver_rcu();
 *	   net/ipv6/exthdrs.c ipv6_parse_hopopts(), ip6_parse_tlv();
 *	   net/ipv6/route.c ip6_route_input(), ip6_pkt_drop();
 *	   net/ipv6/af_inet6.c inet6_init()
 * Differs: no netfilter, no multicast routing, no reassembly (fragments
 *	    for the router are dropped), no routing headers processed (a
 *	    routing header for us is a parameter problem, as with
 *	    accept_source_route 0 and segments left > 0), no jumbograms;
 *	    UDP/TCP for the router's addresses are counted as delivered and
 *	    freed (no sockets).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dropreason.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/neighbour.h>
#include <net/route.h>

static bool inet6_registered;

static struct packet_type ipv6_packet_type = {
	.type = 0,	/* htons(ETH_P_IPV6), set in inet6_init() */
	.func = ipv6_rcv,
};

void inet6_init(void)
{
	if (inet6_registered)
		return;
	ipv6_packet_type.type = htons(ETH_P_IPV6);
	dev_add_pack(&ipv6_packet_type);
	inet_init();	/* the bpf_fib_lookup hook serves both families */
	inet6_registered = true;
}

void inet6_exit(void)
{
	if (inet6_registered) {
		dev_remove_pack(&ipv6_packet_type);
		inet6_registered = false;
	}
	fib6_flush();
	neigh_table_flush(&nd_tbl);
	memset(ipv6_mib, 0, sizeof(ipv6_mib));
	ipv6_sysctl.forwarding = 0;
}

/*
 * ip6_parse_tlv() for the hop-by-hop header at @off: Pad1, PadN, and
 * unknown options by the two high bits of their type (skip, discard,
 * discard + parameter problem, the last only to unicast destinations).
 * Router alert and jumbo payload are skipped as known. false: dropped.
 */
static bool ip6_parse_hopopts(struct sk_buff *skb, unsigned int off)
{
	const u8 *nh = skb_network_header(skb);
	unsigned int len, end;

	if (!pskb_may_pull(skb, off + 8 - (skb->data - nh)))
		goto bad;
	nh = skb_network_header(skb);
	len = (nh[off + 1] + 1) * 8;
	if (!pskb_may_pull(skb, off + len - (skb->data - nh)))
		goto bad;
	nh = skb_network_header(skb);
	end = off + len;
	for (off += 2; off < end;) {
		u8 type = nh[off];
		unsigned int optlen;

		if (type == 0) {	/* Pad1 */
			off++;
			continue;
		}
		if (off + 2 > end)
			goto bad;
		optlen = nh[off + 1] + 2;
		if (off + optlen > end)
			goto bad;
		switch (type) {
		case 1:		/* PadN */
		case 5:		/* router alert */
		case 0xc2:	/* jumbo payload */
			break;
		default:
			switch (type >> 6) {
			case 0:	/* skip */
				break;
			case 1:	/* discard */
				kfree_skb_reason(skb, SKB_DROP_REASON_UNHANDLED_PROTO);
				return false;
			case 3:	/* discard, ICMP only to unicast */
				if (ipv6_addr_is_multicast(&ipv6_hdr(skb)->daddr)) {
					kfree_skb_reason(skb, SKB_DROP_REASON_UNHANDLED_PROTO);
					return false;
				}
				__attribute__((fallthrough));
			case 2:	/* discard, ICMP parameter problem */
				icmpv6_send(skb, ICMPV6_PARAMPROB, ICMPV6_UNK_OPTION, off);
				kfree_skb_reason(skb, SKB_DROP_REASON_UNHANDLED_PROTO);
				return false;
			}
		}
		off += optlen;
	}
	if (off != end)
		goto bad;
	return true;
bad:
	kfree_skb_reason(skb, SKB_DROP_REASON_IP_INHDR);
	return false;
}

/* ip6_rcv_core(): NULL when the skb was dropped. */
static struct sk_buff *ip6_rcv_core(struct sk_buff *skb, struct net_device *dev)
{
	enum skb_drop_reason reason = SKB_DROP_REASON_NOT_SPECIFIED;
	const struct ipv6hdr *hdr;
	u32 pkt_len;

	if (skb->pkt_type == PACKET_OTHERHOST) {
		netdev_drop(dev, NETDEV_DROP_OTHERHOST, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_OTHERHOST);
		return NULL;
	}
	__IP6_INC_STATS(INPKTS);
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		__IP6_INC_STATS(INDISCARDS);
		return NULL;
	}
	skb_reset_network_header(skb);
	memset(IP6CB(skb), 0, sizeof(struct inet6_skb_parm));
	IP6CB(skb)->iif = dev->ifindex;
	if (unlikely(!pskb_may_pull(skb, sizeof(*hdr))))
		goto err;
	hdr = ipv6_hdr(skb);
	if (hdr->version != 6) {
		reason = SKB_DROP_REASON_UNHANDLED_PROTO;
		goto err;
	}
	/* RFC 4291 2.5.3: loopback never on the wire. */
	if (ipv6_addr_loopback(&hdr->saddr) || ipv6_addr_loopback(&hdr->daddr))
		goto err;
	/* RFC 4291 errata 3480: interface-local multicast never on the wire. */
	if (skb->pkt_type != PACKET_LOOPBACK && ipv6_addr_is_multicast(&hdr->daddr) &&
	    ipv6_addr_mc_scope(&hdr->daddr) == 1)
		goto err;
	/* RFC 4291 2.7: scope 0 multicast is dropped, multicast is never a source. */
	if (ipv6_addr_is_multicast(&hdr->daddr) && ipv6_addr_mc_scope(&hdr->daddr) == 0)
		goto err;
	if (ipv6_addr_is_multicast(&hdr->saddr))
		goto err;
	skb_set_transport_header(skb, sizeof(*hdr));
	IP6CB(skb)->nhoff = offsetof(struct ipv6hdr, nexthdr);
	pkt_len = ntohs(hdr->payload_len);
	/* pkt_len may be zero with a jumbo payload option: not supported (Differs). */
	if (pkt_len || hdr->nexthdr != NEXTHDR_HOP) {
		if (pkt_len + sizeof(struct ipv6hdr) > skb->len) {
			__IP6_INC_STATS(INTRUNCATEDPKTS);
			reason = SKB_DROP_REASON_PKT_TOO_SMALL;
			goto drop;
		}
		if (pskb_trim(skb, pkt_len + sizeof(struct ipv6hdr))) {
			__IP6_INC_STATS(INDISCARDS);
			reason = SKB_DROP_REASON_NOMEM;
			goto drop;
		}
	} else {
		goto err;
	}
	if (ipv6_hdr(skb)->nexthdr == NEXTHDR_HOP) {
		if (!ip6_parse_hopopts(skb, sizeof(struct ipv6hdr))) {
			__IP6_INC_STATS(INHDRERRORS);
			return NULL;
		}
	}
	return skb;
err:
	__IP6_INC_STATS(INHDRERRORS);
	if (reason == SKB_DROP_REASON_NOT_SPECIFIED)
		reason = SKB_DROP_REASON_IP_INHDR;
drop:
	kfree_skb_reason(skb, reason);
	return NULL;
}

/* ip6_pkt_drop(): no route; ICMPv6 unreachable (no route) when forwarding. */
static int ip6_pkt_drop(struct sk_buff *skb, u8 code)
{
	if (ipv6_addr_any(&ipv6_hdr(skb)->daddr)) {
		__IP6_INC_STATS(INADDRERRORS);
		kfree_skb_reason(skb, SKB_DROP_REASON_IP_INADDRERRORS);
		return NET_RX_DROP;
	}
	__IP6_INC_STATS(INNOROUTES);
	icmpv6_send(skb, ICMPV6_DEST_UNREACH, code, 0);
	kfree_skb_reason(skb, SKB_DROP_REASON_IP_INNOROUTES);
	return NET_RX_DROP;
}

int ipv6_rcv(struct sk_buff *skb, struct net_device *dev)
{
	const struct ipv6hdr *hdr;
	struct fib6_result res;

	skb = ip6_rcv_core(skb, dev);
	if (!skb)
		return NET_RX_DROP;
	hdr = ipv6_hdr(skb);
	/* ip6_route_input() */
	if (ipv6_addr_is_multicast(&hdr->daddr)) {
		__IP6_INC_STATS(INMCASTPKTS);
		if (ipv6_chk_mcast_addr(dev->ifindex, &hdr->daddr))
			return ip6_input(skb);
		/* Not a group of ours, and no multicast routing (MLD reports, say). */
		__IP6_INC_STATS(INDISCARDS);
		NEIGH_CACHE_STAT_INC(&nd_tbl, rx_consumed);
		kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
		return NET_RX_DROP;
	}
	if (fib6_lookup(&hdr->daddr, &res))
		return ip6_pkt_drop(skb, ICMPV6_NOROUTE);
	switch (res.type) {
	case RTN_LOCAL:
		return ip6_input(skb);
	case RTN_UNICAST:
		if (!ipv6_sysctl.forwarding) {
			/* A host: not ours, not forwarded (ip6_forward's first test). */
			__IP6_INC_STATS(INADDRERRORS);
			kfree_skb_reason(skb, SKB_DROP_REASON_IP_INADDRERRORS);
			return NET_RX_DROP;
		}
		skb->_skb_refdst = (unsigned long)res.route;
		return ip6_forward(skb);
	case RTN_PROHIBIT:
		return ip6_pkt_drop(skb, ICMPV6_ADM_PROHIBITED);
	case RTN_BLACKHOLE:
		kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
		return NET_RX_DROP;
	default:
		return ip6_pkt_drop(skb, ICMPV6_NOROUTE);
	}
}

/*
 * ip6_input() -> ip6_protocol_deliver_rcu(): walk the extension headers
 * after the fixed header to the upper layer. Each header advances by its
 * own length, so a chain ends within the packet; hop-by-hop anywhere but
 * first is unknown next header, as in the kernel.
 */
int ip6_input(struct sk_buff *skb)
{
	unsigned int off = sizeof(struct ipv6hdr), nhoff = IP6CB(skb)->nhoff;
	u8 nexthdr = ipv6_hdr(skb)->nexthdr;
	bool first = true;

	for (;;) {
		const u8 *nh;
		u8 hdr[2];

		switch (nexthdr) {
		case NEXTHDR_HOP:
			if (!first)
				goto unknown;
			__attribute__((fallthrough));
		case NEXTHDR_DEST:
		case NEXTHDR_ROUTING:
			if (skb_copy_bits(skb, skb_network_offset(skb) + off, hdr, 2)) {
				__IP6_INC_STATS(INHDRERRORS);
				kfree_skb_reason(skb, SKB_DROP_REASON_PKT_TOO_SMALL);
				return NET_RX_DROP;
			}
			if (nexthdr == NEXTHDR_ROUTING) {
				/* accept_source_route 0: refuse source routing through us. */
				__IP6_INC_STATS(INHDRERRORS);
				icmpv6_send(skb, ICMPV6_PARAMPROB, ICMPV6_HDR_FIELD, off + 2);
				kfree_skb_reason(skb, SKB_DROP_REASON_IP_INHDR);
				return NET_RX_DROP;
			}
			nhoff = off;
			nexthdr = hdr[0];
			off += (hdr[1] + 1) * 8;
			first = false;
			continue;
		case NEXTHDR_FRAGMENT:
			/* No reassembly (Differs). */
			__IP6_INC_STATS(INDISCARDS);
			kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
			return NET_RX_DROP;
		case NEXTHDR_NONE:
			__IP6_INC_STATS(INDELIVERS);
			consume_skb(skb);
			return NET_RX_SUCCESS;
		case NEXTHDR_ICMP:
			if (off > skb->len)
				goto truncated;
			__IP6_INC_STATS(INDELIVERS);
			skb_set_transport_header(skb, off);
			nh = skb_network_header(skb);
			__skb_pull(skb, nh + off - skb->data);
			return icmpv6_rcv(skb);
		case NEXTHDR_UDP:
		case NEXTHDR_TCP:
			if (off > skb->len)
				goto truncated;
			__IP6_INC_STATS(INDELIVERS);
			kfree_skb_reason(skb, SKB_DROP_REASON_NO_SOCKET);
			return NET_RX_DROP;
		default:
			goto unknown;
		}
	}
unknown:
	__IP6_INC_STATS(INUNKNOWNPROTOS);
	icmpv6_send(skb, ICMPV6_PARAMPROB, ICMPV6_UNK_NEXTHDR, nhoff);
	kfree_skb_reason(skb, SKB_DROP_REASON_IP_NOPROTO);
	return NET_RX_DROP;
truncated:
	__IP6_INC_STATS(INHDRERRORS);
	kfree_skb_reason(skb, SKB_DROP_REASON_PKT_TOO_SMALL);
	return NET_RX_DROP;
}
