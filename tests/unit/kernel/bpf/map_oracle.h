/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel as the oracle for map tests: every operation runs on a kernel
 * map (bpf(2) directly, so that no libbpf symbol meets libuxdp's own
 * kernel-named internals) and on the uxdp map of the same shape, and the
 * return codes and contents must agree. Without CAP_BPF (EPERM from the
 * first kernel map) the kernel half is skipped and said so once; the uxdp
 * half still runs.
 *
 * Each test file includes this once; everything is static.
 */
#ifndef _UXDP_TEST_MAP_ORACLE_H
#define _UXDP_TEST_MAP_ORACLE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/smp.h>
#include <uxdp/uxdp_bpf.h>

#include "uxdp_test.h"

static int oracle_kernel = -1;	/* -1 unknown, 0 unavailable, 1 available */

static __maybe_unused long sys_bpf(int cmd, union bpf_attr *attr)
{
	long ret = syscall(__NR_bpf, cmd, attr, sizeof(*attr));

	return ret < 0 ? -errno : ret;
}

/* Kernel per-CPU slots = uxdp workers: make both sides agree. */
static __maybe_unused int oracle_kernel_possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	int lo = 0, hi = 0, n = 1;

	if (f) {
		if (fscanf(f, "%d-%d", &lo, &hi) == 2)
			n = hi + 1;
		else
			n = lo + 1;
		fclose(f);
	}
	return n;
}

static __maybe_unused void oracle_setup(void)
{
	ck_assert_int_eq(uxdp_set_nr_cpus(oracle_kernel_possible_cpus()), 0);
}

struct dual_map {
	int kfd;		/* kernel fd, -1 if none */
	int id;			/* uxdp id, or -errno */
	u32 type, key_size, value_size, max_entries, flags;
	u32 vsys;		/* syscall value size */
	bool fd_values;		/* values are ids/fds: differ between the sides */
};

