// SPDX-License-Identifier: GPL-2.0
/*
 * veth against the 6.x driver: the ptr_ring's lazy release, NAPI only
 * with an XDP program on the receiving side, the ndo_xdp_xmit stop rules
 * (MTU, ring full) and their counters, budget 64 per poll, every verdict
 * of the frame path and the skb path, bulk skb allocation and its
 * all-or-nothing failure, XDP_TX to the peer, and the stats folding of
 * ndo_get_stats64. Frames are driven on the test thread: ndo_xdp_xmit
 * with XDP_XMIT_FLUSH schedules veth1's NAPI here, net_rx_action() polls.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/ptr_ring.h>

#include "../../../../drivers/net/veth.h"
#include "engine_test_util.h"
#include "uxdp_test.h"

static struct net_device *veth0, *veth1;
static struct page_pool *pool;

static void pair_setup(void)
{
	char err[256];
	char *args[] = { "peer", "name", "veth1" };

	ck_assert_int_gt(uxdp_link_add("veth0", "veth", 3, args, err, sizeof(err)), 0);
	veth0 = test_dev("veth0");
	veth1 = test_dev("veth1");
	pool = test_pool();
}

static int xmit(struct net_device *dev, int n, unsigned int len, u32 flags, struct xdp_frame **fr)
{
	for (int i = 0; i < n; i++)
		fr[i] = test_frame(pool, veth1, len);
	return dev->netdev_ops->ndo_xdp_xmit(dev, n, fr, flags);
}

/* What the devmap caller does with frames the driver did not take. */
static void free_rest(struct xdp_frame **fr, int from, int n)
{
	for (int i = from < 0 ? 0 : from; i < n; i++)
		xdp_return_frame(fr[i]);
}

START_TEST(ptr_ring_lazy_release)
{
	struct ptr_ring r;
	int dummy[300];

	ck_assert_int_eq(ptr_ring_init(&r, 256), 0);
	ck_assert_int_eq(r.batch, 16);
	for (int i = 0; i < 256; i++)
		ck_assert_int_eq(ptr_ring_produce(&r, &dummy[i]), 0);
	ck_assert_int_eq(ptr_ring_produce(&r, &dummy[256]), -ENOSPC);
	/* Consumed slots are released 16 at a time: still full after 15. */
	for (int i = 0; i < 15; i++)
		ck_assert_ptr_eq(__ptr_ring_consume(&r), &dummy[i]);
	ck_assert_int_eq(ptr_ring_produce(&r, &dummy[256]), -ENOSPC);
	ck_assert_ptr_eq(__ptr_ring_consume(&r), &dummy[15]);
	for (int i = 0; i < 16; i++)
		ck_assert_int_eq(ptr_ring_produce(&r, &dummy[256 + i]), 0);
	ck_assert_int_eq(ptr_ring_produce(&r, &dummy[0]), -ENOSPC);
	ptr_ring_cleanup(&r, NULL);

	/* A small ring releases one by one (batch 16 > size / 2). */
	ck_assert_int_eq(ptr_ring_init(&r, 8), 0);
	ck_assert_int_eq(r.batch, 1);
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(ptr_ring_produce(&r, &dummy[i]), 0);
	ck_assert_ptr_eq(__ptr_ring_consume(&r), &dummy[0]);
	ck_assert_int_eq(ptr_ring_produce(&r, &dummy[8]), 0);
	ptr_ring_cleanup(&r, NULL);
}
END_TEST

START_TEST(peer_without_xdp_is_no_redirect_target)
{
	struct xdp_frame *fr[4];
	struct uxdp_link_drop d[8];
	int n;

	pair_setup();
	/* 6.x: veth0 is a redirect target only while veth1 has a program. */
	ck_assert(!(veth0->xdp_features & NETDEV_XDP_ACT_NDO_XMIT));
	fr[0] = test_frame(pool, veth1, 64);
	ck_assert_int_eq(dev_map_enqueue(veth0, fr[0], veth1), -EOPNOTSUPP);
	xdp_return_frame(fr[0]);
	/* Called anyway (the ndo itself): -ENXIO, counted in veth0's tx_dropped. */
	ck_assert_int_eq(xmit(veth0, 4, 64, XDP_XMIT_FLUSH, fr), -ENXIO);
	free_rest(fr, 0, 4);
	ck_assert_uint_eq(test_info("veth0").tx_dropped, 4);
	ck_assert_uint_eq(test_drop("veth0", NETDEV_DROP_PEER_NO_XDP), 4);
	n = uxdp_link_get_drops(veth0->ifindex, d, 8);
	ck_assert_int_eq(n, 1);
	ck_assert_msg(strstr(d[0].text, "peer veth1 has no XDP program, so its NAPI ring is off"),
		      "%s", d[0].text);
	ck_assert(!net_rx_pending());
	test_leak_check(pool);
}
END_TEST

