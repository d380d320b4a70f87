// SPDX-License-Identifier: GPL-2.0
/*
 * pcap: a capture file as a network device (libpcap).
 *
 *   link add NAME type pcap in FILE [loop N] [out FILE [linktype NAME]]
 *   link add NAME type pcap out FILE [linktype NAME]
 *
 * `in FILE` makes a NIC whose wire is the capture (classic pcap or pcapng,
 * read with nanosecond timestamps): one rx queue with a page pool and a NAPI
 * instance whose poll reads up to 64 records, copies each frame into
 * page-pool pages (256 bytes of headroom; frames longer than a page go on
 * in page frags, up to 65535 bytes) and runs native XDP on it as gen does:
 * PASS builds an skb for the stack, TX leaves on the device's own wire,
 * REDIRECT goes to xdp_do_redirect(). The device is a generator
 * (ndo_gen_active) until the file has been read `loop N` times (default 1;
 * 0: forever) or the run's `count` frames were received, so `run` ends
 * when the capture is consumed; every run replays the file from its first
 * record.
 *
 * `out FILE` makes the wire a classic pcap file with nanosecond timestamps
 * (magic a1b23c4d), written by ndo_start_xmit (skbs: the stack, generic
 * XDP_TX and redirect) and ndo_xdp_xmit (redirected frames), and by native
 * XDP_TX when the device also has `in`. `linktype` (a libpcap name such as
 * EN10MB, DSA_TAG_EDSA; default EN10MB) only labels the frames, which are
 * written as they leave. The file is flushed at the end of every run and
 * when the device goes down, and closed when it is deleted.
 *
 * Timestamps: a frame read from a capture carries its record's timestamp
 * as the rx hardware timestamp (skb_shinfo()->hwtstamps, which for a
 * native XDP frame sits in the shared info at the end of its page), and the
 * writer stamps a frame with it, so that timestamps pass through any
 * program or forwarding unchanged. A frame without one (a gen frame, an skb
 * that was copied) is stamped from the writer's virtual clock: 1 us after
 * the last frame it wrote. A device-bound program reads the timestamp with
 * bpf_xdp_metadata_rx_timestamp(). Nothing reads the wall clock, so the output of a
 * run over a capture depends on the input only: same input, byte-identical
 * output (with one worker: several workers interleave frames of different
 * devices in any order).
 *
 * Bad input: a file libpcap cannot open, or a link type other than
 * Ethernet (EN10MB, or a DSA tag type, which is Ethernet framing), fails
 * `link add` with the file's name and the reason. Records are checked at
 * `link add` (one pass over the file) and again as they are read: runts
 * (< 14 bytes), records captured shorter than their length on the wire
 * (snaplen) or longer than it, and frames over 65535 bytes are dropped and
 * counted per reason (RX_RUNT, RX_TRUNCATED, RX_BAD_RECORD, RX_OVERSIZED);
 * an unreadable record (a file cut short, a corrupt record header) ends
 * the pass over the file and is counted as RX_BAD_RECORD. `link add` warns
 * once per kind, naming the file and the first record number.
 *
 * Kernel: drivers/net/ethernet/intel/ixgbe/ixgbe_main.c ixgbe_clean_rx_irq()
 *	   (the rx shape, as gen.c), include/linux/skbuff.h
 *	   skb_hwtstamps() (rx timestamps); DPDK drivers/net/pcap (the idea)
 * Differs: no wire and no descriptors; reading and writing the file is done
 *	    in the NAPI poll / xmit path (stdio-buffered); the tx lock is a
 *	    mutex around the writer (the kernel's __netif_tx_lock).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <linux/skbuff.h>
#include <net/page_pool/helpers.h>
#include <net/rtnetlink.h>
#include <net/xdp.h>
#include <net/xdp_rx.h>

#ifdef CONFIG_UXDP_PCAP
/* pcap/bpf.h would redefine struct bpf_insn: take the link types alone. */
#define PCAP_DONT_INCLUDE_PCAP_BPF_H
#include <pcap/dlt.h>
#include <pcap/pcap.h>

#define PCAP_HEADROOM		256	/* XDP_PACKET_HEADROOM */
#define PCAP_POOL_SIZE		1024
#define PCAP_MAX_FRAME		65535
#define PCAP_LINEAR_MAX		SKB_WITH_OVERHEAD(PAGE_SIZE - PCAP_HEADROOM)
#define PCAP_OUT_SNAPLEN	262144	/* libpcap's MAXIMUM_SNAPLEN */
#define PCAP_VCLOCK_STEP_NS	1000
#define PCAP_MAX_RX_DEVS	64
#define NSEC_PER_SEC		1000000000ULL

/* Link types whose frames are Ethernet frames (the DSA tags sit inside). */
#ifndef DLT_DSA_TAG_DSA
#define DLT_DSA_TAG_DSA		284
#endif
#ifndef DLT_DSA_TAG_EDSA
#define DLT_DSA_TAG_EDSA	285
#endif
static const int pcap_rx_linktypes[] = { DLT_EN10MB, DLT_DSA_TAG_DSA, DLT_DSA_TAG_EDSA };

