// SPDX-License-Identifier: GPL-2.0
/*
 * Object caches: magazines, bulk allocation (all or nothing, zeroing),
 * live-object accounting, kmalloc bucket sizes, fault injection (from code
 * and from the UXDP_FAULT syntax), cross-CPU frees and threads.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "uxdp_test.h"

static void leak_teardown(void)
{
	char why[512];

	uxdp_fault_clear();
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}

START_TEST(test_cache_alloc_free)
{
	struct kmem_cache *s = kmem_cache_create("test_obj", 100, 0, 0, NULL);
	void *a, *b;

	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(kmem_cache_size(s), 100);
	a = kmem_cache_alloc(s, GFP_KERNEL);
	b = kmem_cache_zalloc(s, GFP_KERNEL);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_ne(a, b);
	ck_assert_uint_eq((unsigned long)a % 8, 0);
	for (int i = 0; i < 100; i++)
		ck_assert_uint_eq(((unsigned char *)b)[i], 0);
	ck_assert_int_eq(kmem_cache_live_objects(s), 2);
	kmem_cache_free(s, a);
	ck_assert_int_eq(kmem_cache_live_objects(s), 1);
	/* LIFO magazine: the object just freed comes back first */
	ck_assert_ptr_eq(kmem_cache_alloc(s, GFP_KERNEL), a);
	kmem_cache_free(s, a);
	kmem_cache_free(s, b);
	kmem_cache_free(s, NULL);
	ck_assert_int_eq(kmem_cache_live_objects(s), 0);
	kmem_cache_destroy(s);
	kmem_cache_destroy(NULL);
}
END_TEST

START_TEST(test_hwcache_align)
{
	struct kmem_cache *s = kmem_cache_create("test_align", 72, 0, SLAB_HWCACHE_ALIGN, NULL);
	void *p[10];

	for (int i = 0; i < 10; i++) {
		p[i] = kmem_cache_alloc(s, GFP_KERNEL);
		ck_assert_uint_eq((unsigned long)p[i] % SMP_CACHE_BYTES, 0);
	}
	kmem_cache_free_bulk(s, 10, p);
	kmem_cache_destroy(s);
}
END_TEST

START_TEST(test_bulk_sizes)
{
	struct kmem_cache *s = kmem_cache_create("test_bulk", 232, 0, SLAB_HWCACHE_ALIGN, NULL);
	static const size_t sizes[] = { 1, 8, 16, 31, 32, 33, 64, 100, 500 };
	static void *p[500];

	for (unsigned int k = 0; k < ARRAY_SIZE(sizes); k++) {
		size_t n = sizes[k];

		for (size_t i = 0; i < n; i++)
			p[i] = NULL;
		ck_assert_int_eq(kmem_cache_alloc_bulk(s, GFP_ATOMIC | __GFP_ZERO, n, p), (int)n);
		ck_assert_int_eq(kmem_cache_live_objects(s), (long)n);
		for (size_t i = 0; i < n; i++) {
			ck_assert_ptr_nonnull(p[i]);
			for (int b = 0; b < 232; b++)
				ck_assert_uint_eq(((unsigned char *)p[i])[b], 0);
			/* dirty it so the next round proves __GFP_ZERO again */
			memset(p[i], 0xee, 232);
			for (size_t j = 0; j < i; j++)
				ck_assert_ptr_ne(p[i], p[j]);
		}
		kmem_cache_free_bulk(s, n, p);
		ck_assert_int_eq(kmem_cache_live_objects(s), 0);
	}
	kmem_cache_destroy(s);
}
END_TEST

START_TEST(test_bulk_injected_failure_all_or_nothing)
{
	struct kmem_cache *s = kmem_cache_create("test_bulk_fail", 232, 0, 0, NULL);
	void *p[64], *keep[3];
	long pages;

	/* prime the magazine partly so a failing call would have had objects */
	for (int i = 0; i < 3; i++)
		keep[i] = kmem_cache_alloc(s, GFP_KERNEL);
	pages = nr_pages_in_use();

	uxdp_fault_fail_nth(UXDP_FAULT_SLAB, 1);
	memset(p, 0, sizeof(p));
	ck_assert_int_eq(kmem_cache_alloc_bulk(s, GFP_ATOMIC, 16, p), 0);
	ck_assert_uint_eq(uxdp_fault_injected(UXDP_FAULT_SLAB), 1);
	ck_assert_int_eq(kmem_cache_live_objects(s), 3);

	/* A failure deep inside the call (slab growth) also returns nothing. */
	uxdp_fault_fail_nth(UXDP_FAULT_PAGE, 1);
	ck_assert_int_eq(kmem_cache_alloc_bulk(s, GFP_ATOMIC, 64, p), 0);
	ck_assert_int_eq(kmem_cache_live_objects(s), 3);
	ck_assert_int_eq(nr_pages_in_use(), pages);

	/* and the cache still works afterwards */
	ck_assert_int_eq(kmem_cache_alloc_bulk(s, GFP_ATOMIC, 64, p), 64);
	kmem_cache_free_bulk(s, 64, p);
	kmem_cache_free_bulk(s, 3, keep);
	kmem_cache_destroy(s);
}
END_TEST

