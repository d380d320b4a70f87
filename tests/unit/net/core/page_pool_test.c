// SPDX-License-Identifier: GPL-2.0
/*
 * page_pool: fast/slow allocation, direct recycling into the alloc cache,
 * put_page() of a pool page landing in the ring, ring overflow, no page
 * allocation in steady state, destroy with pages in flight.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include <linux/err.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <net/page_pool/helpers.h>

#include "uxdp_test.h"

static void leak_teardown(void)
{
	char why[512];

	uxdp_fault_clear();
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}

static struct page_pool *pool_create(unsigned int order, unsigned int size)
{
	struct page_pool_params pp = { .order = order, .pool_size = size };
	struct page_pool *pool = page_pool_create(&pp);

	ck_assert(!IS_ERR(pool));
	return pool;
}

START_TEST(test_create_invalid)
{
	struct page_pool_params pp = { .order = MAX_PAGE_ORDER + 1 };

	ck_assert_int_eq(PTR_ERR(page_pool_create(&pp)), -EINVAL);
	pp.order = 0;
	pp.flags = 0x100;
	ck_assert_int_eq(PTR_ERR(page_pool_create(&pp)), -EINVAL);
	ck_assert_int_eq(PTR_ERR(page_pool_create(NULL)), -EINVAL);
	page_pool_destroy(NULL);
}
END_TEST

START_TEST(test_alloc_recycle_direct)
{
	struct page_pool *pool = pool_create(0, 64);
	struct page_pool_stats st;
	struct page *page, *again;

	page = page_pool_dev_alloc_pages(pool);
	ck_assert_ptr_nonnull(page);
	ck_assert_ptr_eq(page->pp, pool);
	ck_assert(page_is_pp(page));
	ck_assert_int_eq(page_ref_count(page), 1);
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.alloc_stats.slow, 1);
	ck_assert_uint_eq(st.alloc_stats.fast, 0);
	page_pool_recycle_direct(pool, page);
	again = page_pool_dev_alloc_pages(pool);
	ck_assert_ptr_eq(again, page);
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.alloc_stats.fast, 1);
	ck_assert_uint_eq(st.recycle_stats.cached, 1);
	ck_assert_int_eq(page_pool_inflight(pool), 1);
	page_pool_put_full_page(pool, again, true);
	page_pool_destroy(pool);
}
END_TEST

START_TEST(test_steady_state_no_allocation)
{
	struct page_pool *pool = pool_create(0, 256);
	struct page *pages[64];
	struct page_pool_stats st;
	long in_use;

	for (int i = 0; i < 64; i++)
		pages[i] = page_pool_dev_alloc_pages(pool);
	for (int i = 0; i < 64; i++)
		page_pool_recycle_direct(pool, pages[i]);
	in_use = nr_pages_in_use();
	for (int round = 0; round < 1000; round++) {
		for (int i = 0; i < 64; i++) {
			pages[i] = page_pool_dev_alloc_pages(pool);
			ck_assert_ptr_nonnull(pages[i]);
		}
		for (int i = 0; i < 64; i++) {
			/* half come back through put_page() (ring), half direct */
			if (i % 2)
				put_page(pages[i]);
			else
				page_pool_recycle_direct(pool, pages[i]);
		}
	}
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.alloc_stats.slow, 64);
	ck_assert_int_eq(nr_pages_in_use(), in_use);
	ck_assert_uint_gt(st.recycle_stats.ring, 0);
	ck_assert_uint_gt(st.alloc_stats.refill, 0);
	page_pool_destroy(pool);
}
END_TEST

START_TEST(test_put_page_returns_to_pool)
{
	struct page_pool *pool = pool_create(0, 16);
	struct page_pool_stats st;
	struct page *page = page_pool_dev_alloc_pages(pool);

	get_page(page);			/* shared, e.g. by two skbs */
	put_page(page);
	ck_assert_uint_eq(page_pool_idle(pool), 0);
	put_page(page);			/* last reference: back to the ring */
	ck_assert_uint_eq(page_pool_idle(pool), 1);
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.recycle_stats.ring, 1);
	ck_assert_ptr_eq(page_pool_dev_alloc_pages(pool), page);
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.alloc_stats.refill, 1);
	page_pool_put_full_page(pool, page, false);
	page_pool_destroy(pool);
}
END_TEST

/*
 * put_page() of a pool page from softirq on the worker whose poll list holds
 * the pool's NAPI goes to the alloc cache (page_pool_napi_local()); outside
 * softirq, or with the NAPI on another worker's list, to the ring.
 */
