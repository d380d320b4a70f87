// SPDX-License-Identifier: GPL-2.0
/*
 * net/core/dev.c and the redirect engine: registration and lookup, NAPI
 * scheduling and budget, the devmap bulk queue (16 per device and CPU,
 * ndo_xdp_xmit without FLUSH when full, with FLUSH at xdp_do_flush(),
 * refused frames freed and counted), xdp_ok_fwd_dev(), and the whole
 * gen → redirect → veth0 ⇒ veth1 pipeline driven on the test thread with
 * exact conservation and no heap allocation per packet.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/ptr_ring.h>
#include <net/rtnetlink.h>

#include "engine_test_util.h"
#include "uxdp_test.h"

/* ---- a recording test driver --------------------------------------------- */

static struct {
	int calls;
	int n[64];
	u32 flags[64];
	int accept;		/* frames taken per call; -1: all; < -1: that errno */
} rec;

static int rec_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames, u32 flags)
{
	int take;

	if (rec.calls < 64) {
		rec.n[rec.calls] = n;
		rec.flags[rec.calls] = flags;
	}
	rec.calls++;
	if (rec.accept < -1)
		return rec.accept;
	take = rec.accept == -1 || rec.accept > n ? n : rec.accept;
	for (int i = 0; i < take; i++)
		xdp_return_frame(frames[i]);
	return take;
}

static const struct net_device_ops rec_ops = {
	.ndo_xdp_xmit = rec_xdp_xmit,
};

static void rec_setup(struct net_device *dev)
{
	dev->netdev_ops = &rec_ops;
	dev->xdp_features = NETDEV_XDP_ACT_NDO_XMIT;
}

static const struct rtnl_link_ops rec_link_ops = { .kind = "rec", .setup = rec_setup };

static struct net_device *rec_dev(const char *name)
{
	struct net_device *dev = alloc_netdev(&rec_link_ops, name, 1, 1);

	ck_assert(!IS_ERR(dev));
	ck_assert_int_eq(register_netdevice(dev), 0);
	dev_open(dev);
	return dev;
}

static void rec_free(struct net_device *dev)
{
	unregister_netdevice(dev);
	free_netdev(dev);
}

START_TEST(register_and_lookup)
{
	struct net_device *a = rec_dev("a0"), *b = rec_dev("b0"), *dup;

	ck_assert_int_eq(a->ifindex, 1);
	ck_assert_int_eq(b->ifindex, 2);
	ck_assert_ptr_eq(dev_get_by_index(2), b);
	ck_assert_ptr_eq(dev_get_by_name("a0"), a);
	ck_assert_ptr_null(dev_get_by_index(3));
	dup = alloc_netdev(&rec_link_ops, "a0", 1, 1);
	ck_assert_int_eq(register_netdevice(dup), -EEXIST);
	free_netdev(dup);
	ck_assert(IS_ERR(alloc_netdev(&rec_link_ops, "a-name-longer-than-15", 1, 1)));
	rec_free(a);
	ck_assert_ptr_null(dev_get_by_name("a0"));
	a = rec_dev("c0");
	ck_assert_int_eq(a->ifindex, 1);	/* lowest free */
	rec_free(a);
	rec_free(b);
}
END_TEST

/* ---- tx queue selection ------------------------------------------------- */

static int txq_seen = -1;

