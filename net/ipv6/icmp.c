// SPDX-License-Identifier: GPL-2.0
/*
 * ICMPv6: the errors a router sends (destination unreachable, packet too
 * big, time exceeded, parameter problem) quoting as much of the offending
 * packet as fits in 1280 bytes, never about an ICMPv6 error, a multicast
 * destination (but packet too big and unknown-option parameter problems)
 * or an unspecified or multicast source, with a global rate limit that
 * packet too big is exempt from; echo replies for our addresses; and
 * the receive side: checksum over the pseudo header (InCsumErrors),
 * echo, neighbour discovery, the rest counted and consumed.
 *
 * Kernel: net/ipv6/icmp.c icmp6_send(), icmpv6_rcv(), icmpv6_echo_reply(),
 *	   icmpv6_global_allow(), icmpv6_mask_allow(); net/ipv6/ip6_icmp.c;
 *	   net/ipv6/exthdrs_core.c ipv6_skip_exthdr()
 * Differs: no per-destination rate limit (only the global bucket:
 *	    icmp_msgs_per_sec 1000, burst 50); echo requests to multicast
 *	    groups are not answered; errors are not delivered to sockets.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <net/dropreason.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/neighbour.h>
#include <net/route.h>

#define ICMP6_HEADROOM	128

static pthread_spinlock_t icmp6_lock;
static pthread_once_t icmp6_once = PTHREAD_ONCE_INIT;
static u32 icmp6_credit;
static u64 icmp6_stamp;
static bool icmp6_credit_init;

static void icmp6_init_once(void)
{
	pthread_spin_init(&icmp6_lock, PTHREAD_PROCESS_PRIVATE);
}

/* icmpv6_global_allow(): a token bucket for all CPUs, 1000/s, burst 50. */
static bool icmpv6_global_allow(u8 type)
{
	u64 now = jiffies;
	bool ok;

	if (type == ICMPV6_PKT_TOOBIG || type >= 128)	/* icmpv6_mask_allow() */
		return true;
	pthread_once(&icmp6_once, icmp6_init_once);
	pthread_spin_lock(&icmp6_lock);
	if (!icmp6_credit_init) {
		icmp6_credit = 50;
		icmp6_stamp = now;
		icmp6_credit_init = true;
	}
	if (now - icmp6_stamp >= HZ / 50) {
		u64 add = (now - icmp6_stamp) * 1000 / HZ;

		icmp6_credit = add + icmp6_credit > 50 ? 50 : icmp6_credit + add;
		icmp6_stamp = now;
	}
	ok = icmp6_credit > 0;
	if (ok)
		icmp6_credit--;
	pthread_spin_unlock(&icmp6_lock);
	return ok;
}

static void icmp6_out_count(u8 type)
{
	__ICMP6_INC_STATS(OUTMSGS);
	switch (type) {
	case ICMPV6_DEST_UNREACH:
		__ICMP6_INC_STATS(OUTDESTUNREACHS);
		break;
	case ICMPV6_PKT_TOOBIG:
		__ICMP6_INC_STATS(OUTPKTTOOBIGS);
		break;
	case ICMPV6_TIME_EXCEED:
		__ICMP6_INC_STATS(OUTTIMEEXCDS);
		break;
	case ICMPV6_PARAMPROB:
		__ICMP6_INC_STATS(OUTPARMPROBLEMS);
		break;
	case ICMPV6_ECHO_REPLY:
		__ICMP6_INC_STATS(OUTECHOREPLIES);
		break;
	case NDISC_NEIGHBOUR_SOLICITATION:
		__ICMP6_INC_STATS(OUTNEIGHBORSOLICITS);
		break;
	case NDISC_NEIGHBOUR_ADVERTISEMENT:
		__ICMP6_INC_STATS(OUTNEIGHBORADVERTISEMENTS);
		break;
	}
}

