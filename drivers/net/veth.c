// SPDX-License-Identifier: GPL-2.0
/*
 * veth: a pair of devices, what one transmits the other receives. Faithful
 * to the 6.x driver where XDP is concerned (Documentation/net.rst):
 *
 * - Each rx queue (struct veth_rq) has a ptr_ring of 256 entries holding
 *   skbs (from ndo_start_xmit) or xdp_frames (from ndo_xdp_xmit), the
 *   latter tagged with bit 0 (VETH_XDP_FLAG). The ring and the NAPI that
 *   drains it are on only while the device is up with an XDP program.
 * - A device is a redirect target (NETDEV_XDP_ACT_NDO_XMIT) only while its
 *   peer has an XDP program, so redirecting into veth0 whose peer veth1 has
 *   none fails at enqueue; uxdp counts those on veth0 as PEER_NO_XDP.
 * - veth_poll(): veth_xdp_rcv() with budget 64, then xdp_do_flush() if
 *   frames were redirected and the XDP_TX bulk flush to the peer.
 * - XDP_PASS frames that came by ndo_xdp_xmit are turned into skbs in
 *   batches (veth_xdp_rcv_bulk_skb(), the 5.12 change): `xdp_batch` frames
 *   per bulk allocation through xdp_alloc_skb_bulk(); a failed allocation
 *   drops the whole batch. xdp_batch 0 is the pre-5.12 driver: one
 *   xdp_build_skb_from_frame() per frame, delivered at once.
 * - Statistics per rq as ethtool -S shows them, and ndo_get_stats64 with
 *   the peer's counters folded in as the kernel's veth_get_stats64() does.
 *
 * Kernel: drivers/net/veth.c veth_xmit(), veth_xdp_xmit(),
 *	   veth_ndo_xdp_xmit(), veth_poll(), veth_xdp_rcv(),
 *	   veth_xdp_rcv_one(), veth_xdp_rcv_skb(), veth_xdp_rcv_bulk_skb(),
 *	   veth_xdp_tx(), veth_xdp_flush_bq(), veth_xdp_set(),
 *	   veth_set_xdp_features(), veth_get_stats64(), veth_get_ethtool_stats(),
 *	   veth_xdp_rx_timestamp(), veth_xdp_rx_hash(), veth_xdp_rx_vlan_tag();
 *	   net/core/dev.c __dev_forward_skb()
 * Differs: no GRO (PASS'ed skbs go to netif_receive_skb()), so NAPI is
 *	    never on without XDP; without NAPI, veth_xmit() delivers to the
 *	    peer's stack at once (no backlog); on the skb path, TX and
 *	    REDIRECT copy the program's bytes into a page-pool page (the
 *	    kernel takes a second reference on the head page); both ends are
 *	    in the one namespace, so the scrub keeps the mark and timestamp;
 *	    a full ring drops as in <= 6.15 (no qdisc back-pressure);
 *	    `xdp_batch` is a uxdp knob.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/ptr_ring.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/page_pool/helpers.h>
#include <net/rtnetlink.h>
#include <net/xdp.h>

#include "veth.h"

#define VETH_XDP_FLAG		1UL
#define VETH_RING_SIZE		256
#define VETH_XDP_HEADROOM	(XDP_PACKET_HEADROOM + NET_IP_ALIGN)
#define VETH_XDP_TX_BULK_SIZE	XDP_BULK_QUEUE_SIZE
#define VETH_XDP_BATCH		16
#define VETH_XDP_BATCH_MAX	64
#define VETH_MAX_QUEUES		64
#define XDP_PACKET_HEADROOM	256

/*
 * veth's own drop reasons. Most repeat a core row's name with veth's
 * direction: what its peer's ndo_xdp_xmit could not queue counts in the
 * receiving device's rx_dropped, as the kernel's peer_tq_xdp_xmit_err
 * (and in the sender's tx_dropped through veth_get_stats64()).
 */
#define VETH_DROP_REASONS(FN)							\
	FN(VETH_DROP_PEER_MISSING, "PEER_MISSING", TX, "frames dropped: no peer")		\
	FN(VETH_DROP_PEER_DOWN, "PEER_DOWN", TX, "frames dropped: peer %s is down")		\
	FN(VETH_DROP_PEER_NO_XDP, "PEER_NO_XDP", TX, "redirected frames dropped: peer %s has no XDP program, so its NAPI ring is off (the kernel drops these too)") \
	FN(VETH_DROP_RING_FULL, "RING_FULL", TX, "frames dropped: rx ring of 256 full")	\
	FN(VETH_DROP_XDP_RING_FULL, "RING_FULL", RX, "frames dropped: rx ring of 256 full")	\
	FN(VETH_DROP_XDP_XMIT_MTU, "XMIT_MTU", RX, "frames dropped: longer than this device's MTU + 18") \
	FN(VETH_DROP_XDP_TX_ERR, "XDP_TX_ERR", RX, "XDP_TX frames dropped: could not be queued to the peer") \
	FN(VETH_DROP_FRAME_UPDATE, "FRAME_UPDATE", REASON, "XDP_PASS frames dropped: program left no headroom for struct xdp_frame (the kernel frees these without counting)") \
	FN(VETH_DROP_SKB_COPY, "SKB_COPY", RX, "skbs dropped: could not copy into a page for XDP")
NETDEV_DROP_REASON_TABLE(veth, VETH_DROP_REASONS)

struct veth_stats {
	u64 rx_drops;
	u64 rx_redirect_err;		/* the part of rx_drops no reason row counts */
	/* xdp */
	u64 xdp_packets;
	u64 xdp_bytes;
	u64 xdp_redirect;
	u64 xdp_drops;
	u64 xdp_tx;
	u64 xdp_tx_err;
	u64 peer_tq_xdp_xmit;
	u64 peer_tq_xdp_xmit_err;
};

struct veth_rq {
	struct napi_struct xdp_napi;
	bool napi_enabled;		/* the kernel's rq->napi != NULL */
	struct net_device *dev;
	struct bpf_prog *xdp_prog;
	struct xdp_mem_info xdp_mem;
	struct veth_stats stats;
	bool rx_notify_masked;
	struct ptr_ring xdp_ring;
	struct xdp_rxq_info xdp_rxq;
	struct page_pool *page_pool;
} __aligned(SMP_CACHE_BYTES);

