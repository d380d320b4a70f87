// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bpf/hashtab.c: HASH, PERCPU_HASH, LRU_HASH, LRU_PERCPU_HASH,
 * HASH_OF_MAPS. Creation checks, update flags, full maps, deletes and key
 * walks are compared with the kernel's (map_oracle.h); with
 * BPF_F_ZERO_SEED even the get_next_key order must be the kernel's. LRU
 * eviction, per-CPU slots, arena bounds and concurrent use are checked
 * directly.
 */
#include <pthread.h>

#include "map_oracle.h"

static void test_teardown(void)
{
	oracle_leak_check();
}

START_TEST(test_htab_create_checks)
{
	oracle_setup();
	dual_create_expect(BPF_MAP_TYPE_HASH, 4, 8, 4, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_HASH, 0, 8, 4, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_HASH, 4, 0, 4, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_HASH, 4, 8, 0, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_HASH, 4, 8, 4, BPF_F_NO_PREALLOC, 1);
	dual_create_expect(BPF_MAP_TYPE_HASH, 4, 8, 4, BPF_F_NO_COMMON_LRU, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_HASH, 4, 8, 4, BPF_F_MMAPABLE, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_HASH, 4, 8, 4, BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_HASH, 4, 8, 4, BPF_F_ZERO_SEED, 1);
	dual_create_expect(BPF_MAP_TYPE_HASH, 3, 5, 9, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_HASH, 300, 8, 4, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_HASH, 4, 8, 4, BPF_F_INNER_MAP, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_LRU_HASH, 4, 8, 4, BPF_F_NO_PREALLOC, -ENOTSUPP);
	dual_create_expect(BPF_MAP_TYPE_LRU_HASH, 4, 8, 4, BPF_F_NO_COMMON_LRU, 1);
	dual_create_expect(BPF_MAP_TYPE_LRU_PERCPU_HASH, 4, 8, 4, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_PERCPU_HASH, 4, 32 * 1024 + 1, 4, 0, -E2BIG);
	dual_create_expect(BPF_MAP_TYPE_PERCPU_HASH, 4, 8, 4, BPF_F_NO_PREALLOC, 1);
	dual_create_expect(BPF_MAP_TYPE_HASH_OF_MAPS, 4, 8, 4, 0, -EINVAL);
}
END_TEST

/*
 * Random operations over a key space larger than the map, so that full
 * maps (-E2BIG), missing keys and every flag are exercised. @order: also
 * compare the get_next_key order (BPF_F_ZERO_SEED maps).
 */
static void htab_ops_vs_kernel(u32 type, u32 key_size, u32 value_size, u32 max_entries,
			       u32 map_flags, u32 key_space, int nops, bool order)
{
	static const u64 flags_set[] = { BPF_ANY, BPF_NOEXIST, BPF_EXIST, BPF_ANY, BPF_F_LOCK, 4 | 1, 8 };
	u8 key[64], next[64], value[4096];
	struct dual_map m;
	int i;
	u32 n;

	oracle_setup();
	ck_assert(dual_create(&m, type, key_size, value_size, max_entries, map_flags));
	ck_assert_int_eq(dual_get_next_key(&m, NULL, next, true), -ENOENT);
	for (i = 0; i < nops; i++) {
		u32 k = oracle_rand() % key_space, op = oracle_rand() % 6;

		memset(key, 0, sizeof(key));
		memcpy(key, &k, sizeof(k) < key_size ? sizeof(k) : key_size);
		if (key_size > 4)
			key[key_size - 1] = k * 7;
		for (n = 0; n < m.vsys; n++)
			value[n] = oracle_rand();
		switch (op) {
		case 0:
		case 1:
		case 2:
			dual_update(&m, key, value, flags_set[oracle_rand() % ARRAY_SIZE(flags_set)]);
			break;
		case 3:
			dual_lookup(&m, key, NULL);
			break;
		case 4:
			dual_delete(&m, key);
			break;
		case 5:
			/* random seeds order keys differently: only a walk's start compares */
			dual_get_next_key(&m, order && oracle_rand() % 4 ? key : NULL, next, order);
			break;
		}
		if (i % 97 == 0)
			dual_compare_all(&m);
	}
	if (order && m.kfd >= 0) {
		/* walk both from the start: the same keys in the same order */
		int r;

		for (r = dual_get_next_key(&m, NULL, next, true); !r;
		     r = dual_get_next_key(&m, key, next, true))
			memcpy(key, next, key_size);
	}
	dual_compare_all(&m);
	dual_close(&m);
}

