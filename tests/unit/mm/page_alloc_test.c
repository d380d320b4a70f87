// SPDX-License-Identifier: GPL-2.0
/*
 * Page allocator: struct page <-> address mapping, compound pages,
 * refcounts, zeroing, fault injection and the page side of the leak check.
 */
#include <signal.h>
#include <string.h>

#include <linux/mm.h>
#include <linux/slab.h>

#include "uxdp_test.h"

static void leak_teardown(void)
{
	char why[512];

	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}

START_TEST(test_page_address_roundtrip)
{
	struct page *page = alloc_page(GFP_KERNEL);
	char *addr;

	ck_assert_ptr_nonnull(page);
	addr = page_address(page);
	ck_assert_uint_eq((unsigned long)addr % PAGE_SIZE, 0);
	ck_assert_ptr_eq(virt_to_page(addr), page);
	ck_assert_ptr_eq(virt_to_page(addr + PAGE_SIZE - 1), page);
	ck_assert_ptr_eq(virt_to_head_page(addr + 100), page);
	ck_assert_int_eq(page_ref_count(page), 1);
	memset(addr, 0xab, PAGE_SIZE);
	__free_page(page);
}
END_TEST

START_TEST(test_compound_pages)
{
	struct page *page = alloc_pages(GFP_KERNEL, 3);
	char *addr;

	ck_assert_ptr_nonnull(page);
	addr = page_address(page);
	ck_assert(PageHead(page));
	ck_assert_uint_eq(compound_order(page), 3);
	for (int i = 0; i < 8; i++) {
		struct page *p = virt_to_page(addr + i * PAGE_SIZE + 17);

		ck_assert_ptr_eq(p, page + i);
		ck_assert_ptr_eq(compound_head(p), page);
		ck_assert_ptr_eq(page_address(p), addr + i * PAGE_SIZE);
	}
	/* get/put through a tail page act on the head's refcount */
	get_page(page + 5);
	ck_assert_int_eq(page_ref_count(page), 2);
	put_page(page + 7);
	ck_assert_int_eq(page_ref_count(page), 1);
	ck_assert_int_eq(nr_pages_in_use(), 8);
	__free_pages(page, 3);
	ck_assert_int_eq(nr_pages_in_use(), 0);
}
END_TEST

START_TEST(test_gfp_zero_and_reuse)
{
	struct page *page = alloc_page(GFP_KERNEL);
	unsigned char *addr = page_address(page);

	memset(addr, 0x5a, PAGE_SIZE);
	__free_page(page);
	page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	addr = page_address(page);
	for (unsigned int i = 0; i < PAGE_SIZE; i++)
		ck_assert_uint_eq(addr[i], 0);
	__free_page(page);
}
END_TEST

START_TEST(test_many_pages_distinct)
{
	enum { N = 1200 };	/* more than two chunks */
	static struct page *pages[N];

	for (int i = 0; i < N; i++) {
		pages[i] = alloc_pages(GFP_KERNEL, i % 3);
		ck_assert_ptr_nonnull(pages[i]);
		*(int *)page_address(pages[i]) = i;
	}
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(*(int *)page_address(pages[i]), i);
		ck_assert_ptr_eq(virt_to_head_page((char *)page_address(pages[i]) + 5), pages[i]);
	}
	for (int i = 0; i < N; i++)
		__free_pages(pages[i], i % 3);
}
END_TEST

START_TEST(test_order_limits)
{
	struct page *page = alloc_pages(GFP_KERNEL, MAX_PAGE_ORDER);

	ck_assert_ptr_nonnull(page);
	__free_pages(page, MAX_PAGE_ORDER);
	ck_assert_ptr_null(alloc_pages(GFP_KERNEL, MAX_PAGE_ORDER + 1));
	ck_assert_int_eq(get_order(1), 0);
	ck_assert_int_eq(get_order(PAGE_SIZE), 0);
	ck_assert_int_eq(get_order(PAGE_SIZE + 1), 1);
	ck_assert_int_eq(get_order(65536), 4);
	ck_assert_int_eq(get_order(65537), 5);
}
END_TEST

START_TEST(test_fault_injection_page)
{
	struct page *page;

	uxdp_fault_fail_nth(UXDP_FAULT_PAGE, 2);
	page = alloc_page(GFP_KERNEL);
	ck_assert_ptr_nonnull(page);
	ck_assert_ptr_null(alloc_page(GFP_KERNEL));
	ck_assert_uint_eq(uxdp_fault_injected(UXDP_FAULT_PAGE), 1);
	__free_page(page);
	/* one-shot: the next allocation succeeds again */
	page = alloc_page(GFP_KERNEL);
	ck_assert_ptr_nonnull(page);
	__free_page(page);
	/* __GFP_NOFAULT is never failed */
	uxdp_fault_set(UXDP_FAULT_PAGE, 1, 1);
	ck_assert_ptr_null(alloc_page(GFP_KERNEL));
	page = alloc_page(GFP_KERNEL | __GFP_NOFAULT);
	ck_assert_ptr_nonnull(page);
	__free_page(page);
	uxdp_fault_clear();
}
END_TEST

START_TEST(test_leak_check_sees_pages)
{
	struct page *page = alloc_page(GFP_KERNEL);
	char why[256];

	ck_assert(!uxdp_mem_leak_check(why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "pages: 1 in use"));
	__free_page(page);
	ck_assert(uxdp_mem_leak_check(why, sizeof(why)));
}
END_TEST

#ifndef NDEBUG
START_TEST(test_get_page_of_free_page_bugs)
{
	struct page *page = alloc_page(GFP_KERNEL);

	__free_page(page);
	get_page(page);
}
END_TEST
#endif

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("mm/page_alloc");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, leak_teardown);
	tcase_add_test(tc, test_page_address_roundtrip);
	tcase_add_test(tc, test_compound_pages);
	tcase_add_test(tc, test_gfp_zero_and_reuse);
	tcase_add_test(tc, test_many_pages_distinct);
	tcase_add_test(tc, test_order_limits);
	tcase_add_test(tc, test_fault_injection_page);
	tcase_add_test(tc, test_leak_check_sees_pages);
#ifndef NDEBUG
	tcase_add_test_raise_signal(tc, test_get_page_of_free_page_bugs, SIGABRT);
#endif
	suite_add_tcase(s, tc);
	return s;
}
