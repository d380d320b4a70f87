// SPDX-License-Identifier: GPL-2.0
/*
 * afxdp: a NIC driver whose wire is a real interface, reached through AF_XDP
 * sockets (`link add NAME type afxdp dev IFNAME [queue Q] [queues N]
 * [mode copy|zerocopy|auto] [xdpmode native|generic|auto] [prog default|libxdp|OBJ]`).
 * mode is the socket's bind (XDP_COPY, XDP_ZEROCOPY, or the kernel's
 * choice); xdpmode how the kernel program attaches (auto: native, else
 * generic; the default with mode auto; native otherwise).
 *
 * Theory of operation.
 * Objects: one struct afxdp_queue per kernel rx queue Q..Q+N-1: an AF_XDP
 * socket with its own UMEM (afxdp_xsk.c), a page pool, an xdp_rxq_info and
 * a NAPI instance. A kernel XDP program (built-in, libxdp's, or an object
 * with an XSKMAP named xsks_map) redirects the interface's frames into the
 * socket of their queue, XDP_PASS when the slot is empty.
 * UMEM: frames 0..AFXDP_RING-1 are rx frames, always either in the fill
 * ring, in the kernel, or in the rx ring for the instant it takes to copy
 * them out: the poll gives every received frame straight back to the fill
 * ring, so the fill ring stays full. The other AFXDP_RING frames are tx
 * frames, on the queue's free stack or in flight (tx ring → completion ring).
 * Rx: afxdp_poll() peeks up to the budget of rx descriptors, copies each
 * frame into a page-pool page at XDP_PACKET_HEADROOM (the copy a ZC driver
 * such as i40e does on XDP_PASS, i40e_construct_skb_zc(), done here for
 * every frame so that everything after it is the ordinary page-pool rx
 * path), refills the fill ring and releases the rx ring, then runs native
 * XDP on each buffer as gen/ixgbe do: PASS → napi_build_skb → eth_type_trans
 * → netif_receive_skb (uxdp's IPv4 forwarding), TX → this device's tx ring,
 * REDIRECT → xdp_do_redirect(), flushed at the end of the poll.
 * Tx: ndo_start_xmit copies the skb into a free tx frame and puts its
 * descriptor on the tx ring of the calling worker's queue (smp_processor_id()
 * % queues, under the queue's tx lock: the HARD_TX_LOCK of the kernel);
 * ndo_xdp_xmit does the same for xdp_frames. Descriptors are submitted at
 * once; the kernel is kicked (sendto) once at the end of the fd-device poll
 * that produced them (napi_fd_defer_kick(), the xmit_more idea: rx on xa
 * and tx on xb kick xb once per xa poll), at once outside such a poll, or
 * when AFXDP_TX_BATCH are pending; and only when the tx ring says it needs
 * a wakeup (need_wakeup; in copy mode it always does, and one sendto()
 * sends at most 32 frames). The completion ring is drained at the start of
 * each poll and when the free stack runs dry.
 * Threading: a queue's rx side belongs to the worker polling its NAPI; its
 * tx side is shared under tx_lock. While frames flow the NAPI stays
 * scheduled (busy polling); after 64 empty polls it parks and the idle
 * worker sleeps in poll(2) on the socket (napi_fd.c). Each device is a
 * source while a run lasts (ndo_gen_active): give the run a duration.
 * Shutdown: ndo_uninit closes the sockets and the link of the kernel
 * program (the kernel detaches it; a bpf_link also goes with the process
 * however it ends). If the interface is removed while running, the kernel
 * unbinds the sockets (ENETDOWN/ENXIO): the poll notices, says so, and
 * ends the run; the device stays, marked down.
 * Roadmap: afxdp_newlink() → afxdp_kprog_load() → afxdp_queue_setup() →
 * afxdp_xsk_create() → afxdp_kprog_set() → afxdp_kprog_attach() → afxdp_poll() → afxdp_rx() / afxdp_tx_flush() →
 * afxdp_xmit() / afxdp_xdp_xmit() → afxdp_uninit().
 *
 * Kernel: drivers/net/ethernet/intel/i40e/i40e_xsk.c i40e_clean_rx_irq_zc(),
 *	   i40e_construct_skb_zc(), i40e_xmit_zc(); samples/bpf/xdpsock_user.c
 *	   (fill/completion/need_wakeup protocol); net/xdp/xsk.c (what the
 *	   kernel does on the other side of the rings)
 * Differs: the UMEM is a separate mmap()ed area, not page-pool pages
 *	    (uxdp's pages are at most 1 MiB contiguous and carry no struct page
 *	    the kernel could fill), so every received frame is copied once into
 *	    a page-pool page and every sent one into a UMEM frame; no
 *	    multi-buffer (frames up to one UMEM frame); busy polling and poll(2)
 *	    instead of interrupts.
 */
#include <errno.h>
#include <stdio.h>