static netdev_tx_t txq_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	(void)dev;
	txq_seen = skb_get_queue_mapping(skb);
	consume_skb(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops txq_ops = { .ndo_start_xmit = txq_start_xmit };

static void txq_setup(struct net_device *dev)
{
	dev->netdev_ops = &txq_ops;
}

static const struct rtnl_link_ops txq_link_ops = { .kind = "txq", .setup = txq_setup };

/* The tx queue dev_queue_xmit() hands the driver for an skb with @rx_queue
 * recorded (-1: none) and @hash. */
static int pick_tx(struct net_device *dev, int rx_queue, u32 hash)
{
	struct sk_buff *skb = alloc_skb(128, GFP_KERNEL);

	ck_assert_ptr_nonnull(skb);
	skb_put(skb, ETH_HLEN);
	skb->dev = dev;
	skb->hash = hash;
	if (rx_queue >= 0)
		skb_record_rx_queue(skb, rx_queue);
	txq_seen = -1;
	ck_assert_int_eq(dev_queue_xmit(skb), 0);
	return txq_seen;
}

START_TEST(dev_queue_xmit_picks_tx_queue)
{
	struct net_device *three = alloc_netdev(&txq_link_ops, "t3", 1, 3);
	struct net_device *one = alloc_netdev(&txq_link_ops, "t1", 1, 1);
	struct xdp_rxq_info rxq = { .dev = one, .queue_index = 5 };
	struct page *page = alloc_pages(GFP_KERNEL, 0);
	struct sk_buff *skb;
	struct xdp_buff xdp;

	ck_assert(!IS_ERR(three) && !IS_ERR(one));
	ck_assert_int_eq(register_netdevice(three), 0);
	ck_assert_int_eq(register_netdevice(one), 0);
	dev_open(three);
	dev_open(one);

	/* skb_tx_hash(): the recorded rx queue, folded into the tx queues. */
	ck_assert_int_eq(pick_tx(three, 0, 0), 0);
	ck_assert_int_eq(pick_tx(three, 1, 0xffffffff), 1);
	ck_assert_int_eq(pick_tx(three, 2, 0), 2);
	ck_assert_int_eq(pick_tx(three, 4, 0), 1);
	ck_assert_int_eq(pick_tx(three, 8, 0), 2);
	/* None recorded: the hash scaled to the queues (reciprocal_scale()). */
	ck_assert_int_eq(pick_tx(three, -1, 0), 0);
	ck_assert_int_eq(pick_tx(three, -1, 0x80000000), 1);
	ck_assert_int_eq(pick_tx(three, -1, 0xffffffff), 2);
	/* One tx queue: always 0. */
	ck_assert_int_eq(pick_tx(one, 3, 0xffffffff), 0);

	/* xdp_build_skb_from_buff() records the frame's rx queue. */
	ck_assert_ptr_nonnull(page);
	xdp_init_buff(&xdp, PAGE_SIZE, &rxq);
	xdp_prepare_buff(&xdp, page_address(page), XDP_PACKET_HEADROOM, 60, false);
	memset(xdp.data, 0, 60);
	skb = xdp_build_skb_from_buff(&xdp);
	ck_assert_ptr_nonnull(skb);
	ck_assert(skb_rx_queue_recorded(skb));
	ck_assert_int_eq(skb_get_rx_queue(skb), 5);
	kfree_skb(skb);

	unregister_netdevice(three);
	unregister_netdevice(one);
	free_netdev(three);
	free_netdev(one);
}
END_TEST

static int polls_left, poll_calls;

static int test_poll(struct napi_struct *napi, int budget)
{
	poll_calls++;
	if (polls_left-- > 0)
		return budget;
	napi_complete_done(napi, 3);
	return 3;
}

START_TEST(napi_schedule_and_budget)
{
	struct net_device *d = rec_dev("n0");
	struct napi_struct napi;

	netif_napi_add(d, &napi, test_poll);
	ck_assert(!napi_schedule(&napi));	/* disabled until napi_enable() */
	napi_enable(&napi);
	ck_assert(napi_schedule(&napi));
	ck_assert(!napi_schedule(&napi));	/* already scheduled */
	polls_left = 2;
	ck_assert_int_eq(net_rx_action(), 64);	/* used its budget: stays */
	ck_assert(net_rx_pending());
	ck_assert_int_eq(net_rx_action(), 64);
	ck_assert_int_eq(net_rx_action(), 3);
	ck_assert(!net_rx_pending());
	ck_assert_int_eq(poll_calls, 3);
	ck_assert(napi_schedule(&napi));	/* completed: can be scheduled again */
	ck_assert_int_eq(net_rx_action(), 3);
	napi_disable(&napi);
	ck_assert(!napi_schedule(&napi));
	netif_napi_del(&napi);
	rec_free(d);
}
END_TEST

START_TEST(bulk_queue_flush_rules)
{
	struct net_device *rx = rec_dev("rx0"), *tx = rec_dev("tx0");
	struct page_pool *pool = test_pool();

	memset(&rec, 0, sizeof(rec));
	rec.accept = -1;
	for (int i = 0; i < 16; i++)
		ck_assert_int_eq(dev_map_enqueue(tx, test_frame(pool, tx, 64), rx), 0);
	ck_assert_int_eq(rec.calls, 0);		/* 16 fit: nothing sent yet */
	ck_assert(dev_check_flush());
	ck_assert_int_eq(dev_map_enqueue(tx, test_frame(pool, tx, 64), rx), 0);
	ck_assert_int_eq(rec.calls, 1);		/* full: sent without FLUSH */
	ck_assert_int_eq(rec.n[0], 16);
	ck_assert_uint_eq(rec.flags[0], 0);
	xdp_do_flush();
	ck_assert_int_eq(rec.calls, 2);
	ck_assert_int_eq(rec.n[1], 1);
	ck_assert_uint_eq(rec.flags[1], XDP_XMIT_FLUSH);
	ck_assert(!dev_check_flush());
	xdp_do_flush();				/* nothing queued: no call */
	ck_assert_int_eq(rec.calls, 2);

	/* The driver takes 5 of 7: the devmap frees 2 and counts them. */
	rec.accept = 5;
	for (int i = 0; i < 7; i++)
		dev_map_enqueue(tx, test_frame(pool, tx, 64), rx);
	xdp_do_flush();
	/* -ENXIO style: none taken. */
	rec.accept = -ENXIO;
	for (int i = 0; i < 3; i++)
		dev_map_enqueue(tx, test_frame(pool, tx, 64), rx);
	xdp_do_flush();
	ck_assert_uint_eq(tx->pcpu_stats[0].devmap_xmit_sent, 17 + 5);
	ck_assert_uint_eq(tx->pcpu_stats[0].devmap_xmit_drops, 2 + 3);
	ck_assert_int_eq(page_pool_inflight(pool), (long)page_pool_idle(pool));

	/* Enqueue checks: down, too long, not a target. */
	dev_close(tx);
	{
		struct xdp_frame *f = test_frame(pool, tx, 64);

		ck_assert_int_eq(dev_map_enqueue(tx, f, rx), -ENETDOWN);
		dev_open(tx);
		xdp_return_frame(f);
		f = test_frame(pool, tx, 1519);
		ck_assert_int_eq(dev_map_enqueue(tx, f, rx), -EMSGSIZE);
		xdp_return_frame(f);
		f = test_frame(pool, tx, 1518);
		tx->xdp_features = 0;
		ck_assert_int_eq(dev_map_enqueue(tx, f, rx), -EOPNOTSUPP);
		xdp_return_frame(f);
	}
	rec_free(rx);
	rec_free(tx);
	page_pool_destroy(pool);
}
END_TEST

/* ---- the whole pipeline --------------------------------------------------- */

#include "malloc_count.h"

/*
 * Poll gen0's queue and everything it schedules until @n frames were made.
 * No ck_assert inside: Check allocates for every assertion it records.
 */
static bool pump(struct net_device *gen, u64 n)
{
	char err[64], c[32];

	snprintf(c, sizeof(c), "%llu", (unsigned long long)n);
	if (gen->netdev_ops->ndo_set_param(gen, "run_count", c, err, sizeof(err)) != 1 ||
	    !gen->netdev_ops->ndo_gen_active(gen))
		return false;
	dev_napi_schedule_all(gen);
	for (int i = 0; i < 1000000 && net_rx_pending(); i++)
		net_rx_action();
	return !gen->netdev_ops->ndo_gen_active(gen);
}

START_TEST(pipeline_conservation_and_no_malloc)
{
	struct test_prog redir = test_prog_load("xdp_redirect_dev", 0);
	struct test_prog pass = test_prog_load("xdp_action", XDP_PASS);
	char *gen_args[] = { "size", "64", "count", "1" };
	char *veth_args[] = { "peer", "name", "veth1" };
	struct uxdp_link_info g, v0, v1;
	struct net_device *gen;
	char err[256];
	u64 gen_total;
	bool done;

	ck_assert_int_gt(uxdp_link_add("gen0", "gen", 4, gen_args, err, sizeof(err)), 0);
	ck_assert_int_gt(uxdp_link_add("veth0", "veth", 3, veth_args, err, sizeof(err)), 0);
	gen = test_dev("gen0");
	test_prog_cfg(&redir, 1, uxdp_link_ifindex("veth0"));
	test_attach("gen0", &redir);
	test_attach("veth1", &pass);

	ck_assert(pump(gen, 20000));	/* warm up: pools, magazines, rings */
	mallocs = 0;
	counting = true;
	done = pump(gen, 200000);
	counting = false;
	ck_assert(done);
#ifndef __SANITIZE_ADDRESS__
	ck_assert_msg(mallocs == 0, "%ld heap allocations for 200000 frames", mallocs);
#endif
	g = test_info("gen0");
	v0 = test_info("veth0");
	v1 = test_info("veth1");
	gen_total = 220000;
	ck_assert_uint_eq(g.rx_packets, gen_total);
	ck_assert_uint_eq(g.xdp_redirect, gen_total);
	/* veth1 received what veth0 sent, and every frame got a verdict. */
	ck_assert_uint_eq(v0.tx_packets, v1.rx_packets);
	ck_assert_uint_eq(v1.rx_packets, v1.xdp_aborted + v1.xdp_drop + v1.xdp_pass + v1.xdp_tx +
			  v1.xdp_redirect);
	/* Every generated frame ends in exactly one drop counter somewhere. */
	ck_assert_uint_eq(gen_total, g.drops_total + v0.drops_total + v1.drops_total);
	ck_assert_uint_eq(v1.rx_otherhost_dropped, gen_total);	/* dst MAC is gen0's */
	ck_assert_int_eq(skb_live_count(), 0);
	uxdp_link_del_all();
	uxdp_bpf_object_close(redir.obj);
	uxdp_bpf_object_close(pass.obj);
}
END_TEST

START_TEST(devmap_egress_program)
{
	struct test_prog egress = test_prog_load("xdp_action", XDP_DROP);
	char *gen_args[] = { "size", "64" };
	struct bpf_devmap_val val = {};
	struct uxdp_bpf_object *redir;
	struct net_device *gen;
	char err[256];
	__u32 key, zero = 0;
	__u64 cnt[NR_CPUS];
	int hash;

	ck_assert_int_gt(uxdp_link_add("gen0", "gen", 2, gen_args, err, sizeof(err)), 0);
	ck_assert_int_gt(uxdp_link_add("out0", "sink", 0, NULL, err, sizeof(err)), 0);
	gen = test_dev("gen0");
	/* The loader has no "xdp/devmap" sections yet: mark the program by hand. */
	bpf_prog_get(egress.prog_id)->expected_attach_type = BPF_XDP_DEVMAP;
	redir = uxdp_bpf_object_open(BPF_PROGS_DIR "/xdp_redirect_map.o", NULL);
	ck_assert_ptr_nonnull(redir);
	hash = uxdp_bpf_object_find_map(redir, "tx_hash");
	key = gen->ifindex;	/* xdp_redirect_hash_prog keys by ingress ifindex */
	val.ifindex = uxdp_link_ifindex("out0");
	val.bpf_prog.fd = egress.prog_id;
	ck_assert_int_eq(uxdp_bpf_map_update_elem(hash, &key, &val, 0), 0);
	ck_assert_int_eq(uxdp_link_set_xdp("gen0",
					   uxdp_bpf_object_find_prog(redir, "xdp_redirect_hash_prog", NULL),
					   err, sizeof(err)), 0);
	ck_assert(pump(gen, 100));
	ck_assert_uint_eq(test_info("gen0").xdp_redirect, 100);
	ck_assert_uint_eq(test_info("out0").tx_packets, 0);
	ck_assert_uint_eq(test_drop("out0", NETDEV_DROP_DEVMAP_PROG), 100);
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(egress.cnt_id, &zero, cnt), 0);
	ck_assert_uint_eq(cnt[0], 100);
	test_prog_cfg(&egress, 0, XDP_PASS);
	ck_assert(pump(gen, 50));
	ck_assert_uint_eq(test_info("out0").tx_packets, 50);
	uxdp_link_del_all();
	uxdp_bpf_object_close(redir);
	uxdp_bpf_object_close(egress.obj);
	ck_assert_int_eq(skb_live_count(), 0);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("net/core/dev");
	TCase *tc = tcase_create("dev");

	tcase_add_test(tc, register_and_lookup);
	tcase_add_test(tc, napi_schedule_and_budget);
	tcase_add_test(tc, dev_queue_xmit_picks_tx_queue);
	tcase_add_test(tc, bulk_queue_flush_rules);
	tcase_add_test(tc, pipeline_conservation_and_no_malloc);
	tcase_add_test(tc, devmap_egress_program);
	suite_add_tcase(s, tc);
	return s;
}
