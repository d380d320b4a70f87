// SPDX-License-Identifier: GPL-2.0
/*
 * IPv4 receive: ip_rcv() with the sanity checks of ip_rcv_core() in the
 * kernel's order and their SNMP counters, then ip_rcv_finish(): the route
 * decision (local, forward, or an error route), IP options, and dispatch
 * to ip_local_deliver() or ip_forward(). Also the handler registration
 * (inet_init(): ETH_P_IP and ETH_P_ARP packet types).
 *
 * Order in ip_rcv_core(): PACKET_OTHERHOST dropped first (the device's
 * rx_otherhost_dropped, OTHERHOST); InReceives; skb_share_check; header
 * present (pskb_may_pull 20) -> InHdrErrors; version 4 and IHL >= 5 ->
 * InHdrErrors; whole header present -> InHdrErrors; header checksum ->
 * InCsumErrors and InHdrErrors (IP_CSUM); tot_len > skb->len ->
 * InTruncatedPkts (PKT_TOO_SMALL); tot_len < IHL*4 -> InHdrErrors; trim to
 * tot_len (-> InDiscards); IPCB cleared.
 *
 * Kernel: net/ipv4/ip_input.c ip_rcv(), ip_rcv_core(), ip_rcv_finish(),
 *	   ip_rcv_finish_core(), ip_rcv_options(), ip_local_deliver();
 *	   net/ipv4/route.c ip_route_input_slow(), ip_error();
 *	   net/ipv4/ip_options.c ip_options_compile(); net/ipv4/af_inet.c
 * Differs: no netfilter hooks, early demux, multicast routing or
 *	    reassembly (fragments for the router itself are dropped); options
 *	    are validated (ip_options_compile's length rules) and source
 *	    routes refused as with accept_source_route=0, but record-route
 *	    and timestamp options are not updated on forward; no martian
 *	    source checks; UDP/TCP for the router's addresses are counted as
 *	    delivered and freed (no sockets, no port unreachable).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/arp.h>
#include <net/dropreason.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/neighbour.h>
#include <net/route.h>

static bool inet_registered;

static struct packet_type ip_packet_type = {
	.type = 0,	/* htons(ETH_P_IP), set in inet_init() */
	.func = ip_rcv,
};

static struct packet_type arp_packet_type = {
	.type = 0,
	.func = arp_rcv,
};

/* NETDEV_UNREGISTER for both neighbour tables (arp_netdev_event(), ndisc_netdev_event()). */
static void inet_netdev_unregister(struct net_device *dev)
{
	neigh_ifdown(&arp_tbl, dev);
	neigh_ifdown(&nd_tbl, dev);
}

void inet_init(void)
{
	if (inet_registered)
		return;
	ip_packet_type.type = htons(ETH_P_IP);
	arp_packet_type.type = htons(ETH_P_ARP);
	dev_add_pack(&ip_packet_type);
	dev_add_pack(&arp_packet_type);
	ip_fib_bpf_hook_install();
	netdev_link_up_hook = arp_send_gratuitous;
	netdev_unregister_hook = inet_netdev_unregister;
	inet_registered = true;
}

void inet_exit(void)
{
	if (inet_registered) {
		dev_remove_pack(&ip_packet_type);
		dev_remove_pack(&arp_packet_type);
		netdev_link_up_hook = NULL;
		netdev_unregister_hook = NULL;
		inet_registered = false;
	}
	fib_flush();
	neigh_table_flush(&arp_tbl);
	ipv4_mib_reset();
	icmp_global_reset();
	ipv4_sysctl.ip_forward = 0;
}

/*
 * ip_options_compile() for a received datagram: walk the options, check
 * each length; 0 or the offset of the bad byte (from the IP header) + 1.
 */
