// SPDX-License-Identifier: GPL-2.0
/*
 * The page allocator: 2 MiB-aligned chunks from mmap(), each starting with
 * the struct page array that describes it (see <linux/mm.h> for the picture),
 * carved into blocks of 2^order pages. Freed blocks go on a free list per
 * order and are reused as they are; nothing is merged or given back. All of
 * it runs under one mutex: per-packet memory never comes here in steady
 * state (slab magazines and page_pool caches sit in front).
 *
 * Kernel: mm/page_alloc.c alloc_pages() __free_pages(), mm/swap.c __folio_put()
 * Differs: no buddy merging, no zones/NUMA, no reclaim; MAX_PAGE_ORDER 8.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/bug.h>
#include <linux/kasan.h>
#include <linux/mm.h>
#include <linux/slab.h>

/* Pages at the start of each chunk taken by its struct page array. */
#define CHUNK_META_PAGES \
	DIV_ROUND_UP(PAGES_PER_CHUNK * sizeof(struct page), PAGE_SIZE)

static pthread_mutex_t zone_lock = PTHREAD_MUTEX_INITIALIZER;
static struct page *free_area[MAX_PAGE_ORDER + 1];
static struct page *cur_chunk;		/* chunk being carved, its struct page[] */
static unsigned int cur_next;		/* next uncarved page index in cur_chunk */
static long pages_in_use;		/* all allocated pages */
static long pages_slab;			/* of which back slab caches */

static struct page *chunk_alloc(void)
{
	size_t len = 2 * PAGE_CHUNK_SIZE;
	unsigned long start, aligned;
	void *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	start = (unsigned long)p;
	aligned = ALIGN(start, PAGE_CHUNK_SIZE);
	if (aligned > start)
		munmap(p, aligned - start);
	munmap((void *)(aligned + PAGE_CHUNK_SIZE),
	       start + len - aligned - PAGE_CHUNK_SIZE);
	/* mmap() memory is zero: struct pages start out all-clear. */
	for (unsigned int i = 0; i < CHUNK_META_PAGES; i++)
		((struct page *)aligned)[i].flags = 1UL << PG_reserved;
	kasan_poison((void *)(aligned + CHUNK_META_PAGES * PAGE_SIZE),
		     PAGE_CHUNK_SIZE - CHUNK_META_PAGES * PAGE_SIZE);
	return (struct page *)aligned;
}

static void free_list_add(struct page *page, unsigned int order)
{
	page->flags = 1UL << PG_buddy;
	page->order = order;
	page->next = free_area[order];
	free_area[order] = page;
}

/* Take 2^order fresh pages from the current chunk; zone_lock held. */
static struct page *chunk_carve(unsigned int order)
{
	unsigned int n = 1U << order;

	if (!cur_chunk || cur_next + n > PAGES_PER_CHUNK) {
		struct page *chunk = chunk_alloc();

		if (!chunk)
			return NULL;
		/* The old chunk's leftover becomes order-0 free pages. */
		while (cur_chunk && cur_next < PAGES_PER_CHUNK)
			free_list_add(&cur_chunk[cur_next++], 0);
		cur_chunk = chunk;
		cur_next = CHUNK_META_PAGES;
	}
	cur_next += n;
	return &cur_chunk[cur_next - n];
}

static void prep_new_page(struct page *page, unsigned int order, gfp_t gfp)
{
	unsigned int n = 1U << order;

	page->flags = order ? 1UL << PG_head : 0;
	page->compound_head = 0;
	page->order = order;
	page->pp_magic = 0;
	page->pp = NULL;
	page->slab_cache = NULL;
	page->next = NULL;
	page->private = 0;
	for (unsigned int i = 1; i < n; i++) {
		page[i].flags = 0;
		page[i].compound_head = (unsigned long)page | 1;
		page[i]._refcount = 0;
		page[i].pp_magic = 0;
		page[i].pp = NULL;
	}
	set_page_count(page, 1);
	kasan_unpoison(page_address(page), PAGE_SIZE << order);
	if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << order);
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	struct page *page;

	if (order > MAX_PAGE_ORDER)
		return NULL;
	if (should_fail(UXDP_FAULT_PAGE, gfp))
		return NULL;
	pthread_mutex_lock(&zone_lock);
	page = free_area[order];
	if (page)
		free_area[order] = page->next;
	else
		page = chunk_carve(order);
	if (page)
		pages_in_use += 1L << order;
	pthread_mutex_unlock(&zone_lock);
	if (!page)
		return NULL;
	prep_new_page(page, order, gfp);
	return page;
}

/* Return a block with refcount zero to the free lists. */
static void free_pages_block(struct page *page)
{
	unsigned int order = compound_order(page);

	BUG_ON(PageTail(page));
	kasan_poison(page_address(page), PAGE_SIZE << order);
	pthread_mutex_lock(&zone_lock);
	pages_in_use -= 1L << order;
	if (PageSlab(page))
		pages_slab -= 1L << order;
	free_list_add(page, order);
	pthread_mutex_unlock(&zone_lock);
}

void (*page_pool_release_page)(struct page *page);

void __put_page(struct page *page)
{
	if (page->pp_magic == PP_SIGNATURE) {
		page_pool_release_page(page);
		return;
	}
	free_pages_block(page);
}

void __free_pages(struct page *page, unsigned int order)
{
	BUG_ON(compound_order(page) != order);
	put_page(page);
}

void *__get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	return page ? page_address(page) : NULL;
}

void free_pages(void *addr, unsigned int order)
{
	if (addr)
		__free_pages(virt_to_page(addr), order);
}

/* mm/slab.c: account a block as slab backing (or no longer). */
void __page_set_slab(struct page *page, struct kmem_cache *s)
{
	unsigned int order = compound_order(page);

	page->flags |= 1UL << PG_slab;
	page->slab_cache = s;
	pthread_mutex_lock(&zone_lock);
	pages_slab += 1L << order;
	pthread_mutex_unlock(&zone_lock);
}

long nr_pages_in_use(void)
{
	long n;

	pthread_mutex_lock(&zone_lock);
	n = pages_in_use - pages_slab;
	pthread_mutex_unlock(&zone_lock);
	return n;
}
