// SPDX-License-Identifier: GPL-2.0
/*
 * afpacket: a NIC driver whose wire is a kernel interface, reached through
 * AF_PACKET sockets (`link add NAME type afpacket dev IFNAME [queues N]
 * [fanout MODE] [netns NS]`). uxdp takes the interface's place: the device
 * has the interface's MAC and MTU, sees every frame that arrives on it
 * (ETH_P_ALL, promiscuous) and sends frames out of it.
 *
 * Each queue is one socket with a TPACKET_V3 rx ring (blocks of 256 KiB,
 * retired by the kernel after 1 ms when not full) and a TPACKET_V3 tx ring
 * of fixed 4 KiB slots, both mmap'ed. With `queues N` the N sockets join
 * one fanout group (PACKET_FANOUT_HASH by default): the kernel spreads
 * flows over them as RSS spreads them over a NIC's rx queues, and each
 * queue's NAPI runs on its own worker.
 *
 * Receive (afp_poll, the shape of a NIC's clean_rx_irq): frames are copied
 * from the ring into page-pool pages (256 bytes of headroom) and run
 * through native XDP: PASS builds an skb around the page for the stack
 * (eth_type_trans, netif_receive_skb: IPv4 forwarding, ARP), TX goes back
 * out of this device, REDIRECT to xdp_do_redirect() with xdp_do_flush() at
 * the end of the poll. The kernel strips a VLAN tag into metadata; it is
 * put back into the frame, as a NIC without rx VLAN offload delivers it.
 *
 * Transmit (ndo_start_xmit, ndo_xdp_xmit, XDP_TX): the frame is copied into
 * the next free tx slot and marked TP_STATUS_SEND_REQUEST; one send() per
 * poll (the doorbell, deferred with napi_fd_defer_kick()) hands the batch
 * to the kernel, which transmits it straight to the driver
 * (PACKET_QDISC_BYPASS). PACKET_IGNORE_OUTGOING keeps our own transmits out
 * of our rx ring.
 *
 * Offloads: frames the kernel hands over are what the interface received.
 * A veth whose peer has tx checksum offload or TSO on passes frames with
 * CHECKSUM_PARTIAL (TP_STATUS_CSUMNOTREADY: the L4 checksum is only the
 * pseudo-header sum) or GSO super-frames longer than the MTU. uxdp
 * completes the TCP/UDP checksum of IPv4 frames marked CSUMNOTREADY
 * (counted as rx_csum_completed) before XDP sees them; frames longer than
 * a page (GSO) are dropped as SOCK_RX_LEN. Turn TSO/GSO off on the peer
 * (`ethtool -K PEER tso off gso off`) when forwarding; PACKET_VNET_HDR
 * would give the GSO metadata to segment them, which is not done.
 *
 * Counters: rx_packets counts frames that reached XDP (so rx_packets ==
 * the sum of XDP verdicts when a program runs); frames dropped before it
 * (too long, no page) count in rx_dropped with a drop reason. The kernel
 * side (PACKET_STATISTICS: ring full drops) is in the driver stats.
 *
 * Kernel: net/packet/af_packet.c (the other side: tpacket_rcv(),
 *	   tpacket_snd(), fanout); drivers/net/ethernet/intel/ixgbe
 *	   ixgbe_clean_rx_irq() (the rx loop shape)
 * Differs: a copy on receive and on transmit (a NIC DMAs); rx checksum
 *	    completion in software; no GSO.
 */
#include <net/if.h>		/* before the kernel headers (libc-compat) */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/ip.h>
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <linux/skbuff.h>
#include <net/dropreason.h>
#include <net/page_pool/helpers.h>
#include <net/rtnetlink.h>
#include <net/xdp.h>
#include <net/xdp_rx.h>

#include "napi_fd.h"

#define AFP_HEADROOM		256	/* XDP_PACKET_HEADROOM */
#define AFP_MAX_FRAME		SKB_WITH_OVERHEAD(PAGE_SIZE - AFP_HEADROOM)
#define AFP_MAX_QUEUES		16
#define AFP_POOL_SIZE		1024
#define AFP_RX_BLOCK_SIZE	(1U << 18)
#define AFP_RX_BLOCK_NR		16
#define AFP_RX_FRAME_SIZE	2048	/* only for tp_frame_nr: V3 packs frames */
#define AFP_RX_RETIRE_MS	1
#define AFP_TX_FRAME_SIZE	4096
#define AFP_TX_BLOCK_SIZE	(1U << 16)
#define AFP_TX_BLOCK_NR		32
#define AFP_TX_FRAMES		(AFP_TX_BLOCK_SIZE / AFP_TX_FRAME_SIZE * AFP_TX_BLOCK_NR)
/* Where a tx frame's data starts: tpacket_parse_header() without TX_HAS_OFF. */
#define AFP_TX_DATA_OFF		(TPACKET3_HDRLEN - sizeof(struct sockaddr_ll))

