/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Neighbour tables: (protocol address, device) -> link-layer address,
 * resolved by the NUD state machine (INCOMPLETE, REACHABLE, STALE, DELAY,
 * PROBE, FAILED; PERMANENT and NOARP set by hand), with the kernel's
 * default timers and probe counts, a bounded queue of skbs waiting for
 * resolution (unres_qlen_bytes, the oldest dropped as NEIGH_QUEUEFULL),
 * per-device parameters (net.ipv4.neigh.DEV.*) and the per-table
 * statistics of /proc/net/stat/arp_cache. A protocol (ARP) provides the
 * table: key length, hash, solicit() and error_report().
 *
 * Locking: lookups take no lock. Entries live in a fixed array per table
 * and are published in an open-addressed hash with release stores; while
 * workers run they are never freed or moved (a failed entry stays, and
 * resolves again when used), so a pointer from a lookup stays valid until
 * the next flush or delete, which happen only between runs. State,
 * probes, queue and timer are under the entry's spinlock (the kernel's
 * neigh->lock); the link-layer address is read under a sequence counter
 * (ha_lock), so the transmit fast path takes no lock.
 *
 * Kernel: include/net/neighbour.h, net/core/neighbour.c
 * Differs: no reference counts, RCU or garbage collection (at gc_thresh3
 *	    entries a table is full: table_fulls, NEIGH_CREATEFAIL); no hh
 *	    cache (the header is built from ha on each send); no proxy
 *	    entries, no netlink notifications; reachable_time is drawn when
 *	    the device's parameters are made or changed, not every 300 s.
 */
#ifndef _UXDP_NET_NEIGHBOUR_H
#define _UXDP_NET_NEIGHBOUR_H

#include <pthread.h>
#include <linux/neighbour.h>	/* UAPI NUD_*, NTF_* */
#include <linux/types.h>
#include <linux/skbuff.h>
#include <linux/timer.h>

struct net_device;

#define NUD_IN_TIMER	(NUD_INCOMPLETE | NUD_REACHABLE | NUD_DELAY | NUD_PROBE)
#define NUD_VALID	(NUD_PERMANENT | NUD_NOARP | NUD_REACHABLE | NUD_PROBE | \
			 NUD_STALE | NUD_DELAY)
#define NUD_CONNECTED	(NUD_PERMANENT | NUD_NOARP | NUD_REACHABLE)

/* neigh_update() flags */
#define NEIGH_UPDATE_F_OVERRIDE		(1 << 0)
#define NEIGH_UPDATE_F_WEAK_OVERRIDE	(1 << 1)
#define NEIGH_UPDATE_F_ADMIN		(1 << 7)

/*
 * Per-device parameters: NEIGH_VAR_<NAME>, sysctl name, unit (jiffies are
 * ms here: "_ms" names are in ms, the others in seconds or counts).
 */
#define NEIGH_VARS(FN)							\
	FN(MCAST_PROBES, "mcast_solicit", 1)				\
	FN(UCAST_PROBES, "ucast_solicit", 1)				\
	FN(APP_PROBES, "app_solicit", 1)				\
	FN(MCAST_REPROBES, "mcast_resolicit", 1)			\
	FN(RETRANS_TIME, "retrans_time_ms", 1)				\
	FN(BASE_REACHABLE_TIME, "base_reachable_time_ms", 1)		\
	FN(DELAY_PROBE_TIME, "delay_first_probe_time", HZ)		\
	FN(GC_STALETIME, "gc_stale_time", HZ)				\
	FN(QUEUE_LEN_BYTES, "unres_qlen_bytes", 1)			\
	FN(LOCKTIME, "locktime_ms", 1)

#define __NEIGH_VAR_ENUM(name, sysctl, unit)	NEIGH_VAR_##name,
enum {
	NEIGH_VARS(__NEIGH_VAR_ENUM)
	NEIGH_VAR_MAX
};

