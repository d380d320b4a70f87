// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bpf/arraymap.c: ARRAY, PERCPU_ARRAY, PROG_ARRAY, PERF_EVENT_ARRAY,
 * ARRAY_OF_MAPS. Creation checks and element operations are compared with
 * the kernel's (map_oracle.h); program-side behaviour (per-CPU slots,
 * arena bounds, global data, program references, perf records) is checked
 * directly.
 */
#include <linux/filter.h>

#include "map_oracle.h"

static void test_teardown(void)
{
	oracle_leak_check();
}

START_TEST(test_array_create_checks)
{
	oracle_setup();
	dual_create_expect(BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_ARRAY, 8, 8, 4, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_ARRAY, 2, 8, 4, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_ARRAY, 4, 0, 4, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_ARRAY, 4, 8, 0, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_ARRAY, 4, 8, 4, BPF_F_NO_PREALLOC, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_ARRAY, 4, 8, 4, BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_ARRAY, 4, 8, 4, BPF_F_RDONLY | BPF_F_WRONLY, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_ARRAY, 4, 8, 4, BPF_F_PRESERVE_ELEMS, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_ARRAY, 4, 8, 4, BPF_F_RDONLY_PROG, 1);
	dual_create_expect(BPF_MAP_TYPE_ARRAY, 4, 8, 4, BPF_F_INNER_MAP, 1);
	dual_create_expect(BPF_MAP_TYPE_ARRAY, 4, 3, 5, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 4, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 4, BPF_F_INNER_MAP, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 32 * 1024 + 1, 4, 0, -E2BIG);
	dual_create_expect(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 32 * 1024, 1, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_PROG_ARRAY, 4, 8, 4, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, BPF_F_RDONLY_PROG, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 4, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 4, BPF_F_PRESERVE_ELEMS, 1);
	dual_create_expect(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 8, 4, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 4, 0, -EINVAL);	/* no inner map */
	dual_create_expect(100, 4, 4, 4, 0, -EINVAL);
}
END_TEST

/* Random and edge-case operation sequences on ARRAY and PERCPU_ARRAY. */
static void array_ops_vs_kernel(u32 type, u32 value_size, u32 max_entries)
{
	static const u64 flags_set[] = { BPF_ANY, BPF_NOEXIST, BPF_EXIST, BPF_F_LOCK, 3, 7 };
	struct dual_map m;
	u8 value[4096], next[4];
	u32 key, i, n;

	oracle_setup();
	ck_assert(dual_create(&m, type, 4, value_size, max_entries, 0));
	/* fresh map: every index reads as zeroes */
	for (key = 0; key < max_entries + 2; key++)
		dual_lookup(&m, &key, NULL);
	ck_assert_int_eq(dual_get_next_key(&m, NULL, next, true), 0);
	ck_assert_uint_eq(*(u32 *)next, 0);

	for (i = 0; i < 600; i++) {
		u32 op = oracle_rand() % 5;

		key = oracle_rand() % (max_entries + 3);
		if (oracle_rand() % 8 == 0)
			key = UINT32_MAX - oracle_rand() % 2;
		for (n = 0; n < m.vsys; n++)
			value[n] = oracle_rand();
		switch (op) {
		case 0:
		case 1:
			dual_update(&m, &key, value, flags_set[oracle_rand() % ARRAY_SIZE(flags_set)]);
			break;
		case 2:
			dual_lookup(&m, &key, NULL);
			break;
		case 3:
			ck_assert_int_eq(dual_delete(&m, &key), -EINVAL);
			break;
		case 4:
			dual_get_next_key(&m, oracle_rand() % 4 ? &key : NULL, next, true);
			break;
		}
	}
	/* the last index has no next key */
	key = max_entries - 1;
	ck_assert_int_eq(dual_get_next_key(&m, &key, next, true), -ENOENT);
	/* BPF_F_LOCK without a spin lock in the value */
	dual_lookup_flags(&m, &key, NULL, BPF_F_LOCK, true);
	dual_lookup_flags(&m, &key, NULL, 8, true);
	ck_assert_int_eq(dual_compare_all(&m), max_entries);
	dual_close(&m);
}