/* Driver counters (ethtool -S); one set per queue, written by its poller. */
#define AFP_STATS(FN)								\
	FN(rx_blocks, "rx ring blocks consumed")				\
	FN(rx_vlan_restored, "frames whose VLAN tag was put back")		\
	FN(rx_csum_completed, "frames with CHECKSUM_PARTIAL completed in software") \
	FN(tx_kicks, "send() calls")						\
	FN(tx_send_errors, "send() failures (see the warning)")		\
	FN(tx_kick_retries, "send()s that left slots queued (send buffer full)") \
	FN(tx_ring_full, "frames dropped: tx ring full")			\
	FN(kernel_rx_packets, "PACKET_STATISTICS tp_packets")			\
	FN(kernel_rx_drops, "PACKET_STATISTICS tp_drops: rx ring full")	\
	FN(kernel_rx_freeze, "PACKET_STATISTICS tp_freeze_q_cnt")		\
	FN(interface_gone, "the interface was removed while running (1)")

enum afp_stat {
#define __AFP_ENUM(name, text) AFP_STAT_##name,
	AFP_STATS(__AFP_ENUM)
#undef __AFP_ENUM
	AFP_STAT_MAX,
};

static const char *const afp_stat_names[] = {
#define __AFP_NAME(name, text) #name,
	AFP_STATS(__AFP_NAME)
#undef __AFP_NAME
};

struct afp_queue {
	struct napi_struct napi;
	struct napi_fd nfd;
	struct napi_fd_kick kick;
	struct net_device *dev;
	struct page_pool *pool;
	int fd;
	u8 *map;
	size_t map_len;
	/* rx ring: the block being read, the next frame in it, frames left */
	u8 *rx_ring;
	unsigned int rx_block;
	u8 *rx_next;
	unsigned int rx_left;
	/* tx ring: the next slot to fill, slots filled since the last send() */
	u8 *tx_ring;
	unsigned int tx_head;
	unsigned int tx_pending;
	bool tx_retry;		/* the last send() left slots queued: poll again */
	pthread_spinlock_t tx_lock;	/* several workers may share a tx queue */
	bool tx_err_warned;
	u64 stats[AFP_STAT_MAX];
	struct xdp_rxq_info xdp_rxq;
} __aligned(SMP_CACHE_BYTES);

struct afp_config {
	const char *ifname;
	const char *netns;
	unsigned int queues;
	int fanout;		/* PACKET_FANOUT_* */
	u32 fanout_idx;		/* `fanout WORD`: its row in afp_fanout_modes */
};

struct afp_priv {
	char ifname[IFNAMSIZ];
	char netns[64];
	int kifindex;
	unsigned int nr_queues;
	int fanout;
	bool gone;		/* the interface was removed */
	u32 gen_active_calls;	/* paces the removal check */
	struct afp_queue *q;
};

static const struct {
	const char *name;
	int mode;
} afp_fanout_modes[] = {
	{ "hash", PACKET_FANOUT_HASH },
	{ "lb", PACKET_FANOUT_LB },
	{ "cpu", PACKET_FANOUT_CPU },
	{ "rollover", PACKET_FANOUT_ROLLOVER },
	{ "rnd", PACKET_FANOUT_RND },
	{ "qm", PACKET_FANOUT_QM },
};

/* ---- receive ------------------------------------------------------------ */

static bool afp_active(struct net_device *dev)
{
	const struct afp_priv *priv = netdev_priv(dev);

	return netif_running(dev) && !READ_ONCE(priv->gone) &&
	       !netdev_run_stopping();
}

static u32 csum_partial_buf(const u8 *p, unsigned int len, u32 sum)
{
	for (; len > 1; p += 2, len -= 2)
		sum += (p[0] << 8) | p[1];
	if (len)
		sum += p[0] << 8;
	return sum;
}

static u16 csum_fold_be(u32 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((u16)~sum);
}

/*
 * The kernel marked the frame CHECKSUM_PARTIAL: its TCP/UDP checksum field
 * holds the pseudo-header sum only. Compute the full checksum, as
 * skb_checksum_help() does before a device without offload sends it.
 * Only unfragmented IPv4 TCP/UDP: other CHECKSUM_PARTIAL frames pass as
 * they are (and fail the receiver's check).
 */
static bool afp_csum_complete(u8 *frame, unsigned int len)
{
	unsigned int off = ETH_HLEN, ihl, l4len;
	u16 proto = (frame[12] << 8) | frame[13];
	struct iphdr *ip;
	u8 *l4, *check;
	u32 sum;

	if (proto == ETH_P_8021Q || proto == ETH_P_8021AD) {
		off += VLAN_HLEN;
		if (len < off)
			return false;
		proto = (frame[off - 2] << 8) | frame[off - 1];
	}
	if (proto != ETH_P_IP || len < off + sizeof(*ip))
		return false;
	ip = (struct iphdr *)(frame + off);
	ihl = ip->ihl * 4;
	if (ihl < sizeof(*ip) || ntohs(ip->tot_len) < ihl || off + ntohs(ip->tot_len) > len ||
	    (ip->frag_off & htons(0x3fff)))
		return false;
	l4 = frame + off + ihl;
	l4len = ntohs(ip->tot_len) - ihl;
	if (ip->protocol == IPPROTO_TCP && l4len >= 20)
		check = l4 + 16;
	else if (ip->protocol == IPPROTO_UDP && l4len >= 8)
		check = l4 + 6;
	else
		return false;
	check[0] = check[1] = 0;
	sum = csum_partial_buf((u8 *)&ip->saddr, 8, 0);
	sum += ip->protocol + l4len;
	sum = csum_partial_buf(l4, l4len, sum);
	memcpy(check, &(u16){ csum_fold_be(sum) }, 2);
	if (ip->protocol == IPPROTO_UDP && !check[0] && !check[1])
		check[0] = check[1] = 0xff;
	return true;
}

