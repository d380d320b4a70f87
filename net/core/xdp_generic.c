// SPDX-License-Identifier: GPL-2.0
/*
 * Generic (skb-mode) XDP: attach (`link set dev X xdpgeneric obj F`), the
 * receive hook netif_receive_skb() calls when a device has a generic
 * program, the copy/linearise decision, the run over the skb head with the
 * post-run skb fix-ups in the kernel's order, and the TX and REDIRECT
 * verdicts for skbs (generic_xdp_tx, xdp_do_generic_redirect by ifindex or
 * devmap, with the devmap entry's program run on the skb).
 *
 * The copy decision (6.9+): the MAC header is
 * pushed, then an skb that is cloned, non-linear or has less than
 * XDP_PACKET_HEADROOM (256) bytes in front of the MAC header is copied:
 * for an xdp.frags program into page-pool pages of this CPU's system pool
 * (skb_cow_data_for_xdp = skb_pp_cow_data, 256 B headroom), otherwise (or
 * when that fails) by pskb_expand_head + skb_linearize. With the device's
 * xdpgeneric_linearize at 0 (the proposed knob of 2020) only cloned skbs are
 * copied: the program of a non-linear skb sees the linear part only
 * (data_end = end of the head) and whatever headroom there is.
 *
 * Latency sampling (`run … latency`): rdtsc around the whole hook, the
 * program's run and the copy block, converted with a TSC rate calibrated
 * once against CLOCK_MONOTONIC, into per-CPU struct hist (lib/hist.c).
 * The median cost of the probes themselves (measured when sampling is
 * switched on) is subtracted: a read pair from every sample, and each
 * inner probe from the hook that contains it.
 *
 * Kernel: net/core/dev.c generic_xdp_install(), do_xdp_generic(),
 *	   netif_receive_generic_xdp(), netif_skb_check_for_xdp(),
 *	   bpf_prog_run_generic_xdp(), netif_get_rxqueue(), generic_xdp_tx();
 *	   net/core/skbuff.c skb_cow_data_for_xdp(); net/core/filter.c
 *	   xdp_do_generic_redirect(), xdp_ok_fwd_dev(); kernel/bpf/devmap.c
 *	   dev_map_generic_redirect(), dev_map_bpf_prog_run_skb()
 * Differs: no tracepoints (drops are counted per reason on the device);
 *	    CPUMAP, XSKMAP and devmap broadcast targets give -EOPNOTSUPP;
 *	    with xdpgeneric_linearize 0 a non-linear skb is shown to an
 *	    xdp.frags program with its own frags (no copy) and to other
 *	    programs without the frags flag, data_len left as it was (the 2020
 *	    patch); the xdp_rxq_info of each rx queue is registered at attach,
 *	    not at device allocation; skb_reset_network_header/mac_len are done
 *	    only for devices with a generic program; after bpf_xdp_adjust_tail
 *	    shrank the frags, skb->len is reduced with data_len (the kernel's
 *	    bpf_prog_run_generic_xdp leaves len stale, len != headlen +
 *	    data_len).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lib/hist.h>
#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/smp.h>
#include <net/page_pool/types.h>
#include <net/xdp.h>
#include <net/xdp_generic.h>

int generic_xdp_needed;

/* The kernel's per-CPU system_page_pool, created on first need. */
static struct page_pool *system_page_pool[NR_CPUS];

/* ---- latency sampling -------------------------------------------------- */

static bool lat_on;
static struct hist *lat_hist[NR_CPUS][XDP_GENERIC_LAT_MAX];
static double tsc_ns;
/*
 * Probe costs in ticks, measured once and subtracted: lat_self is what a
 * back-to-back pair of reads shows (charged to every sample), lat_inner
 * what one inner probe (two reads and a record) adds to the hook around it.
 */
static u64 lat_self, lat_inner;
static __thread unsigned int lat_probes;

static __always_inline u64 xg_now(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
#endif
}

static u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

