// SPDX-License-Identifier: GPL-2.0
/*
 * The IPv4 FIB, interface addresses, sysctls, SNMP counters and the
 * bpf_fib_lookup() backend.
 *
 * Routes live in one array kept sorted by prefix length, longest first,
 * so the first match of a linear walk is the longest-prefix match. Local
 * /32 routes come from inet_addr_add() (RTN_LOCAL), as do connected
 * routes (the address's prefix, no gateway). A route with a gateway and
 * no device takes the device of the connected route covering the gateway
 * (fib_check_nh()).
 *
 * Kernel: net/ipv4/fib_trie.c fib_table_lookup(), fib_table_insert();
 *	   net/ipv4/fib_semantics.c fib_check_nh(); net/ipv4/devinet.c
 *	   inet_insert_ifa(), inet_select_addr(); net/ipv4/fib_frontend.c
 *	   fib_add_ifaddr(); net/core/filter.c bpf_ipv4_fib_lookup(),
 *	   bpf_fib_set_fwd_params(); net/ipv4/proc.c (snmp4_ipstats_list)
 * Differs: a sorted array, not the LC-trie (lookups are linear in the
 *	    number of routes: fine for the few routes of a topology script);
 *	    no dst cache; one namespace; sysctls are global, not per device.
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

struct ipv4_mib ipv4_mib[NR_CPUS];

struct ipv4_sysctl ipv4_sysctl = {
	.ip_forward = 0,
	.ip_default_ttl = 64,
	.icmp_ratemask = 0x1818,
	.icmp_msgs_per_sec = 1000,
	.icmp_msgs_burst = 50,
	.icmp_echo_ignore_all = 0,
	.accept_source_route = 0,
};

static struct fib_route fib_routes[FIB_MAX_ROUTES];
static int fib_nr;
static struct in_ifaddr inet_addrs[INET_MAX_ADDRS];
static int inet_nr;

/* ---- counters ----------------------------------------------------------- */

#define __MIB_NAME(name, text)	text,
static const char *const ipstats_names[] = { IPSTATS_MIBS(__MIB_NAME) };
static const char *const icmp_names[] = { ICMP_MIBS(__MIB_NAME) };
#undef __MIB_NAME

const char *ipstats_mib_name(int i)
{
	return i >= 0 && i < IPSTATS_MIB_MAX ? ipstats_names[i] : NULL;
}

const char *icmp_mib_name(int i)
{
	return i >= 0 && i < ICMP_MIB_MAX ? icmp_names[i] : NULL;
}

void snmp_fold(u64 *out, const void *base, size_t stride, size_t off, int n)
{
	memset(out, 0, n * sizeof(u64));
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		const u64 *v = (const u64 *)((const char *)base + cpu * stride + off);

		for (int i = 0; i < n; i++)
			out[i] += v[i];
	}
}

void ipv4_mib_get(u64 ip[IPSTATS_MIB_MAX], u64 icmp[ICMP_MIB_MAX])
{
	if (ip)
		snmp_fold(ip, ipv4_mib, sizeof(ipv4_mib[0]), offsetof(struct ipv4_mib, ip),
			  IPSTATS_MIB_MAX);
	if (icmp)
		snmp_fold(icmp, ipv4_mib, sizeof(ipv4_mib[0]), offsetof(struct ipv4_mib, icmp),
			  ICMP_MIB_MAX);
}

void ipv4_mib_reset(void)
{
	memset(ipv4_mib, 0, sizeof(ipv4_mib));
}

/* ---- sysctl ------------------------------------------------------------- */

static const struct {
	const char *name;
	int *val;
	int min, max;
} ipv4_sysctls[] = {
	{ "ip_forward", &ipv4_sysctl.ip_forward, 0, 1 },
	{ "ip_default_ttl", &ipv4_sysctl.ip_default_ttl, 1, 255 },
	{ "icmp_ratemask", &ipv4_sysctl.icmp_ratemask, 0, 0x7fffffff },
	{ "icmp_msgs_per_sec", &ipv4_sysctl.icmp_msgs_per_sec, 0, 0x7fffffff },
	{ "icmp_msgs_burst", &ipv4_sysctl.icmp_msgs_burst, 0, 0x7fffffff },
	{ "icmp_echo_ignore_all", &ipv4_sysctl.icmp_echo_ignore_all, 0, 1 },
	{ "conf.all.accept_source_route", &ipv4_sysctl.accept_source_route, 0, 1 },
};

