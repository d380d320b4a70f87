// SPDX-License-Identifier: GPL-2.0
/*
 * uxdp-bench generic: the xdpgeneric-linearize experiment (the 2020 patch,
 * Documentation/architecture.rst) as a micro-benchmark. Header-split skbs
 * (128 B linear, the payload in page frags, as a NIC with header split or
 * GRO gives them; built from page-pool pages exactly as gen builds them,
 * and recycled as in gen's NAPI poll) of 1500 B and 64 KiB (17 frags) go through
 * netif_receive_skb() into a device with a generic XDP program that reads
 * the headers and passes (examples/progs/xdp_generic.o):
 *   linearize=1  xdp_generic_hdr, xdpgeneric_linearize 1 (the kernel)
 *   linearize=0  xdp_generic_hdr, xdpgeneric_linearize 0 (the patch)
 *   xdp.frags    xdp_generic_hdr_frags, 6.9+: copy into page-pool frags
 * The hook samples its latency (TSC, probe cost subtracted): p50/p90/p99
 * of the whole hook, of the program's own run and of the copy block. A
 * second table times the kernel's linearisation (pskb_expand_head +
 * skb_linearize, as the hook runs them) against memcpy of exactly the bytes
 * it copies and of the packet's bytes alone, from the same head and frag
 * pages into fresh kmalloc() buffers of the same size class, in interleaved
 * batches (linearize_vs_memcpy()).
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
#include <linux/slab.h>
#include <net/page_pool/helpers.h>
#include <net/rtnetlink.h>
#include <net/xdp.h>
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
	double copy_bpns;
};

static u8 tmpl[65536];
/*
 * The skbs come as gen's do: page-pool pages (head and frags), built by
 * xdp_build_skb_from_buff() for this rx queue, freed inside the NAPI that
 * owns the pool (bench_napi is on this worker's poll list and the timed
 * parts run as its poll would, in softirq), so pages recycle directly.
 */
static struct page_pool *bench_pool;
static struct napi_struct bench_napi;
static struct xdp_rxq_info bench_rxq;
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
}

/*
 * A header-split skb as gen hands it to the stack (gen_fill() + gen_pass()):
 * HDR_LEN bytes after XDP_PACKET_HEADROOM in a pool page, the payload in
 * pool-page frags (17 for 64 KiB, as GRO), recycled on free.
 */
static struct sk_buff *mk_skb(struct net_device *dev, unsigned int size)
{
	unsigned int payload = size - HDR_LEN, nfrags = (payload + PAGE_SIZE - 1) / PAGE_SIZE;
	struct skb_shared_info *sinfo;
	struct sk_buff *skb;
	struct xdp_buff xdp;
	struct page *page;

	if (size == 65536)
		nfrags = MAX_FRAGS;	/* GRO: 17 frags */
	page = page_pool_dev_alloc_pages(bench_pool);
	if (!page)
		return NULL;
	memcpy((u8 *)page_address(page) + XDP_PACKET_HEADROOM, tmpl, HDR_LEN);
	xdp_init_buff(&xdp, PAGE_SIZE, &bench_rxq);
	xdp_prepare_buff(&xdp, page_address(page), XDP_PACKET_HEADROOM, HDR_LEN, true);
	sinfo = (struct skb_shared_info *)__xdp_buff_hard_end(&xdp);
	sinfo->nr_frags = 0;
	sinfo->xdp_frags_size = 0;
	for (unsigned int i = 0, off = 0; i < nfrags; i++) {
		unsigned int flen = i + 1 == nfrags ? payload - off : payload / nfrags;
		struct page *fp = page_pool_dev_alloc_pages(bench_pool);

		if (!fp) {
			xdp_buff_set_frags_flag(&xdp);
			xdp_return_buff(&xdp);
			return NULL;
		}
		memcpy(page_address(fp), tmpl + HDR_LEN + off, flen);
		skb_frag_fill_page_desc(&sinfo->frags[i], fp, 0, flen);
		sinfo->nr_frags++;
		sinfo->xdp_frags_size += flen;
		off += flen;
	}
	sinfo->xdp_frags_truesize = nfrags * PAGE_SIZE;
	xdp_buff_set_frags_flag(&xdp);
	skb = xdp_build_skb_from_buff(&xdp);
	if (!skb)
		xdp_return_buff(&xdp);
	return skb;
}

static int bench_poll(struct napi_struct *napi, int budget)
{
	return 0;
}

/*
 * gen's rx queue: a page pool tied to a NAPI on this worker's poll list;
 * everything after this runs as that NAPI's poll does (in softirq).
 */
