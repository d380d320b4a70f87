// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bpf/syscall.c: the map syscalls' common checks (names, flags,
 * map_extra, unknown types), object info compared with the kernel's, ids
 * and references (close, ids of freed maps, the live-map counter) and the
 * syscall value sizes.
 */
#include "map_oracle.h"

static void test_teardown(void)
{
	oracle_leak_check();
}

static long kmap_create_named(const char *name, u64 map_extra)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	attr.map_extra = map_extra;
	memcpy(attr.map_name, name, strnlen(name, sizeof(attr.map_name)));
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

START_TEST(test_map_names_and_extra)
{
	static const char *const names[] = { "ok_name.1", "bad-name", "sp ace", "", "x" };
	unsigned int i;

	oracle_setup();
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		union bpf_attr attr;
		int u;

		memset(&attr, 0, sizeof(attr));
		attr.map_type = BPF_MAP_TYPE_ARRAY;
		attr.key_size = 4;
		attr.value_size = 4;
		attr.max_entries = 1;
		memcpy(attr.map_name, names[i], strlen(names[i]));
		u = map_create(&attr);
		if (oracle_kernel != 0) {
			long k = kmap_create_named(names[i], 0);

			if (k >= 0)
				close(k);
			if (k != -EPERM)
				ck_assert_msg((k >= 0) == (u > 0) && (k >= 0 || k == u),
					      "name '%s': kernel %ld uxdp %d", names[i], k, u);
		}
		if (u > 0)
			uxdp_bpf_map_close(u);
	}
	/* a full 16-byte name without NUL is refused */
	{
		union bpf_attr attr = { .map_type = BPF_MAP_TYPE_ARRAY, .key_size = 4,
					.value_size = 4, .max_entries = 1 };

		memset(attr.map_name, 'a', sizeof(attr.map_name));
		ck_assert_int_eq(map_create(&attr), -EINVAL);
		attr.map_name[15] = 0;
		attr.map_extra = 1;
		ck_assert_int_eq(map_create(&attr), -EINVAL);
		if (oracle_kernel == 1)
			ck_assert_int_eq(kmap_create_named("a", 1), -EINVAL);
	}
	dual_create_expect(0, 4, 4, 1, 0, -EINVAL);		/* UNSPEC */
	dual_create_expect(30, 4, 4, 1, 0, -EINVAL);	/* USER_RINGBUF: not in uxdp, kernel differs */
}
END_TEST

START_TEST(test_map_info_vs_kernel)
{
	static const struct { u32 type, ks, vs, me, flags; } shapes[] = {
		{ BPF_MAP_TYPE_ARRAY, 4, 12, 5, BPF_F_RDONLY_PROG },
		{ BPF_MAP_TYPE_HASH, 6, 3, 9, BPF_F_NO_PREALLOC },
		{ BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 2, 0 },
		{ BPF_MAP_TYPE_LRU_HASH, 4, 8, 16, 0 },
		{ BPF_MAP_TYPE_LPM_TRIE, 8, 8, 16, BPF_F_NO_PREALLOC },
		{ BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0 },
		{ BPF_MAP_TYPE_ARRAY, 4, 4, 1, BPF_F_RDONLY },
		{ BPF_MAP_TYPE_LRU_HASH, 4, 8, 5, BPF_F_NO_COMMON_LRU },	/* rounded per CPU */
		{ BPF_MAP_TYPE_DEVMAP_HASH, 4, 8, 5, 0 },
	};
	unsigned int i;

	oracle_setup();
	for (i = 0; i < ARRAY_SIZE(shapes); i++) {
		struct bpf_map_info uinfo, kinfo;
		struct dual_map m;

		ck_assert(dual_create(&m, shapes[i].type, shapes[i].ks, shapes[i].vs, shapes[i].me,
				      shapes[i].flags));
		ck_assert_int_eq(uxdp_bpf_map_get_info(m.id, &uinfo), 0);
		ck_assert_uint_eq(uinfo.id, m.id);
		ck_assert_str_eq(uinfo.name, "oracle");
		if (m.kfd >= 0) {
			union bpf_attr attr;

			memset(&attr, 0, sizeof(attr));
			memset(&kinfo, 0, sizeof(kinfo));
			attr.info.bpf_fd = m.kfd;
			attr.info.info_len = sizeof(kinfo);
			attr.info.info = (u64)(unsigned long)&kinfo;
			ck_assert_int_eq(sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr), 0);
			ck_assert_uint_eq(kinfo.type, uinfo.type);
			ck_assert_uint_eq(kinfo.key_size, uinfo.key_size);
			ck_assert_uint_eq(kinfo.value_size, uinfo.value_size);
			ck_assert_uint_eq(kinfo.max_entries, uinfo.max_entries);
			ck_assert_uint_eq(kinfo.map_flags, uinfo.map_flags);
			ck_assert_str_eq(kinfo.name, uinfo.name);
		}
		dual_close(&m);
	}
}
END_TEST

