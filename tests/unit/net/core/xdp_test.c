// SPDX-License-Identifier: GPL-2.0
/*
 * XDP memory core: xdp_buff setup, xdp_convert_buff_to_frame (written in
 * the headroom, failing exactly when headroom - metasize < 40), frame <-> buff round trip, xdp_build_skb_from_frame geometry
 * (headroom, len, metadata, frags, truesize, recycling), frame
 * returns per memory model, and xdp_alloc_skb_bulk (all or nothing).
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>

#include <linux/bpf.h>
#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>

#include "uxdp_test.h"

static struct net_device dev = {
	.name = "veth1",
	.ifindex = 3,
	.mtu = 1500,
	.addr_len = ETH_ALEN,
	.dev_addr = { 0x02, 0, 0, 0, 0, 0x01 },
	.broadcast = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
};
static struct xdp_rxq_info rxq;
static struct page_pool *pool;

static void setup(void)
{
	struct page_pool_params pp = { .order = 0, .pool_size = 256 };

	pool = page_pool_create(&pp);
	ck_assert(!IS_ERR(pool));
	memset(&rxq, 0, sizeof(rxq));
	ck_assert_int_eq(xdp_rxq_info_reg(&rxq, &dev, 0, 0), 0);
	ck_assert_int_eq(xdp_rxq_info_reg_mem_model(&rxq, MEM_TYPE_PAGE_POOL, pool), 0);
}

static void teardown(void)
{
	char why[512];

	xdp_rxq_info_unreg(&rxq);
	page_pool_destroy(pool);
	uxdp_fault_clear();
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}

/* A pool page holding an Ethernet/IPv4 frame of @len bytes at @headroom. */
static void make_buff(struct xdp_buff *xdp, unsigned int headroom, unsigned int len)
{
	struct page *page = page_pool_dev_alloc_pages(pool);
	unsigned char *hard_start = page_address(page);
	struct ethhdr *eth;

	ck_assert_ptr_nonnull(page);
	xdp_init_buff(xdp, PAGE_SIZE, &rxq);
	xdp_prepare_buff(xdp, hard_start, headroom, len, true);
	eth = xdp->data;
	memcpy(eth->h_dest, dev.dev_addr, ETH_ALEN);
	memset(eth->h_source, 0x22, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	for (unsigned int i = ETH_HLEN; i < len; i++)
		((u8 *)xdp->data)[i] = (u8)i;
}

START_TEST(test_prepare_buff)
{
	unsigned char buf[4096];
	struct xdp_buff xdp;

	xdp_init_buff(&xdp, sizeof(buf), &rxq);
	ck_assert_uint_eq(xdp.flags, 0);
	xdp_prepare_buff(&xdp, buf, XDP_PACKET_HEADROOM, 100, true);
	ck_assert_ptr_eq(xdp.data, buf + 256);
	ck_assert_ptr_eq(xdp.data_end, buf + 356);
	ck_assert_ptr_eq(xdp.data_meta, xdp.data);
	ck_assert(!xdp_data_meta_unsupported(&xdp));
	ck_assert_ptr_eq(xdp_data_hard_end(&xdp), buf + 4096 - 320);
	ck_assert_ptr_eq(xdp_get_shared_info_from_buff(&xdp), (void *)(buf + 4096 - 320));
	ck_assert_uint_eq(xdp_get_buff_len(&xdp), 100);
	xdp_prepare_buff(&xdp, buf, XDP_PACKET_HEADROOM, 100, false);
	ck_assert_ptr_eq(xdp.data_meta, (char *)xdp.data + 1);
	ck_assert(xdp_data_meta_unsupported(&xdp));
}
END_TEST

START_TEST(test_convert_buff_to_frame)
{
	struct xdp_buff xdp, back;
	struct xdp_frame *f;

	make_buff(&xdp, XDP_PACKET_HEADROOM, 100);
	xdp.data_meta = (char *)xdp.data - 8;
	f = xdp_convert_buff_to_frame(&xdp);
	ck_assert_ptr_eq(f, xdp.data_hard_start);
	ck_assert_ptr_eq(f->data, xdp.data);
	ck_assert_uint_eq(f->len, 100);
	/* headroom counts from the end of the frame struct */
	ck_assert_uint_eq(f->headroom, 256 - sizeof(struct xdp_frame));
	ck_assert_uint_eq(f->headroom, 216);
	ck_assert_uint_eq(f->metasize, 8);
	ck_assert_uint_eq(f->frame_sz, PAGE_SIZE);
	ck_assert_uint_eq(f->mem_type, MEM_TYPE_PAGE_POOL);
	ck_assert_uint_eq(xdp_get_frame_len(f), 100);
	memset(&back, 0, sizeof(back));
	xdp_convert_frame_to_buff(f, &back);
	ck_assert_ptr_eq(back.data_hard_start, xdp.data_hard_start);
	ck_assert_ptr_eq(back.data, xdp.data);
	ck_assert_ptr_eq(back.data_end, xdp.data_end);
	ck_assert_ptr_eq(back.data_meta, xdp.data_meta);
	ck_assert_uint_eq(back.frame_sz, PAGE_SIZE);
	ck_assert_ptr_null(back.rxq);
	xdp_return_frame(f);
}
END_TEST

START_TEST(test_convert_fails_exactly_below_40)
{
	static const struct { unsigned int headroom, meta; bool ok; } cases[] = {
		{ 40, 0, true }, { 39, 0, false }, { 48, 8, true }, { 48, 12, false },
		{ 44, 4, true }, { 43, 4, false }, { 0, 0, false }, { 256, 216, true },
		{ 256, 220, false },
	};

	ck_assert_uint_eq(sizeof(struct xdp_frame), 40);
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		struct xdp_buff xdp;
		struct xdp_frame *f;

		make_buff(&xdp, cases[i].headroom, 60);
		xdp.data_meta = (char *)xdp.data - cases[i].meta;
		f = xdp_convert_buff_to_frame(&xdp);
		ck_assert_msg((f != NULL) == cases[i].ok, "headroom %u meta %u",
			      cases[i].headroom, cases[i].meta);
		if (f)
			ck_assert_uint_eq(f->headroom, cases[i].headroom - 40);
		xdp_return_buff(&xdp);
	}
}
END_TEST

