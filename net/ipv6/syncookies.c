// SPDX-License-Identifier: GPL-2.0
/*
 * IPv6 SYN cookies (bpf_tcp_raw_gen/check_syncookie_ipv6): the IPv4
 * arithmetic (net/ipv4/syncookies.c) over a siphash of the addresses,
 * the minute count and the ports, with the IPv6 MSS table.
 *
 * Kernel: net/ipv6/syncookies.c cookie_hash(), __cookie_v6_init_sequence(),
 *	   __cookie_v6_check()
 * Differs: the keys are the per-process ones of net/ipv4/syncookies.c.
 */
#include <arpa/inet.h>
#include <string.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>

#include <linux/compiler.h>
#include <net/tcp.h>

static const u16 msstab[] = { 1280 - 60, 1480 - 60, 1500 - 60, 9000 - 60 };

/* the kernel's combined struct, hashed up to the end of dport (40 bytes) */
struct v6_tuple {
	struct in6_addr saddr;
	struct in6_addr daddr;
	u32 count;
	__be16 sport;
	__be16 dport;
};

static u32 cookie_hash(const void *tuple, u32 count, int c)
{
	struct v6_tuple t;

	memcpy(&t, tuple, sizeof(t));
	t.count = count;
	return (u32)siphash(&t, sizeof(t), syncookie_key(c));
}

static struct v6_tuple v6_tuple(const struct ipv6hdr *iph, const struct tcphdr *th)
{
	struct v6_tuple t;

	memset(&t, 0, sizeof(t));
	t.saddr = iph->saddr;
	t.daddr = iph->daddr;
	t.sport = th->source;
	t.dport = th->dest;
	return t;
}

u32 __cookie_v6_init_sequence(const struct ipv6hdr *iph, const struct tcphdr *th, u16 *mssp)
{
	struct v6_tuple t = v6_tuple(iph, th);

	return __cookie_init_sequence(msstab, ARRAY_SIZE(msstab), cookie_hash, &t, th, mssp);
}

int __cookie_v6_check(const struct ipv6hdr *iph, const struct tcphdr *th)
{
	struct v6_tuple t = v6_tuple(iph, th);

	return __cookie_check(msstab, ARRAY_SIZE(msstab), cookie_hash, &t, th);
}
