// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bpf/ringbuf.c: creation checks and the refused element
 * operations compared with the kernel's; the helpers (reserve, submit,
 * discard, output, query) and the consumer checked directly: record
 * order, discarded records skipped, a full ring, wrap-around records that
 * stay contiguous, and bad samples ignored.
 */
#include <linux/filter.h>

#include "map_oracle.h"

static void test_teardown(void)
{
	oracle_leak_check();
}

START_TEST(test_ringbuf_create_checks)
{
	oracle_setup();
	dual_create_expect(BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_RINGBUF, 0, 0, 8192, 0, 1);
	dual_create_expect(BPF_MAP_TYPE_RINGBUF, 0, 0, 4097, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_RINGBUF, 0, 0, 12288, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_RINGBUF, 0, 0, 2048, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_RINGBUF, 0, 0, 0, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_RINGBUF, 4, 0, 4096, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_RINGBUF, 0, 4, 4096, 0, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, BPF_F_NO_PREALLOC, -EINVAL);
	dual_create_expect(BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, BPF_F_RDONLY_PROG, -EINVAL);
}
END_TEST

START_TEST(test_ringbuf_elem_ops_vs_kernel)
{
	struct dual_map m;
	u8 next[8];

	oracle_setup();
	ck_assert(dual_create(&m, BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0));
	ck_assert_int_eq(dual_lookup(&m, NULL, NULL), -ENOTSUPP);
	ck_assert_int_eq(dual_update(&m, NULL, next, BPF_ANY), -ENOTSUPP);
	ck_assert_int_eq(dual_delete(&m, NULL), -ENOTSUPP);
	ck_assert_int_eq(dual_get_next_key(&m, NULL, next, false), -ENOTSUPP);
	dual_close(&m);
}
END_TEST

static u64 call(const struct bpf_func_proto *p, u64 a, u64 b, u64 c, u64 d)
{
	return p->func(a, b, c, d, 0);
}

struct rec_log {
	int n;
	u32 size[64];
	u8 first[64];
	u8 last[64];
	bool contiguous_ok;
};

static int rec_cb(void *ctx, int cpu, void *data, u32 size)
{
	struct rec_log *l = ctx;
	u8 *d = data;
	u32 i;

	ck_assert_int_eq(cpu, -1);
	if (l->n < 64) {
		l->size[l->n] = size;
		l->first[l->n] = size ? d[0] : 0;
		l->last[l->n] = size ? d[size - 1] : 0;
	}
	for (i = 1; i < size; i++)	/* records are written as first, first+1, ... */
		if (d[i] != (u8)(d[0] + i))
			l->contiguous_ok = false;
	l->n++;
	return 0;
}

static void fill(u8 *p, u32 size, u8 start)
{
	u32 i;

	for (i = 0; i < size; i++)
		p[i] = start + i;
}

