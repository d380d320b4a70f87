// SPDX-License-Identifier: GPL-2.0
/*
 * Neighbour discovery (RFC 4861) on the generic neighbour layer: nd_tbl
 * with the kernel's defaults; solicitations for unresolved next hops to
 * the target's solicited-node group while INCOMPLETE and to the cached
 * address while PROBE, from the packet's own source if it is ours, else
 * the device's link-local address, with a source link-layer option;
 * answers to solicitations for our addresses (router, solicited, and
 * override with a target link-layer option when the solicitation was
 * multicast; duplicate address detection answered to all-nodes), the
 * solicitor learnt STALE; advertisements update entries we have
 * (solicited: REACHABLE, else STALE; override flag as the kernel's).
 * Malformed messages are dropped with the kernel's reasons: hop limit not
 * 255 (IPV6_NDISC_HOP_LIMIT), code not 0 (IPV6_NDISC_BAD_CODE), bad
 * options (IPV6_NDISC_BAD_OPTIONS), a solicitation for another host
 * (IPV6_NDISC_NS_OTHERHOST).
 *
 * Kernel: net/ipv6/ndisc.c nd_tbl, ndisc_solicit(), ndisc_send_ns(),
 *	   ndisc_send_na(), ndisc_recv_ns(), ndisc_recv_na(), ndisc_rcv(),
 *	   ndisc_parse_options(), ndisc_error_report()
 * Differs: no router or redirect messages (router advertisements and
 *	    solicitations are counted and consumed), no proxy NDP, no
 *	    unsolicited advertisements, no DAD of our own addresses;
 *	    answers go to the solicitor's link-layer address directly.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dropreason.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/neighbour.h>


static void ndisc_solicit(struct neighbour *n, struct sk_buff *skb);
static void ndisc_error_report(struct neighbour *n, struct sk_buff *skb);

struct neigh_table nd_tbl = {
	.family = AF_INET6,
	.key_len = 16,
	.id = "ndisc_cache",
	.protocol = ETH_P_IPV6,
	.solicit = ndisc_solicit,
	.error_report = ndisc_error_report,
	.parms = NEIGH_PARMS_DEFAULT(0),
};

/* Neighbour solicitation / advertisement: ICMPv6 header, target, one option. */
struct nd_msg {
	struct icmp6hdr icmph;
	struct in6_addr target;
	u8 opt[8];
};

#define ND_MSG_MIN	(sizeof(struct icmp6hdr) + sizeof(struct in6_addr))

static void ndisc_send_ns(struct net_device *dev, const struct in6_addr *solicit,
			  const struct in6_addr *daddr, const struct in6_addr *saddr,
			  const u8 *dst_mac)
{
	struct in6_addr ll;
	struct nd_msg msg = {
		.icmph.icmp6_type = NDISC_NEIGHBOUR_SOLICITATION,
		.target = *solicit,
		.opt = { ND_OPT_SOURCE_LL_ADDR, 1 },
	};

	if (!saddr) {
		/* ipv6_get_lladdr() */
		addrconf_ifid_eui48(dev, &ll);
		if (!ipv6_chk_addr(&ll))
			return;
		saddr = &ll;
	}
	memcpy(msg.opt + 2, dev->dev_addr, ETH_ALEN);
	icmpv6_push(saddr, daddr, 255, &msg, sizeof(msg), dev, dst_mac);
}

static void ndisc_send_na(struct net_device *dev, const struct in6_addr *daddr,
			  const struct in6_addr *target, bool router, bool solicited,
			  bool override, bool inc_opt, const u8 *dst_mac)
{
	struct nd_msg msg = {
		.icmph.icmp6_type = NDISC_NEIGHBOUR_ADVERTISEMENT,
		.target = *target,
		.opt = { ND_OPT_TARGET_LL_ADDR, 1 },
	};

	msg.icmph.icmp6_router = router;
	msg.icmph.icmp6_solicited = solicited;
	msg.icmph.icmp6_override = override;
	memcpy(msg.opt + 2, dev->dev_addr, ETH_ALEN);
	icmpv6_push(target, daddr, 255, &msg, inc_opt ? sizeof(msg) : ND_MSG_MIN, dev, dst_mac);
}