static int afp_xmit_buf(struct net_device *dev, const void *data, unsigned int len);

/* One frame from the rx ring: copy, XDP, verdict. Returns true if redirected. */
static bool afp_rx_one(struct afp_queue *q, const struct tpacket3_hdr *hdr,
		       struct bpf_prog *prog)
{
	struct net_device *dev = q->dev;
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	const u8 *src = (const u8 *)hdr + hdr->tp_mac;
	unsigned int len = hdr->tp_snaplen;
	bool vlan = hdr->tp_status & TP_STATUS_VLAN_VALID;
	struct xdp_buff xdp;
	struct page *page;
	u8 *va, *dst;
	u32 act;

	if (unlikely(len < ETH_HLEN)) {
		netdev_drop(dev, NETDEV_DROP_SOCK_RX_LEN, 1);
		return false;
	}
	if (unlikely(len != hdr->tp_len || len + (vlan ? VLAN_HLEN : 0) > AFP_MAX_FRAME)) {
		netdev_drop(dev, NETDEV_DROP_SOCK_RX_LEN, 1);
		return false;
	}
	page = page_pool_dev_alloc_pages(q->pool);
	if (unlikely(!page)) {
		netdev_drop(dev, NETDEV_DROP_SOCK_RX_NOMEM, 1);
		return false;
	}
	va = page_address(page);
	dst = va + AFP_HEADROOM;
	if (unlikely(vlan)) {
		/* The kernel took the tag out (skb->vlan_tci): put it back after the MACs. */
		u16 tpid = hdr->tp_status & TP_STATUS_VLAN_TPID_VALID ? hdr->hv1.tp_vlan_tpid :
			   ETH_P_8021Q;
		u16 tci = hdr->hv1.tp_vlan_tci;

		memcpy(dst, src, 2 * ETH_ALEN);
		dst[12] = tpid >> 8;
		dst[13] = tpid & 0xff;
		dst[14] = tci >> 8;
		dst[15] = tci & 0xff;
		memcpy(dst + 16, src + 2 * ETH_ALEN, len - 2 * ETH_ALEN);
		len += VLAN_HLEN;
		q->stats[AFP_STAT_rx_vlan_restored]++;
	} else {
		memcpy(dst, src, len);
	}
	if (unlikely(hdr->tp_status & TP_STATUS_CSUMNOTREADY) && afp_csum_complete(dst, len))
		q->stats[AFP_STAT_rx_csum_completed]++;

	xdp_init_buff(&xdp, PAGE_SIZE, &q->xdp_rxq);
	xdp_prepare_buff(&xdp, va, AFP_HEADROOM, len, true);
	st->rx_packets++;
	st->rx_bytes += len;
	act = prog ? netdev_xdp_count_verdict(dev, bpf_prog_run(prog, &xdp)) : XDP_PASS;
	if (act == XDP_TX) {
		if (afp_xmit_buf(dev, xdp.data, (u8 *)xdp.data_end - (u8 *)xdp.data))
			netdev_drop(dev, NETDEV_DROP_XDP_TX_ERR, 1);
		xdp_return_buff(&xdp);
		return false;
	}
	return xdp_rx_verdict(dev, &xdp, prog, act);
}