START_TEST(test_array_ops_vs_kernel)
{
	array_ops_vs_kernel(BPF_MAP_TYPE_ARRAY, 12, 7);
	array_ops_vs_kernel(BPF_MAP_TYPE_ARRAY, 64, 16);
}
END_TEST

START_TEST(test_percpu_array_ops_vs_kernel)
{
	array_ops_vs_kernel(BPF_MAP_TYPE_PERCPU_ARRAY, 12, 7);
	array_ops_vs_kernel(BPF_MAP_TYPE_PERCPU_ARRAY, 8, 3);
}
END_TEST

/* Frozen maps and BPF_F_RDONLY / BPF_F_WRONLY: the syscall side is refused. */
START_TEST(test_array_frozen_and_access_flags)
{
	struct dual_map m;
	u32 key = 1;
	u64 v = 42;
	long k;

	oracle_setup();
	ck_assert(dual_create(&m, BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0));
	ck_assert_int_eq(dual_update(&m, &key, &v, BPF_ANY), 0);
	ck_assert_int_eq(uxdp_bpf_map_freeze(m.id), 0);
	if (m.kfd >= 0) {
		union bpf_attr attr = { .map_fd = m.kfd };

		ck_assert_int_eq(sys_bpf(BPF_MAP_FREEZE, &attr), 0);
		k = sys_bpf(BPF_MAP_FREEZE, &attr);
		ck_assert_int_eq(k, uxdp_bpf_map_freeze(m.id));
	} else {
		ck_assert_int_eq(uxdp_bpf_map_freeze(m.id), -EPERM);
	}
	ck_assert_int_eq(dual_update(&m, &key, &v, BPF_ANY), -EPERM);
	ck_assert_int_eq(dual_lookup(&m, &key, NULL), 0);
	dual_close(&m);

	ck_assert(dual_create(&m, BPF_MAP_TYPE_ARRAY, 4, 8, 4, BPF_F_RDONLY));
	ck_assert_int_eq(dual_update(&m, &key, &v, BPF_ANY), -EPERM);
	ck_assert_int_eq(dual_lookup(&m, &key, NULL), 0);
	dual_close(&m);
	ck_assert(dual_create(&m, BPF_MAP_TYPE_ARRAY, 4, 8, 4, BPF_F_WRONLY));
	ck_assert_int_eq(dual_update(&m, &key, &v, BPF_ANY), 0);
	ck_assert_int_eq(dual_lookup(&m, &key, NULL), -EPERM);
	ck_assert_int_eq(dual_get_next_key(&m, NULL, &key, true), -EPERM);
	dual_close(&m);
}
END_TEST

/* Program side: each CPU (worker) has its own PERCPU_ARRAY slot. */
START_TEST(test_percpu_array_slots_per_cpu)
{
	int ncpus, cpu, id;
	struct bpf_map *map;
	u64 *sys, *p;
	u32 key = 2;

	ck_assert_int_eq(uxdp_set_nr_cpus(4), 0);
	id = uxdp_bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "pcpu", 4, 12, 3, NULL);
	ck_assert_int_gt(id, 0);
	ck_assert_int_eq(uxdp_set_nr_cpus(3), -EBUSY);	/* shapes are fixed now */
	ncpus = uxdp_bpf_num_possible_cpus();
	ck_assert_int_eq(ncpus, 4);
	map = bpf_map_get(id);
	for (cpu = 0; cpu < ncpus; cpu++) {
		u8 val[12];

		uxdp_worker_bind_cpu(cpu);
		memset(val, 0x10 + cpu, sizeof(val));
		ck_assert_int_eq(map->ops->map_update_elem(map, &key, val, BPF_ANY), 0);
		p = map->ops->map_lookup_elem(map, &key);
		ck_assert_ptr_nonnull(p);
		ck_assert((void *)p >= map->arena_lo && (char *)p + 12 <= (char *)map->arena_hi);
	}
	uxdp_worker_bind_cpu(0);
	ck_assert_uint_eq(uxdp_bpf_map_value_size(id), 16 * ncpus);
	sys = calloc(ncpus, 16);
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(id, &key, sys), 0);
	for (cpu = 0; cpu < ncpus; cpu++) {
		u8 *slot = (u8 *)sys + cpu * 16;

		ck_assert_uint_eq(slot[0], 0x10 + cpu);
		ck_assert_uint_eq(slot[11], 0x10 + cpu);
	}
	/* user space writes every CPU's slot; the program sees its own */
	for (cpu = 0; cpu < ncpus; cpu++)
		sys[cpu * 2] = 1000 + cpu;
	ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, sys, BPF_ANY), 0);
	for (cpu = 0; cpu < ncpus; cpu++) {
		uxdp_worker_bind_cpu(cpu);
		p = map->ops->map_lookup_elem(map, &key);
		ck_assert_uint_eq(*p, 1000 + cpu);
	}
	uxdp_worker_bind_cpu(0);
	free(sys);
	ck_assert_int_eq(uxdp_bpf_map_close(id), 0);
}
END_TEST

