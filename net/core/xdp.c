// SPDX-License-Identifier: GPL-2.0
/*
 * XDP memory: rxq registration with a memory model, returning frame memory
 * to its allocator (page_pool, page frag, order-0 page), and turning an
 * xdp_frame into an skb in place (the frame's own buffer becomes the skb
 * head, its shinfo already at the right place for multi-buffer frames).
 * The buffer <-> frame conversions are inlines in <net/xdp.h>.
 *
 * Kernel: net/core/xdp.c xdp_rxq_info_reg() xdp_rxq_info_reg_mem_model()
 *	   __xdp_return() xdp_return_frame() xdp_return_frame_rx_napi()
 *	   xdp_return_frame_bulk() __xdp_build_skb_from_frame()
 *	   xdp_build_skb_from_frame() xdp_alloc_skb_bulk() (5.12-6.13)
 * Differs: no memory-model id registry (mem.id is the page_pool id); no
 *	    XSK buffer pool; frame returns go through put_page(), which sends
 *	    page_pool pages home.
 */
#include <errno.h>
#include <string.h>

#include <linux/btf.h>
#include <linux/bug.h>
#include <linux/etherdevice.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>

static __thread bool xdp_return_no_direct;

void xdp_set_return_frame_no_direct(void)
{
	xdp_return_no_direct = true;
}

void xdp_clear_return_frame_no_direct(void)
{
	xdp_return_no_direct = false;
}

int __xdp_rxq_info_reg(struct xdp_rxq_info *xdp_rxq, struct net_device *dev,
		       u32 queue_index, unsigned int napi_id, u32 frag_size)
{
	(void)napi_id;
	if (!dev)
		return -ENODEV;
	if (xdp_rxq->reg_state == REG_STATE_REGISTERED)
		xdp_rxq_info_unreg(xdp_rxq);
	memset(xdp_rxq, 0, sizeof(*xdp_rxq));
	xdp_rxq->dev = dev;
	xdp_rxq->queue_index = queue_index;
	xdp_rxq->frag_size = frag_size;
	xdp_rxq->reg_state = REG_STATE_REGISTERED;
	return 0;
}

void xdp_rxq_info_unreg_mem_model(struct xdp_rxq_info *xdp_rxq)
{
	if (xdp_rxq->reg_state != REG_STATE_REGISTERED)
		return;
	xdp_rxq->mem.type = MEM_TYPE_PAGE_SHARED;
	xdp_rxq->mem.id = 0;
	xdp_rxq->page_pool = NULL;
}

void xdp_rxq_info_unreg(struct xdp_rxq_info *xdp_rxq)
{
	if (xdp_rxq->reg_state == REG_STATE_UNUSED)
		return;
	xdp_rxq_info_unreg_mem_model(xdp_rxq);
	xdp_rxq->reg_state = REG_STATE_UNREGISTERED;
	xdp_rxq->dev = NULL;
}

bool xdp_rxq_info_is_reg(const struct xdp_rxq_info *xdp_rxq)
{
	return xdp_rxq->reg_state == REG_STATE_REGISTERED;
}

int xdp_rxq_info_reg_mem_model(struct xdp_rxq_info *xdp_rxq, enum xdp_mem_type type,
			       void *allocator)
{
	if (xdp_rxq->reg_state != REG_STATE_REGISTERED)
		return -EFAULT;
	if ((unsigned int)type >= MEM_TYPE_MAX)
		return -EINVAL;
	if (type == MEM_TYPE_XSK_BUFF_POOL)
		return -EOPNOTSUPP;
	if (type == MEM_TYPE_PAGE_POOL && !allocator)
		return -EINVAL;
	xdp_rxq->mem.type = type;
	xdp_rxq->mem.id = type == MEM_TYPE_PAGE_POOL ? page_pool_id(allocator) : 0;
	xdp_rxq->page_pool = type == MEM_TYPE_PAGE_POOL ? allocator : NULL;
	return 0;
}