START_TEST(frame_pass_reaches_stack)
{
	struct test_prog p = test_prog_load("xdp_action", XDP_PASS);
	struct xdp_frame *fr[5];
	struct uxdp_link_info li;

	pair_setup();
	test_attach("veth1", &p);
	ck_assert(veth0->xdp_features & NETDEV_XDP_ACT_NDO_XMIT);
	ck_assert_int_eq(xmit(veth0, 5, 64, XDP_XMIT_FLUSH, fr), 5);
	ck_assert(net_rx_pending());
	ck_assert_int_eq(test_napi_drain(), 5);
	li = test_info("veth1");
	ck_assert_uint_eq(li.rx_packets, 5);
	ck_assert_uint_eq(li.rx_bytes, 5 * 64);
	ck_assert_uint_eq(li.xdp_pass, 5);
	/* No IPv4 handler yet: PACKET_HOST frames end as rx_nohandler. */
	ck_assert_uint_eq(li.rx_nohandler, 5);
	ck_assert_uint_eq(test_info("veth0").tx_packets, 5);
	ck_assert_int_eq(skb_live_count(), 0);
	uxdp_bpf_object_close(p.obj);
	test_leak_check(pool);
}
END_TEST

START_TEST(napi_budget_64)
{
	struct test_prog p = test_prog_load("xdp_action", XDP_DROP);
	struct xdp_frame *fr[200];
	char names[32][48];
	uint64_t vals[32];

	pair_setup();
	test_attach("veth1", &p);
	ck_assert_int_eq(xmit(veth0, 200, 64, XDP_XMIT_FLUSH, fr), 200);
	ck_assert_int_eq(net_rx_action(), 64);
	ck_assert(net_rx_pending());
	ck_assert_int_eq(net_rx_action(), 64);
	ck_assert_int_eq(net_rx_action(), 64);
	ck_assert_int_eq(net_rx_action(), 8);
	ck_assert(!net_rx_pending());
	ck_assert_int_eq(uxdp_link_get_driver_stats(veth1->ifindex, names, vals, 32), 10);
	ck_assert_str_eq(names[1], "rx_queue_0_xdp_packets");
	ck_assert_uint_eq(vals[1], 200);
	ck_assert_str_eq(names[5], "rx_queue_0_xdp_drops");
	ck_assert_uint_eq(vals[5], 200);
	uxdp_bpf_object_close(p.obj);
	test_leak_check(pool);
}
END_TEST

START_TEST(ring_full_stops_batch)
{
	struct test_prog p = test_prog_load("xdp_action", XDP_DROP);
	struct xdp_frame *fr[300];
	int sent;

	pair_setup();
	test_attach("veth1", &p);
	sent = xmit(veth0, 300, 64, 0, fr);
	ck_assert_int_eq(sent, 256);
	free_rest(fr, sent, 300);
	ck_assert_uint_eq(test_drop_name("veth1", "RING_FULL"), 44);
	/* Counted on the receiving rq: veth1 rx_dropped, veth0 tx_dropped. */
	ck_assert_uint_eq(test_info("veth1").rx_dropped, 44);
	ck_assert_uint_eq(test_info("veth0").tx_dropped, 44);
	/* No FLUSH: nobody was woken. */
	ck_assert(!net_rx_pending());
	ck_assert_int_eq(veth_rq_ring_count(veth1, 0), 256);
	uxdp_bpf_object_close(p.obj);
	test_leak_check(pool);	/* the ring is drained on unregister */
}
END_TEST

