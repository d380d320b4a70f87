// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bpf/lpm_trie.c: creation checks, updates with every flag, full
 * tries (-ENOSPC), deletes, longest-prefix lookups with several prefix
 * lengths and the postorder get_next_key walk, all compared with the
 * kernel's (the trie is deterministic, so walks must match key for key).
 */
#include "map_oracle.h"

static void test_teardown(void)
{
	oracle_leak_check();
}

START_TEST(test_lpm_create_checks)
{
	oracle_setup();
	dual_create_expect(BPF_MAP_TYPE_LPM_TRIE, 8, 4, 16, BPF_F_NO_PREALLOC, 1);
	dual_create_expect(BPF_MAP_TYPE_LPM_TRIE, 8, 4, 16, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_LPM_TRIE, 4, 4, 16, BPF_F_NO_PREALLOC, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_LPM_TRIE, 5, 4, 16, BPF_F_NO_PREALLOC, 1);
	dual_create_expect(BPF_MAP_TYPE_LPM_TRIE, 260, 4, 16, BPF_F_NO_PREALLOC, 1);
	dual_create_expect(BPF_MAP_TYPE_LPM_TRIE, 261, 4, 16, BPF_F_NO_PREALLOC, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_LPM_TRIE, 8, 0, 16, BPF_F_NO_PREALLOC, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_LPM_TRIE, 8, 4, 0, BPF_F_NO_PREALLOC, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_LPM_TRIE, 8, 4, 16, BPF_F_NO_PREALLOC | BPF_F_MMAPABLE, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_LPM_TRIE, 8, 4, 16, BPF_F_NO_PREALLOC | BPF_F_RDONLY_PROG, 1);
}
END_TEST

struct lpm_key {
	u32 prefixlen;
	u8 data[16];
};

static void lpm_random_key(struct lpm_key *k, u32 data_size, bool lookup)
{
	static const u32 plens4[] = { 0, 1, 7, 8, 9, 12, 16, 20, 23, 24, 25, 28, 31, 32 };
	static const u8 bases[][4] = { { 10, 0, 0, 0 }, { 10, 1, 0, 0 }, { 192, 168, 0, 0 },
				       { 192, 168, 1, 0 }, { 192, 168, 128, 0 }, { 172, 16, 0, 0 } };
	u32 i;

	memset(k, 0, sizeof(*k));
	memcpy(k->data, bases[oracle_rand() % ARRAY_SIZE(bases)], 4);
	for (i = 4; i < data_size; i++)
		k->data[i] = oracle_rand() % 3;
	/* perturb low bits so prefixes overlap in interesting ways */
	k->data[data_size - 1] ^= oracle_rand() % 4 ? 0 : (u8)oracle_rand();
	k->data[2] ^= oracle_rand() % 3 ? 0 : (u8)(oracle_rand() & 0x81);
	if (data_size == 4)
		k->prefixlen = plens4[oracle_rand() % ARRAY_SIZE(plens4)];
	else
		k->prefixlen = oracle_rand() % (data_size * 8 + 1);
	if (lookup && oracle_rand() % 3)
		k->prefixlen = data_size * 8;
	if (oracle_rand() % 40 == 0)
		k->prefixlen = data_size * 8 + 1 + oracle_rand() % 3;	/* invalid */
}

static void lpm_ops_vs_kernel(u32 data_size, u32 max_entries, int nops)
{
	u64 flags_set[] = { BPF_ANY, BPF_NOEXIST, BPF_EXIST, BPF_ANY, 4 };
	struct lpm_key key, next;
	struct dual_map m;
	u8 value[8];
	int i, r;

	oracle_setup();
	ck_assert(dual_create(&m, BPF_MAP_TYPE_LPM_TRIE, 4 + data_size, sizeof(value), max_entries,
			      BPF_F_NO_PREALLOC));
	ck_assert_int_eq(dual_get_next_key(&m, NULL, &next, true), -ENOENT);
	for (i = 0; i < nops; i++) {
		u32 op = oracle_rand() % 8;

		lpm_random_key(&key, data_size, op >= 3 && op <= 5);
		memset(value, 0, sizeof(value));
		value[0] = i;
		value[1] = i >> 8;
		switch (op) {
		case 0:
		case 1:
		case 2:
			dual_update(&m, &key, value, flags_set[oracle_rand() % ARRAY_SIZE(flags_set)]);
			break;
		case 3:
		case 4:
		case 5:
			dual_lookup(&m, &key, NULL);
			break;
		case 6:
			dual_delete(&m, &key);
			break;
		case 7:
			dual_get_next_key(&m, oracle_rand() % 3 ? &key : NULL, &next, true);
			break;
		}
		if (i % 101 == 0) {
			/* full postorder walk, key for key */
			for (r = dual_get_next_key(&m, NULL, &next, true); !r;
			     r = dual_get_next_key(&m, &key, &next, true))
				key = next;
			dual_compare_all(&m);
		}
	}
	dual_compare_all(&m);
	dual_close(&m);
}

