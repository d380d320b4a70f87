// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bpf/queue_stack_maps.c from user space, compared with the
 * kernel's maps: creation checks, BPF_MAP_UPDATE_ELEM as push (full:
 * -E2BIG, or the oldest value replaced with BPF_EXIST; BPF_NOEXIST
 * refused), BPF_MAP_LOOKUP_ELEM as peek (a queue's oldest value, a
 * stack's newest; -ENOENT when empty), delete and get_next_key refused.
 * Pop from programs is compared by the kernel differential suite
 * (examples/progs/xdp_queue_stack.c).
 */
#include <linux/filter.h>

#include "map_oracle.h"

static void test_teardown(void)
{
	oracle_leak_check();
}

static void create_checks(enum bpf_map_type type)
{
	dual_create_expect(type, 0, 4, 4, 0, 1);
	dual_create_expect(type, 4, 4, 4, 0, -EINVAL);
	dual_create_expect(type, 0, 0, 4, 0, -EINVAL);
	dual_create_expect(type, 0, 4, 0, 0, -EINVAL);
	dual_create_expect(type, 0, 4, 4, BPF_F_NO_PREALLOC, -EINVAL);
	dual_create_expect(type, 0, 4, 4, BPF_F_RDONLY_PROG, 1);
}

START_TEST(test_queue_stack_create_checks)
{
	oracle_setup();
	create_checks(BPF_MAP_TYPE_QUEUE);
	create_checks(BPF_MAP_TYPE_STACK);
}
END_TEST

/* Push 1..3 into 3 slots, then 4 with each flag; peek is @oldest or @newest. */
static void ops_check(enum bpf_map_type type, u32 peek_full, u32 peek_replaced)
{
	struct dual_map m;
	u32 v, next;

	ck_assert(dual_create(&m, type, 0, 4, 3, 0));
	ck_assert_int_eq(dual_lookup(&m, NULL, &v), -ENOENT);
	for (v = 1; v <= 3; v++)
		ck_assert_int_eq(dual_update(&m, NULL, &v, BPF_ANY), 0);
	ck_assert_int_eq(dual_lookup(&m, NULL, &v), 0);
	ck_assert_uint_eq(v, peek_full);
	v = 4;
	ck_assert_int_eq(dual_update(&m, NULL, &v, BPF_ANY), -E2BIG);
	ck_assert_int_eq(dual_update(&m, NULL, &v, BPF_NOEXIST), -EINVAL);
	ck_assert_int_eq(dual_update(&m, NULL, &v, BPF_EXIST | BPF_NOEXIST), -EINVAL);
	ck_assert_int_eq(dual_update(&m, NULL, &v, 4), -EINVAL);
	ck_assert_int_eq(dual_update(&m, NULL, &v, BPF_EXIST), 0);
	ck_assert_int_eq(dual_lookup(&m, NULL, &v), 0);
	ck_assert_uint_eq(v, peek_replaced);
	ck_assert_int_eq(dual_delete(&m, NULL), -EINVAL);
	ck_assert_int_eq(dual_get_next_key(&m, NULL, &next, false), -EINVAL);
	dual_close(&m);
}

START_TEST(test_queue_ops_vs_kernel)
{
	oracle_setup();
	ops_check(BPF_MAP_TYPE_QUEUE, 1, 2);	/* 1 2 3, then 2 3 4 */
}
END_TEST

START_TEST(test_stack_ops_vs_kernel)
{
	oracle_setup();
	ops_check(BPF_MAP_TYPE_STACK, 3, 4);
}
END_TEST

/* Wrap-around: a queue pushed and popped past its ring's end stays FIFO. */
START_TEST(test_queue_wraps)
{
	int id = uxdp_bpf_map_create(BPF_MAP_TYPE_QUEUE, "q", 0, 4, 2, NULL);
	struct bpf_map *map = bpf_map_get(id);
	u32 v, i;

	for (i = 0; i < 10; i++) {
		ck_assert_int_eq(map->ops->map_push_elem(map, &i, BPF_ANY), 0);
		ck_assert_int_eq(map->ops->map_pop_elem(map, &v), 0);
		ck_assert_uint_eq(v, i);
	}
	v = 7;
	ck_assert_int_eq(map->ops->map_pop_elem(map, &v), -ENOENT);
	ck_assert_uint_eq(v, 0);	/* zeroed, as the kernel's */
	uxdp_bpf_map_close(id);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("kernel/bpf/queue_stack_maps");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, test_teardown);
	tcase_add_test(tc, test_queue_stack_create_checks);
	tcase_add_test(tc, test_queue_ops_vs_kernel);
	tcase_add_test(tc, test_stack_ops_vs_kernel);
	tcase_add_test(tc, test_queue_wraps);
	suite_add_tcase(s, tc);
	return s;
}
