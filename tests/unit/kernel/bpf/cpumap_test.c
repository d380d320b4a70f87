// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bpf/cpumap.c: creation checks and element operations compared
 * with the kernel's (qsize limits, impossible CPUs, qsize 0 as delete);
 * redirects miss until the CPU-map engine exists.
 */
#include <limits.h>

#include <linux/filter.h>

#include "map_oracle.h"

static void test_teardown(void)
{
	oracle_leak_check();
}

START_TEST(test_cpumap_create_checks)
{
	oracle_setup();
	dual_create_expect(BPF_MAP_TYPE_CPUMAP, 4, 4, 2, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_CPUMAP, 4, 8, 2, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_CPUMAP, 4, 6, 2, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_CPUMAP, 8, 4, 2, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_CPUMAP, 4, 4, 0, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_CPUMAP, 4, 4, 2, BPF_F_NO_PREALLOC, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_CPUMAP, 4, 4, 2, BPF_F_RDONLY, -EINVAL);
}
END_TEST

/* max_entries up to the kernel's NR_CPUS (kernel_max + 1), not uxdp's 64 CPUs */
START_TEST(test_cpumap_max_entries)
{
	unsigned int kmax = 8191;
	FILE *f = fopen("/sys/devices/system/cpu/kernel_max", "r");

	if (f) {
		ck_assert_int_eq(fscanf(f, "%u", &kmax), 1);
		fclose(f);
	}
	oracle_setup();
	dual_create_expect(BPF_MAP_TYPE_CPUMAP, 4, 4, 65, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_CPUMAP, 4, 4, kmax + 1, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_CPUMAP, 4, 4, kmax + 2, 0, -E2BIG);
}
END_TEST

START_TEST(test_cpumap_ops_vs_kernel)
{
	struct bpf_cpumap_val val;
	struct dual_map m;
	u32 key, next, ncpus;

	oracle_setup();
	ncpus = uxdp_bpf_num_possible_cpus();
	ck_assert(dual_create(&m, BPF_MAP_TYPE_CPUMAP, 4, 8, ncpus + 2, 0));
	memset(&val, 0, sizeof(val));
	val.qsize = 192;
	key = 0;
	ck_assert_int_eq(dual_lookup(&m, &key, NULL), -ENOENT);
	ck_assert_int_eq(dual_update(&m, &key, &val, BPF_NOEXIST), -EEXIST);
	ck_assert_int_eq(dual_update(&m, &key, &val, 4), -EINVAL);
	ck_assert_int_eq(dual_update(&m, &key, &val, BPF_ANY), 0);
	ck_assert_int_eq(dual_lookup(&m, &key, NULL), 0);
	ck_assert_int_eq(dual_update(&m, &key, &val, BPF_EXIST), 0);
	val.qsize = 16385;
	ck_assert_int_eq(dual_update(&m, &key, &val, BPF_ANY), -EOVERFLOW);
	val.qsize = 64;
	key = ncpus;		/* in range, but not a possible CPU */
	ck_assert_int_eq(dual_update(&m, &key, &val, BPF_ANY), -ENODEV);
	key = ncpus + 2;
	ck_assert_int_eq(dual_update(&m, &key, &val, BPF_ANY), -E2BIG);
	ck_assert_int_eq(dual_delete(&m, &key), -EINVAL);
	key = ncpus - 1;
	ck_assert_int_eq(dual_update(&m, &key, &val, BPF_ANY), 0);
	val.qsize = 0;		/* same as deleting */
	ck_assert_int_eq(dual_update(&m, &key, &val, BPF_ANY), 0);
	ck_assert_int_eq(dual_lookup(&m, &key, NULL), -ENOENT);
	ck_assert_int_eq(dual_delete(&m, &key), 0);
	key = 0;
	ck_assert_int_eq(dual_get_next_key(&m, &key, &next, true), 0);
	ck_assert_int_eq(dual_get_next_key(&m, NULL, &next, true), 0);
	ck_assert_int_eq(dual_compare_all(&m), ncpus + 2);
	ck_assert_int_eq(dual_delete(&m, &key), 0);
	ck_assert_int_eq(dual_delete(&m, &key), 0);
	dual_close(&m);
}
END_TEST

START_TEST(test_cpumap_redirect_misses)
{
	int id = uxdp_bpf_map_create(BPF_MAP_TYPE_CPUMAP, "cpus", 4, 4, 1, NULL);
	struct bpf_map *map = bpf_map_get(id);
	struct bpf_redirect_info *ri = bpf_net_ctx_get_ri();
	u32 key = 0, qsize = 128;

	ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &qsize, BPF_ANY), 0);
	ck_assert_int_eq(map->ops->map_redirect(map, 0, 0), XDP_ABORTED);
	ck_assert_uint_eq(ri->map_id, INT_MAX);
	ck_assert_int_eq(map->ops->map_redirect(map, 0, XDP_PASS), XDP_PASS);
	ck_assert_int_eq(map->ops->map_redirect(map, 0, BPF_F_BROADCAST | XDP_PASS), XDP_ABORTED);
	uxdp_bpf_map_close(id);
}
END_TEST

/* Empty slots: uxdp's bpf_redirect_map() verdicts against the kernel's. */
START_TEST(test_cpumap_redirect_empty_vs_kernel)
{
	dual_redirect_empty_check(BPF_MAP_TYPE_CPUMAP);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("kernel/bpf/cpumap");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, test_teardown);
	tcase_add_test(tc, test_cpumap_create_checks);
	tcase_add_test(tc, test_cpumap_max_entries);
	tcase_add_test(tc, test_cpumap_ops_vs_kernel);
	tcase_add_test(tc, test_cpumap_redirect_misses);
	tcase_add_test(tc, test_cpumap_redirect_empty_vs_kernel);
	suite_add_tcase(s, tc);
	return s;
}
