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

#endif
