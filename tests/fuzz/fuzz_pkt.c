// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: packet input. The input is one frame as a driver would hand
 * it up. It goes (1) through eth_type_trans() and netif_receive_skb() on a
 * registered device, which must consume it and count it, and (2) through
 * the example XDP parsers (Ethernet, VLAN, IPv4, IPv6, L4 as
 * examples/progs/xdp_parse_v3.c and xdp1.c parse them) by BPF_PROG_TEST_RUN:
 * the verdict must be an XDP action and a run-time violation is counted,
 * never a crash, and (3) into the IPv4/IPv6 stack of a router (st0
 * 198.18.0.1/24 and 2001:2::1/64, st1 198.19.0.1/24 and 2001:2:0:1::1/64,
 * forwarding on, neighbours resolved by ARP/NDP): receive checks,
 * forwarding, ICMP, ARP and neighbour discovery; whatever it sends is
 * freed at once, the neighbour queues are purged after the frame. No skb
 * may be alive after an input.
 *
 * The example objects are looked up in $FUZZ_PROGS_DIR, else in the build
 * directory of examples/progs; without them only (1) runs.
 *
 * Kernel: net/ethernet/eth.c eth_type_trans(), net/core/dev.c
 *	   netif_receive_skb(); net/bpf/test_run.c; net/ipv4, net/ipv6
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/neighbour.h>
#include <net/route.h>
#include <net/xdp.h>
#include <uxdp/uxdp_bpf.h>
#include <uxdp/uxdp_bpf_abort.h>

#include "fuzz.h"

#ifndef UXDP_PROGS_DIR
#define UXDP_PROGS_DIR	"examples/progs"
#endif

static const char *const parser_objs[] = { "xdp_parse_v3.o", "xdp_parse_v2.o", "xdp1.o" };
static struct uxdp_bpf_object *objs[3];
static struct net_device *dev;

static int fuzz_quiet(enum uxdp_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static void fz_setup(struct net_device *d)
{
	d->addr_len = ETH_ALEN;
	memcpy(d->dev_addr, (u8[ETH_ALEN]){ 0x02, 0, 0, 0, 0, 1 }, ETH_ALEN);
	memset(d->broadcast, 0xff, ETH_ALEN);
}

static const struct rtnl_link_ops fz_link_ops = { .kind = "fuzz", .setup = fz_setup };

/* The router's devices: what the stack transmits is freed at once. */
static struct net_device *st[2];

static netdev_tx_t st_xmit(struct sk_buff *skb, struct net_device *d)
{
	consume_skb(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops st_ops = { .ndo_start_xmit = st_xmit };

static void st_setup(struct net_device *d)
{
	fz_setup(d);
	d->netdev_ops = &st_ops;
}

static const struct rtnl_link_ops st_link_ops = { .kind = "fuzzst", .setup = st_setup };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_PROGS_DIR") ?: UXDP_PROGS_DIR;
	char path[4096];
	unsigned int i;

	uxdp_set_print(fuzz_quiet);
	dev = alloc_netdev(&fz_link_ops, "fz0", 1, 1);
	if (IS_ERR(dev) || register_netdevice(dev) || dev_open(dev))
		fuzz_bug("cannot set up the device");
	for (i = 0; i < 2; i++) {
		st[i] = alloc_netdev(&st_link_ops, i ? "st1" : "st0", 1, 1);
		if (IS_ERR(st[i]) || register_netdevice(st[i]) || dev_open(st[i]))
			fuzz_bug("cannot set up the router's devices");
	}
	for (i = 0; i < ARRAY_SIZE(parser_objs); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, parser_objs[i]);
		objs[i] = uxdp_bpf_object_open(path, NULL);
	}
	return 0;
}

void fuzz_cleanup(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(objs); i++)
		uxdp_bpf_object_close(objs[i]);
	unregister_netdevice(dev);
	free_netdev(dev);
	for (i = 0; i < 2; i++) {
		unregister_netdevice(st[i]);
		free_netdev(st[i]);
	}
}