START_TEST(test_convert_fails_into_shinfo_tailroom)
{
	struct xdp_buff xdp;

	make_buff(&xdp, 256, 3520);
	ck_assert_ptr_nonnull(xdp_convert_buff_to_frame(&xdp));
	xdp_return_buff(&xdp);
	make_buff(&xdp, 256, 3521);	/* data_end > hard_end: driver bug */
	ck_assert_ptr_null(xdp_convert_buff_to_frame(&xdp));
	xdp_return_buff(&xdp);
}
END_TEST

START_TEST(test_build_skb_from_frame_geometry)
{
	struct xdp_buff xdp;
	struct xdp_frame *f;
	struct sk_buff *skb;
	unsigned char *hard_start;

	make_buff(&xdp, XDP_PACKET_HEADROOM, 100);
	hard_start = xdp.data_hard_start;
	xdp.data_meta = (char *)xdp.data - 8;
	memset(xdp.data_meta, 0xab, 8);
	f = xdp_convert_buff_to_frame(&xdp);
	skb = xdp_build_skb_from_frame(f, &dev);
	ck_assert_ptr_nonnull(skb);
	ck_assert_ptr_eq(skb->head, hard_start);
	ck_assert(skb->head_frag);
	ck_assert(skb->pp_recycle);
	/* reserve(40 + 216) then eth_type_trans pulled 14 */
	ck_assert_uint_eq(skb->mac_header, 256);
	ck_assert_uint_eq(skb_headroom(skb), 256 + ETH_HLEN);
	ck_assert_uint_eq(skb->len, 100 - ETH_HLEN);
	ck_assert_uint_eq(skb->data_len, 0);
	ck_assert_uint_eq(skb_end_offset(skb), PAGE_SIZE - 320);
	ck_assert_uint_eq(skb->truesize, SKB_TRUESIZE(PAGE_SIZE - 320));
	ck_assert_uint_eq(skb_metadata_len(skb), 8);
	ck_assert_uint_eq(((u8 *)skb_metadata_end(skb))[-1], 0xab);
	ck_assert_uint_eq(skb->protocol, htons(ETH_P_IP));
	ck_assert_uint_eq(skb->pkt_type, PACKET_HOST);
	ck_assert_ptr_eq(skb->dev, &dev);
	ck_assert_int_eq(skb_dataref(skb), 1);
	ck_assert_ptr_null(f->data);	/* frame scrubbed */
	ck_assert_uint_eq(skb->data[0], ETH_HLEN);
	consume_skb(skb);
	/* the page went back to its pool */
	ck_assert_int_eq(page_pool_inflight(pool), (long)page_pool_idle(pool));
}
END_TEST

