/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic (skb-mode) XDP: a program attached with `link set dev X xdpgeneric
 * obj F` runs on every skb netif_receive_skb() gets for X, before protocol
 * dispatch, on any device (native XDP support not needed). The per-device
 * knob xdpgeneric_linearize (Luigi Rizzo's unmerged 2020 patch, default 1)
 * selects whether a non-cloned non-linear skb is linearised first.
 *
 * Kernel: net/core/dev.c do_xdp_generic(), netif_receive_generic_xdp(),
 *	   netif_skb_check_for_xdp(), bpf_prog_run_generic_xdp(),
 *	   generic_xdp_tx(), generic_xdp_install(); net/core/filter.c
 *	   xdp_do_generic_redirect(); kernel/bpf/devmap.c
 *	   dev_map_generic_redirect()
 */
#ifndef _UXDP_NET_XDP_GENERIC_H
#define _UXDP_NET_XDP_GENERIC_H

#include <stddef.h>

#include <linux/types.h>

#ifndef XDP_PACKET_HEADROOM
#define XDP_PACKET_HEADROOM	256
#endif

struct bpf_prog;
struct hist;
struct net_device;
struct sk_buff;
struct xdp_buff;

/* Set while any device has a generic program (the kernel's static key). */
extern int generic_xdp_needed;

/*
 * Attach (@prog non-NULL, a reference is taken) or detach (NULL) the
 * generic program of @dev. -EEXIST when a native program is attached,
 * -EINVAL for a non-XDP or devmap program. @err gets the reason.
 */
int dev_xdp_generic_attach(struct net_device *dev, struct bpf_prog *prog, char *err,
			   size_t errlen);

/*
 * The receive hook: run @xdp_prog on *@pskb. Returns XDP_PASS (the skb,
 * possibly replaced, continues up the stack) or XDP_DROP (it was consumed:
 * freed, transmitted or redirected).
 */
int do_xdp_generic(struct bpf_prog *xdp_prog, struct sk_buff **pskb);

/* The decision, the copy and the run; frees the skb on DROP/ABORTED/invalid. */
u32 netif_receive_generic_xdp(struct sk_buff **pskb, struct xdp_buff *xdp,
			      struct bpf_prog *xdp_prog);

/* Run @xdp_prog over @skb (data at L3, MAC header set) and fix the skb up. */
u32 bpf_prog_run_generic_xdp(struct sk_buff *skb, struct xdp_buff *xdp,
			     const struct bpf_prog *xdp_prog);

/* Transmit @skb (data at L2) on skb->dev directly (no qdisc). Consumes it. */
void generic_xdp_tx(struct sk_buff *skb, struct bpf_prog *xdp_prog);

/* The REDIRECT verdict for an skb: 0 (consumed) or -errno (caller frees). */
int xdp_do_generic_redirect(struct net_device *dev, struct sk_buff *skb,
			    struct xdp_buff *xdp, struct bpf_prog *xdp_prog);

/*
 * Per-packet latency sampling (TSC, calibrated once): when on, every hook
 * invocation records its total time, the program's own run and (when it
 * happened) the copy/linearise block, in ns, into per-CPU histograms.
 */
enum xdp_generic_lat {
	XDP_GENERIC_LAT_HOOK,	/* do_xdp_generic(), whole */
	XDP_GENERIC_LAT_PROG,	/* bpf_prog_run() alone */
	XDP_GENERIC_LAT_COPY,	/* netif_skb_check_for_xdp() when it ran */
	XDP_GENERIC_LAT_MAX,
};
int xdp_generic_latency_enable(bool on);
void xdp_generic_latency_reset(void);
/* Merge the per-CPU histograms of @which into @out (hist_init'ed by the callee). */
void xdp_generic_latency_get(enum xdp_generic_lat which, struct hist *out);
/* Nanoseconds per TSC tick, calibrated at the first call. */
double xdp_generic_tsc_ns(void);

/* Free the per-CPU copy pools and latency histograms (process exit). */
void xdp_generic_cleanup(void);

#endif
