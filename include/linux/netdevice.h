/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct net_device: the fields the datapath and the eBPF context rewrite
 * need today. The engine work (net/core/dev.c) grows it: ops, queues, stats.
 *
 * Kernel: include/linux/netdevice.h
 */
#ifndef _UXDP_LINUX_NETDEVICE_H
#define _UXDP_LINUX_NETDEVICE_H

#include_next <linux/netdevice.h>	/* IFNAMSIZ, MAX_ADDR_LEN */

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/smp.h>
#include <errno.h>

struct bpf_prog;
struct sk_buff;
struct xdp_frame;
struct xdp_dev_bulk_queue;
struct netlink_ext_ack;
struct rtnl_link_ops;
struct rtnl_link_arg;
struct net_device_ops;
struct dsa_port;

typedef u32 xdp_features_t;

struct net_device {
	char name[IFNAMSIZ];
	int ifindex;
	unsigned int flags;		/* IFF_UP, ... */
	unsigned int mtu;
	unsigned short hard_header_len;	/* ETH_HLEN for Ethernet */
	unsigned short needed_headroom;
	unsigned short needed_tailroom;
	unsigned char addr_len;
	unsigned char dev_addr[MAX_ADDR_LEN];
	unsigned char broadcast[MAX_ADDR_LEN];

	/* ---- engine (net/core/dev.c); fields above are a fixed contract ---- */
	const struct net_device_ops *netdev_ops;
	const struct rtnl_link_ops *rtnl_link_ops;
	unsigned int min_mtu;
	unsigned int max_mtu;
	unsigned int num_rx_queues;
	unsigned int real_num_rx_queues;
	unsigned int num_tx_queues;
	unsigned int real_num_tx_queues;
	xdp_features_t xdp_features;	/* NETDEV_XDP_ACT_* */
	struct bpf_prog *xdp_prog;	/* native XDP program (reference held) */
	struct xdp_dev_bulk_queue *xdp_bulkq;	/* [nr_cpu_ids]: devmap bulk queues */
	struct netdev_pcpu_stats *pcpu_stats;	/* [nr_cpu_ids] */
	struct net_device *next_dev;	/* registration list */
	int reg_state;			/* NETREG_* */
	void *priv;			/* netdev_priv() */
	/* generic XDP (net/core/xdp_generic.c, include/net/xdp_generic.h) */
	struct bpf_prog *xdp_generic_prog;	/* the kernel's dev->xdp_prog (reference held) */
	struct xdp_rxq_info *xdp_generic_rxq;	/* [num_rx_queues]: the kernel's _rx[i].xdp_rxq */
	u8 xdpgeneric_linearize;		/* the no-linearise knob; 1 from alloc_netdev() */
	struct dsa_port *dsa_ptr;	/* DSA: a conduit's CPU port (net/dsa) */
	/* rx metadata kfuncs (net/core/xdp.c): what the driver knows, or NULL */
	const struct xdp_metadata_ops *xdp_metadata_ops;
	/*
	 * 1: a real wire (afpacket, tap, afxdp): its link comes up when the
	 * first run starts, and netdev_link_up_hook announces it (gratuitous
	 * ARP); 2: announced.
	 */
	u8 link_announce;
};

/* Called on worker 0 at the start of a run for each device that comes up (inet_init()). */
extern void (*netdev_link_up_hook)(struct net_device *dev);
/* Called by unregister_netdevice() (NETDEV_UNREGISTER; inet_init()). */
extern void (*netdev_unregister_hook)(struct net_device *dev);

/*
 * Device by ifindex (kernel: dev_get_by_index(net, ifindex)); NULL if none.
 * kernel/bpf/devmap.c has a weak stub returning NULL until the device layer
 * provides the real one.
 */
struct net_device *dev_get_by_index(int ifindex);

/* ---- net/core/dev.c: devices, NAPI, receive and transmit ---------------- */