void __xdp_return(void *data, enum xdp_mem_type mem_type, bool napi_direct)
{
	struct page *page;

	switch (mem_type) {
	case MEM_TYPE_PAGE_POOL:
		page = virt_to_head_page(data);
		if (napi_direct && xdp_return_no_direct)
			napi_direct = false;
		page_pool_put_full_page(page->pp, page, napi_direct);
		break;
	case MEM_TYPE_PAGE_SHARED:
		page_frag_free(data);
		break;
	case MEM_TYPE_PAGE_ORDER0:
		put_page(virt_to_page(data));
		break;
	default:
		/* MEM_TYPE_XSK_BUFF_POOL cannot be registered here. */
		WARN_ON_ONCE(1);
		break;
	}
}

/* The frags, then the head: out of line, so that a linear frame saves no registers. */
static noinline void xdp_return_frame_frags(struct xdp_frame *xdpf, bool napi_direct)
{
	struct skb_shared_info *sinfo = xdp_get_shared_info_from_frame(xdpf);

	for (u32 i = 0; i < sinfo->nr_frags; i++)
		__xdp_return(skb_frag_address(&sinfo->frags[i]), xdpf->mem_type, napi_direct);
	__xdp_return(xdpf->data, xdpf->mem_type, napi_direct);
}

static __always_inline void xdp_return_frame_mem(struct xdp_frame *xdpf, bool napi_direct)
{
	if (unlikely(xdp_frame_has_frags(xdpf)))
		xdp_return_frame_frags(xdpf, napi_direct);
	else
		__xdp_return(xdpf->data, xdpf->mem_type, napi_direct);
}

void xdp_return_frame(struct xdp_frame *xdpf)
{
	xdp_return_frame_mem(xdpf, false);
}

void xdp_return_frame_rx_napi(struct xdp_frame *xdpf)
{
	xdp_return_frame_mem(xdpf, true);
}

void xdp_flush_frame_bulk(struct xdp_frame_bulk *bq)
{
	if (unlikely(!bq->count))
		return;
	page_pool_put_page_bulk(bq->q, bq->count);
	bq->count = 0;
}

void xdp_return_frame_bulk(struct xdp_frame *xdpf, struct xdp_frame_bulk *bq)
{
	if (xdpf->mem_type != MEM_TYPE_PAGE_POOL) {
		xdp_return_frame(xdpf);
		return;
	}
	if (bq->count == XDP_BULK_QUEUE_SIZE)
		xdp_flush_frame_bulk(bq);
	if (unlikely(xdp_frame_has_frags(xdpf))) {
		struct skb_shared_info *sinfo = xdp_get_shared_info_from_frame(xdpf);

		for (u32 i = 0; i < sinfo->nr_frags; i++) {
			bq->q[bq->count++] = skb_frag_address(&sinfo->frags[i]);
			if (bq->count == XDP_BULK_QUEUE_SIZE)
				xdp_flush_frame_bulk(bq);
		}
	}
	bq->q[bq->count++] = xdpf->data;
}

void xdp_return_buff(struct xdp_buff *xdp)
{
	if (unlikely(xdp_buff_has_frags(xdp))) {
		struct skb_shared_info *sinfo = xdp_get_shared_info_from_buff(xdp);

		for (u32 i = 0; i < sinfo->nr_frags; i++)
			__xdp_return(skb_frag_address(&sinfo->frags[i]), xdp->rxq->mem.type, true);
	}
	__xdp_return(xdp->data, xdp->rxq->mem.type, true);
}

struct sk_buff *__xdp_build_skb_from_frame(struct xdp_frame *xdpf, struct sk_buff *skb,
					   struct net_device *dev)
{
	struct skb_shared_info *sinfo = xdp_get_shared_info_from_frame(xdpf);
	unsigned int headroom, frame_size;
	void *hard_start;
	u8 nr_frags = 0;

