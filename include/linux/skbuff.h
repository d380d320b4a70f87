/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct sk_buff and its inline helpers, x86-64 flavour: head and data are
 * pointers, tail and end are u32 offsets from head
 * (NET_SKBUFF_DATA_USES_OFFSET), header positions are u16 offsets from head
 * with 0xffff meaning "unset". struct skb_shared_info sits at head + end in
 * the same buffer and has the kernel's 64-bit layout (320 bytes, frags at
 * offset 48), so SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) == 320 and
 * truesize/tailroom figures match the kernel's.
 *
 *   head          data           tail             end
 *    |<-headroom->|<--- headlen --->|<-- tailroom -->|<- skb_shared_info ->|
 *                 |<-------------- len = headlen + data_len (frags) ------>
 *
 * Ownership: functions taking `struct sk_buff *` on rx/tx paths consume it;
 * `struct sk_buff **` may replace it; `const struct sk_buff *` borrows.
 * Kernel BUG conditions (push under head, put past end or on a non-linear
 * skb, __skb_pull below data_len, pskb_expand_head on a shared skb) abort
 * through BUG_ON with the condition in the message.
 *
 * Kernel: include/linux/skbuff.h, net/core/skbuff.c
 * Differs: no sockets, destructors, dst, GSO segmentation, checksum
 *	    offload or fclones; no small-head cache (heads come from the
 *	    kmalloc buckets); the NAPI skb cache is the skbuff_head_cache
 *	    magazine of the CPU (mm/slab.c).
 */
#ifndef _UXDP_LINUX_SKBUFF_H
#define _UXDP_LINUX_SKBUFF_H

#include <errno.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/types.h>
#include <linux/if_packet.h>	/* PACKET_HOST, ... (UAPI) */
#include <net/dropreason.h>

struct net_device;
struct page_pool;

#define MAX_SKB_FRAGS		17
#define NET_SKB_PAD		64	/* max(32, L1_CACHE_BYTES) */
#define NET_IP_ALIGN		0
#define SKB_DATA_ALIGN(X)	ALIGN(X, SMP_CACHE_BYTES)
#define SKB_WITH_OVERHEAD(X)	((X) - SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))
#define SKB_HEAD_ALIGN(X)	(SKB_DATA_ALIGN(X) + SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))
#define SKB_TRUESIZE(X)		((X) + SKB_DATA_ALIGN(sizeof(struct sk_buff)) + \
				 SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))
#define SKB_MAX_ORDER(X, ORDER)	SKB_WITH_OVERHEAD((PAGE_SIZE << (ORDER)) - (X))
#define SKB_MAX_HEAD(X)		(SKB_MAX_ORDER((X), 0))

#define SKB_DATAREF_SHIFT	16
#define SKB_DATAREF_MASK	((1 << SKB_DATAREF_SHIFT) - 1)

#define CHECKSUM_NONE		0
#define CHECKSUM_UNNECESSARY	1
#define CHECKSUM_COMPLETE	2
#define CHECKSUM_PARTIAL	3

/* skb_shared_info.tx_flags */
enum {
	SKBTX_HW_TSTAMP = 1 << 0,
	SKBTX_SW_TSTAMP = 1 << 1,
	SKBTX_IN_PROGRESS = 1 << 2,
};

typedef struct skb_frag {
	struct page *page;
	u32 len;
	u32 offset;
} skb_frag_t;

struct skb_shared_hwtstamps {
	u64 hwtstamp;
};

struct skb_shared_info {
	u8 flags;
	u8 meta_len;
	u8 nr_frags;
	u8 tx_flags;
	unsigned short gso_size;
	unsigned short gso_segs;
	struct sk_buff *frag_list;
	struct skb_shared_hwtstamps hwtstamps;
	unsigned int gso_type;
	u32 tskey;
	/* Everything above dataref is zeroed by __finalize_skb_around(). */
	int dataref;		/* atomic: low 16 bits all refs, high 16 nohdr refs */
	union {
		struct {
			u32 xdp_frags_size;
			u32 xdp_frags_truesize;
		};
		void *destructor_arg;
	};
	skb_frag_t frags[MAX_SKB_FRAGS];	/* must be last */
};

typedef unsigned int sk_buff_data_t;

#define __SKB_HEADERS_MEMBERS			\
	u32 priority;				\
	int skb_iif;				\
	u32 hash;				\
	u16 vlan_proto;	/* __be16 */		\
	u16 vlan_tci;				\
	union {					\
		u32 mark;			\
		u32 reserved_tailroom;		\
	};					\
	u16 protocol;	/* __be16 */		\
	u16 transport_header;			\
	u16 network_header;			\
	u16 mac_header;				\
	u16 inner_transport_header;		\
	u16 inner_network_header;		\
	u16 inner_mac_header;			\
	u16 csum_start;				\
	u16 csum_offset;			\
	u8 l4_hash:1,				\
	   sw_hash:1,				\
	   redirected:1,			\
	   from_ingress:1;			\
	u8 alloc_cpu;

