// SPDX-License-Identifier: GPL-2.0
/*
 * The link verbs of the public API (include/uxdp/uxdp_link.h): create and
 * delete devices by kind, set XDP, MTU, up/down and driver knobs, read
 * counters and drop reasons, and run the datapath. It is the only place
 * that turns kernel objects into public structs.
 *
 * Kernel: net/core/rtnetlink.c rtnl_newlink(), do_setlink(),
 *	   rtnl_fill_stats(); net/core/dev.c dev_set_mtu()
 * Differs: no netlink; devices are created up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <net/dropreason.h>
#include <lib/hist.h>
#include <net/rtnetlink.h>
#include <net/xdp_generic.h>

#include <uxdp/uxdp_link.h>

static const struct rtnl_link_ops *const link_kinds[] = {
#define __KIND(kind) &kind##_link_ops,
	RTNL_LINK_KINDS(__KIND)
#undef __KIND
};

#define NR_LINK_KINDS	(sizeof(link_kinds) / sizeof(link_kinds[0]))

/* Built from the registrations (ops->kind, "dsa-switch"), not the X-macro tokens. */
static const char *link_kind_names[NR_LINK_KINDS + 1];
static char link_kind_usage[NR_LINK_KINDS][512];
static char link_kind_list[NR_LINK_KINDS * 16];

static const char *const *link_kind_names_get(void)
{
	if (!link_kind_names[0]) {
		size_t i, n = 0;

		for (i = 0; i < NR_LINK_KINDS; i++) {
			link_kind_names[i] = link_kinds[i]->kind;
			n += snprintf(link_kind_list + n, sizeof(link_kind_list) - n, "%s%s",
				      i ? ", " : "", link_kinds[i]->kind);
		}
	}
	return link_kind_names;
}

const char *rtnl_link_kind_list(void)
{
	link_kind_names_get();
	return link_kind_list;
}

static size_t link_arg_meta(const struct rtnl_link_arg *a, char *buf, size_t len)
{
	const char *const *w;
	size_t n = 0;

	if (a->type != RTNL_ARG_CHOICE)
		return snprintf(buf, len, "%s", a->meta ? a->meta : "N");
	for (w = a->choices(); *w && n < len; w++)
		n += snprintf(buf + n, len - n, "%s%s", w == a->choices() ? "" : "|", *w);
	return n;
}

const char *rtnl_link_usage(const struct rtnl_link_ops *ops)
{
	const struct rtnl_link_arg *a;
	size_t k, n = 0, len;
	char *buf;

	if (!ops->args)
		return ops->usage ? ops->usage : "";
	for (k = 0; k < NR_LINK_KINDS && link_kinds[k] != ops; k++)
		;
	if (k == NR_LINK_KINDS)
		return "";
	buf = link_kind_usage[k];
	len = sizeof(link_kind_usage[k]);
	if (*buf)
		return buf;
	for (a = ops->args; a->name && n < len; a++) {
		bool req = a->flags & RTNL_ARG_REQUIRED;
		char meta[256];

		link_arg_meta(a, meta, sizeof(meta));
		n += snprintf(buf + n, len - n, "%s%s%s %s%s", n ? " " : "", req ? "" : "[",
			      a->name, meta, req ? "" : "]");
	}
	return buf;
}

/*
 * Number of argv words @a's name takes, 0 if no match. A two-word name
 * ("peer name") takes both words, or its first alone with the value next
 * to it: iproute2 reads `peer [name] NAME`, and so `peer v1` names the peer.
 */
static int link_arg_match(const struct rtnl_link_arg *a, int argc, char **argv)
{
	const char *sp = strchr(a->name, ' ');

	if (!sp)
		return !strcmp(a->name, argv[0]);
	if (strncmp(a->name, argv[0], sp - a->name) || argv[0][sp - a->name])
		return 0;
	return argc > 1 && !strcmp(sp + 1, argv[1]) ? 2 : 1;
}

static int link_arg_store_uint(void *field, size_t size, unsigned long long v)
{
	switch (size) {
	case 1: *(u8 *)field = v; break;
	case 2: *(u16 *)field = v; break;
	case 4: *(u32 *)field = v; break;
	case 8: *(u64 *)field = v; break;
	default: return -EINVAL;
	}
	return 0;
}

