/* SPDX-License-Identifier: GPL-2.0 */
/*
 * veth internals the unit tests look at. Kernel: none (test hooks).
 */
#ifndef _UXDP_DRIVERS_NET_VETH_H
#define _UXDP_DRIVERS_NET_VETH_H

#include <linux/netdevice.h>

/* Occupied slots of rq @queue's ring (consumed but unreleased included); -ENXIO if off. */
int veth_rq_ring_count(struct net_device *dev, unsigned int queue);

#endif
