/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IPv4: the receive entry (ip_rcv), forwarding (ip_forward), output to a
 * neighbour (ip_output), the per-CPU SNMP counters (/proc/net/snmp's Ip:
 * and Icmp: lines), the sysctls uxdp models, and the checksum helpers the
 * IPv4 code needs (ip_fast_csum, ip_decrease_ttl).
 *
 * Kernel: include/net/ip.h, include/net/snmp.h, include/uapi/linux/snmp.h,
 *	   include/net/checksum.h, arch/x86/include/asm/checksum_64.h
 * Differs: one network namespace; counters are plain per-CPU u64 slots.
 */
#ifndef _UXDP_NET_IP_H
#define _UXDP_NET_IP_H

#include <linux/ip.h>		/* UAPI struct iphdr, IPOPT_* */
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/smp.h>
#include <linux/skbuff.h>

struct sk_buff;
struct net_device;

#define IP_CE		0x8000
#define IP_DF		0x4000
#define IP_MF		0x2000
#define IP_OFFSET	0x1FFF

/* IPSTATS_MIB_* in the kernel's order, with their /proc/net/snmp names. */
#define IPSTATS_MIBS(FN)					\
	FN(INPKTS, "InReceives")				\
	FN(INHDRERRORS, "InHdrErrors")				\
	FN(INADDRERRORS, "InAddrErrors")			\
	FN(INNOROUTES, "InNoRoutes")				\
	FN(INTRUNCATEDPKTS, "InTruncatedPkts")			\
	FN(INUNKNOWNPROTOS, "InUnknownProtos")			\
	FN(INDISCARDS, "InDiscards")				\
	FN(INDELIVERS, "InDelivers")				\
	FN(OUTFORWDATAGRAMS, "ForwDatagrams")			\
	FN(OUTREQUESTS, "OutRequests")				\
	FN(OUTDISCARDS, "OutDiscards")				\
	FN(OUTNOROUTES, "OutNoRoutes")				\
	FN(FRAGFAILS, "FragFails")				\
	FN(CSUMERRORS, "InCsumErrors")				\
	FN(OUTPKTS, "OutTransmits")

#define __IPSTATS_ENUM(name, text)	IPSTATS_MIB_##name,
enum {
	IPSTATS_MIBS(__IPSTATS_ENUM)
	IPSTATS_MIB_MAX
};

#define ICMP_MIBS(FN)						\
	FN(INMSGS, "InMsgs")					\
	FN(INERRORS, "InErrors")				\
	FN(CSUMERRORS, "InCsumErrors")				\
	FN(INECHOS, "InEchos")					\
	FN(OUTMSGS, "OutMsgs")					\
	FN(OUTERRORS, "OutErrors")				\
	FN(OUTRATELIMITGLOBAL, "OutRateLimitGlobal")		\
	FN(OUTDESTUNREACHS, "OutDestUnreachs")			\
	FN(OUTTIMEEXCDS, "OutTimeExcds")			\
	FN(OUTPARMPROBS, "OutParmProbs")			\
	FN(OUTECHOREPS, "OutEchoReps")

#define __ICMP_ENUM(name, text)	ICMP_MIB_##name,
enum {
	ICMP_MIBS(__ICMP_ENUM)
	ICMP_MIB_MAX
};

struct ipv4_mib {
	u64 ip[IPSTATS_MIB_MAX];
	u64 icmp[ICMP_MIB_MAX];
} __aligned(SMP_CACHE_BYTES);

extern struct ipv4_mib ipv4_mib[NR_CPUS];

#define __IP_INC_STATS(field)	(ipv4_mib[smp_processor_id()].ip[IPSTATS_MIB_##field]++)
#define __ICMP_INC_STATS(field)	(ipv4_mib[smp_processor_id()].icmp[ICMP_MIB_##field]++)

/* Sum over CPUs (for `snmp` and tests); @ip and @icmp may be NULL. */
void ipv4_mib_get(u64 ip[IPSTATS_MIB_MAX], u64 icmp[ICMP_MIB_MAX]);
void ipv4_mib_reset(void);
/* Sum @n u64 counters at @off of @cpus per-CPU structs @stride bytes apart into @out. */
void snmp_fold(u64 *out, const void *base, size_t stride, size_t off, int n);
const char *ipstats_mib_name(int i);
const char *icmp_mib_name(int i);

/* sysctls: net.ipv4.* (one namespace, all devices). */
struct ipv4_sysctl {
	int ip_forward;			/* 0 (the kernel's default) or 1 */
	int ip_default_ttl;		/* 64 */
	int icmp_ratemask;		/* 0x1818 */
	int icmp_msgs_per_sec;		/* 1000 */
	int icmp_msgs_burst;		/* 50 */
	int icmp_echo_ignore_all;	/* 0 */
	int accept_source_route;	/* 0 */
};
extern struct ipv4_sysctl ipv4_sysctl;

