// SPDX-License-Identifier: GPL-2.0
/*
 * The generic neighbour layer: table lookup and creation, the NUD state
 * machine (neigh_update(), the per-entry timer), resolution on output
 * (__neigh_event_send(): start INCOMPLETE with an immediate solicitation,
 * queue the skb within unres_qlen_bytes, or let it go in DELAY/PROBE),
 * the hard header on transmit, and per-device parameters. See
 * include/net/neighbour.h for the locking rules.
 *
 * State machine, as the kernel's (jiffies in ms, ARP defaults):
 *   NONE/FAILED --output--> INCOMPLETE: mcast_solicit (3) broadcast
 *	solicitations retrans_time (1 s) apart, then FAILED: the queue is
 *	flushed through error_report (ICMP host unreachable, NEIGH_FAILED).
 *   INCOMPLETE --reply--> REACHABLE for reachable_time (base 30 s drawn in
 *	[15, 45) s); then STALE, or DELAY if used in the last
 *	delay_first_probe_time (5 s).
 *   STALE --output--> DELAY (the skb goes with the old address); DELAY
 *	--5 s, no confirmation--> PROBE: ucast_solicit (3) unicast
 *	solicitations 1 s apart, then FAILED.
 *   A solicitation from the neighbour, or a broadcast reply, makes STALE;
 *   a unicast reply REACHABLE (override once locktime, 1 s, has passed).
 *
 * Kernel: net/core/neighbour.c neigh_lookup(), ___neigh_create(),
 *	   neigh_timer_handler(), __neigh_event_send(), __neigh_update(),
 *	   neigh_invalidate(), neigh_probe(), neigh_resolve_output(),
 *	   neigh_event_ns(), neigh_rand_reach_time(), neigh_flush_dev();
 *	   include/net/neighbour.h neigh_hh_output(), neigh_ha_snapshot()
 * Differs: see include/net/neighbour.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/random.h>

#include <linux/bug.h>
#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <linux/skbuff.h>
#include <net/dropreason.h>
#include <net/neighbour.h>

static pthread_mutex_t neigh_init_lock = PTHREAD_MUTEX_INITIALIZER;

static void neigh_timer_handler(struct timer_list *t);

u64 neigh_rand_reach_time(u64 base)
{
	u32 r;

	if (!base)
		return 0;
	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = (u32)base * 2654435761u;
	return r % base + (base >> 1);
}

/* The slots of @tbl, made on first use (the table is static, its slots 200 KiB). */
static struct neighbour *neigh_slots(struct neigh_table *tbl)
{
	struct neighbour *s = __atomic_load_n(&tbl->slots, __ATOMIC_ACQUIRE);