double xdp_generic_tsc_ns(void)
{
	u64 n0, n1, t0, t1;

	if (tsc_ns > 0)
		return tsc_ns;
#if defined(__x86_64__) || defined(__i386__)
	n0 = mono_ns();
	t0 = xg_now();
	do
		n1 = mono_ns();
	while (n1 - n0 < 20000000ULL);	/* 20 ms */
	t1 = xg_now();
	tsc_ns = t1 > t0 ? (double)(n1 - n0) / (double)(t1 - t0) : 1.0;
#else
	(void)n0; (void)n1; (void)t0; (void)t1;
	tsc_ns = 1.0;
#endif
	return tsc_ns;
}

/* Median probe costs, so that percentiles show the work, not the timer. */
static int lat_calibrate(void)
{
	struct hist *h = malloc(sizeof(*h)), *scratch = malloc(sizeof(*scratch));
	u64 self;

	if (!h || !scratch) {
		free(h);
		free(scratch);
		return -ENOMEM;
	}
	hist_init(h);
	hist_init(scratch);
	for (int i = 0; i < 20000; i++) {
		u64 t0 = xg_now();

		hist_record(h, xg_now() - t0);
	}
	self = hist_percentile(h, 50);
	hist_init(h);
	for (int i = 0; i < 20000; i++) {
		u64 t0 = xg_now(), p0, p1;

		p0 = xg_now();
		p1 = xg_now();
		hist_record(scratch, (u64)((double)(p1 - p0) * tsc_ns));
		hist_record(h, xg_now() - t0);
	}
	lat_inner = hist_percentile(h, 50) > self ? hist_percentile(h, 50) - self : 0;
	lat_self = self;
	free(h);
	free(scratch);
	return 0;
}

int xdp_generic_latency_enable(bool on)
{
	if (on) {
		int err;

		xdp_generic_tsc_ns();
		err = lat_calibrate();
		if (err)
			return err;
		for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
			for (int w = 0; w < XDP_GENERIC_LAT_MAX; w++) {
				if (lat_hist[cpu][w])
					continue;
				lat_hist[cpu][w] = malloc(sizeof(struct hist));
				if (!lat_hist[cpu][w])
					return -ENOMEM;
				hist_init(lat_hist[cpu][w]);
			}
		}
	}
	lat_on = on;
	return 0;
}

void xdp_generic_latency_reset(void)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		for (int w = 0; w < XDP_GENERIC_LAT_MAX; w++)
			if (lat_hist[cpu][w])
				hist_init(lat_hist[cpu][w]);
}

void xdp_generic_latency_get(enum xdp_generic_lat which, struct hist *out)
{
	hist_init(out);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (lat_hist[cpu][which])
			hist_merge(out, lat_hist[cpu][which]);
}

static __always_inline void lat_record(enum xdp_generic_lat which, u64 t0, u64 t1)
{
	struct hist *h = lat_hist[smp_processor_id()][which];
	u64 d = t1 - t0, cost = lat_self;

	if (which == XDP_GENERIC_LAT_HOOK)
		cost += lat_probes * lat_inner;
	else
		lat_probes++;
	d = d > cost ? d - cost : 0;
	if (h)
		hist_record(h, (u64)((double)d * tsc_ns + 0.5));
}

void xdp_generic_cleanup(void)
{
	lat_on = false;
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		for (int w = 0; w < XDP_GENERIC_LAT_MAX; w++) {
			free(lat_hist[cpu][w]);
			lat_hist[cpu][w] = NULL;
		}
		page_pool_destroy(system_page_pool[cpu]);
		system_page_pool[cpu] = NULL;
	}
}

/* ---- attach ------------------------------------------------------------ */

static int generic_rxq_alloc(struct net_device *dev)
{
	struct xdp_rxq_info *rxq;
	size_t sz = ALIGN(dev->num_rx_queues * sizeof(*rxq), SMP_CACHE_BYTES);

	rxq = aligned_alloc(SMP_CACHE_BYTES, sz);
	if (!rxq)
		return -ENOMEM;
	memset(rxq, 0, sz);
	for (unsigned int i = 0; i < dev->num_rx_queues; i++) {
		int err = xdp_rxq_info_reg(&rxq[i], dev, i, 0);

		if (!err)
			err = xdp_rxq_info_reg_mem_model(&rxq[i], MEM_TYPE_PAGE_SHARED, NULL);
		if (err) {
			while (i--)
				xdp_rxq_info_unreg(&rxq[i]);
			free(rxq);
			return err;
		}
	}
	dev->xdp_generic_rxq = rxq;
	return 0;
}

