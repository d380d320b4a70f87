// SPDX-License-Identifier: GPL-2.0
/*
 * Object caches with per-CPU magazines and a locked depot, plus kmalloc.
 *
 * Objects: a cache carves slabs (blocks of 2^order pages, marked PG_slab and
 * pointing back at the cache, so kfree() finds the cache from an address)
 * into objects of s->size bytes. Free objects live in two places:
 *   - the per-CPU magazine s->cpu[cpu].entry[], touched only by that CPU,
 *     with no lock and no atomic: alloc pops, free pushes;
 *   - the depot, a list threaded through the free objects, under s->lock.
 * An empty magazine refills SLAB_BATCH objects from the depot (growing the
 * cache by a slab when the depot is empty); a full one flushes SLAB_BATCH
 * objects to it. Bulk calls move whole runs between the caller's array and
 * the magazine, and go to the depot once per SLAB_BATCH.
 *
 * Accounting: each CPU counts its allocs and frees (plain stores, one
 * writer); live = sum(allocs) - sum(frees). The leak check walks all caches.
 *
 * Roadmap: kmem_cache_create() -> kmem_cache_alloc()/_bulk() ->
 * cache_refill() -> cache_grow(); kmem_cache_free()/_bulk() ->
 * cache_flush(); kmalloc() -> kmalloc_caches[] or alloc_pages().
 *
 * Kernel: mm/slub.c kmem_cache_alloc_bulk() kmem_cache_free_bulk(),
 *	   mm/slab_common.c kmalloc_size_roundup() kmalloc caches
 * Differs: magazines instead of SLUB per-CPU slabs; memory is not returned
 *	    to the page allocator until kmem_cache_destroy().
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/kasan.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include <uxdp/uxdp.h>

#define SLAB_MAG_SIZE	64
#define SLAB_BATCH	32

struct kmem_cache_cpu {
	unsigned int avail;
	unsigned long allocs;
	unsigned long frees;
	void *entry[SLAB_MAG_SIZE];
} __aligned(SMP_CACHE_BYTES);

struct kmem_cache {
	struct kmem_cache_cpu cpu[NR_CPUS];
	char name[32];
	unsigned int object_size;
	unsigned int size;		/* object stride, aligned */
	unsigned int order;		/* slab size 2^order pages */
	pthread_mutex_t lock;		/* protects everything below */
	void *depot;			/* free objects linked through word 0 */
	unsigned long depot_nr;
	struct page *slabs;		/* all slabs of the cache, via page->next */
	struct kmem_cache *next;	/* cache_list */
};

void __page_set_slab(struct page *page, struct kmem_cache *s);

static pthread_mutex_t cache_list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kmem_cache *cache_list;

static const unsigned int kmalloc_sizes[] = {
	8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192,
};
static struct kmem_cache *kmalloc_caches[ARRAY_SIZE(kmalloc_sizes)];

/* Depot links live in the first word of a free (poisoned) object. */
static inline void *depot_get_link(void *obj)
{
	void *next;

	kasan_unpoison(obj, sizeof(void *));
	next = *(void **)obj;
	kasan_poison(obj, sizeof(void *));
	return next;
}

static inline void depot_set_link(void *obj, void *next)
{
	kasan_unpoison(obj, sizeof(void *));
	*(void **)obj = next;
	kasan_poison(obj, sizeof(void *));
}

/* Add a new slab's objects to the depot; s->lock held. */
static int cache_grow(struct kmem_cache *s)
{
	struct page *page = alloc_pages(0, s->order);
	unsigned int n;
	char *base;

	if (!page)
		return -ENOMEM;
	__page_set_slab(page, s);
	page->next = s->slabs;
	s->slabs = page;
	base = page_address(page);
	n = (PAGE_SIZE << s->order) / s->size;
	kasan_poison(base, PAGE_SIZE << s->order);
	for (unsigned int i = n; i-- > 0;) {
		void *obj = base + (size_t)i * s->size;

		depot_set_link(obj, s->depot);
		s->depot = obj;
	}
	s->depot_nr += n;
	return 0;
}