/* `sysctl net.ipv4.KEY=VALUE`: 0, -ENOENT unknown key, -EINVAL bad value. */
int ipv4_sysctl_set(const char *key, const char *value);
int ipv4_sysctl_get(const char *key, long *value);

/* IPv4 control block (the kernel's IPCB(skb) in skb->cb). */
struct inet_skb_parm {
	int iif;
	u8 optlen;		/* IP options length (ihl * 4 - 20) */
	u8 srr;			/* offset of a source route option, 0 none */
	u8 rr;
	u8 ts;
	u16 flags;
};
#define IPSKB_FORWARDED		(1 << 0)
#define IPCB(skb)	((struct inet_skb_parm *)((skb)->cb))

static inline struct iphdr *ip_hdr(const struct sk_buff *skb)
{
	return (struct iphdr *)skb_network_header(skb);
}

static inline unsigned int ip_hdrlen(const struct sk_buff *skb)
{
	return ip_hdr(skb)->ihl * 4;
}

static inline bool ipv4_is_multicast(u32 addr)
{
	return (addr & __builtin_bswap32(0xf0000000)) == __builtin_bswap32(0xe0000000);
}

static inline bool ipv4_is_lbcast(u32 addr)
{
	return addr == 0xffffffff;
}

static inline bool ipv4_is_zeronet(u32 addr)
{
	return (addr & __builtin_bswap32(0xff000000)) == 0;
}

/* Headroom for the link-layer header, 16-byte aligned plus 16. */
#ifndef LL_RESERVED_SPACE
#define HH_DATA_MOD	16
#define LL_RESERVED_SPACE(dev) \
	((((dev)->hard_header_len + (dev)->needed_headroom) & ~(HH_DATA_MOD - 1)) + HH_DATA_MOD)
#endif

/* Register the IPv4 and ARP packet handlers (idempotent; inet_init()). */
void inet_init(void);
/* Unregister the handlers and forget addresses, routes, neighbours, counters. */
void inet_exit(void);

int ip_rcv(struct sk_buff *skb, struct net_device *dev);
int ip_forward(struct sk_buff *skb);
int ip_local_deliver(struct sk_buff *skb);
/* Send a locally built datagram (ICMP) through the FIB. Consumes @skb. */
int ip_local_out(struct sk_buff *skb);
/* Resolve the next hop on skb->dev and transmit. Consumes @skb. */
int ip_finish_output2(struct sk_buff *skb, u32 nexthop);

/* ---- checksums ---------------------------------------------------------- */

static inline u16 csum_fold(u32 sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (u16)~sum;
}

/* One's-complement sum of @len bytes (network order, as loaded). */
static inline u32 csum_partial_simple(const void *buf, unsigned int len, u32 sum)
{
	const u8 *p = buf;
	u64 acc = sum;

	while (len >= 2) {
		u16 w;

		__builtin_memcpy(&w, p, 2);
		acc += w;
		p += 2;
		len -= 2;
	}
	if (len)
		acc += *p;	/* little-endian host: the odd byte is the low byte */
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (u32)acc;
}

/*
 * Checksum of an IPv4 header of @ihl 32-bit words: 0 when the header is
 * valid. 32-bit adds into 64 bits, then folded (the one's-complement sum
 * does not care about the word size), as the x86 version does.
 */
static inline u16 ip_fast_csum(const void *iph, unsigned int ihl)
{
	const u8 *p = iph;
	u64 sum = 0;

	if (likely(ihl == 5)) {		/* no options: five words, no loop */
		u32 w[5];

		__builtin_memcpy(w, p, sizeof(w));
		sum = (u64)w[0] + w[1] + w[2] + w[3] + w[4];
	} else {
		for (unsigned int i = 0; i < ihl; i++) {
			u32 w;

			__builtin_memcpy(&w, p + 4 * i, 4);
			sum += w;
		}
	}
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffffffff) + (sum >> 32);
	return csum_fold((u32)sum);
}

static inline u16 ip_compute_csum(const void *buf, unsigned int len)
{
	return csum_fold(csum_partial_simple(buf, len, 0));
}

static inline void ip_send_check(struct iphdr *iph)
{
	iph->check = 0;
	iph->check = ip_fast_csum(iph, iph->ihl);
}

/*
 * Decrement the TTL and update the checksum incrementally (RFC 1624):
 * adding htons(0x0100) with end-around carry; a sum of exactly 0xFFFF
 * becomes 0 (the kernel's "check + (check >= 0xFFFF)" stored in 16 bits).
 */
static inline int ip_decrease_ttl(struct iphdr *iph)
{
	u32 check = iph->check;

	check += __builtin_bswap16(0x0100);
	iph->check = (u16)(check + (check >= 0xFFFF));
	return --iph->ttl;
}

#endif
