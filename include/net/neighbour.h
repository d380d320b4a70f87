/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Static neighbours: (IPv4 address, device) -> link-layer address, as
 * `ip neigh add IP lladdr MAC dev D nud permanent` makes them, and the
 * hard-header output (neigh_hh_output) that prepends the Ethernet header.
 *
 * Kernel: include/net/neighbour.h struct neighbour, neigh_output(),
 *	   neigh_hh_output(); net/core/neighbour.c
 * Differs: permanent entries only; no resolution (an unknown next hop is
 *	    dropped with NEIGH_FAILED instead of queued behind an ARP
 *	    request); a flat table with a small open hash.
 */
#ifndef _UXDP_NET_NEIGHBOUR_H
#define _UXDP_NET_NEIGHBOUR_H

#include <linux/types.h>

#define NEIGH_MAX	256

struct neighbour {
	u32 primary_key;	/* IPv4 address, network order */
	int ifindex;
	u8 ha[6];
	u8 used;
};

/* Add or replace. 0, -ENOSPC. */
int neigh_add(u32 ip, int ifindex, const u8 *lladdr);
struct neighbour *__ipv4_neigh_lookup(int ifindex, u32 key);
const struct neighbour *neigh_at(int i);
void neigh_flush(void);

#endif