START_TEST(test_htab_ops_vs_kernel)
{
	htab_ops_vs_kernel(BPF_MAP_TYPE_HASH, 4, 8, 16, 0, 40, 1500, false);
	htab_ops_vs_kernel(BPF_MAP_TYPE_HASH, 6, 20, 16, BPF_F_NO_PREALLOC, 24, 1000, false);
	htab_ops_vs_kernel(BPF_MAP_TYPE_HASH, 4, 8, 1, 0, 3, 300, false);
}
END_TEST

START_TEST(test_htab_zero_seed_order_vs_kernel)
{
	htab_ops_vs_kernel(BPF_MAP_TYPE_HASH, 4, 8, 32, BPF_F_ZERO_SEED, 64, 1500, true);
	htab_ops_vs_kernel(BPF_MAP_TYPE_HASH, 13, 4, 32, BPF_F_ZERO_SEED, 64, 1000, true);
	htab_ops_vs_kernel(BPF_MAP_TYPE_PERCPU_HASH, 8, 4, 16, BPF_F_ZERO_SEED, 32, 800, true);
}
END_TEST

START_TEST(test_percpu_htab_ops_vs_kernel)
{
	htab_ops_vs_kernel(BPF_MAP_TYPE_PERCPU_HASH, 4, 12, 16, 0, 40, 1200, false);
	htab_ops_vs_kernel(BPF_MAP_TYPE_PERCPU_HASH, 4, 8, 8, BPF_F_NO_PREALLOC, 20, 800, false);
}
END_TEST

/* Below capacity the kernel's LRU never evicts: results must agree. */
START_TEST(test_lru_htab_ops_vs_kernel)
{
	htab_ops_vs_kernel(BPF_MAP_TYPE_LRU_HASH, 4, 8, 1024, 0, 64, 1200, false);
	htab_ops_vs_kernel(BPF_MAP_TYPE_LRU_PERCPU_HASH, 4, 8, 1024, 0, 64, 800, false);
	htab_ops_vs_kernel(BPF_MAP_TYPE_LRU_HASH, 4, 8, 1024, BPF_F_ZERO_SEED, 64, 800, true);
}
END_TEST

/*
 * Keys of every size the lookup compares word-wise (4, 8, 12, 16) and one
 * it leaves to memcmp() (20): keys that differ in one byte only, at each
 * position, are different elements, and each is found again (a compare
 * that reads the wrong bytes of equal keys fails here; one that misses a
 * difference would need a 32-bit hash collision to show).
 */
START_TEST(test_htab_keys_differ_by_one_byte)
{
	static const u32 sizes[] = { 4, 8, 12, 16, 20 };

	for (unsigned int s = 0; s < ARRAY_SIZE(sizes); s++) {
		u32 ks = sizes[s];
		int id = uxdp_bpf_map_create(BPF_MAP_TYPE_HASH, "keys", ks, 8, 64, NULL);
		u8 key[20] = { 0 };
		u64 v;

		ck_assert_int_ge(id, 0);
		for (u32 i = 0; i < ks; i++) {
			memset(key, 0, sizeof(key));
			key[i] = 1;
			v = i;
			ck_assert_int_eq(uxdp_bpf_map_update_elem(id, key, &v, BPF_NOEXIST), 0);
		}
		for (u32 i = 0; i < ks; i++) {
			memset(key, 0, sizeof(key));
			key[i] = 1;
			ck_assert_int_eq(uxdp_bpf_map_lookup_elem(id, key, &v), 0);
			ck_assert_uint_eq(v, i);
		}
		memset(key, 0, sizeof(key));
		ck_assert_int_eq(uxdp_bpf_map_lookup_elem(id, key, &v), -ENOENT);
		uxdp_bpf_map_close(id);
	}
}
END_TEST

