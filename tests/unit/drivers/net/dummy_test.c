// SPDX-License-Identifier: GPL-2.0
/*
 * dummy: what is transmitted is counted and freed (no skb left), nothing
 * is received, and a redirect into it fails as the kernel's does: no
 * ndo_xdp_xmit, so REDIRECT_NOT_SUPP on the device that redirected.
 */
#include <string.h>

#include "engine_test_util.h"
#include "uxdp_test.h"

START_TEST(xmit_counts_and_frees)
{
	struct net_device *dev;
	char err[128];

	ck_assert_int_gt(test_link_add("dummy", "d0", "", err, sizeof(err)), 0);
	dev = test_dev("d0");
	for (int i = 0; i < 3; i++) {
		struct sk_buff *skb = alloc_skb(128, GFP_ATOMIC);

		ck_assert_ptr_nonnull(skb);
		memset(skb_put(skb, 60), 0xab, 60);
		skb->dev = dev;
		ck_assert_int_eq(dev_queue_xmit(skb), 0);
	}
	ck_assert_uint_eq(test_info("d0").tx_packets, 3);
	ck_assert_uint_eq(test_info("d0").tx_bytes, 180);
	ck_assert_uint_eq(test_info("d0").rx_packets, 0);
	ck_assert_uint_eq(test_info("d0").drops_total, 0);
	ck_assert_int_eq(skb_live_count(), 0);
	uxdp_link_del_all();
}
END_TEST

START_TEST(no_arguments)
{
	char err[128];

	ck_assert_int_eq(test_link_add("dummy", "d0", "peer x", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "unknown argument"));
}
END_TEST

START_TEST(redirect_into_dummy_refused)
{
	struct test_prog redir = test_prog_load("xdp_redirect_dev", 0);
	struct net_device *gen;
	char err[128];

	ck_assert_int_gt(test_link_add("gen", "gen0", "count 10", err, sizeof(err)), 0);
	ck_assert_int_gt(test_link_add("dummy", "d0", "", err, sizeof(err)), 0);
	test_attach("gen0", &redir);
	test_prog_cfg(&redir, 1, uxdp_link_ifindex("d0"));
	gen = test_dev("gen0");
	dev_napi_schedule_all(gen);
	while (test_napi_drain())
		;
	ck_assert_uint_eq(test_info("gen0").xdp_redirect, 10);
	ck_assert_uint_eq(test_drop("gen0", NETDEV_DROP_REDIRECT_NOT_SUPP) +
			  test_drop("d0", NETDEV_DROP_REDIRECT_NOT_SUPP), 10);
	ck_assert_uint_eq(test_info("d0").tx_packets, 0);
	uxdp_link_del_all();
	uxdp_bpf_object_close(redir.obj);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("drivers/net/dummy");
	TCase *tc = tcase_create("dummy");

	tcase_add_test(tc, xmit_counts_and_frees);
	tcase_add_test(tc, no_arguments);
	tcase_add_test(tc, redirect_into_dummy_refused);
	suite_add_tcase(s, tc);
	return s;
}