START_TEST(test_put_page_napi_local)
{
	struct napi_struct napi = { .list_owner = -1 };
	struct page_pool_params pp = { .order = 0, .pool_size = 64, .napi = &napi };
	struct page_pool *pool = page_pool_create(&pp);
	struct page_pool_stats st;
	struct page *page;

	ck_assert(!IS_ERR(pool));
	uxdp_worker_bind_cpu(0);
	page = page_pool_dev_alloc_pages(pool);
	napi.list_owner = 0;
	put_page(page);				/* not in softirq: ring */
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.recycle_stats.ring, 1);
	ck_assert_uint_eq(st.recycle_stats.cached, 0);

	page = page_pool_dev_alloc_pages(pool);
	uxdp_softirq_count++;
	put_page(page);				/* softirq, NAPI on our list: cache */
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.recycle_stats.cached, 1);

	page = page_pool_dev_alloc_pages(pool);
	napi.list_owner = 1;
	put_page(page);				/* NAPI on another worker's list: ring */
	napi.list_owner = -1;
	page = page_pool_dev_alloc_pages(pool);
	put_page(page);				/* NAPI on no list: ring */
	uxdp_softirq_count--;
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.recycle_stats.cached, 1);
	ck_assert_uint_eq(st.recycle_stats.ring, 3);
	page_pool_destroy(pool);
}
END_TEST

/*
 * A pool made for CPU 0 (page_pool_create_percpu()), with no NAPI: a put
 * from softirq on CPU 0 recycles into the alloc cache; outside softirq, or
 * from another CPU, into the ring.
 */
START_TEST(test_put_page_percpu)
{
	struct page_pool_params pp = { .order = 0, .pool_size = 64 };
	struct page_pool *pool = page_pool_create_percpu(&pp, 0);
	struct page_pool_stats st;
	struct page *page;

	ck_assert(!IS_ERR(pool));
	uxdp_worker_bind_cpu(0);
	page = page_pool_dev_alloc_pages(pool);
	put_page(page);				/* not in softirq: ring */
	uxdp_softirq_count++;
	page = page_pool_dev_alloc_pages(pool);
	put_page(page);				/* softirq on CPU 0: cache */
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.recycle_stats.ring, 1);
	ck_assert_uint_eq(st.recycle_stats.cached, 1);

	page = page_pool_dev_alloc_pages(pool);
	uxdp_worker_bind_cpu(1);
	put_page(page);				/* softirq on CPU 1: ring */
	uxdp_softirq_count--;
	uxdp_worker_bind_cpu(0);
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.recycle_stats.ring, 2);
	ck_assert_uint_eq(st.recycle_stats.cached, 1);
	page_pool_destroy(pool);
}
END_TEST

START_TEST(test_ring_and_cache_full)
{
	struct page_pool *pool = pool_create(0, 4);
	struct page *pages[200];
	struct page_pool_stats st;

	for (int i = 0; i < 10; i++)
		pages[i] = page_pool_dev_alloc_pages(pool);
	for (int i = 0; i < 10; i++)
		page_pool_put_full_page(pool, pages[i], false);
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.recycle_stats.ring, 4);
	ck_assert_uint_eq(st.recycle_stats.ring_full, 6);
	ck_assert_int_eq(page_pool_inflight(pool), 4);
	page_pool_destroy(pool);

	pool = pool_create(0, 1024);
	for (int i = 0; i < PP_ALLOC_CACHE_SIZE + 1; i++)
		pages[i] = page_pool_dev_alloc_pages(pool);
	for (int i = 0; i < PP_ALLOC_CACHE_SIZE + 1; i++)
		page_pool_recycle_direct(pool, pages[i]);
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.recycle_stats.cached, PP_ALLOC_CACHE_SIZE);
	ck_assert_uint_eq(st.recycle_stats.cache_full, 1);
	ck_assert_uint_eq(st.recycle_stats.ring, 1);
	page_pool_destroy(pool);
}
END_TEST

START_TEST(test_destroy_with_inflight)
{
	struct page_pool *pool = pool_create(1, 16);
	struct page *a = page_pool_dev_alloc_pages(pool);
	struct page *b = page_pool_dev_alloc_pages(pool);

	ck_assert_uint_eq(compound_order(a), 1);
	memset(page_address(a), 1, 2 * PAGE_SIZE);
	page_pool_recycle_direct(pool, b);
	page_pool_destroy(pool);	/* b released now, a still out */
	ck_assert_int_eq(nr_pages_in_use(), 2);
	put_page(a);			/* last page: releases the pool too */
	ck_assert_int_eq(nr_pages_in_use(), 0);
}
END_TEST