START_TEST(mtu_exceeded_stops_at_first)
{
	struct test_prog p = test_prog_load("xdp_action", XDP_DROP);
	struct xdp_frame *fr[3];
	char err[64];
	int sent;

	pair_setup();
	test_attach("veth1", &p);
	ck_assert_int_eq(uxdp_link_set("veth1", "mtu", "100", err, sizeof(err)), 0);
	fr[0] = test_frame(pool, veth1, 118);	/* = mtu + 14 + 4: fits */
	fr[1] = test_frame(pool, veth1, 119);
	fr[2] = test_frame(pool, veth1, 64);	/* after the failure: not sent */
	sent = veth0->netdev_ops->ndo_xdp_xmit(veth0, 3, fr, XDP_XMIT_FLUSH);
	ck_assert_int_eq(sent, 1);
	free_rest(fr, sent, 3);
	ck_assert_uint_eq(test_drop("veth1", NETDEV_DROP_XMIT_MTU), 2);
	/* devmap refuses it earlier: xdp_ok_fwd_dev() on veth0 (mtu 1500) passes 119 */
	ck_assert_int_eq(xdp_ok_fwd_dev(veth0, 1519), -EMSGSIZE);
	ck_assert_int_eq(test_napi_drain(), 1);
	uxdp_bpf_object_close(p.obj);
	test_leak_check(pool);
}
END_TEST

static void bulk_alloc_failure(unsigned int batch, u64 want_drops)
{
	struct test_prog p = test_prog_load("xdp_action", XDP_PASS);
	struct xdp_frame *fr[16];
	char err[64], b[8];

	pair_setup();
	test_attach("veth1", &p);
	snprintf(b, sizeof(b), "%u", batch);
	ck_assert_int_eq(uxdp_link_set("veth1", "xdp_batch", b, err, sizeof(err)), 0);
	ck_assert_int_eq(xmit(veth0, 16, 64, XDP_XMIT_FLUSH, fr), 16);
	/* The next slab allocation fails: the bulk one (batch) or the first skb. */
	uxdp_fault_fail_nth(UXDP_FAULT_SLAB, 1);
	ck_assert_int_eq(test_napi_drain(), 16);
	uxdp_fault_clear();
	ck_assert_uint_eq(test_drop("veth1", NETDEV_DROP_SKB_ALLOC), want_drops);
	ck_assert_uint_eq(test_info("veth1").rx_dropped, want_drops);
	ck_assert_uint_eq(test_info("veth1").xdp_pass, 16);
	ck_assert_uint_eq(test_info("veth1").rx_nohandler, 16 - want_drops);
	uxdp_bpf_object_close(p.obj);
	test_leak_check(pool);
}

START_TEST(bulk_alloc_failure_drops_whole_batch)
{
	bulk_alloc_failure(16, 16);
}
END_TEST

START_TEST(bulk_alloc_failure_batch8)
{
	/* Two batches of 8: the first fails whole, the second is built. */
	bulk_alloc_failure(8, 8);
}
END_TEST

START_TEST(one_by_one_alloc_failure_drops_one)
{
	bulk_alloc_failure(0, 1);
}
END_TEST

START_TEST(xdp_tx_to_peer)
{
	struct test_prog tx = test_prog_load("xdp_action", XDP_TX);
	struct test_prog pass = test_prog_load("xdp_action", XDP_PASS);
	struct xdp_frame *fr[20];
	char names[32][48];
	uint64_t vals[32];

	pair_setup();
	test_attach("veth1", &tx);
	/* veth0 without a program: its ring is off, XDP_TX frames fail. */
	ck_assert_int_eq(xmit(veth0, 4, 64, XDP_XMIT_FLUSH, fr), 4);
	test_napi_drain();
	ck_assert_uint_eq(test_info("veth1").xdp_tx, 4);
	ck_assert_uint_eq(test_drop("veth1", NETDEV_DROP_XDP_TX_ERR), 4);
	test_attach("veth0", &pass);
	ck_assert_int_eq(xmit(veth0, 20, 64, XDP_XMIT_FLUSH, fr), 20);
	test_napi_drain();
	/* 20 TX'ed in a bulk of 16 then 4; veth0 polled and passed them. */
	ck_assert_uint_eq(test_info("veth0").xdp_pass, 20);
	ck_assert_int_eq(uxdp_link_get_driver_stats(veth1->ifindex, names, vals, 32), 10);
	ck_assert_str_eq(names[6], "rx_queue_0_xdp_tx");
	ck_assert_uint_eq(vals[6], 20);
	ck_assert_str_eq(names[7], "rx_queue_0_xdp_tx_errors");
	ck_assert_uint_eq(vals[7], 4);
	uxdp_bpf_object_close(tx.obj);
	uxdp_bpf_object_close(pass.obj);
	test_leak_check(pool);
}
END_TEST