static int bench_rx_queue(struct net_device *dev)
{
	struct page_pool_params pp = {
		.order = 0,
		.pool_size = 2048,
		.netdev = dev,
		.napi = &bench_napi,
	};

	bench_pool = page_pool_create(&pp);
	if (IS_ERR(bench_pool))
		return PTR_ERR(bench_pool);
	netif_napi_add(dev, &bench_napi, bench_poll);
	if (xdp_rxq_info_reg(&bench_rxq, dev, 0, 0) ||
	    xdp_rxq_info_reg_mem_model(&bench_rxq, MEM_TYPE_PAGE_POOL, bench_pool))
		return -ENOMEM;
	WRITE_ONCE(bench_napi.list_owner, smp_processor_id());
	uxdp_softirq_count++;
	return 0;
}

static void pcts(const struct hist *h, u64 out[3])
{
	out[0] = hist_percentile(h, 50);
	out[1] = hist_percentile(h, 90);
	out[2] = hist_percentile(h, 99);
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
out:
	dev_xdp_generic_attach(dev, NULL, NULL, 0);
	free(h);
	return ret;
}

/* ---- linearise vs memcpy of the same bytes ------------------------------ */

struct lin_cmp {
	double lin, expand, pull;	/* p50 ns: expand + linearize, and its two steps */
	double mc;			/* p50 ns: memcpy of the packet's bytes */
	double mc_same;			/* p50 ns: memcpy of every byte the linearise copies */
	double ratio;			/* p50 over batches of lin / mc_same in the same batch */
	unsigned int bytes, alloc;	/* packet bytes; size of the new head's kmalloc */
	unsigned int copied;		/* bytes the linearise copies (head from skb->head, shinfo, frags) */
};

static inline u64 tsc(void)
{
	u64 t;

	__asm__ volatile("" ::: "memory");
	t = __builtin_ia32_rdtsc();
	__asm__ volatile("" ::: "memory");
	return t;
}

/* The hook's skb at the point it linearises: MAC header pushed back. */
static struct sk_buff *hook_skb(struct net_device *dev, unsigned int size, int *hroom, int *troom)
{
	struct sk_buff *skb = mk_skb(dev, size);

	if (!skb)
		return NULL;
	__skb_push(skb, skb->data - skb_mac_header(skb));
	*hroom = XDP_PACKET_HEADROOM - (int)skb_headroom(skb);
	*troom = (int)(skb->tail + skb->data_len) - (int)skb->end;
	*hroom = *hroom > 0 ? ALIGN(*hroom, NET_SKB_PAD) : 0;
	*troom = *troom > 0 ? *troom + 128 : 0;
	return skb;
}

#define LIN_BATCH	32

static int hook_batch(struct net_device *dev, unsigned int size, struct sk_buff **skbs,
		      int *hroom, int *troom)
{
	for (int j = 0; j < LIN_BATCH; j++) {
		skbs[j] = hook_skb(dev, size, hroom, troom);
		if (!skbs[j]) {
			while (j--)
				kfree_skb(skbs[j]);
			return -ENOMEM;
		}
	}
	return 0;
}

static void consume_batch(struct sk_buff **skbs)
{
	for (int j = 0; j < LIN_BATCH; j++)
		consume_skb(skbs[j]);
}

/*
 * Batches of LIN_BATCH skbs built outside the timed part, timed as a whole
 * (the TSC steps ~10 ns on this VM: too coarse for one 1500 B copy), the
 * kinds interleaved batch by batch; per kind the median over batches of
 * ns per skb:
 *  - lin: the kernel's path, pskb_expand_head(skb, hroom, troom) then
 *    skb_linearize() per skb, as netif_skb_check_for_xdp() runs them;
 *  - expand / pull: the same two steps, all expands of a batch then all
 *    pulls (where the time goes);
 *  - mc: the baseline, memcpy of the packet's bytes (the linear head, then
 *    each frag from its page: the same source layout) into fresh kmalloc()
 *    buffers of the size class the kernel's path allocates (allocated and
 *    freed outside the timed part);
 *  - mc_same: memcpy of exactly the bytes the kernel's path copies, in its
 *    order and to the same offsets: the head from skb->head to tail
 *    (headroom included) and skb_shared_info up to the frags in use
 *    (pskb_expand_head), then the frags' bytes after the head
 *    (__pskb_pull_tail); also into fresh kmalloc() buffers.
 * The ratio is the median over batches of lin / mc_same of the same batch
 * (the pair ran back to back, so a slow stretch of the machine hits both).
 */