#include <linux/netdevice.h>
#include <net/rtnetlink.h>

#ifdef CONFIG_UXDP_AF_XDP
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <linux/skbuff.h>
#include <net/page_pool/helpers.h>
#include <net/rtnetlink.h>
#include <net/xdp.h>
#include <net/xdp_rx.h>

#include "afxdp_xsk.h"
#include "napi_fd.h"

#define AFXDP_HEADROOM		256	/* XDP_PACKET_HEADROOM in the page-pool page */
#define AFXDP_FRAME_SIZE	4096	/* UMEM frame */
#define AFXDP_RING		2048	/* each ring; rx frames = tx frames = this */
#define AFXDP_MAX_QUEUES	16
#define AFXDP_TX_BATCH		64	/* kick the kernel after this many descriptors */
#define AFXDP_POOL_SIZE		2048
#define AFXDP_ERR_CHECK		4096	/* idle polls between socket error checks */
#define AFXDP_KICK_TRIES	8	/* sendto()s per flush while the kernel says EAGAIN */
/* Largest frame a page-pool page takes after its headroom and shinfo. */
#define AFXDP_MAX_LEN		SKB_WITH_OVERHEAD(PAGE_SIZE - AFXDP_HEADROOM)

struct afxdp_queue {
	struct napi_struct napi;
	struct net_device *dev;
	struct page_pool *pool;
	struct xdp_rxq_info xdp_rxq;
	struct afxdp_xsk x;
	u32 qid;			/* kernel rx queue */
	bool has_napi;
	/* rx side: the polling worker only */
	u32 idle_polls;
	u64 rx_polls;
	u64 rx_batches;			/* polls that got frames */
	u64 fill_kicks;
	u64 fill_waits;			/* polls that met the fill ring not yet released */
	u64 rx_too_big;
	/* tx side: under tx_lock */
	pthread_spinlock_t tx_lock __aligned(SMP_CACHE_BYTES);
	u64 *tx_free;			/* free tx frame addresses (stack) */
	u32 tx_free_cnt;
	u32 tx_pending;			/* submitted since the last kick */
	u32 tx_inflight;		/* submitted, not completed */
	u64 tx_kicks;
	u64 tx_kick_err;
	u64 tx_full;
	struct napi_fd nfd;		/* idle parking on the socket's fd */
	struct napi_fd_kick kick;	/* tx doorbell, deferred to the end of a poll */
} __aligned(SMP_CACHE_BYTES);

struct afxdp_priv {
	char ifname[IFNAMSIZ];
	int ifindex;
	u32 queue;			/* first kernel queue */
	u32 nr_queues;
	enum afxdp_bind_mode mode;
	enum afxdp_xdp_mode xdp_mode;	/* the kernel program's attach mode */
	const char *prog;		/* NULL: built-in; "libxdp"; else an object path */
	char prog_path[256];
	struct afxdp_kprog kprog;
	bool kprog_loaded;
	bool gone;			/* the interface was removed */
	u32 gen_active_calls;		/* paces the socket error checks */
	struct afxdp_queue *q;
};


static bool afxdp_active(struct net_device *dev)
{
	struct afxdp_priv *priv = netdev_priv(dev);

	return (dev->flags & IFF_UP) && !READ_ONCE(priv->gone) &&
	       !netdev_run_stopping();
}

/* ---- tx ------------------------------------------------------------------ */

/* Take back the frames the kernel sent; tx_lock held. */
static void afxdp_complete(struct afxdp_queue *q)
{
	u32 idx, n = xsk_ring_cons__peek(&q->x.cq, AFXDP_RING, &idx);

	for (u32 i = 0; i < n; i++)
		q->tx_free[q->tx_free_cnt++] = *xsk_ring_cons__comp_addr(&q->x.cq, idx + i);
	if (n)
		xsk_ring_cons__release(&q->x.cq, n);
	q->tx_inflight -= n;
}

/* Interface gone? Called when a kick fails and now and then when idle. */
static void afxdp_check_gone(struct afxdp_queue *q, int err)
{
	struct net_device *dev = q->dev;
	struct afxdp_priv *priv = netdev_priv(dev);

	if (!err)
		err = afxdp_xsk_error(&q->x);
	if (err < 0)
		err = -err;
	if (err != ENETDOWN && err != ENXIO && err != ENODEV)
		return;
	if (__atomic_exchange_n(&priv->gone, true, __ATOMIC_ACQ_REL))
		return;
	pr_warn("%s: interface %s was removed (AF_XDP socket unbound: %s); stopping the run\n",
		dev->name, priv->ifname, strerror(err));
	netdev_run_stop();
}

/*
 * Kick the kernel to send what is on the tx ring; tx_lock held. In copy
 * mode one sendto() sends at most the socket's tx budget (32 frames) and
 * says -EAGAIN when more are left: kick again, a few times, and leave the
 * rest pending for the next flush rather than spinning here.
 */
