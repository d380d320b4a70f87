// SPDX-License-Identifier: GPL-2.0
/*
 * tap: a NIC driver whose wire is a kernel TAP interface
 * (`link add NAME type tap [ifname KNAME] [queues N] [netns NS]`). uxdp
 * opens /dev/net/tun with IFF_TAP | IFF_NO_PI (and IFF_MULTI_QUEUE for
 * N > 1: one fd per queue), which creates the kernel interface KNAME
 * (default: NAME) and brings it up; the kernel's stack then sends frames
 * to uxdp by transmitting on KNAME and receives what uxdp writes. KNAME
 * goes away when uxdp closes the fds (exit, link del). With `netns NS`
 * KNAME is created in namespace NS (/run/netns/NS) instead of uxdp's.
 *
 * The two ends are two NICs on one wire: KNAME has the kernel's MAC, the
 * uxdp device its own (`link show`), as a veth pair's ends.
 *
 * Receive (tap_poll): nonblocking read()s, up to the budget, each into a
 * page-pool page behind 256 bytes of headroom, then native XDP exactly as
 * afpacket does: PASS → skb → stack, TX → written back, REDIRECT →
 * xdp_do_redirect() and xdp_do_flush(). Transmit: one writev() per frame
 * (linear part and frags), which the kernel receives at once (tun_get_user
 * → netif_rx); TX queue = worker % queues.
 *
 * Without IFF_VNET_HDR the kernel computes checksums and segments GSO
 * before handing frames to a tap (tun has no offload features until
 * TUNSETOFFLOAD), so frames read are complete; none is longer than
 * KNAME's MTU + 18, which is kept at or below what a page takes.
 *
 * Kernel: drivers/net/tun.c (the other side: tun_net_xmit(),
 *	   tun_do_read(), tun_get_user(), tun_set_iff())
 * Differs: a syscall per frame each way (no batching API without vhost).
 */
#include <net/if.h>		/* before the kernel headers (libc-compat) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/if_ether.h>
#include <linux/if_tun.h>

#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <linux/skbuff.h>
#include <net/dropreason.h>
#include <net/page_pool/helpers.h>
#include <net/rtnetlink.h>
#include <net/xdp.h>
#include <net/xdp_rx.h>

#include "napi_fd.h"

#define TAP_HEADROOM		256	/* XDP_PACKET_HEADROOM */
#define TAP_MAX_FRAME		SKB_WITH_OVERHEAD(PAGE_SIZE - TAP_HEADROOM)
#define TAP_MAX_QUEUES		16
#define TAP_POOL_SIZE		1024
#define TAP_MAX_IOV		(MAX_SKB_FRAGS + 1)

#define TAP_STATS(FN)						\
	FN(rx_reads, "read() calls")					\
	FN(rx_read_errors, "read() failures other than EAGAIN")	\
	FN(tx_write_errors, "writev() failures (frames dropped)")

enum tap_stat {
#define __TAP_ENUM(name, text) TAP_STAT_##name,
	TAP_STATS(__TAP_ENUM)
#undef __TAP_ENUM
	TAP_STAT_MAX,
};

static const char *const tap_stat_names[] = {
#define __TAP_NAME(name, text) #name,
	TAP_STATS(__TAP_NAME)
#undef __TAP_NAME
};

/* tap's own drop reasons (the shared ones are core rows). */
#define TAP_DROP_REASONS(FN)							\
	FN(TAP_DROP_TX_NOMEM, "TX_NOMEM", TX, "skbs dropped: no memory to linearise a frag_list skb for the tap")
NETDEV_DROP_REASON_TABLE(tap, TAP_DROP_REASONS)

struct tap_queue {
	struct napi_struct napi;
	struct napi_fd nfd;
	struct net_device *dev;
	struct page_pool *pool;
	int fd;
	u64 stats[TAP_STAT_MAX];
	struct xdp_rxq_info xdp_rxq;
} __aligned(SMP_CACHE_BYTES);

struct tap_config {
	const char *ifname;
	const char *netns;
	unsigned int queues;
};

struct tap_priv {
	char kname[IFNAMSIZ];
	unsigned int nr_queues;
	struct tap_queue *q;
	bool tx_err_warned;
};

static bool tap_active(struct net_device *dev)
{
	return netif_running(dev) && !netdev_run_stopping();
}