static int link_arg_parse_one(const struct rtnl_link_ops *ops, const struct rtnl_link_arg *a,
			      void *base, const char *v, char *err, size_t errlen)
{
	void *field = (char *)base + a->off;
	const char *const *w;
	unsigned long long n;
	char *end, meta[256];

	switch (a->type) {
	case RTNL_ARG_UINT:
		errno = 0;
		n = strtoull(v, &end, 0);
		if (!*v || *end || *v == '-' || errno) {
			snprintf(err, errlen, "%s: %s '%s' is not a number", ops->kind, a->name, v);
			return -EINVAL;
		}
		if (n < a->min || n > a->max) {
			snprintf(err, errlen, "%s: %s '%s' out of range (%llu..%llu)", ops->kind, a->name,
				 v, a->min, a->max);
			return -EINVAL;
		}
		return link_arg_store_uint(field, a->size, n);
	case RTNL_ARG_STR:
		if (!*v) {
			snprintf(err, errlen, "%s: %s needs a %s", ops->kind, a->name, a->meta);
			return -EINVAL;
		}
		if (a->max && (strlen(v) > a->max || strpbrk(v, "/ \t"))) {
			snprintf(err, errlen, "%s: %s '%s' is not a valid %s", ops->kind, a->name, v,
				 a->what);
			return -EINVAL;
		}
		*(const char **)field = v;
		return 0;
	case RTNL_ARG_CHOICE:
		for (w = a->choices(); *w; w++)
			if (!strcmp(*w, v))
				return link_arg_store_uint(field, a->size, w - a->choices());
		link_arg_meta(a, meta, sizeof(meta));
		snprintf(err, errlen, "%s: %s '%s' unknown (%s)", ops->kind, a->name, v, meta);
		return -EINVAL;
	case RTNL_ARG_FN:
		if (a->parse(base, v)) {
			snprintf(err, errlen, "%s: %s '%s' is not a valid %s", ops->kind, a->name, v,
				 a->what);
			return -EINVAL;
		}
		return 0;
	}
	return -EINVAL;
}

int rtnl_link_args_parse(const struct rtnl_link_ops *ops, void *base, int argc, char **argv,
			 char *err, size_t errlen)
{
	const struct rtnl_link_arg *a;
	unsigned long long seen = 0;
	int i, w, ret;

	for (i = 0; i < argc; i += w + 1) {
		for (a = ops->args, w = 0; a->name; a++) {
			w = link_arg_match(a, argc - i, argv + i);
			if (w)
				break;
		}
		if (!a->name) {
			snprintf(err, errlen, "%s: unknown argument '%s' (%s)", ops->kind, argv[i],
				 rtnl_link_usage(ops));
			return -EINVAL;
		}
		if (i + w >= argc) {
			snprintf(err, errlen, "%s: '%s' needs a value (%s %s)", ops->kind, a->name,
				 a->name, a->type == RTNL_ARG_CHOICE ? "WORD" : a->meta ? a->meta : "N");
			return -EINVAL;
		}
		ret = link_arg_parse_one(ops, a, base, argv[i + w], err, errlen);
		if (ret)
			return ret;
		seen |= 1ULL << (a - ops->args);
	}
	for (a = ops->args; a->name; a++)
		if ((a->flags & RTNL_ARG_REQUIRED) && !(seen & 1ULL << (a - ops->args))) {
			char meta[256];

			link_arg_meta(a, meta, sizeof(meta));
			snprintf(err, errlen, "%s: '%s %s' is required (%s)", ops->kind, a->name, meta,
				 rtnl_link_usage(ops));
			return -EINVAL;
		}
	return 0;
}

int rtnl_newlink_noargs(struct net_device *dev, int argc, char **argv, char *err, size_t errlen)
{
	int ret;

	if (argc) {
		snprintf(err, errlen, "%s: unknown argument '%s'", dev->rtnl_link_ops->kind, argv[0]);
		return -EINVAL;
	}
	ret = register_netdevice(dev);
	if (ret)
		snprintf(err, errlen, "cannot register '%s'", dev->name);
	return ret;
}

const struct rtnl_link_ops *rtnl_link_ops_get(const char *kind)
{
	for (size_t i = 0; i < sizeof(link_kinds) / sizeof(link_kinds[0]); i++)
		if (!strcmp(link_kinds[i]->kind, kind))
			return link_kinds[i];
	return NULL;
}

static void set_err(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
	if (err && errlen)
		snprintf(err, errlen, fmt, a, b);
}