START_TEST(test_alloc_failure)
{
	struct page_pool *pool = pool_create(0, 16);
	unsigned int sz = 100;
	void *va;

	uxdp_fault_fail_nth(UXDP_FAULT_PAGE, 1);
	ck_assert_ptr_null(page_pool_dev_alloc_pages(pool));
	va = page_pool_dev_alloc_va(pool, &sz);
	ck_assert_ptr_nonnull(va);
	ck_assert_uint_eq(sz, PAGE_SIZE);
	page_pool_free_va(pool, va, true);
	sz = PAGE_SIZE + 1;
	ck_assert_ptr_null(page_pool_dev_alloc_va(pool, &sz));
	page_pool_destroy(pool);
}
END_TEST

START_TEST(test_bulk_put)
{
	struct page_pool *pool = pool_create(0, 64);
	void *data[20];

	for (int i = 0; i < 20; i++)
		data[i] = (char *)page_address(page_pool_dev_alloc_pages(pool)) + 100;
	page_pool_put_page_bulk(data, 20);
	ck_assert_uint_eq(page_pool_idle(pool), 20);
	page_pool_destroy(pool);
}
END_TEST

/*
 * Cross-thread returns: the owner (CPU 0) allocates and hands pages to a
 * consumer thread (CPU 1) through a single-producer ring; the consumer
 * put_page()s them, which lands them in the pool's locked ring, where the
 * owner's refills find them again.
 */
#define XRING	256
#define XPAGES	20000
static struct page *xring[XRING];
static unsigned long xhead, xtail;	/* producer / consumer positions */

static void *xconsumer(void *arg)
{
	unsigned long done = 0;

	uxdp_worker_bind_cpu(1);
	while (done < XPAGES) {
		unsigned long head = __atomic_load_n(&xhead, __ATOMIC_ACQUIRE);

		if (xtail == head)
			sched_yield();
		while (xtail < head) {
			struct page *page = xring[xtail % XRING];

			/* the owner wrote the page; check before giving it back */
			if (*(unsigned long *)page_address(page) != xtail)
				return (void *)1L;
			put_page(page);
			__atomic_store_n(&xtail, xtail + 1, __ATOMIC_RELEASE);
			done++;
		}
	}
	return NULL;
}

START_TEST(test_cross_thread_returns)
{
	struct page_pool *pool;
	struct page_pool_stats st;
	pthread_t t;
	void *ret;

	ck_assert_int_eq(uxdp_set_nr_cpus(2), 0);
	uxdp_worker_bind_cpu(0);
	pool = pool_create(0, 512);
	xhead = xtail = 0;
	ck_assert_int_eq(pthread_create(&t, NULL, xconsumer, NULL), 0);
	for (unsigned long i = 0; i < XPAGES; i++) {
		struct page *page;

		while (i - __atomic_load_n(&xtail, __ATOMIC_ACQUIRE) >= XRING)
			sched_yield();	/* consumer is behind */
		page = page_pool_dev_alloc_pages(pool);
		ck_assert_ptr_nonnull(page);
		*(unsigned long *)page_address(page) = i;
		xring[i % XRING] = page;
		__atomic_store_n(&xhead, i + 1, __ATOMIC_RELEASE);
	}
	pthread_join(t, &ret);
	ck_assert_ptr_null(ret);
	page_pool_get_stats(pool, &st);
	ck_assert_uint_eq(st.alloc_stats.fast + st.alloc_stats.slow, XPAGES);
	/* pages were reused, not allocated per packet */
	ck_assert_uint_lt(st.alloc_stats.slow, 2 * XRING + PP_ALLOC_CACHE_SIZE + 512);
	ck_assert_int_eq(page_pool_inflight(pool), (long)page_pool_idle(pool));
	page_pool_destroy(pool);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("net/core/page_pool");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, leak_teardown);
	tcase_add_test(tc, test_create_invalid);
	tcase_add_test(tc, test_alloc_recycle_direct);
	tcase_add_test(tc, test_steady_state_no_allocation);
	tcase_add_test(tc, test_put_page_returns_to_pool);
	tcase_add_test(tc, test_put_page_napi_local);
	tcase_add_test(tc, test_put_page_percpu);
	tcase_add_test(tc, test_ring_and_cache_full);
	tcase_add_test(tc, test_destroy_with_inflight);
	tcase_add_test(tc, test_alloc_failure);
	tcase_add_test(tc, test_bulk_put);
	tcase_add_test(tc, test_cross_thread_returns);
	suite_add_tcase(s, tc);
	return s;
}