START_TEST(xdp_redirect_to_sink)
{
	struct test_prog p = test_prog_load("xdp_redirect_dev", 0);
	struct xdp_frame *fr[40];
	char err[64];
	int sink;

	pair_setup();
	sink = uxdp_link_add("out0", "sink", 0, NULL, err, sizeof(err));
	ck_assert_int_gt(sink, 0);
	test_prog_cfg(&p, 1, sink);
	test_attach("veth1", &p);
	ck_assert_int_eq(xmit(veth0, 40, 64, XDP_XMIT_FLUSH, fr), 40);
	test_napi_drain();
	ck_assert_uint_eq(test_info("veth1").xdp_redirect, 40);
	ck_assert_uint_eq(test_info("out0").tx_packets, 40);
	ck_assert_uint_eq(test_info("out0").devmap_xmit_sent, 40);
	ck_assert(!dev_check_flush());
	/* A target that is gone: counted on veth1 as REDIRECT_NO_TARGET. */
	test_prog_cfg(&p, 1, 200);
	ck_assert_int_eq(xmit(veth0, 3, 64, XDP_XMIT_FLUSH, fr), 3);
	test_napi_drain();
	ck_assert_uint_eq(test_drop("veth1", NETDEV_DROP_REDIRECT_NO_TARGET), 3);
	uxdp_bpf_object_close(p.obj);
	test_leak_check(pool);
}
END_TEST

START_TEST(aborted_and_invalid)
{
	struct test_prog p = test_prog_load("xdp_action", XDP_ABORTED);
	struct xdp_frame *fr[3];

	pair_setup();
	test_attach("veth1", &p);
	ck_assert_int_eq(xmit(veth0, 3, 64, XDP_XMIT_FLUSH, fr), 3);
	test_napi_drain();
	test_prog_cfg(&p, 0, 77);
	ck_assert_int_eq(xmit(veth0, 2, 64, XDP_XMIT_FLUSH, fr), 2);
	test_napi_drain();
	ck_assert_uint_eq(test_info("veth1").xdp_aborted, 5);
	ck_assert_uint_eq(test_info("veth1").xdp_invalid, 2);
	ck_assert_uint_eq(test_drop("veth1", NETDEV_DROP_XDP_ABORTED), 5);
	uxdp_bpf_object_close(p.obj);
	test_leak_check(pool);
}
END_TEST

/* A zeroed 60-byte IPv4 frame from veth0 to veth1's address, kmalloc'd head. */
static struct sk_buff *ipv4_skb_to_veth1(void)
{
	struct sk_buff *skb = alloc_skb(128, GFP_ATOMIC);

	ck_assert_ptr_nonnull(skb);
	skb_reserve(skb, 32);
	memset(skb_put(skb, 60), 0, 60);
	memcpy(skb->data, veth1->dev_addr, ETH_ALEN);
	skb->data[12] = 0x08;
	skb->dev = veth0;
	return skb;
}

START_TEST(skb_path_pass_and_drop)
{
	struct test_prog p = test_prog_load("xdp_action", XDP_PASS);
	struct sk_buff *skb;

	pair_setup();
	test_attach("veth1", &p);
	for (int i = 0; i < 6; i++) {
		skb = ipv4_skb_to_veth1();
		if (i == 3)
			test_prog_cfg(&p, 0, XDP_DROP);
		ck_assert_int_eq(dev_queue_xmit(skb), 0);
	}
	/* use_napi: no sw tx count on veth0, the skbs wait in veth1's ring. */
	ck_assert_int_eq(veth_rq_ring_count(veth1, 0), 6);
	ck_assert(net_rx_pending());
	ck_assert_int_eq(test_napi_drain(), 6);
	/* The program ran at poll time: all six saw XDP_DROP configured last. */
	ck_assert_uint_eq(test_info("veth1").xdp_drop, 6);
	ck_assert_uint_eq(test_info("veth1").rx_packets, 6);
	test_prog_cfg(&p, 0, XDP_PASS);
	skb = ipv4_skb_to_veth1();
	ck_assert_int_eq(dev_queue_xmit(skb), 0);
	test_napi_drain();
	ck_assert_uint_eq(test_info("veth1").xdp_pass, 1);
	ck_assert_uint_eq(test_info("veth1").rx_nohandler, 1);
	uxdp_bpf_object_close(p.obj);
	test_leak_check(pool);
}
END_TEST