START_TEST(test_map_ids_and_refs)
{
	int a = uxdp_bpf_map_create(BPF_MAP_TYPE_ARRAY, "a", 4, 4, 1, NULL);
	int b = uxdp_bpf_map_create(BPF_MAP_TYPE_HASH, "b", 4, 4, 1, NULL);
	u32 id = 0, seen = 0, key = 0, v = 1;
	struct bpf_map *map;

	ck_assert_int_gt(a, 0);
	ck_assert_int_gt(b, a);
	ck_assert_int_eq(uxdp_bpf_map_alive_count(), 2);
	while (!uxdp_bpf_map_get_next_id(id, &id))
		seen++;
	ck_assert_uint_eq(seen, 2);

	/* a reference held elsewhere keeps map and id alive after close */
	map = bpf_map_get(a);
	bpf_map_inc(map);
	ck_assert_int_eq(uxdp_bpf_map_close(a), 0);
	ck_assert_int_eq(uxdp_bpf_map_close(a), -EBADF);	/* closed once only */
	ck_assert_int_eq(map->refcnt, 1);
	ck_assert_int_eq(uxdp_bpf_map_update_elem(a, &key, &v, BPF_ANY), 0);
	bpf_map_put(map);
	ck_assert_int_eq(uxdp_bpf_map_alive_count(), 1);
	ck_assert_int_eq(uxdp_bpf_map_update_elem(a, &key, &v, BPF_ANY), -EBADF);
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(a, &key, &v), -EBADF);
	ck_assert_int_eq(uxdp_bpf_map_delete_elem(a, &key), -EBADF);
	ck_assert_int_eq(uxdp_bpf_map_get_next_key(a, NULL, &key), -EBADF);
	ck_assert_int_eq(uxdp_bpf_map_freeze(a), -EBADF);
	ck_assert_int_eq(uxdp_bpf_map_close(a), -EBADF);
	ck_assert_int_eq(uxdp_bpf_map_close(0), -EBADF);
	ck_assert_int_eq(uxdp_bpf_map_close(100000), -EBADF);
	ck_assert_int_eq(uxdp_bpf_map_get_next_id(b, &id), -ENOENT);
	ck_assert_int_eq(uxdp_bpf_map_close(b), 0);
	ck_assert_int_eq(uxdp_bpf_map_alive_count(), 0);
}
END_TEST

START_TEST(test_map_value_sizes)
{
	int ncpus, pa, ph, pg, ar;

	ck_assert_int_eq(uxdp_set_nr_cpus(3), 0);
	ncpus = uxdp_bpf_num_possible_cpus();
	pa = uxdp_bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "pa", 4, 12, 1, NULL);
	ph = uxdp_bpf_map_create(BPF_MAP_TYPE_LRU_PERCPU_HASH, "ph", 4, 4, 1, NULL);
	pg = uxdp_bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY, "pg", 4, 4, 1, NULL);
	ar = uxdp_bpf_map_create(BPF_MAP_TYPE_ARRAY, "ar", 4, 13, 1, NULL);
	ck_assert_int_eq(ncpus, 3);
	ck_assert_uint_eq(uxdp_bpf_map_value_size(pa), 16 * 3);
	ck_assert_uint_eq(uxdp_bpf_map_value_size(ph), 8 * 3);
	ck_assert_uint_eq(uxdp_bpf_map_value_size(pg), 4);
	ck_assert_uint_eq(uxdp_bpf_map_value_size(ar), 13);
	ck_assert_uint_eq(uxdp_bpf_map_value_size(9999), 0);
	ck_assert_int_eq(uxdp_set_nr_cpus(4), -EBUSY);
	uxdp_bpf_map_close(pa);
	uxdp_bpf_map_close(ph);
	uxdp_bpf_map_close(pg);
	uxdp_bpf_map_close(ar);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("kernel/bpf/syscall");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, test_teardown);
	tcase_add_test(tc, test_map_names_and_extra);
	tcase_add_test(tc, test_map_info_vs_kernel);
	tcase_add_test(tc, test_map_ids_and_refs);
	tcase_add_test(tc, test_map_value_sizes);
	suite_add_tcase(s, tc);
	return s;
}
