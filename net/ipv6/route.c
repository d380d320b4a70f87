// SPDX-License-Identifier: GPL-2.0
/*
 * The IPv6 FIB, interface addresses (addrconf), counters, sysctls and the
 * bpf_fib_lookup() backend for AF_INET6.
 *
 * Routes are one array kept sorted by prefix length, longest first, so
 * the first match of a walk over 128-bit prefixes is the longest-prefix
 * match (as the IPv4 FIB). The first address on a device also gives it
 * its EUI-64 link-local address (fe80::/64 from the MAC, the U/L bit
 * flipped); each address adds a local /128 route and a connected route
 * for its prefix. A route with a gateway takes the device of the
 * connected route covering the gateway, or the one given (link-local
 * gateways need it).
 *
 * Kernel: net/ipv6/ip6_fib.c fib6_lookup(), fib6_add(); net/ipv6/route.c
 *	   ip6_route_add(), ip6_route_input(); net/ipv6/addrconf.c
 *	   ipv6_add_addr(), addrconf_addr_gen(), ipv6_generate_eui64(),
 *	   ipv6_chk_addr(), ipv6_dev_get_saddr(); net/core/filter.c
 *	   bpf_ipv6_fib_lookup(); net/ipv6/proc.c snmp6_ipstats_list;
 *	   include/net/ip6_checksum.h csum_ipv6_magic()
 * Differs: a sorted array, not the fib6 radix tree; no duplicate address
 *	    detection (addresses are usable at once), no router
 *	    advertisements, no temporary or SLAAC addresses; source
 *	    selection is "same prefix, else global, else link-local", not
 *	    RFC 6724's eight rules.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/neighbour.h>
#include <net/route.h>

struct ipv6_mib ipv6_mib[NR_CPUS];
struct ipv6_sysctl ipv6_sysctl = { .forwarding = 0, .hop_limit = 64 };

static struct fib6_route fib6_routes[FIB6_MAX_ROUTES];
static int fib6_nr;
static struct inet6_ifaddr inet6_addrs[INET6_MAX_ADDRS];
static int inet6_nr;

#define __MIB_NAME(name, text)	text,
static const char *const ip6stats_names[] = { IP6STATS_MIBS(__MIB_NAME) };
static const char *const icmp6_names[] = { ICMP6_MIBS(__MIB_NAME) };
#undef __MIB_NAME

const char *ip6stats_mib_name(int i)
{
	return i >= 0 && i < IP6STATS_MIB_MAX ? ip6stats_names[i] : NULL;
}

const char *icmp6_mib_name(int i)
{
	return i >= 0 && i < ICMP6_MIB_MAX ? icmp6_names[i] : NULL;
}

void ipv6_mib_get(u64 ip[IP6STATS_MIB_MAX], u64 icmp[ICMP6_MIB_MAX])
{
	if (ip)
		snmp_fold(ip, ipv6_mib, sizeof(ipv6_mib[0]), offsetof(struct ipv6_mib, ip),
			  IP6STATS_MIB_MAX);
	if (icmp)
		snmp_fold(icmp, ipv6_mib, sizeof(ipv6_mib[0]), offsetof(struct ipv6_mib, icmp),
			  ICMP6_MIB_MAX);
}

int ipv6_sysctl_set(const char *key, const char *value)
{
	int *v = NULL, max = 1;
	char *end;
	long l;

	if (!strcmp(key, "net.ipv6.conf.all.forwarding")) {
		v = &ipv6_sysctl.forwarding;
	} else if (!strcmp(key, "net.ipv6.conf.all.hop_limit")) {
		v = &ipv6_sysctl.hop_limit;
		max = 255;
	} else {
		return -ENOENT;
	}
	l = strtol(value, &end, 0);
	if (!*value || *end || l < 0 || l > max || (max == 255 && l < 1))
		return -EINVAL;
	*v = l;
	return 0;
}

u16 csum_ipv6_magic(const struct in6_addr *saddr, const struct in6_addr *daddr, u32 len,
		    u8 proto, const void *data)
{
	u32 ph[2] = { htonl(len), htonl(proto) };
	u32 sum = csum_partial_simple(saddr, 16, 0);

	sum = csum_partial_simple(daddr, 16, sum);
	sum = csum_partial_simple(ph, sizeof(ph), sum);
	return csum_fold(csum_partial_simple(data, len, sum));
}

/* ---- FIB ---------------------------------------------------------------- */

static bool ipv6_prefix_equal(const struct in6_addr *a, const struct in6_addr *b, u8 plen)
{
	unsigned int bytes = plen / 8, bits = plen % 8;

	if (memcmp(a, b, bytes))
		return false;
	if (bits) {
		u8 mask = 0xff << (8 - bits);

		return !((a->s6_addr[bytes] ^ b->s6_addr[bytes]) & mask);
	}
	return true;
}

