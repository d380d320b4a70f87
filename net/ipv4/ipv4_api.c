// SPDX-License-Identifier: GPL-2.0
/*
 * The IPv4 verbs of the public API (include/uxdp/uxdp_ip.h): parse the
 * iproute2-style arguments (addresses, prefixes, MACs, device names) and
 * call the FIB, address, neighbour and sysctl code; format the tables for
 * `addr/route/neigh show` and the SNMP counters for `snmp`.
 *
 * Kernel: none (iproute2 ip-address, ip-route, ip-neigh; sysctl(8);
 *	   /proc/net/snmp)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/neighbour.h>
#include <net/route.h>

#include <uxdp/uxdp_link.h>

#define ERR(...)	do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); } while (0)

/* "ADDR[/LEN]" or "default" of @family into @addr (4 or 16 bytes). */
static int parse_prefix_af(int family, const char *s, void *addr, u8 *plen, bool need_len)
{
	int max = family == AF_INET6 ? 128 : 32;
	char buf[64], *slash, *end;
	long l = max;

	if (!strcmp(s, "default")) {
		memset(addr, 0, max / 8);
		*plen = 0;
		return 0;
	}
	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash) {
		*slash++ = 0;
		l = strtol(slash, &end, 10);
		if (!*slash || *end || l < 0 || l > max)
			return -EINVAL;
	} else if (need_len) {
		return -EINVAL;
	}
	if (inet_pton(family, buf, addr) != 1)
		return -EINVAL;
	*plen = l;
	return 0;
}

static int parse_prefix(const char *s, u32 *addr, u8 *plen, bool need_len)
{
	return parse_prefix_af(AF_INET, s, addr, plen, need_len);
}

static int parse_prefix6(const char *s, struct in6_addr *addr, u8 *plen, bool need_len)
{
	return parse_prefix_af(AF_INET6, s, addr, plen, need_len);
}

static struct net_device *find_dev(const char *name, char *err, size_t errlen)
{
	struct net_device *dev = name ? dev_get_by_name(name) : NULL;

	if (!dev)
		ERR("device '%s' does not exist", name ? name : "");
	return dev;
}

int uxdp_ip_addr_add(const char *devname, const char *cidr, char *err, size_t errlen)
{
	struct net_device *dev = find_dev(devname, err, errlen);
	u32 addr;
	u8 plen;
	int ret;

	if (!dev)
		return -ENODEV;
	if (strchr(cidr, ':')) {
		struct in6_addr a6;

		if (parse_prefix6(cidr, &a6, &plen, false)) {
			ERR("'%s' is not an IPv6 address[/LEN]", cidr);
			return -EINVAL;
		}
		ret = inet6_addr_add(dev->ifindex, &a6, plen);
		if (ret)
			ERR("addr add %s dev %s: %s", cidr, devname, strerror(-ret));
		return ret;
	}
	if (parse_prefix(cidr, &addr, &plen, false)) {
		ERR("'%s' is not an IPv4 address[/LEN]", cidr);
		return -EINVAL;
	}
	ret = inet_addr_add(dev->ifindex, addr, plen);
	if (ret)
		ERR("addr add %s dev %s: %s", cidr, devname, strerror(-ret));
	return ret;
}

static u8 route_type(const char *type)
{
	if (!type || !strcmp(type, "unicast"))
		return RTN_UNICAST;
	if (!strcmp(type, "blackhole"))
		return RTN_BLACKHOLE;
	if (!strcmp(type, "unreachable"))
		return RTN_UNREACHABLE;
	if (!strcmp(type, "prohibit"))
		return RTN_PROHIBIT;
	return RTN_UNSPEC;
}

int uxdp_ip_route_add(const char *prefix, const char *type, const char *via,
		      const char *devname, char *err, size_t errlen)
{
	int family = strchr(prefix, ':') || (via && strchr(via, ':')) ? AF_INET6 : AF_INET;
	bool v6 = family == AF_INET6;
	u8 plen, rtn = route_type(type);
	struct net_device *dev = NULL;
	struct in6_addr dst, gw = { 0 };
	int ret;

	/* An IPv4 prefix and gateway use the first 4 bytes of dst and gw. */
	if (parse_prefix_af(family, prefix, &dst, &plen, false)) {
		ERR("'%s' is not a prefix (%s/LEN or default)", prefix,
		    v6 ? "X:X::X" : "A.B.C.D");
		return -EINVAL;
	}
	if (rtn == RTN_UNSPEC) {
		ERR("unknown route type '%s'", type);
		return -EINVAL;
	}
	if (devname && !(dev = find_dev(devname, err, errlen)))
		return -ENODEV;
	if (via && inet_pton(family, via, &gw) != 1) {
		ERR("'%s' is not an IPv%d address", via, v6 ? 6 : 4);
		return -EINVAL;
	}
	if (rtn == RTN_UNICAST && !via && !dev) {
		ERR("route add %s: needs via GW or dev NAME", prefix);
		return -EINVAL;
	}
	if (v6) {
		ret = fib6_route_add(&dst, plen, rtn, &gw, dev ? dev->ifindex : 0);
	} else {
		u32 dst4, gw4;

		memcpy(&dst4, &dst, sizeof(dst4));
		memcpy(&gw4, &gw, sizeof(gw4));
		ret = fib_route_add(dst4, plen, rtn, gw4, dev ? dev->ifindex : 0);
	}
	if (ret == -ENETUNREACH)
		ERR("route add %s: gateway %s is not on a connected network%s", prefix,
		    via ? via : "", dev ? " of that device" : "");
	else if (ret)
		ERR("route add %s: %s", prefix, strerror(-ret));
	return ret;
}