static void __afxdp_tx_kick(struct afxdp_queue *q)
{
	if (!q->tx_pending)
		return;
	q->tx_pending = 0;
	if (!xsk_ring_prod__needs_wakeup(&q->x.tx))
		return;
	for (int tries = 0; tries < AFXDP_KICK_TRIES; tries++) {
		q->tx_kicks++;
		if (sendto(q->x.fd, NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0)
			return;
		if (errno == EAGAIN || errno == EBUSY || errno == ENOBUFS)
			continue;
		q->tx_kick_err++;
		afxdp_check_gone(q, errno);
		return;
	}
	q->tx_pending = 1;
}

static void afxdp_kick(struct napi_fd_kick *k)
{
	struct afxdp_queue *q = container_of(k, struct afxdp_queue, kick);

	pthread_spin_lock(&q->tx_lock);
	__afxdp_tx_kick(q);
	pthread_spin_unlock(&q->tx_lock);
}

/*
 * Put @len bytes (copied by @copy from @src) on the tx ring of the calling
 * worker's queue. Return: 0, or the drop reason.
 */
static int afxdp_tx_one(struct net_device *dev, const void *src, unsigned int len,
			bool is_skb)
{
	struct afxdp_priv *priv = netdev_priv(dev);
	struct afxdp_queue *q = &priv->q[smp_processor_id() % priv->nr_queues];
	struct xdp_desc *desc;
	u32 idx;
	u64 addr;

	if (unlikely(len > AFXDP_FRAME_SIZE))
		return NETDEV_DROP_XMIT_MTU;
	pthread_spin_lock(&q->tx_lock);
	if (unlikely(!q->tx_free_cnt)) {
		afxdp_complete(q);
		if (!q->tx_free_cnt) {
			q->tx_pending = q->tx_pending ? q->tx_pending : 1;
			__afxdp_tx_kick(q);
			afxdp_complete(q);
		}
		if (!q->tx_free_cnt) {
			q->tx_full++;
			pthread_spin_unlock(&q->tx_lock);
			return NETDEV_DROP_XSK_TX_FULL;
		}
	}
	/* As many free frames as ring slots: a reserve cannot fail here. */
	if (unlikely(xsk_ring_prod__reserve(&q->x.tx, 1, &idx) != 1)) {
		q->tx_full++;
		pthread_spin_unlock(&q->tx_lock);
		return NETDEV_DROP_XSK_TX_FULL;
	}
	addr = q->tx_free[--q->tx_free_cnt];
	if (is_skb)
		skb_copy_bits(src, 0, xsk_umem__get_data(q->x.area, addr), len);
	else
		memcpy(xsk_umem__get_data(q->x.area, addr), src, len);
	desc = xsk_ring_prod__tx_desc(&q->x.tx, idx);
	desc->addr = addr;
	desc->len = len;
	desc->options = 0;
	xsk_ring_prod__submit(&q->x.tx, 1);
	q->tx_inflight++;
	if (++q->tx_pending >= AFXDP_TX_BATCH)
		__afxdp_tx_kick(q);
	pthread_spin_unlock(&q->tx_lock);
	/* The doorbell once per poll (xmit_more); outside an fd-device poll, now. */
	if (!napi_fd_defer_kick(&q->kick))
		afxdp_kick(&q->kick);
	return 0;
}

static void afxdp_count_tx(struct net_device *dev, int reason, unsigned int len)
{
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);

	if (likely(!reason)) {
		st->tx_packets++;
		st->tx_bytes += len;
	} else {
		netdev_drop(dev, reason, 1);
	}
}

static netdev_tx_t afxdp_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct afxdp_priv *priv = netdev_priv(dev);
	unsigned int len = skb->len;
	int reason;

	if (unlikely(READ_ONCE(priv->gone)))
		reason = NETDEV_DROP_XSK_IF_GONE;
	else
		reason = afxdp_tx_one(dev, skb, len, true);
	afxdp_count_tx(dev, reason, len);
	if (reason)
		kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
	else
		consume_skb(skb);
	return NETDEV_TX_OK;
}

static int afxdp_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames, u32 flags)
{
	struct afxdp_priv *priv = netdev_priv(dev);

	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;
	if (unlikely(READ_ONCE(priv->gone) || !(dev->flags & IFF_UP)))
		return -ENXIO;
	for (int i = 0; i < n; i++) {
		struct xdp_frame *frame = frames[i];
		int reason;

		/* Multi-buffer frames are refused at redirect (no NDO_XMIT_SG). */
		reason = afxdp_tx_one(dev, frame->data, frame->len, false);
		afxdp_count_tx(dev, reason, frame->len);
		xdp_return_frame(frame);
	}
	/* The frames are copied and returned: all taken. */
	return n;
}

/* ---- rx ------------------------------------------------------------------ */