START_TEST(test_build_skb_from_frame_frags)
{
	struct skb_shared_info *sinfo;
	struct xdp_buff xdp;
	struct xdp_frame *f;
	struct sk_buff *skb;
	u8 flat[6000];

	make_buff(&xdp, XDP_PACKET_HEADROOM, 1000);
	sinfo = xdp_get_shared_info_from_buff(&xdp);
	sinfo->nr_frags = 2;
	for (int i = 0; i < 2; i++) {
		struct page *page = page_pool_dev_alloc_pages(pool);

		memset(page_address(page), 0x10 + i, 1500);
		skb_frag_fill_page_desc(&sinfo->frags[i], page, 0, 1500);
	}
	sinfo->xdp_frags_size = 3000;
	sinfo->xdp_frags_truesize = 2 * PAGE_SIZE;
	xdp_buff_set_frags_flag(&xdp);
	ck_assert_uint_eq(xdp_get_buff_len(&xdp), 4000);
	f = xdp_convert_buff_to_frame(&xdp);
	ck_assert(xdp_frame_has_frags(f));
	ck_assert_uint_eq(xdp_get_frame_len(f), 4000);
	skb = xdp_build_skb_from_frame(f, &dev);
	ck_assert_uint_eq(skb_shinfo(skb)->nr_frags, 2);
	ck_assert_uint_eq(skb->data_len, 3000);
	ck_assert_uint_eq(skb->len, 4000 - ETH_HLEN);
	ck_assert_uint_eq(skb->truesize, SKB_TRUESIZE(PAGE_SIZE - 320) + 2 * PAGE_SIZE);
	ck_assert_int_eq(skb_copy_bits(skb, 0, flat, skb->len), 0);
	ck_assert_uint_eq(flat[986], 0x10);
	ck_assert_uint_eq(flat[986 + 1500], 0x11);
	kfree_skb(skb);
	ck_assert_int_eq(page_pool_inflight(pool), (long)page_pool_idle(pool));
	ck_assert_int_eq(page_pool_inflight(pool), 3);
}
END_TEST

START_TEST(test_build_skb_pkt_types)
{
	static const u8 bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const u8 mcast[ETH_ALEN] = { 0x01, 0x00, 0x5e, 0, 0, 1 };
	static const u8 other[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x99 };
	const u8 *dst[3] = { bcast, mcast, other };
	const int want[3] = { PACKET_BROADCAST, PACKET_MULTICAST, PACKET_OTHERHOST };

	for (int i = 0; i < 3; i++) {
		struct xdp_buff xdp;
		struct sk_buff *skb;

		make_buff(&xdp, 256, 60);
		memcpy(((struct ethhdr *)xdp.data)->h_dest, dst[i], ETH_ALEN);
		skb = xdp_build_skb_from_frame(xdp_convert_buff_to_frame(&xdp), &dev);
		ck_assert_int_eq(skb->pkt_type, want[i]);
		kfree_skb_reason(skb, SKB_DROP_REASON_OTHERHOST);
	}
}
END_TEST

START_TEST(test_alloc_skb_bulk_and_build)
{
	void *skbs[16];
	struct xdp_frame *frames[16];

	for (int i = 0; i < 16; i++) {
		struct xdp_buff xdp;

		make_buff(&xdp, 256, 64 + i);
		frames[i] = xdp_convert_buff_to_frame(&xdp);
	}
	memset(skbs, 0, sizeof(skbs));
	ck_assert_int_eq(xdp_alloc_skb_bulk(skbs, 16, GFP_ATOMIC | __GFP_ZERO), 0);
	for (int i = 0; i < 16; i++) {
		struct sk_buff *skb = skbs[i];

		ck_assert_ptr_nonnull(skb);
		ck_assert_uint_eq(skb->len, 0);
		ck_assert_ptr_eq(__xdp_build_skb_from_frame(frames[i], skb, &dev), skb);
		ck_assert_uint_eq(skb->len, 64 + i - ETH_HLEN);
		consume_skb(skb);
	}
	ck_assert_int_eq(page_pool_inflight(pool), (long)page_pool_idle(pool));
}
END_TEST