static int ip_options_compile(struct sk_buff *skb)
{
	struct inet_skb_parm *opt = IPCB(skb);
	const u8 *iph = skb_network_header(skb);
	const u8 *optptr = iph + sizeof(struct iphdr);
	int l = ip_hdr(skb)->ihl * 4 - sizeof(struct iphdr);

	opt->optlen = l;
	for (; l > 0;) {
		int optlen;

		switch (*optptr) {
		case IPOPT_END:
			return 0;
		case IPOPT_NOOP:
			l--;
			optptr++;
			continue;
		}
		if (unlikely(l < 2))
			return optptr - iph + 1;
		optlen = optptr[1];
		if (optlen < 2 || optlen > l)
			return optptr - iph + 1;
		switch (*optptr) {
		case IPOPT_SSRR:
		case IPOPT_LSRR:
			if (optlen < 3)
				return optptr - iph + 1 + 1;
			if (optptr[2] < 4)
				return optptr - iph + 2 + 1;
			if (opt->srr)	/* two source routes */
				return optptr - iph + 1;
			opt->srr = optptr - iph;
			break;
		case IPOPT_RR:
			if (optlen < 3)
				return optptr - iph + 1 + 1;
			if (optptr[2] < 4)
				return optptr - iph + 2 + 1;
			opt->rr = optptr - iph;
			break;
		case IPOPT_TIMESTAMP:
			if (optlen < 4)
				return optptr - iph + 1 + 1;
			if (optptr[2] < 5)
				return optptr - iph + 2 + 1;
			opt->ts = optptr - iph;
			break;
		default:
			break;
		}
		l -= optlen;
		optptr += optlen;
	}
	return 0;
}

/* 0 to go on, else the skb must be dropped (already counted). */
static int ip_rcv_options(struct sk_buff *skb)
{
	int bad = ip_options_compile(skb);

	if (unlikely(bad)) {
		icmp_send(skb, ICMP_PARAMETERPROB, 0, htonl((u32)(bad - 1) << 24));
		__IP_INC_STATS(INHDRERRORS);
		return -EINVAL;
	}
	if (IPCB(skb)->srr && !ipv4_sysctl.accept_source_route)
		return -EINVAL;	/* martian: source route refused */
	return 0;
}

/* The error route's input: ip_error(). Consumes @skb. */
static int ip_error(struct sk_buff *skb, int err)
{
	enum skb_drop_reason reason = SKB_DROP_REASON_NOT_SPECIFIED;
	int code;

	if (!ipv4_sysctl.ip_forward) {
		if (err == EHOSTUNREACH) {
			reason = SKB_DROP_REASON_IP_INADDRERRORS;
			__IP_INC_STATS(INADDRERRORS);
		} else if (err == ENETUNREACH) {
			reason = SKB_DROP_REASON_IP_INNOROUTES;
			__IP_INC_STATS(INNOROUTES);
		}
		goto out;
	}
	switch (err) {
	case EHOSTUNREACH:
		code = ICMP_HOST_UNREACH;
		break;
	case ENETUNREACH:
		code = ICMP_NET_UNREACH;
		reason = SKB_DROP_REASON_IP_INNOROUTES;
		__IP_INC_STATS(INNOROUTES);
		break;
	case EACCES:
		code = ICMP_PKT_FILTERED;
		break;
	default:
		goto out;
	}
	icmp_send(skb, ICMP_DEST_UNREACH, code, 0);
out:
	kfree_skb_reason(skb, reason);
	return NET_RX_DROP;
}

static int ip_rcv_finish(struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);
	struct fib_result res;
	int err = 0;

	/* ip_route_input_slow() */
	if (ipv4_is_lbcast(iph->daddr) || ipv4_is_multicast(iph->daddr) ||
	    skb->pkt_type == PACKET_BROADCAST || skb->pkt_type == PACKET_MULTICAST) {
		/* No multicast routing; limited broadcast is not forwarded. */
		res.type = ipv4_is_lbcast(iph->daddr) ? RTN_BROADCAST : RTN_MULTICAST;
	} else if (fib_lookup(iph->daddr, &res)) {
		err = ipv4_sysctl.ip_forward ? ENETUNREACH : EHOSTUNREACH;
	} else if (res.type == RTN_LOCAL) {
		/* local_input */
	} else if (!ipv4_sysctl.ip_forward) {
		err = EHOSTUNREACH;
	} else if (res.type == RTN_UNREACHABLE) {
		err = EHOSTUNREACH;
	} else if (res.type == RTN_PROHIBIT) {
		err = EACCES;
	} else if (res.type == RTN_BLACKHOLE) {
		err = EINVAL;
	}

	if (iph->ihl > 5 && ip_rcv_options(skb)) {
		kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
		return NET_RX_DROP;
	}
	if (unlikely(err))
		return ip_error(skb, err);
	switch (res.type) {
	case RTN_LOCAL:
		return ip_local_deliver(skb);
	case RTN_UNICAST:
		/* The dst the skb would carry: output device and next hop. */
		IPCB(skb)->iif = skb->dev->ifindex;
		skb->_skb_refdst = (unsigned long)res.route;
		return ip_forward(skb);
	default:
		kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
		return NET_RX_DROP;
	}
}

