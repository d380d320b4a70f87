/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ICMP: errors the router sends (time exceeded, destination unreachable,
 * fragmentation needed, parameter problem) and echo replies for its own
 * addresses, with the kernel's global rate limit.
 *
 * Kernel: include/net/icmp.h icmp_send(); net/ipv4/icmp.c
 */
#ifndef _UXDP_NET_ICMP_H
#define _UXDP_NET_ICMP_H

#include <linux/icmp.h>		/* UAPI struct icmphdr, ICMP_* */
#include <linux/types.h>

struct sk_buff;

/* Send an ICMP error about @skb_in (not consumed); @info network order. */
void icmp_send(struct sk_buff *skb_in, int type, int code, u32 info);
/* Local delivery of an ICMP message. Consumes @skb. */
int icmp_rcv(struct sk_buff *skb);
/* Refill the global rate-limit bucket (tests). */
void icmp_global_reset(void);

#endif