struct veth_priv {
	struct net_device *peer;
	struct bpf_prog *_xdp_prog;
	struct veth_rq *rq;
	unsigned int requested_headroom;
	unsigned int xdp_batch;		/* uxdp: PASS frames per bulk skb allocation */
};

struct veth_xdp_tx_bq {
	struct xdp_frame *q[VETH_XDP_TX_BULK_SIZE];
	unsigned int count;
};

static inline bool veth_is_xdp_frame(void *ptr)
{
	return (unsigned long)ptr & VETH_XDP_FLAG;
}

static inline struct xdp_frame *veth_ptr_to_xdp(void *ptr)
{
	return (void *)((unsigned long)ptr & ~VETH_XDP_FLAG);
}

static inline void *veth_xdp_to_ptr(struct xdp_frame *xdp)
{
	return (void *)((unsigned long)xdp | VETH_XDP_FLAG);
}

static void veth_ptr_free(void *ptr)
{
	if (veth_is_xdp_frame(ptr))
		xdp_return_frame(veth_ptr_to_xdp(ptr));
	else
		kfree_skb_reason(ptr, SKB_DROP_REASON_DEV_READY);
}

static int veth_select_rxq(struct net_device *dev)
{
	return smp_processor_id() % dev->real_num_rx_queues;
}

/*
 * smp_mb(): a locked read-modify-write is a full barrier on x86 and, unlike
 * a bare fence, is understood by ThreadSanitizer.
 */
static inline void veth_smp_mb(void)
{
	static __thread int mb;

	__atomic_fetch_add(&mb, 0, __ATOMIC_SEQ_CST);
}

static void __veth_xdp_flush(struct veth_rq *rq)
{
	/* Write ptr_ring before reading rx_notify_masked. */
	veth_smp_mb();
	if (!__atomic_load_n(&rq->rx_notify_masked, __ATOMIC_SEQ_CST) &&
	    napi_schedule_prep(&rq->xdp_napi)) {
		WRITE_ONCE(rq->rx_notify_masked, true);
		__napi_schedule(&rq->xdp_napi);
	}
}

/* ---- transmit --------------------------------------------------------- */

static netdev_tx_t veth_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);
	struct net_device *rcv = priv->peer;
	struct veth_priv *rcv_priv;
	struct veth_rq *rq = NULL;
	unsigned int len = skb->len;
	bool use_napi = false;
	int rxq;

	if (unlikely(!rcv) || skb->len < ETH_HLEN) {
		kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
		veth_drop(dev, VETH_DROP_PEER_MISSING, 1);
		goto drop;
	}
	rcv_priv = netdev_priv(rcv);
	rxq = skb_get_queue_mapping(skb);
	if (rxq < (int)rcv->real_num_rx_queues) {
		rq = &rcv_priv->rq[rxq];
		use_napi = rq->napi_enabled;
	}

	/* __dev_forward_skb(): is_skb_forwardable() then scrub and eth_type_trans(). */
	if (unlikely(!(rcv->flags & IFF_UP))) {
		veth_drop(dev, VETH_DROP_PEER_DOWN, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_DEV_READY);
		goto drop;
	}
	if (unlikely(skb->len > rcv->mtu + rcv->hard_header_len + VLAN_HLEN)) {
		netdev_drop(dev, NETDEV_DROP_XMIT_MTU, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_PKT_TOO_BIG);
		goto drop;
	}
	/* Both ends are in uxdp's one namespace: the mark and timestamp stay. */
	skb_scrub_packet(skb, false);
	skb->priority = 0;
	skb->protocol = eth_type_trans(skb, rcv);

	if (use_napi) {
		if (unlikely(ptr_ring_produce(&rq->xdp_ring, skb))) {
			veth_drop(dev, VETH_DROP_RING_FULL, 1);
			kfree_skb_reason(skb, SKB_DROP_REASON_FULL_RING);
			goto drop;
		}
		__veth_xdp_flush(rq);
		return NETDEV_TX_OK;
	}
	/* No NAPI on the peer: the kernel's netif_rx(); uxdp delivers at once. */
	dev_pcpu_stats(dev)->tx_packets++;
	dev_pcpu_stats(dev)->tx_bytes += len;
	netif_receive_skb(skb);
	return NETDEV_TX_OK;

drop:
	return NETDEV_TX_OK;
}

/*
 * Queue frames[0..n) on the peer's rq ring; stop at the first frame that is
 * too long or finds the ring full. Returns how many were queued, or -errno
 * with none queued.
 */
static int veth_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames,
			 u32 flags, bool ndo_xmit)
{
	struct veth_priv *rcv_priv, *priv = netdev_priv(dev);
	enum veth_drop_reason why = VETH_DROP_XDP_RING_FULL;
	unsigned int max_len;
	struct net_device *rcv;
	int i, nxmit = 0;
	struct veth_rq *rq;

	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;
	rcv = priv->peer;
	if (unlikely(!rcv)) {
		if (ndo_xmit)
			veth_drop(dev, VETH_DROP_PEER_MISSING, n);
		return -ENXIO;
	}
	rcv_priv = netdev_priv(rcv);
	rq = &rcv_priv->rq[veth_select_rxq(rcv)];
	/*
	 * The target needs NAPI (an XDP program and up); the devmap checked
	 * NETDEV_XDP_ACT_NDO_XMIT, but the peer may be down.
	 */
	if (!READ_ONCE(rq->napi_enabled)) {
		if (ndo_xmit)
			veth_drop(dev, rcv_priv->_xdp_prog ? VETH_DROP_PEER_DOWN :
				  VETH_DROP_PEER_NO_XDP, n);
		return -ENXIO;
	}

	max_len = rcv->mtu + rcv->hard_header_len + VLAN_HLEN;
	pthread_spin_lock(&rq->xdp_ring.producer_lock);
	for (i = 0; i < n; i++) {
		struct xdp_frame *frame = frames[i];

		if (unlikely(xdp_get_frame_len(frame) > max_len)) {
			why = VETH_DROP_XDP_XMIT_MTU;
			break;
		}
		if (unlikely(__ptr_ring_produce(&rq->xdp_ring, veth_xdp_to_ptr(frame))))
			break;
		nxmit++;
	}
	pthread_spin_unlock(&rq->xdp_ring.producer_lock);

	if (flags & XDP_XMIT_FLUSH)
		__veth_xdp_flush(rq);

	if (ndo_xmit) {
		/* Counted on the receiving rq, as the kernel's peer_tq_* counters. */
		__atomic_fetch_add(&rq->stats.peer_tq_xdp_xmit, nxmit, __ATOMIC_RELAXED);
		__atomic_fetch_add(&rq->stats.peer_tq_xdp_xmit_err, n - nxmit, __ATOMIC_RELAXED);
		if (n - nxmit)
			veth_drop(rcv, why, n - nxmit);
	}
	return nxmit;
}