/* Every value pointer a program can get lies inside the map's arena. */
START_TEST(test_array_arena_bounds)
{
	static const u32 sizes[] = { 1, 4, 12, 64, 100 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		int id = uxdp_bpf_map_create(BPF_MAP_TYPE_ARRAY, "a", 4, sizes[i], 13, NULL);
		struct bpf_map *map = bpf_map_get(id);
		u32 key;

		ck_assert_int_gt(id, 0);
		for (key = 0; key < 20; key++) {
			char *p = map->ops->map_lookup_elem(map, &key);

			if (key >= 13) {
				ck_assert_ptr_null(p);
				continue;
			}
			ck_assert(p >= (char *)map->arena_lo && p + sizes[i] <= (char *)map->arena_hi);
		}
		uxdp_bpf_map_close(id);
	}
}
END_TEST

/* Global data: single-element arrays expose their value's address. */
START_TEST(test_array_direct_value_addr)
{
	int id = uxdp_bpf_map_create(BPF_MAP_TYPE_ARRAY, ".data", 4, 24, 1, NULL);
	struct bpf_map *map = bpf_map_get(id);
	u32 zero = 0;
	u64 imm = 0;

	ck_assert_int_eq(map->ops->map_direct_value_addr(map, &imm, 0), 0);
	ck_assert_ptr_eq((void *)(unsigned long)imm, map->ops->map_lookup_elem(map, &zero));
	ck_assert_int_eq(map->ops->map_direct_value_addr(map, &imm, 23), 0);
	ck_assert_int_eq(map->ops->map_direct_value_addr(map, &imm, 24), -EINVAL);
	uxdp_bpf_map_close(id);

	id = uxdp_bpf_map_create(BPF_MAP_TYPE_ARRAY, "big", 4, 24, 2, NULL);
	map = bpf_map_get(id);
	ck_assert_int_eq(map->ops->map_direct_value_addr(map, &imm, 0), -ENOTSUPP);
	uxdp_bpf_map_close(id);
}
END_TEST

