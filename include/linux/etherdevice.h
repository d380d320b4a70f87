/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ethernet address helpers and eth_type_trans().
 *
 * Kernel: include/linux/etherdevice.h, net/ethernet/eth.c
 */
#ifndef _UXDP_LINUX_ETHERDEVICE_H
#define _UXDP_LINUX_ETHERDEVICE_H

#include <string.h>
#include <linux/if_ether.h>	/* UAPI: ETH_ALEN, ETH_HLEN, ETH_P_*, struct ethhdr */

#include <linux/compiler.h>
#include <linux/skbuff.h>

struct net_device;

static inline struct ethhdr *eth_hdr(const struct sk_buff *skb)
{
	return (struct ethhdr *)skb_mac_header(skb);
}

static inline bool is_zero_ether_addr(const u8 *addr)
{
	static const u8 zero[ETH_ALEN];

	return !memcmp(addr, zero, ETH_ALEN);
}

static inline bool is_multicast_ether_addr(const u8 *addr)
{
	return addr[0] & 0x01;
}

static inline bool is_local_ether_addr(const u8 *addr)
{
	return addr[0] & 0x02;
}

static inline bool is_broadcast_ether_addr(const u8 *addr)
{
	return (addr[0] & addr[1] & addr[2] & addr[3] & addr[4] & addr[5]) == 0xff;
}

static inline bool is_unicast_ether_addr(const u8 *addr)
{
	return !is_multicast_ether_addr(addr);
}

static inline bool is_valid_ether_addr(const u8 *addr)
{
	return !is_multicast_ether_addr(addr) && !is_zero_ether_addr(addr);
}

static inline bool ether_addr_equal(const u8 *addr1, const u8 *addr2)
{
	return !memcmp(addr1, addr2, ETH_ALEN);
}

static inline void ether_addr_copy(u8 *dst, const u8 *src)
{
	memcpy(dst, src, ETH_ALEN);
}

static inline void eth_broadcast_addr(u8 *addr)
{
	memset(addr, 0xff, ETH_ALEN);
}

static inline void eth_zero_addr(u8 *addr)
{
	memset(addr, 0, ETH_ALEN);
}

/* True for an EtherType (>= ETH_P_802_3_MIN), false for an 802.3 length. */
static inline bool eth_proto_is_802_3(u16 proto_be)
{
	return __builtin_bswap16(proto_be) >= ETH_P_802_3_MIN;
}

/* Set skb->pkt_type from the destination MAC against @dev's address. */
void eth_skb_pkt_type(struct sk_buff *skb, const struct net_device *dev);

/**
 * eth_type_trans() - determine the packet's protocol ID
 * @skb: received frame, data at the Ethernet header (at least ETH_HLEN linear)
 * @dev: receiving device
 *
 * Sets skb->dev, the MAC header and pkt_type, pulls ETH_HLEN.
 * Return: the protocol (network byte order) for skb->protocol: the
 * EtherType, or htons(ETH_P_802_3) for raw 802.3 (IPX, 0xFFFF), else
 * htons(ETH_P_802_2).
 */
u16 eth_type_trans(struct sk_buff *skb, struct net_device *dev);

#endif
