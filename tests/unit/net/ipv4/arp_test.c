// SPDX-License-Identifier: GPL-2.0
/*
 * Neighbour resolution (net/core/neighbour.c + net/ipv4/arp.c), state by
 * state on a frozen clock: a forwarded datagram to an unknown next hop
 * waits INCOMPLETE behind an immediate broadcast request; retries 1 s
 * apart, FAILED after the third with the queue flushed as NEIGH_FAILED
 * and ICMP host unreachable to the sender; the queue bounded by
 * unres_qlen_bytes (oldest out, NEIGH_QUEUEFULL, unres_discards); a reply
 * makes REACHABLE and sends what waited with the learnt MAC; REACHABLE ->
 * STALE after reachable_time when unused; STALE -> DELAY on use (sent with
 * the old MAC) -> PROBE after delay_first_probe_time with unicast probes ->
 * FAILED; a request for us creates a STALE entry; replies within locktime
 * do not override; unsolicited replies create nothing; PERMANENT entries
 * are not changed by ARP; bpf_fib_lookup sees only valid entries; a
 * device unregistered takes its entries and their queues along.
 */
#include <arpa/inet.h>
#include <string.h>
#include <linux/if_arp.h>

#include <linux/bpf.h>
#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <net/dropreason.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/neighbour.h>
#include <net/route.h>

#include "cap_dev.h"

static struct net_device *in, *out;
static const u8 host_a_mac[ETH_ALEN] = { 0x02, 0xaa, 0, 0, 0, 1 };
static const u8 host_b_mac[ETH_ALEN] = { 0x02, 0xbb, 0, 0, 0, 2 };
static const u8 host_b2_mac[ETH_ALEN] = { 0x02, 0xbb, 0, 0, 0, 3 };
static const u8 bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static u64 now;

static u32 ip(const char *s)
{
	struct in_addr a;

	inet_pton(AF_INET, s, &a);
	return a.s_addr;
}

/* Advance the frozen clock by @ms and run what is due, 10 ms at a time. */
static void tick(u64 ms)
{
	for (u64 t = 0; t < ms; t += 10) {
		now += 10;
		jiffies_set_fake(now);
		run_timers();
	}
}

static void setup(void)
{
	now = 1000000;
	jiffies_set_fake(now);
	in = cap_new("in0");
	out = cap_new("out0");
	ck_assert_int_eq(inet_addr_add(in->ifindex, ip("198.18.0.1"), 24), 0);
	ck_assert_int_eq(inet_addr_add(out->ifindex, ip("198.19.0.1"), 24), 0);
	ck_assert_int_eq(neigh_add(ip("198.18.0.2"), in->ifindex, host_a_mac), 0);
	ck_assert_int_eq(ipv4_sysctl_set("net.ipv4.ip_forward", "1"), 0);
	skb_drop_reason_reset();
}

static void teardown(void)
{
	char why[512];

	cap_drain(in);
	cap_drain(out);
	inet_exit();
	netdev_unregister_all();
	jiffies_set_fake(0);
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}

