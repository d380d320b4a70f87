// SPDX-License-Identifier: GPL-2.0
/*
 * The device layer: net_device registration, ifindex and name lookup,
 * up/down, per-device counters and drop reasons, NAPI scheduling, the
 * workers that poll NAPI instances, and the stack entry points
 * netif_receive_skb() and dev_queue_xmit().
 *
 * Theory of operation.
 * Objects: a net_device is allocated by alloc_netdev() for a link kind
 * (struct rtnl_link_ops: veth, gen, sink), filled in by the kind's
 * newlink() and made findable by register_netdevice(), which gives it the
 * lowest free ifindex (from 1) and its devmap bulk queues. Drivers add
 * NAPI instances with netif_napi_add().
 * Threading: control-plane calls (link add/set, map update) happen between
 * runs, never while workers poll. netdev_run() starts N workers; worker i
 * binds CPU id i (uxdp_worker_bind_cpu()), so per-CPU counters, map slots,
 * slab magazines and bulk queues are indexed by it. A NAPI instance is on at
 * most one worker's poll list (the kernel's softnet_data poll_list): the
 * NAPI_STATE_SCHED bit is taken atomically by napi_schedule_prep(), and
 * __napi_schedule() links it onto the calling worker's list, so a frame
 * redirected on worker 2 schedules the target's NAPI on worker 2, as a
 * softirq does on its CPU.
 * Counters: struct netdev_pcpu_stats per (device, CPU), written by that CPU
 * only; readers sum them after a run.
 *
 * Roadmap: alloc_netdev() → register_netdevice() → dev_open() →
 * netdev_run() → worker_fn() → net_rx_action() → napi->poll() (the driver:
 * gen_poll, veth_poll) → xdp_do_redirect()/xdp_do_flush() (dev_xdp.c,
 * devmap_xmit.c) or netif_receive_skb() → protocol handler.
 *
 * Kernel: net/core/dev.c register_netdevice(), dev_get_by_index(),
 *	   dev_get_by_name(), dev_open(), dev_close(), dev_get_stats(),
 *	   napi_schedule_prep(), __napi_schedule(), napi_complete_done(),
 *	   net_rx_action(), __netif_receive_skb_core(), dev_queue_xmit(),
 *	   netdev_core_pick_tx(), netdev_pick_tx(), skb_tx_hash()
 * Differs: one namespace; no qdiscs (dev_queue_xmit calls ndo_start_xmit
 *	    directly); no GRO; no backlog queue (netif_rx delivers at once);
 *	    no RCU: configuration changes only between runs; the tx queue is
 *	    picked without ndo_select_queue, XPS or a socket's queue, and
 *	    with no flow dissector an skb without a recorded rx queue or a
 *	    hash leaves by queue 0.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/bug.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <linux/skbuff.h>
#include <linux/smp.h>
#include <linux/timer.h>
#include <net/xdp_generic.h>

#define NETDEV_MAX	256	/* ifindex 1..NETDEV_MAX-1 */

static struct net_device *dev_index_table[NETDEV_MAX];
static struct packet_type *ptype_base;
static bool run_stopping;
/* netdev_run() is between creating its first worker and joining its last. */
static bool run_active;
static void (*netdev_idle_hook)(void);
static unsigned int next_mac = 1;

/* Every NAPI instance; netdev_run() kicks those of generators at start. */
static struct napi_struct *napi_all[NETDEV_MAX * 4];
static unsigned int napi_all_cnt;

/* This worker's poll list (the kernel's softnet_data.poll_list). */
static __thread struct napi_struct *poll_head, *poll_tail;
/* Poll lists of workers stopped by netdev_run_abort, taken up by the next run. */
static struct napi_struct *parked_head[NR_CPUS], *parked_tail[NR_CPUS];
static bool netdev_run_abort;

/* Device drop reasons: the core rows, then the rows drivers register. */
static const char *drop_names[NETDEV_DROP_MAX] = {
#define __NAME(name, dir, text) [NETDEV_DROP_##name] = #name,
	NETDEV_DROP_REASONS(__NAME)
#undef __NAME
};

