/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ARP: the receive side of the IPv4 neighbour table (arp_process():
 * replies for our addresses, learning); the table itself is arp_tbl in
 * include/net/neighbour.h.
 *
 * Kernel: include/net/arp.h; net/ipv4/arp.c arp_rcv(), arp_process()
 * Differs: see net/ipv4/arp.c.
 */
#ifndef _UXDP_NET_ARP_H
#define _UXDP_NET_ARP_H

struct sk_buff;
struct net_device;

int arp_rcv(struct sk_buff *skb, struct net_device *dev);

#endif