/* Up to @budget frames from the rx ring; a block goes back to the kernel when read. */
static int afp_rx(struct afp_queue *q, int budget)
{
	struct bpf_prog *prog = q->dev->xdp_prog;
	bool redirected = false;
	int done = 0;

	while (done < budget) {
		struct tpacket_block_desc *bd =
			(struct tpacket_block_desc *)(q->rx_ring + (size_t)q->rx_block * AFP_RX_BLOCK_SIZE);
		const struct tpacket3_hdr *hdr;

		if (!q->rx_next) {
			if (!(__atomic_load_n(&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) &
			      TP_STATUS_USER))
				break;
			q->rx_left = bd->hdr.bh1.num_pkts;
			q->rx_next = (u8 *)bd + bd->hdr.bh1.offset_to_first_pkt;
		}
		if (q->rx_left) {
			hdr = (const struct tpacket3_hdr *)q->rx_next;
			redirected |= afp_rx_one(q, hdr, prog);
			done++;
			q->rx_next += hdr->tp_next_offset;
			q->rx_left--;
		}
		if (!q->rx_left) {
			__atomic_store_n(&bd->hdr.bh1.block_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
			q->stats[AFP_STAT_rx_blocks]++;
			q->rx_next = NULL;
			if (++q->rx_block == AFP_RX_BLOCK_NR)
				q->rx_block = 0;
		}
	}
	if (redirected)
		xdp_do_flush();
	return done;
}

/* ---- transmit ----------------------------------------------------------- */

static struct tpacket3_hdr *afp_tx_frame(struct afp_queue *q, unsigned int i)
{
	return (struct tpacket3_hdr *)(q->tx_ring + (size_t)i * AFP_TX_FRAME_SIZE);
}

/*
 * Hand the filled slots to the kernel. Called with tx_lock held.
 * tpacket_snd() stops at the first slot it cannot get an skb for (the
 * socket's send buffer is full while earlier skbs still sit at the peer)
 * and still returns the bytes it sent: the slots after it stay
 * SEND_REQUEST, and the kernel looks at them again only on the next
 * send(). So a successful send() may have sent a part; then, as after
 * EAGAIN, the kick stays pending (tx_retry) and the poll retries it,
 * without parking, until the newest slot went. Parked, nothing would:
 * the frames would wait for the next transmit, or leave at the end of the
 * run when nobody reads the answers any more.
 */
static void afp_kick_locked(struct afp_queue *q)
{
	unsigned int newest = (q->tx_head ? q->tx_head : AFP_TX_FRAMES) - 1;

	if (!q->tx_pending)
		return;
	q->stats[AFP_STAT_tx_kicks]++;
	if (sendto(q->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0) {
		if (!(__atomic_load_n(&afp_tx_frame(q, newest)->tp_status, __ATOMIC_ACQUIRE) &
		      TP_STATUS_SEND_REQUEST)) {
			q->tx_pending = 0;
			q->tx_retry = false;
			return;
		}
	} else if (errno != EAGAIN && errno != ENOBUFS && errno != EINTR) {
		q->tx_retry = false;	/* the slots stay: a later kick tries again */
		q->stats[AFP_STAT_tx_send_errors]++;
		if (!q->tx_err_warned) {
			q->tx_err_warned = true;
			pr_warn("%s: send on %s failed: %s%s\n", q->dev->name,
				((struct afp_priv *)netdev_priv(q->dev))->ifname, strerror(errno),
				errno == ENETDOWN ? " (ip link set IFNAME up)" : "");
		}
		return;
	}
	q->stats[AFP_STAT_tx_kick_retries]++;
	q->tx_retry = true;
}

static void afp_kick(struct napi_fd_kick *k)
{
	struct afp_queue *q = container_of(k, struct afp_queue, kick);

	pthread_spin_lock(&q->tx_lock);
	afp_kick_locked(q);
	pthread_spin_unlock(&q->tx_lock);
}

static struct afp_queue *afp_txq(struct net_device *dev)
{
	struct afp_priv *priv = netdev_priv(dev);

	return &priv->q[(unsigned int)smp_processor_id() % priv->nr_queues];
}

/* The next free slot, or NULL when the kernel still holds it (ring full). */
static struct tpacket3_hdr *afp_tx_slot(struct afp_queue *q)
{
	struct tpacket3_hdr *hdr = afp_tx_frame(q, q->tx_head);
	u32 status = __atomic_load_n(&hdr->tp_status, __ATOMIC_ACQUIRE);

	if (status & (TP_STATUS_SEND_REQUEST | TP_STATUS_SENDING))
		return NULL;
	return hdr;
}

static void afp_tx_commit(struct afp_queue *q, struct tpacket3_hdr *hdr, unsigned int len)
{
	hdr->tp_len = len;
	hdr->tp_snaplen = len;
	hdr->tp_next_offset = 0;
	__atomic_store_n(&hdr->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
	if (++q->tx_head == AFP_TX_FRAMES)
		q->tx_head = 0;
	q->tx_pending++;
}

/* A free slot, kicking once if the ring is full. Called with tx_lock held. */
static struct tpacket3_hdr *afp_tx_get(struct afp_queue *q)
{
	struct tpacket3_hdr *hdr = afp_tx_slot(q);

	if (likely(hdr))
		return hdr;
	afp_kick_locked(q);
	hdr = afp_tx_slot(q);
	if (!hdr)
		q->stats[AFP_STAT_tx_ring_full]++;
	return hdr;
}

static void afp_tx_done(struct afp_queue *q)
{
	if (!napi_fd_defer_kick(&q->kick))
		afp_kick(&q->kick);
}

/* Copy @len bytes out of this device (XDP_TX). 0 or -ENOSPC (ring full). */
static int afp_xmit_buf(struct net_device *dev, const void *data, unsigned int len)
{
	struct afp_queue *q = afp_txq(dev);
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	struct tpacket3_hdr *hdr;

	pthread_spin_lock(&q->tx_lock);
	hdr = afp_tx_get(q);
	if (hdr) {
		memcpy((u8 *)hdr + AFP_TX_DATA_OFF, data, len);
		afp_tx_commit(q, hdr, len);
	}
	pthread_spin_unlock(&q->tx_lock);
	if (!hdr)
		return -ENOSPC;
	st->tx_packets++;
	st->tx_bytes += len;
	afp_tx_done(q);
	return 0;
}

static unsigned int afp_max_tx_len(const struct net_device *dev)
{
	return dev->mtu + ETH_HLEN + VLAN_HLEN;
}

static netdev_tx_t afp_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct afp_queue *q = afp_txq(dev);
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	unsigned int len = skb->len;
	struct tpacket3_hdr *hdr;

	if (unlikely(len > afp_max_tx_len(dev) || len > AFP_TX_FRAME_SIZE - AFP_TX_DATA_OFF)) {
		netdev_drop(dev, NETDEV_DROP_XMIT_MTU, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_PKT_TOO_BIG);
		return NETDEV_TX_OK;
	}
	pthread_spin_lock(&q->tx_lock);
	hdr = afp_tx_get(q);
	if (hdr) {
		skb_copy_bits(skb, 0, (u8 *)hdr + AFP_TX_DATA_OFF, len);
		afp_tx_commit(q, hdr, len);
	}
	pthread_spin_unlock(&q->tx_lock);
	if (unlikely(!hdr)) {
		netdev_drop(dev, NETDEV_DROP_SOCK_TX_FULL, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_FULL_RING);
		return NETDEV_TX_OK;
	}
	st->tx_packets++;
	st->tx_bytes += len;
	consume_skb(skb);
	afp_tx_done(q);
	return NETDEV_TX_OK;
}

/* Linear part then frags, into @to. */
static void afp_copy_frame(const struct xdp_frame *frame, u8 *to)
{
	memcpy(to, frame->data, frame->len);
	if (unlikely(xdp_frame_has_frags(frame))) {
		const struct skb_shared_info *sinfo = xdp_get_shared_info_from_frame(frame);
		unsigned int off = frame->len;

		for (unsigned int i = 0; i < sinfo->nr_frags; i++) {
			const skb_frag_t *f = &sinfo->frags[i];

			memcpy(to + off, skb_frag_address(f), skb_frag_size(f));
			off += skb_frag_size(f);
		}
	}
}

/*
 * ndo_xdp_xmit: copy @frames into the tx ring. Takes frames[0..ret); the
 * caller frees the rest (ring full, or a frame too long for a slot).
 */
static int afp_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames, u32 flags)
{
	struct afp_queue *q = afp_txq(dev);
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	u64 bytes = 0;
	int i;

	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;
	if (unlikely(!netif_running(dev)))
		return -ENETDOWN;
	pthread_spin_lock(&q->tx_lock);
	for (i = 0; i < n; i++) {
		unsigned int len = xdp_get_frame_len(frames[i]);
		struct tpacket3_hdr *hdr;

		if (unlikely(len > AFP_TX_FRAME_SIZE - AFP_TX_DATA_OFF))
			break;
		hdr = afp_tx_get(q);
		if (unlikely(!hdr))
			break;
		afp_copy_frame(frames[i], (u8 *)hdr + AFP_TX_DATA_OFF);
		afp_tx_commit(q, hdr, len);
		bytes += len;
	}
	pthread_spin_unlock(&q->tx_lock);
	for (int k = 0; k < i; k++)
		xdp_return_frame_rx_napi(frames[k]);
	st->tx_packets += i;
	st->tx_bytes += bytes;
	if (flags & XDP_XMIT_FLUSH)
		afp_tx_done(q);
	return i;
}

/* ---- NAPI --------------------------------------------------------------- */

static int afp_poll(struct napi_struct *napi, int budget)
{
	struct afp_queue *q = container_of(napi, struct afp_queue, napi);
	int done;

	if (!afp_active(q->dev)) {
		afp_kick(&q->kick);
		napi_complete_done(napi, 0);
		return 0;
	}
	napi_fd_poll_begin();
	done = afp_rx(q, budget);
	if (q->tx_pending)
		napi_fd_defer_kick(&q->kick);	/* a kick that met EAGAIN or sent part: retry */
	napi_fd_poll_end();
	/* Slots the kernel has not taken yet are work: parked, nothing would retry them. */
	if (napi_fd_idle(&q->nfd, done || READ_ONCE(q->tx_retry))) {
		napi_complete_done(napi, done);
		return done < budget ? done : budget - 1;
	}
	return budget;
}

/*
 * The interface removed under us? The kernel unbinds its packet sockets
 * (packet_notifier(), NETDEV_UNREGISTER: po->ifindex = -1), which
 * getsockname() shows; a down interface keeps its index and is not "gone".
 * Then say so, end the run and stay inactive. Control thread, now and then.
 */
static void afp_check_gone(struct net_device *dev)
{
	struct afp_priv *priv = netdev_priv(dev);
	struct sockaddr_ll sll;
	socklen_t len = sizeof(sll);

	if (READ_ONCE(priv->gone) || !priv->nr_queues || priv->q[0].fd < 0 ||
	    getsockname(priv->q[0].fd, (struct sockaddr *)&sll, &len) ||
	    sll.sll_ifindex == priv->kifindex)
		return;
	if (__atomic_exchange_n(&priv->gone, true, __ATOMIC_ACQ_REL))
		return;		/* a worker saw it first */
	priv->q[0].stats[AFP_STAT_interface_gone] = 1;
	pr_warn("%s: interface %s was removed (packet socket unbound); stopping the run\n",
		dev->name, priv->ifname);
	netdev_run_stop();
}

static bool afp_gen_active(struct net_device *dev)
{
	struct afp_priv *priv = netdev_priv(dev);

	if (!(priv->gen_active_calls++ & 63))
		afp_check_gone(dev);
	return afp_active(dev);
}

/* ---- device ------------------------------------------------------------- */

static int afp_open(struct net_device *dev)
{
	struct afp_priv *priv = netdev_priv(dev);

	for (unsigned int i = 0; i < priv->nr_queues; i++)
		napi_enable(&priv->q[i].napi);
	return 0;
}

static int afp_stop(struct net_device *dev)
{
	struct afp_priv *priv = netdev_priv(dev);

	for (unsigned int i = 0; i < priv->nr_queues; i++)
		napi_disable(&priv->q[i].napi);
	return 0;
}

static int afp_bpf(struct net_device *dev, struct netdev_bpf *bpf)
{
	/* Frames are always linear (one page): any program, frags-aware or not. */
	return bpf->command == XDP_SETUP_PROG ? 0 : -EINVAL;
}

/* Add the kernel's PACKET_STATISTICS (which reset on read) to the queue's counters. */
static void afp_read_kernel_stats(struct afp_queue *q)
{
	struct tpacket_stats_v3 ks;
	socklen_t len = sizeof(ks);

	if (q->fd < 0 || getsockopt(q->fd, SOL_PACKET, PACKET_STATISTICS, &ks, &len))
		return;
	q->stats[AFP_STAT_kernel_rx_packets] += ks.tp_packets;
	q->stats[AFP_STAT_kernel_rx_drops] += ks.tp_drops;
	q->stats[AFP_STAT_kernel_rx_freeze] += ks.tp_freeze_q_cnt;
}

static int afp_get_ethtool_stats(struct net_device *dev, char (*names)[48], u64 *values, int max)
{
	struct afp_priv *priv = netdev_priv(dev);
	int n = 0;

	for (unsigned int i = 0; i < priv->nr_queues; i++)
		afp_read_kernel_stats(&priv->q[i]);
	for (int s = 0; s < AFP_STAT_MAX; s++, n++) {
		u64 v = 0;

		for (unsigned int i = 0; i < priv->nr_queues; i++)
			v += priv->q[i].stats[s];
		if (n < max) {
			snprintf(names[n], 48, "%s", afp_stat_names[s]);
			values[n] = v;
		}
	}
	return n;
}

static void afp_stats_reset(struct net_device *dev)
{
	struct afp_priv *priv = netdev_priv(dev);

	for (unsigned int i = 0; i < priv->nr_queues; i++) {
		afp_read_kernel_stats(&priv->q[i]);
		memset(priv->q[i].stats, 0, sizeof(priv->q[i].stats));
	}
}

static void afp_queue_close(struct afp_queue *q)
{
	if (q->map)
		munmap(q->map, q->map_len);
	q->map = NULL;
	if (q->fd >= 0)
		close(q->fd);
	q->fd = -1;
}

static void afp_uninit(struct net_device *dev)
{
	struct afp_priv *priv = netdev_priv(dev);

	for (unsigned int i = 0; i < priv->nr_queues; i++) {
		struct afp_queue *q = &priv->q[i];

		netif_napi_del(&q->napi);
		xdp_rxq_info_unreg(&q->xdp_rxq);
		page_pool_destroy(q->pool);
		afp_queue_close(q);
		pthread_spin_destroy(&q->tx_lock);
	}
	free(priv->q);
	priv->q = NULL;
	priv->nr_queues = 0;
	napi_fd_unregister(dev);
}

static const struct net_device_ops afp_netdev_ops = {
	.ndo_uninit = afp_uninit,
	.ndo_open = afp_open,
	.ndo_stop = afp_stop,
	.ndo_start_xmit = afp_start_xmit,
	.ndo_xdp_xmit = afp_xdp_xmit,
	.ndo_bpf = afp_bpf,
	.ndo_get_ethtool_stats = afp_get_ethtool_stats,
	.ndo_stats_reset = afp_stats_reset,
	.ndo_gen_active = afp_gen_active,
};

static void afp_setup(struct net_device *dev)
{
	dev->netdev_ops = &afp_netdev_ops;
	dev->link_announce = 1;	/* a real wire: gratuitous ARP at the first run */
	dev->xdp_features = NETDEV_XDP_ACT_BASIC | NETDEV_XDP_ACT_REDIRECT |
			    NETDEV_XDP_ACT_NDO_XMIT | NETDEV_XDP_ACT_NDO_XMIT_SG;
	dev->max_mtu = AFP_MAX_FRAME - ETH_HLEN - VLAN_HLEN;
}

/*
 * The kernel side of one queue: socket, rings, bind, promiscuous mode,
 * fanout. @err says what failed and what to do.
 */
static int afp_queue_open(struct net_device *dev, struct afp_queue *q, unsigned int idx,
			  unsigned int nr, int *fanout_id, char *err, size_t errlen)
{
	struct afp_priv *priv = netdev_priv(dev);
	struct tpacket_req3 rx = {
		.tp_block_size = AFP_RX_BLOCK_SIZE,
		.tp_block_nr = AFP_RX_BLOCK_NR,
		.tp_frame_size = AFP_RX_FRAME_SIZE,
		.tp_frame_nr = AFP_RX_BLOCK_SIZE / AFP_RX_FRAME_SIZE * AFP_RX_BLOCK_NR,
		.tp_retire_blk_tov = AFP_RX_RETIRE_MS,
	};
	struct tpacket_req3 tx = {
		.tp_block_size = AFP_TX_BLOCK_SIZE,
		.tp_block_nr = AFP_TX_BLOCK_NR,
		.tp_frame_size = AFP_TX_FRAME_SIZE,
		.tp_frame_nr = AFP_TX_FRAMES,
	};
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = priv->kifindex,
	};
	struct packet_mreq mr = { .mr_ifindex = priv->kifindex, .mr_type = PACKET_MR_PROMISC };
	int one = 1, ver = TPACKET_V3, ret;
	const char *what;

	q->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (q->fd < 0) {
		ret = -errno;
		if (ret == -EPERM || ret == -EACCES)
			snprintf(err, errlen,
				 "%s: AF_PACKET socket not permitted: needs CAP_NET_RAW (run as root)",
				 dev->name);
		else
			snprintf(err, errlen, "%s: AF_PACKET socket: %s", dev->name, strerror(-ret));
		return ret;
	}
	what = "PACKET_VERSION TPACKET_V3";
	if (setsockopt(q->fd, SOL_PACKET, PACKET_VERSION, &ver, sizeof(ver)))
		goto out_sockopt;
	what = "PACKET_QDISC_BYPASS";
	if (setsockopt(q->fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)))
		goto out_sockopt;
	what = "PACKET_IGNORE_OUTGOING";
	if (setsockopt(q->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one)))
		goto out_sockopt;
	what = "PACKET_LOSS";
	if (setsockopt(q->fd, SOL_PACKET, PACKET_LOSS, &one, sizeof(one)))
		goto out_sockopt;
	what = "PACKET_RX_RING";
	if (setsockopt(q->fd, SOL_PACKET, PACKET_RX_RING, &rx, sizeof(rx)))
		goto out_sockopt;
	what = "PACKET_TX_RING";
	if (setsockopt(q->fd, SOL_PACKET, PACKET_TX_RING, &tx, sizeof(tx)))
		goto out_sockopt;
	q->map_len = (size_t)AFP_RX_BLOCK_SIZE * AFP_RX_BLOCK_NR +
		     (size_t)AFP_TX_BLOCK_SIZE * AFP_TX_BLOCK_NR;
	q->map = mmap(NULL, q->map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, q->fd, 0);
	if (q->map == MAP_FAILED) {
		q->map = NULL;
		what = "mmap of the rings";
		goto out_sockopt;
	}
	q->rx_ring = q->map;
	q->tx_ring = q->map + (size_t)AFP_RX_BLOCK_SIZE * AFP_RX_BLOCK_NR;
	if (bind(q->fd, (struct sockaddr *)&sll, sizeof(sll))) {
		ret = -errno;
		snprintf(err, errlen, "%s: bind to %s: %s%s", dev->name, priv->ifname,
			 strerror(-ret), ret == -ENETDOWN ? " (ip link set IFNAME up)" : "");
		goto out_close;
	}
	what = "PACKET_ADD_MEMBERSHIP PACKET_MR_PROMISC";
	if (setsockopt(q->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)))
		goto out_sockopt;
	if (nr > 1) {
		/* The first queue creates the group with a kernel-chosen id; the others join it. */
		int arg = idx ? (*fanout_id | priv->fanout << 16) :
			  (priv->fanout | PACKET_FANOUT_FLAG_UNIQUEID) << 16;
		socklen_t len = sizeof(arg);

		what = "PACKET_FANOUT";
		if (setsockopt(q->fd, SOL_PACKET, PACKET_FANOUT, &arg, sizeof(arg)))
			goto out_sockopt;
		if (!idx) {
			if (getsockopt(q->fd, SOL_PACKET, PACKET_FANOUT, &arg, &len))
				goto out_sockopt;
			*fanout_id = arg & 0xffff;
		}
	}
	return 0;

