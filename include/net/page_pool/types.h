/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page pool: recycles the pages that hold frames, so a receive path makes no
 * allocation in steady state. A pool has a lock-free alloc cache
 * (PP_ALLOC_CACHE_SIZE pages) used only from its owner context (the NAPI
 * poll of one queue: page_pool_alloc_pages() and direct recycling), and a
 * locked ring that takes pages returned from any other context (put_page()
 * of a pool page, recycling without allow_direct). Each page remembers its
 * pool (page->pp, page->pp_magic == PP_SIGNATURE), so put_page() on a pool
 * page returns it to the pool instead of freeing it.
 *
 * Pages the pool holds idle have refcount 0; a page handed out has 1 and
 * may be shared with get_page(); the last put returns it to the pool.
 *
 * Kernel: include/net/page_pool/types.h, include/net/page_pool/helpers.h,
 *	   net/core/page_pool.c
 * Differs: no DMA mapping or sync (flags accepted, ignored); no page
 *	    fragments (each allocation is a whole page or 2^order pages);
 *	    the ring is an array under a spinlock, not a ptr_ring.
 */
#ifndef _UXDP_NET_PAGE_POOL_TYPES_H
#define _UXDP_NET_PAGE_POOL_TYPES_H

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/types.h>

#define PP_FLAG_DMA_MAP		(1U << 0)	/* accepted, no effect */
#define PP_FLAG_DMA_SYNC_DEV	(1U << 1)	/* accepted, no effect */
#define PP_FLAG_ALL		(PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV)

#define PP_ALLOC_CACHE_SIZE	128
#define PP_ALLOC_CACHE_REFILL	64
#define PP_RING_SIZE_DEFAULT	1024

struct net_device;
struct napi_struct;

struct page_pool_params {
	unsigned int order;		/* pages per allocation: 2^order */
	unsigned int pool_size;		/* ring size; 0 = PP_RING_SIZE_DEFAULT */
	unsigned int flags;		/* PP_FLAG_* */
	int nid;			/* ignored */
	struct net_device *netdev;	/* for messages */
	unsigned int max_len;		/* ignored (DMA sync length) */
	unsigned int offset;		/* ignored */
	struct napi_struct *napi;	/* owner NAPI: direct recycling when it polls here */
};

struct page_pool_alloc_stats {
	u64 fast;		/* served from the alloc cache */
	u64 slow;		/* served by the page allocator */
	u64 empty;		/* cache and ring empty when refilling */
	u64 refill;		/* cache refilled from the ring */
};

struct page_pool_recycle_stats {
	u64 cached;		/* recycled into the alloc cache (direct) */
	u64 cache_full;		/* direct recycle found the cache full */
	u64 ring;		/* recycled into the ring */
	u64 ring_full;		/* ring full: page given back to the allocator */
	u64 released_refcnt;	/* page released because the pool is gone */
};

struct page_pool_stats {
	struct page_pool_alloc_stats alloc_stats;
	struct page_pool_recycle_stats recycle_stats;
};

struct page_pool;

/**
 * page_pool_create() - create a pool
 * @params: order <= MAX_PAGE_ORDER, flags within PP_FLAG_ALL
 *
 * Return: the pool, or ERR_PTR(-EINVAL / -ENOMEM).
 */
struct page_pool *page_pool_create(const struct page_pool_params *params);

/*
 * page_pool_create_percpu() - create a pool owned by the worker on CPU
 * @cpuid: pages put from softirq on that CPU recycle into the alloc cache
 *	   (no lock), as for a pool whose p.napi polls there; -1 for none
 *	   (page_pool_create()). For a producer without a NAPI of its own
 *	   whose frames are consumed in softirq on its CPU (the kernel's
 *	   system page pools; uxdp's benchmarks).
 */
struct page_pool *page_pool_create_percpu(const struct page_pool_params *params, int cpuid);

/*
 * Destroy a pool: idle pages go back to the page allocator at once; pages
 * still in flight are released when they come back, and the pool itself is
 * freed with the last of them. Accepts NULL.
 */
void page_pool_destroy(struct page_pool *pool);

/* Allocate from the owner context. Returns a page with refcount 1, or NULL. */
struct page *page_pool_alloc_pages(struct page_pool *pool, gfp_t gfp);

/*
 * Drop one reference to a pool page; the last returns it to the pool:
 * into the alloc cache if @allow_direct (caller is the owner context),
 * else into the ring.
 */
void page_pool_put_full_page(struct page_pool *pool, struct page *page, bool allow_direct);

/*
 * An skb marked for recycling (skb->pp_recycle) lets go of @page: a pool
 * page goes back to its pool (directly when page_pool_napi_local()).
 * Return: false if @page is not a pool page (the caller frees it).
 */
bool napi_pp_put_page(struct page *page);

/* mm: the refcount of a pool page reached zero in put_page(). */
void page_pool_put_unrefed_page(struct page *page);

/* Return @count pages whose addresses are in @data (any page of each block). */
void page_pool_put_page_bulk(void **data, int count);

/* Copy the pool's counters. Return: true. */
bool page_pool_get_stats(const struct page_pool *pool, struct page_pool_stats *stats);

/* Pages the pool allocated and has not released (idle or in flight). */
long page_pool_inflight(const struct page_pool *pool);
/* Pages idle in the alloc cache plus the ring. */
unsigned int page_pool_idle(const struct page_pool *pool);
u32 page_pool_id(const struct page_pool *pool);

#endif