/* LRU: a full map evicts the coldest unreferenced element to make room. */
START_TEST(test_lru_eviction)
{
	int id = uxdp_bpf_map_create(BPF_MAP_TYPE_LRU_HASH, "lru", 4, 8, 8, NULL);
	struct bpf_map *map = bpf_map_get(id);
	u64 v = 0;
	u32 k, n = 0, cur, next;
	int r;

	ck_assert_int_gt(id, 0);
	for (k = 0; k < 8; k++) {
		v = k;
		ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &k, &v, BPF_NOEXIST), 0);
	}
	/* the program uses 0..3: they are referenced */
	for (k = 0; k < 4; k++)
		ck_assert_ptr_nonnull(map->ops->map_lookup_elem(map, &k));
	for (k = 100; k < 104; k++) {
		v = k;
		ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &k, &v, BPF_ANY), 0);
	}
	for (k = 0; k < 4; k++)
		ck_assert_int_eq(uxdp_bpf_map_lookup_elem(id, &k, &v), 0);
	for (k = 4; k < 8; k++)
		ck_assert_int_eq(uxdp_bpf_map_lookup_elem(id, &k, &v), -ENOENT);
	for (k = 100; k < 104; k++) {
		ck_assert_int_eq(uxdp_bpf_map_lookup_elem(id, &k, &v), 0);
		ck_assert_uint_eq(v, k);
	}
	for (r = uxdp_bpf_map_get_next_key(id, NULL, &next); !r;
	     r = uxdp_bpf_map_get_next_key(id, &cur, &next)) {
		cur = next;
		n++;
	}
	ck_assert_uint_eq(n, 8);
	/* many more inserts: never more than max_entries, never a failure */
	for (k = 1000; k < 1200; k++)
		ck_assert_int_eq(map->ops->map_update_elem(map, &k, &v, BPF_ANY), 0);
	k = 1199;
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(id, &k, &v), 0);
	ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &k, &v, BPF_NOEXIST), -EEXIST);
	k = 5000;
	ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &k, &v, BPF_EXIST), -ENOENT);
	uxdp_bpf_map_close(id);
}
END_TEST

/*
 * Past capacity the kernel's and uxdp's LRUs may evict different elements;
 * what must agree: every update succeeds, the map never holds more than
 * max_entries, and the newest keys are there.
 */
static void lru_full_vs_kernel(u32 type, u32 max_entries, u32 nkeys)
{
	u8 value[4096] = { 0 };
	struct dual_map m;
	u32 k;
	int n;

	oracle_setup();
	ck_assert(dual_create(&m, type, 4, 8, max_entries, 0));
	for (k = 0; k < nkeys; k++) {
		memcpy(value, &k, sizeof(k));
		ck_assert_int_eq(dual_update(&m, &k, value, BPF_NOEXIST), 0);
	}
	for (k = nkeys - 4; k < nkeys; k++)
		ck_assert_int_eq(dual_lookup(&m, &k, NULL), 0);
	n = 0;
	{
		u32 cur, next;
		int r;

		for (r = uxdp_bpf_map_get_next_key(m.id, NULL, &next); !r;
		     r = uxdp_bpf_map_get_next_key(m.id, &cur, &next)) {
			cur = next;
			n++;
		}
	}
	ck_assert_int_le(n, max_entries);
	ck_assert_int_ge(n, max_entries / 2);
	dual_close(&m);
}

START_TEST(test_lru_full_vs_kernel)
{
	lru_full_vs_kernel(BPF_MAP_TYPE_LRU_HASH, 512, 5000);
	lru_full_vs_kernel(BPF_MAP_TYPE_LRU_PERCPU_HASH, 512, 3000);
}
END_TEST

