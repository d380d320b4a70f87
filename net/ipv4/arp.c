// SPDX-License-Identifier: GPL-2.0
/*
 * ARP: the IPv4 neighbour table (arp_tbl) on the generic neighbour layer,
 * solicitations for unresolved next hops (broadcast while INCOMPLETE,
 * unicast to the cached address while PROBE), ICMP host unreachable for
 * what waited in vain, arp_rcv()/arp_process() — replies for our own
 * addresses, learning from requests for us (a STALE entry for the
 * sender, as neigh_event_ns()) and from replies to entries we made
 * (REACHABLE when unicast, STALE when broadcast; override after
 * locktime or for a gratuitous ARP) — and gratuitous ARP for a device's
 * addresses when it starts to run.
 *
 * Kernel: net/ipv4/arp.c arp_tbl, arp_hash(), arp_solicit(),
 *	   arp_error_report(), arp_create(), arp_send_dst(), arp_rcv(),
 *	   arp_process(), arp_is_garp(); net/ipv4/devinet.c
 *	   inetdev_send_gratuitous_arp(); net/ipv4/route.c ipv4_link_failure()
 * Differs: arp_ignore, arp_announce, arp_filter, arp_accept and
 *	    drop_gratuitous_arp at their defaults (0), no proxy ARP; the
 *	    reply to a request is built in the request's buffer; unsolicited
 *	    replies create no entry (arp_accept 0); gratuitous ARP is sent
 *	    once per device, at the first run it is up with an address
 *	    (the kernel sends it on NETDEV_UP with arp_notify, or on
 *	    NETDEV_NOTIFY_PEERS).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <linux/if_arp.h>

#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/arp.h>
#include <net/dropreason.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/neighbour.h>
#include <net/route.h>


static void arp_solicit(struct neighbour *n, struct sk_buff *skb);
static void arp_error_report(struct neighbour *n, struct sk_buff *skb);

struct neigh_table arp_tbl = {
	.family = AF_INET,
	.key_len = 4,
	.id = "arp_cache",
	.protocol = ETH_P_IP,
	.solicit = arp_solicit,
	.error_report = arp_error_report,
	.parms = NEIGH_PARMS_DEFAULT(1 * HZ),
};

/* The Ethernet/IPv4 ARP body after struct arphdr. */
struct arp_eth_body {
	u8 ar_sha[ETH_ALEN];
	u8 ar_sip[4];
	u8 ar_tha[ETH_ALEN];
	u8 ar_tip[4];
} __attribute__((packed));

#define ARP_HDR_LEN	(sizeof(struct arphdr) + sizeof(struct arp_eth_body))

/*
 * arp_create() + arp_xmit(): an ARP packet of @type from @src_ip/@src_hw
 * to @dest_ip, in an Ethernet frame to @dest_hw (NULL: broadcast);
 * @target_hw NULL puts zeros in the target hardware address.
 */
static void arp_send_dst(int type, u32 dest_ip, struct net_device *dev, u32 src_ip,
			 const u8 *dest_hw, const u8 *src_hw, const u8 *target_hw)
{
	static const u8 bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct sk_buff *skb = alloc_skb(LL_RESERVED_SPACE(dev) + ARP_HDR_LEN, GFP_ATOMIC);
	struct arp_eth_body *body;
	struct arphdr *arp;
	struct ethhdr *eth;

	if (!skb)
		return;
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	skb_reset_network_header(skb);
	arp = skb_put(skb, sizeof(*arp));
	body = skb_put(skb, sizeof(*body));
	arp->ar_hrd = htons(ARPHRD_ETHER);
	arp->ar_pro = htons(ETH_P_IP);
	arp->ar_hln = ETH_ALEN;
	arp->ar_pln = 4;
	arp->ar_op = htons(type);
	memcpy(body->ar_sha, src_hw, ETH_ALEN);
	memcpy(body->ar_sip, &src_ip, 4);
	if (target_hw)
		memcpy(body->ar_tha, target_hw, ETH_ALEN);
	else
		memset(body->ar_tha, 0, ETH_ALEN);
	memcpy(body->ar_tip, &dest_ip, 4);
	eth = (struct ethhdr *)skb_push(skb, ETH_HLEN);
	memcpy(eth->h_dest, dest_hw ? dest_hw : bcast, ETH_ALEN);
	memcpy(eth->h_source, src_hw, ETH_ALEN);
	eth->h_proto = htons(ETH_P_ARP);
	skb_reset_mac_header(skb);
	skb->protocol = htons(ETH_P_ARP);
	skb->dev = dev;
	dev_queue_xmit(skb);
}