/* ---- transmit ----------------------------------------------------------- */

static struct tap_queue *tap_txq(struct net_device *dev)
{
	struct tap_priv *priv = netdev_priv(dev);

	return &priv->q[(unsigned int)smp_processor_id() % priv->nr_queues];
}

/* One frame out: 0, or -errno (nothing sent; counted by the caller). */
static int tap_writev(struct net_device *dev, struct tap_queue *q, const struct iovec *iov,
		      int cnt)
{
	struct tap_priv *priv = netdev_priv(dev);

	if (writev(q->fd, iov, cnt) >= 0)
		return 0;
	q->stats[TAP_STAT_tx_write_errors]++;
	if (!priv->tx_err_warned && errno != EAGAIN) {
		priv->tx_err_warned = true;
		pr_warn("%s: write to %s failed: %s%s\n", dev->name, priv->kname, strerror(errno),
			errno == EIO ? " (is the interface up? ip link set KNAME up)" : "");
	}
	return -errno;
}

static netdev_tx_t tap_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	struct iovec iov[TAP_MAX_IOV];
	struct skb_shared_info *sinfo;
	unsigned int len = skb->len;
	int cnt = 1;

	if (unlikely(skb_has_frag_list(skb)) && skb_linearize(skb)) {
		tap_drop(dev, TAP_DROP_TX_NOMEM, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_NOMEM);
		return NETDEV_TX_OK;
	}
	sinfo = skb_shinfo(skb);
	iov[0] = (struct iovec){ skb->data, skb_headlen(skb) };
	for (unsigned int i = 0; i < sinfo->nr_frags; i++)
		iov[cnt++] = (struct iovec){ skb_frag_address(&sinfo->frags[i]),
					     skb_frag_size(&sinfo->frags[i]) };
	if (unlikely(tap_writev(dev, tap_txq(dev), iov, cnt))) {
		netdev_drop(dev, NETDEV_DROP_SOCK_TX_FULL, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_DEV_READY);
		return NETDEV_TX_OK;
	}
	st->tx_packets++;
	st->tx_bytes += len;
	consume_skb(skb);
	return NETDEV_TX_OK;
}

static int tap_xmit_frame(struct net_device *dev, struct tap_queue *q, const struct xdp_frame *f)
{
	struct iovec iov[TAP_MAX_IOV];
	int cnt = 1;

	iov[0] = (struct iovec){ f->data, f->len };
	if (unlikely(xdp_frame_has_frags(f))) {
		const struct skb_shared_info *sinfo = xdp_get_shared_info_from_frame(f);

		for (unsigned int i = 0; i < sinfo->nr_frags; i++)
			iov[cnt++] = (struct iovec){ skb_frag_address(&sinfo->frags[i]),
						     skb_frag_size(&sinfo->frags[i]) };
	}
	return tap_writev(dev, q, iov, cnt);
}

/* ndo_xdp_xmit: takes frames[0..ret); stops at the first write that fails. */
static int tap_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames, u32 flags)
{
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	struct tap_queue *q = tap_txq(dev);
	int i;

	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;
	if (unlikely(!netif_running(dev)))
		return -ENETDOWN;
	for (i = 0; i < n; i++) {
		unsigned int len = xdp_get_frame_len(frames[i]);

		if (tap_xmit_frame(dev, q, frames[i]))
			break;
		st->tx_packets++;
		st->tx_bytes += len;
		xdp_return_frame_rx_napi(frames[i]);
	}
	return i;
}

/* ---- receive ------------------------------------------------------------ */

/* One frame already read into @xdp: XDP and its verdict. True if redirected. */
static bool tap_rx_one(struct tap_queue *q, struct xdp_buff *xdp, struct bpf_prog *prog)
{
	struct net_device *dev = q->dev;
	struct iovec iov;
	u32 act;

	act = prog ? netdev_xdp_count_verdict(dev, bpf_prog_run(prog, xdp)) : XDP_PASS;
	if (act == XDP_TX) {
		iov = (struct iovec){ xdp->data, (u8 *)xdp->data_end - (u8 *)xdp->data };
		if (tap_writev(dev, tap_txq(dev), &iov, 1)) {
			netdev_drop(dev, NETDEV_DROP_XDP_TX_ERR, 1);
		} else {
			dev_pcpu_stats(dev)->tx_packets++;
			dev_pcpu_stats(dev)->tx_bytes += iov.iov_len;
		}
		xdp_return_buff(xdp);
		return false;
	}
	return xdp_rx_verdict(dev, xdp, prog, act);
}

