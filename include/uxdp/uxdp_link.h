/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uxdp links and runs: what the CLI uses to build a topology of devices
 * (veth pairs, packet generators, sinks), attach XDP programs, drive the
 * datapath with worker threads and read the counters back. Devices are
 * named as in ip-link and referred to by ifindex. int functions return 0
 * or -errno; messages for a user go to the caller's @err buffer.
 *
 * Kernel: include/uapi/linux/if_link.h (the counters), rtnetlink (the verbs)
 */
#ifndef _UXDP_UXDP_LINK_H
#define _UXDP_UXDP_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uxdp.h"

/**
 * uxdp_link_add() - `link add NAME type KIND ARGS...`
 * @argv: the kind's arguments (veth: "peer name PEER"; see uxdp_link_kind_usage())
 * @err: receives what is wrong on failure
 *
 * The device (and a veth's peer) is created up.
 * Return: the new ifindex (> 0), or -EINVAL (bad arguments), -EEXIST,
 * -EOPNOTSUPP (unknown kind), -ENOMEM.
 */
UXDP_API int uxdp_link_add(const char *name, const char *kind, int argc, char **argv,
			   char *err, size_t errlen);
/** uxdp_link_kind_usage() - the arguments of @kind, or NULL if unknown. */
UXDP_API const char *uxdp_link_kind_usage(const char *kind);
/** uxdp_link_kinds() - the kind names, NULL-terminated. */
UXDP_API const char *const *uxdp_link_kinds(void);
/** uxdp_link_del() - delete a device (a veth takes its peer). -ENODEV. */
UXDP_API int uxdp_link_del(const char *name);
/** uxdp_link_del_all() - delete every device. */
UXDP_API void uxdp_link_del_all(void);
/** uxdp_link_ifindex() - ifindex of @name, or -ENODEV. */
UXDP_API int uxdp_link_ifindex(const char *name);
/** uxdp_link_next() - the ifindex after @ifindex (0: the first); 0 at the end. */
UXDP_API int uxdp_link_next(int ifindex);

/**
 * uxdp_link_set_xdp() - attach program @prog_id as native XDP (0: detach)
 *
 * Return: 0, -ENODEV, -ENOENT (no such program), -EOPNOTSUPP (the device
 * has no native XDP; @err names it), -ERANGE, -ENOTCONN (veth rules).
 */
UXDP_API int uxdp_link_set_xdp(const char *name, uint32_t prog_id, char *err, size_t errlen);
/**
 * uxdp_link_set() - `link set dev NAME KEY VALUE` / `up` / `down`
 * @key: "up", "down" (value NULL), "mtu", or a driver knob ("xdp_batch")
 *
 * Return: 0, -ENODEV, -ENOENT (unknown key for this device), -EINVAL.
 */
UXDP_API int uxdp_link_set(const char *name, const char *key, const char *value,
			   char *err, size_t errlen);
/**
 * uxdp_link_set_xdpgeneric() - attach @prog_id as generic (skb-mode) XDP
 * (0: detach); `link set dev NAME xdpgeneric obj F`. The knob
 * xdpgeneric_linearize 0|1 goes through uxdp_link_set().
 *
 * Return: 0, -ENODEV, -ENOENT, -EEXIST (a native program is attached),
 * -EINVAL (not an XDP program, or a devmap program).
 */
UXDP_API int uxdp_link_set_xdpgeneric(const char *name, uint32_t prog_id, char *err,
				      size_t errlen);

/* Latency of the generic XDP hook, ns (`run ... latency`). */
enum uxdp_latency_kind {
	UXDP_LAT_XDPGENERIC_HOOK,	/* the whole hook (copy + program + fix-ups + verdict) */
	UXDP_LAT_XDPGENERIC_PROG,	/* the program's own run */
	UXDP_LAT_XDPGENERIC_COPY,	/* the copy/linearise block, when it ran */
};
struct uxdp_latency {
	size_t sz;		/* sizeof(struct uxdp_latency) */
	uint64_t count;
	uint64_t min, p50, p90, p99, p999, max;
	double mean;
};
/** uxdp_xdpgeneric_latency() - sample the hook from now on (@on) and zero the histograms. */
UXDP_API int uxdp_xdpgeneric_latency(bool on);
/** uxdp_xdpgeneric_latency_get() - percentiles since the last uxdp_xdpgeneric_latency(). */
UXDP_API int uxdp_xdpgeneric_latency_get(enum uxdp_latency_kind kind, struct uxdp_latency *out);

struct uxdp_link_info {
	size_t sz;		/* sizeof(struct uxdp_link_info) */
	char name[16];
	char kind[16];
	int ifindex;
	int peer_ifindex;	/* veth: the peer; else 0 */
	bool up;
	uint32_t mtu;
	uint32_t xdp_prog_id;	/* 0: none */
	uint8_t addr[6];
	/* ndo_get_stats64 + core stats */
	uint64_t rx_packets, rx_bytes, tx_packets, tx_bytes;
	uint64_t rx_dropped, tx_dropped, rx_nohandler, rx_otherhost_dropped;
	/* XDP verdicts of programs run on this device; invalid ones are in aborted too */
	uint64_t xdp_aborted, xdp_drop, xdp_pass, xdp_tx, xdp_redirect, xdp_invalid;
	/* xdp_devmap_xmit, this device as the redirect target */
	uint64_t devmap_xmit_sent, devmap_xmit_drops;
	/* every frame this device dropped or discarded, whatever the reason */
	uint64_t drops_total;
	/* generic (skb-mode) XDP: program id (0: none) and the xdpgeneric_linearize knob */
	uint32_t xdpgeneric_prog_id;
	bool xdpgeneric_linearize;
};