static void arp_solicit(struct neighbour *n, struct sk_buff *skb)
{
	const struct neigh_parms *p = neigh_get_parms(&arp_tbl, n->dev);
	struct net_device *dev = n->dev;
	u8 dst_ha[ETH_ALEN], *dst_hw = NULL;
	u32 target, saddr = 0;
	int probes = __atomic_load_n(&n->probes, __ATOMIC_RELAXED);

	memcpy(&target, n->primary_key, 4);
	/* arp_announce 0: the packet's own source, if it is one of ours. */
	if (skb && inet_addr_is_local(ip_hdr(skb)->saddr))
		saddr = ip_hdr(skb)->saddr;
	if (!saddr)
		saddr = inet_select_addr(dev->ifindex, target);
	probes -= NEIGH_VAR(p, UCAST_PROBES);
	if (probes < 0) {
		neigh_ha_snapshot(dst_ha, n);
		dst_hw = dst_ha;
	} else if (probes - NEIGH_VAR(p, APP_PROBES) < 0) {
		return;	/* neigh_app_ns(): no user-space resolver */
	}
	arp_send_dst(ARPOP_REQUEST, target, dev, saddr, dst_hw, dev->dev_addr, NULL);
}

/* arp_error_report() -> ipv4_link_failure(): tell the sender, drop. */
static void arp_error_report(struct neighbour *n, struct sk_buff *skb)
{
	(void)n;
	icmp_send(skb, ICMP_DEST_UNREACH, ICMP_HOST_UNREACH, 0);
	kfree_skb_reason(skb, SKB_DROP_REASON_NEIGH_FAILED);
}

int neigh_add(u32 ip, int ifindex, const u8 *lladdr)
{
	struct net_device *dev = dev_get_by_index(ifindex);
	struct neighbour *n;

	if (!dev)
		return -ENODEV;
	n = __neigh_create(&arp_tbl, &ip, dev);
	if (IS_ERR(n))
		return PTR_ERR(n);
	inet_init();
	return neigh_update(n, lladdr, NUD_PERMANENT, NEIGH_UPDATE_F_OVERRIDE | NEIGH_UPDATE_F_ADMIN);
}

void arp_send_gratuitous(struct net_device *dev)
{
	for (int i = 0; inet_addr_at(i); i++) {
		const struct in_ifaddr *ifa = inet_addr_at(i);

		if (ifa->ifindex != dev->ifindex)
			continue;
		arp_send_dst(ARPOP_REQUEST, ifa->local, dev, ifa->local, NULL, dev->dev_addr, NULL);
		NEIGH_CACHE_STAT_INC(&arp_tbl, tx_solicits);
	}
}

/* A unicast address that is not ours (inet_addr_type_dev_table() == RTN_UNICAST). */
static bool arp_addr_unicast(u32 addr)
{
	return !ipv4_is_multicast(addr) && !ipv4_is_lbcast(addr) && !ipv4_is_zeronet(addr) &&
	       !inet_addr_is_local(addr);
}

static bool arp_is_garp(u16 op, u32 sip, u32 tip, const u8 *sha, const u8 *tha)
{
	bool is_garp = tip == sip;

	/* Gratuitous ARP replies also need the target hardware address = source. */
	if (is_garp && op == ARPOP_REPLY)
		is_garp = !memcmp(tha, sha, ETH_ALEN);
	return is_garp && arp_addr_unicast(sip);
}