/*
 * The kernel adds all @n to priv->dropped when none could be queued; here
 * veth_xdp_xmit() counted them under their reason (tx_dropped) already.
 */
static int veth_ndo_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames, u32 flags)
{
	return veth_xdp_xmit(dev, n, frames, flags, true);
}

static void veth_xdp_flush_bq(struct veth_rq *rq, struct veth_xdp_tx_bq *bq)
{
	int sent, i, drops;

	sent = veth_xdp_xmit(rq->dev, bq->count, bq->q, 0, false);
	if (sent < 0)
		sent = 0;
	for (i = sent; unlikely(i < (int)bq->count); i++)
		xdp_return_frame(bq->q[i]);
	drops = bq->count - sent;
	rq->stats.xdp_tx += sent;
	rq->stats.xdp_tx_err += drops;
	if (drops)
		netdev_drop(rq->dev, NETDEV_DROP_XDP_TX_ERR, drops);
	bq->count = 0;
}

static void veth_xdp_flush(struct veth_rq *rq, struct veth_xdp_tx_bq *bq)
{
	struct veth_priv *rcv_priv, *priv = netdev_priv(rq->dev);
	struct net_device *rcv;
	struct veth_rq *rcv_rq;

	veth_xdp_flush_bq(rq, bq);
	rcv = priv->peer;
	if (unlikely(!rcv))
		return;
	rcv_priv = netdev_priv(rcv);
	rcv_rq = &rcv_priv->rq[veth_select_rxq(rcv)];
	/* xdp_ring is initialized on the receive side? */
	if (unlikely(!rcv_rq->xdp_prog))
		return;
	__veth_xdp_flush(rcv_rq);
}

static int veth_xdp_tx(struct veth_rq *rq, struct xdp_buff *xdp, struct veth_xdp_tx_bq *bq)
{
	struct xdp_frame *frame = xdp_convert_buff_to_frame(xdp);

	if (unlikely(!frame))
		return -EOVERFLOW;
	if (unlikely(bq->count == VETH_XDP_TX_BULK_SIZE))
		veth_xdp_flush_bq(rq, bq);
	bq->q[bq->count++] = frame;
	return 0;
}

/* ---- receive (NAPI) ----------------------------------------------------- */

/*
 * RX metadata (xdp_metadata_ops), as the kernel's veth answers it: a frame
 * that came as an skb (veth_xmit()) has the skb's hardware timestamp, its
 * hash (L4 or none) and its offloaded VLAN tag; one that came as an
 * xdp_frame (ndo_xdp_xmit) has none of them (-ENODATA). The kernel keeps
 * the skb next to the xdp_buff (struct veth_xdp_buff); uxdp keeps the
 * fields the ops read there instead (TX and REDIRECT free the skb before
 * the frame moves on), named by the running worker's veth_xdp_cur (a
 * buffer that is not the one the program runs on, as under generic XDP,
 * gets -ENODATA).
 */
struct veth_xdp_buff {
	struct xdp_buff xdp;
	bool l4_hash;
	u16 vlan_proto;		/* __be16; 0: no offloaded tag */
	u16 vlan_tci;
	u32 hash;
	u64 hwtstamp;
};

static __thread const struct veth_xdp_buff *veth_xdp_cur;

static const struct veth_xdp_buff *veth_xdp_buff_of(const struct xdp_buff *xdp)
{
	const struct veth_xdp_buff *v = veth_xdp_cur;

	return v && &v->xdp == xdp ? v : NULL;
}

static int veth_xdp_rx_timestamp(const struct xdp_buff *xdp, u64 *timestamp)
{
	const struct veth_xdp_buff *v = veth_xdp_buff_of(xdp);

	if (!v)
		return -ENODATA;
	*timestamp = v->hwtstamp;
	return 0;
}

static int veth_xdp_rx_hash(const struct xdp_buff *xdp, u32 *hash, u32 *rss_type)
{
	const struct veth_xdp_buff *v = veth_xdp_buff_of(xdp);

	/* the kernel's skb_get_hash() computes a flow hash for an skb with
	 * none; uxdp has no flow dissector and reports none */
	if (!v || !v->hash)
		return -ENODATA;
	*hash = v->hash;
	*rss_type = v->l4_hash ? XDP_RSS_TYPE_L4_ANY : XDP_RSS_TYPE_NONE;
	return 0;
}

static int veth_xdp_rx_vlan_tag(const struct xdp_buff *xdp, __be16 *vlan_proto, u16 *vlan_tci)
{
	const struct veth_xdp_buff *v = veth_xdp_buff_of(xdp);

	if (!v || !v->vlan_proto)
		return -ENODATA;
	*vlan_proto = v->vlan_proto;
	*vlan_tci = v->vlan_tci;
	return 0;
}

static const struct xdp_metadata_ops veth_xdp_metadata_ops = {
	.xmo_rx_timestamp = veth_xdp_rx_timestamp,
	.xmo_rx_hash = veth_xdp_rx_hash,
	.xmo_rx_vlan_tag = veth_xdp_rx_vlan_tag,
};

static struct xdp_frame *veth_xdp_rcv_one(struct veth_rq *rq, struct xdp_frame *frame,
					  struct veth_xdp_tx_bq *bq, struct veth_stats *stats)
{
	struct bpf_prog *xdp_prog = rq->xdp_prog;
	struct xdp_frame orig_frame;
	struct xdp_buff xdp;
	u32 act;
	int err;

