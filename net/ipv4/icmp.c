// SPDX-License-Identifier: GPL-2.0
/*
 * ICMP for the router: errors about datagrams it cannot deliver or
 * forward (icmp_send: time exceeded, destination unreachable incl.
 * fragmentation needed, parameter problem) and echo replies for its own
 * addresses (icmp_echo). Errors quote the offending datagram from its IP
 * header, up to 576 bytes in all, and are never sent about ICMP errors,
 * non-first fragments, or datagrams that were not unicast to this host;
 * the types in icmp_ratemask (0x1818) pass the global token bucket
 * (icmp_msgs_per_sec 1000, icmp_msgs_burst 50) except frag-needed.
 * Source address: the preferred source of the route back to the sender.
 *
 * Kernel: net/ipv4/icmp.c __icmp_send(), icmpv4_global_allow(),
 *	   icmp_global_allow(), icmp_rcv(), icmp_echo(), icmp_reply()
 * Differs: no per-destination (inet_peer) limit; replies and errors are
 *	    built in one new skb, not through ip_append_data().
 */
#include <arpa/inet.h>
#include <string.h>
#include <time.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dropreason.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/route.h>

#define ICMP_QUOTE_MAX	576
#define ICMP_HEADROOM	128

static u32 icmp_credit;
static u64 icmp_stamp_ns;
static bool icmp_credit_init;

void icmp_global_reset(void)
{
	icmp_credit_init = false;
}

static u64 icmp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* icmp_global_allow(): a token bucket shared by all CPUs. */
static bool icmp_global_allow(void)
{
	u64 now = icmp_now_ns();
	u32 burst = ipv4_sysctl.icmp_msgs_burst;

	if (!icmp_credit_init) {
		icmp_credit = burst;
		icmp_stamp_ns = now;
		icmp_credit_init = true;
	}
	if (now - icmp_stamp_ns >= 20000000ULL) {	/* refill at most every HZ/50 */
		u64 add = (now - icmp_stamp_ns) * (u64)ipv4_sysctl.icmp_msgs_per_sec / 1000000000ULL;

		icmp_credit = add + icmp_credit > burst ? burst : icmp_credit + add;
		icmp_stamp_ns = now;
	}
	if (!icmp_credit)
		return false;
	icmp_credit--;
	return true;
}

static bool icmpv4_global_allow(int type, int code)
{
	if (type > NR_ICMP_TYPES)
		return true;
	if (!((1 << type) & ipv4_sysctl.icmp_ratemask))
		return true;
	/* Don't limit PMTU discovery. */
	if (type == ICMP_DEST_UNREACH && code == ICMP_FRAG_NEEDED)
		return true;
	if (icmp_global_allow())
		return true;
	__ICMP_INC_STATS(OUTRATELIMITGLOBAL);
	return false;
}

static bool icmp_is_err(int type)
{
	switch (type) {
	case ICMP_DEST_UNREACH:
	case ICMP_SOURCE_QUENCH:
	case ICMP_REDIRECT:
	case ICMP_TIME_EXCEEDED:
	case ICMP_PARAMETERPROB:
		return true;
	}
	return false;
}

static void icmp_out_count(int type)
{
	__ICMP_INC_STATS(OUTMSGS);
	switch (type) {
	case ICMP_DEST_UNREACH:
		__ICMP_INC_STATS(OUTDESTUNREACHS);
		break;
	case ICMP_TIME_EXCEEDED:
		__ICMP_INC_STATS(OUTTIMEEXCDS);
		break;
	case ICMP_PARAMETERPROB:
		__ICMP_INC_STATS(OUTPARMPROBS);
		break;
	case ICMP_ECHOREPLY:
		__ICMP_INC_STATS(OUTECHOREPS);
		break;
	}
}

