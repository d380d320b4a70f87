// SPDX-License-Identifier: GPL-2.0
/*
 * The sending half of DEVMAP redirects: one bulk queue of 16 frames per
 * (target device, CPU), transmitted with ndo_xdp_xmit() when it fills up
 * (flags 0) and with XDP_XMIT_FLUSH at xdp_do_flush(), the end of the NAPI
 * poll that filled it. Storage and the redirect decision are in devmap.c.
 *
 * A queue links itself onto its CPU's flush list at the first enqueue of a
 * poll, remembering the receiving device, and unlinks at the flush. Frames a
 * driver does not take ([sent, n) of ndo_xdp_xmit, or all n on a negative
 * return) are freed here and counted as the xdp_devmap_xmit tracepoint's
 * drops; the driver counts its own reason (veth: PEER_NO_XDP, RING_FULL).
 *
 * Kernel: kernel/bpf/devmap.c bq_enqueue(), bq_xmit_all(), __dev_flush(),
 *	   __xdp_enqueue(), dev_map_enqueue(), dev_xdp_enqueue(),
 *	   dev_map_notification() (NETDEV_REGISTER), include/linux/filter.h
 *	   xdp_ok_fwd_dev()
 * A devmap program (BPF_XDP_DEVMAP, bpf_devmap_val.bpf_prog) of the entry
 * that first filled a queue in a poll runs over all its frames before the
 * transmit, as dev_map_bpf_prog_run(): PASS frames are re-validated and
 * sent, the rest freed (counted on the target as DEVMAP_PROG).
 *
 * Kernel (also): dev_map_bpf_prog_run()
 * Differs: broadcast (dev_map_enqueue_multi) is -EOPNOTSUPP.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/smp.h>
#include <net/xdp.h>

#define DEV_MAP_BULK_SIZE	XDP_BULK_QUEUE_SIZE

struct xdp_dev_bulk_queue {
	struct xdp_frame *q[DEV_MAP_BULK_SIZE];
	struct xdp_dev_bulk_queue *flush_next;
	struct net_device *dev;
	struct net_device *dev_rx;
	struct bpf_prog *xdp_prog;	/* devmap program of this flush cycle */
	unsigned int count;
	bool on_list;
} __aligned(SMP_CACHE_BYTES);

/* This CPU's dev flush list (the kernel's per-CPU dev_flush_list). */
static __thread struct xdp_dev_bulk_queue *dev_flush_list;

int dev_map_netdev_register(struct net_device *dev)
{
	struct xdp_dev_bulk_queue *bq;

	bq = aligned_alloc(SMP_CACHE_BYTES, NR_CPUS * sizeof(*bq));
	if (!bq)
		return -ENOMEM;
	memset(bq, 0, NR_CPUS * sizeof(*bq));
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		bq[cpu].dev = dev;
	dev->xdp_bulkq = bq;
	return 0;
}

void dev_map_netdev_unregister(struct net_device *dev)
{
	free(dev->xdp_bulkq);
	dev->xdp_bulkq = NULL;
}

static int dev_map_bpf_prog_run(struct bpf_prog *xdp_prog, struct xdp_frame **frames, int n,
				struct net_device *tx_dev, struct net_device *rx_dev)
{
	struct xdp_txq_info txq = { .dev = tx_dev };
	struct xdp_rxq_info rxq = { .dev = rx_dev };
	int i, nframes = 0;

	for (i = 0; i < n; i++) {
		struct xdp_frame *xdpf = frames[i];
		struct xdp_buff xdp;
		u32 act;

		xdp_convert_frame_to_buff(xdpf, &xdp);
		xdp.txq = &txq;
		xdp.rxq = &rxq;
		act = bpf_prog_run(xdp_prog, &xdp);
		if (act == XDP_PASS && !xdp_update_frame_from_buff(&xdp, xdpf)) {
			frames[nframes++] = xdpf;
			continue;
		}
		/* DROP, ABORTED, and TX/REDIRECT/invalid (warned, as ABORTED). */
		xdp_return_frame_rx_napi(xdpf);
	}
	return nframes;
}