START_TEST(test_alloc_skb_bulk_injected_failure)
{
	struct xdp_frame *frames[16];
	void *skbs[16];
	long live = skb_live_count();
	int err;

	for (int i = 0; i < 16; i++) {
		struct xdp_buff xdp;

		make_buff(&xdp, 256, 64);
		frames[i] = xdp_convert_buff_to_frame(&xdp);
	}
	uxdp_fault_fail_nth(UXDP_FAULT_SLAB, 1);
	err = xdp_alloc_skb_bulk(skbs, 16, GFP_ATOMIC | __GFP_ZERO);
	ck_assert_int_eq(err, -ENOMEM);
	ck_assert_int_eq(skb_live_count(), live);
	/* the caller drops the whole batch, as veth does */
	for (int i = 0; i < 16; i++)
		xdp_return_frame_rx_napi(frames[i]);
	ck_assert_int_eq(page_pool_inflight(pool), (long)page_pool_idle(pool));
}
END_TEST

START_TEST(test_return_frame_paths)
{
	struct xdp_frame_bulk bq;
	struct page_pool_stats st;
	struct xdp_buff xdp;

	make_buff(&xdp, 256, 64);
	xdp_return_frame(xdp_convert_buff_to_frame(&xdp));
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.recycle_stats.ring, 1);
	make_buff(&xdp, 256, 64);
	xdp_return_frame_rx_napi(xdp_convert_buff_to_frame(&xdp));
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.recycle_stats.cached, 1);
	/* no-direct mode (veth polling for a peer) */
	xdp_set_return_frame_no_direct();
	make_buff(&xdp, 256, 64);
	xdp_return_frame_rx_napi(xdp_convert_buff_to_frame(&xdp));
	xdp_clear_return_frame_no_direct();
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.recycle_stats.cached, 1);
	ck_assert_uint_eq(st.recycle_stats.ring, 2);

	xdp_frame_bulk_init(&bq);
	for (int i = 0; i < 20; i++) {
		make_buff(&xdp, 256, 64);
		xdp_return_frame_bulk(xdp_convert_buff_to_frame(&xdp), &bq);
	}
	ck_assert_int_eq(bq.count, 4);
	xdp_flush_frame_bulk(&bq);
	ck_assert_int_eq(bq.count, 0);
	ck_assert_int_eq(page_pool_inflight(pool), (long)page_pool_idle(pool));
}
END_TEST

START_TEST(test_other_memory_models)
{
	struct xdp_rxq_info rxq2 = {};
	struct xdp_buff xdp;
	struct page *page;

	ck_assert_int_eq(xdp_rxq_info_reg_mem_model(&rxq2, MEM_TYPE_PAGE_ORDER0, NULL), -EFAULT);
	ck_assert_int_eq(xdp_rxq_info_reg(&rxq2, NULL, 0, 0), -ENODEV);
	ck_assert_int_eq(xdp_rxq_info_reg(&rxq2, &dev, 1, 0), 0);
	ck_assert(xdp_rxq_info_is_reg(&rxq2));
	ck_assert_int_eq(xdp_rxq_info_reg_mem_model(&rxq2, MEM_TYPE_PAGE_POOL, NULL), -EINVAL);
	ck_assert_int_eq(xdp_rxq_info_reg_mem_model(&rxq2, MEM_TYPE_MAX, NULL), -EINVAL);
	ck_assert_int_eq(xdp_rxq_info_reg_mem_model(&rxq2, MEM_TYPE_PAGE_ORDER0, NULL), 0);
	page = alloc_page(GFP_KERNEL);
	xdp_init_buff(&xdp, PAGE_SIZE, &rxq2);
	xdp_prepare_buff(&xdp, page_address(page), 256, 60, true);
	memset(xdp.data, 0, 60);
	xdp_return_frame(xdp_convert_buff_to_frame(&xdp));
	ck_assert_int_eq(nr_pages_in_use(), 0);
	xdp_rxq_info_unreg(&rxq2);
	ck_assert(!xdp_rxq_info_is_reg(&rxq2));
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("net/core/xdp");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_prepare_buff);
	tcase_add_test(tc, test_convert_buff_to_frame);
	tcase_add_test(tc, test_convert_fails_exactly_below_40);
	tcase_add_test(tc, test_convert_fails_into_shinfo_tailroom);
	tcase_add_test(tc, test_build_skb_from_frame_geometry);
	tcase_add_test(tc, test_build_skb_from_frame_frags);
	tcase_add_test(tc, test_build_skb_pkt_types);
	tcase_add_test(tc, test_alloc_skb_bulk_and_build);
	tcase_add_test(tc, test_alloc_skb_bulk_injected_failure);
	tcase_add_test(tc, test_return_frame_paths);
	tcase_add_test(tc, test_other_memory_models);
	suite_add_tcase(s, tc);
	return s;
}