static const char *drop_texts[NETDEV_DROP_MAX] = {
#define __TEXT(name, dir, text) [NETDEV_DROP_##name] = text,
	NETDEV_DROP_REASONS(__TEXT)
#undef __TEXT
};

u8 netdev_drop_dirs[NETDEV_DROP_MAX] = {
#define __DIR(name, dir, text) [NETDEV_DROP_##name] = NETDEV_DROP_DIR_##dir,
	NETDEV_DROP_REASONS(__DIR)
#undef __DIR
};

static unsigned int drop_reasons_nr = NETDEV_DROP_CORE_MAX;

unsigned int netdev_drop_reasons_register(const struct netdev_drop_reason_desc *rows,
					  unsigned int n)
{
	unsigned int base = drop_reasons_nr;

	BUG_ON(n > NETDEV_DROP_MAX - base);
	for (unsigned int i = 0; i < n; i++) {
		drop_names[base + i] = rows[i].name;
		drop_texts[base + i] = rows[i].text;
		netdev_drop_dirs[base + i] = rows[i].dir;
	}
	drop_reasons_nr += n;
	return base;
}

const char *netdev_drop_reason_name(unsigned int r)
{
	return r < NETDEV_DROP_MAX ? drop_names[r] : NULL;
}

const char *netdev_drop_reason_text(unsigned int r)
{
	return r < NETDEV_DROP_MAX ? drop_texts[r] : NULL;
}

/* ---- registration ------------------------------------------------------ */

struct net_device *alloc_netdev(const struct rtnl_link_ops *ops, const char *name,
				unsigned int rxqs, unsigned int txqs)
{
	struct net_device *dev;

	if (!name || !*name || strlen(name) >= IFNAMSIZ || !rxqs || !txqs)
		return ERR_PTR(-EINVAL);
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return ERR_PTR(-ENOMEM);
	if (ops && ops->priv_size) {
		/* Cache-line aligned: private structs may hold an xdp_rxq_info. */
		size_t sz = ALIGN(ops->priv_size, SMP_CACHE_BYTES);

		dev->priv = aligned_alloc(SMP_CACHE_BYTES, sz);
		if (!dev->priv)
			goto out_free_dev;
		memset(dev->priv, 0, sz);
	}
	dev->pcpu_stats = aligned_alloc(SMP_CACHE_BYTES, NR_CPUS * sizeof(*dev->pcpu_stats));
	if (!dev->pcpu_stats)
		goto out_free_priv;
	memset(dev->pcpu_stats, 0, NR_CPUS * sizeof(*dev->pcpu_stats));
	strcpy(dev->name, name);
	dev->rtnl_link_ops = ops;
	dev->num_rx_queues = dev->real_num_rx_queues = rxqs;
	dev->num_tx_queues = dev->real_num_tx_queues = txqs;
	dev->mtu = ETH_DATA_LEN;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_MAX_MTU;
	dev->hard_header_len = ETH_HLEN;
	dev->addr_len = ETH_ALEN;
	dev->xdpgeneric_linearize = 1;
	memset(dev->broadcast, 0xff, ETH_ALEN);
	/* Locally administered, unique per process: 02:75:78:64:HH:LL ("uxd"). */
	dev->dev_addr[0] = 0x02;
	dev->dev_addr[1] = 0x75;
	dev->dev_addr[2] = 0x78;
	dev->dev_addr[3] = 0x64;
	dev->dev_addr[4] = (u8)(next_mac >> 8);
	dev->dev_addr[5] = (u8)next_mac;
	next_mac++;
	if (ops && ops->setup)
		ops->setup(dev);
	return dev;

out_free_priv:
	free(dev->priv);
out_free_dev:
	free(dev);
	return ERR_PTR(-ENOMEM);
}

void free_netdev(struct net_device *dev)
{
	if (!dev)
		return;
	BUG_ON(dev->reg_state == NETREG_REGISTERED);
	free(dev->pcpu_stats);
	free(dev->priv);
	free(dev);
}