static void bq_xmit_all(struct xdp_dev_bulk_queue *bq, u32 flags)
{
	struct net_device *dev = bq->dev;
	unsigned int cnt = bq->count, to_send = cnt;
	struct netdev_pcpu_stats *st;
	int sent = 0, i;

	if (unlikely(!cnt))
		return;
	if (bq->xdp_prog) {
		to_send = dev_map_bpf_prog_run(bq->xdp_prog, bq->q, cnt, dev, bq->dev_rx);
		if (to_send < cnt)
			netdev_drop(dev, NETDEV_DROP_DEVMAP_PROG, cnt - to_send);
		if (!to_send)
			goto out;
	}
	sent = dev->netdev_ops->ndo_xdp_xmit(dev, to_send, bq->q, flags);
	if (sent < 0)
		sent = 0;	/* -errno: the driver took none */
	for (i = sent; i < (int)to_send; i++)
		xdp_return_frame_rx_napi(bq->q[i]);
out:
	st = dev_pcpu_stats(dev);
	st->devmap_xmit_sent += sent;
	st->devmap_xmit_drops += cnt - sent;
	bq->count = 0;
}

void __dev_flush(void)
{
	struct xdp_dev_bulk_queue *bq, *next;

	for (bq = dev_flush_list; bq; bq = next) {
		next = bq->flush_next;
		bq_xmit_all(bq, XDP_XMIT_FLUSH);
		bq->dev_rx = NULL;
		bq->xdp_prog = NULL;
		bq->flush_next = NULL;
		bq->on_list = false;
	}
	dev_flush_list = NULL;
}

bool dev_check_flush(void)
{
	return dev_flush_list != NULL;
}

static void bq_enqueue(struct net_device *dev, struct xdp_frame *xdpf, struct net_device *dev_rx,
		       struct bpf_prog *xdp_prog)
{
	struct xdp_dev_bulk_queue *bq = &dev->xdp_bulkq[smp_processor_id()];

	if (unlikely(bq->count == DEV_MAP_BULK_SIZE))
		bq_xmit_all(bq, 0);
	if (!bq->on_list) {
		bq->dev_rx = dev_rx;
		bq->xdp_prog = xdp_prog;
		bq->on_list = true;
		bq->flush_next = dev_flush_list;
		dev_flush_list = bq;
	}
	bq->q[bq->count++] = xdpf;
}

int xdp_ok_fwd_dev(const struct net_device *fwd, unsigned int pktlen)
{
	if (unlikely(!(fwd->flags & IFF_UP)))
		return -ENETDOWN;
	if (unlikely(pktlen > fwd->mtu + fwd->hard_header_len + VLAN_HLEN))
		return -EMSGSIZE;
	return 0;
}

static int __xdp_enqueue(struct net_device *dev, struct xdp_frame *xdpf,
			 struct net_device *dev_rx, struct bpf_prog *xdp_prog)
{
	int err;

	if (!(dev->xdp_features & NETDEV_XDP_ACT_NDO_XMIT) || !dev->netdev_ops->ndo_xdp_xmit)
		return -EOPNOTSUPP;
	if (unlikely(xdp_frame_has_frags(xdpf) && !(dev->xdp_features & NETDEV_XDP_ACT_NDO_XMIT_SG)))
		return -EOPNOTSUPP;
	err = xdp_ok_fwd_dev(dev, xdp_get_frame_len(xdpf));
	if (unlikely(err))
		return err;
	bq_enqueue(dev, xdpf, dev_rx, xdp_prog);
	return 0;
}

int dev_xdp_enqueue(struct net_device *dev, struct xdp_frame *xdpf, struct net_device *dev_rx)
{
	return __xdp_enqueue(dev, xdpf, dev_rx, NULL);
}

int dev_map_enqueue(struct net_device *dev, struct xdp_frame *xdpf, struct net_device *dev_rx)
{
	return __xdp_enqueue(dev, xdpf, dev_rx, NULL);
}

int dev_map_enqueue_prog(struct net_device *dev, struct xdp_frame *xdpf,
			 struct net_device *dev_rx, struct bpf_prog *xdp_prog)
{
	return __xdp_enqueue(dev, xdpf, dev_rx, xdp_prog);
}