/* A UDP datagram from host A (198.18.0.2) to @daddr, received on in0. */
static void rx_udp(const char *daddr, int payload)
{
	struct sk_buff *skb = netdev_alloc_skb(NULL, 128 + payload);
	struct ethhdr *eth;
	struct iphdr *iph;
	u8 *udp;

	skb_reserve(skb, 2);
	eth = skb_put(skb, ETH_HLEN);
	memcpy(eth->h_dest, in->dev_addr, ETH_ALEN);
	memcpy(eth->h_source, host_a_mac, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	iph = skb_put_zero(skb, sizeof(*iph));
	iph->version = 4;
	iph->ihl = 5;
	iph->tot_len = htons(20 + 8 + payload);
	iph->ttl = 64;
	iph->protocol = IPPROTO_UDP;
	iph->saddr = ip("198.18.0.2");
	iph->daddr = ip(daddr);
	ip_send_check(iph);
	udp = skb_put_zero(skb, 8 + payload);
	udp[1] = 9;
	udp[3] = 9;
	udp[5] = 8 + payload;
	skb->protocol = eth_type_trans(skb, in);
	netif_receive_skb(skb);
}

/* An ARP packet received on @dev, Ethernet destination @eth_dst. */
static void rx_arp(struct net_device *dev, int op, const u8 *sha, const char *sip,
		   const u8 *tha, const char *tip, const u8 *eth_dst)
{
	struct sk_buff *skb = netdev_alloc_skb(NULL, 128);
	struct ethhdr *eth;
	struct arphdr *arp;
	u8 *b;
	u32 a;

	skb_reserve(skb, 2);
	eth = skb_put(skb, ETH_HLEN);
	memcpy(eth->h_dest, eth_dst, ETH_ALEN);
	memcpy(eth->h_source, sha, ETH_ALEN);
	eth->h_proto = htons(ETH_P_ARP);
	arp = skb_put(skb, sizeof(*arp));
	arp->ar_hrd = htons(ARPHRD_ETHER);
	arp->ar_pro = htons(ETH_P_IP);
	arp->ar_hln = 6;
	arp->ar_pln = 4;
	arp->ar_op = htons(op);
	b = skb_put(skb, 20);
	memcpy(b, sha, 6);
	a = ip(sip);
	memcpy(b + 6, &a, 4);
	if (tha)
		memcpy(b + 10, tha, 6);
	else
		memset(b + 10, 0, 6);
	a = ip(tip);
	memcpy(b + 16, &a, 4);
	skb->protocol = eth_type_trans(skb, dev);
	netif_receive_skb(skb);
}

/* Captured frame @i on @dev is an ARP request for @tip to @dst (NULL: broadcast). */
static void assert_request(struct net_device *dev, int i, const char *tip, const u8 *dst)
{
	const struct sk_buff *skb;
	const struct ethhdr *eth;
	const struct arphdr *arp;
	const u8 *b;
	u32 a;

	ck_assert_int_gt(capp(dev)->n, i);
	skb = capp(dev)->skbs[i];
	eth = (const struct ethhdr *)skb->data;
	ck_assert_int_eq(ntohs(eth->h_proto), ETH_P_ARP);
	ck_assert(!memcmp(eth->h_dest, dst ? dst : bcast, ETH_ALEN));
	ck_assert(!memcmp(eth->h_source, dev->dev_addr, ETH_ALEN));
	arp = (const struct arphdr *)(eth + 1);
	ck_assert_int_eq(ntohs(arp->ar_op), ARPOP_REQUEST);
	b = (const u8 *)(arp + 1);
	ck_assert(!memcmp(b, dev->dev_addr, ETH_ALEN));
	memcpy(&a, b + 6, 4);
	ck_assert_uint_eq(a, inet_select_addr(dev->ifindex, 0));
	memcpy(&a, b + 16, 4);
	ck_assert_uint_eq(a, ip(tip));
}

static struct neighbour *nb(const char *addr)
{
	return __ipv4_neigh_lookup(out, ip(addr));
}

static u64 tbl_stat(const char *name)
{
	u64 st[32];

	neigh_stats_get(&arp_tbl, st);
	for (int i = 0; i < neigh_stats_count(); i++)
		if (!strcmp(neigh_stat_name(i), name))
			return st[i];
	ck_abort_msg("no stat %s", name);
	return 0;
}

START_TEST(test_incomplete_then_failed)
{
	struct neighbour *n;

	rx_udp("198.19.0.2", 18);
	n = nb("198.19.0.2");
	ck_assert_ptr_nonnull(n);
	ck_assert_int_eq(n->nud_state, NUD_INCOMPLETE);
	ck_assert_int_eq(capp(out)->n, 1);	/* the immediate request */
	assert_request(out, 0, "198.19.0.2", NULL);
	ck_assert_int_eq(skb_queue_len(&n->arp_queue), 1);
	tick(990);
	ck_assert_int_eq(capp(out)->n, 1);
	tick(20);
	ck_assert_int_eq(capp(out)->n, 2);	/* retrans_time 1 s */
	assert_request(out, 1, "198.19.0.2", NULL);
	tick(1000);
	ck_assert_int_eq(capp(out)->n, 3);
	ck_assert_int_eq(n->nud_state, NUD_INCOMPLETE);
	tick(1000);			/* mcast_solicit 3: no fourth request */
	ck_assert_int_eq(capp(out)->n, 3);
	ck_assert_int_eq(n->nud_state, NUD_FAILED);
	ck_assert_int_eq(skb_queue_len(&n->arp_queue), 0);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_NEIGH_FAILED), 1);
	ck_assert_uint_eq(tbl_stat("res_failed"), 1);
	/* ICMP host unreachable back to A (on in0, A is permanent there). */
	ck_assert_int_eq(capp(in)->n, 1);
	{
		const struct iphdr *iph = (const struct iphdr *)(capp(in)->skbs[0]->data + ETH_HLEN);
		const struct icmphdr *ic = (const struct icmphdr *)(iph + 1);

		ck_assert_int_eq(iph->protocol, IPPROTO_ICMP);
		ck_assert_uint_eq(iph->daddr, ip("198.18.0.2"));
		ck_assert_int_eq(ic->type, ICMP_DEST_UNREACH);
		ck_assert_int_eq(ic->code, ICMP_HOST_UNREACH);
	}
	/* A FAILED entry resolves again when used. */
	rx_udp("198.19.0.2", 18);
	ck_assert_int_eq(n->nud_state, NUD_INCOMPLETE);
	ck_assert_int_eq(capp(out)->n, 4);
}
END_TEST