#define NETDEV_XDP_ACT_BASIC		(1U << 0)	/* XDP_PASS/DROP/ABORTED */
#define NETDEV_XDP_ACT_REDIRECT		(1U << 1)	/* XDP_REDIRECT from its rx path */
#define NETDEV_XDP_ACT_NDO_XMIT		(1U << 2)	/* a redirect target */
#define NETDEV_XDP_ACT_XSK_ZEROCOPY	(1U << 3)
#define NETDEV_XDP_ACT_HW_OFFLOAD	(1U << 4)
#define NETDEV_XDP_ACT_RX_SG		(1U << 5)	/* multi-buffer on rx */
#define NETDEV_XDP_ACT_NDO_XMIT_SG	(1U << 6)	/* multi-buffer redirect target */

#define XDP_XMIT_FLUSH		(1U << 0)
#define XDP_XMIT_FLAGS_MASK	XDP_XMIT_FLUSH

#define NAPI_POLL_WEIGHT	64
#define VLAN_HLEN		4

enum netdev_tx {
	NETDEV_TX_OK	= 0x00,
	NETDEV_TX_BUSY	= 0x10,
};
typedef enum netdev_tx netdev_tx_t;

enum { NETREG_UNINITIALIZED = 0, NETREG_REGISTERED, NETREG_UNREGISTERED };

/*
 * Why a device dropped a packet, in words a user can act on (`stats drops`).
 * One X-macro: the enum, the name, the direction and the explanation. "%s"
 * in an explanation is replaced by the device's peer (ndo_get_peer_dev)
 * name. Drops of skbs also go through kfree_skb_reason() (global
 * per-reason counts); this table is per device, like the XDP tracepoints.
 *
 * The direction says which of the device's own counters a drop also
 * counts in, so netdev_drop() derives them all and rx_dropped/tx_dropped
 * can never disagree with the reasons:
 *   RX, TX	rx_dropped, tx_dropped (the kernel's dev->core_stats and the
 *		drivers' rx/tx drop counters)
 *   OTHERHOST	rx_otherhost_dropped; NOHANDLER: rx_nohandler
 *   REASON	counted under its reason only: what the kernel shows only
 *		through XDP verdicts and tracepoints (xdp_exception,
 *		xdp_redirect_err), and drops of no received or sent frame
 *   NONE	not a drop (a frame a generator could not make yet); not in
 *		drops_total
 * These are the core rows; a driver declares its own next to its code with
 * NETDEV_DROP_REASON_TABLE() (rows registered at start-up, after these).
 */