int uxdp_link_add(const char *name, const char *kind, int argc, char **argv,
		  char *err, size_t errlen)
{
	const struct rtnl_link_ops *ops = rtnl_link_ops_get(kind);
	char buf[256] = "";
	struct net_device *dev, *peer;
	int ret;

	if (!ops) {
		set_err(err, errlen, "unknown link type '%s' (%s)", kind, rtnl_link_kind_list());
		return -EOPNOTSUPP;
	}
	if (dev_get_by_name(name)) {
		set_err(err, errlen, "device '%s' already exists%s", name, "");
		return -EEXIST;
	}
	dev = alloc_netdev(ops, name, 1, 1);
	if (IS_ERR(dev)) {
		set_err(err, errlen, "'%s' is not a valid device name%s", name, "");
		return PTR_ERR(dev);
	}
	ret = ops->newlink(dev, argc, argv, buf, sizeof(buf));
	if (ret) {
		set_err(err, errlen, "%s%s", buf, "");
		free_netdev(dev);
		return ret;
	}
	/* Created up, veth peer included (uxdp has no reason to start down). */
	peer = dev->netdev_ops->ndo_get_peer_dev ? dev->netdev_ops->ndo_get_peer_dev(dev) : NULL;
	dev_open(dev);
	if (peer)
		dev_open(peer);
	return dev->ifindex;
}

const char *uxdp_link_kind_usage(const char *kind)
{
	const struct rtnl_link_ops *ops = rtnl_link_ops_get(kind);

	return ops ? rtnl_link_usage(ops) : NULL;
}

const char *const *uxdp_link_kinds(void)
{
	return link_kind_names_get();
}

int uxdp_link_del(const char *name)
{
	struct net_device *dev = dev_get_by_name(name);

	if (!dev)
		return -ENODEV;
	if (dev->rtnl_link_ops && dev->rtnl_link_ops->dellink) {
		dev->rtnl_link_ops->dellink(dev);
	} else {
		unregister_netdevice(dev);
		free_netdev(dev);
	}
	return 0;
}

void uxdp_link_del_all(void)
{
	netdev_unregister_all();
	/*
	 * No device is left to use the per-CPU system page pools of generic
	 * XDP (the kernel keeps them for its lifetime): give their pages back.
	 */
	xdp_generic_cleanup();
}

int uxdp_link_ifindex(const char *name)
{
	struct net_device *dev = dev_get_by_name(name);

	return dev ? dev->ifindex : -ENODEV;
}

int uxdp_link_next(int ifindex)
{
	struct net_device *dev = dev_get_next(ifindex > 0 ? dev_get_by_index(ifindex) : NULL);

	if (ifindex > 0 && !dev_get_by_index(ifindex)) {
		/* @ifindex went away: continue after it. */
		for (int i = ifindex + 1; i < 256; i++)
			if (dev_get_by_index(i))
				return i;
		return 0;
	}
	return dev ? dev->ifindex : 0;
}

/* `link set dev NAME xdp|xdpgeneric ...`: @attach is the mode's attach. */
static int link_set_xdp_mode(const char *name, uint32_t prog_id, char *err, size_t errlen,
			     int (*attach)(struct net_device *, struct bpf_prog *, char *, size_t))
{
	struct net_device *dev = dev_get_by_name(name);
	struct bpf_prog *prog = NULL;

	if (!dev) {
		set_err(err, errlen, "device '%s' does not exist%s", name, "");
		return -ENODEV;
	}
	if (prog_id) {
		prog = bpf_prog_get(prog_id);
		if (!prog) {
			set_err(err, errlen, "%s: no such program%s", name, "");
			return -ENOENT;
		}
	}
	return attach(dev, prog, err, errlen);
}

int uxdp_link_set_xdp(const char *name, uint32_t prog_id, char *err, size_t errlen)
{
	return link_set_xdp_mode(name, prog_id, err, errlen, dev_xdp_attach);
}

int uxdp_link_set_xdpgeneric(const char *name, uint32_t prog_id, char *err, size_t errlen)
{
	return link_set_xdp_mode(name, prog_id, err, errlen, dev_xdp_generic_attach);
}

int uxdp_xdpgeneric_latency(bool on)
{
	int ret = xdp_generic_latency_enable(on);

	xdp_generic_latency_reset();
	return ret;
}

