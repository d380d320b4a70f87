/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uxdp links: what the CLI uses to build a topology of devices (veth
 * pairs, packet generators, sinks, ...), attach XDP programs, set their
 * knobs and read the counters and drop reasons back. Devices are
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

/* The rest of the surface, split by subject (included for existing users). */
#include "uxdp_ip.h"
#include "uxdp_run.h"

#endif