/* XDP_TX: out on this device's own tx ring. */
static void afxdp_xdp_tx(struct net_device *dev, struct xdp_buff *xdp)
{
	unsigned int len = (u8 *)xdp->data_end - (u8 *)xdp->data;
	int reason = afxdp_tx_one(dev, xdp->data, len, false);

	afxdp_count_tx(dev, reason, len);
	xdp_return_buff(xdp);
}

/*
 * Copy up to @budget received frames out of the UMEM, give the frames back
 * to the fill ring, then run each through XDP and the stack.
 * Return: frames received.
 */
static int afxdp_rx(struct afxdp_queue *q, int budget)
{
	struct xdp_buff bufs[NAPI_POLL_WEIGHT];
	struct net_device *dev = q->dev;
	struct bpf_prog *prog = dev->xdp_prog;
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	u32 idx_rx, idx_fq = 0, n, room, got = 0;
	bool redirected = false;

	if (budget > NAPI_POLL_WEIGHT)
		budget = NAPI_POLL_WEIGHT;
	n = xsk_ring_cons__peek(&q->x.rx, budget, &idx_rx);
	if (!n)
		return 0;
	/*
	 * Every rx frame the kernel handed back goes straight to the fill
	 * ring, which has room for all rx frames -- once the kernel says so:
	 * xsk_flush() publishes the rx descriptors before the fill ring's
	 * consumer, so for that moment the fill ring looks full. Take as many
	 * frames as there is room for; the rest wait on the rx ring.
	 */
	room = xsk_prod_nb_free(&q->x.fq, n);
	if (unlikely(room < n)) {
		q->fill_waits++;
		xsk_ring_cons__cancel(&q->x.rx, n - room);
		n = room;
		if (!n)
			return 0;
	}
	if (unlikely(xsk_ring_prod__reserve(&q->x.fq, n, &idx_fq) != n))
		BUG_ON_MSG(1, "afxdp: fill ring reserve failed with room for it");
	for (u32 i = 0; i < n; i++) {
		const struct xdp_desc *desc = xsk_ring_cons__rx_desc(&q->x.rx, idx_rx + i);
		u64 addr = xsk_umem__add_offset_to_addr(desc->addr);
		struct page *page;
		u8 *va;

		*xsk_ring_prod__fill_addr(&q->x.fq, idx_fq + i) = xsk_umem__extract_addr(desc->addr);
		st->rx_packets++;
		st->rx_bytes += desc->len;
		if (unlikely(desc->len > AFXDP_MAX_LEN || desc->len < ETH_HLEN)) {
			q->rx_too_big++;
			netdev_drop(dev, NETDEV_DROP_XSK_RX_LEN, 1);
			continue;
		}
		page = page_pool_dev_alloc_pages(q->pool);
		if (unlikely(!page)) {
			netdev_drop(dev, NETDEV_DROP_XSK_RX_NOMEM, 1);
			continue;
		}
		va = page_address(page);
		memcpy(va + AFXDP_HEADROOM, xsk_umem__get_data(q->x.area, addr), desc->len);
		xdp_init_buff(&bufs[got], PAGE_SIZE, &q->xdp_rxq);
		xdp_prepare_buff(&bufs[got], va, AFXDP_HEADROOM, desc->len, true);
		got++;
	}
	xsk_ring_prod__submit(&q->x.fq, n);
	xsk_ring_cons__release(&q->x.rx, n);
	q->rx_batches++;

	for (u32 i = 0; i < got; i++) {
		struct xdp_buff *xdp = &bufs[i];
		u32 act;

		act = prog ? netdev_xdp_count_verdict(dev, bpf_prog_run(prog, xdp)) : XDP_PASS;
		if (act == XDP_TX)
			afxdp_xdp_tx(dev, xdp);
		else
			redirected |= xdp_rx_verdict(dev, xdp, prog, act);
	}
	if (redirected)
		xdp_do_flush();
	return n;
}

