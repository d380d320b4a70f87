/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Drop reasons: why an skb was freed by kfree_skb_reason(). One X-macro
 * gives the enum and the name table, names as the kernel's
 * (SKB_DROP_REASON_<NAME>, shown as "<NAME>"). kfree_skb_reason() counts
 * every drop per CPU and per reason, consume_skb() counts SKB_CONSUMED;
 * skb_drop_reason_count() sums them for the engine's `stats drops`.
 *
 * Kernel: include/net/dropreason-core.h, net/core/skbuff.c drop_reasons[]
 * Differs: core reasons only (no subsystem reasons); counters instead of
 *	    the kfree_skb tracepoint.
 */
#ifndef _UXDP_NET_DROPREASON_H
#define _UXDP_NET_DROPREASON_H

#include <linux/types.h>

#define DEFINE_DROP_REASON(FN, FNe)	\
	FN(NOT_SPECIFIED)		\
	FN(NO_SOCKET)			\
	FN(PKT_TOO_SMALL)		\
	FN(TCP_CSUM)			\
	FN(SOCKET_FILTER)		\
	FN(UDP_CSUM)			\
	FN(NETFILTER_DROP)		\
	FN(OTHERHOST)			\
	FN(IP_CSUM)			\
	FN(IP_INHDR)			\
	FN(IP_RPFILTER)			\
	FN(UNICAST_IN_L2_MULTICAST)	\
	FN(XFRM_POLICY)			\
	FN(IP_NOPROTO)			\
	FN(SOCKET_RCVBUFF)		\
	FN(PROTO_MEM)			\
	FN(IP_OUTNOROUTES)		\
	FN(BPF_CGROUP_EGRESS)		\
	FN(IPV6DISABLED)		\
	FN(NEIGH_CREATEFAIL)		\
	FN(NEIGH_FAILED)		\
	FN(NEIGH_QUEUEFULL)		\
	FN(NEIGH_DEAD)			\
	FN(TC_EGRESS)			\
	FN(QDISC_DROP)			\
	FN(CPU_BACKLOG)			\
	FN(XDP)				\
	FN(TC_INGRESS)			\
	FN(UNHANDLED_PROTO)		\
	FN(SKB_CSUM)			\
	FN(SKB_GSO_SEG)			\
	FN(SKB_UCOPY_FAULT)		\
	FN(DEV_HDR)			\
	FN(DEV_READY)			\
	FN(FULL_RING)			\
	FN(NOMEM)			\
	FN(HDR_TRUNC)			\
	FN(TAP_FILTER)			\
	FN(TAP_TXFILTER)		\
	FN(ICMP_CSUM)			\
	FN(INVALID_PROTO)		\
	FN(IP_INADDRERRORS)		\
	FN(IP_INNOROUTES)		\
	FN(PKT_TOO_BIG)			\
	FN(DUP_FRAG)			\
	FN(FRAG_REASM_TIMEOUT)		\
	FN(FRAG_TOO_FAR)		\
	FN(TCP_MINTTL)			\
	FN(QUEUE_PURGE)			\
	FN(TC_COOKIE_ERROR)		\
	FN(PACKET_SOCK_ERROR)		\
	FN(TC_CHAIN_NOTFOUND)		\
	FN(TC_RECLASSIFY_LOOP)		\
	FN(IPV6_BAD_EXTHDR)		\
	FN(IPV6_NDISC_FRAG)		\
	FN(IPV6_NDISC_HOP_LIMIT)	\
	FN(IPV6_NDISC_BAD_CODE)		\
	FN(IPV6_NDISC_BAD_OPTIONS)	\
	FN(IPV6_NDISC_NS_OTHERHOST)	\
	FNe(MAX)

#define __SKB_DROP_REASON_ENUM(name)	SKB_DROP_REASON_##name,

enum skb_drop_reason {
	SKB_NOT_DROPPED_YET = 0,
	SKB_CONSUMED,
	DEFINE_DROP_REASON(__SKB_DROP_REASON_ENUM, __SKB_DROP_REASON_ENUM)
};

#define SKB_DR_INIT(name, reason)	enum skb_drop_reason name = SKB_DROP_REASON_##reason
#define SKB_DR(name)			SKB_DR_INIT(name, NOT_SPECIFIED)
#define SKB_DR_SET(name, reason)	(name = SKB_DROP_REASON_##reason)

/* "NOT_SPECIFIED", "CONSUMED", ...; NULL out of range. */
const char *skb_drop_reason_name(enum skb_drop_reason reason);

/* Times @reason was counted (SKB_CONSUMED: consume_skb() calls), all CPUs. */
u64 skb_drop_reason_count(enum skb_drop_reason reason);

/* Fill @counts[0..SKB_DROP_REASON_MAX) with the per-reason totals. */
void skb_drop_reason_counts(u64 *counts);

/* Zero all counters (tests, `stats` reset). Not concurrent with traffic. */
void skb_drop_reason_reset(void);

/* internal: counted by kfree_skb_reason() / consume_skb() */
void __skb_drop_reason_count(enum skb_drop_reason reason);

#endif