static int tap_rx(struct tap_queue *q, int budget)
{
	struct net_device *dev = q->dev;
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	struct bpf_prog *prog = dev->xdp_prog;
	bool redirected = false;
	int done = 0;

	while (done < budget) {
		struct xdp_buff xdp;
		struct page *page;
		ssize_t len;
		u8 *va;

		page = page_pool_dev_alloc_pages(q->pool);
		if (unlikely(!page)) {
			/* Nothing read: the frame waits in the kernel's queue. */
			break;
		}
		va = page_address(page);
		q->stats[TAP_STAT_rx_reads]++;
		len = read(q->fd, va + TAP_HEADROOM, TAP_MAX_FRAME);
		if (len <= 0) {
			if (len < 0 && errno != EAGAIN && errno != EINTR)
				q->stats[TAP_STAT_rx_read_errors]++;
			page_pool_put_full_page(q->pool, page, true);
			break;
		}
		done++;
		if (unlikely(len < ETH_HLEN)) {
			netdev_drop(dev, NETDEV_DROP_SOCK_RX_LEN, 1);
			page_pool_put_full_page(q->pool, page, true);
			continue;
		}
		xdp_init_buff(&xdp, PAGE_SIZE, &q->xdp_rxq);
		xdp_prepare_buff(&xdp, va, TAP_HEADROOM, len, true);
		st->rx_packets++;
		st->rx_bytes += len;
		redirected |= tap_rx_one(q, &xdp, prog);
	}
	if (redirected)
		xdp_do_flush();
	return done;
}

static int tap_poll(struct napi_struct *napi, int budget)
{
	struct tap_queue *q = container_of(napi, struct tap_queue, napi);
	int done;

	if (!tap_active(q->dev)) {
		napi_complete_done(napi, 0);
		return 0;
	}
	napi_fd_poll_begin();
	done = tap_rx(q, budget);
	napi_fd_poll_end();
	if (napi_fd_idle(&q->nfd, done)) {
		napi_complete_done(napi, done);
		return done < budget ? done : budget - 1;
	}
	return budget;
}

static bool tap_gen_active(struct net_device *dev)
{
	return tap_active(dev);
}

/* ---- device ------------------------------------------------------------- */

static int tap_open(struct net_device *dev)
{
	struct tap_priv *priv = netdev_priv(dev);

	for (unsigned int i = 0; i < priv->nr_queues; i++)
		napi_enable(&priv->q[i].napi);
	return 0;
}

static int tap_stop(struct net_device *dev)
{
	struct tap_priv *priv = netdev_priv(dev);

	for (unsigned int i = 0; i < priv->nr_queues; i++)
		napi_disable(&priv->q[i].napi);
	return 0;
}

static int tap_bpf(struct net_device *dev, struct netdev_bpf *bpf)
{
	return bpf->command == XDP_SETUP_PROG ? 0 : -EINVAL;
}

static int tap_get_ethtool_stats(struct net_device *dev, char (*names)[48], u64 *values, int max)
{
	struct tap_priv *priv = netdev_priv(dev);
	int n;

	for (n = 0; n < TAP_STAT_MAX; n++) {
		u64 v = 0;

		for (unsigned int i = 0; i < priv->nr_queues; i++)
			v += priv->q[i].stats[n];
		if (n < max) {
			snprintf(names[n], 48, "%s", tap_stat_names[n]);
			values[n] = v;
		}
	}
	return n;
}

static void tap_stats_reset(struct net_device *dev)
{
	struct tap_priv *priv = netdev_priv(dev);

	for (unsigned int i = 0; i < priv->nr_queues; i++)
		memset(priv->q[i].stats, 0, sizeof(priv->q[i].stats));
}

static void tap_uninit(struct net_device *dev)
{
	struct tap_priv *priv = netdev_priv(dev);

	for (unsigned int i = 0; i < priv->nr_queues; i++) {
		struct tap_queue *q = &priv->q[i];

		netif_napi_del(&q->napi);
		xdp_rxq_info_unreg(&q->xdp_rxq);
		page_pool_destroy(q->pool);
		if (q->fd >= 0)
			close(q->fd);
		q->fd = -1;
	}
	free(priv->q);
	priv->q = NULL;
	priv->nr_queues = 0;
	napi_fd_unregister(dev);
}