static int afxdp_poll(struct napi_struct *napi, int budget)
{
	struct afxdp_queue *q = container_of(napi, struct afxdp_queue, napi);
	struct net_device *dev = q->dev;
	int n;

	if (!afxdp_active(dev)) {
		afxdp_kick(&q->kick);
		napi_complete_done(napi, 0);
		return 0;
	}
	q->rx_polls++;
	napi_fd_poll_begin();
	pthread_spin_lock(&q->tx_lock);
	afxdp_complete(q);
	pthread_spin_unlock(&q->tx_lock);
	n = afxdp_rx(q, budget);
	/* need_wakeup: only a flagged fill ring wants a syscall. */
	if (!n && xsk_ring_prod__needs_wakeup(&q->x.fq)) {
		q->fill_kicks++;
		recvfrom(q->x.fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
	}
	if (READ_ONCE(q->tx_pending))
		napi_fd_defer_kick(&q->kick);	/* a kick that met EAGAIN: again */
	/* Kicks every tx ring this poll wrote to (ours, or xb's when forwarding). */
	napi_fd_poll_end();
	/*
	 * Descriptors still on the tx ring after the kicks (EAGAIN: send
	 * buffer full, or more than the kicks' budget) are work: parked,
	 * nothing would kick them until the next transmit, or the end of the
	 * run, when nobody reads the answers any more.
	 */
	if (napi_fd_idle(&q->nfd, n || READ_ONCE(q->tx_pending))) {
		/* Parking: poll(2) on the socket wakes us, or reports POLLERR. */
		afxdp_check_gone(q, 0);
		napi_complete_done(napi, n);
		return n < budget ? n : budget - 1;
	}
	if (!n && ++q->idle_polls >= AFXDP_ERR_CHECK) {
		q->idle_polls = 0;
		afxdp_check_gone(q, 0);
	} else if (n) {
		q->idle_polls = 0;
	}
	return budget;
}

/* ---- device -------------------------------------------------------------- */

static int afxdp_open(struct net_device *dev)
{
	struct afxdp_priv *priv = netdev_priv(dev);

	if (priv->gone)
		return -ENODEV;
	for (u32 i = 0; i < priv->nr_queues; i++)
		napi_enable(&priv->q[i].napi);
	return 0;
}

static int afxdp_stop(struct net_device *dev)
{
	struct afxdp_priv *priv = netdev_priv(dev);

	for (u32 i = 0; i < priv->nr_queues; i++)
		napi_disable(&priv->q[i].napi);
	return 0;
}

static int afxdp_bpf(struct net_device *dev, struct netdev_bpf *bpf)
{
	/* Frames are single-buffer: xdp and xdp.frags programs both take them. */
	return bpf->command == XDP_SETUP_PROG ? 0 : -EINVAL;
}

/* A run goes on while the device is up (an idle worker sleeps in napi_fd's idle hook). */
static bool afxdp_ndo_gen_active(struct net_device *dev)
{
	struct afxdp_priv *priv = netdev_priv(dev);

	if (!afxdp_active(dev))
		return false;
	/*
	 * A parked queue never learns that its interface went: poll(2) on an
	 * unbound AF_XDP socket reports nothing (xsk_poll() checks the binding
	 * first). The run's control loop and idle workers ask here, so look.
	 */
	if (!(__atomic_fetch_add(&priv->gen_active_calls, 1, __ATOMIC_RELAXED) % 64))
		for (u32 i = 0; i < priv->nr_queues; i++)
			afxdp_check_gone(&priv->q[i], 0);
	return afxdp_active(dev);
}

static void afxdp_queue_teardown(struct afxdp_queue *q)
{
	if (q->has_napi) {
		netif_napi_del(&q->napi);
		xdp_rxq_info_unreg(&q->xdp_rxq);
		q->has_napi = false;
	}
	afxdp_xsk_destroy(&q->x);
	page_pool_destroy(q->pool);
	q->pool = NULL;
	free(q->tx_free);
	q->tx_free = NULL;
	pthread_spin_destroy(&q->tx_lock);
}

static void afxdp_uninit(struct net_device *dev)
{
	struct afxdp_priv *priv = netdev_priv(dev);

	napi_fd_unregister(dev);
	/* Detach the kernel program first: frames then XDP_PASS to the kernel. */
	if (priv->kprog_loaded)
		afxdp_kprog_detach(&priv->kprog);
	priv->kprog_loaded = false;
	for (u32 i = 0; priv->q && i < priv->nr_queues; i++)
		afxdp_queue_teardown(&priv->q[i]);
	free(priv->q);
	priv->q = NULL;
	priv->nr_queues = 0;
}

static void afxdp_get_stats64(struct net_device *dev, struct rtnl_link_stats64 *s)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		const struct netdev_pcpu_stats *p = &dev->pcpu_stats[cpu];

		s->rx_packets += p->rx_packets;
		s->rx_bytes += p->rx_bytes;
		s->tx_packets += p->tx_packets;
		s->tx_bytes += p->tx_bytes;
	}
}

static void afxdp_stat(char (*names)[48], u64 *values, int max, int *n, u32 q,
		       const char *name, u64 v)
{
	if (*n < max) {
		if (q == (u32)-1)
			snprintf(names[*n], 48, "%s", name);
		else
			snprintf(names[*n], 48, "q%u_%s", q, name);
		values[*n] = v;
	}
	(*n)++;
}