/* Value pointers: inside the arena; per-CPU maps give this CPU's slot. */
START_TEST(test_htab_arena_and_percpu_slots)
{
	static const u32 types[] = { BPF_MAP_TYPE_HASH, BPF_MAP_TYPE_PERCPU_HASH,
				     BPF_MAP_TYPE_LRU_HASH, BPF_MAP_TYPE_LRU_PERCPU_HASH };
	unsigned int t;

	ck_assert_int_eq(uxdp_set_nr_cpus(3), 0);
	for (t = 0; t < ARRAY_SIZE(types); t++) {
		int id = uxdp_bpf_map_create(types[t], "h", 4, 12, 32, NULL);
		struct bpf_map *map = bpf_map_get(id);
		bool percpu = types[t] == BPF_MAP_TYPE_PERCPU_HASH ||
			      types[t] == BPF_MAP_TYPE_LRU_PERCPU_HASH;
		u8 val[12], sys[16 * 3];
		u32 k;
		int cpu;

		ck_assert_int_gt(id, 0);
		for (k = 0; k < 40; k++) {
			memset(val, k, sizeof(val));
			map->ops->map_update_elem(map, &k, val, BPF_ANY);
		}
		for (k = 0; k < 40; k++) {
			char *p = map->ops->map_lookup_elem(map, &k);

			if (!p)
				continue;
			ck_assert(p >= (char *)map->arena_lo && p + 12 <= (char *)map->arena_hi);
		}
		if (!percpu) {
			uxdp_bpf_map_close(id);
			continue;
		}
		k = 7;
		memset(val, 0, sizeof(val));
		for (cpu = 0; cpu < 3; cpu++) {
			u8 *p;

			uxdp_worker_bind_cpu(cpu);
			p = map->ops->map_lookup_elem(map, &k);
			if (!p) {	/* LRU_PERCPU: 7 may have been evicted */
				ck_assert_int_eq(map->ops->map_update_elem(map, &k, val, BPF_ANY), 0);
				p = map->ops->map_lookup_elem(map, &k);
			}
			p[0] = 0x40 + cpu;
		}
		uxdp_worker_bind_cpu(0);
		ck_assert_int_eq(uxdp_bpf_map_lookup_elem(id, &k, sys), 0);
		for (cpu = 0; cpu < 3; cpu++)
			ck_assert_uint_eq(sys[cpu * 16], 0x40 + cpu);
		/* a new element from a program: other CPUs' slots are zero */
		k = 0;
		uxdp_bpf_map_delete_elem(id, &k);	/* room in a full map */
		k = 5555;
		uxdp_worker_bind_cpu(1);
		memset(val, 0xee, sizeof(val));
		ck_assert_int_eq(map->ops->map_update_elem(map, &k, val, BPF_NOEXIST), 0);
		uxdp_worker_bind_cpu(0);
		ck_assert_int_eq(uxdp_bpf_map_lookup_elem(id, &k, sys), 0);
		ck_assert_uint_eq(sys[0], 0);
		ck_assert_uint_eq(sys[16], 0xee);
		ck_assert_uint_eq(sys[32], 0);
		uxdp_bpf_map_close(id);
	}
}
END_TEST

START_TEST(test_hash_of_maps_vs_kernel)
{
	struct dual_map inner, inner2, inner_other, outer;
	u32 key = 5, got;

	oracle_setup();
	ck_assert(dual_create(&inner, BPF_MAP_TYPE_HASH, 4, 8, 4, 0));
	ck_assert(dual_create(&inner2, BPF_MAP_TYPE_HASH, 4, 8, 100, 0));	/* max_entries may differ */
	ck_assert(dual_create(&inner_other, BPF_MAP_TYPE_HASH, 4, 16, 4, 0));
	ck_assert(dual_create_inner(&outer, BPF_MAP_TYPE_HASH_OF_MAPS, 4, 4, 2, 0, &inner));
	ck_assert_int_eq(dual_update2(&outer, &key, &inner_other.id, &inner_other.kfd, BPF_ANY), -EINVAL);
	ck_assert_int_eq(dual_update2(&outer, &key, &inner.id, &inner.kfd, BPF_EXIST), -ENOENT);
	ck_assert_int_eq(dual_update2(&outer, &key, &inner.id, &inner.kfd, BPF_ANY), 0);
	ck_assert_int_eq(dual_update2(&outer, &key, &inner2.id, &inner2.kfd, BPF_NOEXIST), -EEXIST);
	ck_assert_int_eq(dual_update2(&outer, &key, &inner2.id, &inner2.kfd, BPF_EXIST), 0);
	ck_assert_int_eq(dual_lookup_flags(&outer, &key, &got, 0, false), 0);
	ck_assert_uint_eq(got, inner2.id);
	key = 6;
	ck_assert_int_eq(dual_update2(&outer, &key, &inner.id, &inner.kfd, BPF_ANY), 0);
	key = 7;
	ck_assert_int_eq(dual_update2(&outer, &key, &inner.id, &inner.kfd, BPF_ANY), -E2BIG);
	ck_assert_int_eq(dual_delete(&outer, &key), -ENOENT);
	ck_assert_int_eq(dual_compare_all(&outer), 2);
	{
		struct bpf_map *map = bpf_map_get(outer.id);

		key = 6;
		ck_assert_ptr_eq(map->ops->map_lookup_elem(map, &key), bpf_map_get(inner.id));
	}
	dual_close(&inner);
	dual_close(&inner2);
	ck_assert_int_eq(uxdp_bpf_map_alive_count(), 4);
	key = 5;
	ck_assert_int_eq(dual_delete(&outer, &key), 0);
	ck_assert_int_eq(uxdp_bpf_map_alive_count(), 3);
	dual_close(&outer);
	dual_close(&inner_other);
}
END_TEST

