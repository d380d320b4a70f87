// SPDX-License-Identifier: GPL-2.0
/*
 * Generic helpers of kernel/bpf/helpers.c called directly: map element
 * helpers dispatch to the map ops, clocks move and differ as the kernel's
 * do, the PRNG is reproducible once seeded, and the printf family applies
 * the kernel's format checks (bpf_bprintf_prepare) and formatting, writing
 * to the per-worker trace buffer.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include <linux/bpf.h>
#include <linux/err.h>
#include <linux/filter.h>
#include <linux/smp.h>

#include "uxdp_test.h"

static u64 call(const struct bpf_func_proto *p, u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	return p->func(r1, r2, r3, r4, r5);
}

#define P(x)	((u64)(uintptr_t)(x))

/* ---- map helpers dispatch to the ops ------------------------------------ */

static u32 fake_value = 1234;
static u64 last_flags;

static void *fake_lookup(struct bpf_map *map, void *key)
{
	return *(u32 *)key == 1 ? &fake_value : NULL;
}

static long fake_update(struct bpf_map *map, void *key, void *value, u64 flags)
{
	last_flags = flags;
	if (flags > BPF_EXIST)
		return -EINVAL;
	fake_value = *(u32 *)value;
	return 0;
}

static long fake_delete(struct bpf_map *map, void *key)
{
	return *(u32 *)key == 1 ? 0 : -ENOENT;
}

START_TEST(test_map_helpers)
{
	struct bpf_map_ops ops = {
		.map_lookup_elem = fake_lookup,
		.map_update_elem = fake_update,
		.map_delete_elem = fake_delete,
	};
	struct bpf_map_ops none = { 0 };
	struct bpf_map map = { .ops = &ops }, bare = { .ops = &none };
	u32 k1 = 1, k2 = 2, v = 99;

	ck_assert_ptr_eq((void *)(uintptr_t)call(&bpf_map_lookup_elem_proto, P(&map), P(&k1), 0, 0, 0),
			 &fake_value);
	ck_assert_uint_eq(call(&bpf_map_lookup_elem_proto, P(&map), P(&k2), 0, 0, 0), 0);
	ck_assert_int_eq((long)call(&bpf_map_update_elem_proto, P(&map), P(&k1), P(&v), BPF_EXIST, 0),
			 0);
	ck_assert_uint_eq(last_flags, BPF_EXIST);
	ck_assert_uint_eq(fake_value, 99);
	ck_assert_int_eq((long)call(&bpf_map_update_elem_proto, P(&map), P(&k1), P(&v), 7, 0),
			 -EINVAL);
	ck_assert_int_eq((long)call(&bpf_map_delete_elem_proto, P(&map), P(&k2), 0, 0, 0), -ENOENT);
	ck_assert_int_eq((long)call(&bpf_map_delete_elem_proto, P(&map), P(&k1), 0, 0, 0), 0);
	/* A map without the op never crashes the helper. */
	ck_assert_uint_eq(call(&bpf_map_lookup_elem_proto, P(&bare), P(&k1), 0, 0, 0), 0);
	ck_assert_int_eq((long)call(&bpf_map_update_elem_proto, P(&bare), P(&k1), P(&v), 0, 0),
			 -EOPNOTSUPP);
	ck_assert_int_eq((long)call(&bpf_map_pop_elem_proto, P(&bare), P(&v), 0, 0, 0),
			 -EOPNOTSUPP);

	ck_assert_int_eq(bpf_map_lookup_elem_proto.ret_type, RET_PTR_TO_MAP_VALUE_OR_NULL);
	ck_assert_int_eq(bpf_map_lookup_elem_proto.arg_type[1], ARG_PTR_TO_MAP_KEY);
	ck_assert_int_eq(bpf_map_update_elem_proto.arg_type[2], ARG_PTR_TO_MAP_VALUE);
	ck_assert(!bpf_map_update_elem_proto.gpl_only);
}
END_TEST