START_TEST(test_lpm_ipv4_vs_kernel)
{
	lpm_ops_vs_kernel(4, 24, 2000);
	lpm_ops_vs_kernel(4, 1000, 2000);
}
END_TEST

START_TEST(test_lpm_ipv6_vs_kernel)
{
	lpm_ops_vs_kernel(16, 30, 1500);
	lpm_ops_vs_kernel(1, 8, 500);
}
END_TEST

/* The example in the kernel's lpm_trie.c comment: lookups and the walk order. */
START_TEST(test_lpm_longest_prefix)
{
	struct { u32 plen; u8 a, b, c, d; u32 val; } pfx[] = {
		{ 16, 192, 168, 0, 0, 1 }, { 24, 192, 168, 0, 0, 2 },
		{ 24, 192, 168, 128, 0, 3 }, { 24, 192, 168, 1, 0, 5 }, { 0, 0, 0, 0, 0, 9 },
	};
	struct { u8 a, b, c, d; u32 want; } q[] = {
		{ 192, 168, 0, 7, 2 }, { 192, 168, 1, 1, 5 }, { 192, 168, 128, 9, 3 },
		{ 192, 168, 2, 1, 1 }, { 10, 0, 0, 1, 9 },
	};
	struct lpm_key key = {}, next;
	struct dual_map m;
	unsigned int i;
	u32 v;

	oracle_setup();
	ck_assert(dual_create(&m, BPF_MAP_TYPE_LPM_TRIE, 8, 4, 16, BPF_F_NO_PREALLOC));
	for (i = 0; i < ARRAY_SIZE(pfx); i++) {
		key.prefixlen = pfx[i].plen;
		key.data[0] = pfx[i].a;
		key.data[1] = pfx[i].b;
		key.data[2] = pfx[i].c;
		key.data[3] = pfx[i].d;
		ck_assert_int_eq(dual_update(&m, &key, &pfx[i].val, BPF_NOEXIST), 0);
	}
	for (i = 0; i < ARRAY_SIZE(q); i++) {
		struct bpf_map *map = bpf_map_get(m.id);
		u32 *p;

		key.prefixlen = 32;
		key.data[0] = q[i].a;
		key.data[1] = q[i].b;
		key.data[2] = q[i].c;
		key.data[3] = q[i].d;
		ck_assert_int_eq(dual_lookup(&m, &key, &v), 0);
		ck_assert_uint_eq(v, q[i].want);
		p = map->ops->map_lookup_elem(map, &key);
		ck_assert((void *)p >= map->arena_lo && (char *)p + 4 <= (char *)map->arena_hi);
	}
	/* postorder: more specific first; the default route comes last */
	ck_assert_int_eq(dual_get_next_key(&m, NULL, &next, true), 0);
	ck_assert_uint_eq(next.prefixlen, 24);
	ck_assert_uint_eq(next.data[2], 0);
	dual_close(&m);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("kernel/bpf/lpm_trie");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, test_teardown);
	tcase_add_test(tc, test_lpm_create_checks);
	tcase_add_test(tc, test_lpm_ipv4_vs_kernel);
	tcase_add_test(tc, test_lpm_ipv6_vs_kernel);
	tcase_add_test(tc, test_lpm_longest_prefix);
	suite_add_tcase(s, tc);
	return s;
}