struct sk_buff {
	struct sk_buff *next;
	struct sk_buff *prev;
	struct net_device *dev;
	void *sk;			/* no sockets in uxdp: always NULL */
	u64 tstamp;
	char cb[48] __aligned(8);
	unsigned long _skb_refdst;	/* reserved for the routing work (dst) */
	void (*destructor)(struct sk_buff *skb);	/* unused, NULL */
	unsigned long _nfct;		/* unused */
	unsigned long dev_scratch;

	unsigned int len;
	unsigned int data_len;
	u16 mac_len;
	u16 hdr_len;
	u16 queue_mapping;
	u8 cloned:1,
	   nohdr:1,
	   fclone:2,
	   peeked:1,
	   head_frag:1,
	   pfmemalloc:1,
	   pp_recycle:1;
	u8 pkt_type:3,
	   ip_summed:2,
	   ignore_df:1,
	   xmit_more:1,
	   encapsulation:1;

	/* Copied as one block by __copy_skb_header(): the kernel's "headers". */
	union {
		struct { __SKB_HEADERS_MEMBERS };
		struct { __SKB_HEADERS_MEMBERS } headers;
	};

	u32 csum;
	u32 napi_id;
	u32 secmark;
	u16 tc_index;
	u16 inner_protocol;
	u64 __reserved;	/* keeps sizeof at the kernel's 232 bytes */

	/* Fields from here on are not zeroed at allocation. */
	sk_buff_data_t tail;
	sk_buff_data_t end;
	unsigned char *head;
	unsigned char *data;
	unsigned int truesize;
	int users;		/* refcount of this struct */
};

_Static_assert(sizeof(struct skb_shared_info) == 320, "skb_shared_info is 320 bytes on x86-64");
_Static_assert(offsetof(struct skb_shared_info, frags) == 48, "frags at offset 48");
_Static_assert(SKB_DATA_ALIGN(sizeof(struct sk_buff)) == 256,
	       "struct sk_buff charges 256 bytes of truesize, as x86-64's 232-byte sk_buff");

/* ---- geometry ---- */

static inline unsigned char *skb_tail_pointer(const struct sk_buff *skb)
{
	return skb->head + skb->tail;
}

static inline void skb_reset_tail_pointer(struct sk_buff *skb)
{
	skb->tail = skb->data - skb->head;
}

static inline void skb_set_tail_pointer(struct sk_buff *skb, const int offset)
{
	skb_reset_tail_pointer(skb);
	skb->tail += offset;
}

static inline unsigned char *skb_end_pointer(const struct sk_buff *skb)
{
	return skb->head + skb->end;
}

static inline unsigned int skb_end_offset(const struct sk_buff *skb)
{
	return skb->end;
}

static inline void skb_set_end_offset(struct sk_buff *skb, unsigned int offset)
{
	skb->end = offset;
}

static inline struct skb_shared_info *skb_shinfo(const struct sk_buff *skb)
{
	return (struct skb_shared_info *)skb_end_pointer(skb);
}

static inline bool skb_is_nonlinear(const struct sk_buff *skb)
{
	return skb->data_len;
}

static inline unsigned int skb_headlen(const struct sk_buff *skb)
{
	return skb->len - skb->data_len;
}

static inline unsigned int skb_headroom(const struct sk_buff *skb)
{
	return skb->data - skb->head;
}

static inline int skb_tailroom(const struct sk_buff *skb)
{
	return skb_is_nonlinear(skb) ? 0 : skb->end - skb->tail;
}

static inline int skb_availroom(const struct sk_buff *skb)
{
	if (skb_is_nonlinear(skb))
		return 0;
	return skb->end - skb->tail - skb->reserved_tailroom;
}

static inline bool skb_has_frag_list(const struct sk_buff *skb)
{
	return skb_shinfo(skb)->frag_list != NULL;
}

static inline unsigned int skb_pagelen(const struct sk_buff *skb)
{
	const struct skb_shared_info *shinfo = skb_shinfo(skb);
	unsigned int len = 0;

	for (int i = shinfo->nr_frags - 1; i >= 0; i--)
		len += shinfo->frags[i].len;
	return len + skb_headlen(skb);
}

/* ---- frags ---- */