/*
 * Move up to @want objects from the depot into @dst; grows the cache when
 * the depot runs dry. Returns how many were moved (< @want only when a slab
 * could not be allocated).
 */
static unsigned int cache_refill(struct kmem_cache *s, void **dst, unsigned int want)
{
	unsigned int got = 0;

	pthread_mutex_lock(&s->lock);
	while (got < want) {
		if (!s->depot && cache_grow(s))
			break;
		dst[got++] = s->depot;
		s->depot = depot_get_link(s->depot);
		s->depot_nr--;
	}
	pthread_mutex_unlock(&s->lock);
	return got;
}

static void cache_flush(struct kmem_cache *s, void **src, unsigned int n)
{
	pthread_mutex_lock(&s->lock);
	for (unsigned int i = 0; i < n; i++) {
		depot_set_link(src[i], s->depot);
		s->depot = src[i];
	}
	s->depot_nr += n;
	pthread_mutex_unlock(&s->lock);
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, unsigned long flags,
				     void (*ctor)(void *))
{
	struct kmem_cache *s;

	BUG_ON(ctor);
	if (!size || size > KMALLOC_MAX_CACHE_SIZE)
		return NULL;
	if (align < sizeof(void *))
		align = sizeof(void *);
	if (flags & SLAB_HWCACHE_ALIGN)
		align = max_t(unsigned int, align, SMP_CACHE_BYTES);
	s = aligned_alloc(SMP_CACHE_BYTES, ALIGN(sizeof(*s), SMP_CACHE_BYTES));
	if (!s)
		return NULL;
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name ? name : "?");
	s->object_size = size;
	s->size = ALIGN(size, align);
	/* At least 16 objects per slab, at most 32 pages. */
	s->order = min_t(unsigned int, get_order((unsigned long)s->size * 16), 5);
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_lock(&cache_list_lock);
	s->next = cache_list;
	cache_list = s;
	pthread_mutex_unlock(&cache_list_lock);
	return s;
}

long kmem_cache_live_objects(const struct kmem_cache *s)
{
	long live = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		live += (long)(READ_ONCE(s->cpu[cpu].allocs) - READ_ONCE(s->cpu[cpu].frees));
	return live;
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	struct kmem_cache **pp;
	struct page *page;

	if (!s)
		return;
	BUG_ON_MSG(kmem_cache_live_objects(s) != 0,
		   "kmem_cache_destroy() of a cache with live objects");
	pthread_mutex_lock(&cache_list_lock);
	for (pp = &cache_list; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	pthread_mutex_unlock(&cache_list_lock);
	while ((page = s->slabs)) {
		s->slabs = page->next;
		page->slab_cache = NULL;
		__free_pages(page, s->order);
	}
	pthread_mutex_destroy(&s->lock);
	free(s);
}

static inline void object_prep(struct kmem_cache *s, void *obj, gfp_t flags)
{
	kasan_unpoison(obj, s->object_size);
	if (flags & __GFP_ZERO)
		memset(obj, 0, s->object_size);
}

/* Empty magazine: refill it from the depot (growing the cache if needed). */
static noinline void *kmem_cache_alloc_refill(struct kmem_cache *s, struct kmem_cache_cpu *c,
					      gfp_t flags)
{
	void *obj;

	c->avail = cache_refill(s, c->entry, SLAB_BATCH);
	if (unlikely(!c->avail))
		return NULL;
	obj = c->entry[--c->avail];
	c->allocs++;
	object_prep(s, obj, flags);
	return obj;
}

static noinline void *kmem_cache_alloc_fault(struct kmem_cache *s, gfp_t flags)
{
	if (should_fail(UXDP_FAULT_SLAB, flags))
		return NULL;
	return kmem_cache_alloc(s, flags | __GFP_NOFAULT);
}

void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags)
{
	struct kmem_cache_cpu *c;
	void *obj;

	/* Fast path: one flag test, then a pop from this CPU's magazine. */
	if (unlikely(READ_ONCE(uxdp_fault_armed)) && !(flags & __GFP_NOFAULT))
		return kmem_cache_alloc_fault(s, flags);
	c = &s->cpu[smp_processor_id()];
	if (unlikely(!c->avail))
		return kmem_cache_alloc_refill(s, c, flags | __GFP_NOFAULT);
	obj = c->entry[--c->avail];
	c->allocs++;
	object_prep(s, obj, flags);
	return obj;
}