/* A trivial XDP program for the kernel side of PROG_ARRAY tests. */
static int kprog_load(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.insns = (u64)(unsigned long)insns;
	attr.insn_cnt = 2;
	attr.license = (u64)(unsigned long)"GPL";
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

static struct bpf_prog *uprog_new(void)
{
	struct bpf_prog *prog = bpf_prog_alloc(2);

	ck_assert(!IS_ERR(prog));
	prog->type = BPF_PROG_TYPE_XDP;
	ck_assert_int_gt(bpf_prog_alloc_id(prog), 0);
	return prog;
}

START_TEST(test_prog_array_vs_kernel_and_refs)
{
	struct bpf_prog *prog = uprog_new();
	u32 pid = prog->aux->id, bad = 4000, key, got;
	int kfd = -1, kbad = 9999;
	struct dual_map m;

	oracle_setup();
	ck_assert(dual_create(&m, BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, 0));
	if (m.kfd >= 0) {
		kfd = kprog_load();
		ck_assert_int_ge(kfd, 0);
	}
	key = 1;
	ck_assert_int_eq(dual_update2(&m, &key, &pid, &kfd, BPF_NOEXIST), -EINVAL);
	ck_assert_int_eq(dual_update2(&m, &key, &pid, &kfd, BPF_EXIST), -EINVAL);
	ck_assert_int_eq(dual_update2(&m, &key, &bad, &kbad, BPF_ANY), -EBADF);
	ck_assert_int_eq(dual_lookup_flags(&m, &key, NULL, 0, false), -ENOENT);
	ck_assert_int_eq(dual_delete(&m, &key), -ENOENT);
	ck_assert_int_eq(dual_update2(&m, &key, &pid, &kfd, BPF_ANY), 0);
	ck_assert_int_eq(prog->refcnt, 2);
	ck_assert_int_eq(dual_lookup_flags(&m, &key, &got, 0, false), 0);
	ck_assert_uint_eq(got, pid);		/* the kernel too returns the prog id */
	ck_assert_int_eq(dual_update2(&m, &key, &pid, &kfd, BPF_ANY), 0);	/* replace: old ref dropped */
	ck_assert_int_eq(prog->refcnt, 2);
	key = 4;
	ck_assert_int_eq(dual_update2(&m, &key, &pid, &kfd, BPF_ANY), -E2BIG);
	ck_assert_int_eq(dual_delete(&m, &key), -E2BIG);
	ck_assert_int_eq(dual_lookup_flags(&m, &key, NULL, 0, false), -ENOENT);
	key = 1;
	ck_assert_int_eq(dual_delete(&m, &key), 0);
	ck_assert_int_eq(prog->refcnt, 1);
	key = 3;
	ck_assert_int_eq(dual_update2(&m, &key, &pid, &kfd, BPF_ANY), 0);
	ck_assert_int_eq(dual_compare_all(&m), 4);
	ck_assert_int_eq(prog->refcnt, 2);
	/* the last user reference clears the slots, then the map goes */
	dual_close(&m);
	ck_assert_int_eq(prog->refcnt, 1);
	if (kfd >= 0)
		close(kfd);
	bpf_prog_put(prog);
}
END_TEST

/* The program side of PROG_ARRAY: the interpreter reads array->ptrs. */
START_TEST(test_prog_array_ptrs_and_map_put)
{
	struct bpf_prog *prog = uprog_new();
	u32 pid = prog->aux->id, key = 2;
	int id = uxdp_bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY, "jmp", 4, 4, 8, NULL);
	struct bpf_map *map = bpf_map_get(id);
	struct bpf_array *array = container_of(map, struct bpf_array, map);

	ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &key, &pid, BPF_ANY), 0);
	ck_assert_ptr_eq(array->ptrs[2], prog);
	ck_assert_ptr_null(map->ops->map_lookup_elem(map, &key));	/* not for programs */
	/* a program holding the map keeps it alive after the user closes it */
	bpf_map_inc(map);
	ck_assert_int_eq(uxdp_bpf_map_close(id), 0);
	ck_assert_int_eq(uxdp_bpf_map_alive_count(), 1);
	ck_assert_ptr_null(array->ptrs[2]);	/* uref gone: slots cleared */
	ck_assert_int_eq(prog->refcnt, 1);
	bpf_map_put(map);
	bpf_prog_put(prog);
}
END_TEST