static inline struct page *skb_frag_page(const skb_frag_t *frag) { return frag->page; }
static inline unsigned int skb_frag_size(const skb_frag_t *frag) { return frag->len; }
static inline unsigned int skb_frag_off(const skb_frag_t *frag) { return frag->offset; }
static inline void skb_frag_size_set(skb_frag_t *frag, unsigned int size) { frag->len = size; }
static inline void skb_frag_size_add(skb_frag_t *frag, int delta) { frag->len += delta; }
static inline void skb_frag_size_sub(skb_frag_t *frag, int delta) { frag->len -= delta; }
static inline void skb_frag_off_add(skb_frag_t *frag, int delta) { frag->offset += delta; }
static inline void skb_frag_off_set(skb_frag_t *frag, unsigned int offset) { frag->offset = offset; }

static inline void *skb_frag_address(const skb_frag_t *frag)
{
	return (char *)page_address(frag->page) + frag->offset;
}

static inline void skb_frag_fill_page_desc(skb_frag_t *frag, struct page *page,
					   int off, int size)
{
	frag->page = page;
	frag->offset = off;
	frag->len = size;
}

static inline void __skb_fill_page_desc(struct sk_buff *skb, int i,
					struct page *page, int off, int size)
{
	skb_frag_fill_page_desc(&skb_shinfo(skb)->frags[i], page, off, size);
}

static inline void skb_fill_page_desc(struct sk_buff *skb, int i,
				      struct page *page, int off, int size)
{
	__skb_fill_page_desc(skb, i, page, off, size);
	skb_shinfo(skb)->nr_frags = i + 1;
}

static inline void __skb_frag_ref(skb_frag_t *frag)
{
	get_page(skb_frag_page(frag));
}

static inline void skb_frag_ref(struct sk_buff *skb, int f)
{
	__skb_frag_ref(&skb_shinfo(skb)->frags[f]);
}

/* pool pages go back to their pool through put_page() (see page_pool) */
bool napi_pp_put_page(struct page *page);

static inline void __skb_frag_unref(skb_frag_t *frag, bool recycle)
{
	if (recycle && napi_pp_put_page(skb_frag_page(frag)))
		return;
	put_page(skb_frag_page(frag));
}

static inline void skb_frag_unref(struct sk_buff *skb, int f)
{
	__skb_frag_unref(&skb_shinfo(skb)->frags[f], skb->pp_recycle);
}

void skb_add_rx_frag(struct sk_buff *skb, int i, struct page *page, int off,
		     int size, unsigned int truesize);
void skb_coalesce_rx_frag(struct sk_buff *skb, int i, int size, unsigned int truesize);

static inline void skb_mark_for_recycle(struct sk_buff *skb)
{
	skb->pp_recycle = 1;
}

/*
 * ---- queue mapping ----
 * On receive, queue_mapping is the rx queue plus one (0: none recorded);
 * dev_queue_xmit() overwrites it with the tx queue it picked (no offset),
 * which is what a driver's ndo_start_xmit() reads.
 */
static inline void skb_set_queue_mapping(struct sk_buff *skb, u16 queue_mapping)
{
	skb->queue_mapping = queue_mapping;
}

static inline u16 skb_get_queue_mapping(const struct sk_buff *skb)
{
	return skb->queue_mapping;
}

static inline void skb_record_rx_queue(struct sk_buff *skb, u16 rx_queue)
{
	skb->queue_mapping = rx_queue + 1;
}

static inline u16 skb_get_rx_queue(const struct sk_buff *skb)
{
	return skb->queue_mapping - 1;
}

static inline bool skb_rx_queue_recorded(const struct sk_buff *skb)
{
	return skb->queue_mapping != 0;
}

/* ---- header offsets ---- */

static inline bool skb_mac_header_was_set(const struct sk_buff *skb)
{
	return skb->mac_header != (u16)~0U;
}

static inline bool skb_transport_header_was_set(const struct sk_buff *skb)
{
	return skb->transport_header != (u16)~0U;
}

static inline unsigned char *skb_mac_header(const struct sk_buff *skb)
{
	return skb->head + skb->mac_header;
}

static inline int skb_mac_offset(const struct sk_buff *skb)
{
	return skb_mac_header(skb) - skb->data;
}

static inline void skb_unset_mac_header(struct sk_buff *skb)
{
	skb->mac_header = (u16)~0U;
}

static inline void skb_reset_mac_header(struct sk_buff *skb)
{
	skb->mac_header = skb->data - skb->head;
}

static inline void skb_set_mac_header(struct sk_buff *skb, const int offset)
{
	skb_reset_mac_header(skb);
	skb->mac_header += offset;
}

static inline unsigned char *skb_network_header(const struct sk_buff *skb)
{
	return skb->head + skb->network_header;
}

static inline void skb_reset_network_header(struct sk_buff *skb)
{
	skb->network_header = skb->data - skb->head;
}

static inline void skb_set_network_header(struct sk_buff *skb, const int offset)
{
	skb_reset_network_header(skb);
	skb->network_header += offset;
}