/* Full magazine: move the oldest SLAB_BATCH objects to the depot. */
static noinline void kmem_cache_free_flush(struct kmem_cache *s, struct kmem_cache_cpu *c)
{
	cache_flush(s, c->entry, SLAB_BATCH);
	memmove(c->entry, c->entry + SLAB_BATCH, (c->avail - SLAB_BATCH) * sizeof(void *));
	c->avail -= SLAB_BATCH;
}

/* Push @obj onto this CPU's magazine; the caller checked its cache. */
static inline void __kmem_cache_free(struct kmem_cache *s, void *obj)
{
	struct kmem_cache_cpu *c;

	kasan_poison(obj, s->size);
	c = &s->cpu[smp_processor_id()];
	if (unlikely(c->avail == SLAB_MAG_SIZE))
		kmem_cache_free_flush(s, c);
	c->entry[c->avail++] = obj;
	c->frees++;
}

void kmem_cache_free(struct kmem_cache *s, void *obj)
{
	if (unlikely(!obj))
		return;
	BUG_ON_MSG(virt_to_head_page(obj)->slab_cache != s,
		   "kmem_cache_free() of an object from another cache");
	__kmem_cache_free(s, obj);
}

int kmem_cache_alloc_bulk(struct kmem_cache *s, gfp_t flags, size_t size, void **p)
{
	struct kmem_cache_cpu *c = &s->cpu[smp_processor_id()];
	size_t i = 0;

	if (unlikely(should_fail(UXDP_FAULT_SLAB, flags)))
		return 0;
	while (i < size) {
		size_t take = min_t(size_t, c->avail, size - i);

		if (take) {
			/* Hand out the magazine's top run, newest first. */
			for (size_t k = 0; k < take; k++)
				p[i + k] = c->entry[c->avail - 1 - k];
			c->avail -= take;
			i += take;
			continue;
		}
		if (size - i >= SLAB_BATCH) {
			unsigned int want = size - i > SLAB_MAG_SIZE ? SLAB_MAG_SIZE :
					    (unsigned int)(size - i);
			unsigned int got = cache_refill(s, &p[i], want);

			i += got;
			if (got < want)
				goto fail;
			continue;
		}
		c->avail = cache_refill(s, c->entry, SLAB_BATCH);
		if (!c->avail)
			goto fail;
	}
	c->allocs += size;
	for (i = 0; i < size; i++)
		object_prep(s, p[i], flags);
	return (int)size;
fail:
	/* All or nothing: the objects taken so far go back, uncounted. */
	cache_flush(s, p, i);
	return 0;
}

void kmem_cache_free_bulk(struct kmem_cache *s, size_t size, void **p)
{
	for (size_t i = 0; i < size; i++)
		kmem_cache_free(s, p[i]);
}

unsigned int kmem_cache_size(const struct kmem_cache *s)
{
	return s->object_size;
}

/*
 * Bucket of a kmalloc(@size), 0 < @size <= KMALLOC_MAX_CACHE_SIZE, without a
 * search: sizes up to 192 B by an 8-byte-step table (the kernel's
 * size_index[], for the 96 and 192 B buckets between the powers of two),
 * larger ones by fls() of size - 1 (a 512 B bucket for 257..512, and so on).
 */
