// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bpf/devmap.c: DEVMAP and DEVMAP_HASH. Creation checks, update
 * flags, deletes, read-back values and key walks are compared with the
 * kernel's, using ifindex 1 (lo), which exists in the kernel too; then the
 * uxdp-only parts: entries naming no device, devmap programs and their
 * references, and bpf_redirect_map() decisions (map_redirect).
 */
#include <limits.h>

#include <linux/filter.h>
#include <linux/netdevice.h>

#include "map_oracle.h"

static void test_teardown(void)
{
	oracle_leak_check();
}

START_TEST(test_devmap_create_checks)
{
	static const u32 types[] = { BPF_MAP_TYPE_DEVMAP, BPF_MAP_TYPE_DEVMAP_HASH };
	unsigned int t;

	oracle_setup();
	for (t = 0; t < ARRAY_SIZE(types); t++) {
		dual_create_expect(types[t], 4, 4, 8, 0, 1);
		dual_create_expect(types[t], 4, 8, 8, 0, 1);
		dual_create_expect(types[t], 4, 6, 8, 0, -EINVAL);
		dual_create_expect(types[t], 4, 12, 8, 0, -EINVAL);
		dual_create_expect(types[t], 8, 4, 8, 0, -EINVAL);
		dual_create_expect(types[t], 4, 4, 0, 0, -EINVAL);
		dual_create_expect(types[t], 4, 4, 8, BPF_F_NO_PREALLOC, -EINVAL);
		dual_create_expect(types[t], 4, 4, 8, BPF_F_RDONLY_PROG, -EINVAL);
		dual_create_expect(types[t], 4, 4, 8, BPF_F_RDONLY, 1);
	}
}
END_TEST

/* BPF_F_RDONLY_PROG is forced on, as the kernel does. */
START_TEST(test_devmap_info_vs_kernel)
{
	struct bpf_map_info uinfo, kinfo;
	struct dual_map m;

	oracle_setup();
	ck_assert(dual_create(&m, BPF_MAP_TYPE_DEVMAP, 4, 8, 4, 0));
	ck_assert_int_eq(uxdp_bpf_map_get_info(m.id, &uinfo), 0);
	ck_assert_uint_eq(uinfo.map_flags, BPF_F_RDONLY_PROG);
	if (m.kfd >= 0) {
		union bpf_attr attr;

		memset(&attr, 0, sizeof(attr));
		memset(&kinfo, 0, sizeof(kinfo));
		attr.info.bpf_fd = m.kfd;
		attr.info.info_len = sizeof(kinfo);
		attr.info.info = (u64)(unsigned long)&kinfo;
		ck_assert_int_eq(sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr), 0);
		ck_assert_uint_eq(kinfo.map_flags, uinfo.map_flags);
	}
	dual_close(&m);
}
END_TEST

static void devmap_ops_vs_kernel(u32 type, u32 value_size, u32 max_entries, u32 key_space, int nops)
{
	static const u64 flags_set[] = { BPF_ANY, BPF_NOEXIST, BPF_EXIST, BPF_ANY, 4 };
	struct bpf_devmap_val val;
	struct dual_map m;
	u32 key, next;
	int i;

	oracle_setup();
	ck_assert(dual_create(&m, type, 4, value_size, max_entries, 0));
	for (i = 0; i < nops; i++) {
		u32 op = oracle_rand() % 6;

		key = oracle_rand() % key_space;
		memset(&val, 0, sizeof(val));
		val.ifindex = oracle_rand() % 5 ? 1 : 0;
		switch (op) {
		case 0:
		case 1:
			dual_update(&m, &key, &val, flags_set[oracle_rand() % ARRAY_SIZE(flags_set)]);
			break;
		case 2:
			dual_lookup(&m, &key, NULL);
			break;
		case 3:
			dual_delete(&m, &key);
			break;
		case 4:
			dual_get_next_key(&m, oracle_rand() % 4 ? &key : NULL, &next, true);
			break;
		case 5:
			if (value_size == 8) {
				/* a program fd needs a program; 0 = none is fine */
				val.ifindex = 0;
				val.bpf_prog.fd = 5;
				dual_update(&m, &key, &val, BPF_ANY);	/* -EINVAL */
			}
			break;
		}
	}
	dual_compare_all(&m);
	dual_close(&m);
}