START_TEST(test_queue_bound)
{
	struct neighbour *n;
	unsigned int truesize, fit;

	ck_assert_int_eq(neigh_sysctl_set(&arp_tbl, "out0.unres_qlen_bytes", "10000"), 0);
	rx_udp("198.19.0.2", 1000);
	n = nb("198.19.0.2");
	truesize = n->arp_queue_len_bytes;
	ck_assert_uint_gt(truesize, 1000);
	fit = 10000 / truesize;
	for (unsigned int i = 1; i < fit + 3; i++)
		rx_udp("198.19.0.2", 1000);
	ck_assert_uint_eq(skb_queue_len(&n->arp_queue), fit);
	ck_assert_uint_le(n->arp_queue_len_bytes, 10000);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_NEIGH_QUEUEFULL), 3);
	ck_assert_uint_eq(tbl_stat("unres_discards"), 3);
	ck_assert_int_eq(capp(out)->n, 1);	/* one request, however many wait */
}
END_TEST

/* A unicast reply from B makes the entry REACHABLE and sends what waited. */
static struct neighbour *resolve_b(void)
{
	struct neighbour *n;

	rx_udp("198.19.0.2", 18);
	rx_udp("198.19.0.2", 19);
	n = nb("198.19.0.2");
	cap_drain(out);
	tick(100);
	rx_arp(out, ARPOP_REPLY, host_b_mac, "198.19.0.2", out->dev_addr, "198.19.0.1", out->dev_addr);
	ck_assert_int_eq(n->nud_state, NUD_REACHABLE);
	ck_assert_int_eq(capp(out)->n, 2);
	for (int i = 0; i < 2; i++) {
		const struct ethhdr *eth = (const struct ethhdr *)capp(out)->skbs[i]->data;
		const struct iphdr *iph = (const struct iphdr *)(eth + 1);

		ck_assert(!memcmp(eth->h_dest, host_b_mac, ETH_ALEN));
		ck_assert(!memcmp(eth->h_source, out->dev_addr, ETH_ALEN));
		ck_assert_int_eq(ntohs(eth->h_proto), ETH_P_IP);
		ck_assert_int_eq(iph->ttl, 63);
		ck_assert_int_eq(ntohs(iph->tot_len), 20 + 8 + 18 + i);	/* in order */
	}
	cap_drain(out);
	return n;
}

START_TEST(test_reply_resolves)
{
	struct neighbour *n = resolve_b();
	struct bpf_fib_lookup p = { .family = AF_INET, .ifindex = in->ifindex };

	p.ipv4_dst = ip("198.19.0.2");
	ck_assert_int_eq(bpf_fib_lookup_hook(NULL, &p, 0), BPF_FIB_LKUP_RET_SUCCESS);
	ck_assert(!memcmp(p.dmac, host_b_mac, ETH_ALEN));
	rx_udp("198.19.0.2", 18);	/* connected: straight out */
	ck_assert_int_eq(capp(out)->n, 1);
	ck_assert_int_eq(n->nud_state, NUD_REACHABLE);
	/* Unresolved entries are not NUD_VALID: NO_NEIGH for bpf_fib_lookup. */
	rx_udp("198.19.0.3", 18);
	p.ifindex = in->ifindex;
	p.ipv4_dst = ip("198.19.0.3");
	ck_assert_int_eq(bpf_fib_lookup_hook(NULL, &p, 0), BPF_FIB_LKUP_RET_NO_NEIGH);
}
END_TEST