struct net_device *dev_get_by_index(int ifindex)
{
	if (ifindex <= 0 || ifindex >= NETDEV_MAX)
		return NULL;
	return dev_index_table[ifindex];
}

struct net_device *dev_get_by_name(const char *name)
{
	for (int i = 1; i < NETDEV_MAX; i++)
		if (dev_index_table[i] && !strcmp(dev_index_table[i]->name, name))
			return dev_index_table[i];
	return NULL;
}

struct net_device *dev_get_next(const struct net_device *prev)
{
	for (int i = prev ? prev->ifindex + 1 : 1; i < NETDEV_MAX; i++)
		if (dev_index_table[i])
			return dev_index_table[i];
	return NULL;
}

int register_netdevice(struct net_device *dev)
{
	int ifindex, err;

	if (dev_get_by_name(dev->name))
		return -EEXIST;
	for (ifindex = 1; ifindex < NETDEV_MAX; ifindex++)
		if (!dev_index_table[ifindex])
			break;
	if (ifindex == NETDEV_MAX)
		return -ENFILE;
	if (dev->netdev_ops && dev->netdev_ops->ndo_init) {
		err = dev->netdev_ops->ndo_init(dev);
		if (err)
			return err;
	}
	err = dev_map_netdev_register(dev);
	if (err)
		goto out_uninit;
	dev->ifindex = ifindex;
	dev->reg_state = NETREG_REGISTERED;
	dev_index_table[ifindex] = dev;
	/* bpf_check_mtu() looks devices up through this hook. */
	bpf_dev_get_by_index_hook = dev_get_by_index;
	return 0;

out_uninit:
	if (dev->netdev_ops && dev->netdev_ops->ndo_uninit)
		dev->netdev_ops->ndo_uninit(dev);
	return err;
}

void (*netdev_unregister_hook)(struct net_device *dev);

void unregister_netdevice(struct net_device *dev)
{
	if (dev->reg_state != NETREG_REGISTERED)
		return;
	dev_close(dev);
	/* NETDEV_UNREGISTER: the stack forgets the device (neigh_ifdown()). */
	if (netdev_unregister_hook)
		netdev_unregister_hook(dev);
	if (dev->xdp_prog)
		dev_xdp_attach(dev, NULL, NULL, 0);
	if (dev->xdp_generic_prog)
		dev_xdp_generic_attach(dev, NULL, NULL, 0);
	if (dev->netdev_ops && dev->netdev_ops->ndo_uninit)
		dev->netdev_ops->ndo_uninit(dev);
	dev_map_netdev_unregister(dev);
	dev_index_table[dev->ifindex] = NULL;
	dev->reg_state = NETREG_UNREGISTERED;
}

void netdev_unregister_all(void)
{
	struct net_device *dev;

	/* dellink of a veth takes its peer too, so restart the walk each time. */
	while ((dev = dev_get_next(NULL))) {
		const struct rtnl_link_ops *ops = dev->rtnl_link_ops;

		if (ops && ops->dellink) {
			ops->dellink(dev);
		} else {
			unregister_netdevice(dev);
			free_netdev(dev);
		}
	}
}

int dev_open(struct net_device *dev)
{
	int err;

	if (dev->flags & IFF_UP)
		return 0;
	if (dev->netdev_ops && dev->netdev_ops->ndo_open) {
		err = dev->netdev_ops->ndo_open(dev);
		if (err)
			return err;
	}
	dev->flags |= IFF_UP;
	return 0;
}

int dev_close(struct net_device *dev)
{
	if (!(dev->flags & IFF_UP))
		return 0;
	dev->flags &= ~IFF_UP;
	if (dev->netdev_ops && dev->netdev_ops->ndo_stop)
		dev->netdev_ops->ndo_stop(dev);
	return 0;
}

/* ---- counters ----------------------------------------------------------- */