START_TEST(test_devmap_ops_vs_kernel)
{
	devmap_ops_vs_kernel(BPF_MAP_TYPE_DEVMAP, 4, 8, 11, 600);
	devmap_ops_vs_kernel(BPF_MAP_TYPE_DEVMAP, 8, 8, 11, 600);
}
END_TEST

START_TEST(test_devmap_hash_ops_vs_kernel)
{
	devmap_ops_vs_kernel(BPF_MAP_TYPE_DEVMAP_HASH, 4, 8, 40, 800);
	devmap_ops_vs_kernel(BPF_MAP_TYPE_DEVMAP_HASH, 8, 16, 100, 800);
}
END_TEST

/* uxdp has no devices yet: any ifindex is kept as given and read back. */
START_TEST(test_devmap_without_devices)
{
	struct bpf_devmap_val val = { .ifindex = 4242 }, got;
	int id = uxdp_bpf_map_create(BPF_MAP_TYPE_DEVMAP, "tx", 4, 8, 4, NULL);
	struct bpf_map *map = bpf_map_get(id);
	u32 key = 3;
	struct bpf_devmap_val *pv;

	ck_assert_ptr_null(dev_get_by_index(4242));
	ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &val, BPF_ANY), 0);
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(id, &key, &got), 0);
	ck_assert_uint_eq(got.ifindex, 4242);
	ck_assert_uint_eq(got.bpf_prog.id, 0);
	pv = map->ops->map_lookup_elem(map, &key);
	ck_assert((void *)pv >= map->arena_lo && (char *)pv + 8 <= (char *)map->arena_hi);
	ck_assert_uint_eq(pv->ifindex, 4242);
	uxdp_bpf_map_close(id);
}
END_TEST

static struct bpf_prog *uprog_new(enum bpf_attach_type eat)
{
	struct bpf_prog *prog = bpf_prog_alloc(2);

	ck_assert(!IS_ERR(prog));
	prog->type = BPF_PROG_TYPE_XDP;
	prog->expected_attach_type = eat;
	ck_assert_int_gt(bpf_prog_alloc_id(prog), 0);
	return prog;
}

START_TEST(test_devmap_prog_refs)
{
	static const u32 types[] = { BPF_MAP_TYPE_DEVMAP, BPF_MAP_TYPE_DEVMAP_HASH };
	struct bpf_prog *dprog = uprog_new(BPF_XDP_DEVMAP), *plain = uprog_new(0);
	unsigned int t;

	for (t = 0; t < ARRAY_SIZE(types); t++) {
		int id = uxdp_bpf_map_create(types[t], "tx", 4, 8, 4, NULL);
		struct bpf_devmap_val val = { .ifindex = 7 }, got;
		u32 key = 2;

		val.bpf_prog.fd = plain->aux->id;
		ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &val, BPF_ANY), -EINVAL);
		val.bpf_prog.fd = 999;
		ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &val, BPF_ANY), -EINVAL);
		val.bpf_prog.fd = dprog->aux->id;
		ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &val, BPF_ANY), 0);
		ck_assert_int_eq(dprog->refcnt, 2);
		ck_assert_int_eq(uxdp_bpf_map_lookup_elem(id, &key, &got), 0);
		ck_assert_uint_eq(got.bpf_prog.id, dprog->aux->id);	/* readable back as written */
		ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &val, BPF_ANY), 0);
		ck_assert_int_eq(dprog->refcnt, 2);
		ck_assert_int_eq(uxdp_bpf_map_delete_elem(id, &key), 0);
		ck_assert_int_eq(dprog->refcnt, 1);
		ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &val, BPF_ANY), 0);
		uxdp_bpf_map_close(id);		/* the map frees its entries */
		ck_assert_int_eq(dprog->refcnt, 1);
	}
	bpf_prog_put(dprog);
	bpf_prog_put(plain);
}
END_TEST