/* What one record is, checked the same way at link add and on receive. */
enum pcap_rec {
	PCAP_REC_OK,
	PCAP_REC_RUNT,
	PCAP_REC_TRUNCATED,	/* caplen < len: cut by the snaplen */
	PCAP_REC_OVERLONG,	/* caplen > len: not a frame */
	PCAP_REC_OVERSIZED,
	PCAP_REC_MAX,
};

static const enum netdev_drop_reason pcap_rec_drop[PCAP_REC_MAX] = {
	[PCAP_REC_RUNT] = NETDEV_DROP_RX_RUNT,
	[PCAP_REC_TRUNCATED] = NETDEV_DROP_RX_TRUNCATED,
	[PCAP_REC_OVERLONG] = NETDEV_DROP_RX_BAD_RECORD,
	[PCAP_REC_OVERSIZED] = NETDEV_DROP_RX_OVERSIZED,
};

/* pcap's own drop reasons (the shared ones are core rows). */
#define PCAP_DROP_REASONS(FN)							\
	FN(PCAP_DROP_RX_NOMEM, "RX_NOMEM", RX, "capture records dropped: no page-pool page to copy the record into") \
	FN(PCAP_DROP_RX_BAD_RECORD, "RX_BAD_RECORD", REASON, "capture records dropped: unreadable record (a read error ends the pass over the file)") \
	FN(PCAP_DROP_TX_TOO_LONG, "TX_TOO_LONG", TX, "frames not written: longer than a capture record takes (65535 B)") \
	FN(PCAP_DROP_TX_GATHER, "TX_GATHER", TX, "frames not written: their bytes could not be gathered from the frags")
NETDEV_DROP_REASON_TABLE(pcap, PCAP_DROP_REASONS)

struct pcap_priv {
	/* rx: `in FILE`; only the NAPI poll (or the control thread between runs) */
	char *in_path;
	pcap_t *in;
	int in_linktype;
	unsigned int loop;		/* passes over the file per run; 0: forever */
	unsigned int passes;		/* passes ended this run */
	u64 record;			/* number of the last record read, this pass */
	u64 pass_frames;		/* frames received this pass */
	u64 count;			/* this run's frame limit (`run count N`); 0: none */
	u64 received;			/* frames received this run */
	bool done;			/* this run's capture is consumed */
	unsigned int max_frame;		/* longest good frame in the file (link add) */
	struct page_pool *pool;
	struct napi_struct napi;
	struct xdp_rxq_info xdp_rxq;
	bool napi_added;
	/* tx: `out FILE` */
	char *out_path;
	pcap_t *out_dead;
	pcap_dumper_t *out;
	int out_linktype;
	pthread_mutex_t tx_lock;
	bool tx_lock_init;
	u64 vclock;			/* last timestamp written, ns (tx_lock) */
	u8 *tx_buf;			/* linearised frame (tx_lock) */
	/* driver counters (ethtool -S) */
	u64 stat_passes;
	u64 stat_written;
	u64 stat_vclock;
	u64 stat_write_errors;
};

/*
 * The page pools of `in` devices: a frame in one of their pages carries a
 * capture timestamp in its shared info. Changed by the control thread only.
 */
static struct page_pool *pcap_rx_pools[PCAP_MAX_RX_DEVS];

static bool pcap_pool_is_rx(const struct page_pool *pool)
{
	for (unsigned int i = 0; i < PCAP_MAX_RX_DEVS; i++)
		if (pcap_rx_pools[i] == pool)
			return true;
	return false;
}

static int pcap_rx_pool_add(struct page_pool *pool)
{
	for (unsigned int i = 0; i < PCAP_MAX_RX_DEVS; i++) {
		if (!pcap_rx_pools[i]) {
			pcap_rx_pools[i] = pool;
			return 0;
		}
	}
	return -ENOSPC;
}

static void pcap_rx_pool_del(struct page_pool *pool)
{
	for (unsigned int i = 0; i < PCAP_MAX_RX_DEVS; i++)
		if (pcap_rx_pools[i] == pool)
			pcap_rx_pools[i] = NULL;
}

static u64 pcap_hdr_ns(const struct pcap_pkthdr *h)
{
	/* tv_usec holds nanoseconds: opened with PCAP_TSTAMP_PRECISION_NANO */
	return (u64)h->ts.tv_sec * NSEC_PER_SEC + (u64)h->ts.tv_usec;
}

static enum pcap_rec pcap_rec_check(const struct pcap_pkthdr *h)
{
	if (h->caplen < h->len)
		return PCAP_REC_TRUNCATED;
	if (h->caplen > h->len)
		return PCAP_REC_OVERLONG;
	if (h->caplen < ETH_HLEN)
		return PCAP_REC_RUNT;
	if (h->caplen > PCAP_MAX_FRAME)
		return PCAP_REC_OVERSIZED;
	return PCAP_REC_OK;
}