static int linearize_vs_memcpy(struct net_device *dev, unsigned int size, unsigned int pkts,
			       struct lin_cmp *c)
{
	unsigned int nb = pkts / LIN_BATCH < 11 ? 11 : pkts / LIN_BATCH, warm = nb / 10 + 1;
	double *lin = calloc(nb, sizeof(double)), *exp = calloc(nb, sizeof(double));
	double *pull = calloc(nb, sizeof(double)), *mc = calloc(nb, sizeof(double));
	double *same = calloc(nb, sizeof(double)), tns = xdp_generic_tsc_ns();
	double *pair = calloc(nb, sizeof(double));
	struct sk_buff *skbs[LIN_BATCH];
	u8 *dst[LIN_BATCH];
	int ret = -ENOMEM, hroom, troom;

	if (!lin || !exp || !pull || !mc || !same || !pair)
		goto out;
	build_tmpl(dev, size);
	for (unsigned int i = 0; i < nb + warm; i++) {
		unsigned int k = i < warm ? 0 : i - warm;	/* warm-up batches overwrite 0 */
		struct skb_shared_info *sh;
		u64 t0, t1, t2;

		/* the kernel's path, per skb */
		if (hook_batch(dev, size, skbs, &hroom, &troom))
			goto out;
		t0 = tsc();
		for (int j = 0; j < LIN_BATCH; j++)
			if (pskb_expand_head(skbs[j], hroom, troom, GFP_ATOMIC) ||
			    skb_linearize(skbs[j]))
				goto out_batch;
		t1 = tsc();
		lin[k] = (double)(t1 - t0) * tns / LIN_BATCH;
		c->alloc = (unsigned int)(skb_end_offset(skbs[0]) +
					  SKB_DATA_ALIGN(sizeof(struct skb_shared_info)));
		consume_batch(skbs);

		/* its two steps */
		if (hook_batch(dev, size, skbs, &hroom, &troom))
			goto out;
		t0 = tsc();
		for (int j = 0; j < LIN_BATCH; j++)
			if (pskb_expand_head(skbs[j], hroom, troom, GFP_ATOMIC))
				goto out_batch;
		t1 = tsc();
		for (int j = 0; j < LIN_BATCH; j++)
			if (skb_linearize(skbs[j]))
				goto out_batch;
		t2 = tsc();
		exp[k] = (double)(t1 - t0) * tns / LIN_BATCH;
		pull[k] = (double)(t2 - t1) * tns / LIN_BATCH;
		consume_batch(skbs);

		/* the baselines, on fresh skbs of the same layout */
		for (int kind = 0; kind < 2; kind++) {
			if (hook_batch(dev, size, skbs, &hroom, &troom))
				goto out;
			for (int j = 0; j < LIN_BATCH; j++) {
				dst[j] = kmalloc(c->alloc, GFP_ATOMIC);
				if (!dst[j]) {
					while (j--)
						kfree(dst[j]);
					goto out_batch;
				}
			}
			t0 = tsc();
			for (int j = 0; j < LIN_BATCH; j++) {
				struct sk_buff *skb = skbs[j];
				unsigned int off = hroom + skb_headroom(skb), from = off;

				sh = skb_shinfo(skb);
				if (kind) {
					/* pskb_expand_head's two copies, then the pull's */
					memcpy(dst[j] + hroom, skb->head, skb_tail_pointer(skb) - skb->head);
					memcpy(dst[j] + c->alloc -
					       SKB_DATA_ALIGN(sizeof(struct skb_shared_info)), sh,
					       offsetof(struct skb_shared_info, frags[sh->nr_frags]));
					from = hroom;
				} else {
					memcpy(dst[j] + off, skb->data, skb_headlen(skb));
				}
				off += skb_headlen(skb);
				for (int f = 0; f < sh->nr_frags; f++) {
					memcpy(dst[j] + off, skb_frag_address(&sh->frags[f]),
					       skb_frag_size(&sh->frags[f]));
					off += skb_frag_size(&sh->frags[f]);
				}
				if (kind)
					c->copied = off - from +
						    offsetof(struct skb_shared_info, frags[sh->nr_frags]);
				else
					c->bytes = off - from;
			}
			__asm__ volatile("" : : "r"(dst) : "memory");
			t1 = tsc();
			(kind ? same : mc)[k] = (double)(t1 - t0) * tns / LIN_BATCH;
			for (int j = 0; j < LIN_BATCH; j++)
				kfree(dst[j]);
			consume_batch(skbs);
		}
	}
	/* the ratio pairs each batch's linearise with its own baseline */
	for (unsigned int k = 0; k < nb; k++)
		pair[k] = same[k] > 0 ? lin[k] / same[k] : 0;
	c->ratio = bench_median(pair, nb);
	c->lin = bench_median(lin, nb);
	c->expand = bench_median(exp, nb);
	c->pull = bench_median(pull, nb);
	c->mc = bench_median(mc, nb);
	c->mc_same = bench_median(same, nb);
	ret = 0;
	goto out;
out_batch:
	for (int j = 0; j < LIN_BATCH; j++)
		kfree_skb(skbs[j]);
out:
	free(lin);
	free(exp);
	free(pull);
	free(mc);
	free(same);
	free(pair);
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
	struct lin_cmp lc[2] = {};
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
	dev = alloc_netdev(&bench_link_ops, "bg0", 1, 1);
	if (IS_ERR(dev) || register_netdevice(dev))
		return 1;
	dev_open(dev);
	if (bench_rx_queue(dev))
		return 1;
	bench_pt.type = htons(ETH_P_IP);
	dev_add_pack(&bench_pt);