out_sockopt:
	ret = -errno;
	snprintf(err, errlen, "%s: %s on the socket for %s: %s%s", dev->name, what, priv->ifname,
		 strerror(-ret), ret == -ENOPROTOOPT || ret == -EINVAL ?
		 " (kernel too old? TPACKET_V3 tx rings need 4.11, IGNORE_OUTGOING 4.20)" :
		 ret == -ENOMEM ? " (out of memory for the rings)" : "");
out_close:
	afp_queue_close(q);
	return ret;
}

/* Interface index, flags, MAC and MTU of @ifname in the current namespace. */
static int afp_query_if(struct net_device *dev, struct afp_priv *priv, char *err, size_t errlen)
{
	struct ifreq ifr = { 0 };
	int fd, ret = 0;

	priv->kifindex = if_nametoindex(priv->ifname);
	if (!priv->kifindex) {
		snprintf(err, errlen,
			 "%s: no interface '%s' in %s (see ip link; run uxdp there: ip netns exec NS uxdp ..., or add netns NS)",
			 dev->name, priv->ifname,
			 priv->netns[0] ? priv->netns : "this network namespace");
		return -ENODEV;
	}
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, ret == -EPERM || ret == -EACCES ?
			 "%s: AF_PACKET socket not permitted: needs CAP_NET_RAW (run as root)" :
			 "%s: AF_PACKET socket: %s", dev->name, strerror(-ret));
		return ret;
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", priv->ifname);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) || !(ifr.ifr_flags & IFF_UP)) {
		snprintf(err, errlen, "%s: interface '%s' is down: ip link set %s up", dev->name,
			 priv->ifname, priv->ifname);
		ret = -ENETDOWN;
		goto out;
	}
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) || ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER) {
		snprintf(err, errlen, "%s: '%s' is not an Ethernet interface", dev->name, priv->ifname);
		ret = -EOPNOTSUPP;
		goto out;
	}
	memcpy(dev->dev_addr, ifr.ifr_hwaddr.sa_data, ETH_ALEN);
	if (!ioctl(fd, SIOCGIFMTU, &ifr))
		dev->mtu = (unsigned int)ifr.ifr_mtu < dev->max_mtu ? (unsigned int)ifr.ifr_mtu :
			   dev->max_mtu;