static void ndisc_solicit(struct neighbour *n, struct sk_buff *skb)
{
	const struct neigh_parms *p = neigh_get_parms(&nd_tbl, n->dev);
	const struct in6_addr *target = (const struct in6_addr *)n->primary_key;
	const struct in6_addr *saddr = NULL;
	int probes = __atomic_load_n(&n->probes, __ATOMIC_RELAXED);
	struct in6_addr mcaddr;
	u8 mac[ETH_ALEN];

	if (skb && ipv6_chk_addr(&ipv6_hdr(skb)->saddr))
		saddr = &ipv6_hdr(skb)->saddr;
	probes -= NEIGH_VAR(p, UCAST_PROBES);
	if (probes < 0) {
		neigh_ha_snapshot(mac, n);
		ndisc_send_ns(n->dev, target, target, saddr, mac);
	} else if (probes - NEIGH_VAR(p, APP_PROBES) < 0) {
		return;	/* neigh_app_ns() */
	} else {
		addrconf_addr_solict_mult(target, &mcaddr);
		ipv6_eth_mc_map(&mcaddr, mac);
		ndisc_send_ns(n->dev, target, &mcaddr, saddr, mac);
	}
}

/* ndisc_error_report() -> ip6_link_failure(): address unreachable, drop. */
static void ndisc_error_report(struct neighbour *n, struct sk_buff *skb)
{
	(void)n;
	icmpv6_send(skb, ICMPV6_DEST_UNREACH, ICMPV6_ADDR_UNREACH, 0);
	kfree_skb_reason(skb, SKB_DROP_REASON_NEIGH_FAILED);
}

/*
 * ndisc_parse_options(): every option at least 8 bytes and within the
 * message; the link-layer address option of @want (at most one counts).
 */
static bool ndisc_parse_options(const u8 *opt, int len, u8 want, const u8 **lladdr)
{
	*lladdr = NULL;
	while (len > 0) {
		int l;

		if (len < 2)
			return false;
		l = opt[1] << 3;
		if (!l || l > len)
			return false;
		if (opt[0] == want) {
			if (l < 2 + ETH_ALEN)
				return false;
			if (!*lladdr)
				*lladdr = opt + 2;
		}
		opt += l;
		len -= l;
	}
	return true;
}

static enum skb_drop_reason ndisc_recv_ns(struct sk_buff *skb)
{
	const struct nd_msg *msg = (const struct nd_msg *)skb->data;
	const struct ipv6hdr *hdr = ipv6_hdr(skb);
	const struct in6_addr *saddr = &hdr->saddr, *daddr = &hdr->daddr;
	struct net_device *dev = skb->dev;
	bool dad = ipv6_addr_any(saddr), inc = ipv6_addr_is_multicast(daddr);
	const u8 *lladdr;
	struct in6_addr sol, all_nodes = { .s6_addr = { 0xff, 0x02, [15] = 1 } };
	u8 mac[ETH_ALEN];