static int sysctl_find(const char *key)
{
	if (!strncmp(key, "net.ipv4.", 9))
		key += 9;
	for (size_t i = 0; i < sizeof(ipv4_sysctls) / sizeof(ipv4_sysctls[0]); i++)
		if (!strcmp(ipv4_sysctls[i].name, key))
			return i;
	return -ENOENT;
}

int ipv4_sysctl_set(const char *key, const char *value)
{
	int i = sysctl_find(key);
	char *end;
	long v;

	if (i < 0)
		return i;
	v = strtol(value, &end, 0);
	if (!*value || *end || v < ipv4_sysctls[i].min || v > ipv4_sysctls[i].max)
		return -EINVAL;
	*ipv4_sysctls[i].val = v;
	return 0;
}

int ipv4_sysctl_get(const char *key, long *value)
{
	int i = sysctl_find(key);

	if (i < 0)
		return i;
	*value = *ipv4_sysctls[i].val;
	return 0;
}

/* ---- FIB ---------------------------------------------------------------- */

static inline u32 inet_make_mask(u8 plen)
{
	return plen ? htonl(~0U << (32 - plen)) : 0;
}

int fib_lookup(u32 daddr, struct fib_result *res)
{
	for (int i = 0; i < fib_nr; i++) {
		const struct fib_route *r = &fib_routes[i];

		if ((daddr & inet_make_mask(r->plen)) != r->dst)
			continue;
		res->route = r;
		res->type = r->type;
		res->oif = r->oif;
		res->nexthop = r->gw ? r->gw : daddr;
		return 0;
	}
	return -ENETUNREACH;
}

int fib_route_add(u32 dst, u8 plen, u8 type, u32 gw, int oif)
{
	struct fib_result res;
	int i;

	if (plen > 32 || type == RTN_UNSPEC)
		return -EINVAL;
	dst &= inet_make_mask(plen);
	for (i = 0; i < fib_nr; i++)
		if (fib_routes[i].dst == dst && fib_routes[i].plen == plen)
			return -EEXIST;
	if (type == RTN_UNICAST && gw) {
		/* fib_check_nh(): the gateway must be on a connected route. */
		if (fib_lookup(gw, &res) || !res.route->scope_link ||
		    (oif && res.oif != oif))
			return -ENETUNREACH;
		oif = res.oif;
	} else if (type == RTN_UNICAST && !oif) {
		return -EINVAL;
	}
	if (fib_nr == FIB_MAX_ROUTES)
		return -ENOSPC;
	/* Keep longest prefixes first; insert after routes of equal length. */
	for (i = 0; i < fib_nr && fib_routes[i].plen >= plen; i++)
		;
	memmove(&fib_routes[i + 1], &fib_routes[i], (fib_nr - i) * sizeof(fib_routes[0]));
	fib_routes[i] = (struct fib_route){
		.dst = dst, .plen = plen, .type = type, .gw = gw, .oif = oif,
		.scope_link = type == RTN_UNICAST && !gw,
		.prefsrc = oif ? inet_select_addr(oif, 0) : 0,
	};
	fib_nr++;
	return 0;
}

int fib_route_del(u32 dst, u8 plen)
{
	for (int i = 0; i < fib_nr; i++) {
		if (fib_routes[i].dst != (dst & inet_make_mask(plen)) || fib_routes[i].plen != plen)
			continue;
		memmove(&fib_routes[i], &fib_routes[i + 1], (fib_nr - i - 1) * sizeof(fib_routes[0]));
		fib_nr--;
		return 0;
	}
	return -ESRCH;
}

const struct fib_route *fib_route_at(int i)
{
	return i >= 0 && i < fib_nr ? &fib_routes[i] : NULL;
}

void fib_flush(void)
{
	fib_nr = 0;
	inet_nr = 0;
}

/* ---- addresses ---------------------------------------------------------- */

int inet_addr_add(int ifindex, u32 local, u8 plen)
{
	int err;

	if (plen > 32 || !dev_get_by_index(ifindex))
		return -EINVAL;
	for (int i = 0; i < inet_nr; i++)
		if (inet_addrs[i].local == local && inet_addrs[i].ifindex == ifindex)
			return -EEXIST;
	if (inet_nr == INET_MAX_ADDRS)
		return -ENOSPC;
	inet_addrs[inet_nr++] = (struct in_ifaddr){ .local = local, .plen = plen, .ifindex = ifindex };
	/* fib_add_ifaddr(): the local route, then the prefix route. */
	err = fib_route_add(local, 32, RTN_LOCAL, 0, ifindex);
	if (err && err != -EEXIST)
		goto out_del_addr;
	if (plen < 32) {
		err = fib_route_add(local, plen, RTN_UNICAST, 0, ifindex);
		if (err && err != -EEXIST)
			goto out_del_addr;
	}
	inet_init();
	return 0;

out_del_addr:
	inet_nr--;
	return err;
}

