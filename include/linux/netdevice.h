/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct net_device: the fields the datapath and the eBPF context rewrite
 * need today. The engine work (net/core/dev.c) grows it: ops, queues, stats.
 *
 * Kernel: include/linux/netdevice.h
 */
#ifndef _UXDP_LINUX_NETDEVICE_H
#define _UXDP_LINUX_NETDEVICE_H

#include_next <linux/netdevice.h>	/* IFNAMSIZ, MAX_ADDR_LEN */

#include <linux/types.h>

struct net_device {
	char name[IFNAMSIZ];
	int ifindex;
	unsigned int flags;		/* IFF_UP, ... */
	unsigned int mtu;
	unsigned short hard_header_len;	/* ETH_HLEN for Ethernet */
	unsigned short needed_headroom;
	unsigned short needed_tailroom;
	unsigned char addr_len;
	unsigned char dev_addr[MAX_ADDR_LEN];
	unsigned char broadcast[MAX_ADDR_LEN];
};

/*
 * Device by ifindex (kernel: dev_get_by_index(net, ifindex)); NULL if none.
 * kernel/bpf/devmap.c has a weak stub returning NULL until the device layer
 * provides the real one.
 */
struct net_device *dev_get_by_index(int ifindex);

#endif