static __maybe_unused long kmap_create(u32 type, u32 ks, u32 vs, u32 me, u32 flags, int inner_fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = ks;
	attr.value_size = vs;
	attr.max_entries = me;
	attr.map_flags = flags;
	attr.inner_map_fd = inner_fd > 0 ? inner_fd : 0;
	strcpy(attr.map_name, "oracle");
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

/*
 * Create on both sides; the return codes must agree. Returns true if both
 * created a map. @inner: a dual_map the *_OF_MAPS takes its shape from.
 */
static __maybe_unused bool
dual_create_inner(struct dual_map *m, u32 type, u32 ks, u32 vs, u32 me, u32 flags,
		  const struct dual_map *inner)
{
	struct uxdp_bpf_map_create_opts opts = { .sz = sizeof(opts), .map_flags = flags };
	long kret = -1;

	memset(m, 0, sizeof(*m));
	m->kfd = -1;
	m->type = type;
	m->key_size = ks;
	m->value_size = vs;
	m->max_entries = me;
	m->flags = flags;
	m->fd_values = type == BPF_MAP_TYPE_PROG_ARRAY || type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		       type == BPF_MAP_TYPE_HASH_OF_MAPS || type == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
	if (inner)
		opts.inner_map_id = inner->id;
	m->id = uxdp_bpf_map_create(type, "oracle", ks, vs, me, &opts);
	if (oracle_kernel) {
		kret = kmap_create(type, ks, vs, me, flags, inner ? inner->kfd : 0);
		if (kret == -EPERM && oracle_kernel == -1) {
			fprintf(stderr, "map oracle: kernel maps not available (EPERM): "
					"comparing against the kernel is skipped\n");
			oracle_kernel = 0;
		} else if (oracle_kernel == -1 && kret >= 0) {
			oracle_kernel = 1;
		}
	}
	if (oracle_kernel == 1) {
		if (kret >= 0)
			m->kfd = kret;
		ck_assert_msg((kret >= 0) == (m->id > 0) && (kret >= 0 || kret == m->id),
			      "create type %u ks %u vs %u me %u flags %#x: kernel %ld uxdp %d",
			      type, ks, vs, me, flags, kret, m->id);
	}
	if (m->id > 0)
		m->vsys = uxdp_bpf_map_value_size(m->id);
	return m->id > 0;
}

static __maybe_unused bool
dual_create(struct dual_map *m, u32 type, u32 ks, u32 vs, u32 me, u32 flags)
{
	return dual_create_inner(m, type, ks, vs, me, flags, NULL);
}

/* Both sides must refuse (or accept) these attributes alike. */
static __maybe_unused void
dual_create_expect(u32 type, u32 ks, u32 vs, u32 me, u32 flags, int expect)
{
	struct dual_map m;

	dual_create(&m, type, ks, vs, me, flags);
	if (expect <= 0)
		ck_assert_msg(m.id == expect, "create type %u ks %u vs %u me %u flags %#x: uxdp %d, want %d",
			      type, ks, vs, me, flags, m.id, expect);
	if (m.id > 0)
		uxdp_bpf_map_close(m.id);
	if (m.kfd >= 0)
		close(m.kfd);
}

static __maybe_unused void dual_close(struct dual_map *m)
{
	if (m->id > 0)
		ck_assert_int_eq(uxdp_bpf_map_close(m->id), 0);
	if (m->kfd >= 0)
		close(m->kfd);
	m->id = 0;
	m->kfd = -1;
}

static __maybe_unused long kmap_elem(int cmd, int fd, const void *key, void *value, u64 flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (u64)(unsigned long)key;
	attr.value = (u64)(unsigned long)value;	/* next_key for GET_NEXT_KEY */
	attr.flags = flags;
	return sys_bpf(cmd, &attr);
}

/*
 * For fd maps the value is an id on the uxdp side and an fd on the kernel
 * side: @kvalue is what the kernel gets (NULL: same as @value).
 */
static __maybe_unused int
dual_update2(struct dual_map *m, const void *key, const void *value, const void *kvalue,
	     u64 flags)
{
	int u = uxdp_bpf_map_update_elem(m->id, key, value, flags);

	if (m->kfd >= 0) {
		long k = kmap_elem(BPF_MAP_UPDATE_ELEM, m->kfd, key, (void *)(kvalue ?: value), flags);

		ck_assert_msg(k == u, "update type %u flags %#llx: kernel %ld uxdp %d", m->type,
			      (unsigned long long)flags, k, u);
	}
	return u;
}

static __maybe_unused int
dual_update(struct dual_map *m, const void *key, const void *value, u64 flags)
{
	return dual_update2(m, key, value, NULL, flags);
}

/* Lookup on both sides: codes and (if @cmp_value) value bytes must agree. */
static __maybe_unused int
dual_lookup_flags(struct dual_map *m, const void *key, void *value, u64 flags, bool cmp_value)
{
	u8 kbuf[4096], ubuf[4096];
	int u;

	ck_assert_uint_le(m->vsys, sizeof(ubuf));
	memset(ubuf, 0xa5, sizeof(ubuf));
	memset(kbuf, 0xa5, sizeof(kbuf));
	u = uxdp_bpf_map_lookup_elem_flags(m->id, key, ubuf, flags);
	if (m->kfd >= 0) {
		long k = kmap_elem(BPF_MAP_LOOKUP_ELEM, m->kfd, key, kbuf, flags);

		ck_assert_msg(k == u, "lookup type %u: kernel %ld uxdp %d", m->type, k, u);
		if (!u && cmp_value)
			ck_assert_msg(!memcmp(kbuf, ubuf, m->vsys), "lookup type %u: values differ",
				      m->type);
	}
	if (value && !u)
		memcpy(value, ubuf, m->vsys);
	return u;
}

static __maybe_unused int dual_lookup(struct dual_map *m, const void *key, void *value)
{
	return dual_lookup_flags(m, key, value, 0, true);
}

static __maybe_unused int dual_delete(struct dual_map *m, const void *key)
{
	int u = uxdp_bpf_map_delete_elem(m->id, key);

	if (m->kfd >= 0) {
		long k = kmap_elem(BPF_MAP_DELETE_ELEM, m->kfd, key, NULL, 0);

		ck_assert_msg(k == u, "delete type %u: kernel %ld uxdp %d", m->type, k, u);
	}
	return u;
}

/* get_next_key; with @cmp_key the next keys must be equal too. */
static __maybe_unused int
dual_get_next_key(struct dual_map *m, const void *key, void *next, bool cmp_key)
{
	u8 knext[512], unext[512];
	int u;

	memset(knext, 0, sizeof(knext));
	memset(unext, 0, sizeof(unext));
	u = uxdp_bpf_map_get_next_key(m->id, key, unext);
	if (m->kfd >= 0) {
		long k = kmap_elem(BPF_MAP_GET_NEXT_KEY, m->kfd, key, knext, 0);

		ck_assert_msg(k == u, "get_next_key type %u: kernel %ld uxdp %d", m->type, k, u);
		if (!u && cmp_key && memcmp(knext, unext, m->key_size)) {
			char kh[65] = "", uh[65] = "", ih[65] = "";
			u32 i;

			for (i = 0; i < m->key_size && i < 32; i++) {
				sprintf(kh + 2 * i, "%02x", knext[i]);
				sprintf(uh + 2 * i, "%02x", unext[i]);
				if (key)
					sprintf(ih + 2 * i, "%02x", ((const u8 *)key)[i]);
			}
			ck_abort_msg("get_next_key type %u after %s: kernel %s uxdp %s", m->type,
				     key ? ih : "NULL", kh, uh);
		}
	}
	if (next && !u)
		memcpy(next, unext, m->key_size);
	return u;
}

static int oracle_key_cmp_size;

static __maybe_unused int oracle_key_cmp(const void *a, const void *b)
{
	return memcmp(a, b, oracle_key_cmp_size);
}

/* Walk all keys of one side: returns the count, keys sorted in @keys. */
static __maybe_unused int walk_keys(struct dual_map *m, bool kernel, u8 *keys, int max)
{
	u8 cur[512], next[512];
	int n = 0;
	long r;

	for (r = kernel ? kmap_elem(BPF_MAP_GET_NEXT_KEY, m->kfd, NULL, next, 0)
			: uxdp_bpf_map_get_next_key(m->id, NULL, next);
	     r == 0 && n < max;
	     r = kernel ? kmap_elem(BPF_MAP_GET_NEXT_KEY, m->kfd, cur, next, 0)
			: uxdp_bpf_map_get_next_key(m->id, cur, next)) {
		memcpy(keys + (size_t)n * m->key_size, next, m->key_size);
		memcpy(cur, next, m->key_size);
		n++;
	}
	ck_assert_msg(r == -ENOENT || n == max, "walk ended with %ld", r);
	oracle_key_cmp_size = m->key_size;
	qsort(keys, n, m->key_size, oracle_key_cmp);
	return n;
}

/*
 * Whole-map comparison: the same key set (order-insensitive) and, for each
 * key, the same lookup result. Returns the number of keys.
 */
static __maybe_unused int dual_compare_all(struct dual_map *m)
{
	int max = m->max_entries + 8, nk, nu, i;
	u8 *kkeys = calloc(max, m->key_size), *ukeys = calloc(max, m->key_size);

	nu = walk_keys(m, false, ukeys, max);
	if (m->kfd >= 0) {
		nk = walk_keys(m, true, kkeys, max);
		ck_assert_msg(nk == nu, "key count: kernel %d uxdp %d", nk, nu);
		ck_assert_msg(!memcmp(kkeys, ukeys, (size_t)nu * m->key_size), "key sets differ");
	}
	for (i = 0; i < nu; i++)
		dual_lookup_flags(m, ukeys + (size_t)i * m->key_size, NULL, 0, !m->fd_values);
	free(kkeys);
	free(ukeys);
	return nu;
}

/*
 * The kernel's verdict for bpf_redirect_map(map, key, flags) run by an XDP
 * program over a 64-byte frame through BPF_PROG_TEST_RUN (which does not
 * carry the redirect out). Returns the retval, or -errno.
 */
static __maybe_unused long kprog_redirect_map(int map_fd, u32 key, u64 flags)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1, .src_reg = BPF_PSEUDO_MAP_FD,
		  .imm = map_fd },
		{ 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 2, .imm = (s32)key },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 3, .imm = (u32)flags },
		{ .imm = (u32)(flags >> 32) },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_redirect_map },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	u8 pkt[64] = { 0 };
	union bpf_attr attr;
	long fd, err;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.insns = (u64)(unsigned long)insns;
	attr.insn_cnt = ARRAY_SIZE(insns);
	attr.license = (u64)(unsigned long)"GPL";
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0)
		return fd;
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = fd;
	attr.test.data_in = (u64)(unsigned long)pkt;
	attr.test.data_size_in = sizeof(pkt);
	attr.test.repeat = 1;
	err = sys_bpf(BPF_PROG_TEST_RUN, &attr);
	close(fd);
	return err ? err : (long)attr.test.retval;
}