#define NETDEV_DROP_REASONS(FN)							\
	FN(XDP_ABORTED, REASON, "XDP program returned XDP_ABORTED or an invalid action (xdp_exception)") \
	FN(XDP_DROP, REASON, "XDP program returned XDP_DROP") \
	FN(REDIRECT_NO_TARGET, REASON, "redirected frames dropped: no such target (empty devmap slot or unknown ifindex, xdp_redirect_err)") \
	FN(REDIRECT_NOT_SUPP, REASON, "redirected frames dropped: target has no ndo_xdp_xmit, or cannot take multi-buffer frames (-EOPNOTSUPP)") \
	FN(REDIRECT_DOWN, REASON, "redirected frames dropped: target is down (-ENETDOWN)") \
	FN(REDIRECT_MSGSIZE, REASON, "redirected frames dropped: frame longer than the target's MTU + 18 (-EMSGSIZE)") \
	FN(REDIRECT_OVERFLOW, REASON, "frames dropped: no headroom left for struct xdp_frame (-EOVERFLOW)") \
	FN(REDIRECT_OTHER, REASON, "redirected frames dropped: unsupported redirect map type") \
	FN(PEER_NO_XDP, REASON, "redirected frames dropped: peer %s has no XDP program, so its NAPI ring is off (the kernel drops these too)") \
	FN(XMIT_MTU, TX, "frames dropped: longer than this device's MTU + 18") \
	FN(XDP_TX_ERR, TX, "XDP_TX frames dropped: could not be queued to the peer") \
	FN(DEVMAP_PROG, REASON, "redirected frames dropped by the devmap (egress) program") \
	FN(SKB_ALLOC, RX, "XDP_PASS frames dropped: skb allocation failed (a failed bulk allocation drops the whole batch)") \
	FN(SKB_COPY, REASON, "skbs dropped: could not copy into a page for XDP") \
	FN(PAGE_ALLOC, NONE, "frames not generated: page pool empty") \
	FN(OTHERHOST, OTHERHOST, "skbs dropped by the stack: destination MAC is not this device's (PACKET_OTHERHOST, ip_rcv)") \
	FN(NOHANDLER, NOHANDLER, "skbs dropped by the stack: no protocol handler (rx_nohandler)") \
	FN(TX_NOT_SUPP, TX, "skbs dropped: device cannot transmit") \
	FN(RX_DOWN, RX, "skbs dropped on receive: the device is down") \
	FN(TX_DOWN, TX, "skbs dropped: the device is down") \
	FN(SOCK_RX_LEN, RX, "received frames dropped: shorter than an Ethernet header, or longer than a page-pool page takes (a GSO frame? ethtool -K PEER tso off gso off)") \
	FN(SOCK_RX_NOMEM, RX, "received frames dropped: no page-pool page to copy the frame into") \
	FN(SOCK_TX_FULL, TX, "frames dropped: the kernel's tx ring (or tap queue) is full: earlier frames not sent yet") \
	FN(RX_RUNT, RX, "frames dropped on receive: shorter than an Ethernet header (14 B)") \
	FN(RX_OVERSIZED, RX, "frames dropped on receive: longer than the device takes (65535 B)") \
	FN(RX_TRUNCATED, RX, "capture records dropped: captured shorter than on the wire (snaplen)") \
	FN(RX_BAD_RECORD, RX, "capture records dropped: unreadable record (a read error ends the pass over the file)") \
	FN(XSK_TX_FULL, TX, "frames dropped: AF_XDP tx ring full (the kernel did not complete earlier frames in time)") \
	FN(XSK_IF_GONE, TX, "frames dropped: the AF_XDP interface was removed") \
	FN(XSK_RX_LEN, RX, "received frames dropped: longer than a page-pool page takes (or shorter than an Ethernet header)") \
	FN(XSK_RX_NOMEM, RX, "received frames dropped: no page-pool page to copy the AF_XDP frame into")

enum netdev_drop_dir {
	NETDEV_DROP_DIR_NONE,
	NETDEV_DROP_DIR_REASON,
	NETDEV_DROP_DIR_RX,
	NETDEV_DROP_DIR_TX,
	NETDEV_DROP_DIR_OTHERHOST,
	NETDEV_DROP_DIR_NOHANDLER,
};

#define __NETDEV_DROP_ENUM(name, dir, text)	NETDEV_DROP_##name,
enum netdev_drop_reason {
	NETDEV_DROP_REASONS(__NETDEV_DROP_ENUM)
	NETDEV_DROP_CORE_MAX,
	/* Rows drivers register follow the core rows, up to NETDEV_DROP_MAX. */
	NETDEV_DROP_MAX = 64,
};
#undef __NETDEV_DROP_ENUM

/* XDP verdict counters; INVALID counts actions > XDP_REDIRECT (handled as ABORTED). */
enum netdev_xdp_stat {
	NETDEV_XDP_ABORTED,
	NETDEV_XDP_DROP,
	NETDEV_XDP_PASS,
	NETDEV_XDP_TX,
	NETDEV_XDP_REDIRECT,
	NETDEV_XDP_INVALID,
	NETDEV_XDP_STAT_MAX,
};

/*
 * Per-device, per-CPU software counters: written only by the CPU (worker)
 * that owns the slot, summed by dev_get_stats().
 */