static void generic_rxq_free(struct net_device *dev)
{
	if (!dev->xdp_generic_rxq)
		return;
	for (unsigned int i = 0; i < dev->num_rx_queues; i++)
		xdp_rxq_info_unreg(&dev->xdp_generic_rxq[i]);
	free(dev->xdp_generic_rxq);
	dev->xdp_generic_rxq = NULL;
}

int dev_xdp_generic_attach(struct net_device *dev, struct bpf_prog *prog, char *err,
			   size_t errlen)
{
	struct bpf_prog *old = dev->xdp_generic_prog;
	int ret;

	if (prog && dev->xdp_prog) {
		if (err)
			snprintf(err, errlen,
				 "%s: native and generic XDP can't be active at the same time",
				 dev->name);
		return -EEXIST;
	}
	ret = dev_xdp_check_prog(dev, prog, err, errlen);
	if (ret)
		return ret;
	if (prog && !dev->xdp_generic_rxq) {
		ret = generic_rxq_alloc(dev);
		if (ret)
			return ret;
	}
	if (prog)
		bpf_prog_inc(prog);
	dev->xdp_generic_prog = prog;
	/* generic_xdp_install(): the static key counts attached programs. */
	if (prog && !old)
		generic_xdp_needed++;
	else if (!prog && old)
		generic_xdp_needed--;
	bpf_prog_put(old);
	if (!prog)
		generic_rxq_free(dev);
	return 0;
}

/* ---- the hook ---------------------------------------------------------- */

/* netif_get_rxqueue(): the recorded rx queue if valid, else queue 0. */
static struct xdp_rxq_info *netif_get_rxqueue(struct sk_buff *skb)
{
	struct net_device *dev = skb->dev;
	unsigned int index = 0;

	if (skb_rx_queue_recorded(skb)) {
		index = skb_get_rx_queue(skb);
		if (unlikely(index >= dev->real_num_rx_queues))
			index = 0;	/* the kernel's WARN_ONCE */
	}
	return &dev->xdp_generic_rxq[index];
}