START_TEST(test_reachable_stale_delay_probe)
{
	struct neighbour *n;
	u64 reach;

	ck_assert_int_eq(neigh_sysctl_set(&arp_tbl, "out0.base_reachable_time_ms", "10000"), 0);
	reach = neigh_get_parms(&arp_tbl, out)->reachable_time;
	ck_assert_uint_ge(reach, 5000);
	ck_assert_uint_lt(reach, 15000);
	n = resolve_b();
	tick(reach + 100);	/* unused for longer than delay_first_probe_time */
	ck_assert_int_eq(n->nud_state, NUD_STALE);
	ck_assert_int_eq(capp(out)->n, 0);
	/* Used while STALE: DELAY, and the datagram goes with the old MAC. */
	rx_udp("198.19.0.2", 18);
	ck_assert_int_eq(n->nud_state, NUD_DELAY);
	ck_assert_int_eq(capp(out)->n, 1);
	ck_assert(!memcmp(capp(out)->skbs[0]->data, host_b_mac, ETH_ALEN));
	cap_drain(out);
	tick(4900);
	ck_assert_int_eq(n->nud_state, NUD_DELAY);
	tick(200);		/* delay_first_probe_time 5 s: PROBE, unicast */
	ck_assert_int_eq(n->nud_state, NUD_PROBE);
	ck_assert_int_eq(capp(out)->n, 1);
	assert_request(out, 0, "198.19.0.2", host_b_mac);
	tick(2100);
	ck_assert_int_eq(capp(out)->n, 3);	/* ucast_solicit 3 */
	assert_request(out, 2, "198.19.0.2", host_b_mac);
	tick(1000);
	ck_assert_int_eq(n->nud_state, NUD_FAILED);
	ck_assert_int_eq(capp(out)->n, 3);
}
END_TEST

START_TEST(test_delay_confirmed)
{
	struct neighbour *n = resolve_b();

	tick(neigh_get_parms(&arp_tbl, out)->reachable_time + 100);
	ck_assert_int_eq(n->nud_state, NUD_STALE);
	rx_udp("198.19.0.2", 18);
	ck_assert_int_eq(n->nud_state, NUD_DELAY);
	tick(1500);		/* a reply within locktime is taken: same MAC */
	rx_arp(out, ARPOP_REPLY, host_b_mac, "198.19.0.2", out->dev_addr, "198.19.0.1", out->dev_addr);
	ck_assert_int_eq(n->nud_state, NUD_REACHABLE);
	tick(5000);
	ck_assert_int_eq(n->nud_state, NUD_REACHABLE);
	cap_drain(out);
}
END_TEST

START_TEST(test_locktime_and_override)
{
	struct neighbour *n = resolve_b();
	u8 ha[ETH_ALEN];

	/* Another MAC within locktime (1 s) of the update: the first one stays. */
	tick(500);
	rx_arp(out, ARPOP_REPLY, host_b2_mac, "198.19.0.2", out->dev_addr, "198.19.0.1", out->dev_addr);
	neigh_ha_snapshot(ha, n);
	ck_assert(!memcmp(ha, host_b_mac, ETH_ALEN));
	tick(1000);
	rx_arp(out, ARPOP_REPLY, host_b2_mac, "198.19.0.2", out->dev_addr, "198.19.0.1", out->dev_addr);
	neigh_ha_snapshot(ha, n);
	ck_assert(!memcmp(ha, host_b2_mac, ETH_ALEN));
	ck_assert_int_eq(n->nud_state, NUD_REACHABLE);
	/* A broadcast reply does not assert reachability: STALE. */
	tick(1100);
	rx_arp(out, ARPOP_REPLY, host_b_mac, "198.19.0.2", bcast, "198.19.0.1", bcast);
	ck_assert_int_eq(n->nud_state, NUD_STALE);
	neigh_ha_snapshot(ha, n);
	ck_assert(!memcmp(ha, host_b_mac, ETH_ALEN));
}
END_TEST