/* ip_rcv_core(): sanity checks; NULL when the skb was dropped. */
static struct sk_buff *ip_rcv_core(struct sk_buff *skb, struct net_device *dev)
{
	enum skb_drop_reason drop_reason = SKB_DROP_REASON_NOT_SPECIFIED;
	const struct iphdr *iph;
	u32 len;

	/* Frames for another host (promiscuous): dropped first. */
	if (skb->pkt_type == PACKET_OTHERHOST) {
		netdev_drop(dev, NETDEV_DROP_OTHERHOST, 1);
		drop_reason = SKB_DROP_REASON_OTHERHOST;
		goto drop;
	}
	__IP_INC_STATS(INPKTS);

	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		__IP_INC_STATS(INDISCARDS);
		goto out;
	}
	skb_reset_network_header(skb);
	if (!pskb_may_pull(skb, sizeof(struct iphdr)))
		goto inhdr_error;
	iph = ip_hdr(skb);
	if (iph->ihl < 5 || iph->version != 4)
		goto inhdr_error;
	if (!pskb_may_pull(skb, iph->ihl * 4))
		goto inhdr_error;
	iph = ip_hdr(skb);
	if (unlikely(ip_fast_csum(iph, iph->ihl)))
		goto csum_error;

	len = ntohs(iph->tot_len);
	if (skb->len < len) {
		drop_reason = SKB_DROP_REASON_PKT_TOO_SMALL;
		__IP_INC_STATS(INTRUNCATEDPKTS);
		goto drop;
	} else if (len < (u32)iph->ihl * 4) {
		goto inhdr_error;
	}
	/* Our transport medium may have padded the buffer out. */
	if (pskb_trim(skb, len)) {
		__IP_INC_STATS(INDISCARDS);
		goto drop;
	}
	skb_set_transport_header(skb, iph->ihl * 4);
	/* The IPv4 layer owns skb->cb from here (IPCB). */
	memset(IPCB(skb), 0, sizeof(struct inet_skb_parm));
	IPCB(skb)->iif = skb->skb_iif;
	return skb;

csum_error:
	drop_reason = SKB_DROP_REASON_IP_CSUM;
	__IP_INC_STATS(CSUMERRORS);
	/* fallthrough */
inhdr_error:
	if (drop_reason == SKB_DROP_REASON_NOT_SPECIFIED)
		drop_reason = SKB_DROP_REASON_IP_INHDR;
	__IP_INC_STATS(INHDRERRORS);
drop:
	kfree_skb_reason(skb, drop_reason);
out:
	return NULL;
}

int ip_rcv(struct sk_buff *skb, struct net_device *dev)
{
	skb = ip_rcv_core(skb, dev);
	if (!skb)
		return NET_RX_DROP;
	return ip_rcv_finish(skb);
}

int ip_local_deliver(struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);

	if (iph->frag_off & htons(IP_MF | IP_OFFSET)) {
		/* No reassembly (Differs). */
		__IP_INC_STATS(INDISCARDS);
		kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
		return NET_RX_DROP;
	}
	/* ip_local_deliver_finish(): pull the IP header. */
	__skb_pull(skb, ip_hdrlen(skb));
	switch (iph->protocol) {
	case IPPROTO_ICMP:
		__IP_INC_STATS(INDELIVERS);
		return icmp_rcv(skb);
	case IPPROTO_UDP:
	case IPPROTO_TCP:
		__IP_INC_STATS(INDELIVERS);
		kfree_skb_reason(skb, SKB_DROP_REASON_NO_SOCKET);
		return NET_RX_DROP;
	default:
		__IP_INC_STATS(INUNKNOWNPROTOS);
		__skb_push(skb, ip_hdrlen(skb));
		icmp_send(skb, ICMP_DEST_UNREACH, ICMP_PROT_UNREACH, 0);
		kfree_skb_reason(skb, SKB_DROP_REASON_IP_NOPROTO);
		return NET_RX_DROP;
	}
}