	if (unlikely(!xdp_prog))
		return frame;

	xdp_convert_frame_to_buff(frame, &xdp);
	xdp.rxq = &rq->xdp_rxq;
	xdp.txq = NULL;
	act = netdev_xdp_count_verdict(rq->dev, bpf_prog_run(xdp_prog, &xdp));

	switch (act) {
	case XDP_PASS:
		if (unlikely(xdp_update_frame_from_buff(&xdp, frame))) {
			/* The kernel frees these without a counter; uxdp names them. */
			veth_drop(rq->dev, VETH_DROP_FRAME_UPDATE, 1);
			goto err_xdp;
		}
		return frame;
	case XDP_TX:
		orig_frame = *frame;
		xdp.rxq->mem.type = frame->mem_type;
		err = veth_xdp_tx(rq, &xdp, bq);
		xdp.rxq->mem = rq->xdp_mem;
		if (unlikely(err < 0)) {
			frame = &orig_frame;
			stats->rx_drops++;
			veth_drop(rq->dev, VETH_DROP_XDP_TX_ERR, 1);
			goto err_xdp;
		}
		stats->xdp_tx++;
		return NULL;
	case XDP_REDIRECT:
		orig_frame = *frame;
		xdp.rxq->mem.type = frame->mem_type;
		err = xdp_do_redirect(rq->dev, &xdp, xdp_prog);
		xdp.rxq->mem = rq->xdp_mem;
		if (unlikely(err)) {
			frame = &orig_frame;
			stats->rx_drops++;
			stats->rx_redirect_err++;
			xdp_do_redirect_count_drop(rq->dev, err, 1);
			goto err_xdp;
		}
		stats->xdp_redirect++;
		return NULL;
	case XDP_ABORTED:
		netdev_drop(rq->dev, NETDEV_DROP_XDP_ABORTED, 1);
		stats->xdp_drops++;
		goto err_xdp;
	default:	/* XDP_DROP */
		netdev_drop(rq->dev, NETDEV_DROP_XDP_DROP, 1);
		stats->xdp_drops++;
		goto err_xdp;
	}

err_xdp:
	xdp_return_frame(frame);
	return NULL;
}

static void veth_deliver_skb(struct veth_rq *rq, struct sk_buff *skb)
{
	/* napi_gro_receive() in the kernel; no GRO in uxdp. */
	netif_receive_skb(skb);
}

/*
 * Build skbs for @n PASS'ed frames with one bulk allocation; a failed
 * allocation drops all @n, as veth_xdp_rcv_bulk_skb() does since 5.12.
 */
static void veth_xdp_rcv_bulk_skb(struct veth_rq *rq, struct xdp_frame **frames, int n,
				  struct veth_stats *stats)
{
	void *skbs[VETH_XDP_BATCH_MAX];
	int i;

	if (xdp_alloc_skb_bulk(skbs, n, GFP_ATOMIC | __GFP_ZERO) < 0) {
		for (i = 0; i < n; i++)
			xdp_return_frame(frames[i]);
		stats->rx_drops += n;
		netdev_drop(rq->dev, NETDEV_DROP_SKB_ALLOC, n);
		return;
	}
	for (i = 0; i < n; i++) {
		struct sk_buff *skb = __xdp_build_skb_from_frame(frames[i], skbs[i], rq->dev);

		if (unlikely(!skb)) {
			kmem_cache_free(skbuff_cache, skbs[i]);
			xdp_return_frame(frames[i]);
			stats->rx_drops++;
			netdev_drop(rq->dev, NETDEV_DROP_SKB_ALLOC, 1);
			continue;
		}
		veth_deliver_skb(rq, skb);
	}
}

/* xdp_batch 0: the pre-5.12 driver, one skb allocation per PASS frame. */
static void veth_xdp_rcv_one_skb(struct veth_rq *rq, struct xdp_frame *frame,
				 struct veth_stats *stats)
{
	struct sk_buff *skb = xdp_build_skb_from_frame(frame, rq->dev);

	if (unlikely(!skb)) {
		xdp_return_frame(frame);
		stats->rx_drops++;
		netdev_drop(rq->dev, NETDEV_DROP_SKB_ALLOC, 1);
		return;
	}
	veth_deliver_skb(rq, skb);
}

/*
 * An skb's buffer leaves as an xdp_frame (TX, REDIRECT). The kernel takes
 * a second reference on the skb's head page (veth_xdp_get()) and frees the
 * skb; uxdp's skb heads are not shared with frames, so the bytes the
 * program left (metadata to tail) move to a page of the rq's pool at the
 * same offsets: the frame's headroom, metadata and length are the ones the
 * kernel's frame would have.
 */
static int veth_xdp_buff_to_page(struct veth_rq *rq, struct xdp_buff *xdp)
{
	unsigned int meta = (char *)xdp->data_meta - (char *)xdp->data_hard_start;
	unsigned int data = (char *)xdp->data - (char *)xdp->data_hard_start;
	unsigned int end = (char *)xdp->data_end - (char *)xdp->data_hard_start;
	struct page *page;
	char *va;

	if (unlikely(end > SKB_WITH_OVERHEAD(PAGE_SIZE)))
		return -ENOMEM;
	page = page_pool_dev_alloc_pages(rq->page_pool);
	if (unlikely(!page))
		return -ENOMEM;
	va = page_address(page);
	memcpy(va + meta, xdp->data_meta, end - meta);
	xdp_init_buff(xdp, PAGE_SIZE, &rq->xdp_rxq);
	xdp_prepare_buff(xdp, (unsigned char *)va, data, end - data, true);
	xdp->data_meta = va + meta;
	rq->xdp_rxq.mem.type = MEM_TYPE_PAGE_POOL;
	return 0;
}

/*
 * The skb path: an skb from veth_xmit() meets the XDP program, as in the
 * kernel's veth_convert_skb_to_xdp_buff() and veth_xdp_rcv_skb(). A private
 * linear skb whose head is a page fragment with XDP_PACKET_HEADROOM in
 * front runs in place; any other is first copied into the rq's page pool
 * (skb_pp_cow_data(), which keeps the header fields). PASS hands the same
 * skb on with the program's head and tail moves applied; DROP and ABORTED
 * free it; TX and REDIRECT turn its buffer into a frame. Consumes @skb;
 * returns an skb for the stack on PASS, else NULL.
 */