static int afxdp_get_ethtool_stats(struct net_device *dev, char (*names)[48], u64 *values,
				   int max)
{
	static const char *const xsk_names[6] = {
		"xsk_rx_dropped", "xsk_rx_invalid_descs", "xsk_tx_invalid_descs",
		"xsk_rx_ring_full", "xsk_fill_ring_empty", "xsk_tx_ring_empty",
	};
	struct afxdp_priv *priv = netdev_priv(dev);
	int n = 0;

	afxdp_stat(names, values, max, &n, -1, "ifindex", priv->ifindex);
	afxdp_stat(names, values, max, &n, -1, "xdp_generic", priv->kprog.generic);
	afxdp_stat(names, values, max, &n, -1, "interface_gone", priv->gone);
	for (u32 i = 0; i < priv->nr_queues; i++) {
		struct afxdp_queue *q = &priv->q[i];
		uint64_t xs[6] = { 0 };

		afxdp_xsk_stats(&q->x, xs);
		afxdp_stat(names, values, max, &n, i, "zerocopy", q->x.zerocopy);
		afxdp_stat(names, values, max, &n, i, "polls", q->rx_polls);
		afxdp_stat(names, values, max, &n, i, "rx_batches", q->rx_batches);
		afxdp_stat(names, values, max, &n, i, "fill_kicks", q->fill_kicks);
		afxdp_stat(names, values, max, &n, i, "fill_waits", q->fill_waits);
		afxdp_stat(names, values, max, &n, i, "tx_kicks", q->tx_kicks);
		afxdp_stat(names, values, max, &n, i, "tx_kick_errors", q->tx_kick_err);
		afxdp_stat(names, values, max, &n, i, "tx_full", q->tx_full);
		afxdp_stat(names, values, max, &n, i, "tx_inflight", q->tx_inflight);
		for (int k = 0; k < 6; k++)
			afxdp_stat(names, values, max, &n, i, xsk_names[k], xs[k]);
	}
	return n;
}

static void afxdp_stats_reset(struct net_device *dev)
{
	struct afxdp_priv *priv = netdev_priv(dev);

	for (u32 i = 0; i < priv->nr_queues; i++) {
		struct afxdp_queue *q = &priv->q[i];

		q->rx_polls = q->rx_batches = q->fill_kicks = q->fill_waits = q->rx_too_big = 0;
		q->tx_kicks = q->tx_kick_err = q->tx_full = 0;
	}
}

static const struct net_device_ops afxdp_netdev_ops = {
	.ndo_uninit = afxdp_uninit,
	.ndo_open = afxdp_open,
	.ndo_stop = afxdp_stop,
	.ndo_start_xmit = afxdp_xmit,
	.ndo_xdp_xmit = afxdp_xdp_xmit,
	.ndo_bpf = afxdp_bpf,
	.ndo_get_stats64 = afxdp_get_stats64,
	.ndo_get_ethtool_stats = afxdp_get_ethtool_stats,
	.ndo_stats_reset = afxdp_stats_reset,
	.ndo_gen_active = afxdp_ndo_gen_active,
};

static void afxdp_setup(struct net_device *dev)
{
	dev->netdev_ops = &afxdp_netdev_ops;
	dev->link_announce = 1;	/* a real wire: gratuitous ARP at the first run */
	dev->xdp_features = NETDEV_XDP_ACT_BASIC | NETDEV_XDP_ACT_REDIRECT |
			    NETDEV_XDP_ACT_NDO_XMIT;
}

static int afxdp_queue_setup(struct net_device *dev, struct afxdp_queue *q, u32 qid,
			     char *err, size_t errlen)
{
	struct afxdp_priv *priv = netdev_priv(dev);
	struct afxdp_xsk_cfg cfg = {
		.devname = dev->name,
		.ifname = priv->ifname,
		.queue = qid,
		.mode = priv->mode,
		.libxdp_prog = priv->prog && !strcmp(priv->prog, "libxdp"),
		.xdp_generic = priv->xdp_mode == AFXDP_XDP_GENERIC,
		.frame_size = AFXDP_FRAME_SIZE,
		.nr_frames = 2 * AFXDP_RING,
		.ring_size = AFXDP_RING,
	};
	struct page_pool_params pp = {
		.pool_size = AFXDP_POOL_SIZE,
		.netdev = dev,
	};
	u32 idx;
	int ret;

	q->dev = dev;
	q->qid = qid;
	q->x.fd = -1;
	pthread_spin_init(&q->tx_lock, PTHREAD_PROCESS_PRIVATE);
	q->pool = page_pool_create(&pp);
	if (IS_ERR(q->pool)) {
		ret = PTR_ERR(q->pool);
		q->pool = NULL;
		snprintf(err, errlen, "%s: out of memory", dev->name);
		return ret;
	}
	q->tx_free = calloc(AFXDP_RING, sizeof(*q->tx_free));
	if (!q->tx_free) {
		snprintf(err, errlen, "%s: out of memory", dev->name);
		return -ENOMEM;
	}
	ret = afxdp_xsk_create(&q->x, &cfg, err, errlen);
	if (ret)
		return ret;
	/* Fill ring full from the start: every rx frame is the kernel's. */
	if (xsk_ring_prod__reserve(&q->x.fq, AFXDP_RING, &idx) != AFXDP_RING) {
		snprintf(err, errlen, "%s: fill ring smaller than %u", dev->name, AFXDP_RING);
		return -EINVAL;
	}
	for (u32 i = 0; i < AFXDP_RING; i++)
		*xsk_ring_prod__fill_addr(&q->x.fq, idx + i) = (u64)i * AFXDP_FRAME_SIZE;
	xsk_ring_prod__submit(&q->x.fq, AFXDP_RING);
	for (u32 i = 0; i < AFXDP_RING; i++)
		q->tx_free[q->tx_free_cnt++] = (u64)(AFXDP_RING + i) * AFXDP_FRAME_SIZE;

	netif_napi_add(dev, &q->napi, afxdp_poll);
	xdp_rxq_info_reg(&q->xdp_rxq, dev, qid, 0);
	xdp_rxq_info_reg_mem_model(&q->xdp_rxq, MEM_TYPE_PAGE_POOL, q->pool);
	q->has_napi = true;
	q->nfd.napi = &q->napi;
	q->nfd.fd = q->x.fd;
	q->kick.kick = afxdp_kick;
	return 0;
}