int uxdp_ip_neigh_add(const char *ipstr, const char *lladdr, const char *devname,
		      char *err, size_t errlen)
{
	struct net_device *dev = find_dev(devname, err, errlen);
	unsigned int m[6];
	struct in6_addr a6;
	struct in_addr a;
	u8 mac[6];
	char c;
	int ret;

	if (!dev)
		return -ENODEV;
	if (strchr(ipstr, ':') ? inet_pton(AF_INET6, ipstr, &a6) != 1 : inet_pton(AF_INET, ipstr, &a) != 1) {
		ERR("'%s' is not an IPv4 or IPv6 address", ipstr);
		return -EINVAL;
	}
	if (sscanf(lladdr, "%x:%x:%x:%x:%x:%x%c", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5], &c) != 6) {
		ERR("'%s' is not a MAC address", lladdr);
		return -EINVAL;
	}
	for (int i = 0; i < 6; i++) {
		if (m[i] > 255) {
			ERR("'%s' is not a MAC address", lladdr);
			return -EINVAL;
		}
		mac[i] = m[i];
	}
	if (strchr(ipstr, ':')) {
		struct neighbour *n = __neigh_create(&nd_tbl, &a6, dev);

		ret = IS_ERR(n) ? PTR_ERR(n) :
		      neigh_update(n, mac, NUD_PERMANENT, NEIGH_UPDATE_F_OVERRIDE | NEIGH_UPDATE_F_ADMIN);
		if (!ret)
			inet6_init();
	} else {
		ret = neigh_add(a.s_addr, dev->ifindex, mac);
	}
	if (ret)
		ERR("neigh add %s: %s", ipstr, strerror(-ret));
	return ret;
}

int uxdp_sysctl_set(const char *key, const char *value, char *err, size_t errlen)
{
	int ret;

	if (!strncmp(key, "net.ipv4.neigh.", 15))
		ret = neigh_sysctl_set(&arp_tbl, key + 15, value);
	else if (!strncmp(key, "net.ipv6.neigh.", 15))
		ret = neigh_sysctl_set(&nd_tbl, key + 15, value);
	else if (!strncmp(key, "net.ipv6.", 9))
		ret = ipv6_sysctl_set(key, value);
	else
		ret = ipv4_sysctl_set(key, value);

	if (ret == -ENOENT)
		ERR("unknown sysctl '%s'", key);
	else if (ret)
		ERR("sysctl %s: bad value '%s'", key, value);
	return ret;
}

int uxdp_ip_snmp_get(char (*names)[48], uint64_t *values, int max)
{
	u64 ip[IPSTATS_MIB_MAX], icmp[ICMP_MIB_MAX];
	int n = 0;

	ipv4_mib_get(ip, icmp);
	for (int i = 0; i < IPSTATS_MIB_MAX; i++, n++) {
		if (n < max) {
			snprintf(names[n], 48, "Ip.%s", ipstats_mib_name(i));
			values[n] = ip[i];
		}
	}
	for (int i = 0; i < ICMP_MIB_MAX; i++, n++) {
		if (n < max) {
			snprintf(names[n], 48, "Icmp.%s", icmp_mib_name(i));
			values[n] = icmp[i];
		}
	}
	{
		u64 ip6[IP6STATS_MIB_MAX], icmp6[ICMP6_MIB_MAX];

		ipv6_mib_get(ip6, icmp6);
		for (int i = 0; i < IP6STATS_MIB_MAX; i++, n++) {
			if (n < max) {
				snprintf(names[n], 48, "Ip6.%s", ip6stats_mib_name(i));
				values[n] = ip6[i];
			}
		}
		for (int i = 0; i < ICMP6_MIB_MAX; i++, n++) {
			if (n < max) {
				snprintf(names[n], 48, "Icmp6.%s", icmp6_mib_name(i));
				values[n] = icmp6[i];
			}
		}
	}
	return n;
}

static void ifname_copy(char *out, size_t len, int ifindex)
{
	struct net_device *dev = ifindex ? dev_get_by_index(ifindex) : NULL;

	snprintf(out, len, "%s", dev ? dev->name : ifindex ? "?" : "");
}