static int arp_process(struct sk_buff *skb, struct net_device *dev)
{
	struct arp_eth_body *body;
	struct arphdr *arp = (struct arphdr *)skb->data;
	struct neighbour *n;
	struct ethhdr *eth;
	u8 sha[ETH_ALEN];
	u32 sip, tip;
	u16 op;

	if (arp->ar_pro != htons(ETH_P_IP) || arp->ar_hrd != htons(ARPHRD_ETHER))
		goto out_free_skb;
	op = ntohs(arp->ar_op);
	/* Understand only these message types. */
	if (op != ARPOP_REPLY && op != ARPOP_REQUEST)
		goto out_free_skb;
	body = (struct arp_eth_body *)(arp + 1);
	memcpy(sha, body->ar_sha, ETH_ALEN);
	memcpy(&sip, body->ar_sip, 4);
	memcpy(&tip, body->ar_tip, 4);
	/* Requests for multicast or loopback addresses. */
	if (ipv4_is_multicast(tip) || (tip & htonl(0xff000000)) == htonl(0x7f000000))
		goto out_free_skb;

	/* RFC 2131 duplicate address detection: answer without learning. */
	if (sip == 0) {
		if (op == ARPOP_REQUEST && inet_addr_is_local(tip))
			goto reply;
		goto out_consume_skb;
	}

	if (op == ARPOP_REQUEST && inet_addr_is_local(tip)) {
		/* neigh_event_ns(): the sender asked us, so we learn it (STALE). */
		n = neigh_event_ns(&arp_tbl, sha, &sip, dev);
		if (n)
			goto reply;
		goto out_consume_skb;
	}

	/* Update our ARP table: only entries we have (arp_accept 0). */
	n = neigh_lookup(&arp_tbl, &sip, dev);
	if (n) {
		u8 state = NUD_REACHABLE;
		bool override;

		/* Several replies back-to-back: take the first (locktime). */
		override = time_after(jiffies, READ_ONCE(n->updated) +
				      NEIGH_VAR(neigh_get_parms(&arp_tbl, dev), LOCKTIME)) ||
			   arp_is_garp(op, sip, tip, sha, body->ar_tha);
		/* Broadcast replies and requests do not assert reachability. */
		if (op != ARPOP_REPLY || skb->pkt_type != PACKET_HOST)
			state = NUD_STALE;
		neigh_update(n, sha, state, override ? NEIGH_UPDATE_F_OVERRIDE : 0);
	}
out_consume_skb:
	NEIGH_CACHE_STAT_INC(&arp_tbl, rx_consumed);
	consume_skb(skb);
	return NET_RX_SUCCESS;

reply:
	if (skb_cow(skb, LL_RESERVED_SPACE(dev)))
		goto out_free_skb;
	/* The reply in the request's buffer (arp_create()'s layout). */
	arp = (struct arphdr *)skb->data;
	body = (struct arp_eth_body *)(arp + 1);
	arp->ar_op = htons(ARPOP_REPLY);
	memcpy(body->ar_tha, sha, ETH_ALEN);
	memcpy(body->ar_tip, &sip, 4);
	memcpy(body->ar_sha, dev->dev_addr, ETH_ALEN);
	memcpy(body->ar_sip, &tip, 4);
	eth = (struct ethhdr *)skb_push(skb, ETH_HLEN);
	memcpy(eth->h_dest, sha, ETH_ALEN);
	memcpy(eth->h_source, dev->dev_addr, ETH_ALEN);
	eth->h_proto = htons(ETH_P_ARP);
	skb_reset_mac_header(skb);
	skb->dev = dev;
	dev_queue_xmit(skb);
	return NET_RX_SUCCESS;

out_free_skb:
	kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
	return NET_RX_DROP;
}

int arp_rcv(struct sk_buff *skb, struct net_device *dev)
{
	const struct arphdr *arp;

	/* Do not tweak dropwatch on an ARP we will ignore. */
	if (skb->pkt_type == PACKET_OTHERHOST || skb->pkt_type == PACKET_LOOPBACK) {
		NEIGH_CACHE_STAT_INC(&arp_tbl, rx_consumed);
		consume_skb(skb);
		return NET_RX_SUCCESS;
	}
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return NET_RX_DROP;
	/* ARP header, plus 2 device addresses, plus 2 IP addresses. */
	if (!pskb_may_pull(skb, ARP_HDR_LEN)) {
		kfree_skb_reason(skb, SKB_DROP_REASON_PKT_TOO_SMALL);
		return NET_RX_DROP;
	}
	arp = (const struct arphdr *)skb->data;
	if (arp->ar_hln != dev->addr_len || arp->ar_pln != 4) {
		kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
		return NET_RX_DROP;
	}
	return arp_process(skb, dev);
}