void dev_get_stats(struct net_device *dev, struct rtnl_link_stats64 *s)
{
	memset(s, 0, sizeof(*s));
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		const struct netdev_pcpu_stats *p = &dev->pcpu_stats[cpu];

		if (!dev->netdev_ops || !dev->netdev_ops->ndo_get_stats64) {
			s->rx_packets += p->rx_packets;
			s->rx_bytes += p->rx_bytes;
			s->tx_packets += p->tx_packets;
			s->tx_bytes += p->tx_bytes;
		}
		/* The kernel's dev->core_stats, added whatever the driver reports. */
		s->rx_dropped += p->rx_dropped;
		s->tx_dropped += p->tx_dropped;
		s->rx_nohandler += p->rx_nohandler;
		s->rx_otherhost_dropped += p->rx_otherhost_dropped;
	}
	if (dev->netdev_ops && dev->netdev_ops->ndo_get_stats64)
		dev->netdev_ops->ndo_get_stats64(dev, s);
}

void dev_get_xdp_stats(struct net_device *dev, u64 xdp[NETDEV_XDP_STAT_MAX])
{
	memset(xdp, 0, NETDEV_XDP_STAT_MAX * sizeof(u64));
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		for (int i = 0; i < NETDEV_XDP_STAT_MAX; i++)
			xdp[i] += dev->pcpu_stats[cpu].xdp[i];
}

void dev_get_drop_stats(struct net_device *dev, u64 drops[NETDEV_DROP_MAX])
{
	memset(drops, 0, NETDEV_DROP_MAX * sizeof(u64));
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		for (int i = 0; i < NETDEV_DROP_MAX; i++)
			drops[i] += dev->pcpu_stats[cpu].drops[i];
}

void dev_stats_reset(struct net_device *dev)
{
	memset(dev->pcpu_stats, 0, NR_CPUS * sizeof(*dev->pcpu_stats));
	if (dev->netdev_ops && dev->netdev_ops->ndo_stats_reset)
		dev->netdev_ops->ndo_stats_reset(dev);
}

/* ---- NAPI --------------------------------------------------------------- */

void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
		    int (*poll)(struct napi_struct *, int))
{
	memset(napi, 0, sizeof(*napi));
	napi->list_owner = -1;
	napi->dev = dev;
	napi->poll = poll;
	napi->weight = NAPI_POLL_WEIGHT;
	/* Disabled until napi_enable(), as the kernel's (SCHED held). */
	napi->state = (1UL << NAPI_STATE_SCHED) | (1UL << NAPI_STATE_DISABLE);
	if (napi_all_cnt < sizeof(napi_all) / sizeof(napi_all[0]))
		napi_all[napi_all_cnt++] = napi;
}

void netif_napi_del(struct napi_struct *napi)
{
	/* A run stopped by netdev_run_abort may have left it parked. */
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct napi_struct *prev = NULL;

		for (struct napi_struct *n = parked_head[cpu]; n; prev = n, n = n->poll_next) {
			if (n != napi)
				continue;
			if (prev)
				prev->poll_next = n->poll_next;
			else
				parked_head[cpu] = n->poll_next;
			if (parked_tail[cpu] == n)
				parked_tail[cpu] = prev;
			break;
		}
	}
	for (unsigned int i = 0; i < napi_all_cnt; i++) {
		if (napi_all[i] == napi) {
			napi_all[i] = napi_all[--napi_all_cnt];
			break;
		}
	}
}

void napi_enable(struct napi_struct *napi)
{
	__atomic_store_n(&napi->state, 0, __ATOMIC_RELEASE);
}

void napi_disable(struct napi_struct *napi)
{
	unsigned long old;

	__atomic_fetch_or(&napi->state, 1UL << NAPI_STATE_DISABLE, __ATOMIC_ACQ_REL);
	/* Take SCHED ourselves: then nobody polls or schedules it. */
	for (int spins = 0;; spins++) {
		old = __atomic_fetch_or(&napi->state, 1UL << NAPI_STATE_SCHED, __ATOMIC_ACQ_REL);
		if (!(old & (1UL << NAPI_STATE_SCHED)))
			break;
		/* Between runs nothing polls: a SCHED bit left set is a leftover. */
		if (spins > 1000)
			break;
		sched_yield();
	}
}