/*
 * Empty slots of a redirect map of @type (4-byte keys and values, 2 slots):
 * uxdp's bpf_redirect_map() verdict against the kernel's for each key and
 * flags combination (out of range, broadcast, unknown flag bits).
 */
static __maybe_unused void dual_redirect_empty_check(enum bpf_map_type type)
{
	static const u64 flags[] = {
		0, XDP_DROP, XDP_PASS, XDP_TX, 4, BPF_F_BROADCAST, BPF_F_EXCLUDE_INGRESS | XDP_PASS,
		32 | XDP_TX, 1ULL << 40,
	};
	static const u32 keys[] = { 0, 1, 5 };
	struct dual_map m;
	struct bpf_map *map;
	unsigned int k, f;

	oracle_setup();
	ck_assert(dual_create(&m, type, 4, 4, 2, 0));
	map = bpf_map_get(m.id);
	for (k = 0; k < ARRAY_SIZE(keys); k++) {
		for (f = 0; f < ARRAY_SIZE(flags); f++) {
			long u = map->ops->map_redirect(map, keys[k], flags[f]);

			if (m.kfd >= 0) {
				long kr = kprog_redirect_map(m.kfd, keys[k], flags[f]);

				ck_assert_msg(kr == u, "key %u flags %#llx: kernel %ld uxdp %ld", keys[k],
					      (unsigned long long)flags[f], kr, u);
			}
		}
	}
	dual_close(&m);
}

/* Every test ends here: nothing may be left alive. */
static __maybe_unused void oracle_leak_check(void)
{
	ck_assert_int_eq(uxdp_bpf_map_alive_count(), 0);
}

/* Small deterministic PRNG for operation sequences (xorshift32). */
static u32 oracle_rand_state = 2463534242u;

static __maybe_unused u32 oracle_rand(void)
{
	u32 x = oracle_rand_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return oracle_rand_state = x;
}

#endif