static inline int skb_network_offset(const struct sk_buff *skb)
{
	return skb_network_header(skb) - skb->data;
}

static inline unsigned char *skb_transport_header(const struct sk_buff *skb)
{
	return skb->head + skb->transport_header;
}

static inline void skb_reset_transport_header(struct sk_buff *skb)
{
	skb->transport_header = skb->data - skb->head;
}

static inline void skb_set_transport_header(struct sk_buff *skb, const int offset)
{
	skb_reset_transport_header(skb);
	skb->transport_header += offset;
}

static inline int skb_transport_offset(const struct sk_buff *skb)
{
	return skb_transport_header(skb) - skb->data;
}

static inline void skb_reset_mac_len(struct sk_buff *skb)
{
	if (!skb_mac_header_was_set(skb))
		skb->mac_len = 0;
	else
		skb->mac_len = skb->network_header - skb->mac_header;
}

static inline void skb_headers_offset_update(struct sk_buff *skb, int off)
{
	if (skb->ip_summed == CHECKSUM_PARTIAL)
		skb->csum_start += off;
	skb->transport_header += off;
	skb->network_header += off;
	if (skb_mac_header_was_set(skb))
		skb->mac_header += off;
	skb->inner_transport_header += off;
	skb->inner_network_header += off;
	skb->inner_mac_header += off;
}

/* ---- XDP/tc metadata: meta_len bytes right in front of the MAC header ---- */

static inline u8 skb_metadata_len(const struct sk_buff *skb)
{
	return skb_shinfo(skb)->meta_len;
}

static inline void *skb_metadata_end(const struct sk_buff *skb)
{
	return skb_mac_header(skb);
}

static inline void skb_metadata_set(struct sk_buff *skb, u8 meta_len)
{
	skb_shinfo(skb)->meta_len = meta_len;
}

static inline void skb_metadata_clear(struct sk_buff *skb)
{
	skb_metadata_set(skb, 0);
}

/* ---- refcounts, clones ---- */

static inline int skb_dataref(const struct sk_buff *skb)
{
	return __atomic_load_n(&skb_shinfo(skb)->dataref, __ATOMIC_RELAXED);
}

static inline int skb_users(const struct sk_buff *skb)
{
	return __atomic_load_n(&skb->users, __ATOMIC_RELAXED);
}

static inline bool skb_shared(const struct sk_buff *skb)
{
	return skb_users(skb) != 1;
}

static inline bool skb_cloned(const struct sk_buff *skb)
{
	return skb->cloned && (skb_dataref(skb) & SKB_DATAREF_MASK) != 1;
}

static inline bool skb_header_cloned(const struct sk_buff *skb)
{
	int dataref;

	if (!skb->cloned)
		return false;
	dataref = skb_dataref(skb);
	dataref = (dataref & SKB_DATAREF_MASK) - (dataref >> SKB_DATAREF_SHIFT);
	return dataref != 1;
}

static inline bool skb_head_is_locked(const struct sk_buff *skb)
{
	return !skb->head_frag || skb_cloned(skb);
}

/* Mark the header part as not ours: only payload references remain. */
static inline void __skb_header_release(struct sk_buff *skb)
{
	skb->nohdr = 1;
	__atomic_store_n(&skb_shinfo(skb)->dataref, 1 + (1 << SKB_DATAREF_SHIFT),
			 __ATOMIC_RELAXED);
}

static inline void skb_header_release(struct sk_buff *skb)
{
	BUG_ON(skb->nohdr != 0);
	skb->nohdr = 1;
	__atomic_fetch_add(&skb_shinfo(skb)->dataref, 1 << SKB_DATAREF_SHIFT,
			   __ATOMIC_RELAXED);
}

/* Returns a new reference to @skb. */
static inline struct sk_buff *skb_get(struct sk_buff *skb)
{
	__atomic_fetch_add(&skb->users, 1, __ATOMIC_RELAXED);
	return skb;
}

/* Drop one reference; true when it was the last (caller frees). */
static inline bool skb_unref(struct sk_buff *skb)
{
	if (unlikely(!skb))
		return false;
	if (likely(skb_users(skb) == 1))
		return true;
	return __atomic_sub_fetch(&skb->users, 1, __ATOMIC_ACQ_REL) == 0;
}

/* ---- allocation and freeing ---- */

/**
 * skb_clear_to_tail() - memset(skb, 0, offsetof(struct sk_buff, tail))
 * @skb: a struct from skbuff_cache about to be built
 *
 * What the kernel open-codes before __build_skb_around(). Done through a
 * libc call on purpose: for this constant size gcc inlines `rep stosq`,
 * whose start-up cost (~15 ns on AMD Zen) dwarfs the 200-byte store.
 */
