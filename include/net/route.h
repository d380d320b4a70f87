/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IPv4 FIB and interface addresses: a longest-prefix-match table of
 * routes (unicast via a gateway or directly connected, local, unreachable,
 * blackhole) and the addresses given with `addr add`, each of which adds a
 * local /32 route and a connected route for its prefix.
 *
 * Kernel: include/net/route.h, include/net/ip_fib.h, net/ipv4/fib_trie.c,
 *	   net/ipv4/devinet.c (inet_ifaddr), net/ipv4/route.c
 * Differs: a sorted array searched linearly (longest prefix first) instead
 *	    of the LC-trie; one table (main + local merged); no dst cache, the
 *	    lookup result (struct fib_result) is what the skb carries.
 */
#ifndef _UXDP_NET_ROUTE_H
#define _UXDP_NET_ROUTE_H

#include <linux/types.h>

struct net_device;
struct sk_buff;

enum {
	RTN_UNSPEC,
	RTN_UNICAST,
	RTN_LOCAL,
	RTN_BROADCAST,
	RTN_ANYCAST,
	RTN_MULTICAST,
	RTN_BLACKHOLE,
	RTN_UNREACHABLE,
	RTN_PROHIBIT,
};

#define FIB_MAX_ROUTES	256
#define INET_MAX_ADDRS	64

/* One route. Addresses and prefixes in network byte order. */
struct fib_route {
	u32 dst;
	u8 plen;
	u8 type;		/* RTN_* */
	u8 scope_link;		/* connected (no gateway) */
	u32 gw;			/* 0: directly connected */
	int oif;		/* output ifindex */
	u32 prefsrc;
};

struct fib_result {
	const struct fib_route *route;
	u8 type;
	int oif;
	u32 nexthop;		/* gateway, or the destination when connected */
};

struct in_ifaddr {
	u32 local;
	u8 plen;
	int ifindex;
};

/* Longest-prefix match for @daddr. 0 or -ENETUNREACH. */
int fib_lookup(u32 daddr, struct fib_result *res);
/*
 * Add a route. @gw 0 with @oif: connected. With @gw and no @oif, the
 * device comes from the connected route to @gw (fib_check_nh()).
 * 0, -EEXIST, -ENETUNREACH (gateway not reachable), -ENOSPC, -EINVAL.
 */
int fib_route_add(u32 dst, u8 plen, u8 type, u32 gw, int oif);
int fib_route_del(u32 dst, u8 plen);
/* Walk: route @i (0-based) or NULL. */
const struct fib_route *fib_route_at(int i);
void fib_flush(void);

/* Interface addresses (devinet). */
int inet_addr_add(int ifindex, u32 local, u8 plen);
/* Is @addr one of ours (any device)? */
bool inet_addr_is_local(u32 addr);
/* The first address of device @ifindex, 0 if none (inet_select_addr()). */
u32 inet_select_addr(int ifindex, u32 dst);
const struct in_ifaddr *inet_addr_at(int i);

struct bpf_fib_lookup;
struct neighbour;
/*
 * bpf_fib_lookup() steps both families share: the route type's answer,
 * the output device and its MTU against tot_len (0 and *@devp, or a
 * BPF_FIB_LKUP_RET_*); then the neighbour's MACs (bpf_fib_set_fwd_params()).
 */
int bpf_fib_check_route(struct bpf_fib_lookup *params, u8 type, int oif, struct net_device **devp);
int bpf_fib_set_fwd_params(struct bpf_fib_lookup *params, const struct net_device *dev,
			   const struct neighbour *neigh, u32 mtu);

/* Hook for bpf_fib_lookup (include/linux/filter.h). */
void ip_fib_bpf_hook_install(void);

#endif
