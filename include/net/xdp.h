/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XDP buffers and frames, laid out as in the kernel (6.14+ xdp_frame).
 * The eBPF context rewrite in kernel/bpf/verifier.c turns struct xdp_md
 * field loads into loads of these fields, so their layout is an interface.
 *
 * Kernel: include/net/xdp.h, include/uapi/linux/bpf.h (struct xdp_md)
 */
#ifndef _UXDP_NET_XDP_H
#define _UXDP_NET_XDP_H

#include <linux/compiler.h>
#include <linux/types.h>

struct net_device;
struct page_pool;

enum xdp_mem_type {
	MEM_TYPE_PAGE_SHARED = 0,
	MEM_TYPE_PAGE_ORDER0,
	MEM_TYPE_PAGE_POOL,
	MEM_TYPE_XSK_BUFF_POOL,
	MEM_TYPE_MAX,
};

struct xdp_mem_info {
	u32 type;		/* enum xdp_mem_type */
	u32 id;
};

struct xdp_rxq_info {
	struct net_device *dev;
	u32 queue_index;
	u32 reg_state;
	struct xdp_mem_info mem;
	u32 frag_size;
	struct page_pool *page_pool;	/* uxdp: the pool MEM_TYPE_PAGE_POOL frames return to */
} __aligned(SMP_CACHE_BYTES);

struct xdp_txq_info {
	struct net_device *dev;
};

enum xdp_buff_flags {
	XDP_FLAGS_HAS_FRAGS		= 1U << 0,
	XDP_FLAGS_FRAGS_PF_MEMALLOC	= 1U << 1,
	XDP_FLAGS_FRAGS_UNREADABLE	= 1U << 2,
};

struct xdp_buff {
	void *data;
	void *data_end;
	void *data_meta;
	void *data_hard_start;
	struct xdp_rxq_info *rxq;
	struct xdp_txq_info *txq;
	u32 frame_sz;		/* frame size to deduce data_hard_end/reserved tailroom */
	u32 flags;		/* enum xdp_buff_flags */
};

struct xdp_frame {
	void *data;
	u32 len;
	u32 headroom;
	u32 metasize;		/* uses lower 8 bits */
	enum xdp_mem_type mem_type:32;
	struct net_device *dev_rx;	/* used by cpumap */
	u32 frame_sz;
	u32 flags;		/* supported values defined in xdp_buff_flags */
};

#define XDP_BULK_QUEUE_SIZE	16

/*
 * Inline helpers and the xdp_buff/xdp_frame API of net/core/xdp.c
 * (memory core). Added below the fixed structs; nothing above changes.
 */
#include <linux/skbuff.h>

struct xdp_frame_bulk {
	int count;
	void *q[XDP_BULK_QUEUE_SIZE];
};

static __always_inline void xdp_frame_bulk_init(struct xdp_frame_bulk *bq)
{
	bq->count = 0;
}

static __always_inline void xdp_init_buff(struct xdp_buff *xdp, u32 frame_sz,
					  struct xdp_rxq_info *rxq)
{
	xdp->frame_sz = frame_sz;
	xdp->rxq = rxq;
	xdp->flags = 0;
}

static __always_inline void xdp_prepare_buff(struct xdp_buff *xdp, unsigned char *hard_start,
					     int headroom, int data_len, const bool meta_valid)
{
	unsigned char *data = hard_start + headroom;

	xdp->data_hard_start = hard_start;
	xdp->data = data;
	xdp->data_end = data + data_len;
	/* data_meta > data is the "metadata unsupported" marker */
	xdp->data_meta = meta_valid ? data : data + 1;
}

static __always_inline void xdp_set_data_meta_invalid(struct xdp_buff *xdp)
{
	xdp->data_meta = (char *)xdp->data + 1;
}

static __always_inline void xdp_buff_set_frags_flag(struct xdp_buff *xdp)
{
	xdp->flags |= XDP_FLAGS_HAS_FRAGS;
}

static __always_inline bool xdp_frame_has_frags(const struct xdp_frame *frame)
{
	return frame->flags & XDP_FLAGS_HAS_FRAGS;
}

static __always_inline bool xdp_frame_is_frag_pfmemalloc(const struct xdp_frame *frame)
{
	return frame->flags & XDP_FLAGS_FRAGS_PF_MEMALLOC;
}

/* data_hard_start + frame_sz - SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) */
static __always_inline void *__xdp_buff_hard_end(const struct xdp_buff *xdp)
{
	return (char *)xdp->data_hard_start + xdp->frame_sz -
	       SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
}

static __always_inline struct skb_shared_info *
xdp_get_shared_info_from_frame(const struct xdp_frame *frame)
{
	char *data_hard_start = (char *)frame->data - frame->headroom - sizeof(*frame);

	return (struct skb_shared_info *)(data_hard_start + frame->frame_sz -
					  SKB_DATA_ALIGN(sizeof(struct skb_shared_info)));
}

