/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pages: the unit frame memory is handed out in (page_pool, page frags of
 * skbs, slab backing, large kmalloc). Memory comes from 2 MiB-aligned
 * chunks; the first pages of a chunk hold the struct page array describing
 * all 512 pages of the chunk, so virt_to_page() and page_address() are a
 * mask and a shift, as with the kernel's vmemmap.
 *
 *   chunk (2 MiB, aligned)
 *   +-------------------------+-------+-------+-----+---------+
 *   | struct page[512] (32K)  | pg 8  | pg 9  | ... | pg 511  |
 *   +-------------------------+-------+-------+-----+---------+
 *
 * Higher-order allocations are compound pages: the head carries the order
 * and the refcount, tails point to the head (compound_head()).
 * Refcounts are atomic; the allocator itself takes a mutex (slow path only:
 * per-packet memory comes from slab magazines and page_pool caches).
 *
 * Kernel: include/linux/mm.h, include/linux/mm_types.h, include/linux/gfp.h
 *	   alloc_pages() __free_pages() get_page() put_page() page_address()
 *	   virt_to_page() virt_to_head_page() compound_head() page_frag_free()
 * Differs: no buddy merging (freed blocks stay on the free list of their
 *	    order); MAX_PAGE_ORDER is 8 (1 MiB); chunks are never returned.
 */
#ifndef _UXDP_LINUX_MM_H
#define _UXDP_LINUX_MM_H

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/gfp.h>
#include <linux/types.h>

#define PAGE_CHUNK_SHIFT	21
#define PAGE_CHUNK_SIZE		(1UL << PAGE_CHUNK_SHIFT)
#define PAGES_PER_CHUNK		(PAGE_CHUNK_SIZE >> PAGE_SHIFT)
#define MAX_PAGE_ORDER		8

struct kmem_cache;
struct page_pool;

/* page->flags bits */
enum pageflags {
	PG_head,		/* first page of an order > 0 block */
	PG_slab,		/* backs a kmem_cache */
	PG_large_kmalloc,	/* kmalloc() > KMALLOC_MAX_CACHE_SIZE */
	PG_buddy,		/* free, on an allocator free list */
	PG_reserved,		/* holds the chunk's struct page array */
};

struct page {
	unsigned long flags;
	unsigned long compound_head;	/* bit 0 set: tail page, rest is the head */
	int _refcount;
	u8 order;			/* head pages: order of the block */
	/* page_pool: set while the page belongs to a pool */
	unsigned long pp_magic;
	struct page_pool *pp;
	/* slab / free-list linkage */
	struct kmem_cache *slab_cache;
	struct page *next;
	unsigned long private;
};

#define PP_SIGNATURE	0x40UL

/*
 * Takes back a page whose pp_magic is PP_SIGNATURE when its last reference
 * goes (put_page()). net/core/page_pool.c sets it at start-up, so mm/ does
 * not call up into the network code.
 */
extern void (*page_pool_release_page)(struct page *page);

static inline bool PageHead(const struct page *page) { return page->flags & (1UL << PG_head); }
static inline bool PageSlab(const struct page *page) { return page->flags & (1UL << PG_slab); }
static inline bool PageTail(const struct page *page) { return page->compound_head & 1; }

static inline struct page *compound_head(const struct page *page)
{
	unsigned long head = READ_ONCE(page->compound_head);

	if (unlikely(head & 1))
		return (struct page *)(head - 1);
	return (struct page *)page;
}

static inline unsigned int compound_order(const struct page *page)
{
	return PageHead(page) ? page->order : 0;
}

static inline struct page *virt_to_page(const void *addr)
{
	unsigned long a = (unsigned long)addr;
	struct page *map = (struct page *)(a & ~(PAGE_CHUNK_SIZE - 1));

	return &map[(a & (PAGE_CHUNK_SIZE - 1)) >> PAGE_SHIFT];
}

static inline struct page *virt_to_head_page(const void *addr)
{
	return compound_head(virt_to_page(addr));
}

static inline void *page_address(const struct page *page)
{
	unsigned long p = (unsigned long)page;
	unsigned long chunk = p & ~(PAGE_CHUNK_SIZE - 1);
	unsigned long idx = (p - chunk) / sizeof(struct page);

	return (void *)(chunk + (idx << PAGE_SHIFT));
}

static inline int page_ref_count(const struct page *page)
{
	return __atomic_load_n(&compound_head(page)->_refcount, __ATOMIC_RELAXED);
}

static inline void set_page_count(struct page *page, int v)
{
	__atomic_store_n(&page->_refcount, v, __ATOMIC_RELAXED);
}

static inline void page_ref_inc(struct page *page)
{
	__atomic_fetch_add(&page->_refcount, 1, __ATOMIC_RELAXED);
}

static inline bool page_ref_dec_and_test(struct page *page)
{
	return __atomic_sub_fetch(&page->_refcount, 1, __ATOMIC_ACQ_REL) == 0;
}

static inline void get_page(struct page *page)
{
	page = compound_head(page);
	BUG_ON(page_ref_count(page) <= 0);
	page_ref_inc(page);
}

void __put_page(struct page *page);

/**
 * put_page() - drop a reference to a page (or to the compound block it is in)
 * @page: any page of the block
 *
 * The last put frees the block; a page_pool page goes back to its pool.
 */
static inline void put_page(struct page *page)
{
	page = compound_head(page);
	if (page_ref_dec_and_test(page))
		__put_page(page);
}

static inline int get_order(unsigned long size)
{
	if (size <= PAGE_SIZE)
		return 0;
	return 64 - __builtin_clzl((size - 1) >> PAGE_SHIFT);
}

/**
 * alloc_pages() - allocate 2^@order contiguous pages, refcount 1
 * @gfp: __GFP_ZERO zeroes them
 * @order: 0..MAX_PAGE_ORDER
 *
 * Return: the head page, or NULL (out of memory, injected fault, or order
 * too large).
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order);

static inline struct page *alloc_page(gfp_t gfp)
{
	return alloc_pages(gfp, 0);
}

/* Free a block whose refcount the caller already dropped to zero, or drop one. */
void __free_pages(struct page *page, unsigned int order);

static inline void __free_page(struct page *page)
{
	__free_pages(page, 0);
}

/* Allocate/free by address, as __get_free_pages()/free_pages(). */
void *__get_free_pages(gfp_t gfp, unsigned int order);
void free_pages(void *addr, unsigned int order);

/* Release a page fragment (skb head built with build_skb, page frags). */
static inline void page_frag_free(void *addr)
{
	put_page(virt_to_head_page(addr));
}

/**
 * nr_pages_in_use() - pages handed out by alloc_pages() and not yet freed,
 * excluding pages that back slab caches (their objects are counted by the
 * caches). uxdp: used by the leak check.
 */
long nr_pages_in_use(void);

#endif