/* bpf_redirect_map() on a devmap: hit, miss (flags & 3), bad flags, broadcast. */
START_TEST(test_devmap_redirect)
{
	static const u32 types[] = { BPF_MAP_TYPE_DEVMAP, BPF_MAP_TYPE_DEVMAP_HASH };
	unsigned int t;

	for (t = 0; t < ARRAY_SIZE(types); t++) {
		int id = uxdp_bpf_map_create(types[t], "tx", 4, 4, 8, NULL);
		struct bpf_map *map = bpf_map_get(id);
		struct bpf_redirect_info *ri = bpf_net_ctx_get_ri();
		u32 key = 5, ifindex = 3;

		ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &ifindex, BPF_ANY), 0);

		memset(ri, 0, sizeof(*ri));
		ck_assert_int_eq(map->ops->map_redirect(map, 5, 0), XDP_REDIRECT);
		ck_assert_uint_eq(ri->tgt_index, 5);
		ck_assert_uint_eq(ri->map_id, map->id);
		ck_assert_int_eq(ri->map_type, types[t]);
		ck_assert_ptr_nonnull(ri->tgt_value);
		ck_assert_ptr_null(ri->map);
		ck_assert_uint_eq(ri->flags, 0);
		ck_assert_ptr_null(dev_map_entry_dev(ri->tgt_value));	/* no device 3 in uxdp */

		ck_assert_int_eq(map->ops->map_redirect(map, 6, 0), XDP_ABORTED);
		ck_assert_uint_eq(ri->map_id, INT_MAX);
		ck_assert_int_eq(ri->map_type, BPF_MAP_TYPE_UNSPEC);
		ck_assert_int_eq(map->ops->map_redirect(map, 6, XDP_PASS), XDP_PASS);
		ck_assert_int_eq(map->ops->map_redirect(map, 6, XDP_DROP), XDP_DROP);
		ck_assert_int_eq(map->ops->map_redirect(map, 1000, XDP_TX), XDP_TX);
		ck_assert_int_eq(map->ops->map_redirect(map, 5, 1 << 2), XDP_ABORTED);
		ck_assert_int_eq(map->ops->map_redirect(map, 5, 1ULL << 40 | XDP_PASS), XDP_ABORTED);
		ck_assert_int_eq(map->ops->map_redirect(map, 5, BPF_F_EXCLUDE_INGRESS | XDP_PASS),
				 XDP_REDIRECT);

		/* broadcast: the map and flags are kept, even for a missing key */
		ck_assert_int_eq(map->ops->map_redirect(map, 0, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS),
				 XDP_REDIRECT);
		ck_assert_ptr_eq(ri->map, map);
		ck_assert_uint_eq(ri->flags, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS);
		ck_assert_uint_eq(ri->map_id, map->id);

		/* the last call wins */
		ck_assert_int_eq(map->ops->map_redirect(map, 5, 0), XDP_REDIRECT);
		ck_assert_ptr_null(ri->map);
		uxdp_bpf_map_close(id);
	}
}
END_TEST

struct walk_seen {
	int n;
	u32 keys[8];
	int stop_at;
};

static int walk_cb(void *entry, u32 key, void *ctx)
{
	struct walk_seen *w = ctx;

	ck_assert_ptr_nonnull(entry);
	w->keys[w->n++] = key;
	return w->n == w->stop_at ? 42 : 0;
}