struct afxdp_link_args {
	const char *dev, *prog;
	u32 queue, queues;
	u32 mode;		/* enum afxdp_bind_mode */
	u32 xdp_mode;		/* enum afxdp_xdp_mode; AFXDP_XDP_UNSET if not given */
};

#define AFXDP_XDP_UNSET	UINT32_MAX

static int afxdp_arg_prog(void *base, const char *v)
{
	struct afxdp_link_args *args = base;

	if (!*v || strlen(v) >= sizeof(((struct afxdp_priv *)0)->prog_path))
		return -EINVAL;
	args->prog = v;
	return 0;
}

static const char *const *afxdp_bind_modes(void)
{
	static const char *const modes[] = { "auto", "copy", "zerocopy", NULL };	/* enum afxdp_bind_mode */

	return modes;
}

static const char *const *afxdp_xdp_modes(void)
{
	static const char *const modes[] = { "native", "auto", "generic", NULL };	/* enum afxdp_xdp_mode */

	return modes;
}

static const struct rtnl_link_arg afxdp_link_args[] = {
	RTNL_ARG_N(struct afxdp_link_args, "dev", dev, "IFNAME", IFNAMSIZ - 1, "interface name",
		   "eth0", .flags = RTNL_ARG_REQUIRED),
	RTNL_ARG_U(struct afxdp_link_args, "queue", queue, 0, UINT32_MAX, "Q"),
	RTNL_ARG_U(struct afxdp_link_args, "queues", queues, 1, AFXDP_MAX_QUEUES, "N"),
	RTNL_ARG_C(struct afxdp_link_args, "mode", mode, afxdp_bind_modes),
	RTNL_ARG_C(struct afxdp_link_args, "xdpmode", xdp_mode, afxdp_xdp_modes),
	RTNL_ARG_F("prog", afxdp_arg_prog, "default|libxdp|OBJ", "program (default, libxdp or a path)",
		   "libxdp"),
	{ NULL }
};

