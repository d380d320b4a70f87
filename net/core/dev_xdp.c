// SPDX-License-Identifier: GPL-2.0
/*
 * Native XDP attach (`link set dev X xdp obj F`) and the redirect step every
 * driver calls after an XDP_REDIRECT verdict: xdp_do_redirect() reads and
 * consumes the per-worker bpf_redirect_info, converts the buffer into an
 * xdp_frame in its own headroom and hands it to the devmap bulk queue of
 * the target (kernel/bpf/devmap_xmit.c); xdp_do_flush() at the end of the
 * poll sends what is queued.
 *
 * Kernel: net/core/dev.c dev_xdp_attach(), dev_xdp_install();
 *	   net/core/filter.c xdp_do_redirect(), __xdp_do_redirect_frame(),
 *	   xdp_do_flush()
 * Differs: XSKMAP and CPUMAP targets and devmap broadcast are refused with
 *	    -EOPNOTSUPP (the frame is dropped and counted); no generic XDP here.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <net/xdp.h>

/* The target of the last failed enqueue on this CPU, for the drop count. */
static __thread struct net_device *redirect_err_dev;

/* The checks of dev_xdp_attach() on the program itself, for both modes. */
int dev_xdp_check_prog(struct net_device *dev, struct bpf_prog *prog, char *err, size_t errlen)
{
	if (prog && prog->type != BPF_PROG_TYPE_XDP) {
		if (err)
			snprintf(err, errlen, "%s: program is not an XDP program", dev->name);
		return -EINVAL;
	}
	if (prog && prog->expected_attach_type == BPF_XDP_DEVMAP) {
		if (err)
			snprintf(err, errlen, "%s: devmap programs cannot be attached to a device",
				 dev->name);
		return -EINVAL;
	}
	return 0;
}

int dev_xdp_attach(struct net_device *dev, struct bpf_prog *prog, char *err, size_t errlen)
{
	struct netdev_bpf bpf = {
		.command = XDP_SETUP_PROG,
		.prog = prog,
		.extack = err,
		.extack_len = errlen,
	};
	struct bpf_prog *old = dev->xdp_prog;
	int ret;

	if (!dev->netdev_ops || !dev->netdev_ops->ndo_bpf) {
		if (err)
			snprintf(err, errlen,
				 "%s: native XDP is not supported by this device (kind %s); use xdpgeneric",
				 dev->name, dev->rtnl_link_ops ? dev->rtnl_link_ops->kind : "?");
		return -EOPNOTSUPP;
	}
	ret = dev_xdp_check_prog(dev, prog, err, errlen);
	if (ret)
		return ret;
	if (prog && dev->xdp_generic_prog) {
		/* dev_xdp_attach(): one mode at a time. */
		if (err)
			snprintf(err, errlen,
				 "%s: native and generic XDP can't be active at the same time",
				 dev->name);
		return -EEXIST;
	}
	if (prog)
		bpf_prog_inc(prog);
	ret = dev->netdev_ops->ndo_bpf(dev, &bpf);
	if (ret) {
		bpf_prog_put(prog);
		return ret;
	}
	dev->xdp_prog = prog;
	bpf_prog_put(old);
	return 0;
}

int xdp_do_redirect(struct net_device *dev, struct xdp_buff *xdp, struct bpf_prog *prog)
{
	struct bpf_redirect_info *ri = bpf_net_ctx_get_ri();
	enum bpf_map_type map_type = ri->map_type;
	void *fwd = ri->tgt_value;
	u32 map_id = ri->map_id;
	struct bpf_map *map = ri->map;
	struct net_device *target;
	struct xdp_frame *xdpf;
	int err;

	(void)prog;
	redirect_err_dev = NULL;
	/* Consumed here, whatever the outcome, as the kernel's xdp_do_redirect(). */
	ri->map_id = 0;
	ri->map_type = BPF_MAP_TYPE_UNSPEC;
	ri->flags = 0;
	ri->map = NULL;
	ri->tgt_value = NULL;

	if (map_type == BPF_MAP_TYPE_XSKMAP)
		return -EOPNOTSUPP;
	xdpf = xdp_convert_buff_to_frame(xdp);
	if (unlikely(!xdpf))
		return -EOVERFLOW;

	switch (map_type) {
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		if (map)	/* BPF_F_BROADCAST */
			return -EOPNOTSUPP;
		target = dev_map_entry_dev(fwd);
		if (!target)
			return -EINVAL;
		goto enqueue_map;
	case BPF_MAP_TYPE_CPUMAP:
		return -EOPNOTSUPP;
	case BPF_MAP_TYPE_UNSPEC:
		if (map_id == INT_MAX) {
			target = dev_get_by_index((int)ri->tgt_index);
			if (!target)
				return -EINVAL;
			goto enqueue;
		}
		return -EINVAL;
	default:
		return -EBADRQC;
	}

enqueue_map:
	err = dev_map_enqueue_prog(target, xdpf, dev, dev_map_entry_prog(fwd));
	goto out;
enqueue:
	err = dev_xdp_enqueue(target, xdpf, dev);
out:
	if (unlikely(err))
		redirect_err_dev = target;
	return err;
}

void xdp_do_redirect_count_drop(struct net_device *dev, int err, unsigned int n)
{
	struct net_device *target = redirect_err_dev;

	/*
	 * Count where the user will look: a target that refused the frame
	 * (down, too long, not a redirect target) gets the drop, with the
	 * veth case spelled out; a missing target is the rx device's.
	 */
	if (target) {
		enum netdev_drop_reason r = xdp_redirect_drop_reason(err);

		if (err == -EOPNOTSUPP && target->netdev_ops->ndo_get_peer_dev &&
		    target->netdev_ops->ndo_get_peer_dev(target))
			r = NETDEV_DROP_PEER_NO_XDP;
		netdev_drop(target, r, n);
		redirect_err_dev = NULL;
		return;
	}
	netdev_drop(dev, xdp_redirect_drop_reason(err), n);
}

void xdp_do_flush(void)
{
	__dev_flush();
}
