// SPDX-License-Identifier: GPL-2.0
/*
 * Page pool implementation (model and rules in <net/page_pool/types.h>).
 *
 * Allocation: the alloc cache first (no lock: only the owner context
 * allocates), then a refill of up to PP_ALLOC_CACHE_REFILL pages from the
 * ring (one lock round trip), then the page allocator.
 * Recycling: the last put of a pool page lands in the alloc cache when the
 * caller says it is the owner context (allow_direct), or runs in softirq
 * on the worker the pool was made for (page_pool_create_percpu()) or whose
 * poll list holds the pool's NAPI (p.napi: page_pool_napi_local()), and
 * there is room; else in the ring; a full ring
 * gives the page back to the page allocator.
 * Destruction: idle pages are released; in-flight pages are released as
 * they return; the struct goes with the last one (hold_cnt == release_cnt).
 *
 * Kernel: net/core/page_pool.c page_pool_create() page_pool_create_percpu()
 *	   page_pool_alloc_pages()
 *	   page_pool_put_unrefed_netmem() page_pool_destroy()
 * Differs: no DMA, no deferred-release worker (release happens on return),
 *	    no page fragments.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/err.h>
#include <linux/kasan.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/page_pool/helpers.h>

struct page_pool {
	struct page_pool_params p;
	int cpuid;			/* page_pool_create_percpu(); -1 if none */
	struct {
		unsigned int count;
		struct page *cache[PP_ALLOC_CACHE_SIZE];
	} alloc __aligned(SMP_CACHE_BYTES);
	struct page_pool_alloc_stats alloc_stats;	/* owner context only */
	u64 recycle_cached;				/* owner context only */
	u64 recycle_cache_full;
	u64 hold_cnt;					/* owner context only */

	pthread_spinlock_t ring_lock __aligned(SMP_CACHE_BYTES);
	struct page **ring;
	unsigned int ring_size;
	unsigned int ring_head;		/* oldest entry */
	unsigned int ring_count;
	bool destroyed;
	u64 release_cnt;		/* under ring_lock */
	u64 recycle_ring;
	u64 recycle_ring_full;
	u64 released_refcnt;
	u32 id;
};

static u32 page_pool_next_id;

struct page_pool *page_pool_create_percpu(const struct page_pool_params *params, int cpuid)
{
	struct page_pool *pool;
	unsigned int ring_size;

	if (!params || params->order > MAX_PAGE_ORDER || (params->flags & ~PP_FLAG_ALL))
		return ERR_PTR(-EINVAL);
	ring_size = params->pool_size ? params->pool_size : PP_RING_SIZE_DEFAULT;
	if (ring_size > 32768)
		return ERR_PTR(-E2BIG);
	pool = kzalloc(sizeof(*pool), GFP_KERNEL | __GFP_NOFAULT);
	if (!pool)
		return ERR_PTR(-ENOMEM);
	pool->ring = kcalloc(ring_size, sizeof(*pool->ring), GFP_KERNEL | __GFP_NOFAULT);
	if (!pool->ring)
		goto err_free_pool;
	pool->p = *params;
	pool->cpuid = cpuid;
	pool->ring_size = ring_size;
	pthread_spin_init(&pool->ring_lock, PTHREAD_PROCESS_PRIVATE);
	pool->id = __atomic_add_fetch(&page_pool_next_id, 1, __ATOMIC_RELAXED);
	return pool;

err_free_pool:
	kfree(pool);
	return ERR_PTR(-ENOMEM);
}

struct page_pool *page_pool_create(const struct page_pool_params *params)
{
	return page_pool_create_percpu(params, -1);
}

static void page_pool_free(struct page_pool *pool)
{
	pthread_spin_destroy(&pool->ring_lock);
	kfree(pool->ring);
	kfree(pool);
}

/* Give a page (refcount 0) back to the page allocator. */
static void page_pool_return_page(struct page *page)
{
	page->pp_magic = 0;
	page->pp = NULL;
	kasan_unpoison(page_address(page), PAGE_SIZE << compound_order(page));
	set_page_count(page, 1);
	put_page(page);
}

u32 page_pool_id(const struct page_pool *pool)
{
	return pool->id;
}

unsigned int page_pool_get_order(const struct page_pool *pool)
{
	return pool->p.order;
}

static struct page *page_pool_alloc_slow(struct page_pool *pool, gfp_t gfp)
{
	struct page *page;