static struct sk_buff *veth_xdp_rcv_skb(struct veth_rq *rq, struct sk_buff *skb,
					struct veth_xdp_tx_bq *bq, struct veth_stats *stats)
{
	struct bpf_prog *xdp_prog = rq->xdp_prog;
	struct veth_xdp_buff vxbuf;
	struct xdp_buff *xdpb = &vxbuf.xdp;
	void *orig_data, *orig_data_end;
	unsigned int frame_sz;
	u32 act, metalen;
	int off, err;

	if (!xdp_prog)
		return skb;

	/* Back to the MAC header. */
	__skb_push(skb, skb->data - skb_mac_header(skb));
	if (skb_shared(skb) || skb_head_is_locked(skb) || skb_is_nonlinear(skb) ||
	    skb_headroom(skb) < XDP_PACKET_HEADROOM) {
		/* uxdp's veth runs single-buffer programs only: a copy must fit the head. */
		if (unlikely(skb->len > SKB_WITH_OVERHEAD(PAGE_SIZE - XDP_PACKET_HEADROOM) ||
			     skb_pp_cow_data(rq->page_pool, &skb, XDP_PACKET_HEADROOM)))
			goto drop_copy;
	}
	frame_sz = skb_end_pointer(skb) - skb->head + SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	xdp_init_buff(xdpb, frame_sz, &rq->xdp_rxq);
	xdp_prepare_buff(xdpb, skb->head, skb_headroom(skb), skb_headlen(skb), true);
	xdpb->txq = NULL;
	vxbuf.hwtstamp = skb_shinfo(skb)->hwtstamps.hwtstamp;
	vxbuf.hash = skb->hash;
	vxbuf.l4_hash = skb->l4_hash;
	vxbuf.vlan_proto = skb->vlan_proto;
	vxbuf.vlan_tci = skb->vlan_tci;
	orig_data = xdpb->data;
	orig_data_end = xdpb->data_end;

	veth_xdp_cur = &vxbuf;
	act = netdev_xdp_count_verdict(rq->dev, bpf_prog_run(xdp_prog, xdpb));
	veth_xdp_cur = NULL;

	switch (act) {
	case XDP_PASS:
		/* bpf_xdp_adjust_head(), then bpf_xdp_adjust_tail() */
		off = (char *)orig_data - (char *)xdpb->data;
		if (off > 0)
			__skb_push(skb, off);
		else if (off < 0)
			__skb_pull(skb, -off);
		skb_reset_mac_header(skb);
		off = (char *)xdpb->data_end - (char *)orig_data_end;
		if (off)
			__skb_put(skb, off);
		skb->protocol = eth_type_trans(skb, rq->dev);
		metalen = (char *)xdpb->data - (char *)xdpb->data_meta;
		if (metalen)
			skb_metadata_set(skb, metalen);
		return skb;
	case XDP_TX:
	case XDP_REDIRECT:
		err = veth_xdp_buff_to_page(rq, xdpb);
		consume_skb(skb);
		if (unlikely(err)) {
			stats->rx_drops++;
			veth_drop(rq->dev, VETH_DROP_SKB_COPY, 1);
			return NULL;
		}
		if (act == XDP_TX) {
			err = veth_xdp_tx(rq, xdpb, bq);
			rq->xdp_rxq.mem = rq->xdp_mem;
			if (unlikely(err < 0)) {
				stats->rx_drops++;
				veth_drop(rq->dev, VETH_DROP_XDP_TX_ERR, 1);
				goto free_page;
			}
			stats->xdp_tx++;
			return NULL;
		}
		err = xdp_do_redirect(rq->dev, xdpb, xdp_prog);
		rq->xdp_rxq.mem = rq->xdp_mem;
		if (unlikely(err)) {
			stats->rx_drops++;
			stats->rx_redirect_err++;
			xdp_do_redirect_count_drop(rq->dev, err, 1);
			goto free_page;
		}
		stats->xdp_redirect++;
		return NULL;
	/*
	 * The kernel's kfree_skb(): the drop is counted once, on the device
	 * (netdev_drop()), so the skb itself goes as consumed.
	 */
	case XDP_ABORTED:
		netdev_drop(rq->dev, NETDEV_DROP_XDP_ABORTED, 1);
		stats->xdp_drops++;
		consume_skb(skb);
		return NULL;
	default:
		netdev_drop(rq->dev, NETDEV_DROP_XDP_DROP, 1);
		stats->xdp_drops++;
		consume_skb(skb);
		return NULL;
	}

free_page:
	page_pool_recycle_direct(rq->page_pool, virt_to_head_page(xdpb->data));
	return NULL;

drop_copy:
	stats->rx_drops++;
	veth_drop(rq->dev, VETH_DROP_SKB_COPY, 1);
	kfree_skb_reason(skb, SKB_DROP_REASON_NOMEM);
	return NULL;
}

static int veth_xdp_rcv(struct veth_rq *rq, int budget, struct veth_xdp_tx_bq *bq,
			struct veth_stats *stats)
{
	struct veth_priv *priv = netdev_priv(rq->dev);
	unsigned int batch = priv->xdp_batch;
	struct xdp_frame *xdpf[VETH_XDP_BATCH_MAX];
	int i, done = 0, n_xdpf = 0;

	for (i = 0; i < budget; i++) {
		void *ptr = __ptr_ring_consume(&rq->xdp_ring);

		if (!ptr)
			break;
		if (veth_is_xdp_frame(ptr)) {
			struct xdp_frame *frame = veth_ptr_to_xdp(ptr);

			stats->xdp_bytes += xdp_get_frame_len(frame);
			frame = veth_xdp_rcv_one(rq, frame, bq, stats);
			if (frame) {
				if (!batch) {
					veth_xdp_rcv_one_skb(rq, frame, stats);
				} else {
					xdpf[n_xdpf++] = frame;
					if (n_xdpf == (int)batch) {
						veth_xdp_rcv_bulk_skb(rq, xdpf, n_xdpf, stats);
						n_xdpf = 0;
					}
				}
			}
		} else {
			struct sk_buff *skb = ptr;

			stats->xdp_bytes += skb->len;
			skb = veth_xdp_rcv_skb(rq, skb, bq, stats);
			if (skb)
				veth_deliver_skb(rq, skb);
		}
		done++;
	}
	if (n_xdpf)
		veth_xdp_rcv_bulk_skb(rq, xdpf, n_xdpf, stats);