struct netdev_pcpu_stats {
	u64 rx_packets;
	u64 rx_bytes;
	u64 tx_packets;
	u64 tx_bytes;
	u64 rx_dropped;
	u64 tx_dropped;
	u64 rx_nohandler;
	u64 rx_otherhost_dropped;
	u64 xdp[NETDEV_XDP_STAT_MAX];
	u64 drops[NETDEV_DROP_MAX];
	u64 devmap_xmit_sent;		/* xdp_devmap_xmit tracepoint: as target */
	u64 devmap_xmit_drops;
} __aligned(SMP_CACHE_BYTES);

/* struct rtnl_link_stats64 is the UAPI one (<linux/if_link.h>). */

enum bpf_netdev_command {
	XDP_SETUP_PROG,
};

struct netdev_bpf {
	enum bpf_netdev_command command;
	struct bpf_prog *prog;		/* NULL: detach */
	char *extack;			/* message buffer on failure, may be NULL */
	size_t extack_len;
};

struct net_device_ops {
	int (*ndo_init)(struct net_device *dev);
	void (*ndo_uninit)(struct net_device *dev);
	int (*ndo_open)(struct net_device *dev);
	int (*ndo_stop)(struct net_device *dev);
	/* Consumes @skb. */
	netdev_tx_t (*ndo_start_xmit)(struct sk_buff *skb, struct net_device *dev);
	/*
	 * Takes frames[0..ret); the caller frees the rest. Negative: none
	 * taken (-EINVAL bad flags, -ENXIO not ready), as the kernel's.
	 */
	int (*ndo_xdp_xmit)(struct net_device *dev, int n, struct xdp_frame **frames, u32 flags);
	int (*ndo_bpf)(struct net_device *dev, struct netdev_bpf *bpf);
	/* Add driver counters to @stats (the software ones are already in). */
	void (*ndo_get_stats64)(struct net_device *dev, struct rtnl_link_stats64 *stats);
	struct net_device *(*ndo_get_peer_dev)(struct net_device *dev);
	int (*ndo_change_mtu)(struct net_device *dev, int new_mtu);
	/* uxdp: the driver's own knobs (`link set dev X KEY VALUE`); -ENOENT unknown key. */
	int (*ndo_set_param)(struct net_device *dev, const char *key, const char *value,
			     char *err, size_t errlen);
	/* uxdp: driver counters as name/value pairs (ethtool -S); returns how many, fills up to @max. */
	int (*ndo_get_ethtool_stats)(struct net_device *dev, char (*names)[48], u64 *values,
				     int max);
	/* uxdp: zero the driver's own counters (per-queue stats) with the core ones. */
	void (*ndo_stats_reset)(struct net_device *dev);
	/*
	 * uxdp: is this device a source that still produces (a generator
	 * before its count, a capture before its last pass, a live interface
	 * while up)? Asked by the control thread and by idle workers: it
	 * answers from the device's state and never sleeps or schedules
	 * (waiting for traffic is the idle hook's, netdev_set_idle_hook()).
	 * It may notice that the interface under the device went away and
	 * call netdev_run_stop().
	 */
	bool (*ndo_gen_active)(struct net_device *dev);
	/* uxdp: a run ended (workers stopped): write out what the driver buffers. */
	void (*ndo_run_end)(struct net_device *dev);
};

/* rtnl_link_ops: a device kind (`link add NAME type KIND ARGS`). */
struct rtnl_link_ops {
	const char *kind;
	size_t priv_size;
	const char *usage;		/* the kind's arguments, when it has no .args */
	const struct rtnl_link_arg *args;	/* the kind's arguments, { NULL }-terminated */
	void (*setup)(struct net_device *dev);
	/* Parse kind arguments and finish the device (may create a peer). */
	int (*newlink)(struct net_device *dev, int argc, char **argv, char *err, size_t errlen);
	void (*dellink)(struct net_device *dev);
};

static inline void *netdev_priv(const struct net_device *dev)
{
	return dev->priv;
}

static inline bool netif_running(const struct net_device *dev)
{
	return dev->flags & IFF_UP;
}

