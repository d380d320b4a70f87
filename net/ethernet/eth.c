// SPDX-License-Identifier: GPL-2.0
/*
 * Ethernet receive classification: eth_type_trans() and the pkt_type
 * decision (host, broadcast, multicast, other host).
 *
 * Kernel: net/ethernet/eth.c eth_type_trans() eth_skb_pkt_type()
 * Broadcast means "equal to dev->broadcast" (set it to ff:ff:ff:ff:ff:ff as
 * ether_setup() does), other group addresses are multicast.
 *
 * Differs: no DSA tag check (netdev_uses_dsa -> ETH_P_XDSA): the DSA
 *	    conduit's receive path sets that itself.
 */
#include <arpa/inet.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

void eth_skb_pkt_type(struct sk_buff *skb, const struct net_device *dev)
{
	const struct ethhdr *eth = eth_hdr(skb);

	if (unlikely(!ether_addr_equal(eth->h_dest, dev->dev_addr))) {
		if (unlikely(is_multicast_ether_addr(eth->h_dest))) {
			if (ether_addr_equal(eth->h_dest, dev->broadcast))
				skb->pkt_type = PACKET_BROADCAST;
			else
				skb->pkt_type = PACKET_MULTICAST;
		} else {
			skb->pkt_type = PACKET_OTHERHOST;
		}
	}
}

u16 eth_type_trans(struct sk_buff *skb, struct net_device *dev)
{
	unsigned short _service_access_point;
	const unsigned short *sap;
	const struct ethhdr *eth;

	skb->dev = dev;
	skb_reset_mac_header(skb);
	eth = (const struct ethhdr *)skb->data;
	skb_pull_inline(skb, ETH_HLEN);
	eth_skb_pkt_type(skb, dev);

	if (likely(eth_proto_is_802_3(eth->h_proto)))
		return eth->h_proto;

	/*
	 * A length field: 0xFFFF as the first two payload bytes is the raw
	 * 802.3 framing of old IPX; anything else is 802.2 LLC.
	 */
	sap = skb_header_pointer(skb, 0, sizeof(*sap), &_service_access_point);
	if (sap && *sap == 0xFFFF)
		return htons(ETH_P_802_3);
	return htons(ETH_P_802_2);
}