struct neigh_parms {
	int data[NEIGH_VAR_MAX];
	u64 reachable_time;		/* jiffies, drawn from BASE_REACHABLE_TIME */
	bool set;			/* per-device copy made */
};
#define NEIGH_VAR(p, attr)	((p)->data[NEIGH_VAR_##attr])

#define SK_WMEM_MAX	212992	/* net.core.wmem_max: unres_qlen_bytes' default */

/* The defaults ARP and NDP share (arp_tbl, nd_tbl); @locktime differs. */
#define NEIGH_PARMS_DEFAULT(locktime) {					\
	.data = {							\
		[NEIGH_VAR_MCAST_PROBES] = 3,				\
		[NEIGH_VAR_UCAST_PROBES] = 3,				\
		[NEIGH_VAR_RETRANS_TIME] = 1 * HZ,			\
		[NEIGH_VAR_BASE_REACHABLE_TIME] = 30 * HZ,		\
		[NEIGH_VAR_DELAY_PROBE_TIME] = 5 * HZ,			\
		[NEIGH_VAR_GC_STALETIME] = 60 * HZ,			\
		[NEIGH_VAR_QUEUE_LEN_BYTES] = SK_WMEM_MAX,		\
		[NEIGH_VAR_LOCKTIME] = (locktime),			\
	},								\
	.reachable_time = 30 * HZ,					\
}

/* /proc/net/stat/arp_cache columns, plus uxdp's own accounting (last two). */
#define NEIGH_STATS(FN)				\
	FN(allocs)				\
	FN(destroys)				\
	FN(hash_grows)				\
	FN(lookups)				\
	FN(hits)				\
	FN(res_failed)				\
	FN(rcv_probes_mcast)			\
	FN(rcv_probes_ucast)			\
	FN(periodic_gc_runs)			\
	FN(forced_gc_runs)			\
	FN(unres_discards)			\
	FN(table_fulls)				\
	FN(tx_solicits)				\
	FN(rx_consumed)

#define __NEIGH_STAT_FIELD(name)	u64 name;
struct neigh_statistics {
	NEIGH_STATS(__NEIGH_STAT_FIELD)
} __aligned(SMP_CACHE_BYTES);

#define NEIGH_KEY_MAX	16	/* IPv6 */
#define NEIGH_TBL_MAX	1024	/* gc_thresh3 */
#define NEIGH_HASH	(NEIGH_TBL_MAX * 2)	/* power of two */
#define NEIGH_DEV_MAX	256	/* ifindex 1..255 (NETDEV_MAX) */

struct neigh_table;

struct neighbour {
	pthread_spinlock_t lock;
	u32 ha_seq;			/* odd while ha is written */
	u8 nud_state;
	u8 flags;			/* NTF_* */
	u8 dead;
	int probes;
	u64 confirmed;
	u64 updated;
	u64 used;
	struct timer_list timer;
	struct sk_buff_head arp_queue;
	unsigned int arp_queue_len_bytes;
	struct neigh_table *tbl;
	struct net_device *dev;
	u8 ha[8];			/* ETH_ALEN used */
	u8 primary_key[NEIGH_KEY_MAX];
};

struct neigh_table {
	int family;
	unsigned int key_len;
	const char *id;			/* "arp_cache" */
	u16 protocol;			/* ETH_P_IP, host order */
	void (*solicit)(struct neighbour *n, struct sk_buff *skb);
	void (*error_report)(struct neighbour *n, struct sk_buff *skb);
	struct neigh_parms parms;	/* defaults (net.ipv4.neigh.default.*) */
	struct neigh_parms dev_parms[NEIGH_DEV_MAX];
	pthread_spinlock_t lock;	/* creation */
	int entries;
	struct neighbour *slots;	/* NEIGH_TBL_MAX, allocated at first use */
	int hash[NEIGH_HASH];		/* slot index + 1, 0 empty */
	struct neigh_statistics stats[NR_CPUS];
};

#define NEIGH_CACHE_STAT_INC(tbl, field)	((tbl)->stats[smp_processor_id()].field++)

/* The parameters in force on @dev (its own copy, or the table's defaults). */
struct neigh_parms *neigh_get_parms(struct neigh_table *tbl, const struct net_device *dev);