int uxdp_xdpgeneric_latency_get(enum uxdp_latency_kind kind, struct uxdp_latency *out)
{
	struct hist *h;
	size_t sz = out->sz;

	if (kind > UXDP_LAT_XDPGENERIC_COPY)
		return -EINVAL;
	h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	xdp_generic_latency_get((enum xdp_generic_lat)kind, h);
	memset(out, 0, sizeof(*out));
	out->sz = sz;
	out->count = h->count;
	if (h->count) {
		out->min = h->min;
		out->p50 = hist_percentile(h, 50);
		out->p90 = hist_percentile(h, 90);
		out->p99 = hist_percentile(h, 99);
		out->p999 = hist_percentile(h, 99.9);
		out->max = h->max;
		out->mean = hist_mean(h);
	}
	free(h);
	return 0;
}

int uxdp_link_set(const char *name, const char *key, const char *value, char *err, size_t errlen)
{
	struct net_device *dev = dev_get_by_name(name);
	int ret;

	if (!dev) {
		set_err(err, errlen, "device '%s' does not exist%s", name, "");
		return -ENODEV;
	}
	if (!strcmp(key, "up"))
		return dev_open(dev);
	if (!strcmp(key, "down"))
		return dev_close(dev);
	if (!value) {
		set_err(err, errlen, "'%s' needs a value%s", key, "");
		return -EINVAL;
	}
	if (!strcmp(key, "mtu")) {
		char *end;
		unsigned long mtu = strtoul(value, &end, 0);

		if (!*value || *end || mtu < dev->min_mtu || mtu > dev->max_mtu) {
			set_err(err, errlen, "'%s' is not a valid MTU for %s", value, name);
			return -EINVAL;
		}
		dev->mtu = mtu;
		return 0;
	}
	if (!strcmp(key, "xdpgeneric_linearize")) {
		/* netdev_store(): a number; any non-zero value is 1. */
		char *end;
		unsigned long v = strtoul(value, &end, 0);

		if (!*value || *end) {
			set_err(err, errlen, "'%s' is not a valid xdpgeneric_linearize value%s",
				value, " (0 or 1)");
			return -EINVAL;
		}
		dev->xdpgeneric_linearize = !!v;
		return 0;
	}
	if (!dev->netdev_ops->ndo_set_param) {
		set_err(err, errlen, "%s: unknown setting '%s'", name, key);
		return -ENOENT;
	}
	ret = dev->netdev_ops->ndo_set_param(dev, key, value, err, errlen);
	if (ret == -ENOENT)
		set_err(err, errlen, "%s: unknown setting '%s'", name, key);
	return ret;
}

int uxdp_link_get_info(int ifindex, struct uxdp_link_info *info)
{
	struct net_device *dev = dev_get_by_index(ifindex);
	struct rtnl_link_stats64 s;
	u64 xdp[NETDEV_XDP_STAT_MAX], drops[NETDEV_DROP_MAX];
	struct net_device *peer;
	size_t sz = info->sz;

	if (!dev)
		return -ENODEV;
	memset(info, 0, sizeof(*info));
	info->sz = sz;
	snprintf(info->name, sizeof(info->name), "%s", dev->name);
	snprintf(info->kind, sizeof(info->kind), "%s",
		 dev->rtnl_link_ops ? dev->rtnl_link_ops->kind : "");
	info->ifindex = dev->ifindex;
	peer = dev->netdev_ops->ndo_get_peer_dev ? dev->netdev_ops->ndo_get_peer_dev(dev) : NULL;
	info->peer_ifindex = peer ? peer->ifindex : 0;
	info->up = dev->flags & IFF_UP;
	info->mtu = dev->mtu;
	info->xdp_prog_id = dev->xdp_prog ? dev->xdp_prog->aux->id : 0;
	if (sz >= offsetof(struct uxdp_link_info, xdpgeneric_linearize) + sizeof(bool)) {
		info->xdpgeneric_prog_id = dev->xdp_generic_prog ? dev->xdp_generic_prog->aux->id : 0;
		info->xdpgeneric_linearize = dev->xdpgeneric_linearize;
	}
	memcpy(info->addr, dev->dev_addr, 6);
	dev_get_stats(dev, &s);
	info->rx_packets = s.rx_packets;
	info->rx_bytes = s.rx_bytes;
	info->tx_packets = s.tx_packets;
	info->tx_bytes = s.tx_bytes;
	info->rx_dropped = s.rx_dropped;
	info->tx_dropped = s.tx_dropped;
	info->rx_nohandler = s.rx_nohandler;
	info->rx_otherhost_dropped = s.rx_otherhost_dropped;
	dev_get_xdp_stats(dev, xdp);
	info->xdp_aborted = xdp[NETDEV_XDP_ABORTED];
	info->xdp_drop = xdp[NETDEV_XDP_DROP];
	info->xdp_pass = xdp[NETDEV_XDP_PASS];
	info->xdp_tx = xdp[NETDEV_XDP_TX];
	info->xdp_redirect = xdp[NETDEV_XDP_REDIRECT];
	info->xdp_invalid = xdp[NETDEV_XDP_INVALID];
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		info->devmap_xmit_sent += dev->pcpu_stats[cpu].devmap_xmit_sent;
		info->devmap_xmit_drops += dev->pcpu_stats[cpu].devmap_xmit_drops;
	}
	dev_get_drop_stats(dev, drops);
	for (int i = 0; i < NETDEV_DROP_MAX; i++)
		if (netdev_drop_reason_dir(i) != NETDEV_DROP_DIR_NONE)	/* NONE: not a drop */
			info->drops_total += drops[i];
	return 0;
}