bool napi_schedule_prep(struct napi_struct *napi)
{
	unsigned long old = __atomic_fetch_or(&napi->state, 1UL << NAPI_STATE_SCHED,
					      __ATOMIC_ACQ_REL);

	return !(old & ((1UL << NAPI_STATE_SCHED) | (1UL << NAPI_STATE_DISABLE)));
}

void __napi_schedule(struct napi_struct *napi)
{
	napi->poll_next = NULL;
	WRITE_ONCE(napi->list_owner, smp_processor_id());
	if (poll_tail)
		poll_tail->poll_next = napi;
	else
		poll_head = napi;
	poll_tail = napi;
}

bool napi_complete_done(struct napi_struct *napi, int work_done)
{
	(void)work_done;
	WRITE_ONCE(napi->list_owner, -1);
	__atomic_fetch_and(&napi->state, ~(1UL << NAPI_STATE_SCHED), __ATOMIC_RELEASE);
	return true;
}

/**
 * net_rx_action() - poll every NAPI on this worker's list once
 *
 * A poll that used its whole budget stays scheduled and goes to the tail;
 * one that did less has called napi_complete_done() itself.
 * Return: the total work done.
 */
int net_rx_action(void)
{
	struct napi_struct *napi, *end = poll_tail;
	int work, total = 0;

	uxdp_softirq_count++;
	while ((napi = poll_head)) {
		poll_head = napi->poll_next;
		if (!poll_head)
			poll_tail = NULL;
		napi->polls++;
		work = napi->poll(napi, napi->weight);
		BUG_ON(work > napi->weight);
		total += work;
		if (work == napi->weight)
			__napi_schedule(napi);
		if (napi == end)
			break;
	}
	uxdp_softirq_count--;
	return total;
}

void dev_napi_schedule_all(struct net_device *dev)
{
	for (unsigned int i = 0; i < napi_all_cnt; i++)
		if (napi_all[i]->dev == dev)
			napi_schedule(napi_all[i]);
}

bool net_rx_pending(void)
{
	return poll_head != NULL;
}

/* ---- receive and transmit ---------------------------------------------- */

void dev_add_pack(struct packet_type *pt)
{
	pt->next = ptype_base;
	ptype_base = pt;
}

void dev_remove_pack(struct packet_type *pt)
{
	for (struct packet_type **pp = &ptype_base; *pp; pp = &(*pp)->next) {
		if (*pp == pt) {
			*pp = pt->next;
			return;
		}
	}
}

int netif_receive_skb(struct sk_buff *skb)
{
	struct net_device *dev = skb->dev;
	struct packet_type *pt;

	/* __netif_receive_skb_core(): generic XDP before taps and dispatch. */
	skb->skb_iif = dev->ifindex;
	if (unlikely(READ_ONCE(generic_xdp_needed)) && dev->xdp_generic_prog) {
		skb_reset_network_header(skb);
		if (!skb_transport_header_was_set(skb))
			skb_reset_transport_header(skb);
		skb_reset_mac_len(skb);
		if (do_xdp_generic(dev->xdp_generic_prog, &skb) != XDP_PASS)
			return NET_RX_DROP;
		dev = skb->dev;
	}

	for (pt = ptype_base; pt; pt = pt->next)
		if (pt->type == skb->protocol)
			return pt->func(skb, dev);

	/*
	 * No handler. IPv4/IPv6 frames for another host would have been
	 * dropped first thing by ip_rcv()/ipv6_rcv() (OTHERHOST); count them
	 * as that so the figure is the one a kernel with IP shows.
	 */
	if (skb->pkt_type == PACKET_OTHERHOST &&
	    (skb->protocol == htons(ETH_P_IP) || skb->protocol == htons(ETH_P_IPV6))) {
		netdev_drop(dev, NETDEV_DROP_OTHERHOST, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_OTHERHOST);
		return NET_RX_DROP;
	}
	netdev_drop(dev, NETDEV_DROP_NOHANDLER, 1);
	kfree_skb_reason(skb, SKB_DROP_REASON_UNHANDLED_PROTO);
	return NET_RX_DROP;
}