u32 bpf_prog_run_generic_xdp(struct sk_buff *skb, struct xdp_buff *xdp,
			     const struct bpf_prog *xdp_prog)
{
	void *orig_data, *orig_data_end, *hard_start;
	bool orig_bcast, orig_host, frags;
	u32 mac_len, frame_sz, metalen, act;
	struct ethhdr *eth;
	u16 orig_eth_type;
	int off;

	/* The program sees the packet from the MAC header. */
	mac_len = skb->data - skb_mac_header(skb);
	hard_start = skb->data - skb_headroom(skb);
	/* The head always has tailroom for skb_shared_info. */
	frame_sz = (u32)((unsigned char *)skb_end_pointer(skb) - (unsigned char *)hard_start);
	frame_sz += SKB_DATA_ALIGN(sizeof(struct skb_shared_info));

	xdp_init_buff(xdp, frame_sz, netif_get_rxqueue(skb));
	xdp_prepare_buff(xdp, hard_start, skb_headroom(skb) - mac_len,
			 skb_headlen(skb) + mac_len, true);
	/*
	 * 6.9+: a non-linear skb here (only an xdp.frags program gets one)
	 * shows its frags. uxdp's xdpgeneric_linearize 0 also lets a plain
	 * program see a non-linear skb: without the frags flag, as in 2020.
	 */
	frags = skb_is_nonlinear(skb) && xdp_prog->aux->xdp_has_frags;
	if (frags) {
		skb_shinfo(skb)->xdp_frags_size = skb->data_len;
		xdp_buff_set_frags_flag(xdp);
	} else {
		xdp_buff_clear_frags_flag(xdp);
	}

	orig_data_end = xdp->data_end;
	orig_data = xdp->data;
	eth = (struct ethhdr *)xdp->data;
	orig_host = ether_addr_equal(eth->h_dest, skb->dev->dev_addr);
	orig_bcast = is_multicast_ether_addr(eth->h_dest);
	orig_eth_type = eth->h_proto;

	if (unlikely(lat_on)) {
		u64 t0 = xg_now();

		act = bpf_prog_run(xdp_prog, xdp);
		lat_record(XDP_GENERIC_LAT_PROG, t0, xg_now());
	} else {
		act = bpf_prog_run(xdp_prog, xdp);
	}

	/* 1. bpf_xdp_adjust_head moved data. */
	off = (int)((char *)xdp->data - (char *)orig_data);
	if (off) {
		if (off > 0)
			__skb_pull(skb, off);
		else
			__skb_push(skb, -off);
		skb->mac_header += off;
		skb_reset_network_header(skb);
	}

	/*
	 * 2. bpf_xdp_adjust_tail moved data_end. As the kernel: the tail is
	 * set relative to skb->data (L3) with the length from xdp->data (L2),
	 * so tail ends mac_len bytes late; len is exact.
	 */
	off = (int)((char *)xdp->data_end - (char *)orig_data_end);
	if (off) {
		skb_set_tail_pointer(skb, (int)((char *)xdp->data_end - (char *)xdp->data));
		skb->len += off;
	}

	/*
	 * 3. The helpers updated the frags; data_len follows. The kernel
	 * leaves len as it was here (stale after a frags shrink); uxdp moves
	 * len by the same amount so that len = headlen + data_len holds.
	 */
	if (frags) {
		u32 new_data_len = xdp_buff_has_frags(xdp) ? skb_shinfo(skb)->xdp_frags_size : 0;

		skb->len -= skb->data_len - new_data_len;
		skb->data_len = new_data_len;
	}

	/* 4. L2 changed: classify again. */
	eth = (struct ethhdr *)xdp->data;
	if (orig_eth_type != eth->h_proto ||
	    orig_host != ether_addr_equal(eth->h_dest, skb->dev->dev_addr) ||
	    orig_bcast != is_multicast_ether_addr(eth->h_dest)) {
		__skb_push(skb, ETH_HLEN);
		skb->pkt_type = PACKET_HOST;
		skb->protocol = eth_type_trans(skb, skb->dev);
	}

	/* 5. TX/REDIRECT hand over an L2 frame; PASS keeps the metadata. */
	switch (act) {
	case XDP_REDIRECT:
	case XDP_TX:
		__skb_push(skb, mac_len);
		break;
	case XDP_PASS:
		metalen = (u32)((char *)xdp->data - (char *)xdp->data_meta);
		if (metalen)
			skb_metadata_set(skb, (u8)metalen);
		break;
	}
	return act;
}

static struct page_pool *xdp_system_page_pool(void)
{
	int cpu = smp_processor_id();

	if (unlikely(!system_page_pool[cpu])) {
		struct page_pool_params pp = {
			.order = 0,
			.pool_size = 1024,
		};
		struct page_pool *pool = page_pool_create(&pp);

		if (IS_ERR(pool))
			return NULL;
		system_page_pool[cpu] = pool;
	}
	return system_page_pool[cpu];
}

/* skb_cow_data_for_xdp(): only for frags-aware programs. */
static int skb_cow_data_for_xdp(struct sk_buff **pskb, const struct bpf_prog *prog)
{
	struct page_pool *pool;

	if (!prog->aux->xdp_has_frags)
		return -EINVAL;
	pool = xdp_system_page_pool();
	if (!pool)
		return -ENOMEM;
	return skb_pp_cow_data(pool, pskb, XDP_PACKET_HEADROOM);
}