START_TEST(test_ringbuf_helpers)
{
	int id = uxdp_bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rb", 0, 0, 4096, NULL);
	struct bpf_map *map = bpf_map_get(id);
	struct rec_log log = { .contiguous_ok = true };
	u8 *a, *b, *c, buf[100];
	u64 map_ptr = (u64)(unsigned long)map;

	ck_assert_int_gt(id, 0);
	ck_assert_uint_eq(call(&bpf_ringbuf_query_proto, map_ptr, BPF_RB_RING_SIZE, 0, 0), 4096);
	ck_assert_uint_eq(call(&bpf_ringbuf_query_proto, map_ptr, BPF_RB_AVAIL_DATA, 0, 0), 0);
	ck_assert_uint_eq(call(&bpf_ringbuf_query_proto, map_ptr, 77, 0, 0), 0);

	ck_assert_uint_eq(call(&bpf_ringbuf_reserve_proto, map_ptr, 10, 1, 0), 0);	/* flags */
	a = (u8 *)(unsigned long)call(&bpf_ringbuf_reserve_proto, map_ptr, 10, 0, 0);
	b = (u8 *)(unsigned long)call(&bpf_ringbuf_reserve_proto, map_ptr, 3, 0, 0);
	c = (u8 *)(unsigned long)call(&bpf_ringbuf_reserve_proto, map_ptr, 0, 0, 0);
	ck_assert(a && b && c);
	ck_assert((void *)a >= map->arena_lo && (void *)(a + 10) <= map->arena_hi);
	ck_assert_ptr_eq(b, a + 16 + 8);	/* 8-byte header, records rounded to 8 */
	ck_assert_uint_eq(call(&bpf_ringbuf_query_proto, map_ptr, BPF_RB_PROD_POS, 0, 0), 24 + 16 + 8);
	fill(a, 10, 1);
	fill(b, 3, 50);
	/* b is committed before a: the consumer must wait for a */
	call(&bpf_ringbuf_discard_proto, (u64)(unsigned long)b, 0, 0, 0);
	ck_assert_int_eq(uxdp_bpf_ringbuf_consume(id, rec_cb, &log), 0);
	call(&bpf_ringbuf_submit_proto, (u64)(unsigned long)a, BPF_RB_NO_WAKEUP, 0, 0);
	call(&bpf_ringbuf_submit_proto, (u64)(unsigned long)c, 0, 0, 0);
	/* a bad sample is ignored, not written through */
	call(&bpf_ringbuf_submit_proto, (u64)(unsigned long)buf, 0, 0, 0);
	call(&bpf_ringbuf_submit_proto, (u64)(unsigned long)(a + 1), 0, 0, 0);
	ck_assert_int_eq(uxdp_bpf_ringbuf_consume(id, rec_cb, &log), 2);	/* b was discarded */
	ck_assert_int_eq(log.n, 2);
	ck_assert_uint_eq(log.size[0], 10);
	ck_assert_uint_eq(log.first[0], 1);
	ck_assert_uint_eq(log.size[1], 0);
	ck_assert_uint_eq(call(&bpf_ringbuf_query_proto, map_ptr, BPF_RB_AVAIL_DATA, 0, 0), 0);
	ck_assert_uint_eq(call(&bpf_ringbuf_query_proto, map_ptr, BPF_RB_CONS_POS, 0, 0), 48);

	/* output: bad flags, then records until the ring is full */
	fill(buf, sizeof(buf), 7);
	ck_assert_int_eq((int)call(&bpf_ringbuf_output_proto, map_ptr, (u64)(unsigned long)buf, 10, 4),
			 -EINVAL);
	{
		int ok = 0, i;
		s64 r = 0;

		for (i = 0; i < 100 && !(r = (s64)call(&bpf_ringbuf_output_proto, map_ptr,
						      (u64)(unsigned long)buf, 100, 0)); i++)
			ok++;
		ck_assert_int_eq(r, -EAGAIN);
		ck_assert_int_eq(ok, 4088 / 112);	/* the ring holds size - 1 bytes */
		ck_assert_uint_eq(call(&bpf_ringbuf_reserve_proto, map_ptr, 100, 0, 0), 0);
		log.n = 0;
		ck_assert_int_eq(uxdp_bpf_ringbuf_consume(id, rec_cb, &log), ok);
	}
	/* records spanning the end of the ring are contiguous (double mapping) */
	{
		int i;

		for (i = 0; i < 200; i++) {
			u32 size = 1 + (i * 37) % 700;
			u8 *p = (u8 *)(unsigned long)call(&bpf_ringbuf_reserve_proto, map_ptr, size, 0, 0);

			ck_assert_ptr_nonnull(p);
			ck_assert((void *)p >= map->arena_lo && (void *)(p + size) <= map->arena_hi);
			fill(p, size, i);
			call(&bpf_ringbuf_submit_proto, (u64)(unsigned long)p, 0, 0, 0);
			log.n = 0;
			ck_assert_int_eq(uxdp_bpf_ringbuf_consume(id, rec_cb, &log), 1);
			ck_assert_uint_eq(log.size[0], size);
			ck_assert_uint_eq(log.first[0], (u8)i);
			ck_assert_uint_eq(log.last[0], (u8)(i + size - 1));
		}
		ck_assert(log.contiguous_ok);
	}
	/* a program scribbling over the next record's header cannot derail the consumer */
	{
		u8 *x = (u8 *)(unsigned long)call(&bpf_ringbuf_reserve_proto, map_ptr, 8, 0, 0);
		u8 *y = (u8 *)(unsigned long)call(&bpf_ringbuf_reserve_proto, map_ptr, 8, 0, 0);
		u32 bogus = 0x3fff0000;

		ck_assert(x && y);
		fill(x, 8, 0);
		call(&bpf_ringbuf_submit_proto, (u64)(unsigned long)x, 0, 0, 0);
		call(&bpf_ringbuf_submit_proto, (u64)(unsigned long)y, 0, 0, 0);
		memcpy(x + 8, &bogus, sizeof(bogus));	/* y's header, inside the arena */
		log.n = 0;
		ck_assert_int_eq(uxdp_bpf_ringbuf_consume(id, rec_cb, &log), 1);
		ck_assert_uint_eq(call(&bpf_ringbuf_query_proto, map_ptr, BPF_RB_AVAIL_DATA, 0, 0), 0);
		ck_assert_uint_ne(call(&bpf_ringbuf_reserve_proto, map_ptr, 100, 0, 0), 0);
	}
	ck_assert_uint_eq(call(&bpf_ringbuf_reserve_proto, map_ptr, 5000, 0, 0), 0);
	ck_assert_int_eq(uxdp_bpf_perf_event_consume(id, rec_cb, &log), -EINVAL);
	uxdp_bpf_map_close(id);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("kernel/bpf/ringbuf");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, test_teardown);
	tcase_add_test(tc, test_ringbuf_create_checks);
	tcase_add_test(tc, test_ringbuf_elem_ops_vs_kernel);
	tcase_add_test(tc, test_ringbuf_helpers);
	suite_add_tcase(s, tc);
	return s;
}