static pcap_t *pcap_in_open(const char *path, char *errbuf)
{
	return pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
}

/* ---- rx ------------------------------------------------------------------ */

static bool pcap_active(struct net_device *dev)
{
	struct pcap_priv *priv = netdev_priv(dev);

	if (!priv->in || priv->done || !(dev->flags & IFF_UP) ||
	    netdev_run_stopping())
		return false;
	return !priv->count || priv->received < priv->count;
}

/* Start the next pass over the file, or end the run's capture. */
static void pcap_pass_end(struct net_device *dev)
{
	struct pcap_priv *priv = netdev_priv(dev);
	char errbuf[PCAP_ERRBUF_SIZE];

	priv->passes++;
	priv->stat_passes++;
	/* A pass without one good frame would loop for ever doing nothing. */
	if ((priv->loop && priv->passes >= priv->loop) || !priv->pass_frames) {
		priv->done = true;
		return;
	}
	pcap_close(priv->in);
	priv->in = pcap_in_open(priv->in_path, errbuf);
	priv->record = 0;
	priv->pass_frames = 0;
	if (!priv->in) {
		pr_warn("%s: %s: cannot reopen for the next pass: %s\n", dev->name,
			priv->in_path, errbuf);
		priv->done = true;
	}
}

/* Copy @len bytes of @data into pool pages as an xdp_buff; false: pool empty. */
static bool pcap_fill(struct pcap_priv *priv, struct xdp_buff *xdp, const u8 *data,
		      unsigned int len, u64 tstamp)
{
	unsigned int linear = len > PCAP_LINEAR_MAX ? PCAP_LINEAR_MAX : len;
	struct skb_shared_info *sinfo;
	struct page *page;
	u8 *va;

	page = page_pool_dev_alloc_pages(priv->pool);
	if (unlikely(!page))
		return false;
	va = page_address(page);
	memcpy(va + PCAP_HEADROOM, data, linear);
	xdp_init_buff(xdp, PAGE_SIZE, &priv->xdp_rxq);
	xdp_prepare_buff(xdp, va, PCAP_HEADROOM, linear, true);
	sinfo = xdp_get_shared_info_from_buff(xdp);
	/* The NIC's rx hardware timestamp: the writer and skbs find it here. */
	sinfo->hwtstamps.hwtstamp = tstamp;
	if (likely(linear == len))
		return true;
	sinfo->nr_frags = 0;
	sinfo->xdp_frags_size = 0;
	sinfo->xdp_frags_truesize = 0;
	xdp_buff_set_frags_flag(xdp);
	for (unsigned int off = linear; off < len; ) {
		unsigned int flen = len - off > PAGE_SIZE ? PAGE_SIZE : len - off;
		struct page *fp = page_pool_dev_alloc_pages(priv->pool);

		if (unlikely(!fp)) {
			xdp_return_buff(xdp);
			return false;
		}
		memcpy(page_address(fp), data + off, flen);
		skb_frag_fill_page_desc(&sinfo->frags[sinfo->nr_frags++], fp, 0, flen);
		sinfo->xdp_frags_size += flen;
		sinfo->xdp_frags_truesize += PAGE_SIZE;
		off += flen;
	}
	return true;
}

static void pcap_pass_up(struct net_device *dev, struct xdp_buff *xdp)
{
	/* build_skb() zeroes the head of the shared info: keep the stamp */
	u64 tstamp = xdp_get_shared_info_from_buff(xdp)->hwtstamps.hwtstamp;
	struct sk_buff *skb = xdp_build_skb_from_buff(xdp);

	if (unlikely(!skb)) {
		netdev_drop(dev, NETDEV_DROP_SKB_ALLOC, 1);
		xdp_return_buff(xdp);
		return;
	}
	skb_shinfo(skb)->hwtstamps.hwtstamp = tstamp;
	netif_receive_skb(skb);
}

static void pcap_write_buff(struct net_device *dev, struct xdp_buff *xdp);