static const struct net_device_ops tap_netdev_ops = {
	.ndo_uninit = tap_uninit,
	.ndo_open = tap_open,
	.ndo_stop = tap_stop,
	.ndo_start_xmit = tap_start_xmit,
	.ndo_xdp_xmit = tap_xdp_xmit,
	.ndo_bpf = tap_bpf,
	.ndo_get_ethtool_stats = tap_get_ethtool_stats,
	.ndo_stats_reset = tap_stats_reset,
	.ndo_gen_active = tap_gen_active,
};

static void tap_setup(struct net_device *dev)
{
	dev->netdev_ops = &tap_netdev_ops;
	dev->link_announce = 1;	/* a real wire: gratuitous ARP at the first run */
	dev->xdp_features = NETDEV_XDP_ACT_BASIC | NETDEV_XDP_ACT_REDIRECT |
			    NETDEV_XDP_ACT_NDO_XMIT | NETDEV_XDP_ACT_NDO_XMIT_SG;
	dev->max_mtu = TAP_MAX_FRAME - ETH_HLEN - 4;
}

/* Open queue @idx of KNAME (the first open creates the interface). */
static int tap_queue_open(struct net_device *dev, struct tap_queue *q, bool multi,
			  char *err, size_t errlen)
{
	struct tap_priv *priv = netdev_priv(dev);
	struct ifreq ifr = { 0 };
	int ret;

	q->fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (q->fd < 0) {
		ret = -errno;
		if (ret == -ENOENT || ret == -ENXIO || ret == -ENODEV)
			snprintf(err, errlen,
				 "%s: /dev/net/tun missing (modprobe tun; in a container: mknod /dev/net/tun c 10 200)",
				 dev->name);
		else if (ret == -EPERM || ret == -EACCES)
			snprintf(err, errlen,
				 "%s: /dev/net/tun: permission denied (needs CAP_NET_ADMIN: run as root)",
				 dev->name);
		else
			snprintf(err, errlen, "%s: /dev/net/tun: %s", dev->name, strerror(-ret));
		return ret;
	}
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI | (multi ? IFF_MULTI_QUEUE : 0);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", priv->kname);
	if (ioctl(q->fd, TUNSETIFF, &ifr)) {
		ret = -errno;
		if (ret == -EPERM || ret == -EACCES)
			snprintf(err, errlen,
				 "%s: creating tap '%s' not permitted: needs CAP_NET_ADMIN (run as root)",
				 dev->name, priv->kname);
		else if (ret == -EBUSY)
			snprintf(err, errlen,
				 "%s: tap '%s' is already in use by another process (pick another ifname)",
				 dev->name, priv->kname);
		else if (ret == -EINVAL)
			snprintf(err, errlen,
				 "%s: '%s' exists and is not a %stap (pick another ifname, or ip link del %s)",
				 dev->name, priv->kname, multi ? "multi-queue " : "single-queue ",
				 priv->kname);
		else
			snprintf(err, errlen, "%s: TUNSETIFF '%s': %s", dev->name, priv->kname,
				 strerror(-ret));
		close(q->fd);
		q->fd = -1;
		return ret;
	}
	/* The kernel may have completed a name pattern such as "tap%d". */
	snprintf(priv->kname, sizeof(priv->kname), "%s", ifr.ifr_name);
	return 0;
}

/* Bring KNAME up and read its MTU, in the namespace it lives in. */
static int tap_kernel_up(struct net_device *dev, char *err, size_t errlen)
{
	struct tap_priv *priv = netdev_priv(dev);
	struct ifreq ifr = { 0 };
	int fd, ret = 0;

	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: socket: %s", dev->name, strerror(-ret));
		return ret;
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", priv->kname);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr)) {
			ret = -errno;
			snprintf(err, errlen, "%s: cannot bring %s up: %s", dev->name, priv->kname,
				 strerror(-ret));
			goto out;
		}
	}
	if (!ioctl(fd, SIOCGIFMTU, &ifr)) {
		if ((unsigned int)ifr.ifr_mtu > dev->max_mtu) {
			ifr.ifr_mtu = dev->max_mtu;
			ioctl(fd, SIOCSIFMTU, &ifr);
		}
		dev->mtu = ifr.ifr_mtu;
	}