static inline void skb_clear_to_tail(struct sk_buff *skb)
{
	size_t n = offsetof(struct sk_buff, tail);

	__asm__("" : "+r"(n));	/* hide the constant from the inliner */
	memset(skb, 0, n);
}

/**
 * __alloc_skb() - allocate an skb with a kmalloc head of at least @size bytes
 * @size: data bytes wanted; the head is SKB_HEAD_ALIGN(@size) rounded up to
 *	  the kmalloc bucket, and all rounding slack becomes tailroom
 * @priority: gfp flags
 * @flags: SKB_ALLOC_* (ignored)
 * @node: NUMA node (ignored)
 *
 * Headroom 0, len 0, users 1, dataref 1, struct zeroed up to ->tail (cb too),
 * mac/transport headers unset, network header 0.
 * Return: a new skb, or NULL.
 */
struct sk_buff *__alloc_skb(unsigned int size, gfp_t priority, int flags, int node);

static inline struct sk_buff *alloc_skb(unsigned int size, gfp_t priority)
{
	return __alloc_skb(size, priority, 0, -1);
}

/* An skb for @length bytes of rx data with NET_SKB_PAD headroom reserved, dev set. */
struct sk_buff *__netdev_alloc_skb(struct net_device *dev, unsigned int length, gfp_t gfp);

static inline struct sk_buff *netdev_alloc_skb(struct net_device *dev, unsigned int length)
{
	return __netdev_alloc_skb(dev, length, GFP_ATOMIC);
}

static inline struct sk_buff *__dev_alloc_skb(unsigned int length, gfp_t gfp)
{
	return __netdev_alloc_skb(NULL, length, gfp);
}

static inline struct sk_buff *dev_alloc_skb(unsigned int length)
{
	return netdev_alloc_skb(NULL, length);
}

struct napi_struct;
struct sk_buff *napi_alloc_skb(struct napi_struct *napi, unsigned int length);

/**
 * build_skb() - wrap an existing buffer in a new skb
 * @data: buffer start (becomes head = data = tail: reserve headroom yourself)
 * @frag_size: buffer size including the SKB_DATA_ALIGN(shinfo) at its end;
 *	       0 means a kmalloc()ed buffer (its ksize() is used)
 *
 * A non-zero @frag_size marks the head as a page fragment (head_frag): it is
 * released with put_page(), which sends page_pool pages back to their pool.
 * Return: the skb (owning @data), or NULL (@data still the caller's).
 */
struct sk_buff *build_skb(void *data, unsigned int frag_size);
struct sk_buff *build_skb_around(struct sk_buff *skb, void *data, unsigned int frag_size);
struct sk_buff *napi_build_skb(void *data, unsigned int frag_size);
void __build_skb_around(struct sk_buff *skb, void *data, unsigned int frag_size);

/**
 * napi_skb_cache_get_bulk() - get up to @n zeroed skb structs
 * @skbs: receives them (zeroed up to ->tail, ready for build_skb_around())
 * @n: wanted
 *
 * Return: how many were obtained, possibly fewer than @n under memory
 * pressure. The caller frees unused ones with kmem_cache_free() of
 * skbuff_cache or napi_skb_cache_put().
 */
u32 napi_skb_cache_get_bulk(void **skbs, u32 n);
/* Return bare skb structs (never built) to the cache. */
void napi_skb_cache_put_bulk(void **skbs, u32 n);

/**
 * kfree_skb_reason() - drop a reference to an skb that is being dropped
 * @skb: consumed; NULL is fine
 * @reason: counted per CPU when this was the last reference
 */
void kfree_skb_reason(struct sk_buff *skb, enum skb_drop_reason reason);

static inline void kfree_skb(struct sk_buff *skb)
{
	kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
}

/* Drop a reference to an skb that was handled normally (counted as CONSUMED). */
void consume_skb(struct sk_buff *skb);
void __kfree_skb(struct sk_buff *skb);
void kfree_skb_list_reason(struct sk_buff *segs, enum skb_drop_reason reason);

static inline void kfree_skb_list(struct sk_buff *segs)
{
	kfree_skb_list_reason(segs, SKB_DROP_REASON_NOT_SPECIFIED);
}

static inline void napi_consume_skb(struct sk_buff *skb, int budget)
{
	(void)budget;
	consume_skb(skb);
}

/* The cache struct sk_buff comes from (the kernel's net_hotdata.skbuff_cache). */
extern struct kmem_cache *skbuff_cache;

/* Live struct sk_buff count (uxdp; leak checks). */
long skb_live_count(void);

/* ---- data area ---- */

void skb_over_panic(struct sk_buff *skb, unsigned int len, void *addr) __attribute__((noreturn));
void skb_under_panic(struct sk_buff *skb, unsigned int len, void *addr) __attribute__((noreturn));