/* The helpers on real maps: per-CPU lookups see the calling worker's slot. */
START_TEST(test_map_helpers_real_maps)
{
	union bpf_attr pa = {
		.map_type = BPF_MAP_TYPE_PERCPU_ARRAY,
		.key_size = 4,
		.value_size = 8,
		.max_entries = 4,
	};
	union bpf_attr ha = {
		.map_type = BPF_MAP_TYPE_HASH,
		.key_size = 4,
		.value_size = 8,
		.max_entries = 2,
	};
	struct bpf_map *pc, *h;
	u64 vals[NR_CPUS] = { 0 }, v = 5, *p;
	u32 k = 2, k2 = 3, k3 = 4, big = 4;
	unsigned int cpu;

	pc = bpf_map_new(&pa);
	ck_assert(!IS_ERR(pc));
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		vals[cpu] = 100 + cpu;
	ck_assert_int_eq(bpf_map_update_value(pc, &k, vals, 0), 0);
	p = (u64 *)(uintptr_t)call(&bpf_map_lookup_elem_proto, P(pc), P(&k), 0, 0, 0);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(*p, 100);
	if (nr_cpu_ids > 1) {
		uxdp_worker_bind_cpu(1);
		p = (u64 *)(uintptr_t)call(&bpf_map_lookup_elem_proto, P(pc), P(&k), 0, 0, 0);
		ck_assert_uint_eq(*p, 101);
		/* An update from CPU 1 changes CPU 1's slot only. */
		ck_assert_int_eq((long)call(&bpf_map_update_elem_proto, P(pc), P(&k), P(&v),
					    BPF_ANY, 0), 0);
		ck_assert_int_eq(bpf_map_copy_value(pc, &k, vals, 0), 0);
		ck_assert_uint_eq(vals[0], 100);
		ck_assert_uint_eq(vals[1], 5);
		uxdp_worker_bind_cpu(0);
	}
	ck_assert_uint_eq(call(&bpf_map_lookup_elem_proto, P(pc), P(&big), 0, 0, 0), 0);
	ck_assert_int_eq((long)call(&bpf_map_delete_elem_proto, P(pc), P(&k), 0, 0, 0), -EINVAL);

	h = bpf_map_new(&ha);
	ck_assert(!IS_ERR(h));
	ck_assert_int_eq((long)call(&bpf_map_update_elem_proto, P(h), P(&k), P(&v), BPF_EXIST, 0),
			 -ENOENT);
	ck_assert_int_eq((long)call(&bpf_map_update_elem_proto, P(h), P(&k), P(&v), BPF_NOEXIST,
				    0), 0);
	ck_assert_int_eq((long)call(&bpf_map_update_elem_proto, P(h), P(&k), P(&v), BPF_NOEXIST,
				    0), -EEXIST);
	ck_assert_int_eq((long)call(&bpf_map_update_elem_proto, P(h), P(&k2), P(&v), BPF_ANY, 0),
			 0);
	ck_assert_int_eq((long)call(&bpf_map_update_elem_proto, P(h), P(&k3), P(&v), BPF_ANY, 0),
			 -E2BIG);
	ck_assert_int_eq((long)call(&bpf_map_update_elem_proto, P(h), P(&k3), P(&v), 4, 0),
			 -EINVAL);
	ck_assert_int_eq((long)call(&bpf_map_delete_elem_proto, P(h), P(&k), 0, 0, 0), 0);
	ck_assert_int_eq((long)call(&bpf_map_delete_elem_proto, P(h), P(&k), 0, 0, 0), -ENOENT);
	bpf_map_put_with_uref(h);
	bpf_map_put_with_uref(pc);
	ck_assert_int_eq(bpf_map_alive_count(), 0);
}
END_TEST

/* ---- clocks, cpu, random ------------------------------------------------ */

static u64 now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

START_TEST(test_clocks)
{
	u64 a = call(&bpf_ktime_get_ns_proto, 0, 0, 0, 0, 0);
	u64 ref = now(CLOCK_MONOTONIC);
	u64 b = call(&bpf_ktime_get_ns_proto, 0, 0, 0, 0, 0);
	u64 boot = call(&bpf_ktime_get_boot_ns_proto, 0, 0, 0, 0, 0);
	u64 coarse = call(&bpf_ktime_get_coarse_ns_proto, 0, 0, 0, 0, 0);

	ck_assert_uint_le(a, ref);
	ck_assert_uint_le(ref, b);
	/* Boot time includes suspend: never behind monotonic. */
	ck_assert_uint_ge(boot + 1000000, b);
	/* Coarse lags by at most a tick (a few ms). */
	ck_assert_uint_le(coarse, b + 1000);
	ck_assert_uint_ge(coarse + 50000000ULL, b);
}
END_TEST

