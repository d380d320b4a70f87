/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Object caches (kmem_cache) and kmalloc, built for the packet fast path:
 * each cache has one magazine of free objects per CPU (= per uxdp worker,
 * <linux/smp.h>), used without locks or atomics, and a locked depot behind
 * the magazines that exchanges objects in batches of SLAB_BATCH. Bulk calls
 * move many objects per call. Every cache counts live objects per CPU, so a
 * leak check can prove that everything came back.
 *
 * Threading rule (as the kernel's per-CPU data): at any time at most one
 * thread runs as a given CPU. Unbound threads run as CPU 0 (<linux/smp.h>),
 * so the control plane must not allocate while worker 0 runs unless it
 * binds itself to a CPU of its own.
 *
 * Fault injection (the kernel's failslab / fail_page_alloc): a failure rate
 * and a one-shot countdown per site, set from code with uxdp_fault_set() /
 * uxdp_fault_fail_nth(), or at start-up from the environment:
 *
 *	UXDP_FAULT=slab:1/100,page:1/1000	fail 1 in 100 slab allocations
 *						and 1 in 1000 page allocations
 *	UXDP_FAULT=slab:nth=5			fail the 5th slab allocation only
 *
 * Site "slab" covers kmem_cache_alloc(), kmem_cache_alloc_bulk() (one
 * draw per bulk call: the whole call fails) and kmalloc(); site "page"
 * covers alloc_pages() (page_pool slow path, large kmalloc, slab growth).
 * Allocations with __GFP_NOFAULT are never failed.
 *
 * Kernel: include/linux/slab.h mm/slub.c kmem_cache_alloc_bulk()
 *	   mm/failslab.c mm/fail_page_alloc.c lib/fault-inject.c
 * Differs: magazines (Bonwick) instead of SLUB per-CPU slabs; no NUMA;
 *	    caches never give memory back to the page allocator.
 */
#ifndef _UXDP_LINUX_SLAB_H
#define _UXDP_LINUX_SLAB_H

#include <linux/compiler.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/types.h>

#define SLAB_HWCACHE_ALIGN	0x2000UL	/* align objects to SMP_CACHE_BYTES */
#define SLAB_PANIC		0x40000UL	/* accepted, no effect */

#define KMALLOC_MIN_SIZE	8
#define KMALLOC_MAX_CACHE_SIZE	8192	/* larger kmalloc()s take whole pages */
/*
 * The kernel's x86-64 limit (MAX_PAGE_ORDER 10), spelled exactly as the
 * stand-in in <linux/bpf.h> so either header may come first. uxdp's
 * allocator stops at KMALLOC_MAX_ORDER_SIZE: larger kmalloc()s fail.
 */
#define KMALLOC_MAX_SIZE	(1UL << 22)
#define KMALLOC_MAX_ORDER_SIZE	(PAGE_SIZE << MAX_PAGE_ORDER)

struct kmem_cache;

/**
 * kmem_cache_create() - create an object cache
 * @name: shown by the leak check; copied
 * @size: object size in bytes (> 0)
 * @align: minimum alignment (0: 8), a power of two
 * @flags: SLAB_HWCACHE_ALIGN
 * @ctor: unused, must be NULL (kept for the kernel's signature)
 *
 * Return: the cache, or NULL on allocation failure.
 */
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, unsigned long flags,
				     void (*ctor)(void *));
/* Destroy a cache; it must have no live objects (BUG otherwise). Accepts NULL. */
void kmem_cache_destroy(struct kmem_cache *s);

void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags);
void kmem_cache_free(struct kmem_cache *s, void *objp);

static inline void *kmem_cache_zalloc(struct kmem_cache *s, gfp_t flags)
{
	return kmem_cache_alloc(s, flags | __GFP_ZERO);
}

/**
 * kmem_cache_alloc_bulk() - allocate @size objects in one call
 * @s: cache
 * @flags: __GFP_ZERO zeroes every object
 * @size: number of objects
 * @p: receives the objects
 *
 * All or nothing, as the kernel's.
 * Return: @size on success, 0 on failure (nothing allocated, nothing leaked).
 */
int kmem_cache_alloc_bulk(struct kmem_cache *s, gfp_t flags, size_t size, void **p);
void kmem_cache_free_bulk(struct kmem_cache *s, size_t size, void **p);

unsigned int kmem_cache_size(const struct kmem_cache *s);
/* uxdp: objects allocated and not yet freed, summed over CPUs. */
long kmem_cache_live_objects(const struct kmem_cache *s);

void *kmalloc(size_t size, gfp_t flags);
void kfree(const void *objp);
/* Usable size of a kmalloc()ed object (the bucket size). */
size_t ksize(const void *objp);
/* The size kmalloc(@size) really allocates (bucket or page-order size). */
size_t __kmalloc_size_roundup(size_t size);

static inline size_t kmalloc_size_roundup(size_t size)
{
	/* Above 256 B the buckets are the powers of two (skb heads). */
	if (size > 256 && size <= KMALLOC_MAX_CACHE_SIZE)
		return (size_t)1 << (64 - __builtin_clzl(size - 1));
	return __kmalloc_size_roundup(size);
}

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return kmalloc(n * size, flags | __GFP_ZERO);
}

/**
 * uxdp_mem_leak_check() - are all slab objects and pages back?
 * @why: receives a description of the first leaks found ("skbuff_head_cache:
 *	 2 live objects; pages: 1 in use"); may be NULL
 * @len: size of @why
 *
 * Idle objects in magazines and idle pages in page pools are not leaks;
 * page pools themselves must have been destroyed.
 * Return: true when nothing is live.
 */
bool uxdp_mem_leak_check(char *why, size_t len);

enum uxdp_fault_site {
	UXDP_FAULT_SLAB,
	UXDP_FAULT_PAGE,
	UXDP_FAULT_NR,
};

/* Fail @num out of every @den calls at @site at random (@num 0: off). */
void uxdp_fault_set(enum uxdp_fault_site site, unsigned int num, unsigned int den);
/* Fail exactly the @nth next call at @site (1: the next one), once. 0: off. */
void uxdp_fault_fail_nth(enum uxdp_fault_site site, unsigned int nth);
/* Turn all injection off (the env setting too). */
void uxdp_fault_clear(void);
/* How many failures were injected at @site so far. */
unsigned long uxdp_fault_injected(enum uxdp_fault_site site);
/* Parse a UXDP_FAULT-style spec; 0 or -EINVAL (nothing changed). */
int uxdp_fault_parse(const char *spec);

/* internal: one fault draw at @site; true means "fail this allocation" */
extern int uxdp_fault_armed;
bool __should_fail(enum uxdp_fault_site site);

static inline bool should_fail(enum uxdp_fault_site site, gfp_t gfp)
{
	if (likely(!READ_ONCE(uxdp_fault_armed)) || (gfp & __GFP_NOFAULT))
		return false;
	return __should_fail(site);
}

#endif