	/* Read before build_skb_around() zeroes the shinfo head (same memory). */
	if (unlikely(xdp_frame_has_frags(xdpf)))
		nr_frags = sinfo->nr_frags;
	/* The frame struct itself was part of the headroom. */
	headroom = sizeof(*xdpf) + xdpf->headroom;
	/* frame_sz already keeps the tailroom build_skb puts shinfo into. */
	frame_size = xdpf->frame_sz;
	hard_start = (char *)xdpf->data - headroom;
	skb = build_skb_around(skb, hard_start, frame_size);
	if (unlikely(!skb))
		return NULL;
	skb_reserve(skb, headroom);
	__skb_put(skb, xdpf->len);
	if (xdpf->metasize)
		skb_metadata_set(skb, xdpf->metasize);
	if (unlikely(xdp_frame_has_frags(xdpf))) {
		skb_shinfo(skb)->nr_frags = nr_frags;
		skb->data_len += sinfo->xdp_frags_size;
		skb->len += sinfo->xdp_frags_size;
		skb->truesize += nr_frags * xdpf->frame_sz;
		skb->pfmemalloc |= xdp_frame_is_frag_pfmemalloc(xdpf);
	}
	skb->protocol = eth_type_trans(skb, dev);
	if (xdpf->mem_type == MEM_TYPE_PAGE_POOL)
		skb_mark_for_recycle(skb);
	xdp_scrub_frame(xdpf);
	return skb;
}

struct sk_buff *xdp_build_skb_from_buff(const struct xdp_buff *xdp)
{
	struct skb_shared_info *xinfo = xdp_get_shared_info_from_buff(xdp);
	bool frags = xdp_buff_has_frags(xdp);
	u32 nr_frags = frags ? xinfo->nr_frags : 0;
	u32 frags_size = frags ? xinfo->xdp_frags_size : 0;
	u32 frags_truesize = frags ? xinfo->xdp_frags_truesize : 0;
	u8 *va = xdp->data_hard_start;
	struct sk_buff *skb;

	skb = napi_build_skb(va, xdp->frame_sz);
	if (unlikely(!skb))
		return NULL;
	skb_reserve(skb, (u8 *)xdp->data - va);
	__skb_put(skb, (u8 *)xdp->data_end - (u8 *)xdp->data);
	if (xdp->data_meta < xdp->data)
		skb_metadata_set(skb, (u8 *)xdp->data - (u8 *)xdp->data_meta);
	if (unlikely(frags)) {
		/*
		 * build_skb() put its shinfo at the same address and zeroed the
		 * head of it; frags[] is intact: restore the count and sizes
		 * (xdp_update_skb_shared_info()).
		 */
		BUG_ON(skb_shinfo(skb) != xinfo);
		xinfo->nr_frags = nr_frags;
		skb->data_len = frags_size;
		skb->len += frags_size;
		skb->truesize += frags_truesize;
	}
	if (xdp->rxq->mem.type == MEM_TYPE_PAGE_POOL)
		skb_mark_for_recycle(skb);
	skb_record_rx_queue(skb, xdp->rxq->queue_index);
	skb->protocol = eth_type_trans(skb, xdp->rxq->dev);
	return skb;
}

struct sk_buff *xdp_build_skb_from_frame(struct xdp_frame *xdpf, struct net_device *dev)
{
	struct sk_buff *skb = kmem_cache_alloc(skbuff_cache, GFP_ATOMIC);

	if (unlikely(!skb))
		return NULL;
	skb_clear_to_tail(skb);
	return __xdp_build_skb_from_frame(xdpf, skb, dev);
}

int xdp_alloc_skb_bulk(void **skbs, int n_skb, gfp_t gfp)
{
	n_skb = kmem_cache_alloc_bulk(skbuff_cache, gfp, n_skb, skbs);
	if (unlikely(!n_skb))
		return -ENOMEM;
	return 0;
}

/*
 * RX metadata kfuncs, for device-bound programs only (the verifier
 * refuses them in any other, as the kernel's add_kfunc_call() does). The
 * kernel resolves each call at load to the bound driver's
 * xdp_metadata_ops, or to these defaults (-EOPNOTSUPP) when the driver has
 * none; uxdp asks the device that received the frame (xdp->rxq->dev) at
 * run time, which for a bound program attached to its device is the same
 * device. A frame of a device without ops, or BPF_PROG_TEST_RUN's, gets
 * -EOPNOTSUPP.
 */