/* netif_skb_check_for_xdp(): a private copy with 256 B of headroom. */
static int netif_skb_check_for_xdp(struct sk_buff **pskb, const struct bpf_prog *prog)
{
	struct sk_buff *skb = *pskb;
	int err, hroom, troom;

	err = skb_cow_data_for_xdp(pskb, prog);
	if (!err)
		return 0;
	/* Expand once here rather than again in the linearisation. */
	hroom = XDP_PACKET_HEADROOM - (int)skb_headroom(skb);
	troom = (int)(skb->tail + skb->data_len) - (int)skb->end;
	err = pskb_expand_head(skb, hroom > 0 ? ALIGN(hroom, NET_SKB_PAD) : 0,
			       troom > 0 ? troom + 128 : 0, GFP_ATOMIC);
	if (err)
		return err;
	return skb_linearize(skb);
}

u32 netif_receive_generic_xdp(struct sk_buff **pskb, struct xdp_buff *xdp,
			      struct bpf_prog *xdp_prog)
{
	struct sk_buff *skb = *pskb;
	struct net_device *dev = skb->dev;
	u32 mac_len, act;

	/* Re-injected by tc mirred / bpf_redirect ingress: no generic XDP. */
	if (skb->redirected)
		return XDP_PASS;

	/* 6.9+: headroom is measured at the MAC header. */
	mac_len = skb->data - skb_mac_header(skb);
	__skb_push(skb, mac_len);

	if (skb_cloned(skb) ||
	    (dev->xdpgeneric_linearize &&
	     (skb_is_nonlinear(skb) || skb_headroom(skb) < XDP_PACKET_HEADROOM))) {
		int err;

		if (unlikely(lat_on)) {
			u64 t0 = xg_now();

			err = netif_skb_check_for_xdp(pskb, xdp_prog);
			lat_record(XDP_GENERIC_LAT_COPY, t0, xg_now());
		} else {
			err = netif_skb_check_for_xdp(pskb, xdp_prog);
		}
		if (unlikely(err)) {
			/*
			 * Dropped before the program ran: a device drop with
			 * its reason, not a verdict (veth's copy failure too).
			 */
			netdev_drop(dev, NETDEV_DROP_SKB_COPY, 1);
			kfree_skb_reason(*pskb, SKB_DROP_REASON_NOMEM);
			return XDP_DROP;
		}
	}
	skb = *pskb;
	__skb_pull(skb, mac_len);

	act = netdev_xdp_count_verdict(dev, bpf_prog_run_generic_xdp(skb, xdp, xdp_prog));
	switch (act) {
	case XDP_REDIRECT:
	case XDP_TX:
	case XDP_PASS:
		break;
	case XDP_ABORTED:	/* also an invalid action (counted as such) */
		netdev_drop(dev, NETDEV_DROP_XDP_ABORTED, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_XDP);
		break;
	default:
		netdev_drop(dev, NETDEV_DROP_XDP_DROP, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_XDP);
		break;
	}
	return act;
}

void generic_xdp_tx(struct sk_buff *skb, struct bpf_prog *xdp_prog)
{
	struct net_device *dev = skb->dev;

	(void)xdp_prog;
	/* Straight to the driver: no qdisc, taps or validate_xmit_skb. */
	if (likely((dev->flags & IFF_UP) && dev->netdev_ops && dev->netdev_ops->ndo_start_xmit)) {
		netdev_core_pick_tx(dev, skb);
		/* uxdp drivers consume the skb whatever they return. */
		if (likely(dev->netdev_ops->ndo_start_xmit(skb, dev) == NETDEV_TX_OK))
			return;
	} else {
		kfree_skb_reason(skb, SKB_DROP_REASON_DEV_READY);
	}
	/* trace_xdp_exception(dev, prog, XDP_TX) */
	netdev_drop(dev, NETDEV_DROP_XDP_TX_ERR, 1);
}

/* dev_map_bpf_prog_run_skb(): the devmap entry's (egress) program. */
static u32 dev_map_bpf_prog_run_skb(struct sk_buff *skb, struct net_device *tgt,
				    struct bpf_prog *prog)
{
	struct xdp_txq_info txq = { .dev = tgt };
	struct xdp_buff xdp;
	u32 act;

