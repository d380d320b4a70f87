// SPDX-License-Identifier: GPL-2.0
/*
 * The neighbour table's control path against a running datapath: workers
 * look entries up without a lock and keep the pointer, so while a run is
 * active (netdev_run_active()) neigh_delete() fails with -EBUSY and
 * neigh_table_flush() / neigh_ifdown() change nothing; between runs all
 * three work. The calls are made from the run's progress callback, the
 * control thread, while a generator keeps the workers busy.
 */
#include <arpa/inet.h>
#include <string.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <net/neighbour.h>
#include <net/route.h>

#include <uxdp/uxdp_ip.h>
#include <uxdp/uxdp_link.h>

#include "cap_dev.h"

static struct net_device *out;
static const u8 host_mac[ETH_ALEN] = { 0x02, 0xbb, 0, 0, 0, 2 };

static u32 ip(const char *s)
{
	struct in_addr a;

	inet_pton(AF_INET, s, &a);
	return a.s_addr;
}

static void setup(void)
{
	char err[256] = "";

	out = cap_new("out0");
	ck_assert_int_eq(inet_addr_add(out->ifindex, ip("198.19.0.1"), 24), 0);
	ck_assert_int_eq(neigh_add(ip("198.19.0.2"), out->ifindex, host_mac), 0);
	ck_assert_int_eq(neigh_add(ip("198.19.0.3"), out->ifindex, host_mac), 0);
	/* Something for the workers to do while the control thread acts. */
	ck_assert_msg(uxdp_link_add("g0", "gen", 0, NULL, err, sizeof(err)) > 0, "%s", err);
}

static void teardown(void)
{
	cap_drain(out);
	uxdp_link_del_all();
	uxdp_ip_reset();
}

struct in_run {
	int calls, del_ret, entries_after;
	bool active;
	struct neighbour *n;
};

static bool in_run_progress(void *ctx, uint64_t elapsed_ns)
{
	struct in_run *r = ctx;
	u32 key = ip("198.19.0.2");

	(void)elapsed_ns;
	if (r->calls++)
		return false;
	r->active = netdev_run_active();
	r->n = __ipv4_neigh_lookup(out, key);
	r->del_ret = neigh_delete(&arp_tbl, &key, out);
	neigh_ifdown(&arp_tbl, out);
	neigh_table_flush(&arp_tbl);
	r->entries_after = arp_tbl.entries;
	return false;
}

START_TEST(test_no_removal_during_run)
{
	struct netdev_run_opts o = { .workers = 1, .duration_ns = 2000000000ULL,
				     .progress = in_run_progress };
	struct in_run r = { 0 };
	int entries = arp_tbl.entries;
	u32 key = ip("198.19.0.2");
	uint64_t ns;

	o.progress_ctx = &r;
	ck_assert(!netdev_run_active());
	ck_assert_int_eq(netdev_run(&o, &ns), 0);
	ck_assert(!netdev_run_active());
	ck_assert_int_ge(r.calls, 1);
	ck_assert(r.active);
	ck_assert_int_eq(r.del_ret, -EBUSY);
	ck_assert_int_eq(r.entries_after, entries);
	/* The pointer a worker would hold still names the same neighbour. */
	ck_assert_ptr_eq(__ipv4_neigh_lookup(out, key), r.n);
	ck_assert_uint_eq(r.n->nud_state, NUD_PERMANENT);
	ck_assert_int_eq(memcmp(r.n->ha, host_mac, ETH_ALEN), 0);
	/* Between runs the same calls work. */
	ck_assert_int_eq(neigh_delete(&arp_tbl, &key, out), 0);
	ck_assert_int_eq(arp_tbl.entries, entries - 1);
	ck_assert_ptr_null(__ipv4_neigh_lookup(out, key));
	ck_assert_ptr_nonnull(__ipv4_neigh_lookup(out, ip("198.19.0.3")));
	neigh_ifdown(&arp_tbl, out);
	ck_assert_ptr_null(__ipv4_neigh_lookup(out, ip("198.19.0.3")));
}
END_TEST

START_TEST(test_flush_between_runs)
{
	struct netdev_run_opts o = { .workers = 1, .duration_ns = 20000000ULL };
	uint64_t ns;

	ck_assert_int_eq(netdev_run(&o, &ns), 0);
	ck_assert_int_gt(arp_tbl.entries, 0);
	neigh_table_flush(&arp_tbl);
	ck_assert_int_eq(arp_tbl.entries, 0);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("neighbour");
	TCase *tc = tcase_create("run");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_no_removal_during_run);
	tcase_add_test(tc, test_flush_between_runs);
	suite_add_tcase(s, tc);
	return s;
}