START_TEST(test_request_learns)
{
	struct neighbour *n;
	const struct ethhdr *eth;

	ck_assert_ptr_null(nb("198.19.0.7"));
	rx_arp(out, ARPOP_REQUEST, host_b_mac, "198.19.0.7", NULL, "198.19.0.1", bcast);
	n = nb("198.19.0.7");
	ck_assert_ptr_nonnull(n);
	ck_assert_int_eq(n->nud_state, NUD_STALE);
	ck_assert_int_eq(capp(out)->n, 1);	/* the reply */
	eth = (const struct ethhdr *)capp(out)->skbs[0]->data;
	ck_assert(!memcmp(eth->h_dest, host_b_mac, ETH_ALEN));
	ck_assert_int_eq(ntohs(((const struct arphdr *)(eth + 1))->ar_op), ARPOP_REPLY);
	/* Requests for others, and unsolicited replies, create nothing. */
	rx_arp(out, ARPOP_REQUEST, host_b_mac, "198.19.0.8", NULL, "198.19.0.9", bcast);
	rx_arp(out, ARPOP_REPLY, host_b_mac, "198.19.0.10", out->dev_addr, "198.19.0.1", out->dev_addr);
	ck_assert_ptr_null(nb("198.19.0.8"));
	ck_assert_ptr_null(nb("198.19.0.10"));
	ck_assert_int_eq(capp(out)->n, 1);
	ck_assert_uint_eq(tbl_stat("rx_consumed"), 2);
	/* A short ARP packet: PKT_TOO_SMALL. */
	{
		struct sk_buff *skb = netdev_alloc_skb(NULL, 64);
		struct ethhdr *e = skb_put(skb, ETH_HLEN + 10);

		memcpy(e->h_dest, bcast, ETH_ALEN);
		memcpy(e->h_source, host_b_mac, ETH_ALEN);
		e->h_proto = htons(ETH_P_ARP);
		skb->protocol = eth_type_trans(skb, out);
		netif_receive_skb(skb);
		ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_PKT_TOO_SMALL), 1);
	}
}
END_TEST

START_TEST(test_permanent_kept)
{
	struct neighbour *n = __ipv4_neigh_lookup(in, ip("198.18.0.2"));
	u8 ha[ETH_ALEN];

	ck_assert_ptr_nonnull(n);
	ck_assert_int_eq(n->nud_state, NUD_PERMANENT);
	tick(1500);
	rx_arp(in, ARPOP_REPLY, host_b_mac, "198.18.0.2", in->dev_addr, "198.18.0.1", in->dev_addr);
	rx_arp(in, ARPOP_REQUEST, host_b_mac, "198.18.0.2", NULL, "198.18.0.1", bcast);
	ck_assert_int_eq(n->nud_state, NUD_PERMANENT);
	neigh_ha_snapshot(ha, n);
	ck_assert(!memcmp(ha, host_a_mac, ETH_ALEN));
	ck_assert_int_eq(capp(in)->n, 1);	/* the request still answered */
	tick(120000);
	ck_assert_int_eq(n->nud_state, NUD_PERMANENT);
}
END_TEST

START_TEST(test_device_gone)
{
	int entries;

	rx_udp("198.19.0.2", 18);
	entries = arp_tbl.entries;
	ck_assert_ptr_nonnull(nb("198.19.0.2"));
	cap_drain(out);
	/* NETDEV_UNREGISTER: out0's entries and what waits in them go. */
	unregister_netdevice(out);
	ck_assert_int_eq(arp_tbl.entries, entries - 1);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_NEIGH_DEAD), 1);
	ck_assert_int_eq(register_netdevice(out), 0);
	dev_open(out);
	ck_assert_ptr_null(nb("198.19.0.2"));
	ck_assert_ptr_nonnull(__ipv4_neigh_lookup(in, ip("198.18.0.2")));
}
END_TEST

START_TEST(test_gratuitous)
{
	arp_send_gratuitous(out);
	ck_assert_int_eq(capp(out)->n, 1);
	assert_request(out, 0, "198.19.0.1", NULL);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("arp");
	TCase *tc = tcase_create("neigh");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_incomplete_then_failed);
	tcase_add_test(tc, test_queue_bound);
	tcase_add_test(tc, test_reply_resolves);
	tcase_add_test(tc, test_reachable_stale_delay_probe);
	tcase_add_test(tc, test_delay_confirmed);
	tcase_add_test(tc, test_locktime_and_override);
	tcase_add_test(tc, test_request_learns);
	tcase_add_test(tc, test_permanent_kept);
	tcase_add_test(tc, test_device_gone);
	tcase_add_test(tc, test_gratuitous);
	suite_add_tcase(s, tc);
	return s;
}