void icmpv6_push(const struct in6_addr *saddr, const struct in6_addr *daddr, u8 hlim,
		 const void *msg, unsigned int len, struct net_device *dev, const u8 *dst_mac)
{
	struct sk_buff *skb = alloc_skb(ICMP6_HEADROOM + sizeof(struct ipv6hdr) + len, GFP_ATOMIC);
	struct icmp6hdr *icmp6h;
	struct ipv6hdr *hdr;
	struct ethhdr *eth;

	if (!skb) {
		__ICMP6_INC_STATS(OUTERRORS);
		return;
	}
	skb_reserve(skb, ICMP6_HEADROOM);
	skb_reset_network_header(skb);
	hdr = skb_put(skb, sizeof(*hdr));
	icmp6h = skb_put(skb, len);
	memcpy(icmp6h, msg, len);
	icmp6h->icmp6_cksum = 0;
	icmp6h->icmp6_cksum = csum_ipv6_magic(saddr, daddr, len, IPPROTO_ICMPV6, icmp6h);
	memset(hdr, 0, sizeof(*hdr));
	hdr->version = 6;
	hdr->payload_len = htons(len);
	hdr->nexthdr = IPPROTO_ICMPV6;
	hdr->hop_limit = hlim;
	hdr->saddr = *saddr;
	hdr->daddr = *daddr;
	icmp6_out_count(icmp6h->icmp6_type);
	if (!dst_mac) {
		ip6_local_out(skb);
		return;
	}
	/* Neighbour discovery: a known link-layer destination on @dev. */
	__IP6_INC_STATS(OUTREQUESTS);
	__IP6_INC_STATS(OUTPKTS);
	eth = (struct ethhdr *)skb_push(skb, ETH_HLEN);
	memcpy(eth->h_dest, dst_mac, ETH_ALEN);
	memcpy(eth->h_source, dev->dev_addr, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IPV6);
	skb_reset_mac_header(skb);
	skb->protocol = htons(ETH_P_IPV6);
	skb->dev = dev;
	dev_queue_xmit(skb);
}

/*
 * ipv6_skip_exthdr(): the upper-layer protocol of the packet at the
 * network header and its offset; -1 if the chain runs out of the packet.
 */
static int ipv6_skip_exthdr(const struct sk_buff *skb, int off, u8 *nexthdrp)
{
	u8 nexthdr = *nexthdrp;

	while (nexthdr == NEXTHDR_HOP || nexthdr == NEXTHDR_ROUTING ||
	       nexthdr == NEXTHDR_DEST || nexthdr == NEXTHDR_FRAGMENT) {
		u8 h[2];

		if (skb_copy_bits(skb, skb_network_offset(skb) + off, h, 2))
			return -1;
		if (nexthdr == NEXTHDR_FRAGMENT) {
			u16 frag_off;

			if (skb_copy_bits(skb, skb_network_offset(skb) + off + 2, &frag_off, 2))
				return -1;
			if (ntohs(frag_off) & ~0x7)
				break;	/* not the first fragment: no upper header here */
			off += 8;
		} else {
			off += (h[1] + 1) * 8;
		}
		nexthdr = h[0];
	}
	*nexthdrp = nexthdr;
	return off;
}