/* (3): the frame into a router's stack, then everything forgotten again. */
static void rx_stack(const uint8_t *data, size_t size)
{
	struct in6_addr a0, a1;
	struct sk_buff *skb;

	if (size < ETH_HLEN)
		return;
	inet_pton(AF_INET6, "2001:2::1", &a0);
	inet_pton(AF_INET6, "2001:2:0:1::1", &a1);
	if (inet_addr_add(st[0]->ifindex, htonl(0xc6120001), 24) ||
	    inet_addr_add(st[1]->ifindex, htonl(0xc6130001), 24) ||
	    inet6_addr_add(st[0]->ifindex, &a0, 64) || inet6_addr_add(st[1]->ifindex, &a1, 64) ||
	    ipv4_sysctl_set("net.ipv4.ip_forward", "1") ||
	    ipv6_sysctl_set("net.ipv6.conf.all.forwarding", "1"))
		fuzz_bug("cannot configure the router");
	skb = netdev_alloc_skb(st[0], size);
	if (skb) {
		skb_put_data(skb, data, size);
		skb->protocol = eth_type_trans(skb, st[0]);
		netif_receive_skb(skb);
	}
	inet6_exit();
	inet_exit();	/* purges the neighbour queues */
}

static void rx_skb(const uint8_t *data, size_t size)
{
	struct sk_buff *skb;
	u64 before[NETDEV_DROP_MAX], after[NETDEV_DROP_MAX];
	struct rtnl_link_stats64 s0, s1;
	unsigned int i;
	u64 drops = 0;
	u16 proto;
	int ret;

	skb = netdev_alloc_skb(dev, size);
	if (!skb)
		return;
	skb_put_data(skb, data, size);
	if (size < ETH_HLEN) {
		/* drivers drop runts before eth_type_trans() */
		kfree_skb_reason(skb, SKB_DROP_REASON_PKT_TOO_SMALL);
		return;
	}
	dev_get_stats(dev, &s0);
	dev_get_drop_stats(dev, before);
	proto = eth_type_trans(skb, dev);
	fuzz_assert(skb->len == size - ETH_HLEN, "len %u of %zu", skb->len, size);
	fuzz_assert(skb_mac_header(skb) + ETH_HLEN == skb->data, "mac header");
	skb->protocol = proto;
	if (eth_proto_is_802_3(eth_hdr(skb)->h_proto))
		fuzz_assert(proto == eth_hdr(skb)->h_proto, "EtherType not returned");
	ret = netif_receive_skb(skb);
	dev_get_stats(dev, &s1);
	dev_get_drop_stats(dev, after);
	for (i = 0; i < NETDEV_DROP_MAX; i++)
		drops += after[i] - before[i];
	/* no protocol handler is registered: every frame is dropped and counted */
	fuzz_assert(ret == NET_RX_DROP, "netif_receive_skb: %d", ret);
	fuzz_assert(drops == 1, "%llu drop counts for one frame", (unsigned long long)drops);
}

static void run_parsers(const uint8_t *data, size_t size)
{
	unsigned int i, p;

	if (size < ETH_HLEN || size > 3000)
		return;
	for (i = 0; i < ARRAY_SIZE(objs); i++) {
		for (p = 0; objs[i] && p < uxdp_bpf_object_prog_cnt(objs[i]); p++) {
			struct uxdp_bpf_test_run_opts o = {
				.sz = sizeof(o), .data_in = data, .data_size_in = size, .repeat = 1,
			};
			struct uxdp_bpf_prog_desc d;
			int err;

			if (uxdp_bpf_object_prog(objs[i], p, &d))
				continue;
			err = uxdp_bpf_prog_test_run(d.id, &o);
			fuzz_assert(!err || err == -ENOMEM, "%s: test run %d", d.name, err);
			fuzz_assert(err || o.retval <= XDP_REDIRECT, "%s: verdict %u", d.name,
				    o.retval);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 9000)
		return 0;
	rx_skb(data, size);
	run_parsers(data, size);
	rx_stack(data, size);
	fuzz_assert(skb_live_count() == 0, "%ld skbs alive after a frame", skb_live_count());
	return 0;
}