static int pcap_poll(struct napi_struct *napi, int budget)
{
	struct pcap_priv *priv = container_of(napi, struct pcap_priv, napi);
	struct net_device *dev = napi->dev;
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	struct bpf_prog *prog = dev->xdp_prog;
	bool redirected = false;
	int work = 0;

	while (work < budget && pcap_active(dev)) {
		struct pcap_pkthdr *h;
		const u_char *data;
		enum pcap_rec rec;
		struct xdp_buff xdp;
		u32 act;
		int ret;

		ret = pcap_next_ex(priv->in, &h, &data);
		if (ret != 1) {
			/* -2: end of file; -1: unreadable record, the pass ends */
			if (ret == -1)
				pcap_drop(dev, PCAP_DROP_RX_BAD_RECORD, 1);
			pcap_pass_end(dev);
			continue;
		}
		priv->record++;
		work++;
		rec = pcap_rec_check(h);
		if (unlikely(rec != PCAP_REC_OK)) {
			netdev_drop(dev, pcap_rec_drop[rec], 1);
			continue;
		}
		if (unlikely(!pcap_fill(priv, &xdp, data, h->caplen, pcap_hdr_ns(h)))) {
			/* No memory: the record is lost, as a NIC's rx_missed. */
			pcap_drop(dev, PCAP_DROP_RX_NOMEM, 1);
			continue;
		}
		priv->received++;
		priv->pass_frames++;
		st->rx_packets++;
		st->rx_bytes += h->caplen;
		act = prog ? netdev_xdp_count_verdict(dev, bpf_prog_run(prog, &xdp)) : XDP_PASS;
		if (act == XDP_PASS) {
			pcap_pass_up(dev, &xdp);	/* with the record's time stamp */
		} else if (act == XDP_TX) {
			pcap_write_buff(dev, &xdp);
			xdp_return_buff(&xdp);
		} else {
			redirected |= xdp_rx_verdict(dev, &xdp, prog, act);
		}
	}
	if (redirected)
		xdp_do_flush();
	if (pcap_active(dev))
		return budget;
	napi_complete_done(napi, work);
	return work < budget ? work : budget - 1;
}

/* ---- tx ------------------------------------------------------------------ */

/* Write one frame (tx_lock held); @tstamp 0: the virtual clock's next tick. */
static void __pcap_write(struct pcap_priv *priv, const u8 *data, unsigned int len, u64 tstamp)
{
	struct pcap_pkthdr h = {};

	if (!tstamp) {
		tstamp = priv->vclock + PCAP_VCLOCK_STEP_NS;
		priv->stat_vclock++;
	}
	priv->vclock = tstamp;
	h.ts.tv_sec = tstamp / NSEC_PER_SEC;
	h.ts.tv_usec = tstamp % NSEC_PER_SEC;
	h.caplen = h.len = len;
	pcap_dump((u_char *)priv->out, &h, data);
	priv->stat_written++;
}

/* The frame's bytes, linearised into tx_buf when it has frags (tx_lock held). */
static const u8 *pcap_frame_bytes(struct pcap_priv *priv, const u8 *data, unsigned int headlen,
				  const struct skb_shared_info *sinfo, unsigned int nr_frags,
				  unsigned int len)
{
	unsigned int off = headlen;

	if (!nr_frags)
		return data;
	if (headlen > len)
		return NULL;
	memcpy(priv->tx_buf, data, headlen);
	for (unsigned int i = 0; i < nr_frags; i++) {
		const skb_frag_t *f = &sinfo->frags[i];

		if (skb_frag_size(f) > len - off)
			return NULL;
		memcpy(priv->tx_buf + off, skb_frag_address(f), skb_frag_size(f));
		off += skb_frag_size(f);
	}
	return off == len ? priv->tx_buf : NULL;
}

/* Native XDP_TX of an `in` device: out on its wire (the file, if any). */
static void pcap_write_buff(struct net_device *dev, struct xdp_buff *xdp)
{
	struct pcap_priv *priv = netdev_priv(dev);
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	const struct skb_shared_info *sinfo = xdp_get_shared_info_from_buff(xdp);
	unsigned int headlen = (u8 *)xdp->data_end - (u8 *)xdp->data;
	unsigned int len = xdp_get_buff_len(xdp);
	const u8 *bytes = NULL;

	if (unlikely(len > PCAP_MAX_FRAME)) {
		pcap_drop(dev, PCAP_DROP_TX_TOO_LONG, 1);
		return;
	}
	if (priv->out) {
		pthread_mutex_lock(&priv->tx_lock);
		bytes = pcap_frame_bytes(priv, xdp->data, headlen, sinfo,
					 xdp_buff_has_frags(xdp) ? sinfo->nr_frags : 0, len);
		if (bytes)
			__pcap_write(priv, bytes, len, sinfo->hwtstamps.hwtstamp);
		pthread_mutex_unlock(&priv->tx_lock);
		if (unlikely(!bytes)) {
			pcap_drop(dev, PCAP_DROP_TX_GATHER, 1);
			return;
		}
	}
	st->tx_packets++;
	st->tx_bytes += len;
}

static netdev_tx_t pcap_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct pcap_priv *priv = netdev_priv(dev);
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	u64 tstamp;

	if (unlikely(skb->len > PCAP_MAX_FRAME)) {
		pcap_drop(dev, PCAP_DROP_TX_TOO_LONG, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_PKT_TOO_BIG);
		return NETDEV_TX_OK;
	}
	if (priv->out) {
		tstamp = skb_shinfo(skb)->hwtstamps.hwtstamp ?: skb->tstamp;
		pthread_mutex_lock(&priv->tx_lock);
		if (skb_is_nonlinear(skb) && skb_copy_bits(skb, 0, priv->tx_buf, skb->len)) {
			pthread_mutex_unlock(&priv->tx_lock);
			pcap_drop(dev, PCAP_DROP_TX_GATHER, 1);
			kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
			return NETDEV_TX_OK;
		}
		__pcap_write(priv, skb_is_nonlinear(skb) ? priv->tx_buf : skb->data, skb->len,
			     tstamp);
		pthread_mutex_unlock(&priv->tx_lock);
	}
	st->tx_packets++;
	st->tx_bytes += skb->len;
	consume_skb(skb);
	return NETDEV_TX_OK;
}