	page = alloc_pages(gfp & ~__GFP_ZERO, pool->p.order);
	if (!page)
		return NULL;
	page->pp = pool;
	page->pp_magic = PP_SIGNATURE;
	pool->hold_cnt++;
	pool->alloc_stats.slow++;
	return page;
}

/* The ring slot after @i (no division on the hot path). */
static inline unsigned int ring_next(const struct page_pool *pool, unsigned int i)
{
	return ++i == pool->ring_size ? 0 : i;
}

/* Move up to PP_ALLOC_CACHE_REFILL pages from the ring to the empty cache. */
static void page_pool_refill_alloc_cache(struct page_pool *pool)
{
	unsigned int n = 0;

	/* unlocked peek: a stale answer only delays the refill */
	if (!__atomic_load_n(&pool->ring_count, __ATOMIC_RELAXED)) {
		pool->alloc_stats.empty++;
		return;
	}
	pthread_spin_lock(&pool->ring_lock);
	while (pool->ring_count && n < PP_ALLOC_CACHE_REFILL) {
		pool->alloc.cache[n++] = pool->ring[pool->ring_head];
		pool->ring_head = ring_next(pool, pool->ring_head);
		__atomic_store_n(&pool->ring_count, pool->ring_count - 1, __ATOMIC_RELAXED);
	}
	pthread_spin_unlock(&pool->ring_lock);
	pool->alloc.count = n;
	if (n)
		pool->alloc_stats.refill++;
	else
		pool->alloc_stats.empty++;
}

/* Pop the alloc cache, which must not be empty. */
static __always_inline struct page *__page_pool_get_cached(struct page_pool *pool)
{
	struct page *page = pool->alloc.cache[--pool->alloc.count];

	pool->alloc_stats.fast++;
	kasan_unpoison(page_address(page), PAGE_SIZE << pool->p.order);
	return page;
}

/*
 * An empty cache (refill from the ring, else a fresh page) or a zeroed
 * page: kept out of line so that the cached path saves no registers.
 */
static noinline struct page *__page_pool_alloc_pages_slow(struct page_pool *pool, gfp_t gfp)
{
	struct page *page;

	if (!pool->alloc.count)
		page_pool_refill_alloc_cache(pool);
	if (likely(pool->alloc.count)) {
		page = __page_pool_get_cached(pool);
	} else {
		page = page_pool_alloc_slow(pool, gfp);
		if (!page)
			return NULL;
	}
	set_page_count(page, 1);
	if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << pool->p.order);
	return page;
}

struct page *page_pool_alloc_pages(struct page_pool *pool, gfp_t gfp)
{
	struct page *page;

	if (unlikely(!pool->alloc.count || (gfp & __GFP_ZERO)))
		return __page_pool_alloc_pages_slow(pool, gfp);
	page = __page_pool_get_cached(pool);
	set_page_count(page, 1);
	return page;
}

/* Ring side of recycling (any context). */
static void page_pool_recycle_in_ring(struct page_pool *pool, struct page *page)
{
	bool release = false, free_pool = false;

	pthread_spin_lock(&pool->ring_lock);
	if (unlikely(pool->destroyed)) {
		pool->released_refcnt++;
		pool->release_cnt++;
		release = true;
		free_pool = pool->release_cnt == pool->hold_cnt;
	} else if (pool->ring_count < pool->ring_size) {
		unsigned int tail = pool->ring_head + pool->ring_count;

		if (tail >= pool->ring_size)
			tail -= pool->ring_size;
		pool->ring[tail] = page;
		__atomic_store_n(&pool->ring_count, pool->ring_count + 1, __ATOMIC_RELAXED);
		pool->recycle_ring++;
	} else {
		pool->recycle_ring_full++;
		pool->release_cnt++;
		release = true;
	}
	pthread_spin_unlock(&pool->ring_lock);
	if (release)
		page_pool_return_page(page);
	if (free_pool)
		page_pool_free(pool);
}

/*
 * page_pool_napi_local(): the caller runs in softirq in the context that
 * owns the pool's alloc cache, so it may recycle into the cache without
 * the ring's lock: the pool was made for this worker's CPU
 * (page_pool_create_percpu()), or its NAPI is on this worker's poll list.
 */
static bool page_pool_napi_local(const struct page_pool *pool)
{
	const struct napi_struct *napi;

	if (unlikely(!in_softirq()))
		return false;
	if (READ_ONCE(pool->cpuid) == smp_processor_id())
		return true;
	napi = READ_ONCE(pool->p.napi);
	return napi && READ_ONCE(napi->list_owner) == smp_processor_id();
}