int uxdp_ip_addr_get(int i, struct uxdp_ip_addr *out)
{
	const struct in_ifaddr *ifa = inet_addr_at(i);
	const struct inet6_ifaddr *ifa6;
	int n4 = 0;

	memset(out, 0, sizeof(*out));
	out->sz = sizeof(*out);
	out->scope = "global";
	if (ifa) {
		out->family = AF_INET;
		inet_ntop(AF_INET, &ifa->local, out->local, sizeof(out->local));
		out->prefixlen = ifa->plen;
		ifname_copy(out->dev, sizeof(out->dev), ifa->ifindex);
		return 0;
	}
	while (inet_addr_at(n4))
		n4++;
	ifa6 = inet6_addr_at(i - n4);
	if (!ifa6)
		return -ENOENT;
	out->family = AF_INET6;
	inet_ntop(AF_INET6, &ifa6->addr, out->local, sizeof(out->local));
	out->prefixlen = ifa6->plen;
	ifname_copy(out->dev, sizeof(out->dev), ifa6->ifindex);
	if (ipv6_addr_linklocal(&ifa6->addr))
		out->scope = "link";
	return 0;
}

static const char *route_type_name(u8 type)
{
	static const char *const types[] = {
		[RTN_UNICAST] = "unicast", [RTN_LOCAL] = "local", [RTN_BLACKHOLE] = "blackhole",
		[RTN_UNREACHABLE] = "unreachable", [RTN_PROHIBIT] = "prohibit",
	};

	return type < sizeof(types) / sizeof(types[0]) && types[type] ? types[type] : "unicast";
}

int uxdp_ip_route_get(int i, struct uxdp_ip_route *out)
{
	const struct fib_route *r = fib_route_at(i);
	const struct fib6_route *r6;
	int n4 = 0;

	memset(out, 0, sizeof(*out));
	out->sz = sizeof(*out);
	if (r) {
		out->family = AF_INET;
		out->type = route_type_name(r->type);
		inet_ntop(AF_INET, &r->dst, out->dst, sizeof(out->dst));
		out->dst_len = r->plen;
		if (r->gw)
			inet_ntop(AF_INET, &r->gw, out->gateway, sizeof(out->gateway));
		ifname_copy(out->dev, sizeof(out->dev), r->oif);
		out->scope = r->type == RTN_LOCAL ? "host" : r->scope_link ? "link" : "universe";
		return 0;
	}
	while (fib_route_at(n4))
		n4++;
	r6 = fib6_route_at(i - n4);
	if (!r6)
		return -ENOENT;
	out->family = AF_INET6;
	out->type = route_type_name(r6->type);
	inet_ntop(AF_INET6, &r6->dst, out->dst, sizeof(out->dst));
	out->dst_len = r6->plen;
	if (!ipv6_addr_any(&r6->gw))
		inet_ntop(AF_INET6, &r6->gw, out->gateway, sizeof(out->gateway));
	ifname_copy(out->dev, sizeof(out->dev), r6->oif);
	out->scope = r6->type == RTN_LOCAL ? "host" : "universe";
	return 0;
}

int uxdp_ip_neigh_get(int i, struct uxdp_ip_neigh *out)
{
	struct neigh_table *tbl = &arp_tbl;
	const struct neighbour *n = neigh_at(tbl, i);
	u8 state, ha[ETH_ALEN];

	if (!n) {
		tbl = &nd_tbl;
		n = neigh_at(tbl, i - arp_tbl.entries);
	}
	if (!n)
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	out->sz = sizeof(*out);
	out->family = tbl->family;
	state = READ_ONCE(n->nud_state);
	inet_ntop(tbl->family, n->primary_key, out->dst, sizeof(out->dst));
	snprintf(out->dev, sizeof(out->dev), "%s", n->dev->name);
	if (state & NUD_VALID) {
		neigh_ha_snapshot(ha, n);
		snprintf(out->lladdr, sizeof(out->lladdr), "%02x:%02x:%02x:%02x:%02x:%02x", ha[0],
			 ha[1], ha[2], ha[3], ha[4], ha[5]);
	}
	out->state = neigh_state_name(state);
	out->noarp = state == NUD_NOARP;
	return 0;
}

int uxdp_neigh_stats_get(int tbl_i, const char **id, char (*names)[48], uint64_t *values, int max)
{
	struct neigh_table *tbl = tbl_i == 0 ? &arp_tbl : tbl_i == 1 ? &nd_tbl : NULL;
	int n = neigh_stats_count();
	u64 st[32];

	if (!tbl)
		return -ENOENT;
	*id = tbl->id;
	neigh_stats_get(tbl, st);
	for (int i = 0; i < n && i < max; i++) {
		snprintf(names[i], 48, "%s", neigh_stat_name(i));
		values[i] = st[i];
	}
	if (max > n) {
		snprintf(names[n], 48, "entries");
		values[n] = tbl->entries;
	}
	return n + 1;
}

void uxdp_ip_reset(void)
{
	inet6_exit();
	inet_exit();
}