	if (likely(s))
		return s;
	pthread_mutex_lock(&neigh_init_lock);
	s = tbl->slots;
	if (!s) {
		s = calloc(NEIGH_TBL_MAX, sizeof(*s));
		if (s) {
			pthread_spin_init(&tbl->lock, PTHREAD_PROCESS_PRIVATE);
			for (int i = 0; i < NEIGH_TBL_MAX; i++) {
				pthread_spin_init(&s[i].lock, PTHREAD_PROCESS_PRIVATE);
				__skb_queue_head_init(&s[i].arp_queue);
				timer_setup(&s[i].timer, neigh_timer_handler, 0);
			}
			tbl->parms.reachable_time =
				neigh_rand_reach_time(NEIGH_VAR(&tbl->parms, BASE_REACHABLE_TIME));
			__atomic_store_n(&tbl->slots, s, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&neigh_init_lock);
	return s;
}

struct neigh_parms *neigh_get_parms(struct neigh_table *tbl, const struct net_device *dev)
{
	if (dev && dev->ifindex > 0 && dev->ifindex < NEIGH_DEV_MAX &&
	    tbl->dev_parms[dev->ifindex].set)
		return &tbl->dev_parms[dev->ifindex];
	return &tbl->parms;
}

static inline u32 neigh_hash(const struct neigh_table *tbl, const void *pkey,
			     const struct net_device *dev)
{
	u32 h = (u32)dev->ifindex * 0x85EBCA77u, w;

	for (unsigned int i = 0; i < tbl->key_len; i += 4) {
		memcpy(&w, (const u8 *)pkey + i, 4);
		h = (h ^ w) * 0x9E3779B1u;
	}
	return (h ^ (h >> 16)) & (NEIGH_HASH - 1);
}

/* The kernel's per-table key_eq: neigh_key_eq32() for ARP, else the bytes. */
static inline bool neigh_key_eq(const struct neigh_table *tbl, const struct neighbour *n,
				const void *pkey)
{
	u32 a, b;

	if (likely(tbl->key_len == 4)) {
		memcpy(&a, n->primary_key, 4);
		memcpy(&b, pkey, 4);
		return a == b;
	}
	return !memcmp(n->primary_key, pkey, tbl->key_len);
}

struct neighbour *neigh_lookup(struct neigh_table *tbl, const void *pkey,
			       const struct net_device *dev)
{
	struct neighbour *s = __atomic_load_n(&tbl->slots, __ATOMIC_ACQUIRE);
	u32 h;

	if (unlikely(!s))
		return NULL;
	NEIGH_CACHE_STAT_INC(tbl, lookups);
	h = neigh_hash(tbl, pkey, dev);
	for (int probe = 0; probe < NEIGH_HASH; probe++) {
		int i = __atomic_load_n(&tbl->hash[(h + probe) & (NEIGH_HASH - 1)], __ATOMIC_ACQUIRE);
		struct neighbour *n;

		if (!i)
			return NULL;
		n = &s[i - 1];
		if (n->dev == dev && neigh_key_eq(tbl, n, pkey)) {
			NEIGH_CACHE_STAT_INC(tbl, hits);
			return n;
		}
	}
	return NULL;
}

struct neighbour *__neigh_create(struct neigh_table *tbl, const void *pkey,
				 struct net_device *dev)
{
	struct neighbour *s = neigh_slots(tbl), *n;
	u32 h;

	if (!s)
		return ERR_PTR(-ENOBUFS);
	pthread_spin_lock(&tbl->lock);
	/* Another worker may have made it since our lookup. */
	n = neigh_lookup(tbl, pkey, dev);
	if (n)
		goto out;
	if (tbl->entries >= NEIGH_TBL_MAX) {
		NEIGH_CACHE_STAT_INC(tbl, table_fulls);
		n = ERR_PTR(-ENOBUFS);
		goto out;
	}
	n = &s[tbl->entries];
	memset(n->primary_key, 0, sizeof(n->primary_key));
	memcpy(n->primary_key, pkey, tbl->key_len);
	n->dev = dev;
	n->tbl = tbl;
	n->nud_state = NUD_NONE;
	n->flags = 0;
	n->dead = 0;
	n->probes = 0;
	n->ha_seq = 0;
	memset(n->ha, 0, sizeof(n->ha));
	n->arp_queue_len_bytes = 0;
	n->updated = n->used = jiffies;
	n->confirmed = n->updated - (NEIGH_VAR(neigh_get_parms(tbl, dev), BASE_REACHABLE_TIME) << 1);
	NEIGH_CACHE_STAT_INC(tbl, allocs);
	for (h = neigh_hash(tbl, pkey, dev); tbl->hash[h]; h = (h + 1) & (NEIGH_HASH - 1))
		;
	/* Publish: the entry is complete before a lookup can find it. */
	__atomic_store_n(&tbl->hash[h], tbl->entries + 1, __ATOMIC_RELEASE);
	tbl->entries++;
out:
	pthread_spin_unlock(&tbl->lock);
	return n;
}

void neigh_ha_snapshot(u8 *dst, const struct neighbour *n)
{
	u32 seq;

	do {
		while ((seq = __atomic_load_n(&n->ha_seq, __ATOMIC_ACQUIRE)) & 1)
			;
		memcpy(dst, n->ha, ETH_ALEN);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&n->ha_seq, __ATOMIC_RELAXED) != seq);
}

/* Under n->lock. */
static void neigh_ha_write(struct neighbour *n, const u8 *lladdr)
{
	__atomic_store_n(&n->ha_seq, n->ha_seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(n->ha, lladdr, ETH_ALEN);
	__atomic_store_n(&n->ha_seq, n->ha_seq + 1, __ATOMIC_RELEASE);
}

/* dev_hard_header() -> eth_header(), then dev_queue_xmit(). */
static int neigh_xmit_ha(struct neighbour *n, struct sk_buff *skb)
{
	struct net_device *dev = n->dev;
	struct ethhdr *eth;

	if (unlikely(skb_headroom(skb) < ETH_HLEN)) {
		kfree_skb_reason(skb, SKB_DROP_REASON_NOMEM);
		return -ENOMEM;
	}
	eth = (struct ethhdr *)skb_push(skb, ETH_HLEN);
	neigh_ha_snapshot(eth->h_dest, n);
	memcpy(eth->h_source, dev->dev_addr, ETH_ALEN);
	eth->h_proto = skb->protocol;
	skb_reset_mac_header(skb);
	skb->dev = dev;
	return dev_queue_xmit(skb);
}

int neigh_hh_output(struct neighbour *n, struct sk_buff *skb)
{
	return neigh_xmit_ha(n, skb);
}

static void neigh_add_timer(struct neighbour *n, u64 when)
{
	mod_timer(&n->timer, when);
}

static void neigh_del_timer(struct neighbour *n)
{
	if (n->nud_state & NUD_IN_TIMER)
		del_timer(&n->timer);
}

static int neigh_max_probes(const struct neighbour *n)
{
	const struct neigh_parms *p = neigh_get_parms(n->tbl, n->dev);

	return NEIGH_VAR(p, UCAST_PROBES) + NEIGH_VAR(p, APP_PROBES) +
	       (n->nud_state & NUD_PROBE ? NEIGH_VAR(p, MCAST_REPROBES) :
					   NEIGH_VAR(p, MCAST_PROBES));
}

/*
 * neigh_invalidate(): resolution failed. Called with n->lock held; drops
 * and retakes it around error_report, which may send (ICMP).
 */
static void neigh_invalidate(struct neighbour *n)
{
	struct sk_buff *skb;

	NEIGH_CACHE_STAT_INC(n->tbl, res_failed);
	n->updated = jiffies;
	while (n->nud_state == NUD_FAILED && (skb = __skb_dequeue(&n->arp_queue))) {
		n->arp_queue_len_bytes -= skb->truesize;
		pthread_spin_unlock(&n->lock);
		n->tbl->error_report(n, skb);
		pthread_spin_lock(&n->lock);
	}
	__skb_queue_purge_reason(&n->arp_queue, SKB_DROP_REASON_NEIGH_FAILED);
	n->arp_queue_len_bytes = 0;
}

/* neigh_probe(): called with n->lock held, returns with it released. */
static void neigh_probe(struct neighbour *n)
{
	struct sk_buff *skb = skb_peek_tail(&n->arp_queue);

	/* Keep the skb alive even if the queue overflows meanwhile. */
	if (skb)
		skb = skb_clone(skb, GFP_ATOMIC);
	pthread_spin_unlock(&n->lock);
	n->tbl->solicit(n, skb);
	__atomic_fetch_add(&n->probes, 1, __ATOMIC_RELAXED);
	NEIGH_CACHE_STAT_INC(n->tbl, tx_solicits);
	if (skb)
		consume_skb(skb);
}

static void neigh_timer_handler(struct timer_list *t)
{
	struct neighbour *n = (struct neighbour *)((char *)t - offsetof(struct neighbour, timer));
	const struct neigh_parms *p = neigh_get_parms(n->tbl, n->dev);
	u64 now, next;
	u8 state;

	pthread_spin_lock(&n->lock);
	state = n->nud_state;
	now = jiffies;
	next = now + HZ;
	if (!(state & NUD_IN_TIMER) || n->dead)
		goto out;
	if (state & NUD_REACHABLE) {
		if (time_before_eq(now, n->confirmed + p->reachable_time)) {
			next = n->confirmed + p->reachable_time;
		} else if (time_before_eq(now, n->used + NEIGH_VAR(p, DELAY_PROBE_TIME))) {
			n->nud_state = NUD_DELAY;
			n->updated = now;
			next = now + NEIGH_VAR(p, DELAY_PROBE_TIME);
		} else {
			n->nud_state = NUD_STALE;
			n->updated = now;
		}
	} else if (state & NUD_DELAY) {
		if (time_before_eq(now, n->confirmed + NEIGH_VAR(p, DELAY_PROBE_TIME))) {
			n->nud_state = NUD_REACHABLE;
			n->updated = now;
			next = n->confirmed + p->reachable_time;
		} else {
			n->nud_state = NUD_PROBE;
			n->updated = now;
			n->probes = 0;
			next = now + (NEIGH_VAR(p, RETRANS_TIME) > HZ / 100 ?
				      NEIGH_VAR(p, RETRANS_TIME) : HZ / 100);
		}
	} else {
		/* NUD_PROBE | NUD_INCOMPLETE */
		next = now + (NEIGH_VAR(p, RETRANS_TIME) > HZ / 100 ? NEIGH_VAR(p, RETRANS_TIME) : HZ / 100);
	}

	if ((n->nud_state & (NUD_INCOMPLETE | NUD_PROBE)) &&
	    __atomic_load_n(&n->probes, __ATOMIC_RELAXED) >= neigh_max_probes(n)) {
		n->nud_state = NUD_FAILED;
		neigh_invalidate(n);
		goto out;
	}
	if (n->nud_state & NUD_IN_TIMER) {
		if (time_before(next, now + HZ / 100))
			next = now + HZ / 100;
		mod_timer(&n->timer, next);
	}
	if (n->nud_state & (NUD_INCOMPLETE | NUD_PROBE)) {
		neigh_probe(n);
		return;
	}
out:
	pthread_spin_unlock(&n->lock);
}

int __neigh_event_send(struct neighbour *n, struct sk_buff *skb)
{
	const struct neigh_parms *p = neigh_get_parms(n->tbl, n->dev);
	bool immediate_probe = false;
	int rc = 0;

	pthread_spin_lock(&n->lock);
	if (n->nud_state & (NUD_CONNECTED | NUD_DELAY | NUD_PROBE))
		goto out_unlock;
	if (n->dead)
		goto out_dead;

	if (!(n->nud_state & (NUD_STALE | NUD_INCOMPLETE))) {
		if (NEIGH_VAR(p, MCAST_PROBES) + NEIGH_VAR(p, APP_PROBES)) {
			u64 now = jiffies;

			__atomic_store_n(&n->probes, NEIGH_VAR(p, UCAST_PROBES), __ATOMIC_RELAXED);
			neigh_del_timer(n);
			n->nud_state = NUD_INCOMPLETE;
			n->updated = now;
			neigh_add_timer(n, now + (NEIGH_VAR(p, RETRANS_TIME) > HZ / 100 ?
						  NEIGH_VAR(p, RETRANS_TIME) : HZ / 100));
			immediate_probe = true;
		} else {
			n->nud_state = NUD_FAILED;
			n->updated = jiffies;
			pthread_spin_unlock(&n->lock);
			kfree_skb_reason(skb, SKB_DROP_REASON_NEIGH_FAILED);
			return 1;
		}
	} else if (n->nud_state & NUD_STALE) {
		neigh_del_timer(n);
		n->nud_state = NUD_DELAY;
		n->updated = jiffies;
		neigh_add_timer(n, jiffies + NEIGH_VAR(p, DELAY_PROBE_TIME));
	}

	if (n->nud_state == NUD_INCOMPLETE) {
		if (skb) {
			while (n->arp_queue_len_bytes + skb->truesize >
			       (unsigned int)NEIGH_VAR(p, QUEUE_LEN_BYTES)) {
				struct sk_buff *old = __skb_dequeue(&n->arp_queue);

				if (!old)
					break;
				n->arp_queue_len_bytes -= old->truesize;
				kfree_skb_reason(old, SKB_DROP_REASON_NEIGH_QUEUEFULL);
				NEIGH_CACHE_STAT_INC(n->tbl, unres_discards);
			}
			__skb_queue_tail(&n->arp_queue, skb);
			n->arp_queue_len_bytes += skb->truesize;
		}
		rc = 1;
	}
out_unlock_bh:
	if (immediate_probe)
		neigh_probe(n);
	else
		pthread_spin_unlock(&n->lock);
	return rc;
out_unlock:
	goto out_unlock_bh;
out_dead:
	if (n->nud_state & NUD_STALE)
		goto out_unlock_bh;
	pthread_spin_unlock(&n->lock);
	kfree_skb_reason(skb, SKB_DROP_REASON_NEIGH_DEAD);
	return 1;
}

int neigh_resolve_output(struct neighbour *n, struct sk_buff *skb)
{
	if (neigh_event_send(n, skb))
		return 0;	/* queued, or dropped with a reason */
	return neigh_xmit_ha(n, skb);
}

/*
 * __neigh_update(): @new state with @lladdr (NULL: keep the current one).
 * The queue is sent once the entry becomes valid.
 */
int neigh_update(struct neighbour *n, const u8 *lladdr, u8 new, u32 flags)
{
	const struct neigh_parms *p = neigh_get_parms(n->tbl, n->dev);
	struct sk_buff_head q;
	struct sk_buff *skb;
	bool ha_changed = false;
	int err = -EPERM;
	u8 old;

	__skb_queue_head_init(&q);
	pthread_spin_lock(&n->lock);
	old = n->nud_state;
	if (!(flags & NEIGH_UPDATE_F_ADMIN) && (old & (NUD_NOARP | NUD_PERMANENT)))
		goto out;
	if (n->dead)
		goto out;

	if (!(new & NUD_VALID)) {
		neigh_del_timer(n);
		n->nud_state = new;
		err = 0;
		if ((old & (NUD_INCOMPLETE | NUD_PROBE)) && (new & NUD_FAILED))
			neigh_invalidate(n);
		goto out;
	}

	/* Compare the new address with the cached one. */
	if (!lladdr) {
		/* No address given: use the cached one, if there is one. */
		err = -EINVAL;
		if (!(old & NUD_VALID))
			goto out;
		lladdr = n->ha;
	} else if ((old & NUD_VALID) && !memcmp(lladdr, n->ha, ETH_ALEN)) {
		lladdr = n->ha;
	}

	if (new & NUD_CONNECTED)
		n->confirmed = jiffies;

	err = 0;
	if (old & NUD_VALID) {
		if (lladdr != n->ha && !(flags & NEIGH_UPDATE_F_OVERRIDE)) {
			if ((flags & NEIGH_UPDATE_F_WEAK_OVERRIDE) && (old & NUD_CONNECTED)) {
				lladdr = n->ha;
				new = NUD_STALE;
			} else {
				goto out;
			}
		} else if (lladdr == n->ha && new == NUD_STALE && !(flags & NEIGH_UPDATE_F_ADMIN)) {
			new = old;
		}
	}

	if (new != old || lladdr != n->ha)
		n->updated = jiffies;

	if (new != old) {
		neigh_del_timer(n);
		if (new & NUD_PROBE)
			__atomic_store_n(&n->probes, 0, __ATOMIC_RELAXED);
		if (new & NUD_IN_TIMER)
			neigh_add_timer(n, jiffies + (new & NUD_REACHABLE ? p->reachable_time : 0));
		n->nud_state = new;
	}

	if (lladdr != n->ha) {
		neigh_ha_write(n, lladdr);
		ha_changed = true;
		if (!(new & NUD_CONNECTED))
			n->confirmed = jiffies - (NEIGH_VAR(p, BASE_REACHABLE_TIME) << 1);
	}
	(void)ha_changed;
	if (new == old)
		goto out;
	if (!(old & NUD_VALID)) {
		/* Resolved: what waited goes out, after the lock is dropped. */
		while ((skb = __skb_dequeue(&n->arp_queue)))
			__skb_queue_tail(&q, skb);
		n->arp_queue_len_bytes = 0;
	}
out:
	pthread_spin_unlock(&n->lock);
	while ((skb = __skb_dequeue(&q)))
		neigh_xmit_ha(n, skb);
	return err;
}

struct neighbour *neigh_event_ns(struct neigh_table *tbl, const u8 *lladdr,
				 const void *saddr, struct net_device *dev)
{
	struct neighbour *n = __neigh_create(tbl, saddr, dev);

	if (IS_ERR(n))
		return NULL;
	neigh_update(n, lladdr, NUD_STALE, NEIGH_UPDATE_F_OVERRIDE);
	return n;
}

/* ---- control plane ------------------------------------------------------ */

struct neighbour *neigh_at(struct neigh_table *tbl, int i)
{
	return tbl->slots && i >= 0 && i < tbl->entries ? &tbl->slots[i] : NULL;
}

static void neigh_rehash(struct neigh_table *tbl)
{
	memset(tbl->hash, 0, sizeof(tbl->hash));
	for (int i = 0; i < tbl->entries; i++) {
		struct neighbour *n = &tbl->slots[i];
		u32 h = neigh_hash(tbl, n->primary_key, n->dev);

		while (tbl->hash[h])
			h = (h + 1) & (NEIGH_HASH - 1);
		tbl->hash[h] = i + 1;
	}
}

/*
 * Workers look entries up without a lock and keep the pointer: slots may
 * move or go only while no run is active. The control path asks first;
 * reaching neigh_destroy_slot() during a run is a bug.
 */
static bool neigh_slots_frozen(void)
{
	if (netdev_run_active()) {
		pr_warn("neighbour: entries cannot be removed while a run is active\n");
		return true;
	}
	return false;
}

/* Forget slot @i: its queue, its timer; the last slot moves into its place. */
static void neigh_destroy_slot(struct neigh_table *tbl, int i)
{
	struct neighbour *n = &tbl->slots[i], *last = &tbl->slots[tbl->entries - 1];

	BUG_ON_MSG(netdev_run_active(), "neighbour slot moved during a run");
	del_timer(&n->timer);
	__skb_queue_purge_reason(&n->arp_queue, SKB_DROP_REASON_NEIGH_DEAD);
	n->arp_queue_len_bytes = 0;
	NEIGH_CACHE_STAT_INC(tbl, destroys);
	if (n != last) {
		bool pending = timer_pending(&last->timer);

		del_timer(&last->timer);
		n->nud_state = last->nud_state;
		n->flags = last->flags;
		n->dead = last->dead;
		n->probes = last->probes;
		n->confirmed = last->confirmed;
		n->updated = last->updated;
		n->used = last->used;
		n->dev = last->dev;
		memcpy(n->ha, last->ha, sizeof(n->ha));
		memcpy(n->primary_key, last->primary_key, sizeof(n->primary_key));
		n->arp_queue_len_bytes = last->arp_queue_len_bytes;
		while (!skb_queue_empty(&last->arp_queue))
			__skb_queue_tail(&n->arp_queue, __skb_dequeue(&last->arp_queue));
		last->arp_queue_len_bytes = 0;
		if (pending)
			mod_timer(&n->timer, last->timer.expires);
	}
	tbl->entries--;
}

int neigh_delete(struct neigh_table *tbl, const void *pkey, struct net_device *dev)
{
	struct neighbour *n = neigh_lookup(tbl, pkey, dev);

	if (!n)
		return -ENOENT;
	if (neigh_slots_frozen())
		return -EBUSY;
	neigh_destroy_slot(tbl, n - tbl->slots);
	neigh_rehash(tbl);
	return 0;
}

void neigh_ifdown(struct neigh_table *tbl, struct net_device *dev)
{
	if (!tbl->slots || neigh_slots_frozen())
		return;
	for (int i = tbl->entries - 1; i >= 0; i--)
		if (tbl->slots[i].dev == dev)
			neigh_destroy_slot(tbl, i);
	neigh_rehash(tbl);
	if (dev->ifindex > 0 && dev->ifindex < NEIGH_DEV_MAX)
		tbl->dev_parms[dev->ifindex].set = false;
}

void neigh_table_flush(struct neigh_table *tbl)
{
	if (!tbl->slots || neigh_slots_frozen())
		return;
	while (tbl->entries)
		neigh_destroy_slot(tbl, tbl->entries - 1);
	memset(tbl->hash, 0, sizeof(tbl->hash));
	memset(tbl->dev_parms, 0, sizeof(tbl->dev_parms));
	memset(tbl->stats, 0, sizeof(tbl->stats));
}

const char *neigh_state_name(u8 s)
{
	switch (s) {
	case NUD_INCOMPLETE: return "INCOMPLETE";
	case NUD_REACHABLE: return "REACHABLE";
	case NUD_STALE: return "STALE";
	case NUD_DELAY: return "DELAY";
	case NUD_PROBE: return "PROBE";
	case NUD_FAILED: return "FAILED";
	case NUD_NOARP: return "NOARP";
	case NUD_PERMANENT: return "PERMANENT";
	default: return "NONE";
	}
}

#define __NEIGH_STAT_NAME(name)	#name,
static const char *const neigh_stat_names[] = { NEIGH_STATS(__NEIGH_STAT_NAME) };

int neigh_stats_count(void)
{
	return sizeof(neigh_stat_names) / sizeof(neigh_stat_names[0]);
}

const char *neigh_stat_name(int i)
{
	return i >= 0 && i < neigh_stats_count() ? neigh_stat_names[i] : NULL;
}

void neigh_stats_get(struct neigh_table *tbl, u64 *out)
{
	int n = neigh_stats_count();

	memset(out, 0, n * sizeof(u64));
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		const u64 *st = (const u64 *)&tbl->stats[cpu];

		for (int i = 0; i < n; i++)
			out[i] += st[i];
	}
}

static const struct {
	const char *name;
	int unit;
} neigh_var_desc[] = {
#define __NEIGH_VAR_DESC(name, sysctl, unit)	{ sysctl, unit },
	NEIGH_VARS(__NEIGH_VAR_DESC)
#undef __NEIGH_VAR_DESC
};

int neigh_sysctl_set(struct neigh_table *tbl, const char *rest, const char *value)
{
	const char *dot = strchr(rest, '.');
	struct neigh_parms *p;
	char devname[IFNAMSIZ];
	char *end;
	long v;

	if (!dot || (size_t)(dot - rest) >= sizeof(devname))
		return -ENOENT;
	memcpy(devname, rest, dot - rest);
	devname[dot - rest] = 0;
	if (!strcmp(devname, "default")) {
		p = &tbl->parms;
	} else {
		struct net_device *dev = dev_get_by_name(devname);

		if (!dev || dev->ifindex >= NEIGH_DEV_MAX)
			return -ENOENT;
		p = &tbl->dev_parms[dev->ifindex];
		if (!p->set) {
			*p = tbl->parms;
			p->set = true;
		}
	}
	for (int i = 0; i < NEIGH_VAR_MAX; i++) {
		if (strcmp(neigh_var_desc[i].name, dot + 1))
			continue;
		v = strtol(value, &end, 0);
		if (!*value || *end || v < 0 || v > 0x7fffffff / neigh_var_desc[i].unit)
			return -EINVAL;
		p->data[i] = v * neigh_var_desc[i].unit;
		if (i == NEIGH_VAR_BASE_REACHABLE_TIME)
			p->reachable_time = neigh_rand_reach_time(p->data[i]);
		return 0;
	}
	return -ENOENT;
}
