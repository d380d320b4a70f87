// SPDX-License-Identifier: GPL-2.0
/*
 * uxdp-bench generic: the xdpgeneric-linearize experiment (seed patch 3,
 * linux-semantics.md C.6 / H.3) as a micro-benchmark. Header-split skbs
 * (128 B linear, the payload in page frags, as a NIC with header split or
 * GRO gives them) of 1500 B and 64 KiB (17 frags) go through
 * netif_receive_skb() into a device with a generic XDP program that reads
 * the headers and passes (examples/progs/xdp_generic.o):
 *   linearize=1  xdp_generic_hdr, xdpgeneric_linearize 1 (the kernel)
 *   linearize=0  xdp_generic_hdr, xdpgeneric_linearize 0 (the seed patch)
 *   xdp.frags    xdp_generic_hdr_frags, 6.9+: copy into page-pool frags
 * The hook samples its latency (TSC, probe cost subtracted): p50/p90/p99
 * of the whole hook, of the program's own run and of the copy block. The
 * same bytes are then copied with a plain memcpy in the same run, so the
 * copy's bytes/ns stands next to memcpy's.
 *
 * Kernel: net/core/dev.c netif_receive_generic_xdp() (what is measured)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <lib/hist.h>
#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/rtnetlink.h>
#include <net/xdp_generic.h>
#include <uxdp/uxdp_bpf.h>

#include "bench.h"

#define HDR_LEN		128
#define MAX_FRAGS	17

struct gmode {
	const char *name;
	const char *prog;
	int linearize;
};

static const struct gmode gmodes[] = {
	{ "linearize=1", "xdp_generic_hdr", 1 },
	{ "linearize=0", "xdp_generic_hdr", 0 },
	{ "xdp.frags", "xdp_generic_hdr_frags", 1 },
};

static const unsigned int gsizes[] = { 1500, 65536 };

struct gresult {
	u64 hook[3], prog[3], copy[3];	/* p50, p90, p99 ns */
	u64 copies;
	double copy_bpns, memcpy_bpns;
};

static u8 tmpl[65536];
static struct page *frag_pages[MAX_FRAGS];
static volatile u64 sink_cnt;