/* `link add NAME type afxdp ARGS` (afxdp_link_args). */
static int afxdp_newlink(struct net_device *dev, int argc, char **argv, char *err, size_t errlen)
{
	struct afxdp_link_args args = { .queues = 1, .mode = AFXDP_MODE_AUTO,
					.xdp_mode = AFXDP_XDP_UNSET };
	struct afxdp_priv *priv = netdev_priv(dev);
	const char *ifname;
	bool xdp_mode_set;
	int ret, nq;
	u32 i;

	priv->kprog.prog_fd = priv->kprog.map_fd = priv->kprog.link_fd = -1;
	ret = rtnl_link_args_parse(&afxdp_link_ops, &args, argc, argv, err, errlen);
	if (ret)
		return ret;
	ifname = args.dev;
	priv->queue = args.queue;
	priv->nr_queues = args.queues;
	priv->mode = args.mode;
	xdp_mode_set = args.xdp_mode != AFXDP_XDP_UNSET;
	if (xdp_mode_set)
		priv->xdp_mode = args.xdp_mode;
	if (!args.prog || !strcmp(args.prog, "default")) {
		priv->prog = NULL;
	} else if (!strcmp(args.prog, "libxdp")) {
		priv->prog = "libxdp";
	} else {
		strcpy(priv->prog_path, args.prog);
		priv->prog = priv->prog_path;
	}
	/* mode auto may fall back to generic XDP; copy and zerocopy want native unless told. */
	if (!xdp_mode_set)
		priv->xdp_mode = priv->mode == AFXDP_MODE_AUTO ? AFXDP_XDP_AUTO : AFXDP_XDP_NATIVE;
	if (priv->mode == AFXDP_MODE_ZEROCOPY && priv->xdp_mode == AFXDP_XDP_GENERIC) {
		snprintf(err, errlen, "afxdp: mode zerocopy needs the driver's native XDP (xdpmode native)");
		return -EINVAL;
	}
	if (strlen(ifname) >= IFNAMSIZ) {
		snprintf(err, errlen, "afxdp: '%s' is not a valid interface name", ifname);
		return -EINVAL;
	}
	strcpy(priv->ifname, ifname);
	priv->ifindex = afxdp_if_index(ifname);
	if (priv->ifindex <= 0) {
		snprintf(err, errlen, "%s: no interface '%s' in this network namespace "
			 "(ip link show; run uxdp in the namespace that holds it, e.g. ip netns exec)",
			 dev->name, ifname);
		return -ENODEV;
	}
	nq = afxdp_if_rx_queues(ifname);
	if (nq > 0 && priv->queue + priv->nr_queues > (u32)nq) {
		snprintf(err, errlen, "%s: queue%s %u%s%.0u out of range: %s has %d rx queue%s "
			 "(ethtool -l %s); use queue 0..%d",
			 dev->name, priv->nr_queues > 1 ? "s" : "", priv->queue,
			 priv->nr_queues > 1 ? ".." : "",
			 priv->nr_queues > 1 ? priv->queue + priv->nr_queues - 1 : 0,
			 ifname, nq, nq > 1 ? "s" : "", ifname, nq - 1);
		return -ERANGE;
	}
	/* A NIC's MAC is the NIC's: ARP replies and PACKET_HOST use the interface's. */
	afxdp_if_hwaddr(ifname, dev->dev_addr);
	dev->mtu = ETH_DATA_LEN;
	dev->max_mtu = AFXDP_MAX_LEN - ETH_HLEN;

	ret = register_netdevice(dev);
	if (ret) {
		snprintf(err, errlen, "cannot register '%s'", dev->name);
		return ret;
	}
	napi_fd_register(dev);
	priv->q = aligned_alloc(SMP_CACHE_BYTES, priv->nr_queues * sizeof(*priv->q));
	if (!priv->q) {
		snprintf(err, errlen, "%s: out of memory", dev->name);
		ret = -ENOMEM;
		goto out_unregister;
	}
	memset(priv->q, 0, priv->nr_queues * sizeof(*priv->q));
	if (!priv->prog || strcmp(priv->prog, "libxdp")) {
		ret = afxdp_kprog_load(&priv->kprog, dev->name, priv->prog, err, errlen);
		if (ret)
			goto out_free_queues;
		priv->kprog_loaded = true;
	}
	for (i = 0; i < priv->nr_queues; i++) {
		ret = afxdp_queue_setup(dev, &priv->q[i], priv->queue + i, err, errlen);
		if (ret)
			goto out_queues;
		if (priv->kprog_loaded) {
			ret = afxdp_kprog_set(&priv->kprog, priv->queue + i, priv->q[i].x.fd);
			if (ret) {
				snprintf(err, errlen, "%s: cannot insert the socket of queue %u in xsks_map: %s",
					 dev->name, priv->queue + i, strerror(-ret));
				goto out_queues;
			}
		}
	}
	/*
	 * Attached last: from the moment the program is on the interface
	 * (what `ip link` shows) every queue's frames reach a socket.
	 */
	if (priv->kprog_loaded) {
		ret = afxdp_kprog_attach(&priv->kprog, dev->name, ifname, priv->ifindex,
					 priv->xdp_mode, err, errlen);
		if (ret)
			goto out_unregister;	/* ndo_uninit unloads it and tears the queues down */
		if (priv->kprog.generic && priv->xdp_mode != AFXDP_XDP_GENERIC)
			pr_warn("%s: %s has no native XDP: the redirect program runs in generic (skb) mode\n",
				dev->name, ifname);
	}
	return 0;

out_queues:
	/* Queues 0..i are (half) built; the rest were never touched. */
	priv->nr_queues = i + 1;
out_free_queues:
	/* ndo_uninit detaches the kernel program and tears the queues down. */
out_unregister:
	unregister_netdevice(dev);
	return ret;
}

const struct rtnl_link_ops afxdp_link_ops = {
	.kind = "afxdp",
	.priv_size = sizeof(struct afxdp_priv),
	.args = afxdp_link_args,
	.setup = afxdp_setup,
	.newlink = afxdp_newlink,
};

#else /* !CONFIG_UXDP_AF_XDP */

static int afxdp_newlink(struct net_device *dev, int argc, char **argv, char *err, size_t errlen)
{
	snprintf(err, errlen, "afxdp: this uxdp was built without libxdp (install libxdp-dev, "
		 "scripts/deps.sh, and rebuild; meson -Daf_xdp=enabled insists)");
	return -EOPNOTSUPP;
}

const struct rtnl_link_ops afxdp_link_ops = {
	.kind = "afxdp",
	.usage = "dev IFNAME [queue Q] [queues N] [mode copy|zerocopy|auto] [xdpmode native|generic|auto] [prog default|libxdp|OBJ] "
		 "(not built: no libxdp)",
	.newlink = afxdp_newlink,
};

#endif /* CONFIG_UXDP_AF_XDP */
