/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IPv6: receive (ipv6_rcv), forwarding (ip6_forward), output to a
 * neighbour (ip6_finish_output2), ICMPv6 and neighbour discovery, the
 * FIB and interface addresses (fib6, addrconf), the per-CPU SNMP counters
 * (/proc/net/snmp6's Ip6 and Icmp6 lines) and net.ipv6.conf.all.forwarding.
 *
 * Kernel: include/net/ipv6.h, include/net/addrconf.h, include/net/ndisc.h,
 *	   include/net/ip6_route.h, include/uapi/linux/snmp.h, net/ipv6/proc.c
 * Differs: one namespace; counters are plain per-CPU u64 slots; sysctls
 *	    for all devices at once.
 */
#ifndef _UXDP_NET_IPV6_H
#define _UXDP_NET_IPV6_H

#include <netinet/in.h>		/* struct in6_addr (before the UAPI headers) */
#include <linux/ipv6.h>		/* UAPI struct ipv6hdr */
#include <linux/icmpv6.h>	/* UAPI struct icmp6hdr, ICMPV6_* */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/smp.h>
#include <linux/skbuff.h>

struct net_device;
struct neighbour;
struct bpf_fib_lookup;

#define NEXTHDR_HOP		0
#define NEXTHDR_TCP		6
#define NEXTHDR_UDP		17
#define NEXTHDR_ROUTING		43
#define NEXTHDR_FRAGMENT	44
#define NEXTHDR_ICMP		58
#define NEXTHDR_NONE		59
#define NEXTHDR_DEST		60
#define IPV6_MIN_MTU		1280

/* include/net/ndisc.h */
#define NDISC_ROUTER_SOLICITATION	133
#define NDISC_ROUTER_ADVERTISEMENT	134
#define NDISC_NEIGHBOUR_SOLICITATION	135
#define NDISC_NEIGHBOUR_ADVERTISEMENT	136
#define NDISC_REDIRECT			137
#define ND_OPT_SOURCE_LL_ADDR		1
#define ND_OPT_TARGET_LL_ADDR		2

/* IPSTATS_MIB_* of /proc/net/snmp6 (Ip6...), in the kernel's order. */
#define IP6STATS_MIBS(FN)					\
	FN(INPKTS, "InReceives")				\
	FN(INHDRERRORS, "InHdrErrors")				\
	FN(INTOOBIGERRORS, "InTooBigErrors")			\
	FN(INNOROUTES, "InNoRoutes")				\
	FN(INADDRERRORS, "InAddrErrors")			\
	FN(INUNKNOWNPROTOS, "InUnknownProtos")			\
	FN(INTRUNCATEDPKTS, "InTruncatedPkts")			\
	FN(INDISCARDS, "InDiscards")				\
	FN(INDELIVERS, "InDelivers")				\
	FN(OUTFORWDATAGRAMS, "OutForwDatagrams")		\
	FN(OUTREQUESTS, "OutRequests")				\
	FN(OUTDISCARDS, "OutDiscards")				\
	FN(OUTNOROUTES, "OutNoRoutes")				\
	FN(FRAGFAILS, "FragFails")				\
	FN(INMCASTPKTS, "InMcastPkts")				\
	FN(OUTPKTS, "OutTransmits")

#define __IP6STATS_ENUM(name, text)	IP6STATS_MIB_##name,
enum {
	IP6STATS_MIBS(__IP6STATS_ENUM)
	IP6STATS_MIB_MAX
};

/* ICMP6_MIB_* and the per-type counters uxdp sends or receives (Icmp6...). */
#define ICMP6_MIBS(FN)						\
	FN(INMSGS, "InMsgs")					\
	FN(INERRORS, "InErrors")				\
	FN(OUTMSGS, "OutMsgs")					\
	FN(OUTERRORS, "OutErrors")				\
	FN(CSUMERRORS, "InCsumErrors")				\
	FN(RATELIMITHOST, "OutRateLimitHost")			\
	FN(INECHOS, "InEchos")					\
	FN(INNEIGHBORSOLICITS, "InNeighborSolicits")		\
	FN(INNEIGHBORADVERTISEMENTS, "InNeighborAdvertisements") \
	FN(OUTDESTUNREACHS, "OutDestUnreachs")			\
	FN(OUTPKTTOOBIGS, "OutPktTooBigs")			\
	FN(OUTTIMEEXCDS, "OutTimeExcds")			\
	FN(OUTPARMPROBLEMS, "OutParmProblems")			\
	FN(OUTECHOREPLIES, "OutEchoReplies")			\
	FN(OUTNEIGHBORSOLICITS, "OutNeighborSolicits")		\
	FN(OUTNEIGHBORADVERTISEMENTS, "OutNeighborAdvertisements")

#define __ICMP6_ENUM(name, text)	ICMP6_MIB_##name,
enum {
	ICMP6_MIBS(__ICMP6_ENUM)
	ICMP6_MIB_MAX
};

struct ipv6_mib {
	u64 ip[IP6STATS_MIB_MAX];
	u64 icmp[ICMP6_MIB_MAX];
} __aligned(SMP_CACHE_BYTES);

extern struct ipv6_mib ipv6_mib[NR_CPUS];

#define __IP6_INC_STATS(field)	(ipv6_mib[smp_processor_id()].ip[IP6STATS_MIB_##field]++)
#define __ICMP6_INC_STATS(field) (ipv6_mib[smp_processor_id()].icmp[ICMP6_MIB_##field]++)

void ipv6_mib_get(u64 ip[IP6STATS_MIB_MAX], u64 icmp[ICMP6_MIB_MAX]);
const char *ip6stats_mib_name(int i);
const char *icmp6_mib_name(int i);

struct ipv6_sysctl {
	int forwarding;		/* net.ipv6.conf.all.forwarding, 0 by default */
	int hop_limit;		/* net.ipv6.conf.all.hop_limit, 64 */
};
extern struct ipv6_sysctl ipv6_sysctl;
int ipv6_sysctl_set(const char *key, const char *value);

/* IPv6 control block (IP6CB(skb) in skb->cb). */
struct inet6_skb_parm {
	int iif;
	u16 nhoff;		/* offset of the last nexthdr field */
	u16 flags;
};
#define IP6SKB_FORWARDED	(1 << 0)
#define IP6CB(skb)	((struct inet6_skb_parm *)((skb)->cb))

static inline struct ipv6hdr *ipv6_hdr(const struct sk_buff *skb)
{
	return (struct ipv6hdr *)skb_network_header(skb);
}

static inline bool ipv6_addr_equal(const struct in6_addr *a, const struct in6_addr *b)
{
	return !__builtin_memcmp(a, b, sizeof(*a));
}

static inline bool ipv6_addr_any(const struct in6_addr *a)
{
	static const struct in6_addr any;

	return ipv6_addr_equal(a, &any);
}

static inline bool ipv6_addr_is_multicast(const struct in6_addr *a)
{
	return a->s6_addr[0] == 0xff;
}

static inline int ipv6_addr_mc_scope(const struct in6_addr *a)
{
	return a->s6_addr[1] & 0x0f;
}

static inline bool ipv6_addr_loopback(const struct in6_addr *a)
{
	static const struct in6_addr lo = { .s6_addr = { [15] = 1 } };

	return ipv6_addr_equal(a, &lo);
}

static inline bool ipv6_addr_linklocal(const struct in6_addr *a)
{
	return a->s6_addr[0] == 0xfe && (a->s6_addr[1] & 0xc0) == 0x80;
}

/* ff02::1:ffXX:XXXX for @a (addrconf_addr_solict_mult()). */
static inline void addrconf_addr_solict_mult(const struct in6_addr *a, struct in6_addr *sol)
{
	*sol = (struct in6_addr){ .s6_addr = { 0xff, 0x02, [11] = 1, [12] = 0xff,
					       [13] = a->s6_addr[13], [14] = a->s6_addr[14],
					       [15] = a->s6_addr[15] } };
}

/* 33:33 + the low 32 bits (ipv6_eth_mc_map()). */
static inline void ipv6_eth_mc_map(const struct in6_addr *a, u8 *mac)
{
	mac[0] = 0x33;
	mac[1] = 0x33;
	__builtin_memcpy(mac + 2, &a->s6_addr[12], 4);
}

/* Checksum of an upper-layer message with the IPv6 pseudo header (csum_ipv6_magic()). */
u16 csum_ipv6_magic(const struct in6_addr *saddr, const struct in6_addr *daddr, u32 len,
		    u8 proto, const void *data);

/* ---- FIB and addresses (net/ipv6/route.c) ---- */

#define FIB6_MAX_ROUTES	256
#define INET6_MAX_ADDRS	64

struct fib6_route {
	struct in6_addr dst;
	u8 plen;
	u8 type;		/* RTN_* */
	struct in6_addr gw;	/* :: when connected */
	int oif;
};

struct fib6_result {
	const struct fib6_route *route;
	u8 type;
	int oif;
	struct in6_addr nexthop;	/* gateway, or the destination when connected */
};

struct inet6_ifaddr {
	struct in6_addr addr;
	u8 plen;
	int ifindex;
};

int fib6_lookup(const struct in6_addr *daddr, struct fib6_result *res);
int fib6_route_add(const struct in6_addr *dst, u8 plen, u8 type, const struct in6_addr *gw, int oif);
const struct fib6_route *fib6_route_at(int i);
/* addrconf: the address, its local /128 and its prefix route; the device's link-local first. */
int inet6_addr_add(int ifindex, const struct in6_addr *addr, u8 plen);
const struct inet6_ifaddr *inet6_addr_at(int i);
/* Is @a ours on any device (ipv6_chk_addr())? */
bool ipv6_chk_addr(const struct in6_addr *a);
/* Multicast groups we are in on @ifindex: all-nodes, all-routers, solicited-node of ours. */
bool ipv6_chk_mcast_addr(int ifindex, const struct in6_addr *a);
/* A source for @dst out of @ifindex: same prefix, else a global one, else link-local. */
bool ipv6_dev_get_saddr(int ifindex, const struct in6_addr *dst, struct in6_addr *saddr);
/* The EUI-64 link-local address of @dev (addrconf_addr_gen()). */
void addrconf_ifid_eui48(const struct net_device *dev, struct in6_addr *ll);
void fib6_flush(void);
int bpf_ipv6_fib_lookup(struct bpf_fib_lookup *params, u32 flags);

/* ---- datapath ---- */

void inet6_init(void);
void inet6_exit(void);
int ipv6_rcv(struct sk_buff *skb, struct net_device *dev);
int ip6_forward(struct sk_buff *skb);
int ip6_input(struct sk_buff *skb);
/* Route and send a locally built datagram (ICMPv6). Consumes @skb. */
int ip6_local_out(struct sk_buff *skb);
/* Resolve @nexthop on skb->dev (nd_tbl) and transmit. Consumes @skb. */
int ip6_finish_output2(struct sk_buff *skb, const struct in6_addr *nexthop);

/* ICMPv6 (net/ipv6/icmp.c). */
void icmpv6_send(struct sk_buff *skb, u8 type, u8 code, u32 info);
int icmpv6_rcv(struct sk_buff *skb);
/* Build and send ICMPv6 @type/@code from @saddr to @daddr out of @dev, hop limit @hlim. */
void icmpv6_push(const struct in6_addr *saddr, const struct in6_addr *daddr, u8 hlim,
		 const void *msg, unsigned int len, struct net_device *dev, const u8 *dst_mac);

/* Neighbour discovery (net/ipv6/ndisc.c). */
extern struct neigh_table nd_tbl;
int ndisc_rcv(struct sk_buff *skb);
void ndisc_send_unsol_na(struct net_device *dev);

#endif