/* Build IP + ICMP header + @len bytes of @data and send it to @daddr. */
static void icmp_push_reply(u32 saddr, u32 daddr, u8 tos, int type, int code, u32 un,
			    const struct sk_buff *from, int off, unsigned int len)
{
	struct sk_buff *skb = alloc_skb(ICMP_HEADROOM + sizeof(struct iphdr) +
					sizeof(struct icmphdr) + len, GFP_ATOMIC);
	struct icmphdr *icmph;
	struct iphdr *iph;

	if (!skb) {
		__ICMP_INC_STATS(OUTERRORS);
		return;
	}
	skb_reserve(skb, ICMP_HEADROOM);
	skb_reset_network_header(skb);
	iph = skb_put(skb, sizeof(*iph));
	icmph = skb_put(skb, sizeof(*icmph));
	if (skb_copy_bits(from, off, skb_put(skb, len), len)) {
		kfree_skb(skb);
		__ICMP_INC_STATS(OUTERRORS);
		return;
	}
	icmph->type = type;
	icmph->code = code;
	icmph->un.gateway = un;
	icmph->checksum = 0;
	icmph->checksum = ip_compute_csum(icmph, sizeof(*icmph) + len);
	memset(iph, 0, sizeof(*iph));
	iph->version = 4;
	iph->ihl = 5;
	iph->tos = tos;
	iph->tot_len = htons(skb->len);
	iph->ttl = ipv4_sysctl.ip_default_ttl;
	iph->protocol = IPPROTO_ICMP;
	iph->saddr = saddr;
	iph->daddr = daddr;
	icmp_out_count(type);
	ip_local_out(skb);
}

void icmp_send(struct sk_buff *skb_in, int type, int code, u32 info)
{
	const struct iphdr *iph = ip_hdr(skb_in);
	struct fib_result res;
	unsigned int room, len;
	u32 saddr;
	u8 tos;

	/* Only unicast datagrams for this host's MAC; never to broadcast. */
	if (skb_in->pkt_type != PACKET_HOST)
		return;
	if (ipv4_is_multicast(iph->daddr) || ipv4_is_lbcast(iph->daddr) ||
	    ipv4_is_zeronet(iph->saddr) || ipv4_is_multicast(iph->saddr))
		return;
	/* Only the first fragment. */
	if (iph->frag_off & htons(IP_OFFSET))
		return;
	/* Never an error about an ICMP error. */
	if (icmp_is_err(type) && iph->protocol == IPPROTO_ICMP) {
		u8 _inner, *itp;

		itp = skb_header_pointer(skb_in, skb_network_offset(skb_in) + iph->ihl * 4,
					 1, &_inner);
		if (!itp || *itp > NR_ICMP_TYPES || icmp_is_err(*itp))
			return;
	}
	if (!icmpv4_global_allow(type, code))
		return;

	if (inet_addr_is_local(iph->daddr)) {
		saddr = iph->daddr;
	} else {
		if (fib_lookup(iph->saddr, &res) || res.type != RTN_UNICAST)
			return;
		saddr = inet_select_addr(res.oif, res.nexthop);
	}
	tos = icmp_is_err(type) ? (iph->tos & 0x1e) | 0xc0 : iph->tos;
	/* Quote from the IP header: at most 576 bytes in all. */
	len = ntohs(iph->tot_len);
	if (len > skb_in->len - (skb_network_header(skb_in) - skb_in->data))
		len = skb_in->len - (skb_network_header(skb_in) - skb_in->data);
	room = ICMP_QUOTE_MAX - sizeof(struct iphdr) - sizeof(struct icmphdr);
	if (len > room)
		len = room;
	icmp_push_reply(saddr, iph->saddr, tos, type, code, info, skb_in,
			skb_network_header(skb_in) - skb_in->data, len);
}

int icmp_rcv(struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);
	struct icmphdr *icmph;

	__ICMP_INC_STATS(INMSGS);
	if (!pskb_may_pull(skb, sizeof(*icmph)))
		goto error;
	if (skb_linearize(skb))
		goto error;
	if (ip_compute_csum(skb->data, skb->len)) {
		__ICMP_INC_STATS(CSUMERRORS);
		__ICMP_INC_STATS(INERRORS);
		kfree_skb_reason(skb, SKB_DROP_REASON_ICMP_CSUM);
		return NET_RX_DROP;
	}
	icmph = (struct icmphdr *)skb->data;
	if (icmph->type == ICMP_ECHO) {
		__ICMP_INC_STATS(INECHOS);
		if (ipv4_sysctl.icmp_echo_ignore_all)
			goto consume;
		/* icmp_echo() -> icmp_reply(): same id, sequence and data. */
		icmp_push_reply(iph->daddr, iph->saddr, iph->tos, ICMP_ECHOREPLY, 0,
				icmph->un.gateway, skb, sizeof(*icmph),
				skb->len - sizeof(*icmph));
	}
consume:
	consume_skb(skb);
	return NET_RX_SUCCESS;
error:
	__ICMP_INC_STATS(INERRORS);
	kfree_skb_reason(skb, SKB_DROP_REASON_PKT_TOO_SMALL);
	return NET_RX_DROP;
}