static int pcap_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames, u32 flags)
{
	struct pcap_priv *priv = netdev_priv(dev);
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);

	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;
	pthread_mutex_lock(&priv->tx_lock);
	for (int i = 0; i < n; i++) {
		struct xdp_frame *frame = frames[i];
		const struct skb_shared_info *sinfo = xdp_get_shared_info_from_frame(frame);
		unsigned int len = xdp_get_frame_len(frame);
		const u8 *bytes;
		u64 tstamp = 0;

		/* Only a capture's pages carry a timestamp in their shared info. */
		if (frame->mem_type == MEM_TYPE_PAGE_POOL) {
			struct page *page = virt_to_head_page(frame->data);

			if (page_is_pp(page) && pcap_pool_is_rx(page->pp))
				tstamp = sinfo->hwtstamps.hwtstamp;
		}
		bytes = len <= PCAP_MAX_FRAME ?
			pcap_frame_bytes(priv, frame->data, frame->len, sinfo,
					 xdp_frame_has_frags(frame) ? sinfo->nr_frags : 0, len) : NULL;
		if (likely(bytes)) {
			__pcap_write(priv, bytes, len, tstamp);
			st->tx_packets++;
			st->tx_bytes += len;
		} else {
			pcap_drop(dev, len > PCAP_MAX_FRAME ? PCAP_DROP_TX_TOO_LONG :
				  PCAP_DROP_TX_GATHER, 1);
		}
		xdp_return_frame_rx_napi(frame);
	}
	pthread_mutex_unlock(&priv->tx_lock);
	return n;
}

static void pcap_out_flush(struct net_device *dev)
{
	struct pcap_priv *priv = netdev_priv(dev);

	if (!priv->out)
		return;
	pthread_mutex_lock(&priv->tx_lock);
	if (pcap_dump_flush(priv->out)) {
		priv->stat_write_errors++;
		pr_warn("%s: %s: write failed: %s\n", dev->name, priv->out_path, strerror(errno));
	}
	pthread_mutex_unlock(&priv->tx_lock);
}

/* ---- device -------------------------------------------------------------- */

static int pcap_dev_open(struct net_device *dev)
{
	struct pcap_priv *priv = netdev_priv(dev);

	if (priv->in)
		napi_enable(&priv->napi);
	return 0;
}

static int pcap_dev_stop(struct net_device *dev)
{
	struct pcap_priv *priv = netdev_priv(dev);

	if (priv->napi_added)
		napi_disable(&priv->napi);
	pcap_out_flush(dev);
	return 0;
}

static void pcap_run_end(struct net_device *dev)
{
	pcap_out_flush(dev);
}

static bool pcap_ndo_gen_active(struct net_device *dev)
{
	return pcap_active(dev);
}