	if (skb->len < ND_MSG_MIN)
		return SKB_DROP_REASON_PKT_TOO_SMALL;
	if (ipv6_addr_is_multicast(&msg->target))
		return SKB_DROP_REASON_NOT_SPECIFIED;
	/* RFC 2461 7.1.1: DAD has to be destined for the solicited-node group. */
	addrconf_addr_solict_mult(&msg->target, &sol);
	if (dad && !ipv6_addr_equal(daddr, &sol))
		return SKB_DROP_REASON_NOT_SPECIFIED;
	if (!ndisc_parse_options(msg->opt, skb->len - ND_MSG_MIN, ND_OPT_SOURCE_LL_ADDR, &lladdr))
		return SKB_DROP_REASON_IPV6_NDISC_BAD_OPTIONS;
	/* RFC 2461 7.1.1: no source link-layer option in DAD. */
	if (dad && lladdr)
		return SKB_DROP_REASON_NOT_SPECIFIED;
	if (!ipv6_chk_addr(&msg->target))
		return SKB_DROP_REASON_IPV6_NDISC_NS_OTHERHOST;
	__ICMP6_INC_STATS(INNEIGHBORSOLICITS);
	if (dad) {
		ipv6_eth_mc_map(&all_nodes, mac);
		ndisc_send_na(dev, &all_nodes, &msg->target, ipv6_sysctl.forwarding, false, true,
			      true, mac);
		return SKB_NOT_DROPPED_YET;
	}
	if (lladdr || !inc) {
		struct neighbour *n = __neigh_create(&nd_tbl, saddr, dev);

		if (!IS_ERR(n) && lladdr)
			neigh_update(n, lladdr, NUD_STALE,
				     NEIGH_UPDATE_F_WEAK_OVERRIDE | NEIGH_UPDATE_F_OVERRIDE);
	}
	ndisc_send_na(dev, saddr, &msg->target, ipv6_sysctl.forwarding, true, inc, inc,
		      lladdr ? lladdr : eth_hdr(skb)->h_source);
	return SKB_NOT_DROPPED_YET;
}

static enum skb_drop_reason ndisc_recv_na(struct sk_buff *skb)
{
	const struct nd_msg *msg = (const struct nd_msg *)skb->data;
	const struct in6_addr *daddr = &ipv6_hdr(skb)->daddr;
	struct neighbour *n;
	const u8 *lladdr;

	if (skb->len < ND_MSG_MIN)
		return SKB_DROP_REASON_PKT_TOO_SMALL;
	if (ipv6_addr_is_multicast(&msg->target))
		return SKB_DROP_REASON_NOT_SPECIFIED;
	if (ipv6_addr_is_multicast(daddr) && msg->icmph.icmp6_solicited)
		return SKB_DROP_REASON_NOT_SPECIFIED;
	if (!ndisc_parse_options(msg->opt, skb->len - ND_MSG_MIN, ND_OPT_TARGET_LL_ADDR, &lladdr))
		return SKB_DROP_REASON_IPV6_NDISC_BAD_OPTIONS;
	__ICMP6_INC_STATS(INNEIGHBORADVERTISEMENTS);
	/* Someone else claims one of our addresses (DAD conflict): ignore. */
	if (ipv6_chk_addr(&msg->target))
		goto consume;
	n = neigh_lookup(&nd_tbl, &msg->target, skb->dev);
	if (n)
		neigh_update(n, lladdr, msg->icmph.icmp6_solicited ? NUD_REACHABLE : NUD_STALE,
			     NEIGH_UPDATE_F_WEAK_OVERRIDE |
			     (msg->icmph.icmp6_override ? NEIGH_UPDATE_F_OVERRIDE : 0));
consume:
	NEIGH_CACHE_STAT_INC(&nd_tbl, rx_consumed);
	return SKB_NOT_DROPPED_YET;
}

int ndisc_rcv(struct sk_buff *skb)
{
	const struct icmp6hdr *icmp6h = (const struct icmp6hdr *)skb->data;
	enum skb_drop_reason reason;

	if (ipv6_hdr(skb)->hop_limit != 255) {
		reason = SKB_DROP_REASON_IPV6_NDISC_HOP_LIMIT;
		goto drop;
	}
	if (icmp6h->icmp6_code != 0) {
		reason = SKB_DROP_REASON_IPV6_NDISC_BAD_CODE;
		goto drop;
	}
	if (icmp6h->icmp6_type == NDISC_NEIGHBOUR_SOLICITATION)
		reason = ndisc_recv_ns(skb);
	else
		reason = ndisc_recv_na(skb);
	if (reason == SKB_NOT_DROPPED_YET) {
		consume_skb(skb);
		return NET_RX_SUCCESS;
	}
drop:
	NEIGH_CACHE_STAT_INC(&nd_tbl, rx_consumed);
	kfree_skb_reason(skb, reason);
	return NET_RX_DROP;
}