static int bench_rcv(struct sk_buff *skb, struct net_device *dev)
{
	sink_cnt++;
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

static struct packet_type bench_pt = { .func = bench_rcv };
static const struct rtnl_link_ops bench_link_ops = { .kind = "bench" };

static void build_tmpl(struct net_device *dev, unsigned int size)
{
	memset(tmpl, 0x5a, size);
	memcpy(tmpl, dev->dev_addr, ETH_ALEN);
	memcpy(tmpl + 6, "\x02\x00\x00\x00\x00\x09", ETH_ALEN);
	tmpl[12] = 0x08;
	tmpl[13] = 0x00;
	tmpl[14] = 0x45;		/* IPv4, IHL 5 */
	tmpl[14 + 9] = 6;		/* TCP */
	tmpl[34 + 2] = 0x00;		/* dport 80 */
	tmpl[34 + 3] = 80;
	for (unsigned int i = 0; i < MAX_FRAGS; i++)
		memcpy(page_address(frag_pages[i]), tmpl + HDR_LEN, PAGE_SIZE);
}

/* A header-split skb as a driver hands it over; frags are shared pages. */
static struct sk_buff *mk_skb(struct net_device *dev, unsigned int size)
{
	unsigned int payload = size - HDR_LEN, nfrags = (payload + PAGE_SIZE - 1) / PAGE_SIZE;
	struct sk_buff *skb;

	if (size == 65536)
		nfrags = MAX_FRAGS;	/* GRO: 17 frags */
	skb = alloc_skb(256 + HDR_LEN, GFP_KERNEL);
	if (!skb)
		return NULL;
	skb_reserve(skb, 256);
	skb_put_data(skb, tmpl, HDR_LEN);
	for (unsigned int i = 0, off = 0; i < nfrags; i++) {
		unsigned int flen = i + 1 == nfrags ? payload - off : payload / nfrags;

		get_page(frag_pages[i]);
		skb_add_rx_frag(skb, i, frag_pages[i], 0, flen, PAGE_SIZE);
		off += flen;
	}
	skb->protocol = eth_type_trans(skb, dev);
	return skb;
}

static void pcts(const struct hist *h, u64 out[3])
{
	out[0] = hist_percentile(h, 50);
	out[1] = hist_percentile(h, 90);
	out[2] = hist_percentile(h, 99);
}

static double memcpy_bpns(unsigned int size, unsigned int pkts)
{
	static u8 dst[65536 + 64];
	double v[5];

	for (int r = 0; r < 5; r++) {
		u64 t0 = bench_now_ns();

		for (unsigned int i = 0; i < pkts; i++) {
			memcpy(dst, tmpl, size);
			__asm__ volatile("" : : "r"(dst) : "memory");
		}
		v[r] = (double)size * pkts / (double)(bench_now_ns() - t0);
	}
	return bench_median(v, 5);
}

static int run_one(struct net_device *dev, struct uxdp_bpf_object *obj, const struct gmode *m,
		   unsigned int size, unsigned int pkts, struct gresult *res)
{
	int id = uxdp_bpf_object_find_prog(obj, m->prog, NULL);
	struct hist *h = malloc(sizeof(*h));
	char err[256] = "";
	int ret;

	if (id < 0 || !h) {
		free(h);
		return -ENOENT;
	}
	ret = dev_xdp_generic_attach(dev, bpf_prog_get(id), err, sizeof(err));
	if (ret) {
		fprintf(stderr, "attach %s: %s\n", m->prog, err);
		free(h);
		return ret;
	}
	dev->xdpgeneric_linearize = m->linearize;
	build_tmpl(dev, size);
	/* warm up, then sample */
	for (unsigned int i = 0; i < pkts / 10; i++) {
		struct sk_buff *skb = mk_skb(dev, size);

		if (skb)
			netif_receive_skb(skb);
	}
	ret = xdp_generic_latency_enable(true);
	if (ret)
		goto out;
	xdp_generic_latency_reset();
	for (unsigned int i = 0; i < pkts; i++) {
		struct sk_buff *skb = mk_skb(dev, size);

		if (skb)
			netif_receive_skb(skb);
	}
	xdp_generic_latency_enable(false);
	xdp_generic_latency_get(XDP_GENERIC_LAT_HOOK, h);
	pcts(h, res->hook);
	xdp_generic_latency_get(XDP_GENERIC_LAT_PROG, h);
	pcts(h, res->prog);
	xdp_generic_latency_get(XDP_GENERIC_LAT_COPY, h);
	pcts(h, res->copy);
	res->copies = h->count;
	res->copy_bpns = h->count && res->copy[0] ? (double)size / (double)res->copy[0] : 0;
	res->memcpy_bpns = memcpy_bpns(size, pkts / 10 ? pkts / 10 : 1);
out:
	dev_xdp_generic_attach(dev, NULL, NULL, 0);
	free(h);
	return ret;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: uxdp-bench generic [--packets N] [--json FILE] [PROGS_DIR]\n"
		   "  Generic XDP hook latency for linearize=1, linearize=0 and xdp.frags\n"
		   "  at 1500 B and 64 KiB (header split: 128 B linear + page frags),\n"
		   "  and the copy's bytes/ns next to memcpy of the same bytes.\n");
}