START_TEST(test_smp_processor_id)
{
	ck_assert_uint_eq(call(&bpf_get_smp_processor_id_proto, 0, 0, 0, 0, 0), 0);
	if (nr_cpu_ids > 1) {
		uxdp_worker_bind_cpu(1);
		ck_assert_uint_eq(call(&bpf_get_smp_processor_id_proto, 0, 0, 0, 0, 0), 1);
	}
}
END_TEST

START_TEST(test_prandom_seeded)
{
	u32 a[16], b[16];
	int i, same = 0;

	bpf_user_rnd_seed(42);
	for (i = 0; i < 16; i++)
		a[i] = call(&bpf_get_prandom_u32_proto, 0, 0, 0, 0, 0);
	bpf_user_rnd_seed(42);
	for (i = 0; i < 16; i++)
		b[i] = call(&bpf_get_prandom_u32_proto, 0, 0, 0, 0, 0);
	ck_assert_mem_eq(a, b, sizeof(a));
	bpf_user_rnd_seed(43);
	for (i = 0; i < 16; i++)
		same += call(&bpf_get_prandom_u32_proto, 0, 0, 0, 0, 0) == a[i];
	ck_assert_int_lt(same, 2);
	/* Not degenerate: values spread over all 32 bits. */
	for (i = 1, same = 0; i < 16; i++)
		same += a[i] == a[0];
	ck_assert_int_eq(same, 0);
}
END_TEST

START_TEST(test_prandom_per_cpu)
{
	u32 c0, c1;

	if (nr_cpu_ids < 2)
		return;
	bpf_user_rnd_seed(7);
	c0 = call(&bpf_get_prandom_u32_proto, 0, 0, 0, 0, 0);
	uxdp_worker_bind_cpu(1);
	bpf_user_rnd_seed(7);
	c1 = call(&bpf_get_prandom_u32_proto, 0, 0, 0, 0, 0);
	ck_assert_uint_ne(c0, c1);
}
END_TEST

START_TEST(test_tail_call_proto)
{
	ck_assert_int_eq(bpf_tail_call_proto.ret_type, RET_VOID);
	ck_assert_int_eq(bpf_tail_call_proto.arg_type[0], ARG_PTR_TO_CTX);
	ck_assert_int_eq(bpf_tail_call_proto.arg_type[1], ARG_CONST_MAP_PTR);
	ck_assert_int_eq((long)call(&bpf_tail_call_proto, 0, 0, 0, 0, 0), -EINVAL);
}
END_TEST

/* ---- printf family ------------------------------------------------------ */

/* Everything a test passes is readable up to its real size. */
static const void *probe_base;
static size_t probe_len;

static size_t test_probe_limit(const void *ptr)
{
	const char *p = ptr, *b = probe_base;

	return p >= b && p < b + probe_len ? (size_t)(b + probe_len - p) : 0;
}

static long printk3(const char *fmt, u64 a1, u64 a2, u64 a3)
{
	return (long)call(&bpf_trace_printk_proto, P(fmt), strlen(fmt) + 1, a1, a2, a3);
}

static const char *pipe_line(void)
{
	static char line[2048];
	size_t n = bpf_trace_pipe_read(line, sizeof(line) - 1);

	line[n] = '\0';
	return line;
}