bool inet_addr_is_local(u32 addr)
{
	for (int i = 0; i < inet_nr; i++)
		if (inet_addrs[i].local == addr)
			return true;
	return false;
}

u32 inet_select_addr(int ifindex, u32 dst)
{
	u32 any = 0;

	for (int i = 0; i < inet_nr; i++) {
		const struct in_ifaddr *ifa = &inet_addrs[i];

		if (ifa->ifindex != ifindex)
			continue;
		if (!dst || !((ifa->local ^ dst) & inet_make_mask(ifa->plen)))
			return ifa->local;
		if (!any)
			any = ifa->local;
	}
	return any;
}

const struct in_ifaddr *inet_addr_at(int i)
{
	return i >= 0 && i < inet_nr ? &inet_addrs[i] : NULL;
}

/* ---- bpf_fib_lookup() --------------------------------------------------- */

int bpf_fib_check_route(struct bpf_fib_lookup *params, u8 type, int oif, struct net_device **devp)
{
	struct net_device *dev;

	switch (type) {
	case RTN_UNICAST:
		break;
	case RTN_BLACKHOLE:
		return BPF_FIB_LKUP_RET_BLACKHOLE;
	case RTN_UNREACHABLE:
		return BPF_FIB_LKUP_RET_UNREACHABLE;
	case RTN_PROHIBIT:
		return BPF_FIB_LKUP_RET_PROHIBIT;
	default:
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	}
	dev = dev_get_by_index(oif);
	if (!dev)
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	if (params->tot_len > dev->mtu) {
		params->mtu_result = dev->mtu;
		return BPF_FIB_LKUP_RET_FRAG_NEEDED;
	}
	params->rt_metric = 0;
	params->ifindex = dev->ifindex;
	*devp = dev;
	return 0;
}

int bpf_fib_set_fwd_params(struct bpf_fib_lookup *params, const struct net_device *dev,
			   const struct neighbour *neigh, u32 mtu)
{
	/* The kernel's __ipv4_neigh_lookup_noref() + NUD_VALID test. */
	if (!neigh || !(READ_ONCE(neigh->nud_state) & NUD_VALID))
		return BPF_FIB_LKUP_RET_NO_NEIGH;
	neigh_ha_snapshot(params->dmac, neigh);
	memcpy(params->smac, dev->dev_addr, ETH_ALEN);
	params->h_vlan_TCI = 0;
	params->h_vlan_proto = 0;
	params->mtu_result = mtu;
	return BPF_FIB_LKUP_RET_SUCCESS;
}

static int bpf_ipv4_fib_lookup(struct xdp_buff *xdp, struct bpf_fib_lookup *params, u32 flags)
{
	struct net_device *dev = dev_get_by_index(params->ifindex);
	struct fib_result res;
	u32 mtu;
	int ret;

	if (params->family == AF_INET6)
		return bpf_ipv6_fib_lookup(params, flags);
	if (params->family != AF_INET)
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	if (unlikely(!dev))
		return -ENODEV;
	if (unlikely(!ipv4_sysctl.ip_forward))
		return BPF_FIB_LKUP_RET_FWD_DISABLED;
	if (fib_lookup(params->ipv4_dst, &res))
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	ret = bpf_fib_check_route(params, res.type, res.oif, &dev);
	if (ret)
		return ret;
	mtu = dev->mtu;
	if (flags & BPF_FIB_LOOKUP_SRC) {
		params->ipv4_src = inet_select_addr(dev->ifindex, params->ipv4_dst);
		if (!params->ipv4_src)
			return BPF_FIB_LKUP_RET_NO_SRC_ADDR;
	}
	if (res.route->gw)
		params->ipv4_dst = res.route->gw;
	if (flags & BPF_FIB_LOOKUP_SKIP_NEIGH) {
		memcpy(params->smac, dev->dev_addr, ETH_ALEN);
		return BPF_FIB_LKUP_RET_SUCCESS;
	}
	/* bpf_fib_set_fwd_params() */
	return bpf_fib_set_fwd_params(params, dev, __ipv4_neigh_lookup(dev, params->ipv4_dst), mtu);
}

void ip_fib_bpf_hook_install(void)
{
	bpf_fib_lookup_hook = bpf_ipv4_fib_lookup;
}