START_TEST(test_random_failures_never_leak)
{
	struct kmem_cache *s = kmem_cache_create("test_rand_fail", 64, 0, 0, NULL);
	unsigned int ok = 0, failed = 0;
	void *p[16];

	uxdp_fault_set(UXDP_FAULT_SLAB, 1, 4);
	for (int round = 0; round < 2000; round++) {
		int n = kmem_cache_alloc_bulk(s, GFP_ATOMIC, 1 + round % 16, p);

		if (!n) {
			failed++;
			continue;
		}
		ok++;
		ck_assert_int_eq(n, 1 + round % 16);
		kmem_cache_free_bulk(s, n, p);
	}
	uxdp_fault_clear();
	ck_assert_uint_gt(failed, 300);
	ck_assert_uint_gt(ok, 1000);
	ck_assert_int_eq(kmem_cache_live_objects(s), 0);
	kmem_cache_destroy(s);
}
END_TEST

START_TEST(test_fault_parse)
{
	void *p;

	ck_assert_int_eq(uxdp_fault_parse("slab:1/100,page:1/1000"), 0);
	ck_assert_int_eq(uxdp_fault_parse("slab:nth=2"), 0);
	p = kmalloc(10, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_null(kmalloc(10, GFP_KERNEL));
	kfree(p);
	ck_assert_int_eq(uxdp_fault_parse("slab:0/1"), 0);
	ck_assert_int_eq(uxdp_fault_parse("bogus:1/2"), -EINVAL);
	ck_assert_int_eq(uxdp_fault_parse("slab:3/2"), -EINVAL);
	ck_assert_int_eq(uxdp_fault_parse("slab:1/0"), -EINVAL);
	ck_assert_int_eq(uxdp_fault_parse("slab"), -EINVAL);
	ck_assert_int_eq(uxdp_fault_parse("page:nth=x"), -EINVAL);
}
END_TEST

START_TEST(test_kmalloc_buckets)
{
	static const struct { size_t req, got; } cases[] = {
		{ 1, 8 }, { 8, 8 }, { 9, 16 }, { 33, 64 }, { 65, 96 }, { 97, 128 },
		{ 129, 192 }, { 193, 256 }, { 257, 512 }, { 1000, 1024 },
		{ 2049, 4096 }, { 8192, 8192 }, { 8193, 16384 }, { 65536, 65536 },
		{ 65537, 131072 },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		void *p = kmalloc(cases[i].req, GFP_KERNEL);

		ck_assert_uint_eq(kmalloc_size_roundup(cases[i].req), cases[i].got);
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq(ksize(p), cases[i].got);
		memset(p, 0x11, cases[i].got);
		kfree(p);
	}
	/* Every size up to the largest cache: the smallest bucket that holds it. */
	for (size_t n = 1; n <= KMALLOC_MAX_CACHE_SIZE; n++) {
		static const size_t buckets[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512,
						  1024, 2048, 4096, 8192 };
		size_t want = 0;
		void *p;

		for (unsigned int i = 0; i < ARRAY_SIZE(buckets) && !want; i++)
			if (n <= buckets[i])
				want = buckets[i];
		p = kmalloc(n, GFP_KERNEL);
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq(ksize(p), want);
		ck_assert_uint_eq(kmalloc_size_roundup(n), want);
		kfree(p);
	}
	kfree(NULL);
	ck_assert_ptr_null(kmalloc(KMALLOC_MAX_ORDER_SIZE + 1, GFP_KERNEL));
}
END_TEST

START_TEST(test_kzalloc_large)
{
	unsigned char *p = kmalloc(20000, GFP_KERNEL);

	memset(p, 0xff, 20000);
	kfree(p);
	p = kzalloc(20000, GFP_KERNEL);
	for (int i = 0; i < 20000; i++)
		ck_assert_uint_eq(p[i], 0);
	ck_assert_int_eq(nr_pages_in_use(), 8);
	kfree(p);
}
END_TEST

START_TEST(test_leak_check_names_cache)
{
	void *p = kmalloc(100, GFP_KERNEL);
	char why[512];

	ck_assert(!uxdp_mem_leak_check(why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "kmalloc-128: 1 live objects"));
	kfree(p);
}
END_TEST

START_TEST(test_cross_cpu_free)
{
	struct kmem_cache *s = kmem_cache_create("test_xcpu", 48, 0, 0, NULL);
	void *p[200];

	ck_assert_int_eq(uxdp_set_nr_cpus(4), 0);
	uxdp_worker_bind_cpu(0);
	ck_assert_int_eq(kmem_cache_alloc_bulk(s, GFP_ATOMIC, 200, p), 200);
	uxdp_worker_bind_cpu(1);
	kmem_cache_free_bulk(s, 200, p);	/* overflows CPU 1's magazine into the depot */
	ck_assert_int_eq(kmem_cache_live_objects(s), 0);
	uxdp_worker_bind_cpu(2);
	ck_assert_int_eq(kmem_cache_alloc_bulk(s, GFP_ATOMIC, 200, p), 200);
	kmem_cache_free_bulk(s, 200, p);
	uxdp_worker_bind_cpu(0);
	kmem_cache_destroy(s);
}
END_TEST

static struct kmem_cache *thread_cache;

static void *slab_thread(void *arg)
{
	void *p[37];

	uxdp_worker_bind_cpu((int)(long)arg);
	for (int round = 0; round < 3000; round++) {
		int n = 1 + round % 37;

		if (!kmem_cache_alloc_bulk(thread_cache, GFP_ATOMIC, n, p))
			return (void *)1L;
		for (int i = 0; i < n; i++)
			*(long *)p[i] = (long)arg;
		for (int i = 0; i < n; i++)
			if (*(long *)p[i] != (long)arg)
				return (void *)2L;
		kmem_cache_free_bulk(thread_cache, n, p);
	}
	return NULL;
}

START_TEST(test_threads_per_cpu)
{
	pthread_t t[4];

	ck_assert_int_eq(uxdp_set_nr_cpus(4), 0);
	thread_cache = kmem_cache_create("test_threads", 64, 0, 0, NULL);
	for (long i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, slab_thread, (void *)i), 0);
	for (int i = 0; i < 4; i++) {
		void *ret;

		pthread_join(t[i], &ret);
		ck_assert_ptr_null(ret);
	}
	ck_assert_int_eq(kmem_cache_live_objects(thread_cache), 0);
	kmem_cache_destroy(thread_cache);
}
END_TEST