START_TEST(test_array_of_maps_vs_kernel)
{
	struct dual_map inner, inner2, inner_big, inner_hash, outer, prog_array;
	u32 key = 0, got;

	oracle_setup();
	ck_assert(dual_create(&inner, BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0));
	ck_assert(dual_create(&inner2, BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0));
	ck_assert(dual_create(&inner_big, BPF_MAP_TYPE_ARRAY, 4, 8, 5, 0));
	ck_assert(dual_create(&inner_hash, BPF_MAP_TYPE_HASH, 4, 8, 4, 0));
	ck_assert(dual_create(&prog_array, BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, 0));
	ck_assert(!dual_create_inner(&outer, BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 4, 0, &prog_array));
	ck_assert_int_eq(outer.id, -ENOTSUPP);
	ck_assert(!dual_create_inner(&outer, BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 8, 4, 0, &inner));
	ck_assert(dual_create_inner(&outer, BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 3, 0, &inner));

	ck_assert_int_eq(dual_update2(&outer, &key, &inner.id, &inner.kfd, BPF_NOEXIST), -EINVAL);
	ck_assert_int_eq(dual_update2(&outer, &key, &inner_big.id, &inner_big.kfd, BPF_ANY), -EINVAL);
	ck_assert_int_eq(dual_update2(&outer, &key, &inner_hash.id, &inner_hash.kfd, BPF_ANY), -EINVAL);
	ck_assert_int_eq(dual_update2(&outer, &key, &inner.id, &inner.kfd, BPF_ANY), 0);
	key = 2;
	ck_assert_int_eq(dual_update2(&outer, &key, &inner2.id, &inner2.kfd, BPF_ANY), 0);
	ck_assert_int_eq(dual_lookup_flags(&outer, &key, &got, 0, false), 0);
	ck_assert_uint_eq(got, inner2.id);
	key = 1;
	ck_assert_int_eq(dual_lookup_flags(&outer, &key, &got, 0, false), -ENOENT);
	key = 3;
	ck_assert_int_eq(dual_update2(&outer, &key, &inner.id, &inner.kfd, BPF_ANY), -E2BIG);
	/* a map of maps cannot be an inner map */
	{
		struct dual_map nested;

		ck_assert(!dual_create_inner(&nested, BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 3, 0, &outer));
		ck_assert_int_eq(nested.id, -EINVAL);
	}
	/* program side: the lookup yields the inner map itself */
	{
		struct bpf_map *map = bpf_map_get(outer.id);

		key = 2;
		ck_assert_ptr_eq(map->ops->map_lookup_elem(map, &key), bpf_map_get(inner2.id));
	}
	/* inner maps closed by their creator live on inside the outer map */
	dual_close(&inner);
	dual_close(&inner2);
	ck_assert_int_eq(uxdp_bpf_map_alive_count(), 6);
	key = 0;
	ck_assert_int_eq(dual_delete(&outer, &key), 0);
	ck_assert_int_eq(dual_delete(&outer, &key), -ENOENT);
	ck_assert_int_eq(uxdp_bpf_map_alive_count(), 5);
	dual_close(&outer);
	dual_close(&inner_big);
	dual_close(&inner_hash);
	dual_close(&prog_array);
}
END_TEST

START_TEST(test_inner_map_flag)
{
	struct dual_map inner, inner_big, outer;
	u32 key = 0;

	oracle_setup();
	ck_assert(dual_create(&inner, BPF_MAP_TYPE_ARRAY, 4, 8, 4, BPF_F_INNER_MAP));
	ck_assert(dual_create(&inner_big, BPF_MAP_TYPE_ARRAY, 4, 8, 64, BPF_F_INNER_MAP));
	ck_assert(dual_create_inner(&outer, BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 2, 0, &inner));
	ck_assert_int_eq(dual_update2(&outer, &key, &inner_big.id, &inner_big.kfd, BPF_ANY), 0);
	dual_close(&outer);
	dual_close(&inner);
	dual_close(&inner_big);
}
END_TEST

struct perf_seen {
	int n;
	int cpu[8];
	u32 size[8];
	u8 data[8][64];
};

static int perf_cb(void *ctx, int cpu, void *data, u32 size)
{
	struct perf_seen *s = ctx;

	if (s->n < 8) {
		s->cpu[s->n] = cpu;
		s->size[s->n] = size;
		memcpy(s->data[s->n], data, size < 64 ? size : 64);
	}
	s->n++;
	return 0;
}

