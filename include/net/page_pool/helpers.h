/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inline page_pool helpers drivers use (see types.h for the model).
 *
 * Kernel: include/net/page_pool/helpers.h
 * Differs: page_pool_dev_alloc_va() always returns a whole 2^order block.
 */
#ifndef _UXDP_NET_PAGE_POOL_HELPERS_H
#define _UXDP_NET_PAGE_POOL_HELPERS_H

#include <net/page_pool/types.h>

static inline struct page *page_pool_dev_alloc_pages(struct page_pool *pool)
{
	return page_pool_alloc_pages(pool, GFP_ATOMIC | __GFP_NOWARN);
}

unsigned int page_pool_get_order(const struct page_pool *pool);

/*
 * Allocate a buffer of at least *@size bytes and return its address;
 * *@size is set to the true size of the buffer (the whole block).
 */
static inline void *page_pool_dev_alloc_va(struct page_pool *pool, unsigned int *size)
{
	unsigned int block = PAGE_SIZE << page_pool_get_order(pool);
	struct page *page;

	if (*size > block)
		return NULL;
	page = page_pool_dev_alloc_pages(pool);
	if (!page)
		return NULL;
	*size = block;
	return page_address(page);
}

static inline void page_pool_recycle_direct(struct page_pool *pool, struct page *page)
{
	page_pool_put_full_page(pool, page, true);
}

static inline void page_pool_free_va(struct page_pool *pool, void *va, bool allow_direct)
{
	page_pool_put_full_page(pool, virt_to_head_page(va), allow_direct);
}

static inline bool page_is_pp(const struct page *page)
{
	return page->pp_magic == PP_SIGNATURE;
}

#endif
