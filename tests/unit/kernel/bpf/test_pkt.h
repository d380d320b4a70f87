/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An XDP context for running a program by hand in the BPF runtime tests
 * (core_test.c, bpf_jit_comp_test.c): 64 bytes of packet after
 * XDP_PACKET_HEADROOM, every byte its own offset, on a device with
 * ifindex 7 and an rx queue 3.
 */
#ifndef _UXDP_TESTS_BPF_TEST_PKT_H
#define _UXDP_TESTS_BPF_TEST_PKT_H

#include <string.h>

#include <linux/netdevice.h>
#include <net/xdp.h>
#include <net/xdp_generic.h>	/* XDP_PACKET_HEADROOM */

struct test_pkt {
	u8 buf[XDP_PACKET_HEADROOM + 64];
	struct net_device dev;
	struct xdp_rxq_info rxq;
	struct xdp_buff xdp;
};

static inline void test_pkt_init(struct test_pkt *p, u32 len)
{
	u32 i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < sizeof(p->buf); i++)
		p->buf[i] = (u8)i;
	p->dev.ifindex = 7;
	p->rxq.dev = &p->dev;
	p->rxq.queue_index = 3;
	p->xdp.data_hard_start = p->buf;
	p->xdp.data = p->buf + XDP_PACKET_HEADROOM;
	p->xdp.data_meta = p->xdp.data;
	p->xdp.data_end = (u8 *)p->xdp.data + len;
	p->xdp.rxq = &p->rxq;
	p->xdp.frame_sz = sizeof(p->buf);
}

#endif