int bench_generic_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "packets", required_argument, NULL, 'n' },
		{ "json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *dir = UXDP_PROGS_DIR, *json = NULL;
	struct gresult res[2][3] = {};
	unsigned int pkts = 200000;
	struct uxdp_bpf_object *obj;
	struct net_device *dev;
	char path[512];
	FILE *jf;
	int c;

	while ((c = getopt_long(argc, argv, "n:j:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			pkts = strtoul(optarg, NULL, 0);
			break;
		case 'j':
			json = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc)
		dir = argv[optind];
	if (!pkts)
		pkts = 1;
	snprintf(path, sizeof(path), "%s/xdp_generic.o", dir);
	obj = uxdp_bpf_object_open(path, NULL);
	if (!obj) {
		fprintf(stderr, "cannot open %s\n", path);
		return 1;
	}
	for (int i = 0; i < MAX_FRAGS; i++) {
		frag_pages[i] = alloc_page(GFP_KERNEL);
		if (!frag_pages[i])
			return 1;
	}
	dev = alloc_netdev(&bench_link_ops, "bg0", 1, 1);
	if (IS_ERR(dev) || register_netdevice(dev))
		return 1;
	dev_open(dev);
	bench_pt.type = htons(ETH_P_IP);
	dev_add_pack(&bench_pt);

	printf("generic XDP hook, header-split skbs (%u B linear), %u packets per case; ns "
	       "(TSC %.3f ns/tick, probe cost subtracted)\n", HDR_LEN, pkts, xdp_generic_tsc_ns());
	printf("%-7s %-12s %17s %17s %17s %9s | %12s %12s %6s\n", "size", "mode",
	       "hook p50/p90/p99", "prog p50/p90/p99", "copy p50/p90/p99", "hook-prog",
	       "copy B/ns", "memcpy B/ns", "ratio");
	for (int s = 0; s < 2; s++) {
		for (int m = 0; m < 3; m++) {
			struct gresult *r = &res[s][m];

			if (run_one(dev, obj, &gmodes[m], gsizes[s], gsizes[s] > 2000 ? pkts / 10 : pkts,
				    r))
				return 1;
			printf("%-7u %-12s %5llu/%5llu/%5llu %5llu/%5llu/%5llu %5llu/%5llu/%5llu %9lld | ",
			       gsizes[s], gmodes[m].name, (unsigned long long)r->hook[0],
			       (unsigned long long)r->hook[1], (unsigned long long)r->hook[2],
			       (unsigned long long)r->prog[0], (unsigned long long)r->prog[1],
			       (unsigned long long)r->prog[2], (unsigned long long)r->copy[0],
			       (unsigned long long)r->copy[1], (unsigned long long)r->copy[2],
			       (long long)r->hook[0] - (long long)r->prog[0]);
			if (r->copies)
				printf("%12.1f %12.1f %6.2f\n", r->copy_bpns, r->memcpy_bpns,
				       r->copy_bpns > 0 ? r->memcpy_bpns / r->copy_bpns : 0);
			else
				printf("%12s %12.1f %6s\n", "-", r->memcpy_bpns, "-");
		}
	}
	printf("ratio = copy time / memcpy time of the same bytes (target <= 1.2); "
	       "hook-prog for linearize=0 is the hook's own cost (target <= 20 ns)\n");
	if (json) {
		jf = fopen(json, "w");
		if (!jf)
			return 1;
		fprintf(jf, "{\"bench\":\"generic\",\"packets\":%u,\"cases\":[", pkts);
		for (int s = 0; s < 2; s++)
			for (int m = 0; m < 3; m++) {
				struct gresult *r = &res[s][m];

				fprintf(jf, "%s{\"size\":%u,\"mode\":\"%s\",\"latency_ns\":{"
					"\"hook\":{\"p50\":%llu,\"p90\":%llu,\"p99\":%llu},"
					"\"prog\":{\"p50\":%llu,\"p90\":%llu,\"p99\":%llu},"
					"\"copy\":{\"p50\":%llu,\"p90\":%llu,\"p99\":%llu}},"
					"\"copies\":%llu,\"copy_bytes_per_ns\":%.2f,"
					"\"memcpy_bytes_per_ns\":%.2f}",
					s || m ? "," : "", gsizes[s], gmodes[m].name,
					(unsigned long long)r->hook[0], (unsigned long long)r->hook[1],
					(unsigned long long)r->hook[2], (unsigned long long)r->prog[0],
					(unsigned long long)r->prog[1], (unsigned long long)r->prog[2],
					(unsigned long long)r->copy[0], (unsigned long long)r->copy[1],
					(unsigned long long)r->copy[2], (unsigned long long)r->copies,
					r->copy_bpns, r->memcpy_bpns);
			}
		fprintf(jf, "]}\n");
		fclose(jf);
	}
	dev_remove_pack(&bench_pt);
	netdev_unregister_all();
	for (int i = 0; i < MAX_FRAGS; i++)
		put_page(frag_pages[i]);
	uxdp_bpf_object_close(obj);
	xdp_generic_cleanup();
	return 0;
}
