// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: every DSA tagger's rcv. One switch per tagger (4 front
 * ports, switch index 0) is set up once; the first input byte picks the
 * tagger, the second how the frame arrives (bit 0: the skb is a clone, so
 * dsa_switch_rcv() must unshare it; bit 1: the bytes after the first
 * (byte 2 bits 0-6) + 14 sit in a page frag, so the tagger has to pull
 * them), the rest is the frame as the conduit receives it, tag included.
 * It goes the conduit's way in (eth_type_trans(), ETH_P_XDSA,
 * netif_receive_skb() -> dsa_switch_rcv() -> the tagger's rcv -> the user
 * port's netif_receive_skb()), and must be accounted for exactly once:
 * either one per-switch drop reason or one received frame on exactly one
 * user port, whose length is the input's minus at most the tag's bytes.
 * No skb or page may be alive after an input.
 *
 * Kernel: net/dsa/tag.c dsa_switch_rcv(); net/dsa/tag_*.c *_rcv()
 */
#include <arpa/inet.h>
#include <string.h>

#include <linux/etherdevice.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dsa.h>
#include <uxdp/uxdp_bpf.h>
#include <uxdp/uxdp_link.h>

#include "fuzz.h"

#define FZ_PORTS	4
#define FZ_MAX_FRAME	9000

static const struct dsa_device_ops *const taggers[] = {
#define __TAGGER(stem, proto, value) &stem##_netdev_ops,
	DSA_TAGGERS(__TAGGER)
#undef __TAGGER
};
#define NR_TAGGERS	(sizeof(taggers) / sizeof(taggers[0]))

static struct dsa_switch *sw[NR_TAGGERS];

static int fuzz_quiet(enum uxdp_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char name[IFNAMSIZ], conduit[IFNAMSIZ], user[IFNAMSIZ], err[256];

	uxdp_set_print(fuzz_quiet);
	for (unsigned int t = 0; t < NR_TAGGERS; t++) {
		char *args[] = { "ports", "4", "tag", (char *)taggers[t]->name, "conduit", conduit,
				 "user", user };

		snprintf(name, sizeof(name), "fs%u", t);
		snprintf(conduit, sizeof(conduit), "fc%u", t);
		snprintf(user, sizeof(user), "fu%up", t);
		if (uxdp_link_add(name, "dsa-switch", 8, args, err, sizeof(err)) < 0)
			fuzz_bug("dsa-switch tag %s: %s", taggers[t]->name, err);
		sw[t] = netdev_priv(dev_get_by_name(name));
	}
	return 0;
}

void fuzz_cleanup(void)
{
	uxdp_link_del_all();
}

static u64 sw_drops(const struct dsa_switch *ds)
{
	u64 n = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		for (int r = 0; r < DSA_DROP_MAX; r++)
			n += ds->drops[cpu][r];
	return n;
}

static void user_rx(const struct dsa_switch *ds, u64 *pkts, u64 *bytes)
{
	for (int i = 0; i < FZ_PORTS; i++) {
		struct rtnl_link_stats64 s;

		dev_get_stats(ds->ports[i].user, &s);
		pkts[i] = s.rx_packets;
		bytes[i] = s.rx_bytes;
	}
}

/* The frame in an skb on @conduit: linear, or its tail in a page frag. */
static struct sk_buff *fz_skb(struct net_device *conduit, const u8 *data, size_t len,
			      size_t headlen)
{
	struct sk_buff *skb = netdev_alloc_skb(conduit, len + 64);
	struct page *page;

	if (!skb)
		return NULL;
	if (headlen >= len) {
		skb_put_data(skb, data, len);
		return skb;
	}
	page = alloc_pages(GFP_ATOMIC, 0);
	if (!page) {
		kfree_skb(skb);
		return NULL;
	}
	skb_put_data(skb, data, headlen);
	memcpy(page_address(page), data + headlen, len - headlen);
	skb_add_rx_frag(skb, 0, page, 0, len - headlen, PAGE_SIZE);
	return skb;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u64 pkts0[FZ_PORTS], bytes0[FZ_PORTS], pkts1[FZ_PORTS], bytes1[FZ_PORTS], got = 0;
	struct sk_buff *skb, *clone = NULL;
	struct net_device *conduit;
	struct dsa_switch *ds;
	u64 drops0;
	u8 how, split;
	size_t len;

	if (size < 3)
		return 0;
	ds = sw[data[0] % NR_TAGGERS];
	how = data[1];
	split = data[2] & 0x7f;
	data += 3;
	size -= 3;
	len = size > FZ_MAX_FRAME ? FZ_MAX_FRAME : size;
	/* drivers drop runts before eth_type_trans() */
	if (len < ETH_HLEN)
		return 0;
	conduit = ds->conduit;
	skb = fz_skb(conduit, data, len, (how & 2) ? ETH_HLEN + split : len);
	if (!skb)
		return 0;
	if (how & 1) {
		clone = skb_clone(skb, GFP_ATOMIC);
		if (!clone) {
			kfree_skb(skb);
			return 0;
		}
	}
	drops0 = sw_drops(ds);
	user_rx(ds, pkts0, bytes0);
	/* conduit_rx(): netdev_uses_dsa(), every frame goes to dsa_switch_rcv() */
	eth_type_trans(skb, conduit);
	skb->protocol = htons(ETH_P_XDSA);
	netif_receive_skb(skb);
	user_rx(ds, pkts1, bytes1);
	for (int i = 0; i < FZ_PORTS; i++) {
		u64 n = pkts1[i] - pkts0[i];

		got += n;
		if (n) {
			u64 b = bytes1[i] - bytes0[i];
			unsigned int tag = ds->tag_ops->needed_headroom + ds->tag_ops->needed_tailroom;

			fuzz_assert(b <= len && b + tag >= len,
				    "%s: %zu bytes in, %llu bytes on the user port", ds->tag_ops->name,
				    len, (unsigned long long)b);
		}
	}
	got += sw_drops(ds) - drops0;
	fuzz_assert(got == 1, "%s: frame accounted for %llu times", ds->tag_ops->name,
		    (unsigned long long)got);
	if (clone) {
		/* the original's bytes are untouched by the receive path */
		static u8 buf[FZ_MAX_FRAME];

		fuzz_assert(clone->len == len && !skb_copy_bits(clone, 0, buf, len) &&
			    !memcmp(buf, data, len), "%s: rcv wrote into a shared skb",
			    ds->tag_ops->name);
		kfree_skb(clone);
	}
	fuzz_assert(skb_live_count() == 0, "%ld skbs alive", skb_live_count());
	return 0;
}