static inline void skb_reserve(struct sk_buff *skb, int len)
{
	skb->data += len;
	skb->tail += len;
}

static inline void skb_assert_len_linear(const struct sk_buff *skb)
{
	BUG_ON_MSG(skb_is_nonlinear(skb), "skb_put() on a non-linear skb");
}

static inline void *__skb_put(struct sk_buff *skb, unsigned int len)
{
	void *tmp = skb_tail_pointer(skb);

	skb_assert_len_linear(skb);
	skb->tail += len;
	skb->len += len;
	return tmp;
}

static inline void *skb_put(struct sk_buff *skb, unsigned int len)
{
	void *tmp = skb_tail_pointer(skb);

	skb_assert_len_linear(skb);
	if (unlikely(len > (unsigned int)(skb->end - skb->tail)))
		skb_over_panic(skb, len, __builtin_return_address(0));
	skb->tail += len;
	skb->len += len;
	return tmp;
}

static inline void *__skb_put_zero(struct sk_buff *skb, unsigned int len)
{
	void *tmp = __skb_put(skb, len);

	memset(tmp, 0, len);
	return tmp;
}

static inline void *skb_put_zero(struct sk_buff *skb, unsigned int len)
{
	void *tmp = skb_put(skb, len);

	memset(tmp, 0, len);
	return tmp;
}

static inline void *skb_put_data(struct sk_buff *skb, const void *data, unsigned int len)
{
	void *tmp = skb_put(skb, len);

	memcpy(tmp, data, len);
	return tmp;
}

static inline void *__skb_push(struct sk_buff *skb, unsigned int len)
{
	skb->data -= len;
	skb->len += len;
	return skb->data;
}

static inline void *skb_push(struct sk_buff *skb, unsigned int len)
{
	if (unlikely(len > skb_headroom(skb)))
		skb_under_panic(skb, len, __builtin_return_address(0));
	skb->data -= len;
	skb->len += len;
	return skb->data;
}

static inline void *__skb_pull(struct sk_buff *skb, unsigned int len)
{
	skb->len -= len;
	BUG_ON_MSG(skb->len < skb->data_len, "__skb_pull() below data_len");
	return skb->data += len;
}

static inline void *skb_pull_inline(struct sk_buff *skb, unsigned int len)
{
	return unlikely(len > skb->len) ? NULL : __skb_pull(skb, len);
}

static inline void *skb_pull(struct sk_buff *skb, unsigned int len)
{
	return skb_pull_inline(skb, len);
}

static inline void *skb_pull_data(struct sk_buff *skb, size_t len)
{
	void *data = skb->data;

	if (skb->len < len)
		return NULL;
	skb_pull(skb, len);
	return data;
}

/**
 * __pskb_pull_tail() - move @delta bytes from the paged area to the head
 * @skb: skb with at least @delta bytes of data_len
 * @delta: bytes to pull
 *
 * Reallocates the head first when it is cloned or lacks tailroom
 * (pskb_expand_head(skb, 0, eat + 128)), then releases or trims the
 * consumed frags and frag_list skbs.
 * Return: the new tail pointer, or NULL on allocation failure (skb intact).
 */
unsigned char *__pskb_pull_tail(struct sk_buff *skb, int delta);

static inline bool pskb_may_pull(struct sk_buff *skb, unsigned int len)
{
	if (likely(len <= skb_headlen(skb)))
		return true;
	if (unlikely(len > skb->len))
		return false;
	return __pskb_pull_tail(skb, len - skb_headlen(skb)) != NULL;
}

static inline void *__pskb_pull(struct sk_buff *skb, unsigned int len)
{
	if (len > skb_headlen(skb) &&
	    !__pskb_pull_tail(skb, len - skb_headlen(skb)))
		return NULL;
	skb->len -= len;
	return skb->data += len;
}

static inline void *pskb_pull(struct sk_buff *skb, unsigned int len)
{
	return unlikely(len > skb->len) ? NULL : __pskb_pull(skb, len);
}

static inline void __skb_set_length(struct sk_buff *skb, unsigned int len)
{
	if (WARN_ON_ONCE(skb_is_nonlinear(skb)))
		return;
	skb->len = len;
	skb_set_tail_pointer(skb, len);
}

static inline void __skb_trim(struct sk_buff *skb, unsigned int len)
{
	__skb_set_length(skb, len);
}

void skb_trim(struct sk_buff *skb, unsigned int len);
void skb_scrub_packet(struct sk_buff *skb, bool xnet);
int ___pskb_trim(struct sk_buff *skb, unsigned int len);