/* Broadcast support: every filled slot, in key/bucket order. */
START_TEST(test_devmap_for_each_entry)
{
	static const u32 types[] = { BPF_MAP_TYPE_DEVMAP, BPF_MAP_TYPE_DEVMAP_HASH };
	struct bpf_prog *dprog = uprog_new(BPF_XDP_DEVMAP);
	unsigned int t;

	for (t = 0; t < ARRAY_SIZE(types); t++) {
		int id = uxdp_bpf_map_create(types[t], "tx", 4, 8, 8, NULL);
		struct bpf_map *map = bpf_map_get(id);
		struct bpf_devmap_val val = { .ifindex = 9 };
		struct walk_seen w = {};
		u32 key;

		for (key = 1; key < 7; key += 2) {
			val.bpf_prog.fd = key == 3 ? dprog->aux->id : 0;
			ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &val, BPF_ANY), 0);
		}
		ck_assert_int_eq(dev_map_for_each_entry(map, walk_cb, &w), 0);
		ck_assert_int_eq(w.n, 3);
		ck_assert_uint_eq(w.keys[0], 1);
		ck_assert_uint_eq(w.keys[1], 3);
		ck_assert_uint_eq(w.keys[2], 5);
		w = (struct walk_seen){ .stop_at = 2 };
		ck_assert_int_eq(dev_map_for_each_entry(map, walk_cb, &w), 42);
		ck_assert_int_eq(w.n, 2);
		ck_assert_int_eq(map->ops->map_redirect(map, 3, 0), XDP_REDIRECT);
		ck_assert_ptr_eq(dev_map_entry_prog(bpf_net_ctx_get_ri()->tgt_value), dprog);
		ck_assert_int_eq(map->ops->map_redirect(map, 5, 0), XDP_REDIRECT);
		ck_assert_ptr_null(dev_map_entry_prog(bpf_net_ctx_get_ri()->tgt_value));
		uxdp_bpf_map_close(id);
	}
	{
		int id = uxdp_bpf_map_create(BPF_MAP_TYPE_ARRAY, "a", 4, 4, 1, NULL);

		ck_assert_int_eq(dev_map_for_each_entry(bpf_map_get(id), walk_cb, NULL), -EINVAL);
		uxdp_bpf_map_close(id);
	}
	bpf_prog_put(dprog);
}
END_TEST

/* bpf_redirect_map() verdicts: uxdp's map_redirect against the kernel's. */
static const u64 redirect_flags[] = {
	0, XDP_DROP, XDP_PASS, XDP_TX, 4, BPF_F_BROADCAST, BPF_F_EXCLUDE_INGRESS,
	BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS, BPF_F_BROADCAST | XDP_PASS, 32 | XDP_PASS,
	1ULL << 40, BPF_F_EXCLUDE_INGRESS | XDP_TX,
};

START_TEST(test_devmap_redirect_vs_kernel)
{
	static const u32 types[] = { BPF_MAP_TYPE_DEVMAP, BPF_MAP_TYPE_DEVMAP_HASH };
	unsigned int t, f;

	oracle_setup();
	for (t = 0; t < ARRAY_SIZE(types); t++) {
		u32 keys[] = { 0, 2, 3, 7, 8, 100 }, key = 2, lo = 1;
		struct dual_map m;
		struct bpf_map *map;
		unsigned int k;

		ck_assert(dual_create(&m, types[t], 4, 4, 8, 0));
		ck_assert_int_eq(dual_update(&m, &key, &lo, BPF_ANY), 0);
		map = bpf_map_get(m.id);
		for (k = 0; k < ARRAY_SIZE(keys); k++) {
			for (f = 0; f < ARRAY_SIZE(redirect_flags); f++) {
				long u = map->ops->map_redirect(map, keys[k], redirect_flags[f]);

				if (m.kfd >= 0) {
					long kr = kprog_redirect_map(m.kfd, keys[k], redirect_flags[f]);

					ck_assert_msg(kr == u, "type %u key %u flags %#llx: kernel %ld uxdp %ld",
						      types[t], keys[k],
						      (unsigned long long)redirect_flags[f], kr, u);
				}
			}
		}
		dual_close(&m);
	}
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("kernel/bpf/devmap");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, test_teardown);
	tcase_add_test(tc, test_devmap_create_checks);
	tcase_add_test(tc, test_devmap_info_vs_kernel);
	tcase_add_test(tc, test_devmap_ops_vs_kernel);
	tcase_add_test(tc, test_devmap_hash_ops_vs_kernel);
	tcase_add_test(tc, test_devmap_without_devices);
	tcase_add_test(tc, test_devmap_prog_refs);
	tcase_add_test(tc, test_devmap_redirect);
	tcase_add_test(tc, test_devmap_for_each_entry);
	tcase_add_test(tc, test_devmap_redirect_vs_kernel);
	suite_add_tcase(s, tc);
	return s;
}
