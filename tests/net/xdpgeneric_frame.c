// SPDX-License-Identifier: GPL-2.0
/*
 * xdpgeneric_frame OBJ PROG HEX: run one linear frame (HEX, from the MAC
 * header, 256 B of headroom as a kernel rx skb after expansion) through
 * uxdp's generic XDP hook on a device with program PROG of OBJ
 * attached as xdpgeneric, and print "TX <hex>" (the frame generic_xdp_tx
 * handed the driver), "PASS <hex>" (from the MAC header) or "DROP".
 * tests/net/xdpgeneric_oracle.sh compares it with the kernel's.
 *
 * Kernel: net/core/dev.c do_xdp_generic() (the oracle for it)
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/rtnetlink.h>
#include <net/xdp_generic.h>
#include <uxdp/uxdp_bpf.h>

static struct sk_buff *out;
static const char *verdict = "DROP";

static netdev_tx_t fr_xmit(struct sk_buff *skb, struct net_device *dev)
{
	out = skb;
	verdict = "TX";
	return NETDEV_TX_OK;
}

static int fr_rcv(struct sk_buff *skb, struct net_device *dev)
{
	out = skb;
	verdict = "PASS";
	return NET_RX_SUCCESS;
}

static const struct net_device_ops fr_ops = { .ndo_start_xmit = fr_xmit };
static void fr_setup(struct net_device *dev) { dev->netdev_ops = &fr_ops; }
static const struct rtnl_link_ops fr_link_ops = { .kind = "frame", .setup = fr_setup };
static struct packet_type fr_pt = { .type = 0, .func = fr_rcv };

int main(int argc, char **argv)
{
	static unsigned char frame[9000];
	struct uxdp_bpf_object *obj;
	struct net_device *dev;
	struct sk_buff *skb;
	char err[256] = "";
	size_t len, i;
	int id;

	if (argc != 4 || strlen(argv[3]) % 2 || strlen(argv[3]) / 2 > sizeof(frame) ||
	    strlen(argv[3]) < 2 * ETH_HLEN) {
		fprintf(stderr, "usage: %s OBJ PROG HEX\n", argv[0]);
		return 2;
	}
	len = strlen(argv[3]) / 2;
	for (i = 0; i < len; i++) {
		unsigned int b;

		if (sscanf(argv[3] + 2 * i, "%2x", &b) != 1)
			return 2;
		frame[i] = (unsigned char)b;
	}
	obj = uxdp_bpf_object_open(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "cannot open %s\n", argv[1]);
		return 1;
	}
	id = uxdp_bpf_object_find_prog(obj, argv[2], NULL);
	dev = alloc_netdev(&fr_link_ops, "xg0", 1, 1);
	if (id <= 0 || IS_ERR(dev) || register_netdevice(dev)) {
		fprintf(stderr, "no program %s\n", argv[2]);
		return 1;
	}
	dev_open(dev);
	/* the kernel side's veth has the frame's destination MAC */
	memcpy(dev->dev_addr, frame, ETH_ALEN);
	if (dev_xdp_generic_attach(dev, bpf_prog_get(id), err, sizeof(err))) {
		fprintf(stderr, "attach: %s\n", err);
		return 1;
	}
	skb = alloc_skb(256 + len + 64, GFP_KERNEL);
	skb_reserve(skb, 256);
	skb_put_data(skb, frame, len);
	skb->protocol = eth_type_trans(skb, dev);
	fr_pt.type = skb->protocol;
	dev_add_pack(&fr_pt);
	netif_receive_skb(skb);
	printf("%s", verdict);
	if (out) {
		int mac_off = strcmp(verdict, "PASS") ? 0 : (int)(skb_mac_header(out) - out->data);
		unsigned char *buf = malloc(out->len - mac_off);

		skb_copy_bits(out, mac_off, buf, out->len - mac_off);
		printf(" ");
		for (i = 0; i < out->len - (size_t)mac_off; i++)
			printf("%02x", buf[i]);
		free(buf);
		kfree_skb(out);
	}
	printf("\n");
	dev_remove_pack(&fr_pt);
	netdev_unregister_all();
	uxdp_bpf_object_close(obj);
	xdp_generic_cleanup();
	return 0;
}