	rq->stats.xdp_redirect += stats->xdp_redirect;
	rq->stats.xdp_bytes += stats->xdp_bytes;
	rq->stats.xdp_drops += stats->xdp_drops;
	rq->stats.rx_drops += stats->rx_drops;
	rq->stats.rx_redirect_err += stats->rx_redirect_err;
	rq->stats.xdp_packets += done;
	return done;
}

static int veth_poll(struct napi_struct *napi, int budget)
{
	struct veth_rq *rq = container_of(napi, struct veth_rq, xdp_napi);
	struct veth_stats stats = {};
	struct veth_xdp_tx_bq bq;
	int done;

	bq.count = 0;
	xdp_set_return_frame_no_direct();
	done = veth_xdp_rcv(rq, budget, &bq, &stats);
	if (stats.xdp_redirect > 0)
		xdp_do_flush();
	if (stats.xdp_tx > 0)
		veth_xdp_flush(rq, &bq);
	xdp_clear_return_frame_no_direct();

	if (done < budget && napi_complete_done(napi, done)) {
		/* Write rx_notify_masked before reading ptr_ring. */
		__atomic_store_n(&rq->rx_notify_masked, false, __ATOMIC_SEQ_CST);
		if (unlikely(!__ptr_ring_empty(&rq->xdp_ring))) {
			if (napi_schedule_prep(&rq->xdp_napi)) {
				WRITE_ONCE(rq->rx_notify_masked, true);
				__napi_schedule(&rq->xdp_napi);
			}
		}
	}
	return done;
}

/* ---- XDP setup ---------------------------------------------------------- */

static void veth_set_xdp_features(struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);
	struct net_device *peer = priv->peer;

	if (peer && peer->real_num_tx_queues <= dev->real_num_rx_queues) {
		struct veth_priv *priv_peer = netdev_priv(peer);
		xdp_features_t val = NETDEV_XDP_ACT_BASIC | NETDEV_XDP_ACT_REDIRECT |
				     NETDEV_XDP_ACT_RX_SG;

		if (priv_peer->_xdp_prog)
			val |= NETDEV_XDP_ACT_NDO_XMIT | NETDEV_XDP_ACT_NDO_XMIT_SG;
		dev->xdp_features = val;
	} else {
		dev->xdp_features = 0;
	}
}

static int veth_enable_xdp(struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);
	unsigned int i;

	for (i = 0; i < dev->real_num_rx_queues; i++) {
		struct veth_rq *rq = &priv->rq[i];

		if (!rq->xdp_ring.queue) {
			struct page_pool_params pp = {
				.order = 0,
				.pool_size = VETH_RING_SIZE,
				.netdev = dev,
				.napi = &rq->xdp_napi,
			};
			struct page_pool *pool;
			int err;

			err = ptr_ring_init(&rq->xdp_ring, VETH_RING_SIZE);
			if (err)
				return err;
			pool = page_pool_create(&pp);
			if (IS_ERR(pool)) {
				ptr_ring_cleanup(&rq->xdp_ring, NULL);
				return PTR_ERR(pool);
			}
			rq->page_pool = pool;
		}
		rq->xdp_prog = priv->_xdp_prog;
		rq->rx_notify_masked = false;
		napi_enable(&rq->xdp_napi);
		WRITE_ONCE(rq->napi_enabled, true);
	}
	return 0;
}

static void veth_disable_xdp(struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);
	unsigned int i;

	for (i = 0; i < dev->real_num_rx_queues; i++) {
		struct veth_rq *rq = &priv->rq[i];

		if (!rq->xdp_ring.queue)
			continue;
		WRITE_ONCE(rq->napi_enabled, false);
		napi_disable(&rq->xdp_napi);
		rq->xdp_prog = NULL;
		ptr_ring_cleanup(&rq->xdp_ring, veth_ptr_free);
		page_pool_destroy(rq->page_pool);
		rq->page_pool = NULL;
	}
}

static int veth_xdp_set(struct net_device *dev, struct bpf_prog *prog, char *err, size_t errlen)
{
	struct veth_priv *priv = netdev_priv(dev);
	struct bpf_prog *old_prog = priv->_xdp_prog;
	struct net_device *peer = priv->peer;
	unsigned int max_mtu;
	int ret;

	if (prog) {
		if (!peer) {
			if (err)
				snprintf(err, errlen, "%s: cannot set XDP when peer is detached",
					 dev->name);
			return -ENOTCONN;
		}
		max_mtu = SKB_WITH_OVERHEAD(PAGE_SIZE - VETH_XDP_HEADROOM) - peer->hard_header_len;
		if (prog->aux->xdp_has_frags)
			max_mtu += PAGE_SIZE * MAX_SKB_FRAGS;
		if (peer->mtu > max_mtu) {
			if (err)
				snprintf(err, errlen,
					 "%s: peer MTU %u is too large to set XDP (max %u without xdp.frags)",
					 dev->name, peer->mtu, max_mtu);
			return -ERANGE;
		}
		if (dev->real_num_rx_queues < peer->real_num_tx_queues) {
			if (err)
				snprintf(err, errlen,
					 "%s: XDP expects number of rx queues not less than peer tx queues",
					 dev->name);
			return -ENOSPC;
		}
		priv->_xdp_prog = prog;
		if (dev->flags & IFF_UP) {
			if (old_prog) {
				for (unsigned int i = 0; i < dev->real_num_rx_queues; i++)
					priv->rq[i].xdp_prog = prog;
			} else {
				ret = veth_enable_xdp(dev);
				if (ret) {
					priv->_xdp_prog = old_prog;
					if (err)
						snprintf(err, errlen, "%s: setup for XDP failed", dev->name);
					return ret;
				}
			}
		}
		if (!old_prog)
			peer->max_mtu = max_mtu;
	} else {
		if (old_prog && (dev->flags & IFF_UP))
			veth_disable_xdp(dev);
		priv->_xdp_prog = NULL;
		if (peer)
			peer->max_mtu = ETH_MAX_MTU;
	}
	if (peer)
		veth_set_xdp_features(peer);
	return 0;
}