static __always_inline unsigned int xdp_get_frame_len(const struct xdp_frame *xdpf)
{
	unsigned int len = xdpf->len;

	if (unlikely(xdp_frame_has_frags(xdpf)))
		len += xdp_get_shared_info_from_frame(xdpf)->xdp_frags_size;
	return len;
}

/* Scrub a frame whose memory now belongs to an skb. */
static __always_inline void xdp_scrub_frame(struct xdp_frame *frame)
{
	frame->data = NULL;
	frame->dev_rx = NULL;
}

/*
 * Fill @xdp_frame from @xdp. -ENOSPC when the headroom (minus metadata)
 * cannot hold the frame struct, or when data_end runs into the tailroom
 * reserved for skb_shared_info (a driver bug).
 */
static __always_inline int xdp_update_frame_from_buff(const struct xdp_buff *xdp,
						      struct xdp_frame *xdp_frame)
{
	int metasize, headroom;

	headroom = (char *)xdp->data - (char *)xdp->data_hard_start;
	metasize = (char *)xdp->data - (char *)xdp->data_meta;
	metasize = metasize > 0 ? metasize : 0;
	if (unlikely((size_t)(headroom - metasize) < sizeof(*xdp_frame)))
		return -ENOSPC;
	if (unlikely((char *)xdp->data_end > (char *)__xdp_buff_hard_end(xdp)))
		return -ENOSPC;
	xdp_frame->data = xdp->data;
	xdp_frame->len = (char *)xdp->data_end - (char *)xdp->data;
	xdp_frame->headroom = headroom - sizeof(*xdp_frame);
	xdp_frame->metasize = metasize;
	xdp_frame->frame_sz = xdp->frame_sz;
	xdp_frame->flags = xdp->flags;
	return 0;
}

/**
 * xdp_convert_buff_to_frame() - turn @xdp into an xdp_frame in its own headroom
 * @xdp: buffer with rxq set
 *
 * The frame is written at data_hard_start. Fails when headroom - metasize
 * < sizeof(struct xdp_frame) (40), as the kernel's.
 * Return: the frame, or NULL.
 */
static __always_inline struct xdp_frame *xdp_convert_buff_to_frame(struct xdp_buff *xdp)
{
	struct xdp_frame *xdp_frame = xdp->data_hard_start;

	if (unlikely(xdp_update_frame_from_buff(xdp, xdp_frame) < 0))
		return NULL;
	xdp_frame->mem_type = xdp->rxq->mem.type;
	return xdp_frame;
}

/* Restore a buffer from @frame; the caller sets rxq and txq. */
static __always_inline void xdp_convert_frame_to_buff(const struct xdp_frame *frame,
						      struct xdp_buff *xdp)
{
	xdp->data_hard_start = (char *)frame->data - frame->headroom - sizeof(*frame);
	xdp->data = frame->data;
	xdp->data_end = (char *)frame->data + frame->len;
	xdp->data_meta = (char *)frame->data - frame->metasize;
	xdp->frame_sz = frame->frame_sz;
	xdp->flags = frame->flags;
}

static __always_inline bool xdp_buff_has_frags(const struct xdp_buff *xdp)
{
	return xdp->flags & XDP_FLAGS_HAS_FRAGS;
}

static __always_inline void xdp_buff_clear_frags_flag(struct xdp_buff *xdp)
{
	xdp->flags &= ~(XDP_FLAGS_HAS_FRAGS | XDP_FLAGS_FRAGS_PF_MEMALLOC);
}

static __always_inline bool xdp_data_meta_unsupported(const struct xdp_buff *xdp)
{
	return unlikely(xdp->data_meta > xdp->data);
}

static __always_inline void *xdp_data_hard_end(const struct xdp_buff *xdp)
{
	return __xdp_buff_hard_end(xdp);
}

static __always_inline struct skb_shared_info *
xdp_get_shared_info_from_buff(const struct xdp_buff *xdp)
{
	return (struct skb_shared_info *)__xdp_buff_hard_end(xdp);
}

static __always_inline unsigned int xdp_get_buff_len(const struct xdp_buff *xdp)
{
	unsigned int len = (char *)xdp->data_end - (char *)xdp->data;

	if (unlikely(xdp_buff_has_frags(xdp)))
		len += xdp_get_shared_info_from_buff(xdp)->xdp_frags_size;
	return len;
}

static __always_inline bool xdp_metalen_invalid(unsigned long metalen)
{
	return (metalen & 3) || metalen > 255;
}

#define REG_STATE_NEW		0x0
#define REG_STATE_REGISTERED	0x1
#define REG_STATE_UNREGISTERED	0x2
#define REG_STATE_UNUSED	0x3

/* net/core/xdp.c */
int __xdp_rxq_info_reg(struct xdp_rxq_info *xdp_rxq, struct net_device *dev,
		       u32 queue_index, unsigned int napi_id, u32 frag_size);