/*
 * skb_tx_hash(): the recorded rx queue folded into the tx queues (a
 * forwarded skb leaves by the queue of the CPU-local ring it came on),
 * otherwise the flow hash scaled to them.
 */
static u16 skb_tx_hash(const struct net_device *dev, const struct sk_buff *skb)
{
	u32 qcount = dev->real_num_tx_queues;

	if (skb_rx_queue_recorded(skb)) {
		u32 hash = skb_get_rx_queue(skb);

		while (unlikely(hash >= qcount))
			hash -= qcount;
		return hash;
	}
	/* reciprocal_scale(skb_get_hash()): no flow dissector, an unhashed skb takes 0 */
	return (u16)(((u64)skb->hash * qcount) >> 32);
}

/*
 * netdev_core_pick_tx(): the tx queue index for @skb on @dev, stored in
 * skb->queue_mapping for the driver (veth picks the peer's rx ring by it).
 */
u16 netdev_core_pick_tx(struct net_device *dev, struct sk_buff *skb)
{
	u16 queue_index = 0;

	if (dev->real_num_tx_queues > 1)
		queue_index = skb_tx_hash(dev, skb);
	skb_set_queue_mapping(skb, queue_index);
	return queue_index;
}

int dev_queue_xmit(struct sk_buff *skb)
{
	struct net_device *dev = skb->dev;

	if (unlikely(!(dev->flags & IFF_UP))) {
		netdev_drop(dev, NETDEV_DROP_TX_DOWN, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_DEV_READY);
		return -ENETDOWN;
	}
	if (unlikely(!dev->netdev_ops || !dev->netdev_ops->ndo_start_xmit)) {
		netdev_drop(dev, NETDEV_DROP_TX_NOT_SUPP, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
		return -EOPNOTSUPP;
	}
	netdev_core_pick_tx(dev, skb);
	/* No qdisc: NETDEV_TX_BUSY cannot requeue, the skb was dropped by the driver. */
	return dev->netdev_ops->ndo_start_xmit(skb, dev) == NETDEV_TX_OK ? 0 : -ENOBUFS;
}

/* ---- workers ------------------------------------------------------------ */

bool netdev_run_active(void)
{
	return __atomic_load_n(&run_active, __ATOMIC_ACQUIRE);
}

bool netdev_run_stopping(void)
{
	return __atomic_load_n(&run_stopping, __ATOMIC_RELAXED);
}

void netdev_run_stop(void)
{
	__atomic_store_n(&run_stopping, true, __ATOMIC_RELAXED);
}

void netdev_set_idle_hook(void (*hook)(void))
{
	netdev_idle_hook = hook;
}

struct worker {
	pthread_t thread;
	int cpu;
	unsigned int nr_workers;
	bool done;
};

static bool generators_active(void)
{
	for (struct net_device *dev = dev_get_next(NULL); dev; dev = dev_get_next(dev))
		if (dev->netdev_ops && dev->netdev_ops->ndo_gen_active &&
		    dev->netdev_ops->ndo_gen_active(dev))
			return true;
	return false;
}

static void pin_thread(int cpu)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (online < 1)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu % online, &set);
	/* Best effort: a container may forbid it; the run is still correct. */
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

void (*netdev_link_up_hook)(struct net_device *dev);