/*
 * An empty skb for veth0 to send: a page-fragment head with the headroom
 * XDP wants (@frag_head), or a small kmalloc'd one as local traffic has.
 */
static struct sk_buff *empty_skb(bool frag_head)
{
	struct sk_buff *skb;

	if (frag_head) {
		struct page *page = alloc_page(GFP_ATOMIC);

		ck_assert_ptr_nonnull(page);
		skb = build_skb(page_address(page), PAGE_SIZE);
		ck_assert_ptr_nonnull(skb);
		skb_reserve(skb, XDP_PACKET_HEADROOM);
	} else {
		skb = alloc_skb(128, GFP_ATOMIC);
		ck_assert_ptr_nonnull(skb);
		skb_reserve(skb, 32);
	}
	return skb;
}

/*
 * RX metadata of a program bound to veth1: an skb from veth0 brings its
 * hardware timestamp, L4 hash and offloaded VLAN tag; an skb without a
 * hash or tag gets -ENODATA for them; a frame by ndo_xdp_xmit knows
 * nothing (-ENODATA, as the kernel's veth without an skb). A kmalloc'd
 * head (@frag_head false) is copied before the program runs, and the
 * copy keeps the header fields but not the shared info's timestamp, as
 * the kernel's skb_pp_cow_data() (skb_copy_header()).
 */
static void meta_skb(u32 hash, u16 vlan_tci, u64 tstamp, bool frag_head)
{
	struct sk_buff *skb = empty_skb(frag_head);

	memset(skb_put(skb, 60), 0, 60);
	memcpy(skb->data, veth1->dev_addr, ETH_ALEN);
	skb->data[12] = 0x08;
	skb->dev = veth0;
	skb->hash = hash;
	skb->l4_hash = !!hash;
	skb->vlan_proto = vlan_tci ? htons(ETH_P_8021Q) : 0;
	skb->vlan_tci = vlan_tci;
	skb_shinfo(skb)->hwtstamps.hwtstamp = tstamp;
	ck_assert_int_eq(dev_queue_xmit(skb), 0);
	ck_assert_int_eq(test_napi_drain(), 1);
}

START_TEST(rx_metadata)
{
	struct uxdp_bpf_object_open_opts opts = { .sz = sizeof(opts) };
	struct xdp_frame *fr[1];
	struct uxdp_bpf_object *obj;
	char err[256] = "", log[4096];
	__s64 v[5];
	int id, mid;

	pair_setup();
	opts.log_buf = log;
	opts.log_size = sizeof(log);
	opts.prog_ifindex = veth1->ifindex;
	obj = uxdp_bpf_object_open(BPF_PROGS_DIR "/xdp_rx_meta.o", &opts);
	ck_assert_msg(obj, "%s", log);
	id = uxdp_bpf_object_find_prog(obj, "xdp_rx_meta", NULL);
	mid = uxdp_bpf_object_find_map(obj, "meta");
	ck_assert_int_eq(uxdp_link_set_xdp("veth1", id, err, sizeof(err)), 0);

	meta_skb(0x1234abcd, 42, 777, true);
	for (__u32 k = 0; k < 5; k++)
		ck_assert_int_eq(uxdp_bpf_map_lookup_elem(mid, &k, &v[k]), 0);
	ck_assert_int_eq(v[0], 0);
	ck_assert_int_eq(v[1], 777);
	ck_assert_int_eq(v[2], 0);		/* hash */
	ck_assert_int_eq(v[3], 0);		/* VLAN tag */
	ck_assert_int_eq(v[4], 1);

	meta_skb(0x1234abcd, 42, 777, false);
	for (__u32 k = 0; k < 5; k++)
		ck_assert_int_eq(uxdp_bpf_map_lookup_elem(mid, &k, &v[k]), 0);
	ck_assert_int_eq(v[0], 0);
	ck_assert_int_eq(v[1], 0);		/* not copied with the head */
	ck_assert_int_eq(v[2], 0);
	ck_assert_int_eq(v[3], 0);
	ck_assert_int_eq(v[4], 2);

	meta_skb(0, 0, 0, false);
	for (__u32 k = 0; k < 4; k++)
		ck_assert_int_eq(uxdp_bpf_map_lookup_elem(mid, &k, &v[k]), 0);
	ck_assert_int_eq(v[0], 0);		/* the skb's (zero) timestamp */
	ck_assert_int_eq(v[2], -ENODATA);
	ck_assert_int_eq(v[3], -ENODATA);

	ck_assert_int_eq(xmit(veth0, 1, 60, XDP_XMIT_FLUSH, fr), 1);
	test_napi_drain();
	for (__u32 k = 0; k < 5; k++)
		ck_assert_int_eq(uxdp_bpf_map_lookup_elem(mid, &k, &v[k]), 0);
	ck_assert_int_eq(v[0], -ENODATA);
	ck_assert_int_eq(v[2], -ENODATA);
	ck_assert_int_eq(v[3], -ENODATA);
	ck_assert_int_eq(v[4], 4);
	uxdp_link_del_all();
	uxdp_bpf_object_close(obj);
	test_leak_check(pool);
}
END_TEST