static __always_inline void page_pool_recycle(struct page_pool *pool, struct page *page,
					      bool allow_direct)
{
	kasan_poison(page_address(page), PAGE_SIZE << pool->p.order);
	if (!allow_direct)
		allow_direct = page_pool_napi_local(pool);
	if (allow_direct && !READ_ONCE(pool->destroyed)) {
		if (likely(pool->alloc.count < PP_ALLOC_CACHE_SIZE)) {
			pool->alloc.cache[pool->alloc.count++] = page;
			pool->recycle_cached++;
			return;
		}
		pool->recycle_cache_full++;
	}
	page_pool_recycle_in_ring(pool, page);
}

/*
 * Drop one reference to head page @page; true if it was the last.
 * page_pool_unref_netmem(): the sole owner needs no atomic read-modify-
 * write; nobody else holds a reference that could race with it.
 */
static inline bool page_pool_unref_page_last(struct page *page)
{
	if (likely(__atomic_load_n(&page->_refcount, __ATOMIC_RELAXED) == 1)) {
		set_page_count(page, 0);
		return true;
	}
	return page_ref_dec_and_test(page);
}

void page_pool_put_full_page(struct page_pool *pool, struct page *page, bool allow_direct)
{
	page = compound_head(page);
	BUG_ON_MSG(page->pp != pool, "page_pool_put_full_page() of a page of another pool");
	if (page_pool_unref_page_last(page))
		page_pool_recycle(pool, page, allow_direct);
}

void page_pool_put_unrefed_page(struct page *page)
{
	page_pool_recycle(page->pp, page, false);
}

/* put_page() of a pool page comes home through here (include/linux/mm.h). */
__attribute__((constructor)) static void page_pool_init_release(void)
{
	page_pool_release_page = page_pool_put_unrefed_page;
}

bool napi_pp_put_page(struct page *page)
{
	page = compound_head(page);
	if (unlikely(!page_is_pp(page)))
		return false;
	if (page_pool_unref_page_last(page))
		page_pool_recycle(page->pp, page, false);
	return true;
}

void page_pool_put_page_bulk(void **data, int count)
{
	for (int i = 0; i < count; i++) {
		struct page *page = virt_to_head_page(data[i]);

		page_pool_put_full_page(page->pp, page, false);
	}
}

long page_pool_inflight(const struct page_pool *pool)
{
	return (long)(READ_ONCE(pool->hold_cnt) - READ_ONCE(pool->release_cnt));
}

unsigned int page_pool_idle(const struct page_pool *pool)
{
	return pool->alloc.count + __atomic_load_n(&pool->ring_count, __ATOMIC_RELAXED);
}

bool page_pool_get_stats(const struct page_pool *pool, struct page_pool_stats *stats)
{
	stats->alloc_stats = pool->alloc_stats;
	stats->recycle_stats.cached = pool->recycle_cached;
	stats->recycle_stats.cache_full = pool->recycle_cache_full;
	stats->recycle_stats.ring = READ_ONCE(pool->recycle_ring);
	stats->recycle_stats.ring_full = READ_ONCE(pool->recycle_ring_full);
	stats->recycle_stats.released_refcnt = READ_ONCE(pool->released_refcnt);
	return true;
}

void page_pool_destroy(struct page_pool *pool)
{
	struct page *idle[PP_ALLOC_CACHE_SIZE];
	unsigned int n;
	bool free_pool;

	if (!pool)
		return;
	/* The owner context is quiescent: the alloc cache is ours. */
	n = pool->alloc.count;
	memcpy(idle, pool->alloc.cache, n * sizeof(idle[0]));
	pool->alloc.count = 0;
	pthread_spin_lock(&pool->ring_lock);
	for (;;) {
		pool->release_cnt += n;
		pthread_spin_unlock(&pool->ring_lock);
		while (n)
			page_pool_return_page(idle[--n]);
		pthread_spin_lock(&pool->ring_lock);
		while (pool->ring_count && n < ARRAY_SIZE(idle)) {
			idle[n++] = pool->ring[pool->ring_head];
			pool->ring_head = ring_next(pool, pool->ring_head);
			pool->ring_count--;
		}
		if (!n)
			break;
	}
	pool->destroyed = true;
	free_pool = pool->release_cnt == pool->hold_cnt;
	pthread_spin_unlock(&pool->ring_lock);
	if (free_pool)
		page_pool_free(pool);
}