static int veth_ndo_bpf(struct net_device *dev, struct netdev_bpf *xdp)
{
	switch (xdp->command) {
	case XDP_SETUP_PROG:
		return veth_xdp_set(dev, xdp->prog, xdp->extack, xdp->extack_len);
	default:
		return -EINVAL;
	}
}

/* ---- device ops --------------------------------------------------------- */

static int veth_open(struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);

	if (priv->_xdp_prog)
		return veth_enable_xdp(dev);
	return 0;
}

static int veth_close(struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);

	if (priv->_xdp_prog)
		veth_disable_xdp(dev);
	return 0;
}

static void veth_stats_rx(struct veth_stats *result, struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);

	memset(result, 0, sizeof(*result));
	for (unsigned int i = 0; i < dev->num_rx_queues; i++) {
		const struct veth_stats *s = &priv->rq[i].stats;

		result->peer_tq_xdp_xmit_err += s->peer_tq_xdp_xmit_err;
		result->xdp_tx_err += s->xdp_tx_err;
		result->xdp_packets += s->xdp_packets;
		result->xdp_bytes += s->xdp_bytes;
		result->rx_drops += s->rx_drops;
		result->rx_redirect_err += s->rx_redirect_err;
	}
}

static void veth_stats_tx(u64 *packets, u64 *bytes, struct net_device *dev)
{
	*packets = *bytes = 0;
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		*packets += dev->pcpu_stats[cpu].tx_packets;
		*bytes += dev->pcpu_stats[cpu].tx_bytes;
	}
}

static void veth_get_stats64(struct net_device *dev, struct rtnl_link_stats64 *tot)
{
	struct veth_priv *priv = netdev_priv(dev);
	struct net_device *peer = priv->peer;
	struct veth_stats rx;
	u64 packets, bytes;

	veth_stats_tx(&packets, &bytes, dev);
	tot->tx_bytes += bytes;
	tot->tx_packets += packets;

	veth_stats_rx(&rx, dev);
	/* The core counters (netdev_drop()) hold the rest of these device's drops. */
	tot->rx_dropped += rx.rx_redirect_err;
	tot->rx_bytes += rx.xdp_bytes;
	tot->rx_packets += rx.xdp_packets;

	if (peer) {
		veth_stats_tx(&packets, &bytes, peer);
		tot->rx_bytes += bytes;
		tot->rx_packets += packets;

		veth_stats_rx(&rx, peer);
		tot->tx_dropped += rx.peer_tq_xdp_xmit_err;
		tot->rx_dropped += rx.xdp_tx_err;
		tot->tx_bytes += rx.xdp_bytes;
		tot->tx_packets += rx.xdp_packets;
	}
}

static int veth_get_ethtool_stats(struct net_device *dev, char (*names)[48], u64 *values, int max)
{
	static const struct {
		const char *name;
		size_t off;
	} rq_stats[] = {
		{ "xdp_packets", offsetof(struct veth_stats, xdp_packets) },
		{ "xdp_bytes", offsetof(struct veth_stats, xdp_bytes) },
		{ "drops", offsetof(struct veth_stats, rx_drops) },
		{ "xdp_redirect", offsetof(struct veth_stats, xdp_redirect) },
		{ "xdp_drops", offsetof(struct veth_stats, xdp_drops) },
		{ "xdp_tx", offsetof(struct veth_stats, xdp_tx) },
		{ "xdp_tx_errors", offsetof(struct veth_stats, xdp_tx_err) },
	};
	static const struct {
		const char *name;
		size_t off;
	} tq_stats[] = {
		{ "xdp_xmit", offsetof(struct veth_stats, peer_tq_xdp_xmit) },
		{ "xdp_xmit_errors", offsetof(struct veth_stats, peer_tq_xdp_xmit_err) },
	};
	struct veth_priv *rcv_priv, *priv = netdev_priv(dev);
	int n = 0;

	if (n < max) {
		snprintf(names[n], 48, "peer_ifindex");
		values[n] = priv->peer ? priv->peer->ifindex : 0;
	}
	n++;
	for (unsigned int i = 0; i < dev->real_num_rx_queues; i++) {
		for (size_t j = 0; j < sizeof(rq_stats) / sizeof(rq_stats[0]); j++, n++) {
			if (n >= max)
				continue;
			snprintf(names[n], 48, "rx_queue_%u_%s", i, rq_stats[j].name);
			values[n] = *(const u64 *)((const char *)&priv->rq[i].stats + rq_stats[j].off);
		}
	}
	if (!priv->peer)
		return n;
	rcv_priv = netdev_priv(priv->peer);
	for (unsigned int i = 0; i < priv->peer->real_num_rx_queues; i++) {
		for (size_t j = 0; j < sizeof(tq_stats) / sizeof(tq_stats[0]); j++, n++) {
			if (n >= max)
				continue;
			snprintf(names[n], 48, "tx_queue_%u_%s", i, tq_stats[j].name);
			values[n] = *(const u64 *)((const char *)&rcv_priv->rq[i].stats +
						   tq_stats[j].off);
		}
	}
	return n;
}

static void veth_stats_reset(struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);

	for (unsigned int i = 0; i < dev->num_rx_queues; i++)
		memset(&priv->rq[i].stats, 0, sizeof(priv->rq[i].stats));
}

static struct net_device *veth_peer_dev(struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);

	return priv->peer;
}

static int veth_set_param(struct net_device *dev, const char *key, const char *value,
			  char *err, size_t errlen)
{
	struct veth_priv *priv = netdev_priv(dev);
	unsigned long v;
	char *end;

	if (strcmp(key, "xdp_batch"))
		return -ENOENT;
	v = strtoul(value, &end, 0);
	if (*end || !*value || v > VETH_XDP_BATCH_MAX) {
		snprintf(err, errlen, "'%s' is not a valid xdp_batch (0..%d; 0 = one skb per frame, %d = the kernel's VETH_XDP_BATCH)",
			 value, VETH_XDP_BATCH_MAX, VETH_XDP_BATCH);
		return -EINVAL;
	}
	priv->xdp_batch = v;
	return 0;
}