/*
 * The skb path runs in place when the kernel's would: a private, linear
 * skb with a page-fragment head and 256 bytes of headroom reaches the
 * stack as the same skb, with the program's head move and metadata
 * applied; a kmalloc'd head is copied first (a new skb, the header fields
 * kept). TX of an skb's buffer sends the bytes the program left.
 */
static struct sk_buff *grabbed;
static unsigned int grabbed_len, grabbed_meta;
static u32 grabbed_hash, grabbed_mark, grabbed_priority;
static int grabbed_iif;
static u64 grabbed_tstamp;
static u8 grabbed_buf[128];

static int grab(struct sk_buff *skb, struct net_device *dev)
{
	(void)dev;
	grabbed = skb;
	grabbed_hash = skb->hash;
	grabbed_mark = skb->mark;
	grabbed_priority = skb->priority;
	grabbed_iif = skb->skb_iif;
	grabbed_tstamp = skb->tstamp;
	grabbed_meta = skb_metadata_len(skb);
	grabbed_len = skb->len + ETH_HLEN;
	ck_assert_uint_le(grabbed_len, sizeof(grabbed_buf));
	ck_assert_int_eq(skb_copy_bits(skb, -ETH_HLEN, grabbed_buf, grabbed_len), 0);
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

static struct packet_type grab_ip = { .func = grab };
static struct packet_type grab_vlan = { .func = grab };

/* A 64-byte frame to veth1 from veth0, 802.1Q-tagged when @tagged. */
static struct sk_buff *send_skb(bool frag_head, bool tagged, u8 *frame)
{
	struct sk_buff *skb = empty_skb(frag_head);
	unsigned int i = 12;

	for (unsigned int k = 0; k < 64; k++)
		frame[k] = (u8)(k * 5 + 1);
	memcpy(frame, veth1->dev_addr, ETH_ALEN);
	if (tagged) {
		memcpy(frame + 12, "\x81\x00\x00\x64", 4);
		i = 16;
	}
	memcpy(frame + i, "\x08\x00", 2);
	memcpy(skb_put(skb, 64), frame, 64);
	skb->dev = veth0;
	skb->hash = 0x5eed;
	ck_assert_int_eq(dev_queue_xmit(skb), 0);
	ck_assert_int_ge(test_napi_drain(), 1);
	return skb;
}

START_TEST(skb_path_in_place_or_copied)
{
	struct test_prog pass = test_prog_load("xdp_action", XDP_PASS);
	struct uxdp_bpf_object *obj = uxdp_bpf_object_open(BPF_PROGS_DIR "/xdp_adjust.o", NULL);
	char err[256] = "";
	struct sk_buff *sent;
	u8 frame[64], want[64];

	ck_assert_ptr_nonnull(obj);
	pair_setup();
	grab_ip.type = htons(ETH_P_IP);
	grab_vlan.type = htons(ETH_P_8021Q);
	dev_add_pack(&grab_ip);
	dev_add_pack(&grab_vlan);
	ck_assert_int_eq(uxdp_link_set_xdp("veth1", uxdp_bpf_object_find_prog(obj, "xdp_vlan_pop", NULL),
					   err, sizeof(err)), 0);
	for (int frag_head = 1; frag_head >= 0; frag_head--) {
		grabbed = NULL;
		sent = send_skb(frag_head, true, frame);
		ck_assert_msg(frag_head ? grabbed == sent : grabbed && grabbed != sent,
			      "frag_head %d: the stack got %p for %p", frag_head, (void *)grabbed,
			      (void *)sent);
		ck_assert_uint_eq(grabbed_hash, 0x5eed);
		/* the tag popped by bpf_xdp_adjust_head() */
		memcpy(want, frame, 12);
		memcpy(want + 12, frame + 16, 48);
		ck_assert_uint_eq(grabbed_len, 60);
		ck_assert_mem_eq(grabbed_buf, want, 60);
	}

	ck_assert_int_eq(uxdp_link_set_xdp("veth1", uxdp_bpf_object_find_prog(obj, "xdp_meta", NULL),
					   err, sizeof(err)), 0);
	grabbed = NULL;
	sent = send_skb(true, false, frame);
	ck_assert_ptr_eq(grabbed, sent);
	ck_assert_uint_eq(grabbed_meta, 8);
	ck_assert_mem_eq(grabbed_buf, frame, 64);

	/* TX: veth0 gets the tagged frame veth1's program built in the skb. */
	ck_assert_int_eq(uxdp_link_set_xdp("veth1", uxdp_bpf_object_find_prog(obj, "xdp_vlan_push", NULL),
					   err, sizeof(err)), 0);
	test_attach("veth0", &pass);
	for (int frag_head = 1; frag_head >= 0; frag_head--) {
		grabbed = NULL;
		send_skb(frag_head, false, frame);
		ck_assert_ptr_nonnull(grabbed);
		ck_assert_uint_eq(grabbed_len, 68);
		ck_assert_mem_eq(grabbed_buf, frame, 12);
		ck_assert_mem_eq(grabbed_buf + 12, "\x81\x00\x00\x64", 4);
		ck_assert_mem_eq(grabbed_buf + 16, frame + 12, 52);
	}
	ck_assert_uint_eq(test_info("veth1").xdp_tx, 2);
	ck_assert_uint_eq(test_info("veth0").xdp_pass, 2);
	dev_remove_pack(&grab_ip);
	dev_remove_pack(&grab_vlan);
	uxdp_link_del_all();
	uxdp_bpf_object_close(obj);
	uxdp_bpf_object_close(pass.obj);
	test_leak_check(pool);
}
END_TEST

/*
 * veth_xmit() scrubs the skb as __dev_forward_skb() does within one
 * namespace: priority and input interface go (the peer's receive sets its
 * own), the mark and the timestamp stay.
 */
START_TEST(xmit_scrubs_within_the_namespace)
{
	struct sk_buff *skb;

	pair_setup();
	grab_ip.type = htons(ETH_P_IP);
	dev_add_pack(&grab_ip);
	skb = ipv4_skb_to_veth1();
	skb->mark = 0x77;
	skb->priority = 6;
	skb->skb_iif = 99;
	skb->tstamp = 123456789;
	grabbed = NULL;
	ck_assert_int_eq(dev_queue_xmit(skb), 0);
	ck_assert_ptr_nonnull(grabbed);
	ck_assert_uint_eq(grabbed_mark, 0x77);
	ck_assert_uint_eq(grabbed_priority, 0);
	ck_assert_int_eq(grabbed_iif, veth1->ifindex);
	ck_assert_uint_eq(grabbed_tstamp, 123456789);
	dev_remove_pack(&grab_ip);
	uxdp_link_del_all();
	test_leak_check(pool);
}
END_TEST

START_TEST(skb_without_napi_goes_straight_to_stack)
{
	struct sk_buff *skb;

	pair_setup();
	skb = ipv4_skb_to_veth1();
	ck_assert_int_eq(dev_queue_xmit(skb), 0);
	ck_assert_uint_eq(test_info("veth0").tx_packets, 1);
	ck_assert_uint_eq(test_info("veth1").rx_packets, 1);
	ck_assert_uint_eq(test_info("veth1").rx_nohandler, 1);
	test_leak_check(pool);
}
END_TEST

START_TEST(attach_rules)
{
	struct test_prog p = test_prog_load("xdp_action", XDP_PASS);
	char err[256] = "";

	pair_setup();
	ck_assert_int_eq(uxdp_link_set("veth0", "mtu", "4000", err, sizeof(err)), 0);
	ck_assert_int_eq(uxdp_link_set_xdp("veth1", p.prog_id, err, sizeof(err)), -ERANGE);
	ck_assert_msg(strstr(err, "peer MTU"), "%s", err);
	ck_assert_int_eq(uxdp_link_set("veth0", "mtu", "1500", err, sizeof(err)), 0);
	test_attach("veth1", &p);
	/* Down: NAPI off, veth0 still advertised but ndo_xdp_xmit -ENXIO. */
	ck_assert_int_eq(uxdp_link_set("veth1", "down", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(veth_rq_ring_count(veth1, 0), -ENXIO);
	test_attach("veth1", NULL);
	ck_assert(!(veth0->xdp_features & NETDEV_XDP_ACT_NDO_XMIT));
	ck_assert_int_eq(uxdp_link_set_xdp("veth1", 9999, err, sizeof(err)), -ENOENT);
	uxdp_bpf_object_close(p.obj);
	test_leak_check(pool);
}
END_TEST

START_TEST(queues_follow_the_cpu)
{
	struct test_prog p = test_prog_load("xdp_action", XDP_DROP);
	char *args[] = { "queues", "2", "peer", "name", "veth1" };
	struct xdp_frame *fr[3];
	char err[256];

	ck_assert_int_gt(uxdp_link_add("veth0", "veth", 5, args, err, sizeof(err)), 0);
	veth0 = test_dev("veth0");
	veth1 = test_dev("veth1");
	pool = test_pool();
	ck_assert_uint_eq(veth1->real_num_rx_queues, 2);
	test_attach("veth1", &p);
	if (nr_cpu_ids < 2) {
		uxdp_bpf_object_close(p.obj);
		test_leak_check(pool);
		return;
	}
	/* ndo_xdp_xmit picks peer rq[smp_processor_id() % queues]. */
	uxdp_worker_bind_cpu(1);
	ck_assert_int_eq(xmit(veth0, 3, 64, 0, fr), 3);
	ck_assert_int_eq(veth_rq_ring_count(veth1, 1), 3);
	ck_assert_int_eq(veth_rq_ring_count(veth1, 0), 0);
	uxdp_worker_bind_cpu(0);
	ck_assert_int_eq(xmit(veth0, 2, 64, XDP_XMIT_FLUSH, fr), 2);
	ck_assert_int_eq(veth_rq_ring_count(veth1, 0), 2);
	ck_assert_int_eq(test_napi_drain(), 2);	/* only rq 0 was kicked */
	ck_assert_int_eq(uxdp_link_add("x", "veth", 2, (char *[]){ "queues", "0" }, err, sizeof(err)),
			 -EINVAL);
	uxdp_bpf_object_close(p.obj);
	test_leak_check(pool);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("drivers/net/veth");
	TCase *tc = tcase_create("veth");

	tcase_add_test(tc, ptr_ring_lazy_release);
	tcase_add_test(tc, peer_without_xdp_is_no_redirect_target);
	tcase_add_test(tc, frame_pass_reaches_stack);
	tcase_add_test(tc, napi_budget_64);
	tcase_add_test(tc, ring_full_stops_batch);
	tcase_add_test(tc, mtu_exceeded_stops_at_first);
	tcase_add_test(tc, bulk_alloc_failure_drops_whole_batch);
	tcase_add_test(tc, bulk_alloc_failure_batch8);
	tcase_add_test(tc, one_by_one_alloc_failure_drops_one);
	tcase_add_test(tc, xdp_tx_to_peer);
	tcase_add_test(tc, xdp_redirect_to_sink);
	tcase_add_test(tc, aborted_and_invalid);
	tcase_add_test(tc, skb_path_pass_and_drop);
	tcase_add_test(tc, skb_without_napi_goes_straight_to_stack);
	tcase_add_test(tc, xmit_scrubs_within_the_namespace);
	tcase_add_test(tc, rx_metadata);
	tcase_add_test(tc, skb_path_in_place_or_copied);
	tcase_add_test(tc, attach_rules);
	tcase_add_test(tc, queues_follow_the_cpu);
	suite_add_tcase(s, tc);
	return s;
}