static int pcap_bpf(struct net_device *dev, struct netdev_bpf *bpf)
{
	struct pcap_priv *priv = netdev_priv(dev);

	if (bpf->command != XDP_SETUP_PROG)
		return -EINVAL;
	if (!priv->in_path) {
		if (bpf->extack)
			snprintf(bpf->extack, bpf->extack_len,
				 "%s: a pcap device with only `out` receives nothing: attach to the device the frames come from",
				 dev->name);
		return -EOPNOTSUPP;
	}
	if (bpf->prog && priv->max_frame > PCAP_LINEAR_MAX && !bpf->prog->aux->xdp_has_frags) {
		if (bpf->extack)
			snprintf(bpf->extack, bpf->extack_len,
				 "%s: %s has frames of up to %u bytes (more than one page): the program must be SEC(\"xdp.frags\")",
				 dev->name, priv->in_path, priv->max_frame);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Rewind: the next run (or poll) reads the file from its first record. */
static int pcap_rewind(struct net_device *dev, char *err, size_t errlen)
{
	struct pcap_priv *priv = netdev_priv(dev);
	char errbuf[PCAP_ERRBUF_SIZE];

	if (priv->in)
		pcap_close(priv->in);
	priv->in = pcap_in_open(priv->in_path, errbuf);
	priv->passes = 0;
	priv->record = 0;
	priv->pass_frames = 0;
	priv->received = 0;
	priv->done = false;
	if (!priv->in) {
		snprintf(err, errlen, "%s: %s: %s", dev->name, priv->in_path, errbuf);
		priv->done = true;
		return -EIO;
	}
	return 0;
}

static int pcap_set_param(struct net_device *dev, const char *key, const char *value,
			  char *err, size_t errlen)
{
	struct pcap_priv *priv = netdev_priv(dev);
	char *end;
	u64 v;

	if (strcmp(key, "run_count") && strcmp(key, "loop"))
		return -ENOENT;
	if (!priv->in_path) {
		if (!strcmp(key, "run_count"))
			return 0;
		snprintf(err, errlen, "%s: loop needs a pcap device with `in FILE`", dev->name);
		return -EINVAL;
	}
	v = strtoull(value, &end, 0);
	if (!*value || *end || (!strcmp(key, "loop") && v > UINT32_MAX)) {
		snprintf(err, errlen, "'%s' is not a valid %s", value, key);
		return -EINVAL;
	}
	if (!strcmp(key, "loop")) {
		priv->loop = v;
		return 0;
	}
	/* uxdp_run(): a run starts; @v frames at most (0: the whole capture). */
	if (pcap_rewind(dev, err, errlen))
		pr_warn("%s\n", err);
	priv->count = v;
	return priv->count || priv->loop ? 1 : 0;
}

static int pcap_get_ethtool_stats(struct net_device *dev, char (*names)[48], u64 *values, int max)
{
	struct pcap_priv *priv = netdev_priv(dev);
	const struct { const char *name; u64 v; } s[] = {
		{ "pcap_passes", priv->stat_passes },
		{ "pcap_written", priv->stat_written },
		{ "pcap_written_vclock", priv->stat_vclock },
		{ "pcap_write_errors", priv->stat_write_errors },
	};
	int n = sizeof(s) / sizeof(s[0]);

	for (int i = 0; i < n && i < max; i++) {
		snprintf(names[i], 48, "%s", s[i].name);
		values[i] = s[i].v;
	}
	return n;
}

static void pcap_stats_reset(struct net_device *dev)
{
	struct pcap_priv *priv = netdev_priv(dev);

	priv->stat_passes = 0;
	priv->stat_written = 0;
	priv->stat_vclock = 0;
	priv->stat_write_errors = 0;
}

static void pcap_uninit(struct net_device *dev)
{
	struct pcap_priv *priv = netdev_priv(dev);

	if (priv->napi_added) {
		netif_napi_del(&priv->napi);
		priv->napi_added = false;
	}
	if (xdp_rxq_info_is_reg(&priv->xdp_rxq))
		xdp_rxq_info_unreg(&priv->xdp_rxq);
	if (priv->pool) {
		pcap_rx_pool_del(priv->pool);
		page_pool_destroy(priv->pool);
		priv->pool = NULL;
	}
	if (priv->in) {
		pcap_close(priv->in);
		priv->in = NULL;
	}
	if (priv->out) {
		if (pcap_dump_flush(priv->out))
			pr_warn("%s: %s: write failed: %s\n", dev->name, priv->out_path,
				strerror(errno));
		pcap_dump_close(priv->out);
		priv->out = NULL;
	}
	if (priv->out_dead) {
		pcap_close(priv->out_dead);
		priv->out_dead = NULL;
	}
	if (priv->tx_lock_init) {
		pthread_mutex_destroy(&priv->tx_lock);
		priv->tx_lock_init = false;
	}
	free(priv->tx_buf);
	priv->tx_buf = NULL;
	free(priv->in_path);
	priv->in_path = NULL;
	free(priv->out_path);
	priv->out_path = NULL;
}

static const struct net_device_ops pcap_netdev_ops = {
	.ndo_uninit = pcap_uninit,
	.ndo_open = pcap_dev_open,
	.ndo_stop = pcap_dev_stop,
	.ndo_bpf = pcap_bpf,
	.ndo_start_xmit = pcap_xmit,
	.ndo_xdp_xmit = pcap_xdp_xmit,
	.ndo_gen_active = pcap_ndo_gen_active,
	.ndo_run_end = pcap_run_end,
	.ndo_set_param = pcap_set_param,
	.ndo_get_ethtool_stats = pcap_get_ethtool_stats,
	.ndo_stats_reset = pcap_stats_reset,
};

/*
 * RX metadata for device-bound programs: a frame's capture timestamp
 * (-ENODATA for one without). A capture records no hash and no stripped
 * VLAN tag: those kfuncs get -EOPNOTSUPP.
 */
static int pcap_xmo_rx_timestamp(const struct xdp_buff *xdp, u64 *timestamp)
{
	u64 ts = xdp_get_shared_info_from_buff(xdp)->hwtstamps.hwtstamp;

	if (!ts)
		return -ENODATA;
	*timestamp = ts;
	return 0;
}

static const struct xdp_metadata_ops pcap_xdp_metadata_ops = {
	.xmo_rx_timestamp = pcap_xmo_rx_timestamp,
};

static void pcap_setup(struct net_device *dev)
{
	dev->netdev_ops = &pcap_netdev_ops;
	dev->xdp_metadata_ops = &pcap_xdp_metadata_ops;
}

static bool pcap_linktype_ok(int linktype)
{
	for (size_t i = 0; i < sizeof(pcap_rx_linktypes) / sizeof(pcap_rx_linktypes[0]); i++)
		if (linktype == pcap_rx_linktypes[i])
			return true;
	return false;
}

static const char *const pcap_rec_what[PCAP_REC_MAX] = {
	[PCAP_REC_RUNT] = "shorter than an Ethernet header",
	[PCAP_REC_TRUNCATED] = "captured shorter than on the wire (snaplen)",
	[PCAP_REC_OVERLONG] = "captured longer than on the wire",
	[PCAP_REC_OVERSIZED] = "longer than 65535 bytes",
};

/*
 * Open `in FILE` and read it once: the link type, the longest frame (the
 * frags decision at attach) and a warning per kind of bad record, naming
 * the first one. Leaves the file open at its first record.
 */
static int pcap_in_scan(struct net_device *dev, char *err, size_t errlen)
{
	struct pcap_priv *priv = netdev_priv(dev);
	u64 first[PCAP_REC_MAX] = {}, nr[PCAP_REC_MAX] = {}, record = 0;
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	int ret;

	priv->in = pcap_in_open(priv->in_path, errbuf);
	if (!priv->in) {
		snprintf(err, errlen, "pcap: %s: %s", priv->in_path, errbuf);
		return -EINVAL;
	}
	priv->in_linktype = pcap_datalink(priv->in);
	if (!pcap_linktype_ok(priv->in_linktype)) {
		const char *name = pcap_datalink_val_to_name(priv->in_linktype);

		snprintf(err, errlen,
			 "pcap: %s: link type %d (%s) is not supported: uxdp devices take Ethernet frames (EN10MB)",
			 priv->in_path, priv->in_linktype, name ? name : "unknown");
		return -EINVAL;
	}
	while ((ret = pcap_next_ex(priv->in, &h, &data)) == 1) {
		enum pcap_rec rec = pcap_rec_check(h);

		record++;
		if (!nr[rec]++)
			first[rec] = record;
		if (rec == PCAP_REC_OK && h->caplen > priv->max_frame)
			priv->max_frame = h->caplen;
	}
	if (ret == -1)
		pr_warn("%s: %s: record %llu is unreadable (%s): each pass over the file ends there\n",
			dev->name, priv->in_path, (unsigned long long)record + 1,
			pcap_geterr(priv->in));
	for (int r = PCAP_REC_OK + 1; r < PCAP_REC_MAX; r++)
		if (nr[r])
			pr_warn("%s: %s: %llu record%s %s, dropped on receive (first: record %llu)\n",
				dev->name, priv->in_path, (unsigned long long)nr[r],
				nr[r] > 1 ? "s" : "", pcap_rec_what[r],
				(unsigned long long)first[r]);
	pcap_close(priv->in);
	priv->in = pcap_in_open(priv->in_path, errbuf);
	if (!priv->in) {
		snprintf(err, errlen, "pcap: %s: %s", priv->in_path, errbuf);
		return -EINVAL;
	}
	return 0;
}

static int pcap_out_create(struct pcap_priv *priv, char *err, size_t errlen)
{
	priv->out_dead = pcap_open_dead_with_tstamp_precision(priv->out_linktype, PCAP_OUT_SNAPLEN,
							      PCAP_TSTAMP_PRECISION_NANO);
	if (!priv->out_dead) {
		snprintf(err, errlen, "pcap: out of memory");
		return -ENOMEM;
	}
	priv->out = pcap_dump_open(priv->out_dead, priv->out_path);
	if (!priv->out) {
		snprintf(err, errlen, "pcap: %s: %s", priv->out_path, pcap_geterr(priv->out_dead));
		return -EINVAL;
	}
	return 0;
}

static int pcap_rx_create(struct net_device *dev, char *err, size_t errlen)
{
	struct pcap_priv *priv = netdev_priv(dev);
	struct page_pool_params pp = {
		.order = 0,
		.pool_size = PCAP_POOL_SIZE,
		.netdev = dev,
	};

	priv->pool = page_pool_create(&pp);
	if (IS_ERR(priv->pool)) {
		priv->pool = NULL;
		snprintf(err, errlen, "%s: out of memory", dev->name);
		return -ENOMEM;
	}
	if (pcap_rx_pool_add(priv->pool)) {
		page_pool_destroy(priv->pool);
		priv->pool = NULL;
		snprintf(err, errlen, "%s: too many pcap `in` devices (max %d)", dev->name,
			 PCAP_MAX_RX_DEVS);
		return -ENOSPC;
	}
	netif_napi_add(dev, &priv->napi, pcap_poll);
	priv->napi_added = true;
	xdp_rxq_info_reg(&priv->xdp_rxq, dev, 0, 0);
	xdp_rxq_info_reg_mem_model(&priv->xdp_rxq, MEM_TYPE_PAGE_POOL, priv->pool);
	return 0;
}

struct pcap_link_args {
	const char *in, *out, *linktype;
	u32 loop;
};

static const struct rtnl_link_arg pcap_link_args[] = {
	RTNL_ARG_S(struct pcap_link_args, "in", in, "FILE", "in.pcap"),
	RTNL_ARG_U(struct pcap_link_args, "loop", loop, 0, UINT32_MAX, "N"),
	RTNL_ARG_S(struct pcap_link_args, "out", out, "FILE", "out.pcap"),
	RTNL_ARG_S(struct pcap_link_args, "linktype", linktype, "NAME", "EN10MB"),
	{ NULL }
};

/*
 * `link add NAME type pcap ARGS` (pcap_link_args): in FILE, out FILE or
 * both; linktype with out; loop N with in (0: for ever).
 */
static int pcap_newlink(struct net_device *dev, int argc, char **argv, char *err, size_t errlen)
{
	struct pcap_link_args args = { .loop = 1 };
	struct pcap_priv *priv = netdev_priv(dev);
	const char *linktype;
	int ret;

	priv->out_linktype = DLT_EN10MB;
	ret = rtnl_link_args_parse(&pcap_link_ops, &args, argc, argv, err, errlen);
	if (ret)
		return ret;
	priv->loop = args.loop;
	linktype = args.linktype;
	priv->in_path = args.in ? strdup(args.in) : NULL;
	priv->out_path = args.out ? strdup(args.out) : NULL;
	if ((args.in && !priv->in_path) || (args.out && !priv->out_path))
		goto out_nomem;
	if (!priv->in_path && !priv->out_path) {
		snprintf(err, errlen, "pcap: needs in FILE, out FILE or both");
		ret = -EINVAL;
		goto out_free;
	}
	if (linktype) {
		char *end;
		long n = strtol(linktype, &end, 0);

		priv->out_linktype = *linktype && !*end ? (int)n : pcap_datalink_name_to_val(linktype);
		if (priv->out_linktype < 0 || !priv->out_path) {
			snprintf(err, errlen, priv->out_path ?
				 "pcap: '%s' is not a link type libpcap knows (EN10MB, DSA_TAG_EDSA, ...)" :
				 "pcap: linktype '%s' needs out FILE", linktype);
			ret = -EINVAL;
			goto out_free;
		}
	}
	if (priv->in_path && priv->out_path && !strcmp(priv->in_path, priv->out_path)) {
		snprintf(err, errlen, "pcap: in and out are the same file '%s'", priv->in_path);
		ret = -EINVAL;
		goto out_free;
	}
	if (priv->in_path) {
		ret = pcap_in_scan(dev, err, errlen);
		if (ret)
			goto out_free;
		dev->xdp_features |= NETDEV_XDP_ACT_BASIC | NETDEV_XDP_ACT_REDIRECT |
				     NETDEV_XDP_ACT_RX_SG;
		if (priv->max_frame > ETH_DATA_LEN + ETH_HLEN)
			dev->mtu = priv->max_frame - ETH_HLEN;
	}
	if (priv->out_path) {
		priv->tx_buf = malloc(PCAP_MAX_FRAME);
		if (!priv->tx_buf)
			goto out_nomem;
		ret = pcap_out_create(priv, err, errlen);
		if (ret)
			goto out_free;
		dev->xdp_features |= NETDEV_XDP_ACT_NDO_XMIT | NETDEV_XDP_ACT_NDO_XMIT_SG;
		/* A file takes any frame: the MTU only bounds what the stack sends. */
		if (!priv->in_path)
			dev->mtu = PCAP_MAX_FRAME - ETH_HLEN;
	}
	pthread_mutex_init(&priv->tx_lock, NULL);
	priv->tx_lock_init = true;
	ret = register_netdevice(dev);
	if (ret) {
		snprintf(err, errlen, "cannot register '%s'", dev->name);
		goto out_free;
	}
	if (priv->in_path) {
		ret = pcap_rx_create(dev, err, errlen);
		if (ret)
			goto out_unregister;
	}
	return 0;

out_unregister:
	unregister_netdevice(dev);	/* ndo_uninit releases the rest */
	return ret;
out_nomem:
	snprintf(err, errlen, "%s: out of memory", dev->name);
	ret = -ENOMEM;
out_free:
	pcap_uninit(dev);
	return ret;
}

#else /* !CONFIG_UXDP_PCAP */

static int pcap_newlink(struct net_device *dev, int argc, char **argv, char *err, size_t errlen)
{
	snprintf(err, errlen, "pcap: uxdp was built without libpcap (install libpcap-dev and reconfigure)");
	return -EOPNOTSUPP;
}

static void pcap_setup(struct net_device *dev)
{
}

#endif /* CONFIG_UXDP_PCAP */

const struct rtnl_link_ops pcap_link_ops = {
	.kind = "pcap",
#ifdef CONFIG_UXDP_PCAP
	.priv_size = sizeof(struct pcap_priv),
#endif
#ifdef CONFIG_UXDP_PCAP
	.args = pcap_link_args,
#else
	.usage = "(uxdp was built without libpcap)",
#endif
	.setup = pcap_setup,
	.newlink = pcap_newlink,
};