out:
	close(fd);
	return ret;
}

static const char *const *afp_fanout_names(void)
{
	static const char *names[ARRAY_SIZE(afp_fanout_modes) + 1];

	for (size_t i = 0; !names[0] && i < ARRAY_SIZE(afp_fanout_modes); i++)
		names[ARRAY_SIZE(afp_fanout_modes) - 1 - i] =
			afp_fanout_modes[ARRAY_SIZE(afp_fanout_modes) - 1 - i].name;
	return names;
}

static const struct rtnl_link_arg afpacket_link_args[] = {
	RTNL_ARG_N(struct afp_config, "dev", ifname, "IFNAME", IFNAMSIZ - 1, "interface name", "eth0",
		   .flags = RTNL_ARG_REQUIRED),
	RTNL_ARG_U(struct afp_config, "queues", queues, 1, AFP_MAX_QUEUES, "N"),
	RTNL_ARG_C(struct afp_config, "fanout", fanout_idx, afp_fanout_names),
	RTNL_ARG_N(struct afp_config, "netns", netns, "NS", 63, "namespace name", "uxdpns"),
	{ NULL }
};

/* afpacket_link_args into @cfg: 0, or -EINVAL with @err naming the bad argument. */
static int afp_parse_args(int argc, char **argv, struct afp_config *cfg, char *err, size_t errlen)
{
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	cfg->queues = 1;
	ret = rtnl_link_args_parse(&afpacket_link_ops, cfg, argc, argv, err, errlen);
	cfg->fanout = afp_fanout_modes[cfg->fanout_idx].mode;	/* [0] is hash */
	return ret;
}