static void ipv6_addr_prefix(struct in6_addr *p, const struct in6_addr *a, u8 plen)
{
	*p = *a;
	for (int i = 0; i < 16; i++) {
		int keep = plen - 8 * i;

		if (keep <= 0)
			p->s6_addr[i] = 0;
		else if (keep < 8)
			p->s6_addr[i] &= 0xff << (8 - keep);
	}
}

int fib6_lookup(const struct in6_addr *daddr, struct fib6_result *res)
{
	for (int i = 0; i < fib6_nr; i++) {
		const struct fib6_route *r = &fib6_routes[i];

		if (!ipv6_prefix_equal(daddr, &r->dst, r->plen))
			continue;
		res->route = r;
		res->type = r->type;
		res->oif = r->oif;
		res->nexthop = ipv6_addr_any(&r->gw) ? *daddr : r->gw;
		return 0;
	}
	return -ENETUNREACH;
}

int fib6_route_add(const struct in6_addr *dst, u8 plen, u8 type, const struct in6_addr *gw, int oif)
{
	static const struct in6_addr any;
	struct fib6_result res;
	struct in6_addr p;
	int i;

	if (plen > 128 || type == RTN_UNSPEC)
		return -EINVAL;
	ipv6_addr_prefix(&p, dst, plen);
	for (i = 0; i < fib6_nr; i++)
		if (fib6_routes[i].plen == plen && ipv6_addr_equal(&fib6_routes[i].dst, &p))
			return -EEXIST;
	if (!gw)
		gw = &any;
	if (type == RTN_UNICAST && !ipv6_addr_any(gw)) {
		if (ipv6_addr_linklocal(gw)) {
			if (!oif)
				return -EINVAL;	/* a link-local gateway needs its device */
		} else if (fib6_lookup(gw, &res) || res.type != RTN_UNICAST ||
			   !ipv6_addr_any(&res.route->gw) || (oif && res.oif != oif)) {
			return -ENETUNREACH;
		} else {
			oif = res.oif;
		}
	} else if (type == RTN_UNICAST && !oif) {
		return -EINVAL;
	}
	if (fib6_nr == FIB6_MAX_ROUTES)
		return -ENOSPC;
	for (i = 0; i < fib6_nr && fib6_routes[i].plen >= plen; i++)
		;
	memmove(&fib6_routes[i + 1], &fib6_routes[i], (fib6_nr - i) * sizeof(fib6_routes[0]));
	fib6_routes[i] = (struct fib6_route){ .dst = p, .plen = plen, .type = type, .gw = *gw, .oif = oif };
	fib6_nr++;
	return 0;
}

const struct fib6_route *fib6_route_at(int i)
{
	return i >= 0 && i < fib6_nr ? &fib6_routes[i] : NULL;
}

void fib6_flush(void)
{
	fib6_nr = 0;
	inet6_nr = 0;
}

/* ---- addresses ---------------------------------------------------------- */

void addrconf_ifid_eui48(const struct net_device *dev, struct in6_addr *ll)
{
	const u8 *m = dev->dev_addr;

	*ll = (struct in6_addr){ .s6_addr = { 0xfe, 0x80, [8] = m[0] ^ 0x02, m[1], m[2], 0xff,
					      0xfe, m[3], m[4], m[5] } };
}

static int __inet6_addr_add(int ifindex, const struct in6_addr *addr, u8 plen)
{
	int err;

	for (int i = 0; i < inet6_nr; i++)
		if (inet6_addrs[i].ifindex == ifindex && ipv6_addr_equal(&inet6_addrs[i].addr, addr))
			return -EEXIST;
	if (inet6_nr == INET6_MAX_ADDRS)
		return -ENOSPC;
	inet6_addrs[inet6_nr++] = (struct inet6_ifaddr){ .addr = *addr, .plen = plen, .ifindex = ifindex };
	err = fib6_route_add(addr, 128, RTN_LOCAL, NULL, ifindex);
	if (err && err != -EEXIST)
		goto out_del;
	if (plen < 128 && !ipv6_addr_linklocal(addr)) {
		err = fib6_route_add(addr, plen, RTN_UNICAST, NULL, ifindex);
		if (err && err != -EEXIST)
			goto out_del;
	}
	return 0;
out_del:
	inet6_nr--;
	return err;
}