	printf("generic XDP hook, header-split skbs (%u B linear), %u packets per case; ns "
	       "(TSC %.3f ns/tick, probe cost subtracted)\n", HDR_LEN, pkts, xdp_generic_tsc_ns());
	printf("%-7s %-12s %17s %17s %17s %9s | %9s\n", "size", "mode",
	       "hook p50/p90/p99", "prog p50/p90/p99", "copy p50/p90/p99", "hook-prog",
	       "copy B/ns");
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
				printf("%9.1f\n", r->copy_bpns);
			else
				printf("%9s\n", "-");
		}
	}
	printf("hook-prog for linearize=0 is the hook's own cost (target <= 20 ns)\n\n");
	printf("linearise (pskb_expand_head + skb_linearize, as the hook) vs memcpy into fresh "
	       "kmalloc buffers of its size class,\nfrom the same head and frag pages; ns per skb "
	       "(median of batches of %d, interleaved)\n", LIN_BATCH);
	printf("%-7s %6s %6s %7s | %8s %8s %8s | %8s %8s | %6s %6s\n", "size", "pkt B", "copy B",
	       "kmalloc", "linear.", "expand", "pull", "mc pkt", "mc same", "ratio", "vs pkt");
	for (int s = 0; s < 2; s++) {
		struct lin_cmp *c = &lc[s];

		if (linearize_vs_memcpy(dev, gsizes[s], gsizes[s] > 2000 ? pkts / 10 : pkts, c))
			return 1;
		printf("%-7u %6u %6u %7u | %8.1f %8.1f %8.1f | %8.1f %8.1f | %6.2f %6.2f\n", gsizes[s],
		       c->bytes, c->copied, c->alloc, c->lin, c->expand, c->pull, c->mc, c->mc_same,
		       c->ratio, c->mc > 0 ? c->lin / c->mc : 0);
	}
	printf("ratio = linearise / memcpy of the same bytes (mc same: every byte it copies, the "
	       "head from skb->head\nwith its headroom, skb_shared_info up to the frags, the frags; "
	       "target <= 1.2), the median over batches\nof each batch's own pair; vs pkt = "
	       "linearise / memcpy of the packet's bytes only (mc pkt)\n");
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
					"\"copies\":%llu,\"copy_bytes_per_ns\":%.2f}",
					s || m ? "," : "", gsizes[s], gmodes[m].name,
					(unsigned long long)r->hook[0], (unsigned long long)r->hook[1],
					(unsigned long long)r->hook[2], (unsigned long long)r->prog[0],
					(unsigned long long)r->prog[1], (unsigned long long)r->prog[2],
					(unsigned long long)r->copy[0], (unsigned long long)r->copy[1],
					(unsigned long long)r->copy[2], (unsigned long long)r->copies,
					r->copy_bpns);
			}
		fprintf(jf, "],\"linearize_vs_memcpy\":[");
		for (int s = 0; s < 2; s++)
			fprintf(jf, "%s{\"size\":%u,\"bytes\":%u,\"kmalloc\":%u,\"p50_ns\":{"
				"\"linearize\":%.1f,\"expand_head\":%.1f,\"pull_tail\":%.1f,"
				"\"memcpy_packet\":%.1f,\"memcpy_same_bytes\":%.1f},"
				"\"copied_bytes\":%u,\"ratio\":%.3f,\"ratio_vs_packet\":%.3f}",
				s ? "," : "", gsizes[s], lc[s].bytes, lc[s].alloc, lc[s].lin,
				lc[s].expand, lc[s].pull, lc[s].mc, lc[s].mc_same, lc[s].copied,
				lc[s].ratio,
				lc[s].mc > 0 ? lc[s].lin / lc[s].mc : 0);
		fprintf(jf, "]}\n");
		fclose(jf);
	}
	dev_remove_pack(&bench_pt);
	netdev_unregister_all();
	uxdp_softirq_count--;
	xdp_rxq_info_unreg(&bench_rxq);
	netif_napi_del(&bench_napi);
	page_pool_destroy(bench_pool);
	uxdp_bpf_object_close(obj);
	xdp_generic_cleanup();
	return 0;
}
