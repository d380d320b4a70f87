// SPDX-License-Identifier: GPL-2.0
/*
 * ARP and the IPv4 neighbour table. Neighbours are permanent entries
 * (`neigh add IP lladdr MAC dev D`) in an open-addressed hash keyed by
 * (address, device), which ip_finish_output2() and bpf_fib_lookup() read
 * per packet. arp_rcv() answers requests for the router's own addresses
 * on the device they arrived on (arp_process()'s reply path).
 *
 * Kernel: net/ipv4/arp.c arp_rcv(), arp_process(), arp_send_dst(),
 *	   arp_create(); net/core/neighbour.c neigh_lookup(),
 *	   __ipv4_neigh_lookup_noref()
 * Differs: no resolution, no learning from requests, no gratuitous ARP,
 *	    no proxy ARP; a full table refuses new entries (-ENOSPC).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <linux/if_arp.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/arp.h>
#include <net/dropreason.h>
#include <net/ip.h>
#include <net/neighbour.h>
#include <net/route.h>

#define NEIGH_HASH	(NEIGH_MAX * 2)	/* power of two */

static struct neighbour neigh_table[NEIGH_MAX];
static int neigh_nr;
static s16 neigh_hash[NEIGH_HASH];	/* index + 1, 0 empty */

static inline u32 arp_hashfn(u32 key, int ifindex)
{
	u32 h = key * 0x9E3779B1u ^ (u32)ifindex * 0x85EBCA77u;

	return (h ^ (h >> 16)) & (NEIGH_HASH - 1);
}

struct neighbour *__ipv4_neigh_lookup(int ifindex, u32 key)
{
	u32 h = arp_hashfn(key, ifindex);

	for (int probe = 0; probe < NEIGH_HASH; probe++) {
		int i = neigh_hash[(h + probe) & (NEIGH_HASH - 1)];
		struct neighbour *n;

		if (!i)
			return NULL;
		n = &neigh_table[i - 1];
		if (n->primary_key == key && n->ifindex == ifindex)
			return n;
	}
	return NULL;
}

int neigh_add(u32 ip, int ifindex, const u8 *lladdr)
{
	struct neighbour *n = __ipv4_neigh_lookup(ifindex, ip);
	u32 h;

	if (n) {
		memcpy(n->ha, lladdr, ETH_ALEN);
		return 0;
	}
	if (neigh_nr == NEIGH_MAX)
		return -ENOSPC;
	n = &neigh_table[neigh_nr++];
	n->primary_key = ip;
	n->ifindex = ifindex;
	memcpy(n->ha, lladdr, ETH_ALEN);
	n->used = 1;
	for (h = arp_hashfn(ip, ifindex); neigh_hash[h]; h = (h + 1) & (NEIGH_HASH - 1))
		;
	neigh_hash[h] = neigh_nr;
	inet_init();
	return 0;
}

const struct neighbour *neigh_at(int i)
{
	return i >= 0 && i < neigh_nr ? &neigh_table[i] : NULL;
}

void neigh_flush(void)
{
	memset(neigh_hash, 0, sizeof(neigh_hash));
	neigh_nr = 0;
}

/* The Ethernet/IPv4 ARP body after struct arphdr. */
struct arp_eth_body {
	u8 ar_sha[ETH_ALEN];
	u8 ar_sip[4];
	u8 ar_tha[ETH_ALEN];
	u8 ar_tip[4];
} __attribute__((packed));

int arp_rcv(struct sk_buff *skb, struct net_device *dev)
{
	struct arp_eth_body *body;
	struct arphdr *arp;
	struct ethhdr *eth;
	u32 sip, tip;

	if (skb->pkt_type == PACKET_OTHERHOST || skb->pkt_type == PACKET_LOOPBACK)
		goto consume;
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return NET_RX_DROP;
	if (!pskb_may_pull(skb, sizeof(*arp) + sizeof(*body)))
		goto freeskb;
	arp = (struct arphdr *)skb->data;
	if (arp->ar_hln != dev->addr_len || arp->ar_pln != 4 ||
	    arp->ar_hrd != htons(ARPHRD_ETHER) || arp->ar_pro != htons(ETH_P_IP))
		goto freeskb;
	if (arp->ar_op != htons(ARPOP_REQUEST))
		goto consume;
	body = (struct arp_eth_body *)(arp + 1);
	memcpy(&sip, body->ar_sip, 4);
	memcpy(&tip, body->ar_tip, 4);
	if (ipv4_is_multicast(tip) || ipv4_is_lbcast(tip))
		goto consume;
	/* Ours, on this device (arp_ignore 0 answers for any device's address). */
	if (!inet_addr_is_local(tip))
		goto consume;
	if (skb_cow(skb, LL_RESERVED_SPACE(dev)))
		goto freeskb;
	/* Turn the request into the reply in place (arp_create()'s layout). */
	arp = (struct arphdr *)skb->data;
	body = (struct arp_eth_body *)(arp + 1);
	arp->ar_op = htons(ARPOP_REPLY);
	memcpy(body->ar_tha, body->ar_sha, ETH_ALEN);
	memcpy(body->ar_tip, &sip, 4);
	memcpy(body->ar_sha, dev->dev_addr, ETH_ALEN);
	memcpy(body->ar_sip, &tip, 4);
	eth = (struct ethhdr *)skb_push(skb, ETH_HLEN);
	memcpy(eth->h_dest, body->ar_tha, ETH_ALEN);
	memcpy(eth->h_source, dev->dev_addr, ETH_ALEN);
	eth->h_proto = htons(ETH_P_ARP);
	skb_reset_mac_header(skb);
	skb->dev = dev;
	dev_queue_xmit(skb);
	return NET_RX_SUCCESS;

consume:
	consume_skb(skb);
	return NET_RX_SUCCESS;
freeskb:
	kfree_skb(skb);
	return NET_RX_DROP;
}