START_TEST(test_trace_printk_formats)
{
	static const char str[] = "world";
	static const u8 ip4[4] = { 192, 0, 2, 1 };
	static const u8 ip6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

	ck_assert_int_eq(printk3("hello", 0, 0, 0), 5);
	ck_assert_str_eq(pipe_line(), "hello\n");
	ck_assert_int_eq(printk3("%d %u %x", (u64)-5, 3000000000ULL, 255), 16);
	ck_assert_str_eq(pipe_line(), "-5 3000000000 ff\n");
	ck_assert_int_eq(printk3("%lld %llx %lu", (u64)-1, 0x1122334455ULL, 1ULL << 40), 27);
	ck_assert_str_eq(pipe_line(), "-1 1122334455 1099511627776\n");
	/* %d takes 32 bits of the register. */
	printk3("%d %i %X", 0x100000001ULL, 0xffffffffULL, 0xabcULL);
	ck_assert_str_eq(pipe_line(), "1 -1 ABC\n");
	printk3("[%5d|%-5d|%05d]", 42, 42, 42);
	ck_assert_str_eq(pipe_line(), "[   42|42   |00042]\n");
	printk3("[%+d|% d|%08x]", 7, 7, 0xbeef);
	ck_assert_str_eq(pipe_line(), "[+7| 7|0000beef]\n");
	printk3("%c%c%% done\n", 'o', 'k', 0);
	ck_assert_str_eq(pipe_line(), "ok% done\n");

	bpf_probe_read_limit = test_probe_limit;
	probe_base = str;
	probe_len = sizeof(str);
	ck_assert_int_eq(printk3("hello %s!", P(str), 0, 0), 12);
	ck_assert_str_eq(pipe_line(), "hello world!\n");
	printk3("[%8s|%-8s]", P(str), P(str), 0);
	ck_assert_str_eq(pipe_line(), "[   world|world   ]\n");
	/* Only readable bytes: a pointer outside the program's memory is "". */
	printk3("<%s>", P(str) + 100, 0, 0);
	ck_assert_str_eq(pipe_line(), "<>\n");
	/* Cut at the end of readable memory even without a NUL. */
	probe_len = 3;
	printk3("<%s>", P(str), 0, 0);
	ck_assert_str_eq(pipe_line(), "<wo>\n");

	probe_base = ip4;
	probe_len = 4;
	printk3("%pI4 %pi4", P(ip4), P(ip4), 0);
	ck_assert_str_eq(pipe_line(), "192.0.2.1 192.000.002.001\n");
	probe_base = ip6;
	probe_len = 16;
	printk3("%pI6|%pi6", P(ip6), P(ip6), 0);
	ck_assert_str_eq(pipe_line(), "2001:0db8:0000:0000:0000:0000:0000:0001|"
				      "20010db8000000000000000000000001\n");
	/* Prepared strings ignore the width, as the kernel's bstr_printf does. */
	probe_base = ip4;
	probe_len = 4;
	printk3("[%16pI4]", P(ip4), 0, 0);
	ck_assert_str_eq(pipe_line(), "[192.0.2.1]\n");
	/* Unreadable address: printed as zeros. */
	printk3("%pI4", 16, 0, 0);
	ck_assert_str_eq(pipe_line(), "0.0.0.0\n");
	bpf_probe_read_limit = NULL;
	printk3("%s|", P(str), 0, 0);
	ck_assert_str_eq(pipe_line(), "|\n");

	printk3("%px %p.", 0x1234, 0xffff888000000000ULL, 0);
	ck_assert_str_eq(pipe_line(), "0000000000001234 ffff888000000000.\n");
}
END_TEST