static int veth_dev_init(struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);

	priv->rq = aligned_alloc(SMP_CACHE_BYTES, dev->num_rx_queues * sizeof(*priv->rq));
	if (!priv->rq)
		return -ENOMEM;
	memset(priv->rq, 0, dev->num_rx_queues * sizeof(*priv->rq));
	for (unsigned int i = 0; i < dev->num_rx_queues; i++) {
		struct veth_rq *rq = &priv->rq[i];

		rq->dev = dev;
		netif_napi_add(dev, &rq->xdp_napi, veth_poll);
		xdp_rxq_info_reg(&rq->xdp_rxq, dev, i, 0);
		xdp_rxq_info_reg_mem_model(&rq->xdp_rxq, MEM_TYPE_PAGE_SHARED, NULL);
		rq->xdp_mem = rq->xdp_rxq.mem;
	}
	return 0;
}

static void veth_dev_uninit(struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);

	if (!priv->rq)
		return;
	for (unsigned int i = 0; i < dev->num_rx_queues; i++) {
		netif_napi_del(&priv->rq[i].xdp_napi);
		xdp_rxq_info_unreg(&priv->rq[i].xdp_rxq);
	}
	free(priv->rq);
	priv->rq = NULL;
}

static const struct net_device_ops veth_netdev_ops = {
	.ndo_init = veth_dev_init,
	.ndo_uninit = veth_dev_uninit,
	.ndo_open = veth_open,
	.ndo_stop = veth_close,
	.ndo_start_xmit = veth_xmit,
	.ndo_xdp_xmit = veth_ndo_xdp_xmit,
	.ndo_bpf = veth_ndo_bpf,
	.ndo_get_stats64 = veth_get_stats64,
	.ndo_get_peer_dev = veth_peer_dev,
	.ndo_set_param = veth_set_param,
	.ndo_get_ethtool_stats = veth_get_ethtool_stats,
	.ndo_stats_reset = veth_stats_reset,
};

static void veth_setup(struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);

	dev->netdev_ops = &veth_netdev_ops;
	dev->xdp_metadata_ops = &veth_xdp_metadata_ops;
	dev->xdp_features = 0;	/* veth_set_xdp_features() once paired */
	priv->xdp_batch = VETH_XDP_BATCH;
}

static void veth_dellink(struct net_device *dev)
{
	struct veth_priv *priv = netdev_priv(dev);
	struct net_device *peer = priv->peer;

	unregister_netdevice(dev);
	priv->peer = NULL;
	if (peer) {
		struct veth_priv *peer_priv = netdev_priv(peer);

		unregister_netdevice(peer);
		peer_priv->peer = NULL;
		free_netdev(peer);
	}
	free_netdev(dev);
}

/*
 * `link add NAME type veth [queues N] peer name PEER`: both ends are created
 * here, the peer first as in veth_newlink().
 */
struct veth_link_args {
	u32 queues;
	const char *peer;
};

static const struct rtnl_link_arg veth_link_args[] = {
	RTNL_ARG_U(struct veth_link_args, "queues", queues, 1, VETH_MAX_QUEUES, "N"),
	RTNL_ARG_S(struct veth_link_args, "peer name", peer, "NAME", "veth-peer",
		   .flags = RTNL_ARG_REQUIRED),
	{ NULL }
};

static int veth_newlink(struct net_device *dev, int argc, char **argv, char *err, size_t errlen)
{
	struct veth_link_args args = { .queues = 1 };
	struct veth_priv *priv, *peer_priv;
	const char *peer_name;
	struct net_device *peer;
	unsigned long queues;
	int ret;

	ret = rtnl_link_args_parse(&veth_link_ops, &args, argc, argv, err, errlen);
	if (ret)
		return ret;
	queues = args.queues;
	peer_name = args.peer;
	/* Both ends get @queues rx and tx queues (ip link's numrxqueues/numtxqueues). */
	dev->num_rx_queues = dev->real_num_rx_queues = queues;
	dev->num_tx_queues = dev->real_num_tx_queues = queues;
	if (dev_get_by_name(peer_name) || !strcmp(peer_name, dev->name)) {
		snprintf(err, errlen, "device '%s' already exists", peer_name);
		return -EEXIST;
	}
	peer = alloc_netdev(&veth_link_ops, peer_name, dev->num_rx_queues, dev->num_tx_queues);
	if (IS_ERR(peer)) {
		snprintf(err, errlen, "'%s' is not a valid device name", peer_name);
		return PTR_ERR(peer);
	}
	ret = register_netdevice(peer);
	if (ret) {
		snprintf(err, errlen, "cannot register '%s'", peer_name);
		goto out_free_peer;
	}
	ret = register_netdevice(dev);
	if (ret) {
		snprintf(err, errlen, "cannot register '%s'", dev->name);
		goto out_unregister_peer;
	}
	priv = netdev_priv(dev);
	peer_priv = netdev_priv(peer);
	priv->peer = peer;
	peer_priv->peer = dev;
	veth_set_xdp_features(dev);
	veth_set_xdp_features(peer);
	return 0;

out_unregister_peer:
	unregister_netdevice(peer);
out_free_peer:
	free_netdev(peer);
	return ret;
}

const struct rtnl_link_ops veth_link_ops = {
	.kind = "veth",
	.priv_size = sizeof(struct veth_priv),
	.args = veth_link_args,
	.setup = veth_setup,
	.newlink = veth_newlink,
	.dellink = veth_dellink,
};

/* ---- test hooks (drivers/net/veth.h) ------------------------------------ */

int veth_rq_ring_count(struct net_device *dev, unsigned int queue)
{
	struct veth_priv *priv = netdev_priv(dev);
	struct ptr_ring *r = &priv->rq[queue].xdp_ring;
	int n = 0;

	if (!r->queue)
		return -ENXIO;
	for (int i = 0; i < r->size; i++)
		n += r->queue[i] != NULL;
	return n;
}