/** uxdp_link_get_info() - state and counters of @ifindex. -ENODEV. */
UXDP_API int uxdp_link_get_info(int ifindex, struct uxdp_link_info *info);

struct uxdp_link_drop {
	const char *name;	/* "PEER_NO_XDP" */
	char text[200];		/* "redirected frames dropped: peer veth1 has no XDP program, ..." */
	uint64_t count;
};

/**
 * uxdp_link_get_drops() - the non-zero drop reasons of @ifindex
 * Return: how many reasons have a count (fills up to @max), or -ENODEV.
 */
UXDP_API int uxdp_link_get_drops(int ifindex, struct uxdp_link_drop *drops, int max);
/**
 * uxdp_link_get_driver_stats() - driver counters (ethtool -S names)
 * Return: how many the driver has (fills up to @max), or -ENODEV.
 */
UXDP_API int uxdp_link_get_driver_stats(int ifindex, char (*names)[48], uint64_t *values, int max);
/**
 * uxdp_skb_drops_get() - skbs freed with a drop reason (kfree_skb_reason,
 * the skb:kfree_skb tracepoint's counts) since start, summed over CPUs:
 * @names[i] is the reason ("IP_INHDR"), @counts[i] its count. Not zeroed
 * by uxdp_link_stats_reset(). Return: how many reasons (fills up to @max).
 */
UXDP_API int uxdp_skb_drops_get(const char **names, uint64_t *counts, int max);
/** uxdp_link_stats_reset() - zero the software counters of every device. */
UXDP_API void uxdp_link_stats_reset(void);

struct uxdp_run_opts {
	size_t sz;			/* sizeof(struct uxdp_run_opts) */
	unsigned int workers;		/* 0 = 1 */
	uint64_t duration_ns;		/* run for this long, or */
	uint64_t count;			/* each generator sends this many (0: its own count) */
	/* Called about every 20 ms from the calling thread; false stops the run. */
	bool (*progress)(void *ctx, uint64_t elapsed_ns);
	void *progress_ctx;
};

/**
 * uxdp_run() - drive every device until the duration is over, or until
 * all generators reached their count and every queue is drained
 * @elapsed_ns: receives the wall time of the run
 *
 * Return: 0, -EINVAL (no generator can finish: neither duration nor counts),
 * -EAGAIN (thread creation).
 */
UXDP_API int uxdp_run(const struct uxdp_run_opts *opts, uint64_t *elapsed_ns);

/* ---- IPv4 (issue 6): addresses, routes, neighbours, sysctl, counters ---- */

/**
 * uxdp_ip_addr_add() - `addr add A.B.C.D/LEN dev NAME`: the address, its
 * local route and its connected route. 0 or -errno, @err says why.
 */
UXDP_API int uxdp_ip_addr_add(const char *dev, const char *cidr, char *err, size_t errlen);
/**
 * uxdp_ip_route_add() - `route add PREFIX[/LEN] [via GW] [dev NAME]` (PREFIX
 * may be "default"); @type "unicast" (NULL), "blackhole", "unreachable" or
 * "prohibit". 0 or -errno, @err says why.
 */
UXDP_API int uxdp_ip_route_add(const char *prefix, const char *type, const char *via,
			       const char *dev, char *err, size_t errlen);
/** uxdp_ip_neigh_add() - `neigh add IP lladdr MAC dev NAME` (NUD_PERMANENT). */
UXDP_API int uxdp_ip_neigh_add(const char *ip, const char *lladdr, const char *dev,
			       char *err, size_t errlen);
/** uxdp_sysctl_set() - `sysctl net.ipv4.KEY=VALUE`. 0, -ENOENT, -EINVAL. */
UXDP_API int uxdp_sysctl_set(const char *key, const char *value, char *err, size_t errlen);
/**
 * uxdp_ip_snmp_get() - the Ip: and Icmp: counters as "Ip.InReceives"-style
 * names. Return: how many there are (fills up to @max).
 */
UXDP_API int uxdp_ip_snmp_get(char (*names)[48], uint64_t *values, int max);
/**
 * uxdp_ip_show() - line @i of `addr show` (@what 0), `route show` (1) or
 * `neigh show` (2) into @buf. Return: 0, or -ENOENT past the end.
 */
UXDP_API int uxdp_ip_show(int what, int i, char *buf, size_t len);
/**
 * uxdp_ip_neigh_json() - entry @i of `neigh show` as a JSON object (the
 * elements of `ip -j neigh show`); "" for an entry not shown.
 * Return: 0, or -ENOENT past the end.
 */
UXDP_API int uxdp_ip_neigh_json(int i, char *buf, size_t len);
/**
 * uxdp_neigh_stats_get() - statistics of neighbour table @tbl (0 ARP,
 * 1 NDP; its name in @id): the /proc/net/stat/arp_cache columns, then
 * uxdp's tx_solicits (requests and announcements it sent) and rx_consumed
 * (frames the table's protocol ended without sending anything), then
 * entries. Return: how many there are (fills up to @max), -ENOENT.
 */
UXDP_API int uxdp_neigh_stats_get(int tbl, const char **id, char (*names)[48], uint64_t *values,
				  int max);
/** uxdp_ip_reset() - forget addresses, routes, neighbours and counters. */
UXDP_API void uxdp_ip_reset(void);

#endif