/* The calling CPU's counter slot. */
static inline struct netdev_pcpu_stats *dev_pcpu_stats(struct net_device *dev)
{
	return &dev->pcpu_stats[smp_processor_id()];
}

/*
 * alloc_netdev() - a device of @ops's kind named @name, priv zeroed.
 * Return: the device or ERR_PTR(-ENOMEM / -EINVAL). Not yet registered.
 */
struct net_device *alloc_netdev(const struct rtnl_link_ops *ops, const char *name,
				unsigned int rxqs, unsigned int txqs);
void free_netdev(struct net_device *dev);
/* Give @dev an ifindex and make it findable. -EEXIST if the name is taken. */
int register_netdevice(struct net_device *dev);
/* Close (if up), detach XDP, unlink; the caller then free_netdev()s. */
void unregister_netdevice(struct net_device *dev);
/* Unregister and free every device (end of a script, tests). */
void netdev_unregister_all(void);
struct net_device *dev_get_by_name(const char *name);
/* First device after @prev in ifindex order (NULL: the first). */
struct net_device *dev_get_next(const struct net_device *prev);
int dev_open(struct net_device *dev);
int dev_close(struct net_device *dev);
/* Sum of the software counters plus the driver's ndo_get_stats64. */
void dev_get_stats(struct net_device *dev, struct rtnl_link_stats64 *stats);
void dev_get_xdp_stats(struct net_device *dev, u64 xdp[NETDEV_XDP_STAT_MAX]);
void dev_get_drop_stats(struct net_device *dev, u64 drops[NETDEV_DROP_MAX]);
void dev_stats_reset(struct net_device *dev);
/* Name and explanation of row @r, core or registered; NULL past the last. */
const char *netdev_drop_reason_name(unsigned int r);
const char *netdev_drop_reason_text(unsigned int r);

/*
 * NAPI: a poll function the owning worker calls with a budget. Scheduling
 * puts it on the calling worker's poll list (the kernel's softnet_data), so
 * a NAPI runs on one worker at a time and never concurrently.
 */
#define NAPI_STATE_SCHED	0	/* bit: on a poll list / being polled */
#define NAPI_STATE_DISABLE	1

struct napi_struct {
	struct net_device *dev;
	int (*poll)(struct napi_struct *napi, int budget);
	int weight;
	unsigned long state;
	struct napi_struct *poll_next;	/* worker's poll list */
	int list_owner;			/* CPU whose poll list has it, or -1 */
	u64 polls;			/* uxdp: times polled */
};

void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
		    int (*poll)(struct napi_struct *, int));
void netif_napi_del(struct napi_struct *napi);
void napi_enable(struct napi_struct *napi);
/* Wait until @napi is not being polled and keep it off the poll lists. */
void napi_disable(struct napi_struct *napi);
/* Mark @napi scheduled; true if the caller must put it on a poll list. */
bool napi_schedule_prep(struct napi_struct *napi);
void __napi_schedule(struct napi_struct *napi);
static inline bool napi_schedule(struct napi_struct *napi)
{
	if (napi_schedule_prep(napi)) {
		__napi_schedule(napi);
		return true;
	}
	return false;
}
/* The poll did less than its budget: leave the poll list. Return: true. */
bool napi_complete_done(struct napi_struct *napi, int work_done);

#define NET_RX_SUCCESS	0
#define NET_RX_DROP	1

/* Poll every NAPI on the calling worker's list once; returns work done. */
int net_rx_action(void);
/* Schedule every NAPI of @dev on the calling thread (a worker's start, tests). */
void dev_napi_schedule_all(struct net_device *dev);
/* Is anything on the calling worker's poll list? */
bool net_rx_pending(void);

/* kernel/bpf/devmap_xmit.c: per-CPU bulk queues, the NETDEV_REGISTER part. */
int dev_map_netdev_register(struct net_device *dev);
void dev_map_netdev_unregister(struct net_device *dev);

