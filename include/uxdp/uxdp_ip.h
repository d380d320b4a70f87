/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uxdp IPv4 and IPv6: addresses, routes, neighbours, sysctl and the SNMP
 * counters, as `ip addr`, `ip route`, `ip neigh`, `sysctl` and
 * `nstat` see them. int functions return 0 or -errno; messages for a user
 * go to the caller's @err buffer.
 *
 * Kernel: rtnetlink RTM_NEWADDR, RTM_NEWROUTE, RTM_NEWNEIGH; /proc/net/snmp
 */
#ifndef _UXDP_UXDP_IP_H
#define _UXDP_UXDP_IP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uxdp.h"

/**
 * uxdp_ip_addr_add() - `addr add A.B.C.D/LEN dev NAME`: the address, its
 * local route and its connected route. 0 or -errno, @err says why.
 */
UXDP_API int uxdp_ip_addr_add(const char *dev, const char *cidr, char *err, size_t errlen);
/**
 * uxdp_ip_route_add() - `route add PREFIX[/LEN] [via GW] [dev NAME]` (PREFIX
 * may be "default"); @type "unicast" (NULL), "blackhole", "unreachable" or
 * "prohibit". 0 or -errno, @err says why.
 */
UXDP_API int uxdp_ip_route_add(const char *prefix, const char *type, const char *via,
			       const char *dev, char *err, size_t errlen);
/** uxdp_ip_neigh_add() - `neigh add IP lladdr MAC dev NAME` (NUD_PERMANENT). */
UXDP_API int uxdp_ip_neigh_add(const char *ip, const char *lladdr, const char *dev,
			       char *err, size_t errlen);
/** uxdp_sysctl_set() - `sysctl net.ipv4.KEY=VALUE`. 0, -ENOENT, -EINVAL. */
UXDP_API int uxdp_sysctl_set(const char *key, const char *value, char *err, size_t errlen);
/**
 * uxdp_ip_snmp_get() - the Ip: and Icmp: counters as "Ip.InReceives"-style
 * names. Return: how many there are (fills up to @max).
 */
UXDP_API int uxdp_ip_snmp_get(char (*names)[48], uint64_t *values, int max);
/* An address as `ip -j addr show` lists it in addr_info. */
struct uxdp_ip_addr {
	size_t sz;			/* sizeof(struct uxdp_ip_addr) */
	int family;			/* AF_INET, AF_INET6 */
	char local[46];			/* INET6_ADDRSTRLEN */
	unsigned int prefixlen;
	char dev[16];
	const char *scope;		/* "global", "link" */
};
/** uxdp_ip_addr_get() - address @i (IPv4 first). Return: 0, or -ENOENT past the end. */
UXDP_API int uxdp_ip_addr_get(int i, struct uxdp_ip_addr *out);

/* A route as `ip -j route show` prints it. */
struct uxdp_ip_route {
	size_t sz;			/* sizeof(struct uxdp_ip_route) */
	int family;			/* AF_INET, AF_INET6 */
	const char *type;		/* "unicast", "local", "blackhole", "unreachable", "prohibit" */
	char dst[46];
	unsigned int dst_len;
	char gateway[46];		/* "" when directly connected */
	char dev[16];			/* "" without an output device */
	const char *scope;		/* "universe", "link" (connected), "host" (local) */
};
/** uxdp_ip_route_get() - route @i (IPv4 first). Return: 0, or -ENOENT past the end. */
UXDP_API int uxdp_ip_route_get(int i, struct uxdp_ip_route *out);

/* A neighbour as `ip -j neigh show` prints it. */
struct uxdp_ip_neigh {
	size_t sz;			/* sizeof(struct uxdp_ip_neigh) */
	int family;			/* AF_INET (ARP), AF_INET6 (NDP) */
	char dst[46];
	char dev[16];
	char lladdr[18];		/* "" until resolved */
	const char *state;		/* "REACHABLE", "STALE", "FAILED", ... */
	bool noarp;			/* NUD_NOARP: not shown by `ip neigh show` */
};
/** uxdp_ip_neigh_get() - neighbour @i (ARP first). Return: 0, or -ENOENT past the end. */
UXDP_API int uxdp_ip_neigh_get(int i, struct uxdp_ip_neigh *out);
/**
 * uxdp_neigh_stats_get() - statistics of neighbour table @tbl (0 ARP,
 * 1 NDP; its name in @id): the /proc/net/stat/arp_cache columns, then
 * uxdp's tx_solicits (requests and announcements it sent) and rx_consumed
 * (frames the table's protocol ended without sending anything), then
 * entries. Return: how many there are (fills up to @max), -ENOENT.
 */
UXDP_API int uxdp_neigh_stats_get(int tbl, const char **id, char (*names)[48], uint64_t *values,
				  int max);
/** uxdp_ip_reset() - forget addresses, routes, neighbours and counters. */
UXDP_API void uxdp_ip_reset(void);

#endif