out:
	close(fd);
	return ret;
}

static const struct rtnl_link_arg tap_link_args[] = {
	RTNL_ARG_N(struct tap_config, "ifname", ifname, "KNAME", IFNAMSIZ - 1,
		   "interface name (1..15 characters)", "uxdptap0"),
	RTNL_ARG_U(struct tap_config, "queues", queues, 1, TAP_MAX_QUEUES, "N"),
	RTNL_ARG_N(struct tap_config, "netns", netns, "NS", 63, "namespace name", "uxdpns"),
	{ NULL }
};

/* tap_link_args into @cfg: 0, or -EINVAL with @err naming the bad argument. */
static int tap_parse_args(int argc, char **argv, struct tap_config *cfg, char *err, size_t errlen)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->queues = 1;
	return rtnl_link_args_parse(&tap_link_ops, cfg, argc, argv, err, errlen);
}

static int tap_newlink(struct net_device *dev, int argc, char **argv, char *err, size_t errlen)
{
	struct tap_priv *priv = netdev_priv(dev);
	struct tap_config cfg;
	int ret, oldns = -1;
	unsigned int i;

	ret = tap_parse_args(argc, argv, &cfg, err, errlen);
	if (ret)
		return ret;
	snprintf(priv->kname, sizeof(priv->kname), "%s", cfg.ifname ? cfg.ifname : dev->name);
	ret = register_netdevice(dev);
	if (ret) {
		snprintf(err, errlen, "cannot register '%s'", dev->name);
		return ret;
	}
	priv->q = aligned_alloc(SMP_CACHE_BYTES, cfg.queues * sizeof(*priv->q));
	if (!priv->q) {
		ret = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory", dev->name);
		goto out_unregister;
	}
	memset(priv->q, 0, cfg.queues * sizeof(*priv->q));
	if (cfg.netns) {
		/* The tun device is created in the namespace /dev/net/tun was opened in. */
		ret = napi_fd_netns_enter(cfg.netns, &oldns);
		if (ret) {
			snprintf(err, errlen,
				 "%s: cannot enter network namespace '%s': %s (see ip netns list; needs CAP_SYS_ADMIN)",
				 dev->name, cfg.netns, strerror(-ret));
			goto out_unregister;
		}
	}
	for (i = 0; i < cfg.queues; i++) {
		struct page_pool_params pp = {
			.order = 0,
			.pool_size = TAP_POOL_SIZE,
			.netdev = dev,
		};
		struct tap_queue *q = &priv->q[i];

		q->dev = dev;
		q->fd = -1;
		q->pool = page_pool_create(&pp);
		if (IS_ERR(q->pool)) {
			ret = PTR_ERR(q->pool);
			snprintf(err, errlen, "%s: out of memory", dev->name);
			goto out_unregister;
		}
		netif_napi_add(dev, &q->napi, tap_poll);
		xdp_rxq_info_reg(&q->xdp_rxq, dev, i, 0);
		xdp_rxq_info_reg_mem_model(&q->xdp_rxq, MEM_TYPE_PAGE_POOL, q->pool);
		priv->nr_queues = i + 1;
		ret = tap_queue_open(dev, q, cfg.queues > 1, err, errlen);
		if (ret)
			goto out_unregister;
		q->nfd.napi = &q->napi;
		q->nfd.fd = q->fd;
	}
	ret = tap_kernel_up(dev, err, errlen);
	if (ret)
		goto out_unregister;
	if (oldns >= 0)
		napi_fd_netns_leave(oldns);
	dev->real_num_rx_queues = dev->real_num_tx_queues = cfg.queues;
	napi_fd_register(dev);
	return 0;

out_unregister:
	if (oldns >= 0)
		napi_fd_netns_leave(oldns);
	unregister_netdevice(dev);	/* tap_uninit() closes the queues opened so far */
	return ret;
}

const struct rtnl_link_ops tap_link_ops = {
	.kind = "tap",
	.priv_size = sizeof(struct tap_priv),
	.args = tap_link_args,
	.setup = tap_setup,
	.newlink = tap_newlink,
};
