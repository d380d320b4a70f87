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

static int neigh_show_line(int i, char *buf, size_t len, bool json);

static const char *ifname(int ifindex)
{
	struct net_device *dev = dev_get_by_index(ifindex);

	return dev ? dev->name : "?";
}

int uxdp_ip_show(int what, int i, char *buf, size_t len)
{
	static const char *const types[] = {
		[RTN_UNICAST] = "", [RTN_LOCAL] = "local ", [RTN_BLACKHOLE] = "blackhole ",
		[RTN_UNREACHABLE] = "unreachable ", [RTN_PROHIBIT] = "prohibit ",
	};
	char a[INET6_ADDRSTRLEN], g[INET6_ADDRSTRLEN];
	int n4 = 0;

	if (what == 0) {
		const struct in_ifaddr *ifa = inet_addr_at(i);

		while (inet_addr_at(n4))
			n4++;
		if (!ifa) {
			const struct inet6_ifaddr *ifa6 = inet6_addr_at(i - n4);

			if (!ifa6)
				return -ENOENT;
			inet_ntop(AF_INET6, &ifa6->addr, a, sizeof(a));
			snprintf(buf, len, "inet6 %s/%u dev %s%s", a, ifa6->plen, ifname(ifa6->ifindex),
				 ipv6_addr_linklocal(&ifa6->addr) ? " scope link" : "");
			return 0;
		}
		inet_ntop(AF_INET, &ifa->local, a, sizeof(a));
		snprintf(buf, len, "inet %s/%u dev %s", a, ifa->plen, ifname(ifa->ifindex));
	} else if (what == 1) {
		const struct fib_route *r = fib_route_at(i);

		while (fib_route_at(n4))
			n4++;
		if (!r) {
			const struct fib6_route *r6 = fib6_route_at(i - n4);

			if (!r6)
				return -ENOENT;
			inet_ntop(AF_INET6, &r6->dst, a, sizeof(a));
			inet_ntop(AF_INET6, &r6->gw, g, sizeof(g));
			snprintf(buf, len, "%s%s/%u%s%s%s%s", r6->type < sizeof(types) / sizeof(types[0]) &&
				 types[r6->type] ? types[r6->type] : "", a, r6->plen,
				 ipv6_addr_any(&r6->gw) ? "" : " via ", ipv6_addr_any(&r6->gw) ? "" : g,
				 r6->oif ? " dev " : "", r6->oif ? ifname(r6->oif) : "");
			return 0;
		}
		inet_ntop(AF_INET, &r->dst, a, sizeof(a));
		inet_ntop(AF_INET, &r->gw, g, sizeof(g));
		snprintf(buf, len, "%s%s/%u%s%s%s%s%s", r->type < sizeof(types) / sizeof(types[0]) &&
			 types[r->type] ? types[r->type] : "", a, r->plen, r->gw ? " via " : "",
			 r->gw ? g : "", r->oif ? " dev " : "", r->oif ? ifname(r->oif) : "",
			 r->scope_link ? " scope link" : "");
	} else {
		return neigh_show_line(i, buf, len, false);
	}
	return 0;
}

/*
 * Entry @i of `neigh show` as `ip neigh show` prints it (@json false) or
 * as one element of `ip -j neigh show` (@json true). NOARP entries are
 * not shown (iproute2's default filter).
 */
static int neigh_show_line(int i, char *buf, size_t len, bool json)
{
	struct neigh_table *tbl = &arp_tbl;
	const struct neighbour *n = neigh_at(tbl, i);
	char a[INET6_ADDRSTRLEN], ll[24] = "";
	u8 state, ha[ETH_ALEN];

	if (!n) {
		tbl = &nd_tbl;
		n = neigh_at(tbl, i - arp_tbl.entries);
	}
	if (!n)
		return -ENOENT;
	state = READ_ONCE(n->nud_state);
	inet_ntop(tbl->family, n->primary_key, a, sizeof(a));
	if (state & NUD_VALID) {
		neigh_ha_snapshot(ha, n);
		snprintf(ll, sizeof(ll), "%02x:%02x:%02x:%02x:%02x:%02x", ha[0], ha[1], ha[2],
			 ha[3], ha[4], ha[5]);
	}
	if (state == NUD_NOARP)
		buf[0] = 0;
	else if (json)
		snprintf(buf, len, "{\"dst\":\"%s\",\"dev\":\"%s\"%s%s%s,\"state\":[\"%s\"]}", a,
			 n->dev->name, *ll ? ",\"lladdr\":\"" : "", ll, *ll ? "\"" : "",
			 neigh_state_name(state));
	else
		snprintf(buf, len, "%s dev %s%s%s %s", a, n->dev->name, *ll ? " lladdr " : "", ll,
			 neigh_state_name(state));
	return 0;
}

int uxdp_ip_neigh_json(int i, char *buf, size_t len)
{
	return neigh_show_line(i, buf, len, true);
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
