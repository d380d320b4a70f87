/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ARP: answer requests for the router's own addresses (arp_process()).
 *
 * Kernel: include/net/arp.h; net/ipv4/arp.c arp_rcv(), arp_process()
 * Differs: replies only; requests from others do not create neighbours.
 */
#ifndef _UXDP_NET_ARP_H
#define _UXDP_NET_ARP_H

struct sk_buff;
struct net_device;

int arp_rcv(struct sk_buff *skb, struct net_device *dev);

#endif