struct neighbour *neigh_lookup(struct neigh_table *tbl, const void *pkey,
			       const struct net_device *dev);
/* Lookup or create (NUD_NONE). ERR_PTR(-ENOBUFS) when the table is full. */
struct neighbour *__neigh_create(struct neigh_table *tbl, const void *pkey,
				 struct net_device *dev);
int neigh_update(struct neighbour *n, const u8 *lladdr, u8 new, u32 flags);
/* neigh_event_ns(): a solicitation from @lladdr for us: create, mark STALE. */
struct neighbour *neigh_event_ns(struct neigh_table *tbl, const u8 *lladdr,
				 const void *saddr, struct net_device *dev);
/*
 * Can @skb go now (0), or was it queued behind a solicitation or dropped
 * (1; consumed)? Starts resolution of a new or failed entry.
 */
int __neigh_event_send(struct neighbour *n, struct sk_buff *skb);
/* Transmit @skb (network header at data) to @n on n->dev. Consumes @skb. */
int neigh_resolve_output(struct neighbour *n, struct sk_buff *skb);
int neigh_hh_output(struct neighbour *n, struct sk_buff *skb);

static inline int neigh_event_send(struct neighbour *n, struct sk_buff *skb)
{
	u64 now = jiffies;

	if (READ_ONCE(n->used) != now)
		WRITE_ONCE(n->used, now);
	if (!(READ_ONCE(n->nud_state) & (NUD_CONNECTED | NUD_DELAY | NUD_PROBE)))
		return __neigh_event_send(n, skb);
	return 0;
}

static inline int neigh_output(struct neighbour *n, struct sk_buff *skb)
{
	if (READ_ONCE(n->nud_state) & NUD_CONNECTED) {
		u64 now = jiffies;

		if (READ_ONCE(n->used) != now)
			WRITE_ONCE(n->used, now);
		return neigh_hh_output(n, skb);
	}
	return neigh_resolve_output(n, skb);
}

/* Copy n->ha consistently (neigh_ha_snapshot()). */
void neigh_ha_snapshot(u8 *dst, const struct neighbour *n);

/*
 * Control plane, between runs only (netdev_run_active() false): during a
 * run neigh_delete() returns -EBUSY, neigh_table_flush() and
 * neigh_ifdown() log a warning and change nothing.
 */
int neigh_delete(struct neigh_table *tbl, const void *pkey, struct net_device *dev);
void neigh_table_flush(struct neigh_table *tbl);
/* The device goes away: its entries (and what waits in them) and parameters too. */
void neigh_ifdown(struct neigh_table *tbl, struct net_device *dev);
/* Entry @i (0-based, creation order) or NULL. */
struct neighbour *neigh_at(struct neigh_table *tbl, int i);
const char *neigh_state_name(u8 nud_state);
void neigh_stats_get(struct neigh_table *tbl, u64 *out);	/* NEIGH_STATS order */
const char *neigh_stat_name(int i);
int neigh_stats_count(void);
/* `sysctl net.ipv4.neigh.{default|DEV}.NAME=V`: 0, -ENOENT, -EINVAL. */
int neigh_sysctl_set(struct neigh_table *tbl, const char *rest, const char *value);
/* neigh_rand_reach_time(): uniform in [base/2, 3*base/2). */
u64 neigh_rand_reach_time(u64 base);

/* IPv4 (net/ipv4/arp.c) */
extern struct neigh_table arp_tbl;

static inline struct neighbour *__ipv4_neigh_lookup(struct net_device *dev, u32 key)
{
	return neigh_lookup(&arp_tbl, &key, dev);
}

/* `neigh add IP lladdr MAC dev D`: a NUD_PERMANENT entry. 0, -ENODEV, -ENOBUFS. */
int neigh_add(u32 ip, int ifindex, const u8 *lladdr);
/* inetdev_send_gratuitous_arp(): announce each address of @dev. */
void arp_send_gratuitous(struct net_device *dev);

#endif