static inline int __pskb_trim(struct sk_buff *skb, unsigned int len)
{
	if (skb->data_len)
		return ___pskb_trim(skb, len);
	__skb_trim(skb, len);
	return 0;
}

static inline int pskb_trim(struct sk_buff *skb, unsigned int len)
{
	return (len < skb->len) ? __pskb_trim(skb, len) : 0;
}

/* ---- copies and reallocation ---- */

/*
 * skb_clone(): a new struct sharing @skb's head and frags (dataref + 1, both
 * marked cloned, cb and headers copied). Returns a new reference or NULL.
 */
struct sk_buff *skb_clone(struct sk_buff *skb, gfp_t priority);
/* skb_copy(): a private linear copy, same headroom. Returns a new skb or NULL. */
struct sk_buff *skb_copy(const struct sk_buff *skb, gfp_t priority);
/* __pskb_copy(): private head with @headroom, frags shared by page reference. */
struct sk_buff *__pskb_copy(struct sk_buff *skb, int headroom, gfp_t gfp_mask);

static inline struct sk_buff *pskb_copy(struct sk_buff *skb, gfp_t gfp_mask)
{
	return __pskb_copy(skb, skb_headroom(skb), gfp_mask);
}

void skb_copy_header(struct sk_buff *new, const struct sk_buff *old);
int skb_copy_bits(const struct sk_buff *skb, int offset, void *to, int len);
int skb_store_bits(struct sk_buff *skb, int offset, const void *from, int len);
void *skb_header_pointer(const struct sk_buff *skb, int offset, int len, void *buffer);

/**
 * pskb_expand_head() - reallocate the head with @nhead more headroom and at
 *			least @ntail more tailroom
 * @skb: must not be shared (BUG); may be cloned (the data becomes private)
 * @nhead: >= 0 (BUG otherwise); headroom grows by exactly this much
 * @ntail: extra tailroom; the kmalloc rounding slack is added to it
 * @gfp_mask: allocation flags
 *
 * Data, frags (not linearised), and header offsets (shifted by @nhead) are
 * kept; truesize grows by the head growth; metadata is cleared (6.18).
 * Return: 0, or -ENOMEM with the skb unchanged.
 */
int pskb_expand_head(struct sk_buff *skb, int nhead, int ntail, gfp_t gfp_mask);

static inline int skb_unclone(struct sk_buff *skb, gfp_t pri)
{
	if (skb_cloned(skb))
		return pskb_expand_head(skb, 0, 0, pri);
	return 0;
}

static inline int __skb_cow(struct sk_buff *skb, unsigned int headroom, bool cloned)
{
	int delta = 0;

	if (headroom > skb_headroom(skb))
		delta = headroom - skb_headroom(skb);
	if (delta || cloned)
		return pskb_expand_head(skb, ALIGN(delta, NET_SKB_PAD), 0, GFP_ATOMIC);
	return 0;
}

/* Make the header writable with @headroom bytes in front; 0 or -ENOMEM. */
static inline int skb_cow(struct sk_buff *skb, unsigned int headroom)
{
	return __skb_cow(skb, headroom, skb_cloned(skb));
}

static inline int skb_cow_head(struct sk_buff *skb, unsigned int headroom)
{
	return __skb_cow(skb, headroom, skb_header_cloned(skb));
}

/* Consumes @skb; returns a private (unshared-data) skb or NULL. */
static inline struct sk_buff *skb_unshare(struct sk_buff *skb, gfp_t pri)
{
	if (skb_cloned(skb)) {
		struct sk_buff *nskb = skb_copy(skb, pri);

		if (likely(nskb))
			consume_skb(skb);
		else
			kfree_skb(skb);
		skb = nskb;
	}
	return skb;
}

/* Consumes @skb; returns an skb with users == 1 or NULL. */
static inline struct sk_buff *skb_share_check(struct sk_buff *skb, gfp_t pri)
{
	if (skb_shared(skb)) {
		struct sk_buff *nskb = skb_clone(skb, pri);

		if (likely(nskb))
			consume_skb(skb);
		else
			kfree_skb(skb);
		skb = nskb;
	}
	return skb;
}

static inline int __skb_linearize(struct sk_buff *skb)
{
	return __pskb_pull_tail(skb, skb->data_len) ? 0 : -ENOMEM;
}

/* Pull all paged data into the head; 0 or -ENOMEM (skb unchanged). */
static inline int skb_linearize(struct sk_buff *skb)
{
	return skb_is_nonlinear(skb) ? __skb_linearize(skb) : 0;
}

static inline int skb_linearize_cow(struct sk_buff *skb)
{
	return skb_is_nonlinear(skb) || skb_cloned(skb) ?
	       __skb_linearize(skb) : 0;
}