/* Deliver @skb to the stack (protocol handlers). Consumes @skb. */
int netif_receive_skb(struct sk_buff *skb);
/* Transmit @skb on skb->dev. Consumes @skb. */
int dev_queue_xmit(struct sk_buff *skb);
u16 netdev_core_pick_tx(struct net_device *dev, struct sk_buff *skb);

/* A protocol handler (the kernel's struct packet_type); consumes the skb. */
struct packet_type {
	u16 type;		/* __be16 ethertype */
	int (*func)(struct sk_buff *skb, struct net_device *dev);
	struct packet_type *next;
};
void dev_add_pack(struct packet_type *pt);
void dev_remove_pack(struct packet_type *pt);

/* net/core/dev_xdp.c: native XDP attach. @err gets the reason on failure. */
int dev_xdp_attach(struct net_device *dev, struct bpf_prog *prog, char *err, size_t errlen);
/* The program checks both attach modes make (type, expected attach type). */
int dev_xdp_check_prog(struct net_device *dev, struct bpf_prog *prog, char *err, size_t errlen);

/*
 * Run-time: workers that poll NAPI instances (net/core/dev.c). Each worker
 * binds CPU id i with uxdp_worker_bind_cpu(); a NAPI scheduled from the
 * control thread goes to worker 0.
 */
struct netdev_run_opts {
	unsigned int workers;		/* 1..nr_cpu_ids */
	uint64_t duration_ns;		/* 0: until generators are done */
	bool (*progress)(void *ctx, uint64_t elapsed_ns);	/* control thread; false stops */
	void *progress_ctx;
};
/* Run until the duration or until every generator is done and all rings are drained. */
int netdev_run(const struct netdev_run_opts *opts, uint64_t *elapsed_ns);
/*
 * A run is under way (workers exist): the datapath reads tables lock-free,
 * so the control path must not move or free their entries (any thread).
 */
bool netdev_run_active(void);
/* The run is ending (duration over, progress said stop, netdev_run_stop()). */
bool netdev_run_stopping(void);
/* End the current run (a device whose interface went away); any thread. */
void netdev_run_stop(void);
/*
 * netdev_set_idle_hook() - what a worker does when its poll list is empty
 * and a source is still active: the wait for a NIC's interrupt. The hook
 * may sleep briefly (napi_fd: poll(2) on the worker's parked fds, 1 ms)
 * and schedule the NAPIs whose fds became ready. Without one, the worker
 * yields the CPU. Set once at start-up by the code that owns the fds.
 */
void netdev_set_idle_hook(void (*hook)(void));

/* A driver's drop reason row (NETDEV_DROP_REASON_TABLE()). */
struct netdev_drop_reason_desc {
	const char *name;
	enum netdev_drop_dir dir;
	const char *text;
};

/* Directions of all rows, core and registered (net/core/dropreason.c). */
extern u8 netdev_drop_dirs[NETDEV_DROP_MAX];

/*
 * Register @n driver rows; returns the id of the first (the rest follow in
 * order). Runs from a constructor, before any device exists: BUG when the
 * NETDEV_DROP_MAX slots are used up.
 */
unsigned int netdev_drop_reasons_register(const struct netdev_drop_reason_desc *rows,
					  unsigned int n);

/* Direction of @r: a constant for a core row given as a constant. */
static inline enum netdev_drop_dir netdev_drop_reason_dir(unsigned int r)
{
	switch (r) {
#define __NETDEV_DROP_DIR(name, dir, text)	\
	case NETDEV_DROP_##name:		\
		return NETDEV_DROP_DIR_##dir;
	NETDEV_DROP_REASONS(__NETDEV_DROP_DIR)
#undef __NETDEV_DROP_DIR
	default:
		return netdev_drop_dirs[r];
	}
}

/*
 * netdev_drop() - @dev dropped @n packets for reason @r (a core row or a
 * driver's registered row). The one place a device drop is counted: the
 * per-reason counter and, from the reason's direction, rx_dropped,
 * tx_dropped, rx_otherhost_dropped or rx_nohandler. An skb being dropped
 * is freed with kfree_skb_reason() as well.
 */