	if (!prog)
		return XDP_PASS;
	__skb_pull(skb, skb->mac_len);
	xdp.txq = &txq;
	act = bpf_prog_run_generic_xdp(skb, &xdp, prog);
	switch (act) {
	case XDP_PASS:
		__skb_push(skb, skb->mac_len);
		break;
	default:
		netdev_drop(tgt, NETDEV_DROP_DEVMAP_PROG, 1);
		kfree_skb_reason(skb, SKB_DROP_REASON_XDP);
		break;
	}
	return act;
}

int xdp_do_generic_redirect(struct net_device *dev, struct sk_buff *skb,
			    struct xdp_buff *xdp, struct bpf_prog *xdp_prog)
{
	struct bpf_redirect_info *ri = bpf_net_ctx_get_ri();
	enum bpf_map_type map_type = ri->map_type;
	void *fwd = ri->tgt_value;
	struct bpf_map *map = ri->map;
	u32 map_id = ri->map_id;
	struct net_device *tgt;
	int err;

	(void)dev;
	(void)xdp;
	/* Consumed here, whatever the outcome, as the kernel's xdp_do_generic_redirect(). */
	ri->map_id = 0;
	ri->flags = 0;
	ri->map_type = BPF_MAP_TYPE_UNSPEC;
	ri->map = NULL;
	ri->tgt_value = NULL;

	switch (map_type) {
	case BPF_MAP_TYPE_UNSPEC:
		if (map_id != INT_MAX)
			return -EINVAL;
		tgt = dev_get_by_index((int)ri->tgt_index);
		if (unlikely(!tgt))
			return -EINVAL;
		err = xdp_ok_fwd_dev(tgt, skb->len);
		if (unlikely(err))
			return err;
		skb->dev = tgt;
		generic_xdp_tx(skb, xdp_prog);
		return 0;
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		if (map)	/* BPF_F_BROADCAST: dev_map_redirect_multi */
			return -EOPNOTSUPP;
		tgt = dev_map_entry_dev(fwd);
		if (unlikely(!tgt))
			return -EINVAL;
		/* dev_map_generic_redirect() */
		err = xdp_ok_fwd_dev(tgt, skb->len);
		if (unlikely(err))
			return err;
		/* The redirect succeeded even if the entry's program drops. */
		if (dev_map_bpf_prog_run_skb(skb, tgt, dev_map_entry_prog(fwd)) != XDP_PASS)
			return 0;
		skb->dev = tgt;
		generic_xdp_tx(skb, xdp_prog);
		return 0;
	case BPF_MAP_TYPE_CPUMAP:
	case BPF_MAP_TYPE_XSKMAP:
		return -EOPNOTSUPP;
	default:
		return -EBADRQC;
	}
}

int do_xdp_generic(struct bpf_prog *xdp_prog, struct sk_buff **pskb)
{
	struct net_device *dev = (*pskb)->dev;
	struct xdp_buff xdp;
	u64 t0 = 0;
	u32 act;
	int err;

	if (!xdp_prog)
		return XDP_PASS;
	if (unlikely(lat_on)) {
		lat_probes = 0;
		t0 = xg_now();
	}
	xdp.txq = NULL;
	act = netif_receive_generic_xdp(pskb, &xdp, xdp_prog);
	if (act == XDP_PASS)
		goto out;
	switch (act) {
	case XDP_REDIRECT:
		err = xdp_do_generic_redirect(dev, *pskb, &xdp, xdp_prog);
		if (unlikely(err)) {
			/* xdp_redirect_err, then SKB_DROP_REASON_XDP */
			netdev_drop(dev, xdp_redirect_drop_reason(err), 1);
			kfree_skb_reason(*pskb, SKB_DROP_REASON_XDP);
		}
		break;
	case XDP_TX:
		generic_xdp_tx(*pskb, xdp_prog);
		break;
	}
	act = XDP_DROP;
out:
	if (unlikely(lat_on))
		lat_record(XDP_GENERIC_LAT_HOOK, t0, xg_now());
	return act;
}