/*
 * UXDP_FAULT at start-up: re-run this executable with the variable set and
 * only the "env" case selected; there the very first slab allocation fails.
 */
START_TEST(test_env_fault_applied)
{
	void *p;

	if (!getenv("UXDP_FAULT"))
		return;		/* normal run: only meaningful when re-executed */
	ck_assert_ptr_null(kmalloc(10, GFP_KERNEL));
	ck_assert_uint_eq(uxdp_fault_injected(UXDP_FAULT_SLAB), 1);
	p = kmalloc(10, GFP_KERNEL);
	ck_assert_ptr_nonnull(p);
	kfree(p);
}
END_TEST

START_TEST(test_env_reexec)
{
	char *const argv[] = { "slab_test", NULL };
	char *const envp[] = { "UXDP_FAULT=slab:nth=1", "CK_RUN_CASE=env", "CK_VERBOSITY=silent", NULL };
	char self[4096];
	ssize_t n;
	pid_t pid;
	int status;

	if (getenv("UXDP_FAULT"))
		return;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		execve(self, argv, envp);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

#ifndef NDEBUG
START_TEST(test_destroy_with_live_objects_bugs)
{
	struct kmem_cache *s = kmem_cache_create("test_live", 32, 0, 0, NULL);

	kmem_cache_alloc(s, GFP_KERNEL);
	kmem_cache_destroy(s);
}
END_TEST

START_TEST(test_free_to_wrong_cache_bugs)
{
	struct kmem_cache *a = kmem_cache_create("test_a", 32, 0, 0, NULL);
	struct kmem_cache *b = kmem_cache_create("test_b", 32, 0, 0, NULL);

	kmem_cache_free(b, kmem_cache_alloc(a, GFP_KERNEL));
}
END_TEST
#endif

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("mm/slab");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, leak_teardown);
	tcase_add_test(tc, test_cache_alloc_free);
	tcase_add_test(tc, test_hwcache_align);
	tcase_add_test(tc, test_bulk_sizes);
	tcase_add_test(tc, test_bulk_injected_failure_all_or_nothing);
	tcase_add_test(tc, test_random_failures_never_leak);
	tcase_add_test(tc, test_fault_parse);
	tcase_add_test(tc, test_kmalloc_buckets);
	tcase_add_test(tc, test_kzalloc_large);
	tcase_add_test(tc, test_leak_check_names_cache);
	tcase_add_test(tc, test_cross_cpu_free);
	tcase_add_test(tc, test_threads_per_cpu);
#ifndef NDEBUG
	tcase_add_test_raise_signal(tc, test_destroy_with_live_objects_bugs, SIGABRT);
	tcase_add_test_raise_signal(tc, test_free_to_wrong_cache_bugs, SIGABRT);
#endif
	suite_add_tcase(s, tc);

	TCase *env = tcase_create("env");

	tcase_add_checked_fixture(env, NULL, leak_teardown);
	tcase_add_test(env, test_env_fault_applied);
	tcase_add_test(env, test_env_reexec);
	suite_add_tcase(s, env);
	return s;
}