static inline int xdp_rxq_info_reg(struct xdp_rxq_info *xdp_rxq, struct net_device *dev,
				   u32 queue_index, unsigned int napi_id)
{
	return __xdp_rxq_info_reg(xdp_rxq, dev, queue_index, napi_id, 0);
}
void xdp_rxq_info_unreg(struct xdp_rxq_info *xdp_rxq);
bool xdp_rxq_info_is_reg(const struct xdp_rxq_info *xdp_rxq);
/* @allocator: the struct page_pool for MEM_TYPE_PAGE_POOL, else NULL. */
int xdp_rxq_info_reg_mem_model(struct xdp_rxq_info *xdp_rxq, enum xdp_mem_type type,
			       void *allocator);
void xdp_rxq_info_unreg_mem_model(struct xdp_rxq_info *xdp_rxq);

/* Return the memory of a frame (head and frags) to its allocator. */
void xdp_return_frame(struct xdp_frame *xdpf);
/* Same, from the NAPI context that owns the page_pool (direct recycling). */
void xdp_return_frame_rx_napi(struct xdp_frame *xdpf);
void xdp_return_frame_bulk(struct xdp_frame *xdpf, struct xdp_frame_bulk *bq);
void xdp_flush_frame_bulk(struct xdp_frame_bulk *bq);
/* Return the memory of an xdp_buff (head and frags), rxq's memory model. */
void xdp_return_buff(struct xdp_buff *xdp);
void __xdp_return(void *data, enum xdp_mem_type mem_type, bool napi_direct);
/* While set (per thread), _rx_napi returns do not recycle directly. */
void xdp_set_return_frame_no_direct(void);
void xdp_clear_return_frame_no_direct(void);

/* Build @skb (zeroed up to ->tail) around @xdpf's memory, as __xdp_build_skb_from_frame(). */
struct sk_buff *__xdp_build_skb_from_frame(struct xdp_frame *xdpf, struct sk_buff *skb,
					   struct net_device *dev);
/*
 * An skb around a driver's xdp_buff after XDP_PASS (head, frags, metadata),
 * marked for recycling when the rxq's memory is a page pool, protocol set by
 * eth_type_trans() on the rxq's device. NULL on failure (@xdp untouched).
 */
struct sk_buff *xdp_build_skb_from_buff(const struct xdp_buff *xdp);
/* Allocate an skb and build it around @xdpf; NULL on failure (frame untouched). */
struct sk_buff *xdp_build_skb_from_frame(struct xdp_frame *xdpf, struct net_device *dev);
/*
 * 5.12 veth bulk: @n_skb zeroed skb structs in one call, or -ENOMEM and
 * nothing (the caller drops the whole batch). Returns 0 on success.
 */
int xdp_alloc_skb_bulk(void **skbs, int n_skb, gfp_t gfp);

/*
 * RX metadata a driver can tell an XDP program about its frame (kernel:
 * struct xdp_metadata_ops in include/net/xdp.h). Each returns 0 and fills
 * its outputs, or -ENODATA when this frame has no such metadata; a NULL
 * op, or no ops on the device, is -EOPNOTSUPP. The kfuncs
 * bpf_xdp_metadata_rx_timestamp/_hash/_vlan_tag (net/core/xdp.c) answer
 * through xdp->rxq->dev->xdp_metadata_ops.
 */
/* rss_type of xmo_rx_hash (the kernel's enum xdp_rss_hash_type, in part) */
enum xdp_rss_hash_type {
	XDP_RSS_L3_IPV4		= 1u << 0,
	XDP_RSS_L3_IPV6		= 1u << 1,
	XDP_RSS_L4		= 1u << 3,
	XDP_RSS_L4_TCP		= 1u << 4,
	XDP_RSS_L4_UDP		= 1u << 5,
	XDP_RSS_TYPE_NONE	= 0,
	XDP_RSS_TYPE_L4_ANY	= XDP_RSS_L4,
	XDP_RSS_TYPE_L4_IPV4_TCP = XDP_RSS_L3_IPV4 | XDP_RSS_L4 | XDP_RSS_L4_TCP,
	XDP_RSS_TYPE_L4_IPV4_UDP = XDP_RSS_L3_IPV4 | XDP_RSS_L4 | XDP_RSS_L4_UDP,
	XDP_RSS_TYPE_L4_IPV6_TCP = XDP_RSS_L3_IPV6 | XDP_RSS_L4 | XDP_RSS_L4_TCP,
	XDP_RSS_TYPE_L4_IPV6_UDP = XDP_RSS_L3_IPV6 | XDP_RSS_L4 | XDP_RSS_L4_UDP,
};

struct xdp_metadata_ops {
	int (*xmo_rx_timestamp)(const struct xdp_buff *xdp, u64 *timestamp);
	int (*xmo_rx_hash)(const struct xdp_buff *xdp, u32 *hash, u32 *rss_type);
	int (*xmo_rx_vlan_tag)(const struct xdp_buff *xdp, __be16 *vlan_proto, u16 *vlan_tci);
};

#endif