START_TEST(test_perf_event_array_records)
{
	struct dual_map m;
	struct perf_seen seen = {};
	u32 key = 1, any = 77;
	u8 meta[6] = "meta!", pkt[10] = "packetdat";
	struct bpf_map *map;

	oracle_setup();
	ck_assert_int_eq(uxdp_set_nr_cpus(2), 0);	/* no per-CPU map here: CPU 1 exists */
	ck_assert(dual_create(&m, BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 2, 0));
	/* user space cannot read slots, empty or not (kernel: -ENOTSUPP) */
	ck_assert_int_eq(dual_lookup_flags(&m, &key, NULL, 0, false), -ENOTSUPP);
	ck_assert_int_eq(dual_delete(&m, &key), -ENOENT);
	map = bpf_map_get(m.id);
	ck_assert_int_eq(bpf_event_output_store(map, 1, meta, sizeof(meta), NULL, 0), -ENOENT);
	ck_assert_int_eq(uxdp_bpf_map_update_elem(m.id, &key, &any, BPF_ANY), 0);
	ck_assert_int_eq(bpf_event_output_store(map, 1, meta, sizeof(meta), pkt, 4), 0);
	ck_assert_int_eq(bpf_event_output_store(map, 2, meta, sizeof(meta), NULL, 0), -E2BIG);
	ck_assert_int_eq(bpf_event_output_store(map, 1ULL << 60, meta, 1, NULL, 0), -EINVAL);
	ck_assert_int_eq(bpf_event_output_store(map, BPF_F_CURRENT_CPU, meta, 1, NULL, 0), -ENOENT);
	uxdp_worker_bind_cpu(1);
	ck_assert_int_eq(bpf_event_output_store(map, BPF_F_CURRENT_CPU, meta, 2, NULL, 0), 0);
	uxdp_worker_bind_cpu(0);
	ck_assert_int_eq(uxdp_bpf_perf_event_consume(m.id, perf_cb, &seen), 2);
	ck_assert_int_eq(seen.n, 2);
	ck_assert_int_eq(seen.cpu[0], 1);
	ck_assert_uint_eq(seen.size[0], sizeof(meta) + 4);
	ck_assert_mem_eq(seen.data[0], "meta!\0pack", 10);
	ck_assert_uint_eq(seen.size[1], 2);
	ck_assert_int_eq(uxdp_bpf_perf_event_consume(m.id, perf_cb, &seen), 0);
	/* fill the store: records are lost and counted, never overwritten */
	{
		static u8 big[30000];
		int i, ok = 0;

		for (i = 0; i < 20; i++)
			ok += bpf_event_output_store(map, 1, big, sizeof(big), NULL, 0) == 0;
		ck_assert_int_lt(ok, 20);
		ck_assert_uint_eq(perf_event_array_lost(map), 20 - ok);
		seen.n = 0;
		ck_assert_int_eq(uxdp_bpf_perf_event_consume(m.id, perf_cb, &seen), ok);
	}
	ck_assert_int_eq(uxdp_bpf_map_delete_elem(m.id, &key), 0);
	ck_assert_int_eq(uxdp_bpf_ringbuf_consume(m.id, perf_cb, &seen), -EINVAL);
	dual_close(&m);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("kernel/bpf/arraymap");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, test_teardown);
	tcase_add_test(tc, test_array_create_checks);
	tcase_add_test(tc, test_array_ops_vs_kernel);
	tcase_add_test(tc, test_percpu_array_ops_vs_kernel);
	tcase_add_test(tc, test_array_frozen_and_access_flags);
	tcase_add_test(tc, test_percpu_array_slots_per_cpu);
	tcase_add_test(tc, test_array_arena_bounds);
	tcase_add_test(tc, test_array_direct_value_addr);
	tcase_add_test(tc, test_prog_array_vs_kernel_and_refs);
	tcase_add_test(tc, test_prog_array_ptrs_and_map_put);
	tcase_add_test(tc, test_array_of_maps_vs_kernel);
	tcase_add_test(tc, test_inner_map_flag);
	tcase_add_test(tc, test_perf_event_array_records);
	suite_add_tcase(s, tc);
	return s;
}