/* Several workers on one map: no crash, no lost element, consistent count. */
struct htab_worker {
	struct bpf_map *map;
	int cpu;
	u32 seed;
};

static void *htab_worker_fn(void *arg)
{
	struct htab_worker *w = arg;
	u32 x = w->seed;
	int i;

	uxdp_worker_bind_cpu(w->cpu);
	for (i = 0; i < 200000; i++) {
		u32 k, op;
		u64 v = i;
		u64 *p;

		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		k = x % 512;
		op = (x >> 16) % 4;
		if (op == 0)
			w->map->ops->map_update_elem(w->map, &k, &v, BPF_ANY);
		else if (op == 1)
			w->map->ops->map_delete_elem(w->map, &k);
		else if ((p = w->map->ops->map_lookup_elem(w->map, &k)))
			__atomic_fetch_add(p, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

START_TEST(test_htab_concurrent_workers)
{
	static const u32 types[] = { BPF_MAP_TYPE_HASH, BPF_MAP_TYPE_LRU_HASH, BPF_MAP_TYPE_PERCPU_HASH };
	unsigned int t;

	ck_assert_int_eq(uxdp_set_nr_cpus(4), 0);
	for (t = 0; t < ARRAY_SIZE(types); t++) {
		int id = uxdp_bpf_map_create(types[t], "mt", 4, 8, 256, NULL);
		struct htab_worker w[4];
		pthread_t th[4];
		u32 cur, next, n = 0, i;
		int r;
		u8 sys[8 * 4];

		for (i = 0; i < 4; i++) {
			w[i] = (struct htab_worker){ .map = bpf_map_get(id), .cpu = i, .seed = 17 + i * 101 };
			ck_assert_int_eq(pthread_create(&th[i], NULL, htab_worker_fn, &w[i]), 0);
		}
		for (i = 0; i < 4; i++)
			pthread_join(th[i], NULL);
		for (r = uxdp_bpf_map_get_next_key(id, NULL, &next); !r && n < 1000;
		     r = uxdp_bpf_map_get_next_key(id, &cur, &next)) {
			ck_assert_uint_lt(next, 512);
			ck_assert_int_eq(uxdp_bpf_map_lookup_elem(id, &next, sys), 0);
			cur = next;
			n++;
		}
		ck_assert_int_eq(r, -ENOENT);
		ck_assert_uint_le(n, 256);
		uxdp_bpf_map_close(id);
	}
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("kernel/bpf/hashtab");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, NULL, test_teardown);
	tcase_add_test(tc, test_htab_create_checks);
	tcase_add_test(tc, test_htab_keys_differ_by_one_byte);
	tcase_add_test(tc, test_htab_ops_vs_kernel);
	tcase_add_test(tc, test_htab_zero_seed_order_vs_kernel);
	tcase_add_test(tc, test_percpu_htab_ops_vs_kernel);
	tcase_add_test(tc, test_lru_htab_ops_vs_kernel);
	tcase_add_test(tc, test_lru_eviction);
	tcase_add_test(tc, test_lru_full_vs_kernel);
	tcase_add_test(tc, test_htab_arena_and_percpu_slots);
	tcase_add_test(tc, test_hash_of_maps_vs_kernel);
	tcase_add_test(tc, test_htab_concurrent_workers);
	suite_add_tcase(s, tc);
	return s;
}