START_TEST(test_trace_printk_rejects)
{
	/* Each is -EINVAL and prints nothing. */
	static const char *const bad[] = {
		"%d %d %d %d",		/* four conversions, three arguments */
		"%5.2d",		/* precision */
		"%hd",			/* h qualifier */
		"%llld",
		"%f",
		"%n",
		"%",			/* lone % at the end */
		"%sx",			/* %s followed by alnum */
		"%pZ",			/* unknown pointer extension */
		"%pI5",
		"bell\a",		/* non-printable */
		"caf\xc3\xa9",		/* non-ASCII */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ck_assert_msg(printk3(bad[i], 1, 2, 3) == -EINVAL, "format '%s'", bad[i]);
	ck_assert_str_eq(pipe_line(), "");
	/* The format must be NUL-terminated within fmt_size. */
	ck_assert_int_eq((long)call(&bpf_trace_printk_proto, P("abc"), 3, 0, 0, 0), -EINVAL);
	ck_assert_int_eq((long)call(&bpf_trace_printk_proto, P("abc\0def"), 8, 0, 0, 0), 3);
	ck_assert_str_eq(pipe_line(), "abc\n");
	/* Tabs and newlines are fine; "%%" needs no argument. */
	ck_assert_int_eq(printk3("a\tb %%%%", 0, 0, 0), 6);
	ck_assert_str_eq(pipe_line(), "a\tb %%\n");
}
END_TEST

START_TEST(test_trace_printk_truncates)
{
	char fmt[1100];

	memset(fmt, 'x', 1099);
	fmt[1099] = '\0';
	/* The return value is the full length; the message keeps 1023 bytes. */
	ck_assert_int_eq(printk3(fmt, 0, 0, 0), 1099);
	ck_assert_int_eq(strlen(pipe_line()), 1024);
}
END_TEST

START_TEST(test_trace_vprintk_and_snprintf)
{
	u64 args[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	static const char fmt[] = "%d %d %d %d %d %d %d %d %d %d %d %d";
	char out[64];

	ck_assert_int_eq((long)call(&bpf_trace_vprintk_proto, P(fmt), sizeof(fmt), P(args), 96, 0),
			 26);
	ck_assert_str_eq(pipe_line(), "1 2 3 4 5 6 7 8 9 10 11 12\n");
	ck_assert_int_eq((long)call(&bpf_trace_vprintk_proto, P(fmt), sizeof(fmt), P(args), 88, 0),
			 -EINVAL);	/* 12 conversions, 11 args */
	ck_assert_int_eq((long)call(&bpf_trace_vprintk_proto, P(fmt), sizeof(fmt), P(args), 12, 0),
			 -EINVAL);	/* not a multiple of 8 */
	ck_assert_int_eq((long)call(&bpf_trace_vprintk_proto, P(fmt), sizeof(fmt), P(args), 104, 0),
			 -EINVAL);	/* more than 12 */
	ck_assert_int_eq((long)call(&bpf_trace_vprintk_proto, P(fmt), sizeof(fmt), 0, 8, 0),
			 -EINVAL);

	/* bpf_snprintf returns the length including the NUL, like the kernel. */
	ck_assert_int_eq((long)call(&bpf_snprintf_proto, P(out), sizeof(out), P("v=%d"), P(args),
				    8), 4);
	ck_assert_str_eq(out, "v=1");
	ck_assert_int_eq((long)call(&bpf_snprintf_proto, P(out), 3, P("v=%d%d"), P(args), 16), 5);
	ck_assert_str_eq(out, "v=");
	ck_assert_int_eq((long)call(&bpf_snprintf_proto, 0, 0, P("abc"), 0, 0), 4);
	/*
	 * Kernel quirk: a prepared string (%pI4) met after the buffer is full
	 * is not counted, and the next argument is read from its bytes.
	 */
	{
		static const u8 ip[4] = { 10, 0, 0, 1 };
		u64 a2[2] = { P(ip), 7 };

		bpf_probe_read_limit = test_probe_limit;
		probe_base = ip;
		probe_len = 4;
		ck_assert_int_eq((long)call(&bpf_snprintf_proto, P(out), sizeof(out),
					    P("ab%pI4-%d"), P(a2), 16), 13);
		ck_assert_str_eq(out, "ab10.0.0.1-7");
		ck_assert_int_eq((long)call(&bpf_snprintf_proto, P(out), 2, P("ab%pI4-%c"),
					    P(a2), 16), 5);
		bpf_probe_read_limit = NULL;
	}
	ck_assert_int_eq((long)call(&bpf_snprintf_proto, P(out), sizeof(out), P("%d"), P(args),
				    0), -EINVAL);
	ck_assert(bpf_snprintf_proto.gpl_only && bpf_trace_printk_proto.gpl_only);
}
END_TEST

START_TEST(test_trace_pipe_full)
{
	char msg[1000];
	int i;

	memset(msg, 'y', sizeof(msg) - 1);
	msg[sizeof(msg) - 1] = '\0';
	for (i = 0; i < 70; i++)
		printk3(msg, 0, 0, 0);
	/* 64 KiB keeps 65 messages of 1000 bytes; the rest are counted. */
	ck_assert_uint_eq(bpf_trace_pipe_dropped(), 5);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("kernel/bpf/helpers");
	TCase *tc = tcase_create("helpers");

	tcase_add_test(tc, test_map_helpers);
	tcase_add_test(tc, test_map_helpers_real_maps);
	tcase_add_test(tc, test_clocks);
	tcase_add_test(tc, test_smp_processor_id);
	tcase_add_test(tc, test_prandom_seeded);
	tcase_add_test(tc, test_prandom_per_cpu);
	tcase_add_test(tc, test_tail_call_proto);
	tcase_add_test(tc, test_trace_printk_formats);
	tcase_add_test(tc, test_trace_printk_rejects);
	tcase_add_test(tc, test_trace_printk_truncates);
	tcase_add_test(tc, test_trace_vprintk_and_snprintf);
	tcase_add_test(tc, test_trace_pipe_full);
	suite_add_tcase(s, tc);
	return s;
}
