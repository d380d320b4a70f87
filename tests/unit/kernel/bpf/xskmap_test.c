// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bpf/xskmap.c: creation checks and the element checks the kernel
 * makes before it looks at the socket, compared with the kernel's;
 * redirects miss until AF_XDP exists.
 */
#include <limits.h>

#include <linux/filter.h>

#include "map_oracle.h"

static void test_teardown(void)
{
	oracle_leak_check();
}

START_TEST(test_xskmap_create_checks)
{
	oracle_setup();
	dual_create_expect(BPF_MAP_TYPE_XSKMAP, 4, 4, 4, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_XSKMAP, 4, 8, 4, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_XSKMAP, 8, 4, 4, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_XSKMAP, 4, 4, 0, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_XSKMAP, 4, 4, 4, BPF_F_NO_PREALLOC, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_XSKMAP, 4, 4, 4, BPF_F_RDONLY, 1);
}
END_TEST

START_TEST(test_xskmap_ops_vs_kernel)
{
	struct dual_map m;
	u32 key = 1, fd = 0, next;

	oracle_setup();
	ck_assert(dual_create(&m, BPF_MAP_TYPE_XSKMAP, 4, 4, 4, 0));
	ck_assert_int_eq(dual_update(&m, &key, &fd, 4), -EINVAL);
	key = 4;
	ck_assert_int_eq(dual_update(&m, &key, &fd, BPF_ANY), -E2BIG);
	ck_assert_int_eq(dual_delete(&m, &key), -EINVAL);
	key = 1;
	ck_assert_int_eq(dual_lookup(&m, &key, NULL), -EOPNOTSUPP);
	ck_assert_int_eq(dual_delete(&m, &key), 0);
	ck_assert_int_eq(dual_get_next_key(&m, NULL, &next, true), 0);
	ck_assert_int_eq(dual_get_next_key(&m, &key, &next, true), 0);
	key = 3;
	ck_assert_int_eq(dual_get_next_key(&m, &key, &next, true), -ENOENT);
	dual_close(&m);
}
END_TEST

/* No sockets in uxdp yet: updates are kept, flags honoured, redirects miss. */
START_TEST(test_xskmap_uxdp_slots)
{
	int id = uxdp_bpf_map_create(BPF_MAP_TYPE_XSKMAP, "xsks", 4, 4, 4, NULL);
	struct bpf_map *map = bpf_map_get(id);
	u32 key = 2, fd = 9;

	ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &fd, BPF_EXIST), -ENOENT);
	ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &fd, BPF_NOEXIST), 0);
	ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &fd, BPF_NOEXIST), 0);	/* same socket */
	fd = 10;
	ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &fd, BPF_NOEXIST), -EEXIST);
	ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &fd, BPF_EXIST), 0);
	ck_assert_ptr_null(map->ops->map_lookup_elem(map, &key));
	ck_assert_int_eq(map->ops->map_redirect(map, 2, XDP_DROP), XDP_DROP);
	ck_assert_uint_eq(bpf_net_ctx_get_ri()->map_id, INT_MAX);
	uxdp_bpf_map_close(id);
}
END_TEST

/* Empty slots: uxdp's bpf_redirect_map() verdicts against the kernel's. */
START_TEST(test_xskmap_redirect_empty_vs_kernel)
{
	dual_redirect_empty_check(BPF_MAP_TYPE_XSKMAP);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("kernel/bpf/xskmap");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, test_teardown);
	tcase_add_test(tc, test_xskmap_create_checks);
	tcase_add_test(tc, test_xskmap_ops_vs_kernel);
	tcase_add_test(tc, test_xskmap_uxdp_slots);
	tcase_add_test(tc, test_xskmap_redirect_empty_vs_kernel);
	suite_add_tcase(s, tc);
	return s;
}