void icmpv6_send(struct sk_buff *skb, u8 type, u8 code, u32 info)
{
	const struct ipv6hdr *hdr = ipv6_hdr(skb);
	u8 buf[IPV6_MIN_MTU - sizeof(struct ipv6hdr)];
	struct icmp6hdr *icmp6h = (struct icmp6hdr *)buf;
	struct fib6_result res;
	struct in6_addr saddr;
	unsigned int len;
	int off;

	if ((u8 *)hdr < skb->head || (u8 *)(hdr + 1) > skb_tail_pointer(skb))
		return;
	/* Multicast destinations get only PMTU and unknown-option errors. */
	if (ipv6_addr_is_multicast(&hdr->daddr) || skb->pkt_type != PACKET_HOST) {
		if (type != ICMPV6_PKT_TOOBIG &&
		    !(type == ICMPV6_PARAMPROB && code == ICMPV6_UNK_OPTION))
			return;
	}
	if (ipv6_addr_any(&hdr->saddr) || ipv6_addr_is_multicast(&hdr->saddr))
		return;
	/* Never an error about an ICMPv6 error (is_ineligible()). */
	if (hdr->nexthdr != NEXTHDR_ICMP) {
		u8 nexthdr = hdr->nexthdr;

		off = ipv6_skip_exthdr(skb, sizeof(*hdr), &nexthdr);
		if (off >= 0 && nexthdr == NEXTHDR_ICMP) {
			u8 t;

			if (skb_copy_bits(skb, skb_network_offset(skb) + off, &t, 1) || t < 128)
				return;
		}
	} else {
		u8 t;

		if (skb_copy_bits(skb, skb_network_offset(skb) + sizeof(*hdr), &t, 1) || t < 128)
			return;
	}
	if (!icmpv6_global_allow(type))
		return;
	if (ipv6_chk_addr(&hdr->daddr)) {
		saddr = hdr->daddr;
	} else {
		if (fib6_lookup(&hdr->saddr, &res) || res.type != RTN_UNICAST ||
		    !ipv6_dev_get_saddr(res.oif, &hdr->saddr, &saddr))
			return;
	}
	len = skb_tail_pointer(skb) - (u8 *)hdr + skb->data_len;
	if (len > sizeof(buf) - sizeof(*icmp6h))
		len = sizeof(buf) - sizeof(*icmp6h);
	memset(icmp6h, 0, sizeof(*icmp6h));
	icmp6h->icmp6_type = type;
	icmp6h->icmp6_code = code;
	icmp6h->icmp6_dataun.un_data32[0] = htonl(info);
	if (skb_copy_bits(skb, skb_network_offset(skb), icmp6h + 1, len)) {
		__ICMP6_INC_STATS(OUTERRORS);
		return;
	}
	icmpv6_push(&saddr, &hdr->saddr, ipv6_sysctl.hop_limit, buf, sizeof(*icmp6h) + len,
		    NULL, NULL);
}

int icmpv6_rcv(struct sk_buff *skb)
{
	const struct ipv6hdr *hdr = ipv6_hdr(skb);
	struct icmp6hdr *icmp6h;
	u8 buf[1500];

	__ICMP6_INC_STATS(INMSGS);
	if (!pskb_may_pull(skb, sizeof(*icmp6h)) || skb_linearize(skb))
		goto error;
	hdr = ipv6_hdr(skb);
	if (csum_ipv6_magic(&hdr->saddr, &hdr->daddr, skb->len, IPPROTO_ICMPV6, skb->data)) {
		__ICMP6_INC_STATS(CSUMERRORS);
		__ICMP6_INC_STATS(INERRORS);
		kfree_skb_reason(skb, SKB_DROP_REASON_ICMP_CSUM);
		return NET_RX_DROP;
	}
	icmp6h = (struct icmp6hdr *)skb->data;
	switch (icmp6h->icmp6_type) {
	case ICMPV6_ECHO_REQUEST:
		__ICMP6_INC_STATS(INECHOS);
		if (ipv6_addr_is_multicast(&hdr->daddr) || skb->len > sizeof(buf))
			break;
		/* icmpv6_echo_reply(): same identifier, sequence and data. */
		memcpy(buf, skb->data, skb->len);
		((struct icmp6hdr *)buf)->icmp6_type = ICMPV6_ECHO_REPLY;
		icmpv6_push(&hdr->daddr, &hdr->saddr, ipv6_sysctl.hop_limit, buf, skb->len,
			    NULL, NULL);
		consume_skb(skb);
		return NET_RX_SUCCESS;
	case NDISC_NEIGHBOUR_SOLICITATION:
	case NDISC_NEIGHBOUR_ADVERTISEMENT:
		return ndisc_rcv(skb);
	default:
		break;
	}
	/* Nothing sent in return: the frame ends here. */
	NEIGH_CACHE_STAT_INC(&nd_tbl, rx_consumed);
	consume_skb(skb);
	return NET_RX_SUCCESS;
error:
	__ICMP6_INC_STATS(INERRORS);
	NEIGH_CACHE_STAT_INC(&nd_tbl, rx_consumed);
	kfree_skb_reason(skb, SKB_DROP_REASON_PKT_TOO_SMALL);
	return NET_RX_DROP;
}