static const struct xdp_metadata_ops *xdp_metadata_ops_of(const struct xdp_buff *xdp)
{
	if (!xdp->rxq || !xdp->rxq->dev)
		return NULL;
	return xdp->rxq->dev->xdp_metadata_ops;
}

static u64 bpf_xdp_metadata_rx_timestamp(u64 ctx, u64 timestamp, u64 r3, u64 r4, u64 r5)
{
	const struct xdp_buff *xdp = (const void *)(uintptr_t)ctx;
	const struct xdp_metadata_ops *ops = xdp_metadata_ops_of(xdp);

	(void)r3, (void)r4, (void)r5;
	if (!ops || !ops->xmo_rx_timestamp)
		return (u64)-EOPNOTSUPP;
	return (u64)(s64)ops->xmo_rx_timestamp(xdp, (u64 *)(uintptr_t)timestamp);
}

static u64 bpf_xdp_metadata_rx_hash(u64 ctx, u64 hash, u64 rss_type, u64 r4, u64 r5)
{
	const struct xdp_buff *xdp = (const void *)(uintptr_t)ctx;
	const struct xdp_metadata_ops *ops = xdp_metadata_ops_of(xdp);

	(void)r4, (void)r5;
	if (!ops || !ops->xmo_rx_hash)
		return (u64)-EOPNOTSUPP;
	return (u64)(s64)ops->xmo_rx_hash(xdp, (u32 *)(uintptr_t)hash, (u32 *)(uintptr_t)rss_type);
}

static u64 bpf_xdp_metadata_rx_vlan_tag(u64 ctx, u64 vlan_proto, u64 vlan_tci, u64 r4, u64 r5)
{
	const struct xdp_buff *xdp = (const void *)(uintptr_t)ctx;
	const struct xdp_metadata_ops *ops = xdp_metadata_ops_of(xdp);

	(void)r4, (void)r5;
	if (!ops || !ops->xmo_rx_vlan_tag)
		return (u64)-EOPNOTSUPP;
	return (u64)(s64)ops->xmo_rx_vlan_tag(xdp, (__be16 *)(uintptr_t)vlan_proto,
					      (u16 *)(uintptr_t)vlan_tci);
}

#define XDP_MD_ARG_CTX		{ .kind = KF_ARG_PTR_TO_CTX }
#define XDP_MD_ARG_OUT(sz)	{ .kind = KF_ARG_PTR_TO_MEM, .size = (sz) }

static const struct bpf_kfunc_proto xdp_metadata_kfuncs[] = {
	{ .name = "bpf_xdp_metadata_rx_timestamp", .func = bpf_xdp_metadata_rx_timestamp,
	  .flags = KF_TRUSTED_ARGS | KF_DEV_BOUND, .ret = KF_RET_INT, .nargs = 2,
	  .args = { XDP_MD_ARG_CTX, XDP_MD_ARG_OUT(sizeof(u64)) } },
	{ .name = "bpf_xdp_metadata_rx_hash", .func = bpf_xdp_metadata_rx_hash,
	  .flags = KF_TRUSTED_ARGS | KF_DEV_BOUND, .ret = KF_RET_INT, .nargs = 3,
	  .args = { XDP_MD_ARG_CTX, XDP_MD_ARG_OUT(sizeof(u32)), XDP_MD_ARG_OUT(sizeof(u32)) } },
	{ .name = "bpf_xdp_metadata_rx_vlan_tag", .func = bpf_xdp_metadata_rx_vlan_tag,
	  .flags = KF_TRUSTED_ARGS | KF_DEV_BOUND, .ret = KF_RET_INT, .nargs = 3,
	  .args = { XDP_MD_ARG_CTX, XDP_MD_ARG_OUT(sizeof(__be16)), XDP_MD_ARG_OUT(sizeof(u16)) } },
};

const struct btf_kfunc_id_set xdp_metadata_kfunc_set = {
	.set = xdp_metadata_kfuncs,
	.cnt = ARRAY_SIZE(xdp_metadata_kfuncs),
};