int uxdp_link_get_drops(int ifindex, struct uxdp_link_drop *out, int max)
{
	struct net_device *dev = dev_get_by_index(ifindex);
	u64 drops[NETDEV_DROP_MAX];
	struct net_device *peer;
	int n = 0;

	if (!dev)
		return -ENODEV;
	peer = dev->netdev_ops->ndo_get_peer_dev ? dev->netdev_ops->ndo_get_peer_dev(dev) : NULL;
	dev_get_drop_stats(dev, drops);
	for (int i = 0; i < NETDEV_DROP_MAX; i++) {
		int j;

		if (!drops[i])
			continue;
		/* Rows of one name (a driver's direction of a core reason) add up. */
		for (j = 0; j < n && j < max; j++)
			if (!strcmp(out[j].name, netdev_drop_reason_name(i)))
				break;
		if (j < n && j < max) {
			out[j].count += drops[i];
			continue;
		}
		if (n < max) {
			out[n].name = netdev_drop_reason_name(i);
			out[n].count = drops[i];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
			snprintf(out[n].text, sizeof(out[n].text), netdev_drop_reason_text(i),
				 peer ? peer->name : "?");
#pragma GCC diagnostic pop
		}
		n++;
	}
	return n;
}

int uxdp_link_get_driver_stats(int ifindex, char (*names)[48], uint64_t *values, int max)
{
	struct net_device *dev = dev_get_by_index(ifindex);

	if (!dev)
		return -ENODEV;
	if (!dev->netdev_ops->ndo_get_ethtool_stats)
		return 0;
	return dev->netdev_ops->ndo_get_ethtool_stats(dev, names, (u64 *)values, max);
}

void uxdp_link_stats_reset(void)
{
	for (struct net_device *dev = dev_get_next(NULL); dev; dev = dev_get_next(dev))
		dev_stats_reset(dev);
}

int uxdp_run(const struct uxdp_run_opts *opts, uint64_t *elapsed_ns)
{
	struct netdev_run_opts ro = {
		.workers = opts->workers ? opts->workers : 1,
		.duration_ns = opts->duration_ns,
		.progress = opts->progress,
		.progress_ctx = opts->progress_ctx,
	};
	char count[32], err[64];
	bool bounded = opts->duration_ns != 0;
	uint64_t ns = 0;
	int ret;

	snprintf(count, sizeof(count), "%llu", (unsigned long long)opts->count);
	for (struct net_device *dev = dev_get_next(NULL); dev; dev = dev_get_next(dev)) {
		if (!dev->netdev_ops->ndo_gen_active || !dev->netdev_ops->ndo_set_param)
			continue;
		/* "run_count": start a run; 0 keeps the generator's own count. */
		if (dev->netdev_ops->ndo_set_param(dev, "run_count", count, err, sizeof(err)) == 1)
			bounded = true;
	}
	/* the caller's progress callback can end it (uxdp run: SIGINT, SIGTERM) */
	if (opts->sz >= offsetof(struct uxdp_run_opts, until_stopped) + sizeof(bool) &&
	    opts->until_stopped && opts->progress)
		bounded = true;
	if (!bounded)
		return -EINVAL;
	ret = netdev_run(&ro, &ns);
	*elapsed_ns = ns;
	for (struct net_device *dev = dev_get_next(NULL); dev; dev = dev_get_next(dev))
		if (dev->netdev_ops->ndo_run_end)
			dev->netdev_ops->ndo_run_end(dev);
	return ret;
}