static const u8 kmalloc_size_index[24] = {
	0, 1, 2, 2, 3, 3, 3, 3,		/*   8 ..  64 */
	4, 4, 4, 4, 5, 5, 5, 5,		/*  72 .. 128 */
	6, 6, 6, 6, 6, 6, 6, 6,		/* 136 .. 192 */
};

static inline int kmalloc_index(size_t size)
{
	if (size <= 192)
		return kmalloc_size_index[(size - 1) / 8];
	if (size <= 256)
		return 7;
	return 31 - __builtin_clz((unsigned int)size - 1);	/* fls(size - 1) - 1 */
}

__attribute__((constructor(101))) static void kmalloc_init(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(kmalloc_sizes); i++) {
		char name[32];

		snprintf(name, sizeof(name), "kmalloc-%u", kmalloc_sizes[i]);
		kmalloc_caches[i] = kmem_cache_create(name, kmalloc_sizes[i], 0, 0, NULL);
		BUG_ON(!kmalloc_caches[i]);
	}
}

size_t __kmalloc_size_roundup(size_t size)
{
	int idx;

	if (size <= KMALLOC_MAX_CACHE_SIZE) {
		idx = kmalloc_index(size ? size : 1);
		return kmalloc_sizes[idx];
	}
	if (size > KMALLOC_MAX_ORDER_SIZE)
		return size;
	return PAGE_SIZE << get_order(size);
}

void *kmalloc(size_t size, gfp_t flags)
{
	struct page *page;
	int idx;

	if (likely(size <= KMALLOC_MAX_CACHE_SIZE)) {
		idx = kmalloc_index(size ? size : 1);
		return kmem_cache_alloc(kmalloc_caches[idx], flags);
	}
	if (size > KMALLOC_MAX_ORDER_SIZE)
		return NULL;
	if (should_fail(UXDP_FAULT_SLAB, flags))
		return NULL;
	page = alloc_pages(flags, get_order(size));
	if (!page)
		return NULL;
	page->flags |= 1UL << PG_large_kmalloc;
	return page_address(page);
}

void kfree(const void *objp)
{
	struct page *page;

	if (!objp)
		return;
	page = virt_to_head_page(objp);
	if (PageSlab(page)) {
		__kmem_cache_free(page->slab_cache, (void *)objp);
		return;
	}
	BUG_ON_MSG(!(page->flags & (1UL << PG_large_kmalloc)),
		   "kfree() of memory kmalloc() did not return");
	BUG_ON(page_address(page) != objp);
	page->flags &= ~(1UL << PG_large_kmalloc);
	__free_pages(page, compound_order(page));
}

size_t ksize(const void *objp)
{
	struct page *page = virt_to_head_page(objp);

	if (PageSlab(page))
		return page->slab_cache->size;
	return PAGE_SIZE << compound_order(page);
}

bool uxdp_mem_leak_check(char *why, size_t len)
{
	size_t off = 0;
	bool ok = true;
	long pages;

	if (why && len)
		why[0] = '\0';
	pthread_mutex_lock(&cache_list_lock);
	for (struct kmem_cache *s = cache_list; s; s = s->next) {
		long live = kmem_cache_live_objects(s);

		if (!live)
			continue;
		ok = false;
		if (why && off < len)
			off += snprintf(why + off, len - off, "%s: %ld live objects; ",
					s->name, live);
	}
	pthread_mutex_unlock(&cache_list_lock);
	pages = nr_pages_in_use();
	if (pages) {
		ok = false;
		if (why && off < len)
			snprintf(why + off, len - off, "pages: %ld in use", pages);
	}
	return ok;
}

int uxdp_mem_check(char *why, size_t len)
{
	return uxdp_mem_leak_check(why, len) ? 0 : -EBUSY;
}
