/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Header parsing shared by the example XDP programs: Ethernet with up to two
 * VLAN tags (802.1Q, 802.1ad QinQ), IPv4, IPv6. Every access is checked
 * against data_end the way the kernel verifier wants it.
 */
#ifndef _UXDP_EXAMPLES_PARSE_H
#define _UXDP_EXAMPLES_PARSE_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/in.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

struct vlan_hdr {
	__be16 h_vlan_TCI;
	__be16 h_vlan_encapsulated_proto;
};

struct hdr_cursor {
	void *pos;
};

/* Returns the inner EtherType (network order) or -1 when truncated. */
static __always_inline int parse_ethhdr(struct hdr_cursor *nh, void *data_end,
					struct ethhdr **ethhdr)
{
	struct ethhdr *eth = nh->pos;
	struct vlan_hdr *vlh;
	__u16 h_proto;
	int i;

	if ((void *)(eth + 1) > data_end)
		return -1;
	nh->pos = eth + 1;
	*ethhdr = eth;
	h_proto = eth->h_proto;

#pragma unroll
	for (i = 0; i < 2; i++) {
		if (h_proto != bpf_htons(ETH_P_8021Q) && h_proto != bpf_htons(ETH_P_8021AD))
			break;
		vlh = nh->pos;
		if ((void *)(vlh + 1) > data_end)
			return -1;
		h_proto = vlh->h_vlan_encapsulated_proto;
		nh->pos = vlh + 1;
	}
	return h_proto;
}

/* Swap the Ethernet source and destination addresses (the redirect samples'). */
static __always_inline void swap_src_dst_mac(void *data)
{
	unsigned short *p = data;
	unsigned short dst[3];

	dst[0] = p[0];
	dst[1] = p[1];
	dst[2] = p[2];
	p[0] = p[3];
	p[1] = p[4];
	p[2] = p[5];
	p[3] = dst[0];
	p[4] = dst[1];
	p[5] = dst[2];
}

#endif