int skb_ensure_writable(struct sk_buff *skb, unsigned int write_len);
/*
 * skb_ensure_writable_head_tail(): make room for @dev->needed_headroom/
 * needed_tailroom (plus the pad to ETH_ZLEN of short frames when a tailroom
 * is needed) by the exact missing amounts, and unclone. 0 or -ENOMEM.
 */
int skb_ensure_writable_head_tail(struct sk_buff *skb, struct net_device *dev);
/**
 * skb_pp_cow_data() - copy an skb into page_pool memory (veth, generic XDP)
 * @pool: order-0 pool the new head and frags come from
 * @pskb: in: the skb; out: the copy on success (the original is consumed)
 * @headroom: headroom of the new head page
 *
 * Return: 0; -EOPNOTSUPP with a frag_list; -ENOMEM when too long for one
 * head page plus MAX_SKB_FRAGS pages or out of memory (*@pskb untouched).
 */
int skb_pp_cow_data(struct page_pool *pool, struct sk_buff **pskb, unsigned int headroom);

/* ---- skb queues (the caller provides any locking: the __ variants) ---- */

/* The first two fields of both struct sk_buff and struct sk_buff_head. */
struct sk_buff_list {
	struct sk_buff *next;
	struct sk_buff *prev;
};

struct sk_buff_head {
	/* next and prev first: the head doubles as the list sentinel */
	struct sk_buff *next;
	struct sk_buff *prev;
	u32 qlen;
};

static inline void __skb_queue_head_init(struct sk_buff_head *list)
{
	list->prev = list->next = (struct sk_buff *)list;
	list->qlen = 0;
}

static inline bool skb_queue_empty(const struct sk_buff_head *list)
{
	return list->next == (const struct sk_buff *)list;
}

static inline u32 skb_queue_len(const struct sk_buff_head *list)
{
	return list->qlen;
}

static inline struct sk_buff *skb_peek(const struct sk_buff_head *list)
{
	struct sk_buff *skb = list->next;

	return skb == (const struct sk_buff *)list ? NULL : skb;
}

static inline struct sk_buff *skb_peek_tail(const struct sk_buff_head *list)
{
	struct sk_buff *skb = list->prev;

	return skb == (const struct sk_buff *)list ? NULL : skb;
}

static inline void __skb_insert(struct sk_buff *newsk, struct sk_buff *prev,
				struct sk_buff *next, struct sk_buff_head *list)
{
	newsk->next = next;
	newsk->prev = prev;
	((struct sk_buff_list *)next)->prev = newsk;
	((struct sk_buff_list *)prev)->next = newsk;
	list->qlen++;
}

static inline void __skb_queue_tail(struct sk_buff_head *list, struct sk_buff *newsk)
{
	__skb_insert(newsk, list->prev, (struct sk_buff *)list, list);
}

static inline void __skb_queue_head(struct sk_buff_head *list, struct sk_buff *newsk)
{
	__skb_insert(newsk, (struct sk_buff *)list, list->next, list);
}

static inline void __skb_unlink(struct sk_buff *skb, struct sk_buff_head *list)
{
	struct sk_buff *next = skb->next, *prev = skb->prev;

	list->qlen--;
	skb->next = skb->prev = NULL;
	((struct sk_buff_list *)next)->prev = prev;
	((struct sk_buff_list *)prev)->next = next;
}

static inline struct sk_buff *__skb_dequeue(struct sk_buff_head *list)
{
	struct sk_buff *skb = skb_peek(list);

	if (skb)
		__skb_unlink(skb, list);
	return skb;
}

/* Free every skb on @list with @reason (kernel: __skb_queue_purge_reason). */
static inline void __skb_queue_purge_reason(struct sk_buff_head *list,
					    enum skb_drop_reason reason)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(list)) != NULL)
		kfree_skb_reason(skb, reason);
}

static inline void __skb_queue_purge(struct sk_buff_head *list)
{
	__skb_queue_purge_reason(list, SKB_DROP_REASON_QUEUE_PURGE);
}

#define skb_queue_walk(queue, skb) \
	for (skb = (queue)->next; skb != (struct sk_buff *)(queue); skb = skb->next)

#define skb_queue_walk_safe(queue, skb, tmp)					\
	for (skb = (queue)->next, tmp = skb->next;				\
	     skb != (struct sk_buff *)(queue);					\
	     skb = tmp, tmp = skb->next)

/* Walk a NULL-terminated skb->next list where the body may unlink skb. */
#define skb_list_walk_safe(first, skb, next_skb)				\
	for ((skb) = (first), (next_skb) = (skb) ? (skb)->next : NULL; (skb);	\
	     (skb) = (next_skb), (next_skb) = (skb) ? (skb)->next : NULL)


static inline void skb_mark_not_on_list(struct sk_buff *skb)
{
	skb->next = NULL;
}

#endif