static inline void netdev_drop(struct net_device *dev, unsigned int r, u64 n)
{
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);

	st->drops[r] += n;
	switch (netdev_drop_reason_dir(r)) {
	case NETDEV_DROP_DIR_RX:
		st->rx_dropped += n;
		break;
	case NETDEV_DROP_DIR_TX:
		st->tx_dropped += n;
		break;
	case NETDEV_DROP_DIR_OTHERHOST:
		st->rx_otherhost_dropped += n;
		break;
	case NETDEV_DROP_DIR_NOHANDLER:
		st->rx_nohandler += n;
		break;
	default:
		break;
	}
}

/*
 * NETDEV_DROP_REASON_TABLE(prefix, LIST) - a driver's own drop reasons.
 * LIST(FN) gives rows FN(PREFIX_DROP_X, "NAME", DIR, "text"): the enum
 * constant, the name `stats drops` shows, the direction and the text, as
 * NETDEV_DROP_REASONS(); this yields enum prefix_drop_reason { ... } (indices
 * into the table), the table, its registration at start-up and
 * prefix_drop(dev, PREFIX_DROP_NAME, n), which is netdev_drop() on the
 * registered row. NAME may repeat a core row's name when the driver's
 * direction differs (veth counts a full ring on the receiving side):
 * `stats drops` adds rows of one name up.
 */
#define __NETDEV_DROP_DRV_ENUM(id, name, dir, text)	id,
#define __NETDEV_DROP_DRV_ROW(id, name, dir, text)	\
	{ name, NETDEV_DROP_DIR_##dir, text },
#define NETDEV_DROP_REASON_TABLE(prefix, LIST)					\
enum prefix##_drop_reason { LIST(__NETDEV_DROP_DRV_ENUM) };			\
static const struct netdev_drop_reason_desc prefix##_drop_rows[] = {		\
	LIST(__NETDEV_DROP_DRV_ROW)						\
};										\
static unsigned int prefix##_drop_base;						\
__attribute__((constructor)) static void prefix##_drop_reasons_init(void)	\
{										\
	prefix##_drop_base = netdev_drop_reasons_register(prefix##_drop_rows,	\
		sizeof(prefix##_drop_rows) / sizeof(prefix##_drop_rows[0]));	\
}										\
static inline void prefix##_drop(struct net_device *dev, enum prefix##_drop_reason r, u64 n) \
{										\
	netdev_drop(dev, prefix##_drop_base + r, n);				\
}


/* The drop reason for an xdp_do_redirect() error. */
static inline enum netdev_drop_reason xdp_redirect_drop_reason(int err)
{
	switch (err) {
	case -EINVAL:
		return NETDEV_DROP_REDIRECT_NO_TARGET;
	case -EOPNOTSUPP:
		return NETDEV_DROP_REDIRECT_NOT_SUPP;
	case -ENETDOWN:
		return NETDEV_DROP_REDIRECT_DOWN;
	case -EMSGSIZE:
		return NETDEV_DROP_REDIRECT_MSGSIZE;
	case -EOVERFLOW:
		return NETDEV_DROP_REDIRECT_OVERFLOW;
	default:
		return NETDEV_DROP_REDIRECT_OTHER;
	}
}

/*
 * Count an XDP verdict on @dev: actions beyond XDP_REDIRECT are counted
 * as INVALID and returned as XDP_ABORTED (bpf_warn_invalid_xdp_action()).
 */
static inline u32 netdev_xdp_count_verdict(struct net_device *dev, u32 act)
{
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);

	if (unlikely(act > 4 /* XDP_REDIRECT */)) {
		st->xdp[NETDEV_XDP_INVALID]++;
		act = 0;	/* XDP_ABORTED */
	}
	st->xdp[act]++;
	return act;
}

#endif