int inet6_addr_add(int ifindex, const struct in6_addr *addr, u8 plen)
{
	struct net_device *dev = dev_get_by_index(ifindex);
	bool has_ll = false;
	struct in6_addr ll;
	int err;

	if (plen > 128 || !dev || ipv6_addr_is_multicast(addr) || ipv6_addr_any(addr))
		return -EINVAL;
	for (int i = 0; i < inet6_nr; i++)
		has_ll |= inet6_addrs[i].ifindex == ifindex && ipv6_addr_linklocal(&inet6_addrs[i].addr);
	if (!has_ll && !ipv6_addr_linklocal(addr)) {
		/* addrconf_addr_gen(): the interface's link-local address first. */
		addrconf_ifid_eui48(dev, &ll);
		err = __inet6_addr_add(ifindex, &ll, 64);
		if (err && err != -EEXIST)
			return err;
	}
	err = __inet6_addr_add(ifindex, addr, plen);
	if (!err)
		inet6_init();
	return err;
}

const struct inet6_ifaddr *inet6_addr_at(int i)
{
	return i >= 0 && i < inet6_nr ? &inet6_addrs[i] : NULL;
}

bool ipv6_chk_addr(const struct in6_addr *a)
{
	for (int i = 0; i < inet6_nr; i++)
		if (ipv6_addr_equal(&inet6_addrs[i].addr, a))
			return true;
	return false;
}

bool ipv6_chk_mcast_addr(int ifindex, const struct in6_addr *a)
{
	struct in6_addr sol;

	if (a->s6_addr[1] != 0x02 && a->s6_addr[1] != 0x01)
		return false;
	/* ff02::1 all-nodes, ff02::2 all-routers */
	if (!memcmp(a->s6_addr + 2, "\0\0\0\0\0\0\0\0\0\0\0\0\0", 13) &&
	    (a->s6_addr[15] == 1 || a->s6_addr[15] == 2))
		return true;
	for (int i = 0; i < inet6_nr; i++) {
		if (inet6_addrs[i].ifindex != ifindex)
			continue;
		addrconf_addr_solict_mult(&inet6_addrs[i].addr, &sol);
		if (ipv6_addr_equal(&sol, a))
			return true;
	}
	return false;
}

bool ipv6_dev_get_saddr(int ifindex, const struct in6_addr *dst, struct in6_addr *saddr)
{
	const struct inet6_ifaddr *global = NULL, *ll = NULL;

	for (int i = 0; i < inet6_nr; i++) {
		const struct inet6_ifaddr *ifa = &inet6_addrs[i];

		if (ifa->ifindex != ifindex)
			continue;
		if (dst && !ipv6_addr_linklocal(dst) && !ipv6_addr_linklocal(&ifa->addr) &&
		    ipv6_prefix_equal(&ifa->addr, dst, ifa->plen)) {
			*saddr = ifa->addr;
			return true;
		}
		if (ipv6_addr_linklocal(&ifa->addr)) {
			if (!ll)
				ll = ifa;
		} else if (!global) {
			global = ifa;
		}
	}
	if (dst && (ipv6_addr_linklocal(dst) || ipv6_addr_is_multicast(dst)) && ll)
		global = NULL;
	if (!global && !ll)
		return false;
	*saddr = global ? global->addr : ll->addr;
	return true;
}

/* ---- bpf_fib_lookup() --------------------------------------------------- */

int bpf_ipv6_fib_lookup(struct bpf_fib_lookup *params, u32 flags)
{
	struct in6_addr *dst = (struct in6_addr *)params->ipv6_dst;
	struct in6_addr *src = (struct in6_addr *)params->ipv6_src;
	struct net_device *dev = dev_get_by_index(params->ifindex);
	struct fib6_result res;
	u32 mtu;
	int ret;

	if (unlikely(!dev))
		return -ENODEV;
	/* link local addresses are never forwarded */
	if (ipv6_addr_linklocal(dst) || ipv6_addr_linklocal(src))
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	if (unlikely(!ipv6_sysctl.forwarding))
		return BPF_FIB_LKUP_RET_FWD_DISABLED;
	if (fib6_lookup(dst, &res))
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	ret = bpf_fib_check_route(params, res.type, res.oif, &dev);
	if (ret)
		return ret;
	mtu = dev->mtu;
	if ((flags & BPF_FIB_LOOKUP_SRC) && !ipv6_dev_get_saddr(dev->ifindex, dst, src))
		return BPF_FIB_LKUP_RET_NO_SRC_ADDR;
	*dst = res.nexthop;
	if (flags & BPF_FIB_LOOKUP_SKIP_NEIGH) {
		memcpy(params->smac, dev->dev_addr, ETH_ALEN);
		return BPF_FIB_LKUP_RET_SUCCESS;
	}
	/* __ipv6_neigh_lookup_noref_stub() */
	return bpf_fib_set_fwd_params(params, dev, neigh_lookup(&nd_tbl, dst, dev), mtu);
}