static int afp_newlink(struct net_device *dev, int argc, char **argv, char *err, size_t errlen)
{
	struct afp_priv *priv = netdev_priv(dev);
	struct afp_config cfg;
	int ret, oldns = -1, fanout_id = 0;
	unsigned int i;

	ret = afp_parse_args(argc, argv, &cfg, err, errlen);
	if (ret)
		return ret;
	snprintf(priv->ifname, sizeof(priv->ifname), "%s", cfg.ifname);
	if (cfg.netns)
		snprintf(priv->netns, sizeof(priv->netns), "%s", cfg.netns);
	priv->fanout = cfg.fanout;
	if (cfg.netns) {
		/* A packet socket belongs to the namespace it is created in. */
		ret = napi_fd_netns_enter(cfg.netns, &oldns);
		if (ret) {
			snprintf(err, errlen,
				 "%s: cannot enter network namespace '%s': %s (see ip netns list; needs CAP_SYS_ADMIN)",
				 dev->name, cfg.netns, strerror(-ret));
			return ret;
		}
	}
	ret = afp_query_if(dev, priv, err, errlen);
	if (ret)
		goto out_netns;
	ret = register_netdevice(dev);
	if (ret) {
		snprintf(err, errlen, "cannot register '%s'", dev->name);
		goto out_netns;
	}
	priv->q = aligned_alloc(SMP_CACHE_BYTES, cfg.queues * sizeof(*priv->q));
	if (!priv->q) {
		ret = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory", dev->name);
		goto out_unregister;
	}
	memset(priv->q, 0, cfg.queues * sizeof(*priv->q));
	for (i = 0; i < cfg.queues; i++) {
		struct page_pool_params pp = {
			.order = 0,
			.pool_size = AFP_POOL_SIZE,
			.netdev = dev,
		};
		struct afp_queue *q = &priv->q[i];

		q->dev = dev;
		q->fd = -1;
		q->pool = page_pool_create(&pp);
		if (IS_ERR(q->pool)) {
			ret = PTR_ERR(q->pool);
			snprintf(err, errlen, "%s: out of memory", dev->name);
			goto out_queues;
		}
		pthread_spin_init(&q->tx_lock, PTHREAD_PROCESS_PRIVATE);
		q->kick.kick = afp_kick;
		netif_napi_add(dev, &q->napi, afp_poll);
		xdp_rxq_info_reg(&q->xdp_rxq, dev, i, 0);
		xdp_rxq_info_reg_mem_model(&q->xdp_rxq, MEM_TYPE_PAGE_POOL, q->pool);
		priv->nr_queues = i + 1;
		ret = afp_queue_open(dev, q, i, cfg.queues, &fanout_id, err, errlen);
		if (ret)
			goto out_queues;
		q->nfd.napi = &q->napi;
		q->nfd.fd = q->fd;
	}
	dev->real_num_rx_queues = dev->real_num_tx_queues = cfg.queues;
	napi_fd_register(dev);
	if (oldns >= 0)
		napi_fd_netns_leave(oldns);
	return 0;

out_queues:
out_unregister:
	unregister_netdevice(dev);	/* afp_uninit() closes the queues opened so far */
out_netns:
	if (oldns >= 0)
		napi_fd_netns_leave(oldns);
	return ret;
}

const struct rtnl_link_ops afpacket_link_ops = {
	.kind = "afpacket",
	.priv_size = sizeof(struct afp_priv),
	.args = afpacket_link_args,
	.setup = afp_setup,
	.newlink = afp_newlink,
};