/* Worker 0, at the start of a run: links of real wires come up (NETDEV_UP). */
static void netdev_links_up(void)
{
	for (struct net_device *dev = dev_get_next(NULL); dev; dev = dev_get_next(dev)) {
		if (dev->link_announce != 1 || !(dev->flags & IFF_UP))
			continue;
		dev->link_announce = 2;
		if (netdev_link_up_hook)
			netdev_link_up_hook(dev);
	}
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	unsigned int kicked = 0;

	uxdp_worker_bind_cpu(w->cpu);
	pin_thread(w->cpu);
	if (w->cpu == 0)
		netdev_links_up();
	poll_head = parked_head[w->cpu];
	poll_tail = parked_tail[w->cpu];
	parked_head[w->cpu] = parked_tail[w->cpu] = NULL;
	for (unsigned int i = 0; i < napi_all_cnt; i++) {
		struct napi_struct *napi = napi_all[i];
		struct net_device *dev = napi->dev;

		if (!dev->netdev_ops || !dev->netdev_ops->ndo_gen_active ||
		    !dev->netdev_ops->ndo_gen_active(dev))
			continue;
		if (kicked++ % w->nr_workers == (unsigned int)w->cpu)
			napi_schedule(napi);
	}
	for (;;) {
		net_rx_action();
		/* The timer softirq runs on CPU 0 (neighbour timers). */
		if (w->cpu == 0)
			run_timers();
		if (unlikely(__atomic_load_n(&netdev_run_abort, __ATOMIC_RELAXED))) {
			/* Frames still circulating: keep the list for the next run. */
			parked_head[w->cpu] = poll_head;
			parked_tail[w->cpu] = poll_tail;
			break;
		}
		if (net_rx_pending())
			continue;
		/* Idle: done when no generator produces and nothing is queued here. */
		if (!generators_active())
			break;
		if (netdev_idle_hook)
			netdev_idle_hook();
		else
			sched_yield();
	}
	__atomic_store_n(&w->done, true, __ATOMIC_RELEASE);
	return NULL;
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int netdev_run(const struct netdev_run_opts *opts, uint64_t *elapsed_ns)
{
	unsigned int n = opts->workers ? opts->workers : 1;
	struct worker workers[NR_CPUS];
	u64 start, now, idle_since = 0;
	unsigned int i;
	int err = 0;

	if (n > nr_cpu_ids)
		return -EINVAL;
	__atomic_store_n(&run_stopping, false, __ATOMIC_RELAXED);
	__atomic_store_n(&netdev_run_abort, false, __ATOMIC_RELAXED);
	__atomic_store_n(&run_active, true, __ATOMIC_RELEASE);
	start = now_ns();
	for (i = 0; i < n; i++) {
		workers[i] = (struct worker){ .cpu = i, .nr_workers = n };
		err = pthread_create(&workers[i].thread, NULL, worker_fn, &workers[i]);
		if (err) {
			err = -err;
			__atomic_store_n(&run_stopping, true, __ATOMIC_RELAXED);
			break;
		}
	}
	for (;;) {
		bool all_done = true;

		for (unsigned int j = 0; j < i; j++)
			all_done &= __atomic_load_n(&workers[j].done, __ATOMIC_ACQUIRE);
		if (all_done)
			break;
		now = now_ns();
		/*
		 * Generators are done but the workers are not, a second later:
		 * frames go round in a loop (veth1 redirecting into veth0, say).
		 * Stop them; the kernel would spin forever.
		 */
		if (!idle_since && (__atomic_load_n(&run_stopping, __ATOMIC_RELAXED) || !generators_active()))
			idle_since = now;
		if (idle_since && now - idle_since > 1000000000ULL && !netdev_run_abort) {
			__atomic_store_n(&netdev_run_abort, true, __ATOMIC_RELAXED);
			pr_warn("run: frames still circulating 1 s after the generators stopped (a redirect loop?); stopped\n");
		}
		if (opts->duration_ns && now - start >= opts->duration_ns)
			__atomic_store_n(&run_stopping, true, __ATOMIC_RELAXED);
		if (opts->progress && !__atomic_load_n(&run_stopping, __ATOMIC_RELAXED) &&
		    !opts->progress(opts->progress_ctx, now - start))
			__atomic_store_n(&run_stopping, true, __ATOMIC_RELAXED);
		usleep(opts->duration_ns && opts->duration_ns < 200000000ULL ? 1000 : 20000);
	}
	for (unsigned int j = 0; j < i; j++)
		pthread_join(workers[j].thread, NULL);
	*elapsed_ns = now_ns() - start;
	__atomic_store_n(&run_stopping, false, __ATOMIC_RELAXED);
	__atomic_store_n(&run_active, false, __ATOMIC_RELEASE);
	return err;
}
