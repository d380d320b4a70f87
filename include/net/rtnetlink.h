/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Link kinds: one X-macro line per driver (`link add NAME type KIND`).
 * Adding a kind = its drivers/net/<kind>.c defining <kind>_link_ops + one
 * line here.
 *
 * Kernel: include/net/rtnetlink.h struct rtnl_link_ops, rtnl_link_register()
 */
#ifndef _UXDP_NET_RTNETLINK_H
#define _UXDP_NET_RTNETLINK_H

#include <linux/netdevice.h>

#define RTNL_LINK_KINDS(FN)	\
	FN(veth)		\
	FN(gen)			\
	FN(sink)		\
	FN(dsa_switch)		\
	FN(afpacket)		\
	FN(tap)		\
	FN(pcap)		\
	FN(afxdp)		\
	FN(dummy)

#define __RTNL_LINK_DECLARE(kind)	extern const struct rtnl_link_ops kind##_link_ops;
RTNL_LINK_KINDS(__RTNL_LINK_DECLARE)
#undef __RTNL_LINK_DECLARE

/* newlink of a kind that takes no arguments: register @dev or say why not. */
int rtnl_newlink_noargs(struct net_device *dev, int argc, char **argv, char *err, size_t errlen);

/* The ops of @kind, or NULL. */
const struct rtnl_link_ops *rtnl_link_ops_get(const char *kind);

#endif
